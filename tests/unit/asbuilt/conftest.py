"""The small fabrics of tests/data/discovery (make_plans.py) and the files written against them."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.io import load

DATA = Path(__file__).parents[2] / "data" / "discovery"


@pytest.fixture
def tiny():
    """Two nodes, two rail leaves, two spines, six cables, InfiniBand (see make_plans.py)."""
    return load(DATA / "tiny.hall")


@pytest.fixture
def tiny_eth():
    """The same fabric on Ethernet switches: SONiC leaves, Cumulus spines."""
    return load(DATA / "tiny_eth.hall")
