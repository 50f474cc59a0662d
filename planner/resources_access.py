"""Find bundled resources through importlib.resources, so they survive a wheel install."""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path


@cache
def _root() -> Traversable:
    """The installed ``planner.resources``; in a source checkout that shadows the installed package
    (``python -c …`` from the repository root, as ``benchmarks/run_all.py`` runs its children)
    there is no such package, and the checkout's own ``resources/`` beside ``planner/`` is used."""
    try:
        return resources.files("planner.resources")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Traversable:
    """Return the bundled resource at resources/<parts...>."""
    node = _root()
    for part in parts:
        node = node.joinpath(part)
    return node


def example_hall_path() -> Traversable:
    """The example hall the GUI opens when no file is given."""
    return resource("examples", "example.hall")
