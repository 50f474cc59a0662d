"""Findings outlines, level of detail, assignment lines and assign-by-drag, overlay layers,
cable routes, and the 4,096-node benchmark hall drawn whole."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsRectItem

from planner.commands import edits
from planner.ui.plan import items as plan_items
from planner.ui.plan.items import SEVERITY_COLOURS
from planner.ui.plan.units import to_scene
from planner.ui.plan.view import PlanView


@pytest.fixture
def view(make_view, example_doc):
    return make_view(example_doc)


def at(view: PlanView, x_m: float, y_m: float) -> QPoint:
    return view.mapFromScene(to_scene(x_m, y_m))


def test_findings_outline_items_and_map_devices_to_racks(view, count_colour):
    scene = view.plan_scene
    device = view.session.doc.devices_in("rack-3")[0].id
    scene.set_findings({"rack-2": "warning", device: "error", "bus-1": "warning", "zone-1": "info"})
    assert scene.item_for("rack-2").severity == "warning"
    assert scene.item_for("rack-3").severity == "error"  # a device's finding marks its rack
    assert scene.item_for("bus-1").severity == "warning"
    assert scene.item_for("zone-1").severity == ""
    assert scene.item_for("rack-1").severity == ""
    for _ in range(4):
        view.zoom_in()
    view.centre_on_ids(["rack-3"])
    image = view.grab().toImage()
    rack_rect = view.mapFromScene(scene.item_for("rack-3").sceneBoundingRect()).boundingRect()
    assert count_colour(image, rack_rect, SEVERITY_COLOURS["error"]) > 50
    clean_rect = view.mapFromScene(scene.item_for("rack-1").sceneBoundingRect()).boundingRect()
    assert count_colour(image, clean_rect, SEVERITY_COLOURS["error"]) == 0
    scene.set_findings({})
    assert scene.item_for("rack-3").severity == ""


def test_names_only_when_zoomed_in(view, monkeypatch):
    calls: list[str] = []
    original = plan_items.RackItem.paint_labels

    def counting(self, painter, lod):
        calls.append(self.obj_id)
        original(self, painter, lod)

    monkeypatch.setattr(plan_items.RackItem, "paint_labels", counting)
    view.fit_to_hall()
    while view.pixels_per_m() > 30:
        view.zoom_out()
    view.grab()
    assert calls == []  # under 0.3 px per cm a name (24 cm at most) would be under 8 px tall
    view.centre_on_ids(["rack-5"])
    while view.pixels_per_m() < 100:
        view.zoom_in()
    view.centre_on_ids(["rack-5"])
    view.grab()
    assert "rack-5" in calls


def test_assignment_lines_follow_edits_and_toggle(view):
    scene = view.plan_scene
    doc = view.session.doc
    expected = sum(bool(r.feed_a) + bool(r.feed_b) + bool(r.cdu) for r in doc.racks.values())
    assert expected and scene.assignments.line_count() == expected
    cooled = [r.id for r in doc.racks.values() if r.cdu][:2]
    view.session.push(edits.assign(doc, cooled, "cdu", None))
    assert scene.assignments.line_count() == expected - len(cooled)
    view.assignments_action.trigger()
    assert not scene.assignments.isVisible()
    view.set_assignments_visible(True)
    assert scene.assignments.isVisible() and view.assignments_action.isChecked()


def test_alt_drag_from_busbar_assigns_the_racks_swept(view):
    session = view.session
    doc = session.doc
    swept = ["rack-2", "rack-3", "rack-4"]
    session.push(edits.assign(doc, swept, "feed_a", None))
    session.push(edits.assign(doc, swept, "cdu", None))
    bus = doc.busbars["bus-1"]
    r2, r4 = doc.racks["rack-2"], doc.racks["rack-4"]
    viewport = view.viewport()
    start, end = at(view, r2.x, bus.y1), at(view, r4.x, r4.y)
    QTest.mousePress(viewport, Qt.LeftButton, Qt.AltModifier, start)
    QTest.mouseMove(viewport, at(view, r2.x, r2.y))
    QTest.mouseMove(viewport, end)
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.AltModifier, end)
    assert [doc.racks[r].feed_a for r in swept] == ["bus-1"] * 3
    assert session.undo_stack.count() == 3
    session.undo_stack.undo()
    assert doc.racks["rack-3"].feed_a is None
    # from the row CDU: its loop, for every rack passed over on the way
    unit = doc.floor_units["fu-1"]
    r3 = doc.racks["rack-3"]
    QTest.mousePress(viewport, Qt.LeftButton, Qt.AltModifier, at(view, unit.x, unit.y))
    QTest.mouseMove(viewport, at(view, r3.x, r3.y))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.AltModifier, at(view, r3.x, r3.y))
    assert [doc.racks[r].cdu for r in ("rack-2", "rack-3")] == ["fu-1", "fu-1"]
    assert (doc.racks["rack-3"].x, doc.racks["rack-3"].y) == (r3.x, r3.y)  # assigned, not moved


def test_layers_and_route(view):
    scene = view.plan_scene
    layer = QGraphicsRectItem(0, 0, 500, 500)
    scene.add_layer(layer)
    assert layer.scene() is scene and layer.zValue() > scene.item_for("rack-1").zValue()
    # a layer never takes clicks away from the plan
    rack = view.session.doc.racks["rack-1"]
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, at(view, rack.x, rack.y))
    assert view.session.selection == {"rack-1"}
    scene.remove_layer(layer)
    assert layer.scene() is None
    view.show_route([(2.8, 4.2), (2.8, 3.6), (9.2, 3.6), (9.2, 4.2)])
    assert view._route is not None and view._route.path().elementCount() == 4
    view.clear_route()
    assert view._route is None


def _benchmark_plan(gpus: int):
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"
    spec = importlib.util.spec_from_file_location("benchmark_generate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build_plan(gpus)


def test_the_benchmark_hall_is_drawn_whole_at_fit_view(make_view):
    """The 32,768-GPU plan at fit-to-hall: one plan item per rack, busbar and floor unit, each
    where the model puts it, and racks painted at the corners and middle of the hall (the repaint
    time is a benchmark row: ``benchmarks/run_all.py``, plan view repaint)."""
    doc = _benchmark_plan(32768)
    view = make_view(doc, size=(1600, 1000))
    view.fit_to_hall()
    scene = view.plan_scene
    assert {item.obj_id for item in scene.plan_items()} >= {*doc.racks, *doc.busbars, *doc.floor_units}
    image = view.grab().toImage()
    background = image.pixelColor(2, 2)  # the canvas outside the hall
    racks = sorted(doc.racks.values(), key=lambda r: (r.y, r.x))
    for rack in (racks[0], racks[len(racks) // 2], racks[-1]):
        item = scene.item_for(rack.id)
        assert item.sceneBoundingRect().contains(to_scene(rack.x, rack.y)), rack.name
        centre = view.mapFromScene(to_scene(rack.x, rack.y))
        assert image.pixelColor(centre) != background, rack.name
