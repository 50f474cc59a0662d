"""A floor plan too big to read on one page, printed as a key plan and sheets.

The scale is the smallest at which every rack's name fits its box at ``MIN_NAME_SIZE``
(``readable_scale``). A hall that fits one page at that scale is one page; a bigger one gets a
key plan (the whole hall, racks unnamed, the sheet grid numbered) and one sheet per block of
rows (and of columns, if the hall is also too wide), cut in the aisles so no rack is split where
that is possible. Each sheet draws its match lines and names the neighbouring sheet at each edge.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from planner.export.common import FONT, FONT_BOLD, draw_text, register_fonts
from planner.export.label_placer import text_box
from planner.export.plan_drawing import (
    MIN_NAME_SIZE,
    NAME_CHARS,
    SCALE_BAR_ROOM,
    PlanShapes,
    Window,
    draw_plan_pdf,
    fit_scale,
)

#: Room around a sheet's drawing for the neighbours' names (points).
EDGE = 12.0
#: Clearance left in a rack box beside its name (points).
NAME_MARGIN = 1.0
EDGES = ("north", "south", "west", "east")
KEY_TITLE_SIZE = 12.0
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
    boxes = [([p[0] for p in b.polygon], [p[1] for p in b.polygon]) for b in shapes.boxes]
    xs = _cuts(mx0, mx1, width, [(min(x), max(x)) for x, _y in boxes])
    ys = _cuts(my0, my1, height, [(min(y), max(y)) for _x, y in boxes])
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
    return scale, sheets


def draw_key_plan(canvas: Canvas, shapes: PlanShapes, sheets: list[Sheet], box: tuple[float, float, float, float]) -> None:
    """The whole plan, racks unnamed, with each sheet's outline and number (sized to the sheet's
    outline), which the plan's own labels keep clear of."""
    scale = fit_scale(shapes.bounds, box)
    mx0, my0, mx1, _my1 = shapes.bounds
    ox = box[0] + ((box[2] - box[0]) - max(mx1 - mx0, 0.1) * scale) / 2
    frames, titles = [], []
    for sheet in sheets:
        x0, y0, x1, y1 = sheet.window
        left, top = ox + (x0 - mx0) * scale, box[3] - (y0 - my0) * scale
        width, height = (x1 - x0) * scale, (y1 - y0) * scale
        frames.append((left, top - height, width, height))
        titles.append((left + width / 2, top - height / 2, f"Sheet {sheet.number}"))
    sizes = [min(KEY_TITLE_SIZE, (frame[2] - 8) / stringWidth(title, FONT_BOLD, 1), frame[3] / 2)
             for frame, (_x, _y, title) in zip(frames, titles, strict=True)]
    clear = [text_box(x, y, title, size, FONT_BOLD, "centre") for (x, y, title), size in zip(titles, sizes, strict=True)]
    draw_plan_pdf(canvas, shapes, box, names=False, keep_clear=[(x0 - 4, y0 - 2, x1 + 4, y1 + 2) for x0, y0, x1, y1 in clear])
    canvas.saveState()
    canvas.setLineWidth(1.4)
    canvas.setDash(8, 3)
    for frame, (x, y, title), size, (tx0, ty0, tx1, ty1) in zip(frames, titles, sizes, clear, strict=True):
        canvas.rect(*frame)
        canvas.setFillGray(1.0)
        canvas.rect(tx0 - 4, ty0 - 2, tx1 - tx0 + 8, ty1 - ty0 + 4, stroke=0, fill=1)
        canvas.setFillGray(0.0)
        draw_text(canvas, x, y, title, size, FONT_BOLD, align="centre")
    canvas.restoreState()


def sheet_corner(sheet: Sheet, scale: float, box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Where ``draw_sheet`` puts the north-west corner of the sheet's window on the page."""
    bx0, _by0, bx1, by1 = box
    return bx0 + ((bx1 - bx0) - (sheet.window[2] - sheet.window[0]) * scale) / 2, by1 - EDGE


def draw_sheet(canvas: Canvas, shapes: PlanShapes, sheet: Sheet, scale: float,
               box: tuple[float, float, float, float]) -> None:
    """One sheet at ``scale``: its part of the plan, match lines, and each neighbour named at its edge."""
    bx0, by0, bx1, by1 = box
    draw_plan_pdf(canvas, shapes, (bx0, by0, bx1, by1 - EDGE), window=sheet.window, scale=scale)
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
