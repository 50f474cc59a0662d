"""The review document's floor plans: the key plan (or the one-page plan) with every change
numbered, the sheets that show a change or a pin, and the numbered tags beside the marks.

Each figure draws over ``plan_drawing``'s floor plan through its ``on_top`` hook, so the marks,
their tags and the plan's labels share one ``Placer``: a tag never covers a name, and the plan's
names keep off a move's arrow (given to the drawing as a line to avoid) or, where a name has no
other place, the arrow stops short of it. A mark too small to find on the key plan gets a ring.

Only the sheets that show something are printed: a review is read for its changes, and a sheet
with none on it says nothing the cabling plan's full set of sheets does not. The key plan still
shows the whole sheet grid, and its heading names the sheets printed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from planner.export.fonts import FONT_BOLD
from planner.export.label_placer import Placer, leader
from planner.export.plan_drawing import PlanShapes, Window, draw_plan_pdf
from planner.export.plan_sheets import Sheet, draw_key_plan, draw_sheet, plan_sheets, sheets_showing
from planner.export.printed_text import draw_text
from planner.export.review_marks import LEGEND_HEIGHT, NumberedMark, Shape, draw_mark
from planner.model.geometry import bounds_of
from planner.model.objects import Point

#: What a figure draws over the plan: canvas, plan-to-page mapping and the drawing's placer.
Overlay = Callable[[Canvas, Callable[[Point], tuple[float, float]], Placer], None]
#: A change's number tag (bold, points), and the room around it inside its box.
TAG_SIZE, TAG_PAD = 7.0, 1.4
#: A mark smaller than this on the page (points) gets a ring, so it is found on a key plan.
RING_BELOW = 10.0


def _tag_spots(box: tuple[float, float, float, float]) -> list[tuple[float, float, str]]:
    """Places for a tag around a mark's box: above or below it first (in the aisle, for a rack in
    a row, rather than over its neighbour), then beside it and at its corners, nearest first."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    spots = [spot for reach in (5.0, 12.0, 22.0) for spot in ((cx, y1 + reach, "centre"), (cx, y0 - reach - 6, "centre"))]
    for reach in (5.0, 12.0, 22.0, 36.0):
        spots += [(x1 + reach, cy - 2.5, "left"), (x0 - reach, cy - 2.5, "right"), (x1 + reach, y1 + reach, "left"),
                  (x0 - reach, y1 + reach, "right"), (x1 + reach, y0 - reach - 6, "left"),
                  (x0 - reach, y0 - reach - 6, "right")]
    return [*spots, (cx, y1 + 36.0, "centre"), (cx, y0 - 42.0, "centre")]


def draw_tag(canvas: Canvas, text: str, box: tuple[float, float, float, float], placer: Placer) -> bool:
    """A change's numbers in a boxed tag placed clear of every label, with a leader to the mark's box."""
    found = placer.spot(text, TAG_SIZE, FONT_BOLD, _tag_spots(box), pad=TAG_PAD, opaque=True)
    if found is None:
        return False
    _index, x, y, align, rect, _clear = found
    centre = ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)
    anchor = (min(max(centre[0], box[0]), box[2]), min(max(centre[1], box[1]), box[3]))
    canvas.saveState()
    canvas.setDash()
    leader(canvas, anchor, rect)
    canvas.setLineWidth(0.7)
    canvas.setStrokeGray(0.0)
    canvas.setFillGray(1.0)
    canvas.rect(rect[0], rect[1], rect[2] - rect[0], rect[3] - rect[1], stroke=1, fill=1)
    canvas.setFillGray(0.0)
    draw_text(canvas, x, y, text, TAG_SIZE, FONT_BOLD, align=align)
    canvas.restoreState()
    return True


def page_box(mark_shapes: Sequence[Shape | None],
             to_page: Callable[[Point], tuple[float, float]]) -> tuple[float, float, float, float]:
    """The page box of the shapes' points."""
    return bounds_of([to_page(p) for shape in mark_shapes if shape is not None for p in shape[1]])


def marks_overlay(marks: list[NumberedMark], ring: bool = False, before: bool = False) -> Overlay:
    """Draw ``marks`` (as in the newer revision, or with ``before`` where the objects stood in the
    older one) and their number tags; with ``ring``, a ring round each mark too small to find."""

    def overlay(canvas: Canvas, to_page: Callable[[Point], tuple[float, float]], placer: Placer) -> None:
        for mark in marks:
            canvas.saveState()
            if before:
                if mark.old is None:  # added: nothing stood there
                    canvas.restoreState()
                    continue
                draw_mark(canvas, mark.change, mark.old, to_page, outline=True)
                shapes: list[Shape | None] = [mark.old]
            else:
                draw_mark(canvas, mark.change, mark.shape, to_page, mark.before, placer)
                shapes = [mark.shape, mark.before]
            box = page_box(shapes, to_page)
            if ring and max(box[2] - box[0], box[3] - box[1]) < RING_BELOW:
                canvas.setDash()
                canvas.setLineWidth(1.5)
                canvas.setStrokeGray(0.0)
                canvas.circle((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, RING_BELOW / 2 + 2, stroke=1, fill=0)
                box = ((box[0] + box[2]) / 2 - RING_BELOW / 2 - 2, (box[1] + box[3]) / 2 - RING_BELOW / 2 - 2,
                       (box[0] + box[2]) / 2 + RING_BELOW / 2 + 2, (box[1] + box[3]) / 2 + RING_BELOW / 2 + 2)
            canvas.restoreState()
            draw_tag(canvas, mark.tag(), box, placer)

    return overlay


def arrows(marks: list[NumberedMark]) -> list[tuple[Point, Point]]:
    """The move arrows of ``marks``, for the plan's labels to keep off."""
    return [arrow for mark in marks if (arrow := mark.arrow()) is not None]


class PlanFigure(Flowable):
    """The floor plan filling the rest of the page with ``overlay`` drawn on it and an optional
    legend under it; with ``key``, the key plan of those sheets; with ``sheet``, that sheet at
    ``scale`` (``plan_sheets``). The plan's labels keep off the lines ``avoid`` (plan metres)."""

    def __init__(self, shapes: PlanShapes, overlay: Overlay, legend: Callable[[Canvas, float], None] | None = None,
                 key: list[Sheet] | None = None, sheet: Sheet | None = None, scale: float = 0.0,
                 avoid: list[tuple[Point, Point]] | None = None, places: list[Window] | None = None) -> None:
        super().__init__()
        self.shapes, self.overlay, self.legend = shapes, overlay, legend
        self.key, self.sheet, self.scale, self.avoid, self.places = key, sheet, scale, avoid or [], places or []

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = available_width, available_height - 1
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        box = (0.0, LEGEND_HEIGHT if self.legend else 0.0, self.width, self.height)
        canvas.saveState()
        if self.sheet is not None:
            draw_sheet(canvas, self.shapes, self.sheet, self.scale, box, self.avoid, self.overlay)
        elif self.key is not None:
            draw_key_plan(canvas, self.shapes, self.key, box, self.avoid, self.overlay, self.places)
        else:
            draw_plan_pdf(canvas, self.shapes, box, avoid=self.avoid, on_top=self.overlay)
        canvas.restoreState()
        if self.legend:
            self.legend(canvas, self.width)


def plan_figures(shapes: PlanShapes, overlay: Overlay, legend: Callable[[Canvas, float], None] | None, width: float,
                 height: float, places: list[Window], key_overlay: Overlay | None = None,
                 avoid: list[tuple[Point, Point]] | None = None,
                 marked: list[Window] | None = None) -> tuple[list[tuple[str, PlanFigure]], int]:
    """The plan as one figure; or, where rack names would not print whole on a page of ``width``
    × ``height``, the key plan (with ``key_overlay``, else ``overlay``; its sheet numbers kept
    off ``marked``, else ``places``) and the sheets that show any of ``places`` (metres), each
    with its title and the overlay. Also: how many sheets the hall is cut into."""
    scale, sheets = plan_sheets(shapes, (0.0, LEGEND_HEIGHT if legend else 0.0, width, height))
    if len(sheets) == 1:
        return [("Floor plan", PlanFigure(shapes, overlay, legend, avoid=avoid))], 1
    figures = [("Key plan", PlanFigure(shapes, key_overlay or overlay, legend, key=sheets, avoid=avoid,
                                       places=places if marked is None else marked))]
    figures += [(sheet.title(), PlanFigure(shapes, overlay, legend, sheet=sheet, scale=scale, avoid=avoid))
                for sheet in sheets_showing(sheets, places)]
    return figures, len(sheets)


def widen(shapes: PlanShapes, points: list[Point]) -> None:
    """Grow the drawing's bounds to take in ``points`` (where removed objects stood, pins)."""
    if points:
        x0, y0, x1, y1 = bounds_of([*points, shapes.bounds[:2], shapes.bounds[2:]])
        shapes.bounds = (x0, y0, x1, y1)
