"""The review's detail drawings: each change's neighbourhood at the scale that prints rack names
whole, as it was (the older revision) and as it is (the newer), with the change marks and the
change's number in both.

Changes close together share one drawing (their numbers are all on it), so a moved row is one
detail, not thirty-five. A detail is a window of the floor ``PAD_M`` round its changes (at least
``MIN_WINDOW_M`` deep), as wide as half the page holds at the readable scale and at most a page
deep, drawn twice side by side; one too big for that (a zone, a long row) is drawn one above the
other and, if still too big, smaller. At most
``MAX_DETAILS`` are drawn: the rest are on the key plan and sheets, and the document says which.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, KeepTogether, Paragraph

from planner.export.commissioning_pdf import BODY, H1, H3
from planner.export.fonts import FONT, FONT_BOLD
from planner.export.pdf_outline import Marked
from planner.export.plan_drawing import SCALE_BAR_ROOM, PlanShapes, Window, draw_plan_pdf
from planner.export.plan_sheets import readable_scale
from planner.export.printed_text import clip, draw_text, markup
from planner.export.review_figures import arrows, marks_overlay
from planner.export.review_marks import LEGEND_HEIGHT, NumberedMark, draw_legend, number_ranges

#: Floor shown round the changes (metres), and the least window (width, depth in metres).
PAD_M = 2.0
MIN_WINDOW_M = (9.0, 6.0)
MAX_DETAILS = 30
#: Room over each drawing for its caption, and between the two drawings (points).
CAPTION, GUTTER = 13.0, 16.0
#: Room a detail's heading takes (H3 with its spacing), and the section's heading, line and
#: legend over the first detail (points).
HEADING_ROOM, OPENING = 22.0, 80.0


@dataclass
class Detail:
    """One detail drawing: its marks and the floor it shows."""

    marks: list[NumberedMark]
    window: Window


def _grow(bounds: Window, least: tuple[float, float]) -> Window:
    """``bounds`` with ``PAD_M`` round it, grown (about its middle) to at least ``least``."""
    x0, y0, x1, y1 = bounds[0] - PAD_M, bounds[1] - PAD_M, bounds[2] + PAD_M, bounds[3] + PAD_M
    grow_x, grow_y = max(0.0, least[0] - (x1 - x0)) / 2, max(0.0, least[1] - (y1 - y0)) / 2
    return x0 - grow_x, y0 - grow_y, x1 + grow_x, y1 + grow_y


def _inside(window: Window, plan: Window) -> Window:
    """``window`` moved (not resized) to lie inside the plan's bounds where it is no bigger."""
    shift = []
    for low, high, plan_low, plan_high in ((window[0], window[2], plan[0], plan[2]),
                                           (window[1], window[3], plan[1], plan[3])):
        if high - low >= plan_high - plan_low:
            shift.append((plan_low + plan_high) / 2 - (low + high) / 2)
        else:
            shift.append(max(plan_low - low, 0.0) + min(plan_high - high, 0.0))
    return window[0] + shift[0], window[1] + shift[1], window[2] + shift[0], window[3] + shift[1]


def _union(a: Window, b: Window) -> Window:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def details(marks: list[NumberedMark], room: tuple[float, float], plan: Window) -> list[Detail]:
    """The marks grouped into drawings of at most ``room`` (width, depth in metres) of floor,
    padding included: each mark joins the first drawing it fits in, else starts one. A drawing
    shows ``room``'s width (and at least ``MIN_WINDOW_M``'s depth) where it can."""
    least = (room[0] * 0.999, min(MIN_WINDOW_M[1], room[1]))  # (a hair inside: the drawing keeps its scale)
    groups: list[tuple[list[NumberedMark], Window]] = []
    for mark in marks:
        bounds = mark.bounds()
        for index, (members, held) in enumerate(groups):
            joined = _union(held, bounds)
            grown = _grow(joined, (0.0, 0.0))
            if grown[2] - grown[0] <= room[0] + 1e-9 and grown[3] - grown[1] <= room[1] + 1e-9:
                groups[index] = ([*members, mark], joined)
                break
        else:
            groups.append(([mark], bounds))
    return [Detail(members, _inside(_grow(bounds, least), plan)) for members, bounds in groups]


def detail_scale(shapes: PlanShapes) -> float:
    """Points per metre of the detail drawings: the sheets' scale, where every rack name prints
    whole; a plan with no racks at the cabling plan's 1:100."""
    scale = readable_scale(shapes)
    return scale if scale > 0 else 72 / 0.0254 / 100


class DetailFigure(Flowable):
    """One detail: the window as it was (``old``) and as it is (``new``), each captioned, with the
    detail's marks (``review_figures.marks_overlay``) and a scale bar."""

    def __init__(self, old: PlanShapes, new: PlanShapes, detail: Detail, scale: float, captions: tuple[str, str],
                 width: float, most_height: float) -> None:
        super().__init__()
        self.old, self.new, self.detail, self.captions = old, new, detail, captions
        x0, y0, x1, y1 = detail.window
        across, depth = x1 - x0, y1 - y0
        self.side = across * scale <= (width - GUTTER) / 2
        panel_width = (width - GUTTER) / 2 if self.side else width
        panels = 1 if self.side else 2
        room = (most_height - panels * (CAPTION + SCALE_BAR_ROOM) - (panels - 1) * GUTTER) / panels
        self.scale = min(scale, panel_width / across, max(room, 20.0) / depth)
        self.panel_width = panel_width
        self.panel_height = depth * self.scale + CAPTION + SCALE_BAR_ROOM
        self.width = width
        self.height = self.panel_height if self.side else 2 * self.panel_height + GUTTER

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def _panel(self, canvas: Canvas, shapes: PlanShapes, caption: str, left: float, top: float, before: bool) -> None:
        window = self.detail.window
        draw_text(canvas, left, top - 9, caption, 8, FONT_BOLD, max_width=self.panel_width)
        box = (left, top - self.panel_height, left + self.panel_width, top - CAPTION)
        marks = self.detail.marks
        canvas.saveState()
        draw_plan_pdf(canvas, shapes, box, window=window, scale=self.scale, avoid=[] if before else arrows(marks),
                      on_top=marks_overlay(marks, before=before))
        canvas.restoreState()
        across, depth = (window[2] - window[0]) * self.scale, (window[3] - window[1]) * self.scale
        canvas.saveState()
        canvas.setLineWidth(0.5)
        canvas.setStrokeGray(0.3)
        canvas.rect(left + (self.panel_width - across) / 2, box[3] - depth, across, depth, stroke=1, fill=0)
        canvas.restoreState()
        draw_text(canvas, left + self.panel_width / 2, box[1] + 4, f"1 : {round(72 / 0.0254 / self.scale):,}", 6,
                  FONT, align="centre")

    def draw(self) -> None:
        canvas = self.canv
        if self.side:
            self._panel(canvas, self.old, self.captions[0], 0.0, self.height, True)
            self._panel(canvas, self.new, self.captions[1], self.panel_width + GUTTER, self.height, False)
        else:
            self._panel(canvas, self.old, self.captions[0], 0.0, self.height, True)
            self._panel(canvas, self.new, self.captions[1], 0.0, self.panel_height, False)


class LegendFigure(Flowable):
    """The change marks' legend (``review_marks.draw_legend``) as a line of its own."""

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, LEGEND_HEIGHT

    def draw(self) -> None:
        draw_legend(self.canv, self.width)


def detail_story(old: PlanShapes, new: PlanShapes, marks: list[NumberedMark], titles: dict[int, str],
                 captions: tuple[str, str], width: float, height: float) -> list[Flowable]:
    """The "Details of the changes" section: the legend, then each detail under its heading
    (bookmarked: "Detail 1 · 1 moved rack R03"), and a note naming the changes not drawn."""
    scale = detail_scale(new)
    depth = height - HEADING_ROOM - OPENING - CAPTION - SCALE_BAR_ROOM  # a page: one change takes less
    drawn = details(marks, ((width - GUTTER) / 2 / scale, max(depth, 40.0) / scale), new.bounds)
    opening: list[Flowable] = [Marked(Paragraph("Details of the changes", H1), "Details of the changes"),
                               Paragraph("Each change's neighbourhood as it was and as it is, numbered as in the "
                                         "change list.", BODY), LegendFigure()]
    story: list[Flowable] = []
    for index, detail in enumerate(drawn[:MAX_DETAILS], start=1):
        numbers = sorted(n for mark in detail.marks for n in mark.numbers)
        more = f" and {len(numbers) - 1} more" if len(numbers) > 1 else ""
        title = f"Detail {index} · {number_ranges(numbers)} {titles.get(numbers[0], '')}{more}"
        room = height - HEADING_ROOM - (OPENING if index == 1 else 0.0)  # the first under the section's opening
        story.append(KeepTogether([*(opening if index == 1 else []),  # the opening never alone at a page's foot
                                   Marked(Paragraph(markup(clip(title, 200)), H3), clip(title, 120), 1),
                                   DetailFigure(old, new, detail, scale, captions, width, room)]))
    left = sorted(n for detail in drawn[MAX_DETAILS:] for mark in detail.marks for n in mark.numbers)
    if left:
        story.append(Paragraph(markup(f"Changes {number_ranges(left, 12)} are not drawn in detail (the first "
                                      f"{MAX_DETAILS} drawings are); the key plan and sheets show them."), BODY))
    return story or opening
