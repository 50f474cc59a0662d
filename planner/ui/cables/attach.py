"""Wires cabling by hand into the main window (listed in ``EXTENSIONS`` after ``ui.fabric.attach``):
the rack elevation's and the Cables dock's hand cabling route with the live validation's router
(``Context.router()``, kept current across edits), so connecting or rewiring one cable of a
98k-cable hall builds no router of its own.

A cable connected in the elevation is not selected in the Cables dock: showing its row and route
(the plan pans to it) costs a 98k-cable hall ~30 ms per edit; the port's tooltip and the status
bar name it, and its row is a filter away."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.fabric.routing import Router

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow


def attach(window: MainWindow) -> None:
    live = window.live_validator

    def router() -> Router:
        return live.context.router()

    elevation = window.elevation_dock.elevation
    elevation.cabling.router_provider = router
    window.cable_dock.cable_actions.cabling.router_provider = router
