"""Shared fixtures. Qt runs offscreen with isolated settings (see tests/gui/conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from planner.io import load
from planner.resources_access import example_hall_path

DATA = Path(__file__).parent / "data"


@pytest.fixture
def core_doc():
    """The fixed hall the core tests are written against (tests/data/make_core_hall.py)."""
    return load(DATA / "core_hall.hall")


@pytest.fixture
def example_doc():
    """A fresh copy of the bundled example hall."""
    with __import__("importlib").resources.as_file(example_hall_path()) as path:
        return load(path)
