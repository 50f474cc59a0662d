"""The review document's marks: what changed on the floor, numbered, and the comment pins.

Each object row of the change list has a number (its place in ``object_entries``); each place
on the floor that changed has a ``NumberedMark`` carrying the numbers of the rows it shows
(``numbered_marks``), which the detail drawings, the key plan and the sheets print beside it
(``review_figures``, ``review_details``). Change marks read in black and white, each by its line
as well as its colour: added — a heavy solid outline, hatched (not over its name); removed — a
dashed outline of where it was, crossed; moved — a dotted outline of where it was and an arrow
to where it is, drawn only where it crosses no name (beside the object when its name is in the
way); changed — a dash-dot outline. A point (hand-off) or a line (busbar, door) gets a symbol
instead: ⊕ added, × removed, a dash-dot box changed. A device's change marks its rack. Pins are
black discs with a white number on a leader to the pinned point; a pin whose place another
pin's number already holds moves aside, so close pins stay readable.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import FILL_EVEN_ODD, Canvas

from planner.export.fonts import FONT_BOLD
from planner.export.label_placer import Placer
from planner.export.printed_text import draw_text
from planner.model.document import Document, prefix_of
from planner.model.geometry import bounds_of, footprint_polygon
from planner.model.objects import Point
from planner.review.diff import PlanDiff

#: Room under a plan for the legend of the change marks (points).
LEGEND_HEIGHT = 34.0
#: Hatching pitch of an added object, and the size of the symbol on a point or a line (points).
HATCH_STEP = 3.0
SYMBOL_SIZE = 4.0
#: Length of a move arrow's head (points).
ARROW_HEAD = 6.0
#: A comment pin's disc (points): its number reads at arm's length.
PIN_RADIUS = 6.5
#: (colour, dash pattern, line width) of each change mark; the dash tells them apart in grey.
MARK_STYLES: dict[str, tuple[tuple[float, float, float], tuple[float, ...], float]] = {
    "added": ((0.0, 0.5, 0.1), (), 1.8),
    "removed": ((0.8, 0.05, 0.05), (3, 2), 1.2),
    "moved": ((0.05, 0.25, 0.8), (0.8, 1.6), 1.0),
    "changed": ((0.85, 0.45, 0.0), (6, 2, 1, 2), 1.4),
}
LEGEND = (("added", "added: heavy outline, hatched"), ("removed", "removed: dashed where it was, crossed"),
          ("moved", "moved: dotted where it was, arrow to where it is"), ("changed", "changed: dash-dot outline"))
#: Kinds the change list leaves out: comments have their own section.
NOT_DESIGN = ("comment",)
#: A piece of plan geometry: ("polygon", corners), ("line", (end, end)) or ("point", (p,)).
Shape = tuple[str, list[Point]]


# ------------------------------------------------------------------------ geometry
def shape_of(doc: Document, obj_id: str) -> Shape | None:
    """Where an object is drawn: a rack's or floor unit's footprint, a zone's or obstacle's
    polygon, a busbar's or door's line, a hand-off's point; a device by its rack's footprint."""
    obj = doc.find(obj_id)
    if obj is None:
        return None
    prefix = prefix_of(obj_id)
    if prefix == "dev":
        return shape_of(doc, obj.rack)
    if prefix in ("rack", "fu"):
        item = doc.catalog.items.get(obj.type)
        return None if item is None else ("polygon", footprint_polygon(obj.x, obj.y, item.width_m, item.depth_m,
                                                                       obj.rotation))
    if prefix in ("zone", "obs"):
        return ("polygon", list(obj.polygon)) if obj.polygon else None
    if prefix in ("bus", "door"):
        return "line", [(obj.x1, obj.y1), (obj.x2, obj.y2)]
    if prefix == "ho":
        return "point", [(obj.x, obj.y)]
    return None


def _centre(shape: Shape) -> Point:
    x0, y0, x1, y1 = bounds_of(shape[1])
    return (x0 + x1) / 2, (y0 + y1) / 2


@dataclass
class NumberedMark:
    """One mark on the floor: the change it draws, where (``shape``; ``before``, where a moved
    object was), where the object stood in the older revision (``old``: None if it was added) and
    the numbers of the change-list rows it shows."""

    change: str
    shape: Shape
    before: Shape | None
    old: Shape | None
    numbers: list[int] = field(default_factory=list)

    def bounds(self) -> tuple[float, float, float, float]:
        """Everything the mark covers, both places of a move, in metres."""
        return bounds_of([p for s in (self.shape, self.before, self.old) if s is not None for p in s[1]])

    def tag(self) -> str:
        """The numbers it shows, as printed beside it."""
        return number_ranges(self.numbers)

    def arrow(self) -> tuple[Point, Point] | None:
        """A move's arrow in plan metres: from the middle of where it was to where it enters its
        place (its middle, when the two places overlap)."""
        if self.change != "moved" or self.before is None:
            return None
        start = _centre(self.before)
        return start, _entry_point(start, bounds_of(self.shape[1]))


def object_entries(diff: PlanDiff) -> list[tuple[str, dict[str, Any]]]:
    """(change, diff entry) of each object row of the change list, in its order: added, removed,
    moved, changed; a row's number is its place here, from 1."""
    return [(word, e) for word, group in (("added", diff.added), ("removed", diff.removed),
                                          ("moved", diff.moved), ("changed", diff.changed))
            for e in group if e["kind"] not in NOT_DESIGN]


def numbered_marks(old: Document, new: Document, diff: PlanDiff) -> list[NumberedMark]:
    """Every mark, in the order of its first number. Added and changed objects are marked in the
    new plan, removed ones where they were in the old, moved ones at both places. A device has no
    place of its own: its change is on its rack's own mark when the rack was added or removed with
    it, else on a "changed" mark of the rack (one per rack, carrying every such number). Objects
    with no place on the floor (plan settings, comments, underlays) get none."""
    marks: dict[tuple[str, str], NumberedMark] = {}
    gone = {e["id"]: word for word, group in (("added", diff.added), ("removed", diff.removed)) for e in group}

    def own(word: str, obj_id: str) -> NumberedMark | None:
        now = shape_of(old if word == "removed" else new, obj_id)
        if now is None:
            return None
        if word == "moved":
            before = shape_of(old, obj_id)
            return None if before is None else NumberedMark("moved", now, before, before)
        return NumberedMark(word, now, None, None if word == "added" else now if word == "removed"
                            else shape_of(old, obj_id))

    def mark(word: str, obj_id: str, number: int) -> None:
        if (word, obj_id) not in marks:
            made = own(word, obj_id)
            if made is None:
                return
            marks[(word, obj_id)] = made
        marks[(word, obj_id)].numbers.append(number)

    for number, (word, entry) in enumerate(object_entries(diff), start=1):
        if entry["kind"] != "device":
            mark(word, entry["id"], number)
            continue
        docs = (old, new) if word == "moved" else (new,) if word in ("added", "changed") else (old,)
        for rack in sorted({doc.devices[entry["id"]].rack for doc in docs if entry["id"] in doc.devices}):
            if rack in gone:
                mark(gone[rack], rack, number)
            elif rack in new.racks:
                mark("changed", rack, number)
    return sorted(marks.values(), key=lambda m: m.numbers[0])


def change_marks(old: Document, new: Document, diff: PlanDiff) -> list[tuple[str, Shape, Shape | None]]:
    """(change, shape, moved-from shape) of every mark (``numbered_marks``)."""
    return [(m.change, m.shape, m.before) for m in numbered_marks(old, new, diff)]


def number_ranges(numbers: list[int], most: int = 3) -> str:
    """"1–9", "2, 4–6": the numbers as runs, at most ``most`` of them (then "…")."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    words = [str(a) if a == b else f"{a}–{b}" for a, b in runs]
    return ", ".join(words[:most]) + (", …" if len(words) > most else "")


# ------------------------------------------------------------------- change marks
def _style(canvas: Canvas, change: str) -> None:
    colour, dash, width = MARK_STYLES[change]
    canvas.setStrokeColorRGB(*colour)
    canvas.setFillColorRGB(*colour)
    canvas.setLineWidth(width)
    canvas.setDash(list(dash)) if dash else canvas.setDash()


def _path(canvas: Canvas, points: list[Point], close: bool = True) -> Any:
    path = canvas.beginPath()
    for index, point in enumerate(points):
        (path.moveTo if index == 0 else path.lineTo)(*point)
    if close:
        path.close()
    return path


def _cross(canvas: Canvas, x: float, y: float, size: float) -> None:
    canvas.line(x - size, y - size, x + size, y + size)
    canvas.line(x - size, y + size, x + size, y - size)


def _along(start: Point, end: Point, t: float) -> Point:
    return start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t


def _clear_arrow(placer: Placer, start: Point, end: Point, size: Point) -> tuple[Point, Point] | None:
    """The move's arrow where it crosses no label: straight from where the object was, stopped
    short of a name in its way; where that leaves too short an arrow, the same arrow beside the
    object (offset across the move by half the object and a little), whole, if that is clear."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    if length < 1e-6:
        return None
    t0, t1 = placer.clear_stretch(*start, *end)
    if (t1 - t0) * length >= ARROW_HEAD + 2:
        return _along(start, end, t0), _along(start, end, t1 - (1.0 / length if t1 < 1 else 0.0))
    across = (-(end[1] - start[1]) / length, (end[0] - start[0]) / length)
    reach = abs(across[0]) * size[0] / 2 + abs(across[1]) * size[1] / 2 + 5
    ax0, ay0, ax1, ay1 = placer.area
    for side in (1.0, -1.0):
        a = (start[0] + side * reach * across[0], start[1] + side * reach * across[1])
        b = (end[0] + side * reach * across[0], end[1] + side * reach * across[1])
        inside = all(ax0 <= x <= ax1 and ay0 <= y <= ay1 for x, y in (a, b))
        if inside and placer.clear_stretch(*a, *b) == (0.0, 1.0):
            return a, b
    return None


def _arrow(canvas: Canvas, start: Point, end: Point) -> None:
    canvas.setDash()
    canvas.line(*start, *end)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = [end] + [(end[0] - ARROW_HEAD * math.cos(angle + s), end[1] - ARROW_HEAD * math.sin(angle + s))
                    for s in (0.4, -0.4)]
    canvas.drawPath(_path(canvas, head), stroke=1, fill=1)


def _entry_point(start: Point, box: tuple[float, float, float, float]) -> Point:
    """Where a line from ``start`` to the centre of ``box`` enters it (the centre when ``start``
    is inside): a move's arrow stops at the object's edge and leaves its name readable."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = start[0] - cx, start[1] - cy
    reach = min((abs((x1 - x0) / 2 / dx) if dx else math.inf), (abs((y1 - y0) / 2 / dy) if dy else math.inf))
    if reach >= 1 - 1e-6:  # inside, or on its edge
        return cx, cy
    return cx + dx * reach, cy + dy * reach


def draw_mark(canvas: Canvas, change: str, shape: Shape, to_page: Callable[[Point], Point],
              before: Shape | None = None, placer: Placer | None = None, outline: bool = False) -> None:
    """One change mark (see the module docstring) of a polygon, line or point. With ``placer``
    (the drawing's labels), a move's arrow is drawn only where it crosses no name and an added
    object's hatching leaves its name clear; with ``outline``, a polygon gets its outline alone (in
    the older revision's drawing, where the object still stands with its name)."""
    kind, points = shape
    page = [to_page(p) for p in points]
    x0, y0, x1, y1 = bounds_of(page)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    _style(canvas, change)
    if change == "moved" and before is not None:
        draw_mark(canvas, "moved", before, to_page)
        _style(canvas, "moved")
        start = to_page(_centre(before))
        end = _entry_point(start, (x0, y0, x1, y1))
        if placer is None:
            _arrow(canvas, start, end)
            return
        routed = _clear_arrow(placer, start, end, (x1 - x0, y1 - y0))
        if routed is not None:  # else no room clear of the names: the dotted outline says it
            _arrow(canvas, *routed)
            placer.block_segment(*routed[0], *routed[1], 2.5)
        return
    if kind == "point" or (change == "changed" and kind == "line"):
        _symbol(canvas, change, x0, y0, x1, y1)
        return
    canvas.drawPath(_path(canvas, page, close=kind == "polygon"), stroke=1, fill=0)
    if kind == "line":  # a line alone would read as a busbar: a symbol at its middle says what happened
        _symbol(canvas, change, cx, cy, cx, cy)
    elif outline:
        return
    elif change == "added":  # hatched, but not over the names on it (with ``placer``)
        canvas.saveState()
        area = _path(canvas, page)
        for rx0, ry0, rx1, ry1 in placer.taken if placer is not None else ():
            if rx0 < x1 and rx1 > x0 and ry0 < y1 and ry1 > y0:  # the name's box, within the mark's
                left, bottom, right, top = max(rx0 - 0.5, x0), max(ry0 - 0.5, y0), min(rx1 + 0.5, x1), min(ry1 + 0.5, y1)
                area.rect(left, bottom, right - left, top - bottom)
        canvas.clipPath(area, stroke=0, fill=0, fillMode=FILL_EVEN_ODD)
        canvas.setLineWidth(0.5)
        offset = -(y1 - y0)
        while offset < x1 - x0:
            canvas.line(x0 + offset, y0, x0 + offset + (y1 - y0), y1)
            offset += HATCH_STEP
        canvas.restoreState()
    elif change == "removed":
        canvas.line(x0, y0, x1, y1)
        canvas.line(x0, y1, x1, y0)


def _symbol(canvas: Canvas, change: str, x0: float, y0: float, x1: float, y1: float) -> None:
    """The mark of a point (or a line's middle): ⊕ added, × removed, a dash-dot box if changed."""
    cx, cy, size = (x0 + x1) / 2, (y0 + y1) / 2, SYMBOL_SIZE
    if change == "added":
        canvas.circle(cx, cy, size)
        canvas.line(cx - size, cy, cx + size, cy)
        canvas.line(cx, cy - size, cx, cy + size)
    elif change == "removed":
        _cross(canvas, cx, cy, size)
    else:
        canvas.rect(x0 - size, y0 - size, x1 - x0 + 2 * size, y1 - y0 + 2 * size)


def draw_legend(canvas: Canvas, width: float) -> None:
    """The four change marks with their words, under the plan."""
    step = width / len(LEGEND)
    for index, (change, text) in enumerate(LEGEND):
        x = index * step
        square = [(x, 8.0), (x + 16, 8.0), (x + 16, 20.0), (x, 20.0)]
        canvas.saveState()
        if change == "moved":
            draw_mark(canvas, change, ("polygon", [(p[0] + 8, p[1]) for p in square]), lambda p: p,
                      ("polygon", [(p[0] - 4, p[1]) for p in square]))
        else:
            draw_mark(canvas, change, ("polygon", square), lambda p: p)
        canvas.restoreState()
        draw_text(canvas, x + 30, 11, text, 7, max_width=step - 34)
    draw_text(canvas, 0, 26, "Change marks (cables are in the change list, not on the plan):", 7, FONT_BOLD)


# -------------------------------------------------------------------------- pins
def pin_spots(pins: list[tuple[int, Point]], to_page: Callable[[Point], Point]) -> list[tuple[int, Point, Point]]:
    """(number, point, label centre) per pin: each label just above its point, moved aside when
    another label is already there, so close pins stay readable."""
    placed: list[Point] = []
    result = []
    room = 2 * PIN_RADIUS + 3
    offsets = [(dx * room, room + dy * room) for dy in range(4) for dx in (0, 1, -1, 2, -2)]
    for number, point in pins:
        px, py = to_page(point)
        spot = next(((px + dx, py + dy) for dx, dy in offsets
                     if all(math.hypot(px + dx - qx, py + dy - qy) >= room for qx, qy in placed)),
                    (px, py + room))
        placed.append(spot)
        result.append((number, (px, py), spot))
    return result


def draw_pins(canvas: Canvas, pins: list[tuple[int, Point]], to_page: Callable[[Point], Point]) -> None:
    """Numbered pins: a black disc with a white number on a leader to a dot at the pinned point."""
    canvas.setLineWidth(0.6)
    for number, (px, py), (lx, ly) in pin_spots(pins, to_page):
        radius = PIN_RADIUS if number < 100 else PIN_RADIUS + 1.5
        canvas.setStrokeGray(0)
        canvas.setFillGray(0)
        canvas.line(px, py, lx, ly - radius)
        canvas.circle(px, py, 1.2, stroke=0, fill=1)
        canvas.setStrokeGray(1)
        canvas.circle(lx, ly, radius, stroke=1, fill=1)
        canvas.setFillGray(1)
        draw_text(canvas, lx, ly - 2.9, str(number), 8 if number < 100 else 7, FONT_BOLD, align="centre")
