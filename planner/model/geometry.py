"""Plan geometry: footprints of racks and floor units from centre, size and rotation.

Plan coordinates are metres with the origin at the hall's north-west corner, x east, y south.
Rotation 0 puts a rack's front to the north (−y); each 90° turns it clockwise.
"""

from __future__ import annotations

import math

from planner.model.objects import Point

#: Height of one rack unit, metres (EIA-310: 1.75 in).
RACK_UNIT_M = 0.04445

#: Unit vector of the front face for each rotation.
FRONT_DIRECTION: dict[int, Point] = {0: (0.0, -1.0), 90: (1.0, 0.0), 180: (0.0, 1.0), 270: (-1.0, 0.0)}


def extents(width_m: float, depth_m: float, rotation: int) -> tuple[float, float]:
    """Size along x and along y of a w × d footprint at a rotation."""
    if rotation % 180 == 0:
        return width_m, depth_m
    return depth_m, width_m


def footprint_bounds(
    x: float, y: float, width_m: float, depth_m: float, rotation: int
) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) of a footprint centred on (x, y)."""
    ex, ey = extents(width_m, depth_m, rotation)
    return x - ex / 2, y - ey / 2, x + ex / 2, y + ey / 2


def footprint_polygon(x: float, y: float, width_m: float, depth_m: float, rotation: int) -> list[Point]:
    x0, y0, x1, y1 = footprint_bounds(x, y, width_m, depth_m, rotation)
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def snap(value: float, step: float) -> float:
    """Round to the nearest multiple of ``step`` (tile grid)."""
    return round(round(value / step) * step, 6)


def polygon_area(points: list[Point]) -> float:
    """Area of a simple polygon (shoelace), m²."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


def point_in_polygon(px: float, py: float, points: list[Point]) -> bool:
    """Even-odd rule point test, for hit tests that must not pull in shapely."""
    inside = False
    n = len(points)
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        if (y0 > py) != (y1 > py):
            cross = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
            if px < cross:
                inside = not inside
    return inside


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def bounds_of(points: list[Point]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(value, high))


Box = tuple[float, float, float, float]


def segment_span(segment: Box, rect: Box) -> tuple[float, float] | None:
    """The part (t0, t1, 0–1 along it) of the segment (x0, y0, x1, y1) inside the rectangle, None
    when it misses (Liang–Barsky clipping)."""
    x0, y0, x1, y1 = segment
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - rect[0]), (dx, rect[2] - x0), (-dy, y0 - rect[1]), (dy, rect[3] - y0)):
        if abs(p) < 1e-12:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return None
    return low, high


def segment_box_gap(x1: float, y1: float, x2: float, y2: float,
                    box: tuple[float, float, float, float]) -> tuple[float, float, float]:
    """How far a box (min x, min y, max x, max y) lies from the segment (x1, y1)–(x2, y2).

    Returns (gap, along, across) in metres: the shortest straight distance between the two, and
    that shortest path split along the segment's direction (how far the box lies beyond the
    segment's nearer end; 0 when it lies beside the segment) and across it (its distance from the
    segment's line). All three are 0 when the segment crosses or touches the box. This is the
    reach a busbar tap-off's cord drop must span to a rack's roof (P5), shared by the rule and
    the assign gesture so they cannot disagree.
    """
    if segment_span((x1, y1, x2, y2), box) is not None:
        return 0.0, 0.0, 0.0
    dx, dy = x2 - x1, y2 - y1
    length_sq = dx * dx + dy * dy
    pairs: list[tuple[Point, Point]] = []
    for px, py in ((x1, y1), (x2, y2)):  # segment ends → nearest point of the box
        pairs.append(((px, py), (_clamp(px, box[0], box[2]), _clamp(py, box[1], box[3]))))
    for cx, cy in ((box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])):
        t = 0.0 if length_sq == 0 else _clamp(((cx - x1) * dx + (cy - y1) * dy) / length_sq, 0.0, 1.0)
        pairs.append(((x1 + t * dx, y1 + t * dy), (cx, cy)))
    on_run, on_box = min(pairs, key=lambda pair: distance(*pair))
    gap = distance(on_run, on_box)
    ux, uy = (dx, dy) if length_sq else (1.0, 0.0)
    norm = math.hypot(ux, uy)
    vx, vy = on_box[0] - on_run[0], on_box[1] - on_run[1]
    along = abs(vx * ux + vy * uy) / norm
    across = abs(vx * uy - vy * ux) / norm
    return gap, along, across
