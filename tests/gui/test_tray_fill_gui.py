"""Tray fill in the GUI: the design basis dialog's tray sizes, N9 findings in the findings dock
(named as trays, undoable, navigable) and the tray fill overlay, on a 96-node, three-row hall
whose trays are shrunk until they overfill."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from planner.commands.edits import delete_objects
from planner.fabric.trays import Tray
from planner.layout.templates import build_template
from planner.ui.main_window import MainWindow
from planner.ui.plan.units import to_model
from planner.ui.validation.basis_dialog import BasisDialog, push_basis
from planner.ui.validation.overlays import TITLES, TRAYS, OverlayLayer, band_colour

#: The trays carry every data network's cables (compute, storage, in-band and out-of-band
#: management; cords and hoses stay in the rack). Their busiest stretches: row 1's 200 cables,
#: 1,470 mm²; row 2's 212 cables, 2,119 mm²; row 3's 200 cables, 1,414 mm²; the cross-aisle
#: tray's 296 cables between rows 1 and 2, 2,261 mm². Shrunk to 50 × 100 mm (5,000 mm²) row trays
#: and 50 × 50 mm (2,500 mm²) cross-aisle ones, each row tray is 28–42 % full, a warning (over
#: 25 %, under the 50 % limit), and the cross-aisle tray 90 %, over the limit; the short cross-aisle
#: tray at x 4.00 m (10 storage and out-of-band cables, 71 mm², 3 %) stays under the warning.
SHRUNK_MM = {"row_tray_width_m": 50, "row_tray_depth_m": 100, "cross_tray_width_m": 50, "cross_tray_depth_m": 50}
CROSS = "tray:cross:y:7200"
ROWS = {"tray:row:x:3000": "Row 1 tray (y 3.00 m)", "tray:row:x:5400": "Row 2 tray (y 5.40 m)",
        "tray:row:x:8400": "Row 3 tray (y 8.40 m)"}


@pytest.fixture
def window(make_window) -> MainWindow:
    return make_window(build_template("hall", nodes=96))


def shrink_trays(window: MainWindow, qtbot) -> None:
    """Shrink the trays (``SHRUNK_MM``) through the dialog, as a user would, and push its changes."""
    dialog = BasisDialog(window.session.doc.basis, window)
    qtbot.addWidget(dialog)
    for name, value in SHRUNK_MM.items():
        dialog.spins[name].setValue(value)
    assert push_basis(window.session, dialog.changes())


def tray_findings(window: MainWindow) -> dict[str, str]:
    return {f.subjects[0]: f.severity for f in window.live_validator.findings if f.rule == "N9"}


def dock_subjects(window: MainWindow) -> dict[str, str]:
    """Rule and subject column text of each N9 row in the findings dock, by tray id."""
    dock = window.findings_dock
    shown = {}
    for row, finding in enumerate(dock.visible_findings()):
        if finding.rule == "N9":
            shown[finding.subjects[0]] = dock.proxy.index(row, 2).data()
    return shown


def colour_hits(image: QImage, points: list[QPoint], colour: QColor, tolerance: int = 6) -> int:
    """How many of ``points`` have exactly (within antialiasing noise) this colour."""
    hits = 0
    for p in points:
        if not image.rect().contains(p):
            continue
        pixel = image.pixelColor(p)
        if max(abs(pixel.red() - colour.red()), abs(pixel.green() - colour.green()),
               abs(pixel.blue() - colour.blue())) <= tolerance:
            hits += 1
    return hits


def along(window: MainWindow, tray_id: str, start_mm: int, end_mm: int, count: int = 15) -> list[QPoint]:
    """Viewport pixels along the middle of the band the overlay draws for a stretch of tray."""
    line = OverlayLayer.tray_line(Tray.parse(tray_id), start_mm, end_mm)
    view = window.plan_view
    return [view.mapFromScene(line.pointAt((k + 0.5) / count)) for k in range(count)]


def test_basis_dialog_edits_trays_in_mm_and_percent(qtbot):
    doc = build_template("hall", nodes=96)
    dialog = BasisDialog(doc.basis)
    qtbot.addWidget(dialog)
    spins = dialog.spins
    shown = {name: (spins[name].value(), spins[name].suffix()) for name in (
        "cable_slack_fraction", "cable_slack_min_m", "tray_height_m", "row_tray_width_m", "row_tray_depth_m",
        "row_tray_levels", "cross_tray_width_m", "cross_tray_depth_m", "cross_tray_levels", "tray_fill_warn",
        "tray_fill_error")}
    assert shown == {"cable_slack_fraction": (10.0, " %"), "cable_slack_min_m": (0.3, " m"),
                     "tray_height_m": (0.3, " m"), "row_tray_width_m": (600.0, " mm"),
                     "row_tray_depth_m": (100.0, " mm"), "row_tray_levels": (1, ""),
                     "cross_tray_width_m": (900.0, " mm"), "cross_tray_depth_m": (150.0, " mm"),
                     "cross_tray_levels": (1, ""), "tray_fill_warn": (25.0, " %"), "tray_fill_error": (50.0, " %")}
    assert spins["tray_fill_error"].toolTip() == doc.basis.source("tray_fill_error") and "392" in spins[
        "tray_fill_error"].toolTip()
    group = spins["row_tray_width_m"].parentWidget()
    assert group.title() == "Cables and trays"
    assert dialog.changes() == {}  # nothing rounded away or rescaled on an untouched OK
    spins["row_tray_width_m"].setValue(450)
    spins["cross_tray_levels"].setValue(2)
    spins["tray_fill_warn"].setValue(30)
    spins["cable_slack_fraction"].setValue(12)
    changes = dialog.changes()
    assert changes == {"row_tray_width_m": 0.45, "cross_tray_levels": 2, "tray_fill_warn": 0.3,
                       "cable_slack_fraction": 0.12}
    assert type(changes["cross_tray_levels"]) is int  # the file checker rejects 2.0 for an int field


def test_basis_dialog_fits_a_small_screen(qtbot):
    dialog = BasisDialog(build_template("hall", nodes=96).basis)
    qtbot.addWidget(dialog)
    hint = dialog.sizeHint()
    assert hint.width() <= 1366 and hint.height() <= 700  # 768 less title and task bars
    # the three columns come out about as tall: no group makes one much longer
    columns = dialog.layout().itemAt(1).layout()
    heights = [columns.itemAt(i).layout().sizeHint().height() for i in range(columns.count())]
    assert len(heights) == 3 and max(heights) < 1.25 * min(heights)


def test_shrunk_trays_are_findings_named_as_trays_and_undo_clears_them(window, qtbot):
    assert tray_findings(window) == {}
    count = window.session.undo_stack.count()
    shrink_trays(window, qtbot)
    assert window.session.undo_stack.count() == count + 1
    assert tray_findings(window) == {CROSS: "error", **dict.fromkeys(ROWS, "warning")}
    assert dock_subjects(window) == {CROSS: "Cross-aisle tray at x 7.20 m", **ROWS}
    cross = next(f for f in window.live_validator.findings if f.subjects == (CROSS,))
    assert "296 cables" in cross.message and "90%" in cross.message
    row_2 = next(f for f in window.live_validator.findings if f.subjects == ("tray:row:x:5400",))
    assert "212 cables" in row_2.message and "42%" in row_2.message
    assert window.findChild(QLabel, "findings_counts").text() == "1 error, 3 warnings"
    window.session.undo_stack.undo()
    assert tray_findings(window) == {} and dock_subjects(window) == {}
    assert window.session.doc.basis.cross_tray_width_m == 0.9


def test_activating_a_tray_finding_centres_the_plan_on_its_busiest_stretch(window, qtbot):
    shrink_trays(window, qtbot)
    view, dock = window.plan_view, window.findings_dock
    for _ in range(4):
        view.zoom_in()
    view.centerOn(0, 0)
    row = next(i for i, f in enumerate(dock.visible_findings()) if f.subjects == (CROSS,))
    rect = dock.table.visualRect(dock.proxy.index(row, 3))
    QTest.mouseClick(dock.table.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    centre = to_model(view.mapToScene(view.viewport().rect().center()))
    peak = window.live_validator.context.tray_loads().peak(CROSS)
    assert (peak.start_mm, peak.end_mm) == (3000, 5400)  # between rows 1 and 2
    assert abs(centre[0] - 7.2) < 0.1 and abs(centre[1] - 4.2) < 0.1
    assert TRAYS in window.overlays.layers and window.overlays.actions[TRAYS].isChecked()
    # a row tray's finding centres on that row's busiest stretch: row 3's is x 7.20–8.00 m (200
    # cables of every data network; 190 at x 6.40–7.20 m, the compute fabric's busiest stretch)
    peak = window.live_validator.context.tray_loads().peak("tray:row:x:8400")
    assert (peak.start_mm, peak.end_mm) == (7200, 8000)
    row = next(i for i, f in enumerate(dock.visible_findings()) if f.subjects == ("tray:row:x:8400",))
    dock.activate(dock.visible_findings()[row])
    centre = to_model(view.mapToScene(view.viewport().rect().center()))
    assert abs(centre[0] - 7.6) < 0.1 and abs(centre[1] - 8.4) < 0.1


def test_tray_overlay_paints_fill_bands_and_follows_edits(window, qtbot, tmp_path):
    shrink_trays(window, qtbot)
    view, overlays = window.plan_view, window.overlays
    for _ in range(2):
        view.zoom_in()
    view.centre_on_rect(7.2, 3.0, 7.2, 5.4)
    red, yellow_green, green = band_colour(1.81), band_colour(0.85), band_colour(0.1)
    cross_points = along(window, CROSS, 3000, 5400)
    row_peak = along(window, "tray:row:x:5400", 6400, 7200, 5)
    before = view.viewport().grab().toImage()
    assert colour_hits(before, cross_points, red) == 0

    action = overlays.actions[TRAYS]
    assert action.text() == TITLES[TRAYS] == "Tray fill vs fill limit"
    submenus = [a.menu() for a in window.menu("&View").actions() if a.menu() is not None]
    assert action in next(menu for menu in submenus if menu.title() == "&Overlays").actions()
    action.setChecked(True)
    layer = overlays.layers[TRAYS]
    for tray_id in (CROSS, *ROWS):
        loads = window.live_validator.context.tray_loads()
        for span in loads.spans(tray_id):
            assert layer.boundingRect().contains(OverlayLayer.tray_line(Tray.parse(tray_id), span.start_mm,
                                                                        span.end_mm).center())
    assert overlays.legend.isVisible() and TITLES[TRAYS] in overlays.legend.text()
    assert "50 % fill limit" in overlays.legend.text()
    image = view.viewport().grab().toImage()
    window.grab().save(str(tmp_path / "tray-overlay.png"))
    assert colour_hits(image, cross_points, red) >= 12  # 90 % of a 50 % limit
    assert colour_hits(image, row_peak, yellow_green) >= 4  # row 2's 42 %: 85 % of the limit
    labels = sorted(text for _plate, text in layer._tray_plan.labels)
    # one per tray, at its peak (the short cross-aisle tray at x 4.00 m too)
    assert labels == ["28 % · 200 cables", "29 % · 200 cables", "3 % · 10 cables", "42 % · 212 cables",
                      "90 % · 296 cables"]

    window.session.undo_stack.undo()  # full-size trays again: everything well under the warning
    image = view.viewport().grab().toImage()
    assert colour_hits(image, cross_points, red) == 0 and colour_hits(image, cross_points, green) >= 12
    assert sorted(text for _plate, text in layer._tray_plan.labels) == [
        "0 % · 10 cables", "2 % · 200 cables", "2 % · 200 cables", "2 % · 296 cables", "4 % · 212 cables"]

    window.session.push(delete_objects(window.session.doc, list(window.session.doc.links)))
    image = view.viewport().grab().toImage()
    assert colour_hits(image, cross_points, green) == 0 and layer._tray_plan.labels == []
    window.session.undo_stack.undo()
    view.viewport().grab()
    assert len(layer._tray_plan.labels) == 5
    action.setChecked(False)
    assert TRAYS not in overlays.layers and layer.scene() is None and not overlays.legend.isVisible()


def test_tray_labels_stay_apart_at_hall_scale(qtbot, make_view):
    """A 512-node hall, fitted: every tray gets one label, and no two labels overlap."""
    from planner.ui.validation.live import LiveValidator

    view = make_view(build_template("hall", nodes=512), size=(1000, 700))
    live = LiveValidator(view.session)
    layer = OverlayLayer(TRAYS, live)
    view.plan_scene.add_layer(layer)
    view.viewport().grab()
    plates = [plate for plate, _text in layer._tray_plan.labels]
    # 6 row trays and 4 cross-aisle ones: three long ones across the rows, and the short one at
    # x 4.00 m that only storage and out-of-band cables take to their network racks
    assert len(plates) == len(live.context.tray_loads().trays()) == 10
    assert not any(a.intersects(b) for i, a in enumerate(plates) for b in plates[i + 1:])
    hall = view.plan_scene.hall_rect()
    assert all(hall.contains(plate) for plate in plates)
    height = view.mapFromScene(plates[0]).boundingRect().height()
    assert 12 <= height <= 20  # readable on screen whatever the hall's size
