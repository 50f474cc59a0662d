"""The drawings of the review document: the floor plan with change marks, and with comment pins.

Both draw over ``plan_drawing``'s floor plan (the one every PDF prints) in a flowable that takes
the rest of the page; a hall whose rack names would not print whole on one page is drawn as
the cabling plan's floor plan is, a key plan and sheets (``plan_sheets``), each with the marks. Change marks read in black and white, each by its line as well as its
colour: added — a heavy solid outline, hatched; removed — a dashed outline of where it was,
crossed; moved — a dotted outline of where it was and an arrow to where it is; changed — a
dash-dot outline. A point (hand-off) or a line (busbar, door) gets a symbol instead: ⊕ added,
× removed, a dash-dot box changed. A device's change marks its rack as changed. Pins are black
discs with a white number on a leader to the pinned point; a pin whose place another pin's
number already holds moves aside, so close pins stay readable.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from planner.export.common import FONT_BOLD, draw_text
from planner.export.plan_drawing import PlanShapes, draw_plan_pdf, fit_scale
from planner.export.plan_sheets import Sheet, draw_key_plan, draw_sheet, plan_sheets, sheet_corner
from planner.model.document import Document, prefix_of
from planner.model.geometry import bounds_of, footprint_polygon
from planner.model.objects import Point
from planner.review.diff import PlanDiff

#: Room under a plan for the legend of the change marks (points).
LEGEND_HEIGHT = 34.0
#: Hatching pitch of an added object, and the size of the symbol on a point or a line (points).
HATCH_STEP = 3.0
SYMBOL_SIZE = 4.0
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


def change_marks(old: Document, new: Document, diff: PlanDiff) -> list[tuple[str, Shape, Shape | None]]:
    """(change, shape, moved-from shape) for every object the plan marks: added and changed in the
    new plan, removed where they were in the old, moved with both places. A device's change marks
    its rack (in either plan) as changed, unless the rack is itself added or removed. Objects with
    no place on the floor (comments, underlays, plan settings) get no mark."""
    marks: list[tuple[str, Shape, Shape | None]] = []
    changed: dict[str, Shape] = {}
    gone = {e["id"] for e in diff.added + diff.removed}

    def rack_changed(doc: Document, device_id: str) -> None:
        device = doc.devices.get(device_id)
        if device is not None and device.rack not in gone and device.rack in new.racks:
            shape = shape_of(new, device.rack)
            if shape is not None:
                changed[device.rack] = shape

    for word, entries, doc in (("added", diff.added, new), ("removed", diff.removed, old)):
        for entry in entries:
            if entry["kind"] == "device":
                rack_changed(doc, entry["id"])
                continue
            shape = shape_of(doc, entry["id"])
            if shape is not None:
                marks.append((word, shape, None))
    for entry in diff.moved:
        if entry["kind"] == "device":
            rack_changed(old, entry["id"])
            rack_changed(new, entry["id"])
            continue
        before, after = shape_of(old, entry["id"]), shape_of(new, entry["id"])
        if before is not None and after is not None:
            marks.append(("moved", after, before))
    for entry in diff.changed:
        if entry["kind"] == "device":
            rack_changed(new, entry["id"])
        elif (shape := shape_of(new, entry["id"])) is not None:
            changed[entry["id"]] = shape
    marks += [("changed", shape, None) for shape in changed.values()]
    return marks


class PlanFigure(Flowable):
    """The floor plan filling the rest of the page, with ``overlay`` drawn on it in plan metres
    (``to_page`` maps a plan point to the page) and an optional legend under it; with ``key``,
    the key plan of those sheets; with ``sheet``, that sheet at ``scale`` (``plan_sheets``)."""

    def __init__(self, shapes: PlanShapes, overlay: Callable[[Canvas, Callable[[Point], Point]], None],
                 legend: Callable[[Canvas, float], None] | None = None, key: list[Sheet] | None = None,
                 sheet: Sheet | None = None, scale: float = 0.0) -> None:
        super().__init__()
        self.shapes, self.overlay, self.legend = shapes, overlay, legend
        self.key, self.sheet, self.scale = key, sheet, scale

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = available_width, available_height - 1
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        bottom = LEGEND_HEIGHT if self.legend else 0.0
        box = (0.0, bottom, self.width, self.height)
        canvas.saveState()
        if self.sheet is not None:
            draw_sheet(canvas, self.shapes, self.sheet, self.scale, box)
            scale, (mx0, my0, mx1, my1) = self.scale, self.sheet.window
            ox, top = sheet_corner(self.sheet, scale, box)
            clip = canvas.beginPath()
            clip.rect(ox, top - (my1 - my0) * scale, (mx1 - mx0) * scale, (my1 - my0) * scale)
            canvas.clipPath(clip, stroke=0, fill=0)
        else:
            if self.key is not None:
                draw_key_plan(canvas, self.shapes, self.key, box)
            else:
                draw_plan_pdf(canvas, self.shapes, box)
            # the mapping draw_plan_pdf used: the drawing centred across the box, its top at the box's top
            scale, (mx0, my0, mx1, _my1) = fit_scale(self.shapes.bounds, box), self.shapes.bounds
            ox, top = (self.width - max(mx1 - mx0, 0.1) * scale) / 2, self.height

        def to_page(p: Point) -> Point:
            return ox + (p[0] - mx0) * scale, top - (p[1] - my0) * scale

        self.overlay(canvas, to_page)
        canvas.restoreState()
        if self.legend:
            self.legend(canvas, self.width)


def plan_figures(shapes: PlanShapes, overlay: Callable[[Canvas, Callable[[Point], Point]], None],
                 legend: Callable[[Canvas, float], None] | None, width: float,
                 height: float) -> list[tuple[str, PlanFigure]]:
    """The plan as one figure; or, where rack names would not print whole on a page of
    ``width`` × ``height``, the key plan and the sheets, each with its title and the overlay."""
    scale, sheets = plan_sheets(shapes, (0.0, LEGEND_HEIGHT if legend else 0.0, width, height))
    if len(sheets) == 1:
        return [("Floor plan", PlanFigure(shapes, overlay, legend))]
    return [("Key plan", PlanFigure(shapes, overlay, legend, key=sheets))] + \
        [(sheet.title(), PlanFigure(shapes, overlay, legend, sheet=sheet, scale=scale)) for sheet in sheets]


def widen(shapes: PlanShapes, points: list[Point]) -> None:
    """Grow the drawing's bounds to take in ``points`` (where removed objects stood, pins)."""
    if points:
        x0, y0, x1, y1 = bounds_of([*points, shapes.bounds[:2], shapes.bounds[2:]])
        shapes.bounds = (x0, y0, x1, y1)


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


def _arrow(canvas: Canvas, start: Point, end: Point) -> None:
    canvas.setDash()
    canvas.line(*start, *end)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = [end] + [(end[0] - 6 * math.cos(angle + s), end[1] - 6 * math.sin(angle + s)) for s in (0.4, -0.4)]
    canvas.drawPath(_path(canvas, head), stroke=1, fill=1)


def _entry_point(start: Point, box: tuple[float, float, float, float]) -> Point:
    """Where a line from ``start`` to the centre of ``box`` enters it (the centre when ``start``
    is inside): a move's arrow stops at the object's edge and leaves its name readable."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = start[0] - cx, start[1] - cy
    reach = min((abs((x1 - x0) / 2 / dx) if dx else math.inf), (abs((y1 - y0) / 2 / dy) if dy else math.inf))
    if reach >= 1:
        return cx, cy
    return cx + dx * reach, cy + dy * reach


def draw_mark(canvas: Canvas, change: str, shape: Shape, to_page: Callable[[Point], Point],
              before: Shape | None = None) -> None:
    """One change mark (see the module docstring) of a polygon, line or point."""
    kind, points = shape
    page = [to_page(p) for p in points]
    x0, y0, x1, y1 = bounds_of(page)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    _style(canvas, change)
    if change == "moved" and before is not None:
        draw_mark(canvas, "moved", before, to_page)
        _style(canvas, "moved")
        start = to_page(_centre(before))
        _arrow(canvas, start, _entry_point(start, (x0, y0, x1, y1)))
        return
    if kind == "point" or (change == "changed" and kind == "line"):
        _symbol(canvas, change, x0, y0, x1, y1)
        return
    canvas.drawPath(_path(canvas, page, close=kind == "polygon"), stroke=1, fill=0)
    if kind == "line":  # a line alone would read as a busbar: a symbol at its middle says what happened
        _symbol(canvas, change, cx, cy, cx, cy)
    elif change == "added":
        canvas.saveState()
        canvas.clipPath(_path(canvas, page), stroke=0, fill=0)
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
