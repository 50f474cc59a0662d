"""Drawing the hall on the plan with real mouse and key events (issue 18, part 5): every Draw
tool makes its feature snapped to the tile grid in one undo step, a drawn zone is checked live,
features drag and reshape by their handles, Delete and undo put them back."""

from __future__ import annotations

from pathlib import Path

import ezdxf
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from planner.commands.features import round_column
from planner.io import load
from planner.model.document import Document
from planner.model.geometry import bounds_of
from planner.model.objects import Zone
from planner.ui.dialogs.hall_features import HallFeaturesDialog
from planner.ui.dialogs.underlay import LayersDialog
from planner.ui.main_window import MainWindow
from planner.ui.plan.units import to_scene
from planner.ui.underlay.attach import import_drawing, use_outline

DATA = Path(__file__).resolve().parents[1] / "data"
ZONE_DEFAULTS = Zone(id="", name="", polygon=[])


@pytest.fixture
def window(make_window) -> MainWindow:
    """The clean 120 kW row (16 × 12 m hall, racks along y 4.4–5.6 m) without its floor zone, so a
    drawn zone is the only one."""
    doc = load(DATA / "clean_row_120kw.hall")
    for zone_id in list(doc.zones):
        doc.remove(zone_id)
    return make_window(doc)


def at(window: MainWindow, x_m: float, y_m: float) -> QPoint:
    return window.plan_view.mapFromScene(to_scene(x_m, y_m))


def drag(window: MainWindow, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
    viewport = window.plan_view.viewport()
    p0, p1 = at(window, *start), at(window, *end)
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, p0)
    for k in range(1, steps + 1):
        QTest.mouseMove(viewport, p0 + (p1 - p0) * (k / steps))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, p1)


def click(window: MainWindow, x_m: float, y_m: float) -> None:
    QTest.mouseClick(window.plan_view.viewport(), Qt.LeftButton, Qt.NoModifier, at(window, x_m, y_m))


def new_one(before: dict, after: dict):
    (obj_id,) = set(after) - set(before)
    return after[obj_id]


def test_draw_drag_reshape_undo_and_delete_through_the_plan(qtbot, tmp_path, window):
    doc, view, tools = window.session.doc, window.plan_view, window.feature_tools
    stack = window.session.undo_stack
    view.set_snap_enabled(True)

    # a column rectangle, dragged between off-grid points, lands on the tile grid
    tools.set_tool("column")
    before = dict(doc.obstacles)
    drag(window, (10.25, 7.75), (11.35, 8.45))
    column = new_one(before, doc.obstacles)
    assert column.kind == "column" and bounds_of(column.polygon) == pytest.approx((10.2, 7.8, 11.4, 8.4))
    assert stack.count() == 1 and stack.text(0) == f"Add column {column.name}"

    # a round column from its centre out to the rim
    tools.set_tool("round")
    before = dict(doc.obstacles)
    drag(window, (13.25, 8.35), (13.85, 8.45))
    round_one = new_one(before, doc.obstacles)
    assert round_column(round_one.polygon) == pytest.approx((13.2, 8.4, 0.6), abs=1e-6)

    # a wall along its centre line
    tools.set_tool("wall")
    before = dict(doc.obstacles)
    drag(window, (9.0, 10.8), (15.0, 10.8))
    wall = new_one(before, doc.obstacles)
    assert wall.kind == "wall" and bounds_of(wall.polygon) == pytest.approx((9.0, 10.7, 15.0, 10.9))

    # a zone polygon clicked corner by corner over the row, finished with Enter: default ratings,
    # and checked live (F1 weighs the racks standing in it)
    assert not [f for f in window.live_validator.findings if f.rule == "F1"]
    tools.set_tool("zone")
    for corner in ((1.2, 3.6), (9.0, 3.6), (9.0, 6.6), (1.2, 6.6)):
        click(window, *corner)
    assert not doc.zones, "a zone is made only when it is finished"
    QTest.keyClick(view, Qt.Key_Return)
    (zone,) = doc.zones.values()
    assert zone.polygon == [(1.2, 3.6), (9.0, 3.6), (9.0, 6.6), (1.2, 6.6)]
    assert (zone.rating_kpa, zone.tile_rating_kn) == (ZONE_DEFAULTS.rating_kpa, ZONE_DEFAULTS.tile_rating_kn)
    qtbot.waitUntil(lambda: any(f.rule == "F1" and "rack-1" in f.subjects for f in window.live_validator.findings))

    # Esc drops a zone in progress, a second Esc puts the tool down
    click(window, 12.0, 1.2)
    click(window, 14.4, 1.2)
    QTest.keyClick(view, Qt.Key_Escape)
    assert tools.tool == "zone" and len(doc.zones) == 1
    QTest.keyClick(view, Qt.Key_Escape)
    assert tools.tool == "" and not tools.action("zone").isChecked()

    # a door from jamb to jamb, and a coolant hand-off clicked in place
    tools.set_tool("door")
    drag(window, (0.0, 9.1), (0.0, 10.1))
    (door,) = doc.doors.values()
    assert (door.x1, door.y1, door.x2, door.y2) == (0.0, 9.0, 0.0, 10.2)
    tools.set_tool("coolant")
    before = dict(doc.handoffs)
    click(window, 15.05, 1.15)
    handoff = new_one(before, doc.handoffs)
    assert (handoff.kind, handoff.x, handoff.y) == ("coolant", 15.0, 1.2)
    tools.set_tool("")
    drawn = stack.count()
    assert drawn == 6
    window.grab().save(str(tmp_path / "draw.png"))

    # drag the column by its middle: one undo step, its corner snapped
    drag(window, (10.8, 8.1), (12.0, 9.35))
    assert bounds_of(doc.obstacles[column.id].polygon) == pytest.approx((11.4, 9.0, 12.6, 9.6))
    assert stack.count() == drawn + 1 and stack.text(drawn) == f"Move {column.name}"
    assert window.session.selection == {column.id}
    assert view.plan_scene.item_for(column.id).pos() == to_scene(0, 0)

    # reshape it by its south-east corner handle: the north-west corner stays
    assert tools.handles.count() == 4
    drag(window, (12.6, 9.6), (13.15, 10.25))
    assert bounds_of(doc.obstacles[column.id].polygon) == pytest.approx((11.4, 9.0, 13.2, 10.2))
    assert stack.count() == drawn + 2

    # a round column's rim handle sets its radius, keeping it round about its centre
    click(window, 13.2, 8.4)
    assert window.session.selection == {round_one.id} and tools.handles.count() == 1
    drag(window, (13.8, 8.4), (14.4, 8.4))
    assert round_column(doc.obstacles[round_one.id].polygon) == pytest.approx((13.2, 8.4, 1.2), abs=1e-6)

    # undo: radius, reshape, move, each one step
    stack.undo()
    assert round_column(doc.obstacles[round_one.id].polygon) == pytest.approx((13.2, 8.4, 0.6), abs=1e-6)
    stack.undo()
    assert bounds_of(doc.obstacles[column.id].polygon) == pytest.approx((11.4, 9.0, 12.6, 9.6))
    stack.undo()
    assert bounds_of(doc.obstacles[column.id].polygon) == pytest.approx((10.2, 7.8, 11.4, 8.4))

    # Delete removes the selected door; undo brings it back
    window.session.select({door.id})
    view.setFocus()
    QTest.keyClick(view, Qt.Key_Delete)
    assert door.id not in doc.doors
    stack.undo()
    assert door.id in doc.doors and view.plan_scene.item_for(door.id) is not None


def test_snapping_off_draws_where_the_mouse_is_and_degenerate_shapes_are_refused(qtbot, window):
    doc, view, tools = window.session.doc, window.plan_view, window.feature_tools
    messages: list[str] = []
    view.status_message.connect(messages.append)
    view.set_snap_enabled(False)
    tools.set_tool("column")
    before = dict(doc.obstacles)
    drag(window, (10.25, 7.75), (11.35, 8.45))
    column = new_one(before, doc.obstacles)
    x0, y0, x1, y1 = bounds_of(column.polygon)
    assert (x0, y0, x1, y1) == pytest.approx((10.25, 7.75, 11.35, 8.45), abs=0.05)
    assert (x0, y0) != pytest.approx((10.2, 7.8), abs=1e-3)
    view.set_snap_enabled(True)
    count = window.session.undo_stack.count()
    click(window, 12.0, 9.0)  # a press and release in place: no area
    assert window.session.undo_stack.count() == count
    assert any("needs an area" in m for m in messages)


def test_zone_finished_by_double_click_and_draw_tools_in_the_plan_menu(qtbot, window):
    doc, tools = window.session.doc, window.feature_tools
    tools.set_tool("zone")
    viewport = window.plan_view.viewport()
    for corner in ((9.6, 1.2), (14.4, 1.2), (14.4, 4.8)):
        click(window, *corner)
    QTest.mouseDClick(viewport, Qt.LeftButton, Qt.NoModifier, at(window, 9.6, 4.8))
    (zone,) = doc.zones.values()
    assert zone.polygon == [(9.6, 1.2), (14.4, 1.2), (14.4, 4.8), (9.6, 4.8)]
    plan = window.menu("&Plan")
    draw = next(a.menu() for a in plan.actions() if a.menu() is not None and "Draw" in a.text())
    assert [a.iconText() for a in draw.actions()] == ["Column", "Round column", "Wall", "Zone", "Door",
                                                       "Power", "Coolant", "Network"]
    assert tools.action("column").shortcut().toString() == "C"


def test_double_click_opens_the_table_at_the_feature(qtbot, window, monkeypatch):
    doc, tools = window.session.doc, window.feature_tools
    tools.set_tool("door")
    drag(window, (0.0, 9.0), (0.0, 10.2))
    tools.set_tool("")
    (door,) = doc.doors.values()
    shown = []

    def exec_(dialog):
        shown.append((dialog.tabs.currentWidget() is dialog.doors,
                       dialog.doors.table.item(dialog.doors.table.currentRow(), 0).text()))
        return HallFeaturesDialog.DialogCode.Rejected

    monkeypatch.setattr(HallFeaturesDialog, "exec", exec_)
    QTest.mouseDClick(window.plan_view.viewport(), Qt.LeftButton, Qt.NoModifier, at(window, 0.0, 9.6))
    assert shown == [(True, door.name)]


def layered_dxf(path: Path) -> Path:
    """A 12 × 8 m hall in metres on A-WALL, a 4 × 3 m zone in its south-west corner on ZONES and a
    1.2 m door in its north wall on DOORS."""
    drawing = ezdxf.new("R2010")
    drawing.header["$INSUNITS"] = 6
    msp = drawing.modelspace()
    for name in ("A-WALL", "ZONES", "DOORS"):
        drawing.layers.add(name)
    msp.add_lwpolyline([(0, 0), (12, 0), (12, 8), (0, 8)], close=True, dxfattribs={"layer": "A-WALL"})
    msp.add_lwpolyline([(0, 0), (4, 0), (4, 3), (0, 3)], close=True, dxfattribs={"layer": "ZONES"})
    msp.add_line((6, 8), (7.2, 8), dxfattribs={"layer": "DOORS"})
    drawing.saveas(path)
    return path


def test_imported_drawing_gives_zones_and_doors_from_the_layers_chosen(qtbot, tmp_path, make_window, monkeypatch):
    window = make_window(Document())
    under_id = import_drawing(window, str(layered_dxf(tmp_path / "hall.dxf")))
    assert under_id is not None
    offered = []

    def choose(dialog):
        offered.append([dialog.zones.itemText(k) for k in range(dialog.zones.count())])
        dialog.zones.setCurrentText("ZONES")
        dialog.doors.setCurrentText("DOORS")
        return LayersDialog.DialogCode.Accepted

    monkeypatch.setattr(LayersDialog, "exec", choose)
    assert use_outline(window, under_id)
    assert offered[0][0] == LayersDialog.NO_ZONES and "ZONES" in offered[0]
    doc = window.session.doc
    (zone,) = doc.zones.values()
    assert bounds_of(zone.polygon) == pytest.approx((0.0, 5.0, 4.0, 8.0))  # the south-west corner, y south
    (door,) = doc.doors.values()
    assert (door.x1, door.y1, door.x2, door.y2) == pytest.approx((6.0, 0.0, 7.2, 0.0))
    assert window.plan_view.plan_scene.item_for(zone.id) is not None
    window.session.undo_stack.undo()
    assert not doc.zones and not doc.doors
