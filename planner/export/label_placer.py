"""Labels on a drawing that never collide: each label takes the first of its candidate spots
that is clear of the labels and lines already placed (and inside the drawing), with a thin
leader line back to what it names when it had to move away from it. A label with no spot clear
of lines (a rack name a cross-aisle tray runs through) masks the line under it.

The floor plan used to print each label at one fixed spot, so at hall scale "CDU-01" ran into
"R01" and the tray lines crossed rack names. Spots are tried in the order given; a label with
no clear spot is left out and counted (``dropped``) rather than printed over another.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from planner.export.common import FONT, draw_text

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
    dropped: int = 0

    def block(self, rect: Rect) -> None:
        """Keep labels off ``rect`` (a name already drawn)."""
        self.taken.append(rect)

    def block_line(self, x0: float, y0: float, x1: float, y1: float, width: float = 0.8) -> None:
        """Keep labels off a line where they can; one that has no other spot masks the line under it."""
        self.lines.append((min(x0, x1) - width, min(y0, y1) - width, max(x0, x1) + width, max(y0, y1) + width))

    def free(self, rect: Rect, lines: bool = True) -> bool:
        ax0, ay0, ax1, ay1 = self.area
        grown = (rect[0] - GAP, rect[1] - GAP, rect[2] + GAP, rect[3] + GAP)
        inside = ax0 <= rect[0] and rect[2] <= ax1 and ay0 <= rect[1] and rect[3] <= ay1
        return inside and not any(overlaps(grown, other) for other in (*self.taken, *(self.lines if lines else ())))

    def put(self, canvas: Canvas, text: str, size: float, font: str, spots: list[tuple[float, float, str]],
            anchor: tuple[float, float] | None = None, ground: float = 1.0) -> bool:
        """Draw ``text`` at the first spot (x, y, align) clear of labels and lines, else at the first
        clear of labels, on a patch of ``ground`` grey that masks the lines under it; with ``anchor``,
        a leader from the anchor to the label when that spot is not the first. False (and counted)
        when no spot is clear of the other labels."""
        for clear_of_lines in (True, False):
            for index, (x, y, align) in enumerate(spots):
                rect = text_box(x, y, text, size, font, align)
                if self.free(rect, clear_of_lines):
                    if not clear_of_lines:
                        _patch(canvas, rect, ground)
                    draw_text(canvas, x, y, text, size, font, align=align)
                    self.taken.append(rect)
                    if anchor is not None and index > 0:
                        _leader(canvas, anchor, rect)
                    return True
        self.dropped += 1
        return False


def _patch(canvas: Canvas, rect: Rect, ground: float) -> None:
    canvas.saveState()
    canvas.setFillGray(ground)
    canvas.rect(rect[0] - 0.5, rect[1], rect[2] - rect[0] + 1, rect[3] - rect[1], stroke=0, fill=1)
    canvas.restoreState()


def _leader(canvas: Canvas, anchor: tuple[float, float], rect: Rect) -> None:
    """A hairline from ``anchor`` to the nearest point of the label's box."""
    x = min(max(anchor[0], rect[0]), rect[2])
    y = min(max(anchor[1], rect[1]), rect[3])
    canvas.saveState()
    canvas.setDash()
    canvas.setLineWidth(0.3)
    canvas.setStrokeGray(0.0)
    canvas.line(anchor[0], anchor[1], x, y)
    canvas.restoreState()
