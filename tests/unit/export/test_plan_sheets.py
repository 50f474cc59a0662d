"""Issue 20, floor plans at a readable scale: a 1,024-node hall's floor plan in the cabling plan
and in the review document is a key plan and sheets on which every rack name prints whole at
6 pt or more and no two labels overlap. Read back with pypdf: every text run's position, size
and font on each floor page."""

from __future__ import annotations

import io
import math

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase.pdfmetrics import stringWidth

from planner.commands import History
from planner.commands.edits import move_objects
from planner.export import cabling_pdf, review_pdf
from planner.export.common import FONT, FONT_BOLD, ExportOptions, content_box, register_fonts
from planner.export.label_placer import ASCENT, DESCENT, overlaps
from planner.export.plan_drawing import plan_shapes
from planner.export.plan_sheets import MAX_SCALE, _cuts, readable_scale
from planner.export.selection import racks_named
from planner.io import dumps, loads, save
from planner.layout.templates import build_template
from planner.model.document import Document

#: A text run: text, x, y, size, font and its direction (a unit vector).
Run = tuple[str, float, float, float, str, float, float]


@pytest.fixture(scope="module")
def hall() -> Document:
    return build_template("hall", nodes=1024)


def text_runs(page) -> list[Run]:
    """Every text run above the title block (``common``'s, not the plan's)."""
    above_title_block = content_box(landscape(A4))[1]
    runs: list[Run] = []

    def visit(text, cm, tm, font, size):
        a, b = tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3]  # the text's direction
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if text.strip() and y > above_title_block:
            scale = math.hypot(a, b)
            runs.append((text.strip(), x, y, size * scale, str(font.get("/BaseFont", "")), a / scale, b / scale))

    page.extract_text(visitor_text=visit)
    return runs


@pytest.fixture(scope="module")
def floor(hall) -> tuple[list[str], list[list[Run]]]:
    """The floor plan's bookmark titles and each floor page's text runs; one rack's pages only,
    as the floor plan is the whole hall's whatever the selection."""
    out = io.BytesIO()
    cabling_pdf.write_cabling_pdf(hall, out, ExportOptions(racks=frozenset(racks_named(hall, ["R01"]))))
    reader = PdfReader(out)
    titles = [item.title for item in reader.outline[3]]
    start = reader.get_destination_page_number(reader.outline[2])
    return titles, [text_runs(page) for page in reader.pages[start:start + len(titles)]]


def clashes(runs: list[Run]) -> list[tuple[str, str]]:
    boxes = [box(run) for run in runs]
    return [(runs[i][0], runs[j][0]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
            if overlaps(boxes[i], boxes[j])]


def box(run: Run) -> tuple[float, float, float, float]:
    """The run's box on the page: its line (descender to ascender) turned to its direction."""
    register_fonts()
    text, x, y, size, font, dx, dy = run
    width = stringWidth(text, FONT_BOLD if "Bold" in font else FONT, size)
    corners = [(x + along * dx - up * dy, y + along * dy + up * dx)
               for along in (0.0, width) for up in (-DESCENT * size, ASCENT * size)]
    return (min(p[0] for p in corners), min(p[1] for p in corners),
            max(p[0] for p in corners), max(p[1] for p in corners))


def test_a_hall_too_big_for_one_readable_page_gets_a_key_plan_and_sheets(floor):
    titles, pages = floor
    assert titles[0] == "Key plan" and len(titles) >= 3 and titles[1].startswith("Sheet 1 · rows 1–")
    assert any("continues on sheet 2" in run[0] for run in pages[1])
    assert any("continues on sheet 1" in run[0] for run in pages[2])


def test_every_rack_is_named_whole_at_six_points_on_a_sheet(hall, floor):
    _titles, pages = floor
    names = {rack.name for rack in hall.racks.values()}
    printed = [run for runs in pages[1:] for run in runs if run[0] in names]
    assert sorted(run[0] for run in printed) == sorted(names)  # each once, on the sheet that holds it
    assert min(run[3] for run in printed) >= 6.0
    for runs in pages:
        assert not [run for run in runs if "…" in run[0]]  # nothing cut: no "R…"


def test_no_two_labels_overlap_on_any_floor_page(floor):
    _titles, pages = floor
    for number, runs in enumerate(pages):
        assert clashes(runs) == [], number


def test_the_readable_scale_fits_the_widest_name_at_six_points(hall):
    shapes = plan_shapes(hall)
    register_fonts()
    # R280 is the widest name; its 0.8 m wide rack must hold it at 6 pt with 1 pt to spare
    assert readable_scale(shapes) == pytest.approx((stringWidth("R280", FONT, 6) + 1) / 0.8)


def test_sheets_are_cut_in_the_aisles_not_through_a_rack():
    # racks span 2–4 and 5–7 m: a 4.5 m sheet would cut the second rack, so the cut moves back to 5
    assert _cuts(0.0, 9.0, 4.5, [(2.0, 4.0), (5.0, 7.0)]) == [0.0, 4.5, 9.0]
    assert _cuts(0.0, 9.0, 6.0, [(2.0, 4.0), (5.0, 7.0)]) == [0.0, 5.0, 9.0]


def test_a_hall_review_shows_a_moved_rack_on_a_sheet_that_names_every_rack(hall, tmp_path):
    save(hall, tmp_path / "old.hall")
    new = loads(dumps(hall))
    moved = next(r for r in new.racks.values() if r.name == "R140")
    History(new).push(move_objects(new, [moved.id], 0.0, 0.6))
    out = io.BytesIO()
    review_pdf.write_review_pdf(new, out, ExportOptions(against=str(tmp_path / "old.hall")))
    reader = PdfReader(out)
    sheets = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline[1]]
    assert len(sheets) >= 2 and all(title.startswith("Sheet ") for title, _page in sheets)
    names = {rack.name for rack in new.racks.values()}
    printed: list[Run] = []
    for _title, page in sheets:
        runs = text_runs(reader.pages[page])
        assert clashes(runs) == [] and not [run for run in runs if "…" in run[0]]
        printed += [run for run in runs if run[0] in names]
    assert sorted(run[0] for run in printed) == sorted(names) and min(run[3] for run in printed) >= 6.0
    assert "moved rack R140" in [item.title for item in reader.outline[3][1]]


def test_a_name_too_long_for_any_sheet_caps_the_scale_at_one_to_fifty(hall):
    shapes = plan_shapes(hall)
    shapes.boxes[0].name = "R" * 10_000
    assert readable_scale(shapes) == pytest.approx(MAX_SCALE) == pytest.approx(72 / 0.0254 / 50)
