"""The bundled resources are found from a source checkout too: ``benchmarks/run_all.py`` runs its
children with ``python -c`` from the repository root, where the checkout's ``planner/`` shadows
an installed (non-editable) package that alone maps ``planner.resources`` (issue 19)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from planner import resources_access

CHECKOUT = Path(__file__).resolve().parents[2]


def test_without_the_installed_resources_package_the_checkout_folder_is_used(monkeypatch):
    def not_installed(name):
        raise ModuleNotFoundError(f"No module named {name!r}")

    resources_access._root.cache_clear()
    monkeypatch.setattr(resources, "files", not_installed)
    # as imported from this checkout (under CI the installed copy is imported: point it here)
    monkeypatch.setattr(resources_access, "__file__", str(CHECKOUT / "planner" / "resources_access.py"))
    try:
        racks = resources_access.resource("catalog", "racks.json")
        assert json.loads(racks.read_text(encoding="utf-8"))["items"]  # the real catalogue, read from resources/
        assert resources_access.example_hall_path().is_file()
    finally:
        resources_access._root.cache_clear()
