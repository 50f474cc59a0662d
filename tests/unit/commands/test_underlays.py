"""Underlay commands: add, move/scale, hide/dim/lock, locate, remove undo exactly; the transform;
two-point scaling; taking a DXF's outline and columns; paths that follow the plan's folder."""

from __future__ import annotations

import math

import ezdxf
import pytest

from planner.commands import History, Refusal
from planner.commands.underlays import (
    add_underlay,
    origin_for,
    outline_from_drawing,
    relink,
    remove_underlay,
    resolve,
    scale_by_two_points,
    set_display,
    set_path,
    set_transform,
    stored_path,
    to_plan,
)
from planner.io import dumps
from planner.io.dxf import north_west, pick_outline, read_dxf
from planner.model.document import Document
from planner.model.geometry import polygon_area
from planner.model.objects import Obstacle, Underlay, Zone


def plan_with_drawing(kind: str = "image") -> tuple[Document, History, str]:
    doc = Document()
    doc.outline = [(0.0, 0.0), (20.0, 0.0), (20.0, 10.0), (0.0, 10.0)]
    history = History(doc)
    history.push(add_underlay(doc, "scan.png" if kind == "image" else "hall.dxf", kind, x=1.0, y=2.0, scale=0.02))
    return doc, history, next(iter(doc.underlays))


def test_add_names_the_drawing_and_undoes():
    doc = Document()
    before = dumps(doc)
    history = History(doc)
    command = add_underlay(doc, "drawings/set.pdf", "pdf", page=2)
    assert command.text == "Import drawing set.pdf p.3"
    history.push(command)
    under = doc.underlays["ul-1"]
    assert (under.kind, under.page, under.path, under.opacity, under.visible, under.locked) == \
        ("pdf", 2, "drawings/set.pdf", 0.5, True, False)
    history.undo()
    assert dumps(doc) == before
    history.redo()
    assert "ul-1" in doc.underlays


@pytest.mark.parametrize("make", [
    lambda doc, i: set_transform(doc, i, x=-4.5, y=7.25, scale=0.05, rotation=90.0),
    lambda doc, i: set_display(doc, i, visible=False),
    lambda doc, i: set_display(doc, i, opacity=0.2),
    lambda doc, i: set_display(doc, i, locked=True),
    lambda doc, i: set_path(doc, i, "/elsewhere/scan.png"),
    lambda doc, i: remove_underlay(doc, i),
], ids=["transform", "hide", "dim", "lock", "locate", "remove"])
def test_every_edit_undoes_exactly(make):
    doc, history, ul_id = plan_with_drawing()
    before = dumps(doc)
    history.push(make(doc, ul_id))
    assert dumps(doc) != before
    history.undo()
    assert dumps(doc) == before
    history.redo()
    history.undo()
    assert dumps(doc) == before


def test_undo_texts_say_what_changed():
    doc, _history, ul_id = plan_with_drawing()
    assert set_display(doc, ul_id, visible=False).text == "Hide drawing scan.png"
    assert set_display(doc, ul_id, opacity=0.25).text == "Set opacity of drawing scan.png to 25%"
    assert set_display(doc, ul_id, locked=True).text == "Lock drawing scan.png"
    assert remove_underlay(doc, ul_id).text == "Remove drawing scan.png"


def test_refusals_for_values_the_file_would_refuse():
    doc, _history, ul_id = plan_with_drawing()
    with pytest.raises(Refusal):
        set_transform(doc, ul_id, scale=0.0)
    with pytest.raises(Refusal):
        set_transform(doc, ul_id, x=20_000.0)
    with pytest.raises(Refusal):
        set_display(doc, ul_id, opacity=1.5)
    with pytest.raises(Refusal, match="path"):
        add_underlay(doc, "bad\nname.png", "image")
    with pytest.raises(Refusal, match="kind"):
        add_underlay(doc, "a.svg", "svg")


@pytest.mark.parametrize("kind", ["dxf", "image"])
@pytest.mark.parametrize("rotation", [0.0, 30.0, -90.0])
def test_transform_scales_turns_and_places(kind, rotation):
    under = Underlay(id="ul-1", name="d", path="d", kind=kind, x=3.0, y=-2.0, scale=0.01, rotation=rotation)
    assert to_plan(under, 0.0, 0.0) == (3.0, -2.0)
    # 100 units along the drawing's x are 1 m on the plan, turned by the rotation (clockwise on screen)
    x, y = to_plan(under, 100.0, 0.0)
    assert (x - 3.0, y + 2.0) == pytest.approx((math.cos(math.radians(rotation)), math.sin(math.radians(rotation))))


def test_dxf_y_points_north_and_image_y_points_south():
    dxf = Underlay(id="ul-1", name="d", path="d", kind="dxf", scale=1.0)
    image = Underlay(id="ul-2", name="i", path="i", kind="image", scale=1.0)
    assert to_plan(dxf, 0.0, 5.0) == (0.0, -5.0)
    assert to_plan(image, 0.0, 5.0) == (0.0, 5.0)
    x, y = origin_for("dxf", 0.001, (120_000.0, 104_000.0))
    moved = Underlay(id="ul-3", name="d", path="d", kind="dxf", x=x, y=y, scale=0.001)
    assert to_plan(moved, 120_000.0, 104_000.0) == (0.0, 0.0)
    assert to_plan(moved, 156_000.0, 80_000.0) == (36.0, 24.0)


def test_two_point_scale_makes_the_known_distance_measure_right():
    doc, history, ul_id = plan_with_drawing()
    under = doc.underlays[ul_id]
    # a line on the scan from pixel (100, 500) to (700, 500) is really 12 m long
    first, second = to_plan(under, 100.0, 500.0), to_plan(under, 700.0, 500.0)
    assert math.dist(first, second) == pytest.approx(12.0)  # 600 px at 0.02 m
    history.push(scale_by_two_points(doc, ul_id, first, second, 18.0))
    under = doc.underlays[ul_id]
    a, b = to_plan(under, 100.0, 500.0), to_plan(under, 700.0, 500.0)
    assert math.dist(a, b) == pytest.approx(18.0, abs=1e-6)
    assert a == pytest.approx(first, abs=1e-6)  # scaled about the first point
    history.undo()
    assert doc.underlays[ul_id].scale == 0.02


def test_two_point_scale_with_a_move_puts_the_first_point_in_place():
    doc, history, ul_id = plan_with_drawing()
    under = doc.underlays[ul_id]
    first, second = to_plan(under, 0.0, 0.0), to_plan(under, 0.0, 300.0)
    history.push(scale_by_two_points(doc, ul_id, first, second, 3.0, place_first_at=(5.0, 5.0)))
    under = doc.underlays[ul_id]
    assert to_plan(under, 0.0, 0.0) == pytest.approx((5.0, 5.0))
    assert to_plan(under, 0.0, 300.0) == pytest.approx((5.0, 8.0))
    with pytest.raises(Refusal, match="same"):
        scale_by_two_points(doc, ul_id, (1.0, 1.0), (1.0, 1.0), 2.0)
    with pytest.raises(Refusal, match="above 0"):
        scale_by_two_points(doc, ul_id, (1.0, 1.0), (2.0, 1.0), 0.0)


def architect_drawing(path):
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    msp.add_lwpolyline([(100_000, 50_000), (130_000, 50_000), (130_000, 70_000), (100_000, 70_000)],
                       close=True, dxfattribs={"layer": "A-WALL"})
    msp.add_circle((110_000, 60_000), 300, dxfattribs={"layer": "S-COLS"})
    msp.add_lwpolyline([(119_700, 59_700), (120_300, 59_700), (120_300, 60_300), (119_700, 60_300)],
                       close=True, dxfattribs={"layer": "S-COLS"})
    doc.saveas(path)
    return read_dxf(path)


def dxf_plan(drawing) -> tuple[Document, History, str]:
    doc = Document()
    history = History(doc)
    x, y = origin_for("dxf", 0.001, north_west(pick_outline(drawing)[0]))
    history.push(add_underlay(doc, "hall.dxf", "dxf", x=x, y=y, scale=0.001))
    return doc, history, "ul-1"


def test_outline_and_columns_from_a_dxf_underlay(tmp_path):
    drawing = architect_drawing(tmp_path / "hall.dxf")
    doc, history, ul_id = dxf_plan(drawing)
    before = dumps(doc)
    command = outline_from_drawing(doc, doc.underlays[ul_id], drawing)
    assert command.text == "Outline and 2 columns from drawing hall.dxf"
    history.push(command)
    assert sorted(doc.outline) == [(0.0, 0.0), (0.0, 20.0), (30.0, 0.0), (30.0, 20.0)]
    columns = sorted(doc.obstacles.values(), key=lambda o: o.name)
    assert [(o.name, o.kind) for o in columns] == [("C01", "column"), ("C02", "column")]
    centres = [(sum(p[0] for p in o.polygon) / len(o.polygon), sum(p[1] for p in o.polygon) / len(o.polygon))
               for o in columns]
    assert centres[0] == pytest.approx((10.0, 10.0), abs=1e-3)  # drawing y 60 m is 10 m south of 70 m
    assert centres[1] == pytest.approx((20.0, 10.0), abs=1e-3)
    assert polygon_area(columns[1].polygon) == pytest.approx(0.36)
    zone = next(iter(doc.zones.values()))
    assert zone.name == "Floor" and sorted(zone.polygon) == sorted(doc.outline)
    history.undo()
    assert dumps(doc) == before


def test_outline_follows_a_moved_underlay_and_is_not_taken_twice(tmp_path):
    drawing = architect_drawing(tmp_path / "hall.dxf")
    doc, history, ul_id = dxf_plan(drawing)
    under = doc.underlays[ul_id]
    history.push(set_transform(doc, ul_id, x=under.x + 2.0, y=under.y + 1.0))
    history.push(outline_from_drawing(doc, doc.underlays[ul_id], drawing))
    assert min(doc.outline) == (2.0, 1.0)
    history.push(outline_from_drawing(doc, doc.underlays[ul_id], drawing))
    assert len(doc.obstacles) == 2  # the same columns again: none added


def test_whole_floor_zone_follows_the_outline(tmp_path):
    drawing = architect_drawing(tmp_path / "hall.dxf")
    doc, history, ul_id = dxf_plan(drawing)
    doc.outline = [(0.0, 0.0), (8.0, 0.0), (8.0, 6.0), (0.0, 6.0)]
    doc.add(Zone(id="zone-1", name="Slab", polygon=list(doc.outline), rating_kpa=20.0))
    doc.add(Zone(id="zone-2", name="Corner", polygon=[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0)]))
    doc.add(Obstacle(id="obs-1", name="C01", kind="column", polygon=[(1.0, 1.0), (1.5, 1.0), (1.5, 1.5)]))
    history.push(outline_from_drawing(doc, doc.underlays[ul_id], drawing))
    assert doc.zones["zone-1"].polygon == doc.outline and doc.zones["zone-1"].rating_kpa == 20.0
    assert doc.zones["zone-2"].polygon == [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0)]
    assert len(doc.zones) == 2
    assert sorted(o.name for o in doc.obstacles.values()) == ["C01", "C02", "C03"]


def test_outline_only_from_a_dxf(tmp_path):
    doc, _history, ul_id = plan_with_drawing("image")
    with pytest.raises(Refusal, match="not a DXF"):
        outline_from_drawing(doc, doc.underlays[ul_id], architect_drawing(tmp_path / "h.dxf"))


def test_paths_relative_beside_or_below_the_plan_else_absolute(tmp_path):
    plan = tmp_path / "plans"
    assert stored_path(plan / "drawings" / "a.dxf", plan) == "drawings/a.dxf"
    assert stored_path(plan / "a.dxf", plan) == "a.dxf"
    assert stored_path(tmp_path / "other" / "a.dxf", plan) == str(tmp_path / "other" / "a.dxf")
    assert stored_path(plan / "a.dxf", None) == str(plan / "a.dxf")
    assert resolve("drawings/a.dxf", plan) == plan / "drawings" / "a.dxf"
    assert resolve(str(tmp_path / "x.png"), plan) == tmp_path / "x.png"


def test_relink_for_a_plan_saved_in_another_folder(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    doc = Document()
    history = History(doc)
    history.push(add_underlay(doc, "drawings/a.dxf", "dxf"))
    history.push(add_underlay(doc, str(new / "b.png"), "image"))
    command = relink(doc, old, new)
    history.push(command)
    assert doc.underlays["ul-1"].path == str(old / "drawings" / "a.dxf")  # no longer below: absolute
    assert doc.underlays["ul-2"].path == "b.png"  # now beside the plan: relative
    assert relink(doc, new, new) is None
    history.undo()
    assert doc.underlays["ul-1"].path == "drawings/a.dxf"
