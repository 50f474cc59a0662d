"""The SVG floor plan's labels, placed as the PDFs' are: through ``label_placer``, so no label
overlaps another, no tray or busbar line runs through a name, and a name that had to move
beside its box gets a leader line back to it.

The placer works in points of paper with y up (as on a PDF page): ``Frame`` maps plan metres
(y south) to that and back. Text is measured with reportlab's metrics of the bundled DejaVu Sans
(``fonts.FONT``, ``FONT_BOLD``), the font the SVG names first; an SVG viewer that substitutes
another font, or lays text out a little differently, may draw it slightly wider or narrower
than measured here (the placer's ``GAP`` round each label absorbs small differences).

A label that found no spot clear of the lines (a cross-aisle tray through a rack's name) keeps
its spot, and the lines are then drawn with gaps round every label (``gaps``), the SVG's
equivalent of the PDF's masking patch, so no line element crosses a name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from reportlab.pdfbase.pdfmetrics import stringWidth

from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.label_placer import GAP, Placer, Rect
from planner.export.plan_drawing import MAX_NAME_SIZE, MIN_NAME_SIZE, NAME_CHARS, PlanShapes, Window
from planner.export.printed_text import clip, cut_to_width, one_line
from planner.model.geometry import segment_span
from planner.model.objects import Point

CM_PER_M = 100  # SVG user units are centimetres of floor
#: Label sizes in points of paper, as on the PDF floor plans.
ROW_SIZE, BUSBAR_SIZE, ZONE_SIZE = 6.0, 5.0, 6.0
#: The smallest size a rack name too long for its box is cut at (points).
CUT_NAME_SIZE = 3.5
LEADER_PT = 0.3
_ALIGN = {"left": "start", "centre": "middle", "right": "end"}


def cm(metres: float) -> str:
    return f"{metres * CM_PER_M:.1f}"


@dataclass(frozen=True)
class Frame:
    """Plan metres (x east, y south) to points of paper (y up) at ``k`` points per metre."""

    k: float

    @classmethod
    def at(cls, scale: float) -> Frame:
        return cls(1000 / scale * 72 / 25.4)

    def pt(self, p: Point) -> tuple[float, float]:
        return p[0] * self.k, -p[1] * self.k

    def m(self, x: float, y: float) -> Point:
        return x / self.k, -y / self.k

    def area(self, window: Window) -> Rect:
        x0, y0, x1, y1 = window
        return x0 * self.k, -y1 * self.k, x1 * self.k, -y0 * self.k


@dataclass
class Line:
    """A tray or busbar line as drawn: its part on the drawing (metres), its SVG attributes and
    half its stroke width (metres)."""

    kind: str
    start: Point
    end: Point
    style: str
    half_width: float
    busbar: int = -1
    """For a busbar, its index in ``PlanShapes.busbars``."""


@dataclass
class Labels:
    """The placed labels as SVG elements (text and leaders), and the placer that holds their boxes."""

    placer: Placer
    elements: list[str] = field(default_factory=list)


def text_element(frame: Frame, x: float, y: float, text: str, size: float, align: str, bold: bool,
                 kind: str) -> str:
    """An SVG text drawn at (x, y) points, ``size`` points, as the placer measured it."""
    mx, my = frame.m(x, y)
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text class="{kind}" x="{cm(mx)}" y="{cm(my)}" font-size="{size / frame.k * CM_PER_M:.2f}" '
            f'text-anchor="{_ALIGN[align]}"{weight}>{escape(text)}</text>')


def _leader(frame: Frame, anchor: tuple[float, float], rect: Rect) -> str:
    """A hairline from ``anchor`` to the nearest point of the label's box (as ``label_placer.leader``)."""
    x = min(max(anchor[0], rect[0]), rect[2])
    y = min(max(anchor[1], rect[1]), rect[3])
    (ax, ay), (bx, by) = frame.m(*anchor), frame.m(x, y)
    return (f'<line class="leader" x1="{cm(ax)}" y1="{cm(ay)}" x2="{cm(bx)}" y2="{cm(by)}" stroke="black" '
            f'stroke-width="{LEADER_PT / frame.k * CM_PER_M:.2f}"/>')


def _put(labels: Labels, frame: Frame, text: str, size: float, bold: bool, spots: list[tuple[float, float, str]],
         kind: str, anchor: tuple[float, float] | None = None) -> bool:
    """The label at its first clear spot (``Placer.spot``), with a leader from ``anchor`` when it
    is not at the first; False (and counted by the placer) when no spot is clear of other labels."""
    found = labels.placer.spot(text, size, FONT_BOLD if bold else FONT, spots)
    if found is None:
        return False
    index, x, y, align, rect, _clear_of_lines = found
    labels.elements.append(text_element(frame, x, y, text, size, align, bold, kind))
    if anchor is not None and index > 0:
        labels.elements.append(_leader(frame, anchor, rect))
    return True


def _inside(points: Sequence[Point], window: Window | None) -> bool:
    if window is None:
        return True
    return all(window[0] - 1e-6 <= x <= window[2] + 1e-6 and window[1] - 1e-6 <= y <= window[3] + 1e-6
               for x, y in points)


def place_labels(shapes: PlanShapes, frame: Frame, area: Window, window: Window | None,
                 lines: Sequence[Line]) -> Labels:
    """Rack and unit names (inside their boxes first), then row, busbar and zone labels, kept off
    ``lines`` and inside ``area`` (metres); with ``window`` (a sheet) a name only where its box
    is wholly on the sheet, a row label where the row starts on it, a busbar or zone label where
    it shows on it. The spots tried are the PDF floor plan's (``plan_drawing._labels``)."""
    register_fonts()  # names are measured in the printed font
    labels = Labels(Placer(frame.area(area)))
    for line in lines:
        labels.placer.block_line(*frame.pt(line.start), *frame.pt(line.end), line.half_width * frame.k + 0.4)
    for item in shapes.boxes:
        if _inside(item.polygon, window):
            _name(labels, frame, item.name, item.polygon, item.kind)
    for row, start in shapes.rows:
        if window is not None and not (window[0] - 1e-6 <= start[0] < window[2] - 1e-6
                                       and window[1] - 1e-6 <= start[1] < window[3] - 1e-6):
            continue  # the row starts on another sheet
        rx, ry = frame.pt(start)
        spots = [(rx + dx, ry + dy, "left") for dy in (10, 3, 17) for dx in (0, 30, 60, 90)]
        spots += [(rx + dx, ry + dy, "left") for dy in (10, 3, 17) for dx in (120, 150, 180, 210)]
        _put(labels, frame, f"Row {clip(one_line(row), NAME_CHARS)}", ROW_SIZE, True,
             [*spots, (rx - 3, ry - 8, "right")], "row-label")
    shown = {line.busbar: line for line in lines if line.busbar >= 0}
    for index, (name, _p1, _p2, side) in enumerate(shapes.busbars):
        if index not in shown:
            continue  # not on this sheet
        (x1, y1), (x2, y2) = frame.pt(shown[index].start), frame.pt(shown[index].end)
        offsets = (3.0, -7.0) if side == "A" else (-7.0, 3.0)
        spots = [(x1 + (x2 - x1) * t + 2, y1 + (y2 - y1) * t + dy, "left") for dy in offsets
                 for t in (0.0, 0.25, 0.5, 0.75)]
        _put(labels, frame, clip(one_line(name), NAME_CHARS), BUSBAR_SIZE, False, spots, "busbar-label")
    for name, polygon, rating in shapes.zones:
        xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
        if window is not None and not (min(xs) < window[2] and max(xs) > window[0]
                                       and min(ys) < window[3] and max(ys) > window[1]):
            continue
        corner = polygon[0] if window is None else (max(window[0], polygon[0][0]), max(window[1], polygon[0][1]))
        zx, zy = frame.pt(corner)
        _put(labels, frame, f"{clip(one_line(name), NAME_CHARS)} {rating:g} kPa", ZONE_SIZE, False,
             [(zx + 2, zy - dy, "left") for dy in (8, 16, 24)], "zone-label")
    return labels


def _name(labels: Labels, frame: Frame, name: str, polygon: list[Point], kind: str) -> None:
    """A rack's or unit's name inside its box where it fits at ``MIN_NAME_SIZE`` or more; else a
    unit's beside its box with a leader, a rack's cut ("…") to its box at a smaller size."""
    text = one_line(name)
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    left, top = frame.pt((min(xs), min(ys)))
    right, bottom = frame.pt((max(xs), max(ys)))
    bold = kind != "rack"
    font = FONT_BOLD if bold else FONT
    width, height = right - left, top - bottom
    size = min(MAX_NAME_SIZE, (width - 1) / max(stringWidth(text, font, 1), 0.1), (height - 2) / 1.1)
    cx, cy = (left + right) / 2, (top + bottom) / 2

    def inside(at: float) -> list[tuple[float, float, str]]:
        return [(cx, cy + height / 4 - at * 0.3, "centre"), (cx, cy - height / 4 - at * 0.3, "centre"),
                (cx, cy - at * 0.3, "centre")]

    if size >= MIN_NAME_SIZE and _put(labels, frame, text, size, bold, inside(size), "name"):
        return
    if kind != "rack":  # a unit's name beside its box, with a leader
        size = MIN_NAME_SIZE
        outside = [(cx, cy, "centre"), (left - 2, cy - 2, "right"), (right + 2, cy - 2, "left"),
                   (cx, top + 2, "centre"), (cx, bottom - size - 1, "centre")]
        _put(labels, frame, clip(text, NAME_CHARS), size, bold, outside, "name", anchor=(cx, cy))
        return
    size = max(CUT_NAME_SIZE, min(size, MAX_NAME_SIZE))  # too small a drawing to name racks whole
    room = max(2.0, width - 1)
    if stringWidth(text, font, size) > room:
        text = cut_to_width(text[:NAME_CHARS], size, room, font)
    _put(labels, frame, text, size, bold, inside(size), "name")


def gaps(frame: Frame, placer: Placer, line: Line) -> list[tuple[Point, Point]]:
    """The pieces of ``line`` that stay off every placed label (its box grown by the placer's
    ``GAP`` and the line's half width): a line runs under no name. ``Placer.clear_stretch`` gives
    the first such piece; this gives them all."""
    (x0, y0), (x1, y1) = frame.pt(line.start), frame.pt(line.end)
    pad = GAP + line.half_width * frame.k
    spans = sorted(span for r in placer.taken
                   if (span := segment_span((x0, y0, x1, y1), (r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad)))
                   is not None)
    pieces, at = [], 0.0
    for low, high in [*spans, (1.0, 1.0)]:
        if low - at > 1e-6:
            pieces.append((at, low))
        at = max(at, high)
    (sx, sy), (ex, ey) = line.start, line.end
    return [((sx + (ex - sx) * a, sy + (ey - sy) * a), (sx + (ex - sx) * b, sy + (ey - sy) * b)) for a, b in pieces]
