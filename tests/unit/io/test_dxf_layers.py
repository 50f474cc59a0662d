"""Zones and doors from named DXF layers (issue 18): closed polylines on the zone layer become
zones at the default ratings, LINEs and open two-point polylines on the door layer doors, in
plan metres whatever the drawing's units, through ``pick_hall``, the underlay transform
(``outline_from_drawing``) and ``planner new --from-dxf --zone-layer --door-layer``."""

from __future__ import annotations

from pathlib import Path

import ezdxf
import pytest

from planner.cli import main
from planner.commands import History
from planner.commands.underlays import add_underlay, origin_for, outline_from_drawing
from planner.io import load
from planner.io.dxf import DxfError, metres_per_unit, north_west, pick_hall, read_dxf
from planner.model.document import Document
from planner.model.geometry import bounds_of
from planner.model.objects import Zone

#: $INSUNITS code, --units name, metres per unit.
UNIT_SYSTEMS = [(4, "mm", 0.001), (6, "m", 1.0), (1, "in", 0.0254), (2, "ft", 0.3048)]
WIDTH, DEPTH = 30.0, 20.0
ZONE_DEFAULTS = Zone(id="", name="", polygon=[])


def layered_dxf(path: Path, insunits: int = 4, unit_m: float = 0.001) -> Path:
    """A 30 × 20 m hall (south-west corner at 100 m, 50 m) on A-WALL; on A-ZONE a raised-floor
    area 10 × 6 m at the hall's north-west corner and one zone wholly outside the hall; on A-DOOR
    a LINE door 2.4 m wide in the west wall, an open two-point polyline door 1.2 m wide in the
    east wall, a closed polyline and a door swing arc (neither is a door)."""
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = insunits
    msp = doc.modelspace()
    for name in ("A-WALL", "A-ZONE", "A-DOOR"):
        doc.layers.add(name)

    def u(x_m: float, y_m: float) -> tuple[float, float]:
        return (100.0 + x_m) / unit_m, (50.0 + y_m) / unit_m

    msp.add_lwpolyline([u(0, 0), u(WIDTH, 0), u(WIDTH, DEPTH), u(0, DEPTH)], close=True,
                       dxfattribs={"layer": "A-WALL"})
    msp.add_lwpolyline([u(0, 14), u(10, 14), u(10, 20), u(0, 20)], close=True, dxfattribs={"layer": "A-ZONE"})
    msp.add_lwpolyline([u(50, 0), u(60, 0), u(60, 5)], close=True, dxfattribs={"layer": "A-ZONE"})
    msp.add_line(u(0, 4), u(0, 6.4), dxfattribs={"layer": "A-DOOR"})
    msp.add_lwpolyline([u(WIDTH, 10), u(WIDTH, 11.2)], dxfattribs={"layer": "A-DOOR"})
    msp.add_lwpolyline([u(5, 5), u(6, 5), u(6, 6)], close=True, dxfattribs={"layer": "A-DOOR"})
    msp.add_lwpolyline([(*u(WIDTH, 10), 0, 0, 1.0), u(WIDTH - 1.2, 11.2)], format="xyseb",
                       dxfattribs={"layer": "A-DOOR"})
    doc.saveas(path)
    return path


def plan_of(drawing, scale: float) -> tuple[Document, History]:
    doc = Document()
    history = History(doc)
    x, y = origin_for("dxf", scale, north_west(pick_hall(drawing).outline))
    history.push(add_underlay(doc, "hall.dxf", "dxf", x=x, y=y, scale=scale))
    return doc, history


@pytest.mark.parametrize("code,name,unit_m", UNIT_SYSTEMS)
def test_zones_and_doors_in_plan_metres_in_each_unit_system(tmp_path, code, name, unit_m):
    drawing = read_dxf(layered_dxf(tmp_path / f"hall-{name}.dxf", code, unit_m))
    hall = pick_hall(drawing, zone_layer="a-zone", door_layer="A-DOOR")  # layer names ignore case
    assert (hall.zone_layer, len(hall.zones), hall.zones_outside) == ("A-ZONE", 1, 1)
    assert (hall.door_layer, len(hall.doors)) == ("A-DOOR", 2)
    scale, _note = metres_per_unit(drawing)
    doc, history = plan_of(drawing, scale)
    command = outline_from_drawing(doc, doc.underlays["ul-1"], drawing, zone_layer="A-ZONE", door_layer="A-DOOR")
    assert command.text == "Outline and 0 columns, 1 zone and 2 doors from drawing hall.dxf"
    history.push(command)
    assert bounds_of(doc.outline) == pytest.approx((0.0, 0.0, WIDTH, DEPTH), abs=1e-6)
    (zone,) = doc.zones.values()  # the drawn zones replace the whole-floor default
    # drawing y 14–20 m is the hall's northern 6 m: plan y 0–6 (y points south)
    assert bounds_of(zone.polygon) == pytest.approx((0.0, 0.0, 10.0, 6.0), abs=1e-6)
    assert (zone.rating_kpa, zone.tile_rating_kn, zone.tile_size_m) == (
        ZONE_DEFAULTS.rating_kpa, ZONE_DEFAULTS.tile_rating_kn, ZONE_DEFAULTS.tile_size_m)
    doors = sorted(doc.doors.values(), key=lambda d: d.x1)
    assert [(d.x1, d.y1, d.x2, d.y2) for d in doors] == [
        pytest.approx((0.0, 16.0, 0.0, 13.6), abs=1e-6), pytest.approx((WIDTH, 10.0, WIDTH, 8.8), abs=1e-6)]
    history.push(outline_from_drawing(doc, doc.underlays["ul-1"], drawing, zone_layer="A-ZONE", door_layer="A-DOOR"))
    assert (len(doc.zones), len(doc.doors)) == (1, 2), "taken twice, nothing is added twice"
    history.undo()
    history.undo()
    assert not doc.zones and not doc.doors and not doc.outline


def test_named_layer_without_zones_or_doors_is_refused_with_the_layers(tmp_path):
    drawing = read_dxf(layered_dxf(tmp_path / "hall.dxf"))
    with pytest.raises(DxfError, match="no layer 'ZONES' for the zones.*A-ZONE"):
        pick_hall(drawing, zone_layer="ZONES")
    with pytest.raises(DxfError, match="'A-WALL' .* no LINE or two-point polyline for a door"):
        pick_hall(drawing, door_layer="A-WALL")
    hall = pick_hall(drawing)
    assert (hall.zones, hall.doors, hall.zone_layer) == ([], [], None)


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def test_new_from_dxf_takes_zones_and_doors_with_the_units_given(tmp_path, capsys):
    source = layered_dxf(tmp_path / "plain.dxf", insunits=0, unit_m=0.3048)  # unitless: feet, said by --units
    out_path = tmp_path / "plan.hall"
    status, out, err = run(["new", "--from-dxf", str(source), "--zone-layer", "A-ZONE", "--door-layer", "A-DOOR",
                            "--units", "ft", "-o", str(out_path)], capsys)
    assert status == 0, err
    assert "Zones: 1 from layer A-ZONE" in out and "1 outside the outline left out" in out
    assert "Doors: 2 from layer A-DOOR" in out
    assert [line.split()[-2:] for line in out.splitlines() if line.startswith(("A-ZONE", "A-DOOR"))] == [
        ["2", "doors"], ["1", "zone"]]
    doc = load(out_path)
    (zone,) = doc.zones.values()
    assert bounds_of(zone.polygon) == pytest.approx((0.0, 0.0, 10.0, 6.0), abs=1e-3)
    widths = sorted(round(abs(d.y2 - d.y1), 3) for d in doc.doors.values())
    assert widths == [1.2, 2.4]
    assert "2 doors from layer A-DOOR" in doc.meta.notes


def test_new_from_dxf_refuses_an_unknown_zone_layer_and_the_flags_without_a_drawing(tmp_path, capsys):
    source = layered_dxf(tmp_path / "hall.dxf")
    out_path = tmp_path / "plan.hall"
    status, _out, err = run(["new", "--from-dxf", str(source), "--zone-layer", "FLOOR", "-o", str(out_path)], capsys)
    assert status == 2 and "no layer 'FLOOR' for the zones" in err and not out_path.exists()
    status, _out, err = run(["new", "--template", "starter", "--door-layer", "A-DOOR", "-o", str(out_path)], capsys)
    assert status == 2 and "--door-layer is for --from-dxf" in err
