"""Live validation in the main window: findings follow real drags, undo and the design basis;
the dock filters and navigates; overlays and the properties figures show the numbers."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from planner.commands import SetFields
from planner.io import load
from planner.ui.main_window import MainWindow
from planner.ui.plan.units import to_scene
from planner.ui.validation.basis_dialog import BasisDialog, push_basis

DATA = Path(__file__).resolve().parents[1] / "data"


#: A plan with no power cords and no coolant hoses at all (as these test halls, drawn before
#: every network was cabled) gets one info line each: cords and hoses not planned yet.
NOT_PLANNED = [("C10", "info"), ("P10", "info")]


def not_planned(window: MainWindow) -> list[tuple[str, str]]:
    """(rule, severity) of the live cord and hose findings (P10, C10)."""
    return sorted((f.rule, f.severity) for f in window.live_validator.findings if f.rule in ("P10", "C10"))


def others(window: MainWindow) -> list:
    """The live findings but the cord and hose ones: what the plan's drawing is checked for."""
    return [f for f in window.live_validator.findings if f.rule not in ("P10", "C10")]


def counts_text(window: MainWindow) -> str:
    return window.findChild(QLabel, "findings_counts").text()


def drag(window: MainWindow, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    view = window.plan_view
    viewport = view.viewport()
    p0, p1 = view.mapFromScene(to_scene(*start)), view.mapFromScene(to_scene(*end))
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, p0)
    for k in range(1, steps + 1):
        QTest.mouseMove(viewport, p0 + (p1 - p0) * (k / steps))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, p1)


def test_dragging_a_rack_onto_its_neighbour_is_flagged_and_undo_clears_it(qtbot, tmp_path, make_window):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    doc = window.session.doc
    assert others(window) == [] and counts_text(window) == "0 errors, 0 warnings"
    assert not_planned(window) == NOT_PLANNED
    window.plan_view.set_snap_enabled(False)
    for _ in range(3):
        window.plan_view.zoom_in()
    window.plan_view.centre_on_ids(["rack-6"])
    r5, r6 = doc.racks["rack-5"], doc.racks["rack-6"]
    drag(window, (r6.x, r6.y), (r5.x + 0.4, r6.y))
    assert abs(doc.racks["rack-6"].x - (r5.x + 0.4)) < 0.05
    rules = [(f.rule, f.subjects[:2]) for f in window.live_validator.findings]
    assert ("S1", ("rack-5", "rack-6")) in rules
    assert window.plan_view.plan_scene.item_for("rack-6").severity == "error"
    assert counts_text(window).startswith("1 error")
    assert window.findings_dock.model.rowCount() == len(window.live_validator.findings)
    window.grab().save(str(tmp_path / "overlap.png"))
    window.session.undo_stack.undo()
    assert others(window) == [] and not_planned(window) == NOT_PLANNED
    assert window.plan_view.plan_scene.item_for("rack-6").severity == ""


def test_clicking_a_finding_selects_and_centres_its_subjects(qtbot, make_window):
    window = make_window(load(DATA / "s2_aisle.hall"))
    dock = window.findings_dock
    table = dock.table
    # the S2 finding, and the info lines of the cords and hoses not planned yet
    assert dock.model.rowCount() == 1 + len(NOT_PLANNED) and not_planned(window) == NOT_PLANNED
    (row,) = [i for i, f in enumerate(dock.visible_findings()) if f.rule == "S2"]
    for _ in range(6):
        window.plan_view.zoom_in()
    window.plan_view.centerOn(0, 0)
    rect = table.visualRect(dock.proxy.index(row, 3))
    QTest.mouseClick(table.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    assert window.session.selection == {"rack-3", "obs-1"}
    centre = window.plan_view.mapToScene(window.plan_view.viewport().rect().center())
    rack = window.session.doc.racks["rack-3"]
    assert abs(centre.x() / 100 - (rack.x + 5.2) / 2) < 1.0  # between the rack (3.5 m …) and the column


def test_dock_filters_by_severity_and_family(qtbot, make_window):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    # A 12 kPa zone: racks 10.3 kPa (above 80 % → warning), the 900 kg CDU 12.3 kPa (error)
    window.session.push(SetFields({"zone-1": {"rating_kpa": 12.0}}, text="Zone rating"))
    dock = window.findings_dock
    assert sorted({(f.rule, f.severity) for f in dock.visible_findings()}) == sorted(
        [("F1", "error"), ("F1", "warning"), *NOT_PLANNED])
    assert counts_text(window) == "1 error, 6 warnings" and dock.count_label.text() == "1 error, 6 warnings"
    dock.severity_boxes["error"].setChecked(False)
    visible = dock.visible_findings()
    assert {f.severity for f in visible} == {"warning", "info"}
    assert len([f for f in visible if f.severity == "warning"]) == 6 and len(visible) == 6 + len(NOT_PLANNED)
    dock.family_box.setCurrentIndex(dock.family_box.findData("P"))
    assert [(f.rule, f.severity) for f in dock.visible_findings()] == [("P10", "info")]  # no F1 of the power family
    dock.severity_boxes["info"].setChecked(False)
    assert dock.visible_findings() == []
    dock.severity_boxes["info"].setChecked(True)
    dock.family_box.setCurrentIndex(dock.family_box.findData("F"))
    dock.severity_boxes["error"].setChecked(True)
    assert len(dock.visible_findings()) == 7  # the F1 ones: the C10 and P10 info lines are other families


def test_design_basis_is_one_undoable_step_and_revalidates(qtbot, make_window):
    window = make_window(load(DATA / "p2_busbar_failover.hall"))
    assert {f.rule for f in others(window)} == {"P2"} and not_planned(window) == NOT_PLANNED
    dialog = BasisDialog(window.session.doc.basis, window)
    qtbot.addWidget(dialog)
    dialog.combos["redundancy"].setCurrentIndex(dialog.combos["redundancy"].findData("N+1"))
    dialog.spins["delta_t_k"].setValue(12.0)
    assert dialog.changes() == {"redundancy": "N+1", "delta_t_k": 12.0}
    count = window.session.undo_stack.count()
    assert push_basis(window.session, dialog.changes())
    assert window.session.undo_stack.count() == count + 1
    assert window.session.doc.basis.redundancy == "N+1" and others(window) == []
    window.session.undo_stack.undo()
    assert window.session.doc.basis.redundancy == "2N" and window.session.doc.basis.delta_t_k == 10.0
    assert {f.rule for f in others(window)} == {"P2"}
    assert not push_basis(window.session, {})


def test_design_basis_menu_entry(qtbot, make_window):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    titles = [a.text() for a in window.menu("&Plan").actions()]
    assert "Design &basis…" in titles


def _probe_point(doc, kind: str) -> tuple[float, float]:
    """Where each overlay must paint: a rack, a busbar run, the CDU."""
    if kind == "busbar":
        bus = doc.busbars["bus-1"]
        return (bus.x1 + bus.x2) / 2, bus.y1
    if kind == "loops":
        return doc.floor_units["fu-1"].x, doc.floor_units["fu-1"].y
    return doc.racks["rack-1"].x + 0.2, doc.racks["rack-1"].y + 0.45


@pytest.mark.parametrize("kind", ["floor", "power", "busbar", "loops", "ppue"])
def test_overlays_toggle_with_a_legend(qtbot, tmp_path, kind, make_window):
    window = make_window(load(DATA / "p3_phase_imbalance.hall"))
    view, overlays = window.plan_view, window.overlays
    for _ in range(3):
        view.zoom_in()
    view.centre_on_ids(["rack-1"])
    point = view.mapFromScene(to_scene(*_probe_point(window.session.doc, kind)))
    before = view.viewport().grab().toImage().pixelColor(point)
    action = overlays.actions[kind]
    submenus = [a.menu() for a in window.menu("&View").actions() if a.menu() is not None]
    overlay_menu = next(menu for menu in submenus if menu.title() == "&Overlays")
    assert action in overlay_menu.actions()
    action.setChecked(True)
    layer = overlays.layers[kind]
    assert layer.scene() is view.plan_scene and not layer.boundingRect().isEmpty()
    assert overlays.legend.isVisible() and "over 100 %" in overlays.legend.text()
    image = view.viewport().grab().toImage()
    view.grab().save(str(tmp_path / f"overlay-{kind}.png"))
    assert image.pixelColor(point) != before
    action.setChecked(False)
    assert kind not in overlays.layers and layer.scene() is None and not overlays.legend.isVisible()


def test_properties_dock_shows_live_figures(qtbot, make_window):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    window.session.select(["rack-1"])
    texts = [label.text() for label in window.properties_dock.findChildren(QLabel)]
    assert "1,012 kg of 1,800 kg" in texts and "120.0 kW" in texts
    # design pPUE of R01, by hand: 105 kW IT at steady load, 85 % of it to liquid (89.25 kW);
    # flow 89.25 × 60 / (0.997 × 4.18 × 10) = 128.5 L/min, pumps 128.5 / 60,000 × 200 kPa / 0.65 = 659 W;
    # air 15.75 kW / COP 4 = 3,938 W; losses 105 kW × (1 / (0.995 × 0.99) − 1) = 1,594 W
    flow = 89_250 * 60 / (0.997 * 4.18 * 10 * 1000)
    ppue = (105_000 + flow / 60_000 * 200_000 / 0.65 + 15_750 / 4 + 105_000 * (1 / (0.995 * 0.99) - 1)) / 105_000
    assert f"{ppue:.3f} (target 1.06)" in texts
    window.session.select(["bus-1"])
    texts = [label.text() for label in window.properties_dock.findChildren(QLabel)]
    assert "1,054 A" in texts


def test_rack_elevation_outlines_devices_with_findings(qtbot, tmp_path, make_window):
    window = make_window(load(DATA / "s4_device_overlap.hall"))  # SW1 at U4 overlaps N1 (U1–U4) in R01
    window.session.select(["rack-1"])
    marks = window.elevation_marks
    elevation = window.elevation_dock.elevation
    assert elevation.rack_id == "rack-1" and marks.size() == elevation.size()
    named = {d.name: d.id for d in window.session.doc.devices_in("rack-1")}
    switch = named["SW1"]
    assert set(marks.marked()) == {"rack-1", named["N1"], switch}  # S4 names the rack, N1 and SW1
    window.elevation_dock.grab().save(str(tmp_path / "elevation.png"))
    rect = marks.marked()[switch]
    image = marks.grab().toImage()
    colour = image.pixelColor(int(rect.left() + 2), int(rect.center().y()))
    assert colour.red() > 180 and colour.green() < 80  # the red outline
    window.session.select(["rack-2"])
    assert marks.marked() == {}


def test_rack_elevation_rings_the_ports_of_cables_with_findings(qtbot, make_window):
    """A cable a finding names gets its port ringed in the elevation of each rack it ends in;
    the rack's other cables none (a network rack's 3k cables are looked at by their findings)."""
    from planner.layout.templates import build_template

    window = make_window(build_template("pod", 8))
    doc = window.session.doc
    link = next(link for link in doc.links.values() if link.tier == "node-leaf")
    rack_id = doc.devices[link.a_device].rack
    window.session.select([rack_id])
    marks = window.elevation_marks
    assert [link_id for link_id, _cell in marks.marked_ports()] == []
    window.session.push(SetFields({link.id: {"length_m": link.length_m + 5.0}}, text="Longer"))  # N8 names it
    assert window.live_validator.severity(link.id)
    assert [link_id for link_id, _cell in marks.marked_ports()] == [link.id]


def test_a_findings_count_widens_its_label_once_and_never_narrows_it(qapp):
    """A count one digit longer lays the window out once, not on every edit that changes it."""
    from planner.ui.validation.findings_dock import show_count

    label = QLabel()
    show_count(label, "9 errors, 9 warnings")
    narrow = label.minimumWidth()
    show_count(label, "1,000 errors, 9 warnings")
    wide = label.minimumWidth()
    show_count(label, "9 errors, 9 warnings")
    assert 0 < narrow < wide and label.minimumWidth() == wide
