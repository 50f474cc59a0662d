"""Issue 20, floor plans at a readable scale in the SVG export too: a hall too big for one sheet
of its paper at 1:100 is a key plan and paper-sized sheets at 1:100, cut as the PDFs' floor
plans are, each rack named whole (at 6 pt or more) on the one sheet that holds it, and each
sheet naming its neighbours at its match lines. Read back as XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from planner.export import floorplan_svg
from planner.export.options import ExportOptions
from planner.layout.templates import build_template
from planner.model.document import Document

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
