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
