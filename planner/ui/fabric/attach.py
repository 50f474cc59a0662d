"""Wires the fabric and template parts into the main window (listed in ``EXTENSIONS``).

Adds File ▸ New from template…, Plan ▸ Generate fabric…, Plan ▸ Recompute cable lengths, the
Cables dock (bottom) and the cable bundles layer on the plan with View ▸ Cables to show or hide
it by tier and by rail. The layer draws the live validator's cable bundles, so it comes after
``ui.validation.attach`` in ``EXTENSIONS``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QIcon, QPixmap
from PySide6.QtWidgets import QMenu

from planner.fabric.relength import recompute_lengths
from planner.model.networks import DATA_NETWORKS, NETWORK_WORDS
from planner.model.objects import TIERS
from planner.ui.busy import busy
from planner.ui.cables.dock import CableDock
from planner.ui.cables.layer import CableLayer, rail_colour
from planner.ui.fabric.dialog import GenerateFabricDialog
from planner.ui.jobs.template_dialog import TemplateDialog

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

RAILS = 8


def new_from_template(window: MainWindow) -> None:
    if not window.files.maybe_save():
        return
    dialog = TemplateDialog(window)
    doc = dialog.document() if dialog.exec() == TemplateDialog.DialogCode.Accepted else None
    if doc is not None:
        window.files.set_document(doc, None, dialog.name())


def generate_fabric(window: MainWindow) -> None:
    GenerateFabricDialog(window.session, window).exec()


def recompute(window: MainWindow) -> None:
    doc = window.session.doc
    with busy(window, f"Routing {len(doc.links):,} cables…"):
        command = recompute_lengths(doc, list(doc.links))
        if command.values:
            window.session.push(command)
    window.show_status(f"{len(command.values)} cable length{'s' if len(command.values) != 1 else ''} changed")


def attach(window: MainWindow) -> None:
    file_menu = window.menu("&File")
    action = QAction("New from &template…", window)
    action.setObjectName("new-from-template")
    action.triggered.connect(lambda: new_from_template(window))
    file_menu.insertAction(window.open_action, action)
    window.new_from_template_action = action

    plan_menu = window.menu("&Plan")
    plan_menu.addSeparator()
    generate = plan_menu.addAction("Generate &fabric…")
    generate.setObjectName("generate-fabric")
    generate.triggered.connect(lambda: generate_fabric(window))
    lengths = plan_menu.addAction("Recompute cable &lengths")
    lengths.setObjectName("recompute-lengths")
    lengths.triggered.connect(lambda: recompute(window))

    window.cable_dock = CableDock(window.session, window.plan_view, window)
    window.add_dock(window.cable_dock, Qt.DockWidgetArea.BottomDockWidgetArea)

    layer = CableLayer()
    live = window.live_validator
    layer.follow(live.context)
    window.session.reset.connect(lambda: layer.follow(live.context))
    window.cable_layer = layer
    window.plan_view.plan_scene.add_layer(layer)
    cables = window.menu("&View").addMenu("&Cables")
    _toggle(cables, "Show cables", layer.setVisible)
    cables.addSeparator()
    for network in DATA_NETWORKS:
        _toggle(cables, f"Network {NETWORK_WORDS[network]}", partial(layer.set_network_visible, network))
    cables.addSeparator()
    for tier in TIERS:
        _toggle(cables, f"Tier {tier}", partial(layer.set_tier_visible, tier))
    cables.addSeparator()
    for rail in range(1, RAILS + 1):
        _toggle(cables, f"Rail {rail}", partial(layer.set_rail_visible, rail)).setIcon(
            _swatch(rail_colour(rail)))


def _toggle(menu: QMenu, text: str, slot: Callable[[bool], object]) -> QAction:
    """A checked menu action that shows or hides part of the cable layer."""
    action = menu.addAction(text)
    action.setCheckable(True)
    action.setChecked(True)
    action.toggled.connect(slot)
    return action

def _swatch(colour: QColor) -> QIcon:
    pixmap = QPixmap(12, 12)
    pixmap.fill(colour)
    return QIcon(pixmap)
