"""Drawings under the plan (``doc.underlays``) as undoable edits, and the one transform that maps
a drawing onto the plan (issue 14).

The transform: a drawing point (u, v) in its own units is scaled by ``scale`` metres per unit,
turned ``rotation`` degrees about the drawing's origin (clockwise on screen: the plan's y points
south), and its origin put at (``x``, ``y``). A DXF's y points up (north) and is flipped first;
a PDF page's and an image's y already point down. The scene draws with this matrix and "Use
outline and columns from the drawing" maps shapes with it, so what is taken lands where it is
seen; ``planner new --from-dxf`` places its DXF with it too (north-west corner of the outline
at the origin), so its plan and its underlay line up.

Paths: an underlay's ``path`` is relative to the .hall file's folder when the drawing lies in
that folder or below it (the two move together), else absolute. Saving the plan in another
folder calls for ``relink`` (relative paths re-made for the new folder, absolute where the
drawing is no longer below it).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from planner.commands.base import (
    AddObjects,
    Command,
    Compound,
    Refusal,
    RemoveObjects,
    SetFields,
    SetOutline,
)
from planner.commands.checks import value_problem
from planner.io.dxf import Drawing, pick_hall
from planner.model.document import Document
from planner.model.geometry import polygon_area
from planner.model.objects import UNDERLAY_KINDS, Door, Obstacle, Point, Underlay, Zone

#: File name endings → underlay kind.
KIND_OF_SUFFIX = {".dxf": "dxf", ".pdf": "pdf", ".png": "image", ".jpg": "image", ".jpeg": "image"}
#: A column taken from a drawing is the same as one already in the plan when their centres are
#: this close (m) and their areas within ``SAME_AREA``: using the drawing twice adds none twice.
SAME_CENTRE_M = 0.01
SAME_AREA = 0.05
#: Plan coordinates are rounded to a micrometre: the file stays short, far below the 1 mm the
#: plan is drawn to.
DIGITS = 6

Matrix = tuple[float, float, float, float, float, float]


# -------------------------------------------------------------- transform
def matrix(under: Underlay) -> Matrix:
    """(a, b, c, d, tx, ty) with plan x = a·u + c·v + tx, plan y = b·u + d·v + ty (Qt's
    QTransform(m11=a, m12=b, m21=c, m22=d, dx=tx, dy=ty) order)."""
    flip = -1.0 if under.kind == "dxf" else 1.0
    angle = math.radians(under.rotation)
    cos, sin, s = math.cos(angle), math.sin(angle), under.scale
    return s * cos, s * sin, -s * flip * sin, s * flip * cos, under.x, under.y


def to_plan(under: Underlay, u: float, v: float) -> Point:
    a, b, c, d, tx, ty = matrix(under)
    return round(a * u + c * v + tx, DIGITS), round(b * u + d * v + ty, DIGITS)


def origin_for(kind: str, scale: float, corner: Point) -> Point:
    """Where the drawing's origin goes so that drawing point ``corner`` lands on the plan's (0, 0)
    (rotation 0)."""
    flip = -1.0 if kind == "dxf" else 1.0
    return round(-corner[0] * scale, DIGITS), round(-flip * corner[1] * scale, DIGITS)


# ------------------------------------------------------------------ paths
def stored_path(drawing: str | Path, plan_folder: str | Path | None) -> str:
    """How the plan records a drawing: relative to ``plan_folder`` when it lies in it or below,
    else absolute (``plan_folder`` None: the plan has no file yet)."""
    target = Path(os.path.abspath(drawing))
    if plan_folder is not None:
        folder = Path(os.path.abspath(plan_folder))
        if target.is_relative_to(folder):
            return target.relative_to(folder).as_posix()
    return str(target)


def resolve(path: str, plan_folder: str | Path | None) -> Path:
    """The drawing file an underlay's ``path`` names (relative paths against ``plan_folder``, or
    the working folder when the plan has no file)."""
    candidate = Path(path)
    if candidate.is_absolute() or plan_folder is None:
        return Path(os.path.abspath(candidate))
    return Path(os.path.abspath(Path(plan_folder) / candidate))


def relink(doc: Document, old_folder: str | Path | None, new_folder: str | Path | None) -> SetFields | None:
    """The paths re-made for a plan that now lives in ``new_folder`` (Save as… elsewhere, or the
    first save of a new plan); None when nothing changes."""
    values: dict[str, dict[str, object]] = {}
    for under in doc.underlays.values():
        path = stored_path(resolve(under.path, old_folder), new_folder)
        if path != under.path:
            values[under.id] = {"path": path}
    return SetFields(values, text="Re-link drawings to the plan's folder") if values else None


# ---------------------------------------------------------------- commands
def add_underlay(doc: Document, path: str, kind: str, *, name: str | None = None, page: int = 0,
                 x: float = 0.0, y: float = 0.0, scale: float = 1.0, rotation: float = 0.0,
                 opacity: float = 0.5, visible: bool = True, locked: bool = False) -> AddObjects:
    """Place a drawing under the plan (``path`` as ``stored_path`` gives it)."""
    if kind not in UNDERLAY_KINDS:
        raise Refusal(f"kind: {kind!r} is not one of {', '.join(UNDERLAY_KINDS)}")
    name = name if name is not None else Path(path).name
    if kind == "pdf":
        name = f"{name} p.{page + 1}"
    under = Underlay(id=doc.new_id("ul"), name=name[:200], path=path, kind=kind, page=page,
                     x=float(x), y=float(y), scale=float(scale), rotation=float(rotation),
                     opacity=float(opacity), visible=visible, locked=locked)
    for field in ("path", "name"):
        problem = value_problem("Underlay", field, getattr(under, field))
        if problem:
            raise Refusal(f"drawing {field}: {problem}")
    return AddObjects([under], text=f"Import drawing {under.name}")


def set_transform(doc: Document, ul_id: str, *, x: float | None = None, y: float | None = None,
                  scale: float | None = None, rotation: float | None = None,
                  text: str | None = None) -> SetFields:
    """Move, scale or turn a drawing (one undo step)."""
    under = doc.underlays[ul_id]
    values = {name: round(float(value), 12 if name == "scale" else DIGITS)
              for name, value in (("x", x), ("y", y), ("scale", scale), ("rotation", rotation))
              if value is not None}
    return SetFields({ul_id: values}, text=text or f"Move drawing {under.name}")


def set_display(doc: Document, ul_id: str, *, opacity: float | None = None, visible: bool | None = None,
                locked: bool | None = None) -> SetFields:
    """Dim, hide/show or lock/unlock a drawing (one undo step, named after what changed)."""
    under = doc.underlays[ul_id]
    values: dict[str, object] = {}
    words = []
    if opacity is not None:
        values["opacity"] = float(opacity)
        words.append(f"Set opacity of drawing {under.name} to {opacity:.0%}")
    if visible is not None:
        values["visible"] = bool(visible)
        words.append(f"{'Show' if visible else 'Hide'} drawing {under.name}")
    if locked is not None:
        values["locked"] = bool(locked)
        words.append(f"{'Lock' if locked else 'Unlock'} drawing {under.name}")
    return SetFields({ul_id: values}, text="; ".join(words) or f"Edit drawing {under.name}")


def set_path(doc: Document, ul_id: str, path: str) -> SetFields:
    """Point a drawing at another file (Locate… a moved drawing)."""
    problem = value_problem("Underlay", "path", path)
    if problem:
        raise Refusal(f"drawing path: {problem}")
    return SetFields({ul_id: {"path": path}}, text=f"Locate drawing {doc.underlays[ul_id].name}")


def remove_underlay(doc: Document, ul_id: str) -> RemoveObjects:
    return RemoveObjects([ul_id], text=f"Remove drawing {doc.underlays[ul_id].name}")


def scale_by_two_points(doc: Document, ul_id: str, first: Point, second: Point, distance_m: float,
                        place_first_at: Point | None = None) -> SetFields:
    """Scale a drawing so that the two plan points clicked on it lie ``distance_m`` apart.

    The drawing grows or shrinks about the first point, which stays where it was clicked, or
    moves to ``place_first_at`` (the optional move that puts a known point of the drawing on its
    place in the hall)."""
    under = doc.underlays[ul_id]
    measured = math.dist(first, second)
    if measured <= 0:
        raise Refusal("the two points are the same: click two points apart on the drawing")
    if not (math.isfinite(distance_m) and distance_m > 0):
        raise Refusal("the distance between the points must be above 0 m")
    factor = distance_m / measured
    scale = under.scale * factor
    problem = value_problem("Underlay", "scale", scale)
    if problem:
        raise Refusal(f"scale: {problem}")
    fx, fy = first
    target = place_first_at if place_first_at is not None else first
    x = target[0] - factor * (fx - under.x)
    y = target[1] - factor * (fy - under.y)
    return set_transform(doc, ul_id, x=x, y=y, scale=scale,
                         text=f"Scale drawing {under.name} ({measured:.3f} m → {distance_m:.3f} m)")


def outline_from_drawing(doc: Document, under: Underlay, drawing: Drawing, outline_layer: str | None = None,
                         column_layer: str | None = None, zone_layer: str | None = None,
                         door_layer: str | None = None) -> Command:
    """Take the hall outline and the columns (and, from the layers named, zones and doors) from a
    DXF underlay, placed by its transform: one undo step.

    The whole-floor zone follows the outline (a zone whose corners were the old outline gets
    the new ones; a plan without zones gets one, "Floor", at the default rating, unless the zone
    layer gives it its zones, each at the default ratings), and a column
    that is already in the plan (same centre within 1 cm, same area within 5 %) is not added
    again. ``under`` need not be in the plan (``planner new --from-dxf`` with a drawing too far
    from its origin to keep as an underlay). Raises ``planner.io.dxf.DxfError`` when the drawing
    has no outline as asked."""
    if under.kind != "dxf":
        raise Refusal(f"{under.name} is not a DXF drawing: only a DXF has an outline to take")
    hall = pick_hall(drawing, outline_layer, column_layer, zone_layer, door_layer)
    outline = _placed(under, hall.outline.points)
    children: list[Command] = [SetOutline(outline)]
    old = [tuple(p) for p in doc.outline]
    zones = [z for z in doc.zones.values() if old and [tuple(p) for p in z.polygon] == old]
    if zones:
        children.append(SetFields({z.id: {"polygon": list(outline)} for z in zones},
                                  text="Zone follows the outline"))
    new: list[object] = []
    if not doc.zones and not hall.zones:
        new.append(Zone(id=doc.new_id("zone"), name="Floor", polygon=list(outline)))
    zone_shapes = [(_centre(z.polygon), polygon_area(z.polygon)) for z in doc.zones.values()]
    zone_names = {z.name for z in doc.zones.values()}
    for shape in hall.zones:
        polygon = _placed(under, shape.points)
        if _same_shape(polygon, zone_shapes):
            continue
        name = doc.unique_name(zone_names, "Zone ", width=1)
        zone_names.add(name)
        new.append(Zone(id=doc.new_id("zone"), name=name, polygon=polygon))
        zone_shapes.append((_centre(polygon), polygon_area(polygon)))
    doors = [[(d.x1, d.y1), (d.x2, d.y2)] for d in doc.doors.values()]
    door_names = {d.name for d in doc.doors.values()}
    for segment in hall.doors:
        ends = _placed(under, [segment.start, segment.end])
        if any(_same_ends(ends, other) for other in doors):
            continue
        name = doc.unique_name(door_names, "Door ", width=1)
        door_names.add(name)
        (x1, y1), (x2, y2) = ends
        new.append(Door(id=doc.new_id("door"), name=name, x1=x1, y1=y1, x2=x2, y2=y2))
        doors.append(ends)
    existing = _ShapeIndex([o.polygon for o in doc.obstacles.values()])
    names = {o.name for o in doc.obstacles.values()}
    number = 1  # the names are taken in order: count on from the last (unique_name from 1 is quadratic)
    for shape in hall.columns:
        polygon = _placed(under, shape.points)
        if existing.holds(polygon):
            continue
        while f"C{number:02d}" in names:
            number += 1
        name = f"C{number:02d}"
        names.add(name)
        new.append(Obstacle(id=doc.new_id("obs"), name=name, kind="column", polygon=polygon))
        existing.add(polygon)
    if new:
        children.append(AddObjects(new, text="Add columns"))
    columns = sum(isinstance(o, Obstacle) for o in new)
    parts = [f"{columns} column{'s' if columns != 1 else ''}"]
    for what, count in (("zone", sum(isinstance(o, Zone) for o in new) - (not doc.zones and not hall.zones)),
                        ("door", sum(isinstance(o, Door) for o in new))):
        if count:
            parts.append(f"{count} {what}{'s' if count != 1 else ''}")
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return Compound(children, text=f"Outline and {listed} from drawing {under.name}")


def _same_shape(polygon: list[Point], existing: list[tuple[Point, float]]) -> bool:
    """Whether a shape is one of ``existing`` (centre, area): same centre within 1 cm, area within 5 %."""
    centre, area = _centre(polygon), polygon_area(polygon)
    return any(math.dist(centre, c) <= SAME_CENTRE_M and abs(area - a) <= SAME_AREA * max(area, a)
               for c, a in existing)


class _ShapeIndex:
    """``_same_shape`` for many shapes: (centre, area) in a grid of SAME_CENTRE_M cells, so a
    look-up checks the 3 × 3 cells around a centre, not every shape (20,000 columns: linear)."""

    def __init__(self, polygons: list[list[Point]]) -> None:
        self.cells: dict[tuple[int, int], list[tuple[Point, float]]] = {}
        for polygon in polygons:
            self.add(polygon)

    @staticmethod
    def _cell(centre: Point) -> tuple[int, int]:
        return math.floor(centre[0] / SAME_CENTRE_M), math.floor(centre[1] / SAME_CENTRE_M)

    def add(self, polygon: list[Point]) -> None:
        centre = _centre(polygon)
        self.cells.setdefault(self._cell(centre), []).append((centre, polygon_area(polygon)))

    def holds(self, polygon: list[Point]) -> bool:
        i, j = self._cell(_centre(polygon))
        near = [entry for di in (-1, 0, 1) for dj in (-1, 0, 1) for entry in self.cells.get((i + di, j + dj), ())]
        return bool(near) and _same_shape(polygon, near)


def _same_ends(ends: list[Point], other: list[Point]) -> bool:
    """Whether two doors share both ends (within 1 cm, either way round)."""
    return all(any(math.dist(end, o) <= SAME_CENTRE_M for o in other) for end in ends)


def _placed(under: Underlay, points: list[Point]) -> list[Point]:
    return [to_plan(under, u, v) for u, v in points]


def _centre(points: list[Point]) -> Point:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
