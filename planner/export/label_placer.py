"""Labels on a drawing that never collide: each label takes the first of its candidate spots
that is clear of the labels and lines already placed (and inside the drawing), with a thin
leader line back to what it names when it had to move away from it. A label with no spot clear
of lines (a rack name a cross-aisle tray runs through) masks the line under it.

The floor plan used to print each label at one fixed spot, so at hall scale "CDU-01" ran into
"R01" and the tray lines crossed rack names. Spots are tried in the order given; a label with
no clear spot is left out and counted (``dropped``) rather than printed over another.

Lines are kept as their boxes (tray and busbar runs, which are level or plumb) or, for a slanted
line such as a review's move arrow, as the segment itself (``block_segment``), so a label beside
a slanted line is not pushed off by the line's whole bounding box. ``spot`` finds and reserves
a place without drawing, for a caller that draws its own label (a numbered tag in a box).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from planner.export.fonts import FONT
from planner.export.printed_text import draw_text
from planner.model.geometry import segment_span

Rect = tuple[float, float, float, float]
#: A text line's box around its baseline, as fractions of the size: descender, ascender.
DESCENT, ASCENT = 0.25, 0.8
#: Clearance kept around each label, in points.
GAP = 0.6


def text_box(x: float, y: float, text: str, size: float, font: str = FONT, align: str = "left") -> Rect:
    """The box (x0, y0, x1, y1) a line of text drawn at (x, y) covers."""
    width = stringWidth(text, font, size)
    left = x - width if align == "right" else x - width / 2 if align == "centre" else x
    return left, y - DESCENT * size, left + width, y + ASCENT * size


def overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass
class Placer:
    """The labels and lines already on one drawing, and the area labels must stay inside."""

    area: Rect
    taken: list[Rect] = field(default_factory=list)
    lines: list[Rect] = field(default_factory=list)
    segments: list[tuple[float, float, float, float, float]] = field(default_factory=list)
    dropped: int = 0

    def block(self, rect: Rect) -> None:
        """Keep labels off ``rect`` (a name already drawn)."""
        self.taken.append(rect)

    def block_line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.8) -> None:
        """Keep labels off a line where they can; one that has no other spot masks the line under it."""
        self.lines.append((min(x0, x1) - width, min(y0, y1) - width, max(x0, x1) + width, max(y0, y1) + width))

    def block_segment(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.8) -> None:
        """Keep labels off a slanted line (within ``width`` of it) where they can, as ``block_line``."""
        self.segments.append((x0, y0, x1, y1, width))

    def free(self, rect: Rect, lines: bool = True, segments: bool | None = None) -> bool:
        """Whether ``rect`` is inside the area and clear of the labels and (with ``lines``) of the
        lines; slanted lines follow ``lines`` unless ``segments`` says otherwise."""
        ax0, ay0, ax1, ay1 = self.area
        grown = (rect[0] - GAP, rect[1] - GAP, rect[2] + GAP, rect[3] + GAP)
        inside = ax0 <= rect[0] and rect[2] <= ax1 and ay0 <= rect[1] and rect[3] <= ay1
        if not inside or any(overlaps(grown, other) for other in (*self.taken, *(self.lines if lines else ()))):
            return False
        return not (lines if segments is None else segments) or not any(segment_entry((x0, y0, x1, y1), (grown[0] - w, grown[1] - w, grown[2] + w,
                                                                      grown[3] + w)) is not None
                                    for x0, y0, x1, y1, w in self.segments)

    def spot(self, text: str, size: float, font: str, spots: list[tuple[float, float, str]],
             pad: float = 0.0, opaque: bool = False) -> tuple[int, float, float, str, Rect, bool] | None:
        """The first spot (x, y, align) whose text box, grown by ``pad``, is clear of labels and
        lines, else the first clear of labels only: (index, x, y, align, grown box, clear of lines),
        the box reserved; None (and counted) when no spot is clear of the other labels. An
        ``opaque`` label (one drawn on its own ground) takes the first spot clear of the labels and
        of the slanted lines, over the level and plumb ones, so it stays near what it names."""
        passes = ((False, True), (False, False)) if opaque else ((True, None), (False, None))
        for clear_of_lines, clear_of_segments in passes:
            for index, (x, y, align) in enumerate(spots):
                x0, y0, x1, y1 = text_box(x, y, text, size, font, align)
                rect = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
                if self.free(rect, clear_of_lines, clear_of_segments):
                    self.taken.append(rect)
                    return index, x, y, align, rect, clear_of_lines
        self.dropped += 1
        return None

    def put(self, canvas: Canvas, text: str, size: float, font: str, spots: list[tuple[float, float, str]],
            anchor: tuple[float, float] | None = None, ground: float = 1.0) -> bool:
        """Draw ``text`` at the first spot (x, y, align) clear of labels and lines, else at the first
        clear of labels, on a patch of ``ground`` grey that masks the lines under it; with ``anchor``,
        a leader from the anchor to the label when that spot is not the first. False (and counted)
        when no spot is clear of the other labels."""
        found = self.spot(text, size, font, spots)
        if found is None:
            return False
        index, x, y, align, rect, clear_of_lines = found
        if not clear_of_lines:
            _patch(canvas, rect, ground)
        draw_text(canvas, x, y, text, size, font, align=align)
        if anchor is not None and index > 0:
            leader(canvas, anchor, rect)
        return True

    def clear_stretch(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float]:
        """The part (t0, t1, fractions 0–1 along it) of the segment that stays off every placed
        label: from where it leaves the labels it starts in to where it first meets another. A line
        drawn over the plan (a move's arrow) is drawn only there, so it never crosses a name."""
        spans = [span for r in self.taken if (span := segment_span((x0, y0, x1, y1), (
            r[0] - GAP, r[1] - GAP, r[2] + GAP, r[3] + GAP))) is not None]
        start = 0.0
        for low, high in sorted(spans):
            if low <= start + 1e-9:
                start = max(start, high)
        end = min((low for low, _high in spans if low > start + 1e-9), default=1.0)
        return start, max(start, end)


def segment_entry(segment: Rect, rect: Rect) -> float | None:
    """Where (0–1 along it) the segment enters the rectangle; 0 when it starts inside; None when
    it misses."""
    span = segment_span(segment, rect)
    return None if span is None else span[0]


def _patch(canvas: Canvas, rect: Rect, ground: float) -> None:
    canvas.saveState()
    canvas.setFillGray(ground)
    canvas.rect(rect[0] - 0.5, rect[1], rect[2] - rect[0] + 1, rect[3] - rect[1], stroke=0, fill=1)
    canvas.restoreState()


def leader(canvas: Canvas, anchor: tuple[float, float], rect: Rect) -> None:
    """A hairline from ``anchor`` to the nearest point of the label's box."""
    x = min(max(anchor[0], rect[0]), rect[2])
    y = min(max(anchor[1], rect[1]), rect[3])
    canvas.saveState()
    canvas.setDash()
    canvas.setLineWidth(0.3)
    canvas.setStrokeGray(0.0)
    canvas.line(anchor[0], anchor[1], x, y)
    canvas.restoreState()
