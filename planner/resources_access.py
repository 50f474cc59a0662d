"""Find bundled resources through importlib.resources, so they survive a wheel install."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable


def resource(*parts: str) -> Traversable:
    """Return the bundled resource at resources/<parts...>."""
    node = resources.files("planner.resources")
    for part in parts:
        node = node.joinpath(part)
    return node


def example_hall_path() -> Traversable:
    """The example hall the GUI opens when no file is given."""
    return resource("examples", "example.hall")
