"""Wires live validation into the main window (listed in ``main_window.EXTENSIONS``): the findings
dock, red/amber marks on the plan and in the rack elevation, the status-bar counts, File ▸ Design basis…
(power, cooling, aisles, cables and trays, floor, units), the View ▸ Overlays menu and the properties
dock's figures. Activating a tray-fill finding centres the plan on the tray and shows the tray overlay."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from planner.rules.object_figures import describe
from planner.rules.ppue import ppue_rows
from planner.ui.validation.basis_dialog import edit_basis
from planner.ui.validation.elevation_marks import ElevationMarks
from planner.ui.validation.findings_dock import FindingsDock, show_count
from planner.ui.validation.live import FindingsUpdate, LiveValidator
from planner.ui.validation.overlays import TRAYS, OverlayController

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow


def attach(window: MainWindow) -> None:
    """Add validation to a main window."""
    session = window.session
    live = LiveValidator(session, window)
    window.live_validator = live
    dock = FindingsDock(session, live, window)
    window.add_dock(dock, Qt.DockWidgetArea.BottomDockWidgetArea)
    window.resizeDocks([dock], [190], Qt.Orientation.Vertical)
    window.findings_dock = dock
    dock.centre_requested.connect(window.plan_view.centre_on_ids)
    dock.centre_rect_requested.connect(window.plan_view.centre_on_rect)

    counts = QLabel()
    counts.setObjectName("findings_counts")
    window.statusBar().addPermanentWidget(counts)

    scene = window.plan_view.plan_scene

    def show_findings(update: FindingsUpdate) -> None:
        """Re-mark only the subjects whose worst severity changed (all of them after a full run)."""
        if update.full:
            scene.set_findings(live.severity_by_id())
        else:
            scene.update_findings(update.marks)
        show_count(counts, live.summary())

    live.updated.connect(show_findings)
    live.checking.connect(lambda _progress: show_count(counts, live.summary()))
    scene.set_findings(live.severity_by_id())
    show_count(counts, live.summary())

    # a setting of the plan, beside its title block and hall features (it sat after Quit in File)
    action = window.menu("&Plan").addAction("Design &basis…")
    action.setToolTip("Voltage, derating, redundancy, coolant, temperatures, aisles, cable slack, "
                      "tray sizes and fill limits, floor method, units")
    action.triggered.connect(lambda: edit_basis(session, window))
    window.design_basis_action = action

    overlays_menu = window.menu("&View").addMenu("&Overlays")
    window.overlays = OverlayController(window.plan_view, window.plan_view.plan_scene, live, overlays_menu)
    dock.tray_requested.connect(lambda _tray_id: window.overlays.set_visible(TRAYS, True))

    window.properties_dock.set_figures_provider(lambda doc, obj_id: [*describe(doc, obj_id), *ppue_rows(doc, obj_id)])
    window.elevation_marks = ElevationMarks(window.elevation_dock.elevation, live)
