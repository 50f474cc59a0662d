"""The floor-plan view driven with real mouse and key events over the bundled example."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from planner.commands import SetFields, SetOutline, edits
from planner.model.document import Document
from planner.ui.plan.units import to_scene
from planner.ui.plan.view import PlanView, nice_length
from planner.ui.session import DocumentSession


@pytest.fixture
def view(qtbot, example_doc):
    session = DocumentSession(example_doc)
    plan = PlanView(session)
    qtbot.addWidget(plan)
    plan.resize(1000, 700)
    plan.show()
    qtbot.waitExposed(plan)
    plan.fit_to_hall()
    return plan


def at(view: PlanView, x_m: float, y_m: float) -> QPoint:
    return view.mapFromScene(to_scene(x_m, y_m))


def drag(view: PlanView, start: tuple[float, float], end: tuple[float, float],
         modifier=Qt.NoModifier, steps: int = 6) -> None:
    viewport = view.viewport()
    p0, p1 = at(view, *start), at(view, *end)
    QTest.mousePress(viewport, Qt.LeftButton, modifier, p0)
    for k in range(1, steps + 1):
        QTest.mouseMove(viewport, p0 + (p1 - p0) * (k / steps))
    QTest.mouseRelease(viewport, Qt.LeftButton, modifier, p1)


def test_every_object_drawn_at_its_model_position(view):
    doc = view.session.doc
    scene = view.plan_scene
    for obj_id in [*doc.racks, *doc.floor_units, *doc.busbars, *doc.zones, *doc.obstacles,
                   *doc.doors, *doc.handoffs]:
        assert scene.item_for(obj_id) is not None, obj_id
    rack = doc.racks["rack-3"]
    assert scene.item_for("rack-3").pos() == to_scene(rack.x, rack.y)
    # 800 × 1200 mm footprint at 1 scene unit per cm
    shape = scene.item_for("rack-3").shape().boundingRect()
    assert (round(shape.width()), round(shape.height())) == (80, 120)
    assert scene.hall_rect().width() == pytest.approx(3000)


def test_change_refreshes_only_named_items_and_reset_rebuilds(view):
    session = view.session
    session.push(SetFields({"rack-1": {"x": 12.0, "y": 9.0}}))
    assert view.plan_scene.item_for("rack-1").pos() == to_scene(12.0, 9.0)
    session.undo_stack.undo()
    assert view.plan_scene.item_for("rack-1").pos() == to_scene(2.8, 4.8)
    session.push(SetOutline([(0, 0), (40, 0), (40, 20), (0, 20)]))
    assert view.plan_scene.hall_rect().width() == pytest.approx(4000)
    session.replace_document(Document())
    assert view.plan_scene.plan_items() == []


def test_zoom_wheel_keys_and_fit(view, qtbot):
    fitted = view.pixels_per_m()
    view.zoom_in()
    assert view.pixels_per_m() == pytest.approx(fitted * 1.25)
    view.zoom_out()
    view.zoom_out()
    assert view.pixels_per_m() == pytest.approx(fitted / 1.25)
    view.fit_to_hall()
    assert view.pixels_per_m() == pytest.approx(fitted)
    view.setFocus()
    QTest.keyClick(view, Qt.Key_Plus, Qt.ControlModifier)
    assert view.pixels_per_m() > fitted


def test_cursor_position_in_metres(view, qtbot):
    with qtbot.waitSignal(view.cursor_moved) as blocker:
        QTest.mouseMove(view.viewport(), at(view, 12.0, 6.0))
    x, y = blocker.args
    assert x == pytest.approx(12.0, abs=0.1) and y == pytest.approx(6.0, abs=0.1)


def test_scale_bar_lengths():
    assert nice_length(7.3) == 5
    assert nice_length(1.9) == 1
    assert nice_length(0.26) == pytest.approx(0.2)


def test_click_and_rubber_band_select_into_session(view):
    session = view.session
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, at(view, 2.8, 4.8))
    assert session.selection == {"rack-1"}
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.ControlModifier, at(view, 4.4, 4.8))
    assert session.selection == {"rack-1", "rack-3"}
    # rubber band from empty floor around racks R01–R04 (not the busbars, which run longer)
    drag(view, (2.3, 3.9), (5.65, 5.6))
    assert session.selection == {"rack-1", "rack-2", "rack-3", "rack-4"}
    assert {i.obj_id for i in view.plan_scene.selectedItems()} == session.selection
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, at(view, 14.0, 14.0))
    assert session.selection == set()
    view.setFocus()
    QTest.keyClick(view, Qt.Key_A, Qt.ControlModifier)
    assert {"rack-1", "rack-9", "fu-1", "bus-1"} <= session.selection


def test_move_rack_by_mouse_is_one_snapped_undo_step(view):
    session = view.session
    doc = session.doc
    drag(view, (2.8, 4.8), (12.93, 10.14))
    rack = doc.racks["rack-1"]
    # the grabbed footprint's corner (2.4, 4.2) moved by (10.13, 5.34) is (12.53, 9.54) and
    # snaps to the tile lines (12.6, 9.6); the 0.8 × 1.2 m rack's centre is 0.4, 0.6 from it
    assert rack.x == pytest.approx(13.0) and rack.y == pytest.approx(10.2)
    assert session.undo_stack.count() == 1
    assert view.plan_scene.item_for("rack-1").pos() == to_scene(rack.x, rack.y)
    session.undo_stack.undo()
    assert (doc.racks["rack-1"].x, doc.racks["rack-1"].y) == (2.8, 4.8)
    assert view.plan_scene.item_for("rack-1").pos() == to_scene(2.8, 4.8)
    session.undo_stack.redo()
    assert doc.racks["rack-1"].x == pytest.approx(13.0)


def test_move_without_snap_follows_the_mouse(view):
    view.set_snap_enabled(False)
    drag(view, (2.8, 4.8), (12.0, 10.0))
    rack = view.session.doc.racks["rack-1"]
    tolerance = 2 / view.pixels_per_m()
    assert rack.x == pytest.approx(12.0, abs=tolerance) and rack.y == pytest.approx(10.0, abs=tolerance)


def test_click_without_drag_does_not_move(view):
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, at(view, 2.8, 4.8))
    assert view.session.undo_stack.count() == 0


def test_keys_rotate_nudge_delete_with_undo_and_redo(view):
    session = view.session
    doc = session.doc
    session.select({"rack-1"})
    view.setFocus()
    QTest.keyClick(view, Qt.Key_R)
    assert doc.racks["rack-1"].rotation == 90
    assert view.plan_scene.item_for("rack-1").shape().boundingRect().width() == pytest.approx(120)
    session.undo_stack.undo()
    assert doc.racks["rack-1"].rotation == 0
    session.undo_stack.redo()
    assert doc.racks["rack-1"].rotation == 90

    QTest.keyClick(view, Qt.Key_Right)
    assert doc.racks["rack-1"].x == pytest.approx(3.4)
    QTest.keyClick(view, Qt.Key_Down)
    assert doc.racks["rack-1"].y == pytest.approx(5.4)

    before = session.undo_stack.count()
    QTest.keyClick(view, Qt.Key_Delete)
    assert "rack-1" not in doc.racks and not doc.devices_in("rack-1")
    assert view.plan_scene.item_for("rack-1") is None
    assert session.undo_stack.count() == before + 1
    session.undo_stack.undo()
    assert "rack-1" in doc.racks and len(doc.devices_in("rack-1")) == 5
    assert view.plan_scene.item_for("rack-1") is not None
    session.undo_stack.redo()
    assert "rack-1" not in doc.racks


def test_duplicate_copy_paste(view):
    session = view.session
    doc = session.doc
    session.select({"rack-9"})
    view.setFocus()
    QTest.keyClick(view, Qt.Key_D, Qt.ControlModifier)
    (new_id,) = session.selection
    clone = doc.racks[new_id]
    assert clone.x == pytest.approx(9.2 + 1.2) and clone.name == "R10"
    assert len(doc.devices_in(new_id)) == 5
    QTest.keyClick(view, Qt.Key_C, Qt.ControlModifier)
    session.push(edits.delete_objects(doc, ["rack-9"]))
    view.editor.paste(at=(19.9, 7.9))
    (pasted,) = session.selection
    rack = doc.racks[pasted]
    assert doc.rack_bounds(rack)[:2] == pytest.approx((19.8, 7.8))
    assert len(doc.devices_in(pasted)) == 5 and rack.feed_a == "bus-1"
    session.undo_stack.undo()
    assert pasted not in doc.racks


def test_array_selected_rack(view):
    session = view.session
    session.select({"rack-9"})
    view.editor.array_selected(count=3)
    doc = session.doc
    names = sorted(r.name for r in doc.racks.values())
    assert names[-3:] == ["R10", "R11", "R12"]
    assert session.undo_stack.count() == 1
    assert sorted(doc.racks[i].x for i in session.selection) == pytest.approx([10.0, 10.8, 11.6])


def test_row_tool_drags_out_a_row(view):
    session = view.session
    view.row_tool_action.trigger()
    drag(view, (12.1, 9.0), (16.1, 9.3))
    doc = session.doc
    new = [doc.racks[i] for i in session.selection]
    assert len(new) == 7  # 4.0 m of 0.6 m racks: the first and six more
    assert {r.rotation for r in new} == {0}
    assert len({r.row for r in new}) == 1
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert len(doc.racks) == 9


def test_space_and_middle_drag_pan(view):
    for _ in range(6):
        view.zoom_in()
    bar = view.horizontalScrollBar()
    start = bar.value()
    viewport = view.viewport()
    QTest.mousePress(viewport, Qt.MiddleButton, Qt.NoModifier, QPoint(500, 300))
    QTest.mouseMove(viewport, QPoint(400, 300))
    QTest.mouseRelease(viewport, Qt.MiddleButton, Qt.NoModifier, QPoint(400, 300))
    assert bar.value() == start + 100
    view.setFocus()
    QTest.keyPress(view, Qt.Key_Space)
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, QPoint(400, 300))
    QTest.mouseMove(viewport, QPoint(450, 300))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, QPoint(450, 300))
    QTest.keyRelease(view, Qt.Key_Space)
    assert bar.value() == start + 50
    assert view.session.undo_stack.count() == 0


def test_polygon_capture(view, qtbot):
    view.start_polygon_capture()
    viewport = view.viewport()
    corners = [(12.0, 7.2), (18.0, 7.2), (18.0, 10.8)]
    with qtbot.waitSignal(view.polygon_captured) as blocker:
        for x, y in corners:
            QTest.mouseClick(viewport, Qt.LeftButton, Qt.NoModifier, at(view, x + 0.1, y - 0.1))
        QTest.mouseDClick(viewport, Qt.LeftButton, Qt.NoModifier, at(view, 18.1, 10.7))
    assert blocker.args[0] == [pytest.approx(c) for c in corners]


def test_edit_and_view_actions_exposed(view):
    texts = [a.text() for a in view.edit_actions()]
    assert any("Delete" in t for t in texts) and any("Rotate" in t for t in texts)
    shortcuts = {a.shortcut().toString() for a in view.edit_actions()}
    assert {"Ctrl+D", "Ctrl+C", "Ctrl+V", "R"} <= shortcuts
    assert view.snap_action in view.view_actions()
