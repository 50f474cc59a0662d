"""Issue 20, floor plans at a readable scale in the SVG export too: a hall too big for one sheet
of its paper at 1:100 is a key plan and paper-sized sheets at 1:100, cut as the PDFs' floor
plans are, each rack named whole (at 6 pt or more) on the one sheet that holds it, and each
sheet naming its neighbours at its match lines. Labels are placed as on the PDFs: no two text
boxes overlap, no tray or busbar line runs through a rack name, a name beside its box has a
leader. Read back as XML; a text's box is measured from its x, y, font-size, text-anchor and
weight with the bundled font's metrics (what the export assumes an SVG viewer draws)."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from planner.export import floorplan_svg
from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.label_placer import ASCENT, DESCENT, overlaps
from planner.export.options import ExportOptions
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.geometry import segment_span

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def hall() -> Document:
    return build_template("hall", nodes=1024)


def points_per_unit(root: ET.Element) -> float:
    """Printed points per user unit (a centimetre of floor)."""
    return float(root.get("width").removesuffix("mm")) / float(root.get("viewBox").split()[2]) * 72 / 25.4


def test_a_hall_is_a_key_plan_and_sheets_naming_every_rack_once_at_six_points(hall, tmp_path):
    written = floorplan_svg.write_svg_sheets(hall, tmp_path / "plan", ExportOptions(date="2026-12-02"))
    assert [p.name for p in written][:2] == ["key-plan.svg", "sheet-01.svg"] and len(written) >= 3
    roots = [ET.fromstring(p.read_bytes()) for p in written]
    key, sheets = roots[0], roots[1:]
    key_words = [t.text for t in key.iter(f"{SVG}text")]
    assert [f"Sheet {n}" for n in range(1, len(sheets) + 1)] == [w for w in key_words if w.startswith("Sheet ")]
    assert not {rack.name for rack in hall.racks.values()} & set(key_words)  # racks unnamed on the key plan
    names = {rack.name for rack in hall.racks.values()}
    printed = []
    for root in sheets:
        # A4 landscape at 1:100
        assert root.get("width") == "297.0mm" and root.get("height") == "210.0mm"
        assert "Scale 1:100" in [t.text for t in root.iter(f"{SVG}text")]
        for text in root.iter(f"{SVG}text"):
            if text.text in names:
                printed.append(text.text)
                assert float(text.get("font-size")) * points_per_unit(root) >= 6.0, text.text
            assert "…" not in (text.text or "")
    assert sorted(printed) == sorted(names)  # each rack once, whole


def test_each_sheet_names_its_neighbours_at_its_match_lines(hall):
    files = dict(floorplan_svg.svg_sheets(hall))
    sheets = {int(re.search(r"\d+", name).group()): ET.fromstring(text.encode()) for name, text in files.items()
              if name.startswith("sheet-")}
    opposite = {"north": "south", "south": "north", "west": "east", "east": "west"}
    for number, root in sheets.items():
        notes = [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "match-line" for t in g.iter(f"{SVG}text")]
        assert notes, number
        for note in notes:
            edge, other = re.fullmatch(r"(\w+): match line, continues on sheet (\d+)", note).groups()
            back = [t.text for g in sheets[int(other)].iter(f"{SVG}g") if g.get("class") == "match-line"
                    for t in g.iter(f"{SVG}text")]
            assert f"{opposite[edge]}: match line, continues on sheet {number}" in back


def test_a_plan_that_fits_one_sheet_is_the_one_drawing():
    pod = build_template("pod", nodes=16)
    assert floorplan_svg.svg_sheets(pod) == [("floor-plan.svg", floorplan_svg.render_svg(pod))]


Box = tuple[float, float, float, float]


def text_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """Every text element's box in user units: its line (descender to ascender, y down) from x at
    its anchor, turned by its ``rotate(…)`` transform if it has one."""
    register_fonts()
    found = []
    for text in root.iter(f"{SVG}text"):
        words, size = text.text or "", float(text.get("font-size"))
        x, y = float(text.get("x")), float(text.get("y"))
        width = stringWidth(words, FONT_BOLD if text.get("font-weight") == "bold" else FONT, size)
        anchor = text.get("text-anchor", "start")
        left = x - width if anchor == "end" else x - width / 2 if anchor == "middle" else x
        corners = [(px, py) for px in (left, left + width) for py in (y - ASCENT * size, y + DESCENT * size)]
        if (turn := re.fullmatch(r"rotate\((\S+) (\S+) (\S+)\)", text.get("transform") or "")):
            angle, cx, cy = (float(v) for v in turn.groups())
            c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            corners = [(cx + (px - cx) * c - (py - cy) * s, cy + (px - cx) * s + (py - cy) * c) for px, py in corners]
        found.append((words, (min(p[0] for p in corners), min(p[1] for p in corners),
                              max(p[0] for p in corners), max(p[1] for p in corners))))
    return found


def clashes(root: ET.Element) -> list[tuple[str, str]]:
    boxes = text_boxes(root)
    return [(boxes[i][0], boxes[j][0]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
            if overlaps(boxes[i][1], boxes[j][1])]


def crossings(root: ET.Element, names: set[str]) -> list[tuple[str, str]]:
    """(name, line class) for each tray or busbar line whose stroke runs into a name's box."""
    named = [(words, box) for words, box in text_boxes(root) if words in names]
    found = []
    for line in root.iter(f"{SVG}line"):
        if line.get("class") not in ("tray", "busbar"):
            continue
        half = float(line.get("stroke-width")) / 2
        segment = tuple(float(line.get(end)) for end in ("x1", "y1", "x2", "y2"))
        for words, (x0, y0, x1, y1) in named:
            span = segment_span(segment, (x0 - half, y0 - half, x1 + half, y1 + half))
            if span is not None and span[1] - span[0] > 1e-9:
                found.append((words, line.get("class")))
    return found


def test_no_label_overlaps_another_or_lies_under_a_line_on_the_hall_sheets(hall):
    files = floorplan_svg.svg_sheets(hall, ExportOptions(date="2026-12-02"))
    names = {rack.name for rack in hall.racks.values()}
    printed = []
    for name, text in files:
        root = ET.fromstring(text.encode())
        assert clashes(root) == [], name
        assert crossings(root, names) == [], name
        printed += [words for words, _box in text_boxes(root) if words in names]
        classes = {line.get("class") for line in root.iter(f"{SVG}line")}
        assert name == "key-plan.svg" or {"tray", "busbar"} <= classes
    assert sorted(printed) == sorted(names)  # each rack once, whole
    # a cross-aisle tray runs through R122's box: it is drawn in pieces, with a gap at the name
    sheet = ET.fromstring(dict(files)["sheet-01.svg"].encode())
    name_box = next(box for words, box in text_boxes(sheet) if words == "R122")
    pieces = sorted((float(line.get("y1")), float(line.get("y2"))) for line in sheet.iter(f"{SVG}line")
                    if line.get("class") == "tray" and line.get("x1") == line.get("x2")
                    and name_box[0] < float(line.get("x1")) < name_box[2])
    assert len(pieces) >= 2
    assert any(a[1] <= name_box[1] and b[0] >= name_box[3] for a, b in itertools.pairwise(pieces))


def test_a_pods_one_drawing_names_every_rack_once_whole_and_nothing_overlaps():
    pod = build_template("pod", nodes=16)
    root = ET.fromstring(floorplan_svg.render_svg(pod).encode())
    names = {rack.name for rack in pod.racks.values()}
    assert clashes(root) == [] and crossings(root, names) == []
    printed = [words for words, _box in text_boxes(root) if words in names]
    assert sorted(printed) == sorted(names)
    words = [words for words, _box in text_boxes(root)]
    for label in ["Row 1", *(bus.name for bus in pod.busbars.values()), *(u.name for u in pod.floor_units.values())]:
        assert words.count(label) == 1, label
    assert not [w for w in words if "…" in w]


def test_a_unit_name_too_long_for_its_box_sits_beside_it_with_a_leader():
    pod = build_template("pod", nodes=16)
    unit = next(iter(pod.floor_units.values()))
    pod.set_fields(unit.id, {"name": "CDU-NORTH-LOOP-0001"})
    root = ET.fromstring(floorplan_svg.render_svg(pod).encode())
    assert clashes(root) == []
    box = next(box for words, box in text_boxes(root) if words == "CDU-NORTH-LOOP-0001")
    footprint = next(e for e in root.iter(f"{SVG}polygon") if e.get("class") == "cdu")
    corners = [tuple(float(v) for v in point.split(",")) for point in footprint.get("points").split()]
    cx, cy = sum(p[0] for p in corners) / len(corners), sum(p[1] for p in corners) / len(corners)
    leaders = [tuple(float(line.get(end)) for end in ("x1", "y1", "x2", "y2"))
               for line in root.iter(f"{SVG}line") if line.get("class") == "leader"]
    # from the unit's centre to the nearest point of its name's box
    assert any(abs(x1 - cx) < 0.2 and abs(y1 - cy) < 0.2
               and abs(x2 - min(max(cx, box[0]), box[2])) < 0.2 and abs(y2 - min(max(cy, box[1]), box[3])) < 0.2
               for x1, y1, x2, y2 in leaders), leaders
    assert not box[0] <= cx <= box[2] or not box[1] <= cy <= box[3]  # beside the box, not over its middle
