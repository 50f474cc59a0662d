"""The floor plan as simple shapes in metres, drawn by the SVG export and the PDF floor-plan pages.

One shape list feeds both outputs so the printed plan and the SVG never disagree. Plan
coordinates: x east, y south (north is up on paper). On paper every label goes through
``label_placer`` (no label over another or over a tray or busbar line); a hall too big to read
on one page is printed as a key plan and sheets by ``plan_sheets``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from planner.export.fonts import FONT, FONT_BOLD
from planner.export.label_placer import Placer, Rect, text_box
from planner.export.printed_text import clip, draw_text
from planner.export.scale_bar import scale_bar_length
from planner.fabric.routing import Router
from planner.model.catalog import CABINET, ROW_CDU
from planner.model.document import Document, natural_key
from planner.model.geometry import FRONT_DIRECTION, bounds_of, footprint_polygon
from planner.model.objects import Point

#: Zone, busbar and row names on the drawing are cut to this many characters ("…"); rack and
#: unit names to their box.
NAME_CHARS = 40
#: Rack and unit names print at this size or larger, up to the largest (points).
MIN_NAME_SIZE, MAX_NAME_SIZE = 6.0, 7.0
#: A part of the floor, (x0, y0, x1, y1) in metres.
Window = tuple[float, float, float, float]
#: Room under the drawing for the scale bar and north arrow (points).
SCALE_BAR_ROOM = 36.0


@dataclass
class Box:
    """A named rectangle on the floor: rack, CDU or cabinet. ``front`` is its front edge, if any."""

    name: str
    polygon: list[Point]
    kind: str
    front: tuple[Point, Point] | None = None


@dataclass
class PlanShapes:
    """Everything the plan drawing shows, in metres."""

    bounds: tuple[float, float, float, float]
    outline: list[Point] = field(default_factory=list)
    zones: list[tuple[str, list[Point], float]] = field(default_factory=list)
    obstacles: list[list[Point]] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    busbars: list[tuple[str, Point, Point, str]] = field(default_factory=list)
    rows: list[tuple[str, Point]] = field(default_factory=list)
    """Row name and the north-west corner of the row's racks (the label goes just above it)."""
    trays: list[tuple[Point, Point]] = field(default_factory=list)


def _front_edge(polygon: list[Point], rotation: int) -> tuple[Point, Point]:
    (x0, y0), (x1, _), (_, y1) = polygon[0], polygon[1], polygon[2]
    dx, dy = FRONT_DIRECTION[rotation % 360]
    if dy < 0:
        return (x0, y0), (x1, y0)
    if dy > 0:
        return (x0, y1), (x1, y1)
    if dx > 0:
        return (x1, y0), (x1, y1)
    return (x0, y0), (x0, y1)


def plan_shapes(doc: Document) -> PlanShapes:
    """Collect the plan's shapes; row trays run along each row's rack centres, cross-aisle trays
    where the cable router (``planner.fabric.routing``) crosses between rows."""
    points: list[Point] = list(doc.outline)
    shapes = PlanShapes(bounds=(0.0, 0.0, 1.0, 1.0), outline=list(doc.outline))
    for zone in sorted(doc.zones.values(), key=lambda z: natural_key(z.id)):
        shapes.zones.append((zone.name, zone.polygon, zone.rating_kpa))
    for obstacle in sorted(doc.obstacles.values(), key=lambda o: natural_key(o.id)):
        shapes.obstacles.append(obstacle.polygon)
        points.extend(obstacle.polygon)
    rows: dict[str, list[Point]] = {}
    row_tops: dict[str, Point] = {}
    for rack in sorted(doc.racks.values(), key=lambda r: natural_key(r.name)):
        item = doc.catalog.items.get(rack.type)
        if item is None:
            continue
        polygon = footprint_polygon(rack.x, rack.y, item.width_m, item.depth_m, rack.rotation)
        shapes.boxes.append(Box(rack.name, polygon, "rack", _front_edge(polygon, rack.rotation)))
        points.extend(polygon)
        if rack.row:
            rows.setdefault(rack.row, []).append((rack.x, rack.y))
            top = row_tops.get(rack.row, polygon[0])
            row_tops[rack.row] = (min(top[0], polygon[0][0]), min(top[1], polygon[0][1]))
    for unit in sorted(doc.floor_units.values(), key=lambda u: natural_key(u.name)):
        item = doc.catalog.items.get(unit.type)
        if item is None:
            continue
        polygon = footprint_polygon(unit.x, unit.y, item.width_m, item.depth_m, unit.rotation)
        shapes.boxes.append(Box(unit.name, polygon, "cdu" if item.kind == ROW_CDU else
                                "cabinet" if item.kind == CABINET else item.kind))
        points.extend(polygon)
    for bus in sorted(doc.busbars.values(), key=lambda b: natural_key(b.name)):
        shapes.busbars.append((bus.name, (bus.x1, bus.y1), (bus.x2, bus.y2), bus.side))
        points.extend([(bus.x1, bus.y1), (bus.x2, bus.y2)])
    for row, centres in sorted(rows.items(), key=lambda kv: natural_key(kv[0])):
        x0, y0, x1, y1 = bounds_of(centres)
        if x1 - x0 >= y1 - y0:
            y = sum(p[1] for p in centres) / len(centres)
            start, end = (x0, y), (x1, y)
        else:
            x = sum(p[0] for p in centres) / len(centres)
            start, end = (x, y0), (x, y1)
        shapes.trays.append((start, end))
        shapes.rows.append((row, row_tops[row]))
    shapes.trays += _cross_aisle_trays(doc, shapes.trays)
    if points:
        shapes.bounds = bounds_of(points)
    return shapes


def _cross_aisle_trays(doc: Document, row_trays: list[tuple[Point, Point]]) -> list[tuple[Point, Point]]:
    """Trays joining the row trays where the cable router crosses between rows, and the main
    trunk between pods."""
    if len(row_trays) < 2:
        return []
    router = Router(doc)
    along_x = sorted({start[1] for start, end in row_trays if start[1] == end[1]})
    along_y = sorted({start[0] for start, end in row_trays if start[0] == end[0] and start[1] != end[1]})
    trays = []
    if len(along_x) > 1:
        trays += [((x, along_x[0]), (x, along_x[-1])) for x in router.cross_x]
    if len(along_y) > 1:
        trays += [((along_y[0], y), (along_y[-1], y)) for y in router.cross_y]
    return trays + router.main_trunks()  # pods side by side: the trunk joining their end trunks


def fit_scale(bounds: Window, box: tuple[float, float, float, float]) -> float:
    """Points per metre at which ``bounds`` fills ``box`` above the scale bar."""
    bx0, by0, bx1, by1 = box
    return min((bx1 - bx0) / max(bounds[2] - bounds[0], 0.1), (by1 - by0 - SCALE_BAR_ROOM) / max(bounds[3] - bounds[1], 0.1))


#: What a caller draws over the plan, after its labels and under its clip: given the canvas, the
#: mapping from plan metres to the page and the drawing's ``Placer`` (for labels of its own).
OnTop = Callable[[Canvas, Callable[[Point], tuple[float, float]], Placer], None]


def draw_plan_pdf(canvas: Canvas, shapes: PlanShapes, box: tuple[float, float, float, float],
                  window: Window | None = None, scale: float | None = None, names: bool = True,
                  keep_clear: Sequence[Rect] = (), avoid: Sequence[tuple[Point, Point]] = (),
                  on_top: OnTop | None = None) -> float:
    """Draw the plan to fit ``box`` (x0, y0, x1, y1 in points), or only ``window`` (metres) at
    ``scale``; returns the scale (points per metre).

    Labels go through a ``Placer``: none overlaps another or a tray or busbar line, and a name
    that cannot find a clear spot is left out rather than printed over another. Rack and unit
    names print whole inside their box where it is wide enough at ``MIN_NAME_SIZE`` or more;
    only a drawing too small for that (``readable_scale``) cuts them. With ``names`` False (the
    key plan of a hall printed on sheets) racks, units and busbars are drawn unnamed; ``keep_clear``
    (page rectangles) is left for what the caller draws over the plan, and the labels keep off the
    lines ``avoid`` (plan metres: a review's move arrows) as they keep off the trays. ``on_top``
    then draws over the plan with the same mapping and placer.
    """
    bx0, by0, bx1, by1 = box
    mx0, my0, mx1, my1 = window or shapes.bounds
    width_m, depth_m = max(mx1 - mx0, 0.1), max(my1 - my0, 0.1)
    if scale is None:
        scale = fit_scale((mx0, my0, mx1, my1), box)
    ox = bx0 + ((bx1 - bx0) - width_m * scale) / 2
    oy = by1
    area = (ox, oy - depth_m * scale, ox + width_m * scale, oy)

    def tx(p: Point) -> tuple[float, float]:
        return ox + (p[0] - mx0) * scale, oy - (p[1] - my0) * scale

    def polygon(points: list[Point], fill: bool = False) -> None:
        path = canvas.beginPath()
        for i, p in enumerate(points):
            (path.moveTo if i == 0 else path.lineTo)(*tx(p))
        path.close()
        canvas.drawPath(path, stroke=1, fill=1 if fill else 0)

    canvas.saveState()
    if window is not None:
        clip = canvas.beginPath()
        clip.rect(area[0], area[1], area[2] - area[0], area[3] - area[1])
        canvas.clipPath(clip, stroke=0, fill=0)
    canvas.setLineWidth(1.2)
    if shapes.outline:
        polygon(shapes.outline)
    canvas.setLineWidth(0.4)
    canvas.setDash(1, 2)
    for _name, zone_polygon, _rating in shapes.zones:
        polygon(zone_polygon)
    canvas.setDash()
    canvas.setFillGray(0.6)
    for obstacle in shapes.obstacles:
        polygon(obstacle, fill=True)
    canvas.setLineWidth(0.5)
    for item in shapes.boxes:
        canvas.setFillGray(0.92 if item.kind == "rack" else 0.8)
        polygon(item.polygon, fill=True)
        if item.front:
            canvas.setLineWidth(1.6)
            canvas.line(*tx(item.front[0]), *tx(item.front[1]))
            canvas.setLineWidth(0.5)
    canvas.setFillGray(0.0)
    placer = Placer(area)
    for rect in keep_clear:
        placer.block(rect)
    canvas.setLineWidth(0.6)
    canvas.setStrokeGray(0.45)
    canvas.setDash(4, 2)
    for start, end in shapes.trays:
        canvas.line(*tx(start), *tx(end))
        placer.block_line(*tx(start), *tx(end))
    canvas.setDash()
    canvas.setStrokeGray(0.0)
    for _name, p1, p2, side in shapes.busbars:
        canvas.setLineWidth(2.0 if side == "A" else 1.0)
        canvas.setDash() if side == "A" else canvas.setDash(6, 2)
        canvas.line(*tx(p1), *tx(p2))
        placer.block_line(*tx(p1), *tx(p2), 1.0 if side == "A" else 0.5)
    canvas.setDash()
    for start, end in avoid:
        placer.block_segment(*tx(start), *tx(end), 2.5)
    _labels(canvas, shapes, placer, tx, (mx0, my0, mx1, my1), names)
    if on_top is not None:
        on_top(canvas, tx, placer)
    canvas.restoreState()
    canvas.saveState()
    # Scale bar and north arrow, under the drawing.
    bar_m = scale_bar_length(width_m)
    sx, sy = bx0, by0 + 10
    canvas.setLineWidth(0.8)
    canvas.rect(sx, sy, bar_m * scale / 2, 4, fill=1)
    canvas.rect(sx + bar_m * scale / 2, sy, bar_m * scale / 2, 4, fill=0)
    draw_text(canvas, sx, sy + 7, "0", 6)
    draw_text(canvas, sx + bar_m * scale, sy + 7, f"{bar_m:g} m", 6, align="centre")
    nx, ny = bx1 - 12, by0 + 6
    path = canvas.beginPath()
    path.moveTo(nx, ny + 22)
    path.lineTo(nx - 5, ny + 6)
    path.lineTo(nx + 5, ny + 6)
    path.close()
    canvas.drawPath(path, stroke=1, fill=1)
    draw_text(canvas, nx, ny - 2, "N", 8, FONT_BOLD, align="centre")
    canvas.restoreState()
    return scale


def _labels(canvas: Canvas, shapes: PlanShapes, placer: Placer, tx: Callable[[Point], tuple[float, float]],
            window: Window, names: bool) -> None:
    """Names of racks and units (inside their boxes first), then row, busbar and zone labels;
    without ``names`` only the rows and zones."""
    wx0, wy0, wx1, wy1 = window
    for item in shapes.boxes if names else ():
        xs, ys = [p[0] for p in item.polygon], [p[1] for p in item.polygon]
        if min(xs) < wx0 - 1e-6 or max(xs) > wx1 + 1e-6 or min(ys) < wy0 - 1e-6 or max(ys) > wy1 + 1e-6:
            continue  # cut by the sheet edge: named whole on the sheet that holds it
        left, top = tx((min(xs), min(ys)))
        right, bottom = tx((max(xs), max(ys)))
        font = FONT if item.kind == "rack" else FONT_BOLD
        width, height = right - left, top - bottom
        size = min(MAX_NAME_SIZE, (width - 1) / max(stringWidth(item.name, font, 1), 0.1), (height - 2) / 1.1)
        cx, cy = (left + right) / 2, (top + bottom) / 2
        inside = [(cx, cy + height / 4 - size * 0.3, "centre"), (cx, cy - height / 4 - size * 0.3, "centre"),
                  (cx, cy - size * 0.3, "centre")]
        ground = 0.92 if item.kind == "rack" else 0.8
        if size >= MIN_NAME_SIZE and placer.put(canvas, item.name, size, font, inside, ground=ground):
            continue
        if item.kind != "rack":  # a unit's name beside its box, with a leader
            size = MIN_NAME_SIZE
            outside = [(cx, cy, "centre"), (left - 2, cy - 2, "right"), (right + 2, cy - 2, "left"),
                       (cx, top + 2, "centre"), (cx, bottom - size - 1, "centre")]
            placer.put(canvas, clip(item.name, NAME_CHARS), size, font, outside, anchor=(cx, cy))
        else:  # too small a drawing to name racks whole (a key plan of a hall, a review's overview)
            size = max(3.5, size)
            draw_text(canvas, cx, inside[0][1], item.name, size, font, max_width=max(2.0, width - 1), align="centre")
            placer.block(text_box(cx, inside[0][1], item.name[:1] + "…", size, font, "centre"))
    for row, start in shapes.rows:
        if not (wx0 - 1e-6 <= start[0] < wx1 - 1e-6 and wy0 - 1e-6 <= start[1] < wy1 - 1e-6):
            continue  # the row starts on another sheet
        rx, ry = tx(start)
        text = f"Row {clip(row, NAME_CHARS)}"
        spots = [(rx + dx, ry + dy, "left") for dy in (10, 3, 17) for dx in (0, 30, 60, 90)]
        spots += [(rx + dx, ry + dy, "left") for dy in (10, 3, 17) for dx in (120, 150, 180, 210)]
        placer.put(canvas, text, 6, FONT_BOLD, [*spots, (rx - 3, ry - 8, "right")])
    for name, p1, p2, side in shapes.busbars if names else ():  # a key plan leaves them to its sheets
        (x1, y1), (x2, y2) = tx(p1), tx(p2)
        offsets = (3.0, -7.0) if side == "A" else (-7.0, 3.0)
        spots = [(x1 + (x2 - x1) * t + 2, y1 + (y2 - y1) * t + dy, "left") for dy in offsets
                 for t in (0.0, 0.25, 0.5, 0.75)]
        placer.put(canvas, clip(name, NAME_CHARS), 5, FONT, spots)
    for name, zone_polygon, rating in shapes.zones:
        zx, zy = tx((max(wx0, zone_polygon[0][0]), max(wy0, zone_polygon[0][1])))
        placer.put(canvas, f"{clip(name, NAME_CHARS)} {rating:g} kPa", 6, FONT,
                   [(zx + 2, zy - dy, "left") for dy in (8, 16, 24)])


def nice_scale_ratio(width_m: float, paper_width_m: float) -> int:
    """The smallest usual drawing scale (1:50, 1:100 …) at which ``width_m`` fits the paper."""
    for ratio in (50, 100, 200, 250, 500, 1000, 2000, 5000):
        if width_m / ratio <= paper_width_m:
            return ratio
    return 10 ** math.ceil(math.log10(width_m / paper_width_m))
