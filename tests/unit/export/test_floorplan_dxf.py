"""`--to floorplan-dxf`: the plan read back with ezdxf, the reader CAD scripts use, audited, and
checked layer by layer against the plan."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import ezdxf
import pytest

from planner.export.floorplan_dxf import LAYERS, MAX_TEXT, dxf_text
from planner.export.registry import export_to
from planner.fabric.trays import TrayLoads
from planner.io import dxf as dxf_reader
from planner.io import save
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.geometry import footprint_polygon
from planner.model.objects import Obstacle


def plan() -> Document:
    """The 32-node pod with a column, a wall and one rack turned 90°."""
    doc = build_template("pod", nodes=32)
    doc.add(Obstacle(id=doc.new_id("obs"), name="C1", kind="column", polygon=[(1, 1), (1.5, 1), (1.5, 1.5), (1, 1.5)]))
    doc.add(Obstacle(id=doc.new_id("obs"), name="W1", kind="wall", polygon=[(0, 2), (0.2, 2), (0.2, 4), (0, 4)]))
    first = min(doc.racks.values(), key=lambda r: r.name)
    doc.set_fields(first.id, {"rotation": 90})
    return doc


def read(doc: Document, tmp_path) -> ezdxf.document.Drawing:
    path = tmp_path / "plan.dxf"
    export_to(doc, "floorplan-dxf", path)
    drawing = ezdxf.readfile(path)
    auditor = drawing.audit()
    assert not auditor.has_errors, [str(e) for e in auditor.errors]
    return drawing


@pytest.fixture(scope="module")
def pod() -> Document:
    return plan()


@pytest.fixture(scope="module")
def drawing(pod, tmp_path_factory):
    return read(pod, tmp_path_factory.mktemp("dxf"))


def test_millimetres_at_true_scale_with_a_layer_per_kind(drawing):
    assert drawing.header["$INSUNITS"] == 4 and drawing.header["$MEASUREMENT"] == 1
    for name, (colour, weight, description) in LAYERS.items():
        layer = drawing.layers.get(name)
        assert (layer.dxf.color, layer.dxf.lineweight, layer.description) == (colour, weight, description)


def test_entity_counts_per_layer_match_the_plan(pod, drawing):
    counts = Counter((e.dxf.layer, e.dxftype()) for e in drawing.modelspace())
    racks, units, busbars = len(pod.racks), len(pod.floor_units), len(pod.busbars)
    trays = len(TrayLoads(pod).trays())
    assert trays >= 1
    assert counts == Counter({
        ("HP-OUTLINE", "LWPOLYLINE"): 1,
        ("HP-COLUMNS", "LWPOLYLINE"): len(pod.obstacles),
        ("HP-ZONES", "LWPOLYLINE"): len(pod.zones), ("HP-ZONES", "TEXT"): len(pod.zones),
        ("HP-RACKS", "LWPOLYLINE"): racks, ("HP-RACKS", "LINE"): racks, ("HP-RACKS", "TEXT"): racks,
        ("HP-FLOOR-UNITS", "LWPOLYLINE"): units, ("HP-FLOOR-UNITS", "TEXT"): units,
        ("HP-BUSBARS", "LINE"): busbars, ("HP-BUSBARS", "TEXT"): busbars,
        ("HP-TRAYS", "LWPOLYLINE"): trays, ("HP-TRAYS", "TEXT"): trays,
        ("HP-DOORS", "LINE"): len(pod.doors), ("HP-DOORS", "TEXT"): len(pod.doors),
        ("HP-HANDOFFS", "CIRCLE"): len(pod.handoffs), ("HP-HANDOFFS", "TEXT"): len(pod.handoffs),
        ("HP-TITLE", "TEXT"): 3,
    })


def mm(points) -> list[tuple[float, float]]:
    return [(round(x * 1000, 3), round(-y * 1000, 3) + 0.0) for x, y in points]


def test_a_racks_polyline_is_its_footprint_in_millimetres_and_carries_its_name(pod, drawing):
    msp = drawing.modelspace()
    outlines = [[tuple(round(c, 3) for c in p) for p in e.get_points("xy")] for e in msp.query('LWPOLYLINE[layer=="HP-RACKS"]')]
    assert all(e.closed for e in msp.query('LWPOLYLINE[layer=="HP-RACKS"]'))
    for rack in pod.racks.values():
        item = pod.catalog[rack.type]
        assert mm(footprint_polygon(rack.x, rack.y, item.width_m, item.depth_m, rack.rotation)) in outlines, rack.name
    turned = min(pod.racks.values(), key=lambda r: r.name)
    item = pod.catalog[turned.type]
    corners = mm(footprint_polygon(turned.x, turned.y, item.width_m, item.depth_m, 90))
    assert corners[1][0] - corners[0][0] == pytest.approx(item.depth_m * 1000)  # turned: depth along x
    assert item.depth_m != item.width_m
    assert {e.dxf.text for e in msp.query('TEXT[layer=="HP-RACKS"]')} == {r.name for r in pod.racks.values()}
    assert mm(pod.outline) == [tuple(p) for p in next(iter(msp.query('LWPOLYLINE[layer=="HP-OUTLINE"]'))).get_points("xy")]


def test_busbar_sides_and_columns(pod, drawing):
    msp = drawing.modelspace()
    sides = Counter(e.dxf.linetype for e in msp.query('LINE[layer=="HP-BUSBARS"]'))
    assert sides == Counter({"CONTINUOUS": sum(b.side == "A" for b in pod.busbars.values()),
                             "DASHED": sum(b.side == "B" for b in pod.busbars.values())})
    columns = sorted(tuple(map(tuple, e.get_points("xy"))) for e in msp.query('LWPOLYLINE[layer=="HP-COLUMNS"]'))
    assert columns == sorted(tuple(mm(o.polygon)) for o in pod.obstacles.values())


def test_hostile_text_is_written_literally_and_never_breaks_the_file(tmp_path):
    doc = build_template("pod", nodes=16)
    racks = sorted(doc.racks.values(), key=lambda r: r.name)
    assert len(racks) == 5
    names = ["R\x00\x07\x1b[31m", "R" * 10_000, "50%%c ^J caret", "Зал №1 机房 עברית", "line\nbreak\r\u2028x"]
    for rack, name in zip(racks, names):
        doc.set_fields(rack.id, {"name": name})
    doc.meta.project = "P\x03" + "p" * 5000
    texts = [e.dxf.text for e in read(doc, tmp_path).modelspace().query("TEXT")]
    assert all(len(t) <= MAX_TEXT and not any(ord(c) < 32 or 0x7f <= ord(c) <= 0x9f for c in t) for t in texts)
    assert "R\ufffd\ufffd\ufffd[31m" in texts and "Зал №1 机房 עברית" in texts
    assert "50%%%%%%c ^ J caret" in texts  # "%%" and "^" as the DXF reference writes them literally
    assert dxf_text("R" * 10_000).endswith("…") and dxf_text("line\nbreak") == "line break"


def test_the_command_line_writes_a_dxf(tmp_path):
    source = tmp_path / "pod.hall"
    save(build_template("pod", nodes=8), source)
    out = tmp_path / "pod.dxf"
    done = subprocess.run([sys.executable, "-I", "-m", "planner", "export", str(source), "--to", "floorplan-dxf",
                           "-o", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert not ezdxf.readfile(out).audit().has_errors


def test_the_planners_own_dxf_reader_finds_the_hall_where_the_plan_has_it(pod, tmp_path):
    """Overlay and round trip: `planner new --from-dxf` (planner.io.dxf) reads this drawing's units,
    outline and columns back to the plan's metres."""
    reader = dxf_reader
    path = tmp_path / "plan.dxf"
    export_to(pod, "floorplan-dxf", path)
    drawing = reader.read_dxf(path)
    metres, _how = reader.metres_per_unit(drawing)
    hall = reader.pick_hall(drawing)
    x0, y0 = reader.north_west(hall.outline)
    assert metres == 0.001 and hall.outline.layer == "HP-OUTLINE" and hall.column_layers == ["HP-COLUMNS"]
    back = [c for x, y in hall.outline.points for c in ((x - x0) * metres, (y0 - y) * metres)]
    assert back == pytest.approx([c for point in pod.outline for c in point])
    assert len(hall.columns) == len(pod.obstacles)
