"""Issue 20, floor plans at a readable scale: a 1,024-node hall's floor plan in the cabling plan
and in the review document is a key plan and sheets on which every rack name prints whole at
6 pt or more and no two labels overlap. Read back with pypdf: every text run's position, size
and font on each floor page."""

from __future__ import annotations

import io
import math
import re

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase.pdfmetrics import stringWidth

from planner.commands import History
from planner.commands.edits import move_objects
from planner.export import cabling_pdf, review_marks, review_pdf
from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.label_placer import ASCENT, DESCENT, GAP, Placer, overlaps, segment_span
from planner.export.options import ExportOptions
from planner.export.pages import content_box
from planner.export.plan_drawing import plan_shapes
from planner.export.plan_sheets import MAX_SCALE, _cuts, balanced_cuts, plan_sheets, readable_scale
from planner.export.review_marks import MARK_STYLES, number_ranges, numbered_marks
from planner.export.selection import racks_named
from planner.io import dumps, loads, save
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.objects import Point
from planner.review.diff import diff_plans

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


def children(outline: list, title: str) -> list:
    """The bookmarks under the top-level bookmark ``title``."""
    index = next(i for i, item in enumerate(outline) if not isinstance(item, list) and item.title == title)
    return outline[index + 1] if index + 1 < len(outline) and isinstance(outline[index + 1], list) else []


def test_a_hall_review_shows_a_moved_rack_on_a_sheet_that_names_every_rack(hall, tmp_path):
    save(hall, tmp_path / "old.hall")
    new = loads(dumps(hall))
    moved = next(r for r in new.racks.values() if r.name == "R140")
    History(new).push(move_objects(new, [moved.id], 0.0, 0.6))
    out = io.BytesIO()
    review_pdf.write_review_pdf(new, out, ExportOptions(against=str(tmp_path / "old.hall")))
    reader = PdfReader(out)
    # a review prints the sheets that show a change (here the one holding R140), not every sheet
    sheets = [(item.title, reader.get_destination_page_number(item))
              for item in children(reader.outline, "Changes on the floor plan")]
    assert len(sheets) == 1 and all(title.startswith("Sheet ") for title, _page in sheets)
    names = {rack.name for rack in new.racks.values()}
    printed: list[Run] = []
    rows: set[str] = set()
    for title, page in sheets:
        runs = text_runs(reader.pages[page])
        assert clashes(runs) == [] and not [run for run in runs if "…" in run[0]]
        printed += [run for run in runs if run[0] in names]
        first, _dash, last = title.split(" · rows ")[1].partition("–")
        rows |= {str(row) for row in range(int(first), int(last or first) + 1)}
    # every rack of the sheet is named whole, once, at 6 pt or more. With the storage and management
    # racks of every network the hall is 36 m wide, two sheets wide at the readable scale: R140, at
    # the east end of row 4, is on the east sheet of rows 1–4, which holds each of those rows from
    # one cut between racks to the row's east end, so no rack east of the westmost one named is left out
    in_rows = [rack for rack in new.racks.values() if rack.row in rows]
    cut = min(rack.x for rack in in_rows if rack.name in {run[0] for run in printed})
    on_sheets = {rack.name for rack in in_rows if rack.x >= cut}
    assert "R140" in on_sheets and sorted(run[0] for run in printed) == sorted(on_sheets)
    assert rows == {"1", "2", "3", "4"} and 0 < len(on_sheets) < len(in_rows)  # a part of those rows only
    assert min(run[3] for run in printed) >= 6.0
    objects = children(children(reader.outline, "Change list"), "Objects")
    assert "moved rack R140" in [item.title for item in objects]


def test_a_name_too_long_for_any_sheet_caps_the_scale_at_one_to_fifty(hall):
    shapes = plan_shapes(hall)
    shapes.boxes[0].name = "R" * 10_000
    assert readable_scale(shapes) == pytest.approx(MAX_SCALE) == pytest.approx(72 / 0.0254 / 50)


# --- balanced sheets ------------------------------------------------------------------------

def test_balanced_cuts_split_evenly_in_the_aisles():
    # ten 1 m racks touching, 0–10 m: at most 6 m a sheet takes two sheets, cut between racks at 5
    racks = [(float(i), i + 1.0) for i in range(10)]
    assert _cuts(0.0, 10.0, 6.0, racks) == [0.0, 6.0, 10.0]  # greedy: a full sheet and a strip
    assert balanced_cuts(0.0, 10.0, 6.0, racks) == [0.0, 5.0, 10.0]
    # an even split inside a rack moves to its nearer edge; one in an aisle moves to the aisle's middle
    assert balanced_cuts(0.0, 9.0, 6.0, [(4.0, 4.8), (5.0, 9.0)]) == [0.0, 4.9, 9.0]
    assert balanced_cuts(0.0, 9.0, 6.0, [(0.0, 4.3), (4.4, 9.0)]) == [0.0, 4.35, 9.0]
    # three pieces of an 11 m span with 4 m sheets
    assert balanced_cuts(0.0, 11.0, 4.0, []) == pytest.approx([0.0, 11 / 3, 22 / 3, 11.0])
    # the pieces never exceed the span, and a cut through a box falls back to the greedy cuts
    assert balanced_cuts(0.0, 9.0, 4.5, [(2.0, 4.0), (5.0, 7.0)]) == [0.0, 4.5, 9.0]


def test_a_hall_a_little_too_wide_for_a_sheet_is_cut_into_two_halves(hall):
    shapes = plan_shapes(hall)
    x0, y0, x1, y1 = content_box(A4)  # portrait: the 34 m hall is two sheets wide
    _scale, sheets = plan_sheets(shapes, (x0, y0 + 10, x1, y1 - 24))
    widths = sorted({round(s.window[2] - s.window[0], 1) for s in sheets})
    assert len(sheets) == 2 and widths[-1] - widths[0] <= 1.0  # 17.2 and 17.0 m, not 23.6 and 10.6
    # the cut runs between two racks: each rack is on one sheet whole
    cut = sheets[0].window[2]
    assert not [b for b in shapes.boxes
                if min(p[0] for p in b.polygon) < cut - 1e-6 and max(p[0] for p in b.polygon) > cut + 1e-6]


# --- the label placer: lines to keep off and lines that stop short of names ------------------

def test_a_name_keeps_off_a_slanted_line_and_a_line_stops_short_of_a_name():
    register_fonts()
    placer = Placer((0.0, 0.0, 200.0, 200.0))
    placer.block_segment(0.0, 0.0, 100.0, 100.0, 2.0)  # a diagonal arrow
    spots = [(50.0, 48.0, "centre"), (150.0, 48.0, "centre")]
    found = placer.spot("R1136", 6.0, FONT, spots)
    assert found is not None and found[0] == 1  # the spot on the arrow is passed over
    assert placer.free((60.0, 10.0, 80.0, 16.0))  # beside the arrow, inside its bounding box: free
    # a line from (150, 20) up through the name at (150, 48) stops before it
    t0, t1 = placer.clear_stretch(150.0, 20.0, 150.0, 80.0)
    name = found[4]
    assert t0 == 0.0 and 20 + 60 * t1 <= name[1] - GAP + 1e-9


# --- reviewing a hall ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def one_rack_move(hall, tmp_path_factory) -> tuple[PdfReader, list[tuple[int, tuple[float, ...], Point, Point]]]:
    """The review of R140 moved 0.6 m south on the 1,024-node hall, and every move arrow drawn
    (page index, the canvas's matrix, start, end)."""
    folder = tmp_path_factory.mktemp("hall-review")
    save(hall, folder / "old.hall")
    new = loads(dumps(hall))
    History(new).push(move_objects(new, [next(r.id for r in new.racks.values() if r.name == "R140")], 0.0, 0.6))
    drawn = []
    real = review_marks._arrow

    def arrow(canvas, start, end):
        drawn.append((canvas.getPageNumber() - 1, canvas._currentMatrix, start, end))
        real(canvas, start, end)

    out = io.BytesIO()
    review_marks._arrow = arrow
    try:
        review_pdf.write_review_pdf(new, out, ExportOptions(against=str(folder / "old.hall")))
    finally:
        review_marks._arrow = real
    return PdfReader(out), drawn


def pages_of(reader: PdfReader, title: str) -> list[tuple[str, int]]:
    return [(item.title, reader.get_destination_page_number(item)) for item in children(reader.outline, title)]


def test_a_one_rack_move_on_a_hall_is_a_short_review_that_opens_with_the_change_list(one_rack_move):
    reader, _arrows = one_rack_move
    first = re.sub(r"\s+", " ", reader.pages[0].extract_text())
    assert len(reader.pages) <= 6
    assert "Change list" in first and "1 moved rack R140 y: " in first  # numbered as on the plans
    tops = [item.title for item in reader.outline if not isinstance(item, list)]
    assert tops == ["Change list", "Details of the changes", "Changes on the floor plan", "Open comments"]


def test_each_change_has_a_detail_drawing_with_the_rack_named_whole_before_and_after(one_rack_move):
    reader, _arrows = one_rack_move
    details = pages_of(reader, "Details of the changes")
    assert [title for title, _page in details] == ["Detail 1 · 1 moved rack R140"]
    page = reader.pages[details[0][1]]
    runs = text_runs(page)
    texts = [run[0] for run in runs]
    assert any(t.startswith("Before · old.hall, revision A") for t in texts) and any(t.startswith("After · ")
                                                                                    for t in texts)
    names = [run for run in runs if run[0] == "R140"]
    assert len(names) == 2 and min(run[3] for run in names) >= 6.0  # in each drawing, whole
    assert texts.count("1") == 2  # its number by the mark, in both drawings
    content = page.get_contents().get_data()
    moved = " ".join(f"{c:g}".removeprefix("0") for c in MARK_STYLES["moved"][0]).encode()
    assert moved + b" RG" in content and b"[.8 1.6] 0 d" in content  # the moved mark's colour and dots
    assert moved + b" rg" in content  # its arrow head


def test_the_key_plan_numbers_the_change_and_only_its_sheet_is_printed(one_rack_move):
    reader, _arrows = one_rack_move
    floor = pages_of(reader, "Changes on the floor plan")
    start = next(reader.get_destination_page_number(item) for item in reader.outline
                 if not isinstance(item, list) and item.title == "Changes on the floor plan")
    key = text_runs(reader.pages[start])
    assert [run for run in key if run[0] == "1" and "Bold" in run[4]]  # the change's tag
    # the whole grid: the 36 m wide hall of every network's racks is two sheets wide and two high,
    # numbered row by row from the north-west; R140, at the east end of row 4, is on sheet 2
    assert {run[0] for run in key if run[0].startswith("Sheet ")} == {"Sheet 1", "Sheet 2", "Sheet 3", "Sheet 4"}
    assert [title for title, _page in floor] == ["Sheet 2 · rows 1–4"]
    assert "sheet 2, which shows a change, follows" in re.sub(r"\s+", " ", reader.pages[start].extract_text())


def test_no_two_labels_overlap_and_no_arrow_crosses_a_name_on_any_page(one_rack_move):
    reader, arrows = one_rack_move
    for number, page in enumerate(reader.pages):
        runs = text_runs(page)
        assert clashes(runs) == [], number
    moves = [arrow for arrow in arrows if math.dist(arrow[2], arrow[3]) > review_marks.ARROW_HEAD]
    assert len(moves) == 3  # the detail, the key plan and the sheet (and each legend's little one)
    for number, (a, b, c, d, e, f), start, end in arrows:
        ends = [(a * x + c * y + e, b * x + d * y + f) for x, y in (start, end)]
        for run in text_runs(reader.pages[number]):
            x0, y0, x1, y1 = box(run)
            assert segment_span((*ends[0], *ends[1]), (x0, y0, x1, y1)) is None, (number, run[0])


def test_changes_are_numbered_in_list_order_and_a_device_is_shown_on_its_rack():
    assert number_ranges([3, 1, 2, 7, 9, 10]) == "1–3, 7, 9–10"
    assert number_ranges(list(range(1, 30, 2)), most=2) == "1, 3, …"
    old = build_template("pod", nodes=16)
    new = loads(dumps(old))
    r01 = next(r for r in new.racks.values() if r.name == "R01")
    r03 = next(r for r in new.racks.values() if r.name == "R03")
    History(new).push(move_objects(new, [r03.id], 0.0, 1.2))
    new.set_fields(new.devices_in(r01.id)[-1].id, {"hostname": "gpu-node-x"})
    new.set_fields(r01.id, {"name": "R01-new"})
    diff = diff_plans(old, new, consequences=False)
    rows = review_pdf.object_rows(diff)
    marks = numbered_marks(old, new, diff)
    by_change = {m.change: m for m in marks}
    assert [row[0] for row in rows] == ["moved", "changed", "changed"]
    assert by_change["moved"].numbers == [1] and by_change["moved"].arrow() is not None
    assert by_change["changed"].numbers == [2, 3]  # the rack's rename and its device's host name: one mark
