"""Hall features drawn on the plan as undoable edits: columns (rectangular and round), walls,
floor zones, doors and hand-off points; moving them and reshaping them by a handle (issue 18).

Every gesture is one command. The shapes are the model's own: a column or a wall is an
``Obstacle`` polygon (so S1 and every export read a drawn column as they read a typed one), a
round column is a regular polygon of ``CIRCLE_SIDES`` corners (as a DXF circle is read), told
apart from a square one by its shape (``round_column``), so a plan holding one loads in any
version. A new zone has the model's default ratings; the Hall features tables edit them.

Handles (``handles``) are what a shape can be reshaped by: a rectangle's corners (the opposite
corner stays), a round column's rim point (its radius), any other polygon's corners, a door's
two ends. A hand-off point is a point: it is moved, not reshaped.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from planner.commands.base import AddObjects, SetFields
from planner.commands.checks import Refusal
from planner.commands.edits import subject
from planner.io.dxf import CIRCLE_SIDES
from planner.model.document import Document, prefix_of
from planner.model.geometry import polygon_area
from planner.model.objects import Door, HandOff, Obstacle, Point, Zone

COLUMN = "column"
WALL = "wall"
#: Where facility services enter the hall (``HandOff.kind``).
HANDOFF_KINDS = ("power", "coolant", "network")
#: A wall is drawn along its centre line and is this thick (m): a 200 mm block partition.
WALL_THICKNESS_M = 0.2
#: Coordinates of drawn shapes are rounded to a micrometre, as the underlay transform rounds them.
DIGITS = 6
#: A polygon is round when every corner lies this share of the radius from the mean radius.
ROUND_TOLERANCE = 1e-3
#: Name stems of new features: C01, W01, Zone 1, Door 1, Power 1 …
_STEMS = {COLUMN: ("C", 2), WALL: ("W", 2), "zone": ("Zone ", 1), "door": ("Door ", 1)}
FEATURE_PREFIXES = ("obs", "zone", "door", "ho")


def _pt(x: float, y: float) -> Point:
    return round(float(x), DIGITS), round(float(y), DIGITS)


def _corner(p: Point) -> Point:
    """A polygon corner as a new (x, y) tuple, unrounded (``tuple(p)``, typed as a pair)."""
    return p[0], p[1]


def rectangle(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    """An axis-aligned rectangle from two opposite corners, from its least corner clockwise."""
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    return [_pt(x0, y0), _pt(x1, y0), _pt(x1, y1), _pt(x0, y1)]


def is_rectangle(polygon: list[Point]) -> bool:
    return len(polygon) == 4 and len({p[0] for p in polygon}) == 2 and len({p[1] for p in polygon}) == 2


def circle(cx: float, cy: float, radius: float) -> list[Point]:
    """A round column's polygon: ``CIRCLE_SIDES`` corners, the first due east of the centre."""
    step = 2 * math.pi / CIRCLE_SIDES
    return [_pt(cx + radius * math.cos(k * step), cy + radius * math.sin(k * step)) for k in range(CIRCLE_SIDES)]


def round_column(polygon: list[Point]) -> tuple[float, float, float] | None:
    """(centre x, centre y, radius) of a polygon drawn as a circle, else None."""
    if len(polygon) != CIRCLE_SIDES:
        return None
    cx = sum(p[0] for p in polygon) / len(polygon)
    cy = sum(p[1] for p in polygon) / len(polygon)
    radii = [math.dist((cx, cy), p) for p in polygon]
    radius = sum(radii) / len(radii)
    if radius <= 0 or max(abs(r - radius) for r in radii) > ROUND_TOLERANCE * radius:
        return None
    return cx, cy, radius


def wall(x1: float, y1: float, x2: float, y2: float, thickness: float = WALL_THICKNESS_M) -> list[Point]:
    """A wall's polygon: the centre line (x1, y1)–(x2, y2) widened by ``thickness``."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= 0:
        raise Refusal("a wall needs two different ends")
    nx, ny = -(y2 - y1) / length * thickness / 2, (x2 - x1) / length * thickness / 2
    return [_pt(x1 + nx, y1 + ny), _pt(x2 + nx, y2 + ny), _pt(x2 - nx, y2 - ny), _pt(x1 - nx, y1 - ny)]


def _name(doc: Document, names: Iterable[str], key: str) -> str:
    stem, width = _STEMS[key]
    return doc.unique_name(set(names), stem, width=width)


def _area_or_refuse(polygon: list[Point], what: str) -> list[Point]:
    if len(polygon) < 3 or polygon_area(polygon) <= 0:
        raise Refusal(f"{what} needs an area: drag or click corners apart")
    return polygon


# ------------------------------------------------------------------ drawing
def add_column(doc: Document, x0: float, y0: float, x1: float, y1: float) -> AddObjects:
    """A rectangular column from two opposite corners."""
    polygon = _area_or_refuse(rectangle(x0, y0, x1, y1), "a column")
    name = _name(doc, (o.name for o in doc.obstacles.values()), COLUMN)
    obs = Obstacle(id=doc.new_id("obs"), name=name, kind=COLUMN, polygon=polygon)
    return AddObjects([obs], text=f"Add column {name}")


def add_round_column(doc: Document, cx: float, cy: float, radius: float) -> AddObjects:
    """A round column from its centre and radius."""
    if radius <= 0:
        raise Refusal("a round column needs a radius: drag out from its centre")
    name = _name(doc, (o.name for o in doc.obstacles.values()), COLUMN)
    obs = Obstacle(id=doc.new_id("obs"), name=name, kind=COLUMN, polygon=circle(cx, cy, radius))
    return AddObjects([obs], text=f"Add round column {name} (⌀ {2 * radius:.2f} m)")


def add_wall(doc: Document, x1: float, y1: float, x2: float, y2: float) -> AddObjects:
    """A wall along its centre line."""
    polygon = wall(x1, y1, x2, y2)
    name = _name(doc, (o.name for o in doc.obstacles.values()), WALL)
    obs = Obstacle(id=doc.new_id("obs"), name=name, kind=WALL, polygon=polygon)
    return AddObjects([obs], text=f"Add wall {name} ({math.hypot(x2 - x1, y2 - y1):.2f} m)")


def add_zone(doc: Document, points: list[Point]) -> AddObjects:
    """A floor zone of the model's default ratings (edited in Plan ▸ Hall features)."""
    polygon = _area_or_refuse([_pt(x, y) for x, y in points], "a zone")
    name = _name(doc, (z.name for z in doc.zones.values()), "zone")
    zone = Zone(id=doc.new_id("zone"), name=name, polygon=polygon)
    return AddObjects([zone], text=f"Add zone {name} ({zone.rating_kpa:g} kPa)")


def add_door(doc: Document, x1: float, y1: float, x2: float, y2: float) -> AddObjects:
    """A door from one jamb to the other."""
    width = math.hypot(x2 - x1, y2 - y1)
    if width <= 0:
        raise Refusal("a door needs two different ends: drag from one jamb to the other")
    name = _name(doc, (d.name for d in doc.doors.values()), "door")
    (ax, ay), (bx, by) = _pt(x1, y1), _pt(x2, y2)
    door = Door(id=doc.new_id("door"), name=name, x1=ax, y1=ay, x2=bx, y2=by)
    return AddObjects([door], text=f"Add door {name} ({width:.2f} m)")


def add_handoff(doc: Document, kind: str, x: float, y: float) -> AddObjects:
    """A hand-off point where facility power, coolant or the network enters."""
    if kind not in HANDOFF_KINDS:
        raise Refusal(f"a hand-off is one of {', '.join(HANDOFF_KINDS)}, not {kind!r}")
    name = doc.unique_name({h.name for h in doc.handoffs.values()}, f"{kind.capitalize()} ", width=1)
    x, y = _pt(x, y)
    handoff = HandOff(id=doc.new_id("ho"), name=name, kind=kind, x=x, y=y)
    return AddObjects([handoff], text=f"Add {kind} hand-off {name}")


# --------------------------------------------------------- moving, reshaping
def anchor(obj: Any) -> Point:
    """The point of a feature that lands on the grid when it is dragged: a round column's centre,
    a polygon's first corner, a door's first end, a hand-off itself."""
    if isinstance(obj, (Obstacle, Zone)):
        found = round_column(obj.polygon)
        return (found[0], found[1]) if found else _corner(obj.polygon[0])
    if isinstance(obj, Door):
        return obj.x1, obj.y1
    return obj.x, obj.y


def moved_values(obj: Any, dx: float, dy: float) -> dict[str, Any]:
    """The fields of a feature moved by (dx, dy)."""
    if isinstance(obj, (Obstacle, Zone)):
        return {"polygon": [_pt(x + dx, y + dy) for x, y in obj.polygon]}
    if isinstance(obj, Door):
        return {"x1": round(obj.x1 + dx, DIGITS), "y1": round(obj.y1 + dy, DIGITS),
                "x2": round(obj.x2 + dx, DIGITS), "y2": round(obj.y2 + dy, DIGITS)}
    if isinstance(obj, HandOff):
        return {"x": round(obj.x + dx, DIGITS), "y": round(obj.y + dy, DIGITS)}
    raise Refusal(f"{obj.id} is not a hall feature")


def move_features(doc: Document, ids: Iterable[str], dx: float, dy: float) -> SetFields:
    """Columns, walls, zones, doors and hand-offs moved by (dx, dy) metres, one step."""
    values = {obj_id: moved_values(doc.get(obj_id), dx, dy) for obj_id in ids
              if prefix_of(obj_id) in FEATURE_PREFIXES}
    if not values:
        raise Refusal("nothing in the selection is a hall feature")
    return SetFields(values, text=f"Move {subject(doc, map(doc.get, values))}")


def handles(obj: Any) -> list[Point]:
    """Where a feature can be taken to reshape it (module docstring)."""
    if isinstance(obj, (Obstacle, Zone)):
        found = round_column(obj.polygon)
        if found:
            return [(found[0] + found[2], found[1])]
        return [_corner(p) for p in obj.polygon]
    if isinstance(obj, Door):
        return [(obj.x1, obj.y1), (obj.x2, obj.y2)]
    return []


def reshaped(obj: Any, handle: int, x: float, y: float) -> dict[str, Any]:
    """The fields of a feature whose handle ``handle`` was taken to (x, y); refuses a shape with
    no area (or a door of no width)."""
    if isinstance(obj, Door):
        values = {"x1": obj.x1, "y1": obj.y1, "x2": obj.x2, "y2": obj.y2}
        values.update(zip(("x1", "y1") if handle == 0 else ("x2", "y2"), _pt(x, y)))
        if (values["x1"], values["y1"]) == (values["x2"], values["y2"]):
            raise Refusal(f"door {obj.name} needs two different ends")
        return values
    if not isinstance(obj, (Obstacle, Zone)):
        raise Refusal(f"{obj.name} has no shape to change: drag it to move it")
    polygon = [_corner(p) for p in obj.polygon]
    found = round_column(polygon)
    if found:
        cx, cy, _r = found
        radius = math.dist((cx, cy), (x, y))
        if radius <= 0:
            raise Refusal(f"{obj.name} needs a radius")
        return {"polygon": circle(cx, cy, radius)}
    if is_rectangle(polygon):
        ox, oy = polygon[(handle + 2) % 4]
        new = rectangle(ox, oy, x, y)
    else:
        new = list(polygon)
        new[handle] = _pt(x, y)
    return {"polygon": _area_or_refuse(new, obj.name)}


def reshape(doc: Document, obj_id: str, handle: int, x: float, y: float) -> SetFields:
    """Reshape a feature by one handle (one undo step)."""
    obj = doc.get(obj_id)
    return SetFields({obj_id: reshaped(obj, handle, x, y)}, text=f"Reshape {subject(doc, [obj])}")
