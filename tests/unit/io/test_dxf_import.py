"""Reading an architect's DXF (planner.io.dxf): units, layers, the outline and the columns, on
drawings made here with ezdxf in each unit system."""

from __future__ import annotations

import math

import ezdxf
import pytest

from planner.io.dxf import (
    CIRCLE_SIDES,
    DxfError,
    metres_per_unit,
    north_west,
    pick_hall,
    pick_outline,
    read_dxf,
)

#: $INSUNITS code, --units name, metres per unit.
UNIT_SYSTEMS = [(4, "mm", 0.001), (6, "m", 1.0), (1, "in", 0.0254), (2, "ft", 0.3048)]


def hall_dxf(path, insunits: int = 4, unit_m: float = 0.001, origin=(120.0, 80.0), width=36.0, depth=24.0,
             outline_layer="A-WALL", column_layer="S-COLS"):
    """A hall ``width`` × ``depth`` m with its south-west corner at ``origin`` (m), in drawing units of
    ``unit_m`` metres: two round columns (r 0.3 m), one square one (0.6 m), one round column outside
    the hall, a bigger site boundary on SITE, an open line on the outline layer and a text."""
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = insunits
    msp = doc.modelspace()
    for name in (outline_layer, column_layer, "SITE", "TEXT"):
        doc.layers.add(name)

    def u(x_m: float, y_m: float) -> tuple[float, float]:
        return (origin[0] + x_m) / unit_m, (origin[1] + y_m) / unit_m

    msp.add_lwpolyline([u(0, 0), u(width, 0), u(width, depth), u(0, depth)], close=True,
                       dxfattribs={"layer": outline_layer})
    msp.add_lwpolyline([u(-50, -50), u(width + 50, -50), u(width + 50, depth + 50), u(-50, depth + 50)],
                       close=True, dxfattribs={"layer": "SITE"})
    msp.add_line(u(1, 1), u(5, 1), dxfattribs={"layer": outline_layer})
    for x in (6.0, 18.0):
        msp.add_circle(u(x, 12.0), 0.3 / unit_m, dxfattribs={"layer": column_layer})
    msp.add_lwpolyline([u(29.7, 11.7), u(30.3, 11.7), u(30.3, 12.3), u(29.7, 12.3)], close=True,
                       dxfattribs={"layer": column_layer})
    msp.add_circle(u(-10.0, 12.0), 0.3 / unit_m, dxfattribs={"layer": column_layer})
    msp.add_text("HALL A", dxfattribs={"layer": "TEXT", "height": 0.5 / unit_m, "insert": u(1, 1)})
    doc.saveas(path)
    return path


@pytest.mark.parametrize("code,name,unit_m", UNIT_SYSTEMS)
def test_each_unit_system_gives_the_hall_in_metres(tmp_path, code, name, unit_m):
    drawing = read_dxf(hall_dxf(tmp_path / f"{name}.dxf", code, unit_m))
    scale, note = metres_per_unit(drawing)
    assert scale == unit_m and name in note and "$INSUNITS" in note
    hall = pick_hall(drawing)
    x0, y0, x1, y1 = hall.outline.bounds()
    assert abs((x1 - x0) * scale - 36.0) < 1e-3 and abs((y1 - y0) * scale - 24.0) < 1e-3
    corner = north_west(hall.outline)
    assert abs(corner[0] * scale - 120.0) < 1e-3 and abs(corner[1] * scale - 104.0) < 1e-3


def test_unitless_drawing_needs_units(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "plain.dxf", insunits=0, unit_m=1.0))
    with pytest.raises(DxfError, match="--units"):
        metres_per_unit(drawing)
    assert metres_per_unit(drawing, "m")[0] == 1.0
    assert metres_per_unit(drawing, "ft")[0] == 0.3048


def test_units_option_wins_over_the_header_and_says_so(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "mm.dxf"))
    scale, note = metres_per_unit(drawing, "m")
    assert scale == 1.0 and "says mm" in note


def test_layers_listed_with_entity_counts(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "h.dxf"))
    assert drawing.layers["A-WALL"] == 2  # outline and the open line
    assert drawing.layers["S-COLS"] == 4
    assert drawing.layers["SITE"] == 1 and drawing.layers["TEXT"] == 1
    assert drawing.layers["0"] == 0
    assert drawing.layer_named("s-cols") == "S-COLS"


def test_outline_from_a_wall_layer_beats_a_bigger_site_boundary(tmp_path):
    hall = pick_hall(read_dxf(hall_dxf(tmp_path / "h.dxf")))
    assert hall.outline.layer == "A-WALL" and "guessed from the layer name" in hall.outline_how
    assert len(hall.outline.points) == 4


def test_without_a_wall_layer_the_largest_closed_polyline(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "h.dxf", outline_layer="PLAN-1"))
    outline, how = pick_outline(drawing)
    assert outline.layer == "SITE" and "largest closed polyline in the drawing" in how
    outline, how = pick_outline(drawing, "plan-1")  # layer names are case-insensitive in DXF
    assert outline.layer == "PLAN-1" and "as asked" in how


def test_columns_from_circles_and_closed_polylines(tmp_path):
    hall = pick_hall(read_dxf(hall_dxf(tmp_path / "h.dxf")))
    assert hall.column_layers == ["S-COLS"] and "guessed" in hall.columns_how
    assert sorted(s.kind for s in hall.columns) == ["circle", "circle", "polyline"]
    assert hall.columns_outside == 1
    circle = next(s for s in hall.columns if s.kind == "circle")
    assert len(circle.points) == CIRCLE_SIDES
    # a 32-gon inscribed in r = 300 mm: area within 0.7 % of the circle's
    assert circle.area == pytest.approx(math.pi * 300 ** 2, rel=0.007)
    square = next(s for s in hall.columns if s.kind == "polyline")
    assert square.area == pytest.approx(600 * 600)


def test_columns_drawn_as_blocks_take_the_insert_layer(tmp_path):
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 6
    doc.layers.add("COLUMNS")
    block = doc.blocks.new("COL")
    block.add_circle((0, 0), 0.4)  # on layer 0: takes the layer of each insert
    msp = doc.modelspace()
    msp.add_lwpolyline([(0, 0), (20, 0), (20, 10), (0, 10)], close=True, dxfattribs={"layer": "WALLS"})
    for x in (5, 10, 15):
        msp.add_blockref("COL", (x, 5), dxfattribs={"layer": "COLUMNS"})
    doc.saveas(tmp_path / "b.dxf")
    hall = pick_hall(read_dxf(tmp_path / "b.dxf"))
    assert [round(sum(p[0] for p in s.points) / len(s.points), 6) for s in hall.columns] == [5, 10, 15]


def test_closed_by_coincident_ends_and_old_style_polylines(tmp_path):
    doc = ezdxf.new("R2000")
    doc.header["$INSUNITS"] = 6
    msp = doc.modelspace()
    # no closed flag, but ends where it starts
    msp.add_lwpolyline([(0, 0), (30, 0), (30, 20), (0, 20), (0, 0)], dxfattribs={"layer": "HALL"})
    msp.add_polyline2d([(2, 2), (3, 2), (3, 3), (2, 3)], close=True, dxfattribs={"layer": "COL"})
    msp.add_lwpolyline([(5, 5), (6, 5), (6, 6)], dxfattribs={"layer": "COL"})  # open: not a column
    doc.saveas(tmp_path / "p.dxf")
    hall = pick_hall(read_dxf(tmp_path / "p.dxf"))
    assert len(hall.outline.points) == 4 and hall.outline.area == pytest.approx(600)
    assert [s.area for s in hall.columns] == [pytest.approx(1)]


def test_curved_wall_is_flattened_within_a_millimetre(tmp_path):
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    # a 20 m × 10 m hall whose east wall is a half circle (bulge 1) of radius 5 m
    msp.add_lwpolyline([(0, 0, 0), (20000, 0, 1), (20000, 10000, 0), (0, 10000, 0)], format="xyb",
                       close=True, dxfattribs={"layer": "A-WALL"})
    doc.saveas(tmp_path / "c.dxf")
    outline = pick_outline(read_dxf(tmp_path / "c.dxf"))[0]
    x1 = max(p[0] for p in outline.points)
    assert abs(x1 - 25000) < 1.0
    assert outline.area == pytest.approx(20000 * 10000 + math.pi * 5000 ** 2 / 2, rel=1e-4)


def test_refusals_name_the_file_and_the_layers(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "h.dxf"))
    with pytest.raises(DxfError, match=r"no layer 'NOPE'.*layers: 0, A-WALL"):
        pick_hall(drawing, outline_layer="NOPE")
    with pytest.raises(DxfError, match="no closed polyline"):
        pick_hall(drawing, outline_layer="TEXT")
    with pytest.raises(DxfError, match="cannot read .*missing.dxf"):
        read_dxf(tmp_path / "missing.dxf")
    junk = tmp_path / "junk.dxf"
    junk.write_text("this is not a drawing\n", encoding="utf-8")
    with pytest.raises(DxfError, match="junk.dxf"):
        read_dxf(junk)
    empty = ezdxf.new()
    empty.saveas(tmp_path / "empty.dxf")
    with pytest.raises(DxfError, match="no closed polyline"):
        pick_hall(read_dxf(tmp_path / "empty.dxf"))


def test_columns_none_when_asked_or_when_no_layer_looks_like_columns(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "h.dxf"))
    assert pick_hall(drawing, column_layer="").columns == []
    drawing = read_dxf(hall_dxf(tmp_path / "k.dxf", column_layer="STRUCT"))
    hall = pick_hall(drawing)
    assert hall.columns == [] and "no layer named like columns" in hall.columns_how
    assert len(pick_hall(drawing, column_layer="STRUCT").columns) == 3


def test_sketch_holds_line_work_and_texts(tmp_path):
    drawing = read_dxf(hall_dxf(tmp_path / "h.dxf"), sketch=True)
    assert len(drawing.lines) == 1 + 1 + 1 + 4  # outline, site boundary, open line, four columns
    assert [t.text for t in drawing.texts] == ["HALL A"]
    assert drawing.texts[0].height == pytest.approx(500)
    assert drawing.extents == pytest.approx((70_000, 30_000, 206_000, 154_000))  # the site boundary
