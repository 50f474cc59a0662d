"""Wires cabling by hand into the main window (listed in ``EXTENSIONS`` after ``ui.fabric.attach``):
the rack elevation's and the Cables dock's hand cabling route with the live validation's router
(``Context.router()``, kept current across edits), so connecting or rewiring one cable of a
98k-cable hall builds no router of its own.

A cable connected in the elevation is not selected in the Cables dock: showing its row and route
(the plan pans to it) costs a 98k-cable hall ~30 ms per edit; the port's tooltip and the status
bar name it, and its row is a filter away. Activating a finding that names cables alone (N8's per
rack pair) selects their rows in the Cables dock (``select.select_cables``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.fabric.routing import Router
from planner.ui.cables.select import select_cables

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow


def attach(window: MainWindow) -> None:
    live = window.live_validator

    def router() -> Router:
        return live.context.router()

    elevation = window.elevation_dock.elevation
    elevation.cabling.router_provider = router
    window.cable_dock.cable_actions.cabling.router_provider = router
    # a finding naming cables and nothing to centre on (N8's rack pairs) selects them in the dock
    window.findings_dock.cables_requested.connect(lambda ids: select_cables(window.cable_dock, ids))
