"""Read an architect's DXF: its layers, the closed shapes a hall is made of, its units, and the
line work to show under the plan (issue 14, DESIGN §9).

Everything here is in *drawing units* with the drawing's own axes (y up); turning that into
plan metres (y down, north-west corner of the hall at the origin) is the underlay transform's
job (``planner.commands.underlays``), so a plan started from a DXF and the same DXF shown under
it line up by construction.

How the hall is found, so that a drawing nobody prepared for the planner still works:

- **Outline**: the largest closed polyline (LWPOLYLINE or 2D/3D POLYLINE, closed by its flag or
  by ending where it starts) on the outline layer. Without ``outline_layer`` the layers whose
  name holds a word such as WALL, OUTLINE, HALL, ROOM, BOUNDARY or PERIMETER (``A-WALL``,
  ``HALL_OUTLINE``) are tried first, then the largest closed polyline in the whole drawing.
- **Columns**: every closed polyline and circle on the column layer (a circle becomes a polygon
  of ``CIRCLE_SIDES`` sides) that touches the outline. Without ``column_layer`` every layer whose
  name holds COLUMN, COL, COLS, PILLAR or PIER (``S-COLS``) is taken; none is no columns.
- **Zones** and **doors** only from layers named for them (``zone_layer``, ``door_layer``): every
  closed polyline on the zone layer that touches the outline is a zone, every LINE or open
  two-point polyline on the door layer a door (from one jamb to the other).
- Blocks (INSERT) are exploded, their layer-0 parts taking the insert's layer, as CAD shows them:
  columns are often drawn as a block.
- **Units**: ``--units`` when given (it wins over a header known to be wrong), else ``$INSUNITS``;
  a unitless drawing without ``--units`` is refused (a guess would be off by 1000 or 25.4).

``ezdxf`` is imported on first read, not with the module: the CLI registers every subcommand at
start and should not pay for it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from planner.model.physical import MAX_HALL_M

Point = tuple[float, float]

#: ``--units`` choices → metres per drawing unit.
UNITS = {"mm": 0.001, "m": 1.0, "in": 0.0254, "ft": 0.3048}
#: $INSUNITS codes (AutoCAD DXF reference, HEADER section) → (name, metres per unit).
INSUNITS = {1: ("in", 0.0254), 2: ("ft", 0.3048), 3: ("mi", 1609.344), 4: ("mm", 0.001),
            5: ("cm", 0.01), 6: ("m", 1.0), 7: ("km", 1000.0), 8: ("µin", 0.0254e-6),
            9: ("mil", 0.0254e-3), 10: ("yd", 0.9144), 11: ("Å", 1e-10), 12: ("nm", 1e-9),
            13: ("µm", 1e-6), 14: ("dm", 0.1), 15: ("dam", 10.0), 16: ("hm", 100.0),
            17: ("Gm", 1e9), 18: ("AU", 149_597_870_700.0), 19: ("ly", 9.4607e15), 20: ("pc", 3.0857e16)}
OUTLINE_WORDS = frozenset({"OUTLINE", "WALL", "WALLS", "HALL", "ROOM", "BOUNDARY", "PERIMETER"})
COLUMN_WORDS = frozenset({"COLUMN", "COLUMNS", "COL", "COLS", "PILLAR", "PILLARS", "PIER", "PIERS"})
#: A round column as a polygon: 32 sides keep every edge within 0.5 % of the radius of the circle
#: (1.5 mm on a 600 mm column), finer than the plan's 1 mm.
CIRCLE_SIDES = 32
#: Curves (polyline bulges) are flattened to this share of the drawing's size for shapes (1 mm
#: across a 100 m drawing) and to a coarser one for the line work shown under the plan.
SHAPE_TOLERANCE = 1e-5
SKETCH_TOLERANCE = 2e-4
#: Blocks inside blocks are exploded this deep (a drawing that nests deeper is unusual).
MAX_BLOCK_DEPTH = 4
#: No real drawing has a shape beyond this many units from its origin: 10 km (the most a plan
#: holds) in ångström, the smallest unit $INSUNITS offers, is 1e14. A block inserted at scale 1e300
#: or a vertex of 1e308 is damage, refused with the entity's handle rather than left to GEOS.
MAX_COORDINATE = 1e15
#: The smallest hall ``new --from-dxf`` takes: 2 m on its shorter side and 4 m². One rack (1.2 m
#: deep) with room to open its door and stand in front (0.8 m; NEC 110.26 asks 0.9 m of working
#: space) is 2 m; anything smaller is a drawing in the wrong units (a 1 µm hall), not a room.
MIN_HALL_SIDE_M = 2.0
MIN_HALL_AREA_M2 = 4.0
#: Why a shape on a layer was left out (counted per layer, reported by ``new --from-dxf``).
NON_POSITIVE_RADIUS = "with a radius of zero or less"
#: id of an exploded block part → the handle of the top-level INSERT it came from (for messages).
_INSERTS: dict[int, str] = {}
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SHAPE_TYPES = ("LWPOLYLINE", "POLYLINE", "CIRCLE")
_SEGMENT_TYPES = ("LINE", "LWPOLYLINE", "POLYLINE")
_SKETCH_TYPES = ("LINE", "LWPOLYLINE", "POLYLINE", "ARC", "CIRCLE", "ELLIPSE", "SPLINE")


class DxfError(ValueError):
    """The drawing cannot be read or used as asked; the message is one line for the user."""


class _BadGeometry(Exception):
    """An entity whose coordinates are not finite or beyond MAX_COORDINATE (message: which)."""


def clean_name(name: str) -> str:
    """A layer name as it can be printed and saved: bytes that were not text (read by ezdxf as
    lone surrogates, e.g. FF FE), control and bidi characters each become U+FFFD."""
    return _UNPRINTABLE.sub("\ufffd", name) if _UNPRINTABLE.search(name) else name


def _check_points(entity: Any, layer: str, points: Iterable[tuple[float, ...]]) -> None:
    for point in points:
        for value in point:
            if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
                handle = entity.dxf.get("handle")
                where = f"#{handle}" if handle else f"in a block inserted by INSERT #{_INSERTS.get(id(entity), '?')}"
                raise _BadGeometry(f"{entity.dxftype()} {where} on layer {layer!r} has a coordinate "
                                   f"{value:g}: not a finite number up to {MAX_COORDINATE:g} drawing units")


@dataclass
class Shape:
    """A closed polyline or a circle, in drawing units; ``points`` do not repeat the first."""

    layer: str
    kind: str  # "polyline" or "circle"
    points: list[Point]

    @property
    def area(self) -> float:
        pts = self.points
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1]))) / 2

    def bounds(self) -> tuple[float, float, float, float]:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return min(xs), min(ys), max(xs), max(ys)


@dataclass
class Segment:
    """A LINE or an open two-point polyline, in drawing units: a door from one jamb to the other."""

    layer: str
    start: Point
    end: Point


@dataclass
class Text:
    """A TEXT or MTEXT entity: where it starts, how tall, turned by ``rotation`` degrees (CCW)."""

    x: float
    y: float
    height: float
    rotation: float
    text: str


@dataclass
class Drawing:
    """What was read from one DXF: layers with entity counts, closed shapes, and (on request) the
    line work and texts to draw under the plan."""

    path: str
    insunits: int
    layers: dict[str, int]
    shapes: list[Shape]
    segments: list[Segment] = field(default_factory=list)
    lines: list[list[Point]] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    extents: tuple[float, float, float, float] | None = None
    #: Shapes left out, by (layer, why) (a circle of radius 0 or less).
    left_out: Counter[tuple[str, str]] = field(default_factory=Counter)

    def layer_named(self, name: str) -> str | None:
        """The layer's own spelling (DXF layer names are case-insensitive), or None."""
        wanted = name.casefold()
        return next((layer for layer in self.layers if layer.casefold() == wanted), None)


@dataclass
class Hall:
    """The outline, columns, zones and doors chosen from a drawing, and how each was chosen."""

    outline: Shape
    outline_how: str
    columns: list[Shape]
    column_layers: list[str]
    columns_how: str
    columns_outside: int
    zones: list[Shape] = field(default_factory=list)
    zone_layer: str | None = None
    zones_outside: int = 0
    doors: list[Segment] = field(default_factory=list)
    door_layer: str | None = None


def read_dxf(path: str | Path, sketch: bool = False) -> Drawing:
    """Read ``path``; with ``sketch`` also flatten its line work and collect its texts.

    Raises DxfError (one line naming the file) for a file that is missing, not a DXF or damaged
    beyond what ezdxf's recover mode repairs."""
    import ezdxf
    from ezdxf import recover

    name = str(path)
    try:
        try:
            doc = ezdxf.readfile(name)
        except ezdxf.DXFStructureError:
            doc, _auditor = recover.readfile(name)
    except OSError as exc:  # ezdxf says "not a DXF file" with an IOError that has no errno
        reason = exc.strerror if exc.errno is not None else "not a DXF drawing"
        raise DxfError(f"cannot read {name}: {reason}") from None
    except (ezdxf.DXFError, ValueError, UnicodeError) as exc:
        raise DxfError(f"{name} is not a DXF drawing ezdxf can read: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    counts: Counter[str] = Counter({clean_name(layer.dxf.name): 0 for layer in doc.layers})
    entities = list(_exploded(doc.modelspace(), counts))
    layers = dict(sorted(counts.items(), key=lambda item: item[0].casefold()))
    left_out: Counter[tuple[str, str]] = Counter()
    try:
        for layer, entity in entities:
            if entity.dxftype() in _SHAPE_TYPES + _SEGMENT_TYPES:
                _check_entity(entity, layer)
        extents = _extents(e for _layer, e in entities)
        if extents and not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in extents):
            extents = None  # a text or arc far out: not the drawing's size
        size = math.hypot(extents[2] - extents[0], extents[3] - extents[1]) if extents else 1.0
        shapes = [shape for layer, entity in entities if entity.dxftype() in _SHAPE_TYPES
                  for shape in _shape(layer, entity, size * SHAPE_TOLERANCE, left_out)]
        segments = [segment for layer, entity in entities if entity.dxftype() in _SEGMENT_TYPES
                    for segment in _segment(layer, entity, size * SHAPE_TOLERANCE)]
    except _BadGeometry as exc:
        raise DxfError(f"{name}: {exc}") from None
    drawing = Drawing(name, int(doc.header.get("$INSUNITS", 0) or 0), layers, shapes, segments, extents=extents,
                      left_out=left_out)
    if sketch:
        _sketch(drawing, [e for _layer, e in entities], size * SKETCH_TOLERANCE)
    return drawing


def _exploded(layout: Iterable[Any], counts: Counter[str], depth: int = 0,
              layer: str | None = None, insert: str = "") -> Iterator[tuple[str, Any]]:
    """(layer, entity) for every entity, blocks exploded; top-level entities counted per layer."""
    if depth == 0:
        _INSERTS.clear()
    for entity in layout:
        if depth:
            _INSERTS[id(entity)] = insert
        own = clean_name(entity.dxf.get("layer", "0"))
        effective = layer if layer is not None and own == "0" else own
        if depth == 0:
            counts[own] += 1
        if entity.dxftype() == "INSERT":
            if depth < MAX_BLOCK_DEPTH:
                yield from _exploded(_block_parts(entity), counts, depth + 1, effective,
                                     insert or entity.dxf.get("handle", "?"))
            continue
        yield effective, entity


def _block_parts(insert: Any) -> list[Any]:
    """The entities of an INSERT, placed; none for a block ezdxf cannot explode (left out, not
    fatal: the rest of the drawing is still of use)."""
    try:
        return list(insert.virtual_entities())
    except Exception:  # noqa: BLE001
        return []


def _path_points(entity: Any, tolerance: float) -> list[Point]:
    from ezdxf import path as ezpath

    try:
        points = [(v.x, v.y) for v in ezpath.make_path(entity).flattening(max(tolerance, 1e-9))]
    except Exception:  # noqa: BLE001 (degenerate geometry: nothing to draw)
        return []
    return _dedupe(points)


def _dedupe(points: list[Point]) -> list[Point]:
    out: list[Point] = []
    for point in points:
        if not out or math.dist(point, out[-1]) > 1e-9:
            out.append(point)
    return out


def _check_entity(entity: Any, layer: str) -> None:
    """_BadGeometry for a shape or segment whose own coordinates are not finite or too far out
    (before flattening, which would drop a NaN vertex and turn a rectangle into a triangle)."""
    kind = entity.dxftype()
    try:
        if kind == "CIRCLE":
            points: list[tuple[float, ...]] = [tuple(entity.dxf.center)[:2] + (entity.dxf.radius,)]
        elif kind == "LINE":
            points = [tuple(entity.dxf.start)[:2], tuple(entity.dxf.end)[:2]]
        elif kind == "LWPOLYLINE":
            points = [tuple(p[:2]) for p in entity.get_points("xyb")]
        else:
            points = [tuple(v.dxf.location)[:2] for v in entity.vertices]
    except (AttributeError, TypeError, ValueError):
        return
    _check_points(entity, layer, points)


def _shape(layer: str, entity: Any, tolerance: float, left_out: Counter[tuple[str, str]] | None = None) -> list[Shape]:
    """The entity as a closed Shape, or nothing when it is open (or a polyface mesh); a circle of
    radius 0 or less is counted in ``left_out``."""
    kind = entity.dxftype()
    if kind == "CIRCLE":
        cx, cy, r = entity.dxf.center.x, entity.dxf.center.y, entity.dxf.radius
        if r <= 0:
            if left_out is not None:
                left_out[(layer, NON_POSITIVE_RADIUS)] += 1
            return []
        step = 2 * math.pi / CIRCLE_SIDES
        return [Shape(layer, "circle", [(cx + r * math.cos(k * step), cy + r * math.sin(k * step))
                                        for k in range(CIRCLE_SIDES)])]
    if kind == "POLYLINE" and not (entity.is_2d_polyline or entity.is_3d_polyline):
        return []
    flagged = entity.closed if kind == "LWPOLYLINE" else entity.is_closed
    points = _path_points(entity, tolerance)
    ends_meet = len(points) >= 4 and math.dist(points[0], points[-1]) <= tolerance
    if not (flagged or ends_meet):
        return []
    if len(points) > 1 and math.dist(points[0], points[-1]) <= tolerance:
        points = points[:-1]
    shape = Shape(layer, "polyline", points)
    return [shape] if len(points) >= 3 and shape.area > 0 else []


def _segment(layer: str, entity: Any, tolerance: float) -> list[Segment]:
    """A LINE, or an open polyline of two corners (no bulge), as a Segment; else nothing."""
    if entity.dxftype() == "LINE":
        start, end = entity.dxf.start, entity.dxf.end
        points = _dedupe([(start.x, start.y), (end.x, end.y)])
    else:
        if entity.dxftype() == "POLYLINE" and not (entity.is_2d_polyline or entity.is_3d_polyline):
            return []
        if entity.closed if entity.dxftype() == "LWPOLYLINE" else entity.is_closed:
            return []
        points = _path_points(entity, tolerance)
    return [Segment(layer, points[0], points[1])] if len(points) == 2 else []


def _extents(entities: Iterable[Any]) -> tuple[float, float, float, float] | None:
    from ezdxf import bbox

    box = bbox.extents(entities, fast=True)
    if not box.has_data:
        return None
    return box.extmin.x, box.extmin.y, box.extmax.x, box.extmax.y


def _sketch(drawing: Drawing, entities: list[Any], tolerance: float) -> None:
    for entity in entities:
        kind = entity.dxftype()
        if kind in _SKETCH_TYPES:
            if kind == "POLYLINE" and not (entity.is_2d_polyline or entity.is_3d_polyline):
                continue
            points = _path_points(entity, tolerance)
            if kind == "CIRCLE" and points:
                points.append(points[0])
            if len(points) >= 2 and all(math.isfinite(c) and abs(c) <= MAX_COORDINATE for p in points for c in p):
                drawing.lines.append(points)
        elif kind in ("TEXT", "MTEXT"):
            text = _text(entity)
            if text is not None:
                drawing.texts.append(text)


def _text(entity: Any) -> Text | None:
    try:
        content = " ".join(entity.plain_text().split())
        insert = entity.dxf.insert
        if entity.dxftype() == "TEXT":
            height, rotation = entity.dxf.get("height", 1.0), entity.dxf.get("rotation", 0.0)
        else:
            height, rotation = entity.dxf.get("char_height", 1.0), entity.get_rotation()
    except Exception:  # noqa: BLE001 (a text ezdxf cannot decode is left out)
        return None
    return Text(insert.x, insert.y, float(height), float(rotation), content) if content else None


# ------------------------------------------------------------------ units
def metres_per_unit(drawing: Drawing, units: str | None = None) -> tuple[float, str]:
    """Metres per drawing unit and where that came from (``--units`` wins over the header)."""
    header = INSUNITS.get(drawing.insunits)
    if units is not None:
        if units not in UNITS:
            raise DxfError(f"--units must be one of {', '.join(UNITS)}, not {units!r}")
        note = f"{units} (from --units"
        if header is not None and header[0] != units:
            note += f"; the drawing's $INSUNITS says {header[0]}"
        return UNITS[units], note + ")"
    if header is None:
        raise DxfError(f"{drawing.path} does not say its units ($INSUNITS {drawing.insunits}, unitless): "
                       f"give --units {', '.join(UNITS)}")
    return header[1], f"{header[0]} (from the drawing's $INSUNITS {drawing.insunits})"


# ------------------------------------------------------------- the hall
def _words(layer: str) -> set[str]:
    return set(re.split(r"[^A-Z0-9]+", layer.upper()))


def _known_layer(drawing: Drawing, name: str, what: str) -> str:
    layer = drawing.layer_named(name)
    if layer is None:
        listed = ", ".join(drawing.layers) or "none"
        raise DxfError(f"{drawing.path} has no layer {name!r} for the {what} (layers: {listed})")
    return layer


def pick_outline(drawing: Drawing, outline_layer: str | None = None,
                 exclude: Iterable[str] = ()) -> tuple[Shape, str]:
    """The hall outline and how it was chosen (module docstring)."""
    polylines = [s for s in drawing.shapes if s.kind == "polyline"]
    if outline_layer is not None:
        layer = _known_layer(drawing, outline_layer, "outline")
        on_layer = [s for s in polylines if s.layer == layer]
        if not on_layer:
            raise DxfError(f"layer {layer!r} of {drawing.path} has no closed polyline for the hall outline")
        return max(on_layer, key=lambda s: s.area), f"the largest closed polyline on layer {layer} (as asked)"
    named = [s for s in polylines if _words(s.layer) & OUTLINE_WORDS]
    if named:
        best = max(named, key=lambda s: s.area)
        return best, f"the largest closed polyline on layer {best.layer} (guessed from the layer name)"
    skipped = set(exclude)
    anywhere = [s for s in polylines if s.layer not in skipped]
    if not anywhere:
        raise DxfError(f"{drawing.path} has no closed polyline to take the hall outline from "
                       f"(layers: {', '.join(drawing.layers) or 'none'})")
    best = max(anywhere, key=lambda s: s.area)
    return best, f"the largest closed polyline in the drawing (layer {best.layer}; no layer named like a wall)"


def column_layers(drawing: Drawing, column_layer: str | None = None) -> tuple[list[str], str]:
    """The layers columns are taken from, and how they were chosen ("" asks for none)."""
    if column_layer == "":
        return [], "none asked for"
    if column_layer is not None:
        return [_known_layer(drawing, column_layer, "columns")], "as asked"
    guessed = [layer for layer in drawing.layers if _words(layer) & COLUMN_WORDS]
    if guessed:
        return guessed, "guessed from the layer name"
    return [], "no --column-layer given and no layer named like columns"


def zones_on(drawing: Drawing, zone_layer: str) -> list[Shape]:
    """The closed polylines on the zone layer (a layer without one is refused: a wrong name)."""
    layer = _known_layer(drawing, zone_layer, "zones")
    zones = [s for s in drawing.shapes if s.layer == layer and s.kind == "polyline"]
    if not zones:
        raise DxfError(f"layer {layer!r} of {drawing.path} has no closed polyline for a zone")
    return zones


def doors_on(drawing: Drawing, door_layer: str) -> list[Segment]:
    """The LINEs and open two-point polylines on the door layer (none is refused: a wrong name)."""
    layer = _known_layer(drawing, door_layer, "doors")
    doors = [s for s in drawing.segments if s.layer == layer]
    if not doors:
        raise DxfError(f"layer {layer!r} of {drawing.path} has no LINE or two-point polyline for a door")
    return doors


def pick_hall(drawing: Drawing, outline_layer: str | None = None, column_layer: str | None = None,
              zone_layer: str | None = None, door_layer: str | None = None) -> Hall:
    """Outline, columns and, from the layers named for them, zones and doors (module docstring);
    columns and zones that do not touch the outline are counted (``columns_outside``,
    ``zones_outside``) and left out."""
    import shapely
    from shapely.geometry import Polygon

    layers, columns_how = column_layers(drawing, column_layer)
    outline, outline_how = pick_outline(drawing, outline_layer, exclude=layers)
    hall = Polygon(outline.points).buffer(0)
    shapely.prepare(hall)  # one prepared outline against every shape: linear in the shapes

    def touching(shapes: list[Shape]) -> list[Shape]:
        shapes = [s for s in shapes if s is not outline]
        if not shapes:
            return []
        polygons = shapely.make_valid([Polygon(s.points) for s in shapes])
        return [s for s, hit in zip(shapes, shapely.intersects(hall, polygons), strict=True) if hit]

    candidates = [s for s in drawing.shapes if s.layer in layers and s is not outline]
    inside = touching(candidates)
    zones = zones_on(drawing, zone_layer) if zone_layer else []
    zones_inside = touching(zones)
    doors = doors_on(drawing, door_layer) if door_layer else []
    return Hall(outline, outline_how, inside, layers, columns_how, len(candidates) - len(inside),
                zones_inside, zones[0].layer if zones else None, len(zones) - len(zones_inside),
                doors, doors[0].layer if doors else None)


def check_hall_size(hall: Hall, metres: float, path: str) -> None:
    """DxfError for an outline smaller than a room or wider than a hall (the loader's MAX_HALL_M)."""
    x0, y0, x1, y1 = hall.outline.bounds()
    width, depth, area = (x1 - x0) * metres, (y1 - y0) * metres, hall.outline.area * metres * metres
    wrong = (f"at most {MAX_HALL_M:,.0f} m across" if max(width, depth) > MAX_HALL_M else
             f"at least {MIN_HALL_SIDE_M:g} m across and {MIN_HALL_AREA_M2:g} m²"
             if min(width, depth) < MIN_HALL_SIDE_M or area < MIN_HALL_AREA_M2 else "")
    if wrong:
        raise DxfError(f"{path}: the hall outline (layer {hall.outline.layer}) is {width:.3g} × {depth:.3g} m, "
                       f"{area:.3g} m²; a hall is {wrong} (are the units right?)")


def north_west(shape: Shape) -> Point:
    """The plan's origin in the drawing: the outline's least x and greatest y (DXF y points north)."""
    x0, _y0, _x1, y1 = shape.bounds()
    return x0, y1
