"""A floor plan too big to read on one page, printed as a key plan and sheets.

The scale is the smallest at which every rack's name fits its box at ``MIN_NAME_SIZE``
(``readable_scale``). A hall that fits one page at that scale is one page; a bigger one gets a
key plan (the whole hall, racks unnamed, the sheet grid numbered) and one sheet per block of
rows (and of columns, if the hall is also too wide), cut in the aisles so no rack is split where
that is possible. Each sheet draws its match lines and names the neighbouring sheet at each edge.

The cuts are balanced (``balanced_cuts``): the number of sheets across (and down) is the fewest
that hold the plan, and each cut is then the clear place (an aisle, or between two racks) nearest
the even split, so a hall a little too wide for one sheet is two sheets of half its width each,
not a full sheet beside a strip of four racks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.label_placer import Placer, overlaps, text_box
from planner.export.plan_drawing import (
    MIN_NAME_SIZE,
    NAME_CHARS,
    SCALE_BAR_ROOM,
    OnTop,
    PlanShapes,
    Window,
    draw_plan_pdf,
    fit_scale,
)
from planner.export.printed_text import draw_text
from planner.model.objects import Point

#: Room around a sheet's drawing for the neighbours' names (points).
EDGE = 12.0
#: Clearance left in a rack box beside its name (points).
NAME_MARGIN = 1.0
EDGES = ("north", "south", "west", "east")
KEY_TITLE_SIZE = 12.0
#: Room a key plan's sheet number keeps from a change (points): the change's ring and tag.
KEEP_OFF = 7.0
#: The largest scale sheets are drawn at: 1:50 (points per metre).
MAX_SCALE = 72 / 0.0254 / 50


@dataclass(frozen=True)
class Sheet:
    """One sheet: its number, the floor it shows (metres), its neighbours' numbers by edge and
    the rows wholly or partly on it."""

    number: int
    window: Window
    neighbours: dict[str, int]
    rows: tuple[str, ...]

    def title(self) -> str:
        rows = f" · row {self.rows[0]}" if len(self.rows) == 1 else \
            f" · rows {self.rows[0]}–{self.rows[-1]}" if self.rows else ""
        return f"Sheet {self.number}{rows}"


def readable_scale(shapes: PlanShapes) -> float:
    """Points per metre at which every rack name fits across its box at ``MIN_NAME_SIZE``, at
    most ``MAX_SCALE``: a name too long for that is cut ("…") rather than spread over a sheet
    per rack."""
    register_fonts()  # the names are measured in the printed font
    need = 0.0
    for item in shapes.boxes:
        if item.kind == "rack":
            xs = [p[0] for p in item.polygon]
            name = item.name[:NAME_CHARS]
            need = max(need, (stringWidth(name, FONT, MIN_NAME_SIZE) + NAME_MARGIN) / max(max(xs) - min(xs), 0.05))
    return min(need, MAX_SCALE)


def _cuts(low: float, high: float, span: float, spans: list[tuple[float, float]]) -> list[float]:
    """Cut [low, high] into pieces of at most ``span``, each cut moved back to clear the boxes
    (``spans``) it would split when that leaves a piece of some length."""
    cuts = [low]
    while high - cuts[-1] > span + 1e-9:
        end = cuts[-1] + span
        while True:
            split = [a for a, b in spans if a < end - 1e-9 and b > end + 1e-9]
            if not split or min(split) <= cuts[-1] + span / 4:
                break
            end = min(split)
        cuts.append(end)
    return [*cuts, high]


def _merged(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The boxes' spans joined where they overlap (boxes that only touch stay apart: a cut may
    pass between them)."""
    merged: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if merged and a < merged[-1][1] - 1e-9:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _clear_near(target: float, low: float, high: float, merged: list[tuple[float, float]]) -> float | None:
    """The place in (low, high] nearest ``target`` that splits no box: the middle of the aisle it
    falls in, or of the aisle beside the box it falls in (its edge, where boxes touch); or None."""
    target = min(max(target, low + 1e-6), high)
    inside = next(((a, b) for a, b in merged if a + 1e-9 < target < b - 1e-9), None)
    if inside is not None:
        ends = sorted((end for end in inside if low + 1e-6 <= end <= high + 1e-9), key=lambda end: abs(end - target))
        if not ends:
            return None
        target = ends[0]
    before = max((b for _a, b in merged if b <= target + 1e-9), default=None)
    after = min((a for a, _b in merged if a >= target - 1e-9), default=None)
    if before is None or after is None:  # no box on one side: nothing to centre between
        return target
    middle = (before + after) / 2
    return middle if low + 1e-6 <= middle <= high else target


def balanced_cuts(low: float, high: float, span: float, spans: list[tuple[float, float]]) -> list[float]:
    """Cut [low, high] into as few pieces of at most ``span`` as ``_cuts`` does, each cut at the
    clear place nearest the even split; ``_cuts``'s own cuts where balancing cannot keep every
    piece within ``span`` or clear of the boxes."""
    greedy = _cuts(low, high, span, spans)
    pieces = len(greedy) - 1
    if pieces <= 1:
        return greedy
    merged = _merged(spans)
    cuts = [low]
    for index in range(1, pieces):
        even = cuts[-1] + (high - cuts[-1]) / (pieces - index + 1)
        cut = _clear_near(even, cuts[-1], cuts[-1] + span, merged)
        if cut is None:
            return greedy
        cuts.append(cut)
    if high - cuts[-1] > span + 1e-9:
        return greedy
    return [*cuts, high]


def plan_sheets(shapes: PlanShapes, box: tuple[float, float, float, float]) -> tuple[float, list[Sheet]]:
    """The scale and the sheets of the plan drawn in ``box``; one sheet (the whole plan) when it fits."""
    bx0, by0, bx1, by1 = box
    scale = readable_scale(shapes)
    mx0, my0, mx1, my1 = shapes.bounds
    if scale <= 0:  # no racks to name: the plan fits its page
        return min((bx1 - bx0) / max(mx1 - mx0, 0.1), (by1 - by0 - SCALE_BAR_ROOM) / max(my1 - my0, 0.1)), \
            [Sheet(1, shapes.bounds, {}, tuple(row for row, _start in shapes.rows))]
    width, height = (bx1 - bx0 - 2 * EDGE) / max(scale, 1e-9), (by1 - by0 - SCALE_BAR_ROOM - 2 * EDGE) / max(scale, 1e-9)
    if mx1 - mx0 <= (bx1 - bx0) / max(scale, 1e-9) and my1 - my0 <= (by1 - by0 - SCALE_BAR_ROOM) / max(scale, 1e-9):
        return scale, [Sheet(1, shapes.bounds, {}, tuple(row for row, _start in shapes.rows))]
    return scale, sheet_grid(shapes, width, height)


def sheet_grid(shapes: PlanShapes, width: float, height: float) -> list[Sheet]:
    """The plan cut into sheets of at most ``width`` × ``height`` metres (``balanced_cuts``), the
    cells with nothing on them left out, numbered row by row from the north-west."""
    mx0, my0, mx1, my1 = shapes.bounds
    boxes = [([p[0] for p in b.polygon], [p[1] for p in b.polygon]) for b in shapes.boxes]
    xs = balanced_cuts(mx0, mx1, width, [(min(x), max(x)) for x, _y in boxes])
    ys = balanced_cuts(my0, my1, height, [(min(y), max(y)) for _x, y in boxes])
    grid: dict[tuple[int, int], Window] = {}
    for j in range(len(ys) - 1):
        for i in range(len(xs) - 1):
            window = (xs[i], ys[j], xs[i + 1], ys[j + 1])
            if any(min(x) < window[2] and max(x) > window[0] and min(y) < window[3] and max(y) > window[1]
                   for x, y in boxes):
                grid[(j, i)] = window
    numbers = {cell: n for n, cell in enumerate(grid, start=1)}
    sheets = []
    for (j, i), window in grid.items():
        around = {"north": (j - 1, i), "south": (j + 1, i), "west": (j, i - 1), "east": (j, i + 1)}
        rows = tuple(row for row, start in shapes.rows if window[1] - 1e-6 <= start[1] < window[3] - 1e-6)
        sheets.append(Sheet(numbers[(j, i)], window, {edge: numbers[cell] for edge, cell in around.items()
                                                      if cell in numbers}, rows))
    return sheets


def sheets_showing(sheets: list[Sheet], places: list[tuple[float, float, float, float]]) -> list[Sheet]:
    """The sheets whose window meets any of ``places`` (x0, y0, x1, y1 in metres), in order."""
    return [sheet for sheet in sheets if any(
        x0 <= sheet.window[2] and x1 >= sheet.window[0] and y0 <= sheet.window[3] and y1 >= sheet.window[1]
        for x0, y0, x1, y1 in places)]


def draw_key_plan(canvas: Canvas, shapes: PlanShapes, sheets: list[Sheet], box: tuple[float, float, float, float],
                  avoid: list[tuple[Point, Point]] | None = None, on_top: OnTop | None = None,
                  keep_off: Sequence[Window] = ()) -> None:
    """The whole plan, racks unnamed, with each sheet's outline and number (sized to the sheet's
    outline), which the plan's own labels keep clear of. A sheet's number moves up or down its
    outline off the places ``keep_off`` (metres: a review's changes); ``on_top`` (see
    ``draw_plan_pdf``) draws last, over the outlines, its labels clear of the numbers."""
    scale = fit_scale(shapes.bounds, box)
    mx0, my0, mx1, _my1 = shapes.bounds
    ox = box[0] + ((box[2] - box[0]) - max(mx1 - mx0, 0.1) * scale) / 2
    marks = [(ox + (x0 - mx0) * scale - KEEP_OFF, box[3] - (y1 - my0) * scale - KEEP_OFF,
              ox + (x1 - mx0) * scale + KEEP_OFF, box[3] - (y0 - my0) * scale + KEEP_OFF) for x0, y0, x1, y1 in keep_off]
    frames, titles, sizes, clear = [], [], [], []
    for sheet in sheets:
        x0, y0, x1, y1 = sheet.window
        left, top = ox + (x0 - mx0) * scale, box[3] - (y0 - my0) * scale
        width, height = (x1 - x0) * scale, (y1 - y0) * scale
        frames.append((left, top - height, width, height))
        title = f"Sheet {sheet.number}"
        full = min(KEY_TITLE_SIZE, (width - 8) / stringWidth(title, FONT_BOLD, 1), height / 2)
        spots = [(left + width * across, top - height * level, size) for size in (full, full * 0.6)
                 for level in (0.5, 0.3, 0.7, 0.15, 0.85) for across in (0.5, 0.3, 0.7)]
        def fits(spot: tuple[float, float, float], title: str = title, frame: tuple[float, ...] = frames[-1]) -> bool:
            rect = _grown(text_box(spot[0], spot[1], title, spot[2], FONT_BOLD, "centre"))
            inside = frame[0] <= rect[0] and rect[2] <= frame[0] + frame[2] and frame[1] <= rect[1] \
                and rect[3] <= frame[1] + frame[3]
            return inside and not any(overlaps(rect, mark) for mark in marks)

        x, y, size = next((spot for spot in spots if fits(spot)), spots[0])
        titles.append((x, y, title))
        sizes.append(size)
        clear.append(_grown(text_box(x, y, title, size, FONT_BOLD, "centre")))
    drawn: list[tuple[Callable[[Point], tuple[float, float]], Placer]] = []
    draw_plan_pdf(canvas, shapes, box, names=False, keep_clear=clear, avoid=avoid or (),
                  on_top=lambda _canvas, to_page, placer: drawn.append((to_page, placer)))
    canvas.saveState()
    canvas.setLineWidth(1.4)
    canvas.setDash(8, 3)
    for frame, (x, y, title), size, (tx0, ty0, tx1, ty1) in zip(frames, titles, sizes, clear, strict=True):
        canvas.rect(*frame)
        canvas.setFillGray(1.0)
        canvas.rect(tx0, ty0, tx1 - tx0, ty1 - ty0, stroke=0, fill=1)
        canvas.setFillGray(0.0)
        draw_text(canvas, x, y, title, size, FONT_BOLD, align="centre")
    canvas.restoreState()
    if on_top is not None and drawn:
        canvas.saveState()
        on_top(canvas, *drawn[0])
        canvas.restoreState()


def _grown(rect: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A key plan's sheet number with the white ground under it."""
    return rect[0] - 4, rect[1] - 2, rect[2] + 4, rect[3] + 2


def sheet_corner(sheet: Sheet, scale: float, box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Where ``draw_sheet`` puts the north-west corner of the sheet's window on the page."""
    bx0, _by0, bx1, by1 = box
    return bx0 + ((bx1 - bx0) - (sheet.window[2] - sheet.window[0]) * scale) / 2, by1 - EDGE


def draw_sheet(canvas: Canvas, shapes: PlanShapes, sheet: Sheet, scale: float,
               box: tuple[float, float, float, float], avoid: list[tuple[Point, Point]] | None = None,
               on_top: OnTop | None = None) -> None:
    """One sheet at ``scale``: its part of the plan (with ``on_top``, see ``draw_plan_pdf``), match
    lines, and each neighbour named at its edge."""
    bx0, by0, bx1, by1 = box
    draw_plan_pdf(canvas, shapes, (bx0, by0, bx1, by1 - EDGE), window=sheet.window, scale=scale, avoid=avoid or (),
                  on_top=on_top)
    x0, y0, x1, y1 = sheet.window
    left, top = sheet_corner(sheet, scale, box)
    right, bottom = left + (x1 - x0) * scale, top - (y1 - y0) * scale
    middle, level = (left + right) / 2, (top + bottom) / 2

    def along(x: float, angle: int, text: str) -> None:  # up the west edge, down the east edge
        canvas.saveState()
        canvas.translate(x, level)
        canvas.rotate(angle)
        draw_text(canvas, 0, 0, text, 7, FONT_BOLD, align="centre")
        canvas.restoreState()

    notes: dict[str, Callable[[str], None]] = {
        "north": lambda text: draw_text(canvas, middle, top + 3, text, 7, FONT_BOLD, align="centre"),
        "south": lambda text: draw_text(canvas, middle, bottom - 9, text, 7, FONT_BOLD, align="centre"),
        "west": lambda text: along(left - 3, 90, text),
        "east": lambda text: along(right + 3, -90, text),
    }
    lines = {"north": (left, top, right, top), "south": (left, bottom, right, bottom),
             "west": (left, bottom, left, top), "east": (right, bottom, right, top)}
    canvas.saveState()
    canvas.setLineWidth(1.0)
    canvas.setDash([10, 2, 2, 2])
    for edge in EDGES:
        if edge in sheet.neighbours:
            canvas.line(*lines[edge])
            notes[edge](f"{edge}: match line, continues on sheet {sheet.neighbours[edge]}")
    canvas.restoreState()
    draw_text(canvas, bx0, by0 + 27, f"{sheet.title()} · 1 : {round(72 / 0.0254 / scale):,}", 7, FONT)
