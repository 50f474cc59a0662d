"""The floor plan as a DXF drawing for CAD, at true scale in millimetres (DESIGN §9, issue 14).

The architect's drawing is the building's record; the planner's drawing goes on top of it as
an overlay or an external reference, so what matters is that it lands on the right spot at the
right size and that each kind of object can be switched on and off on its own:

- Units are millimetres, declared in the header ($INSUNITS 4 = mm, $MEASUREMENT 1 = metric;
  AutoCAD DXF reference, HEADER section), one drawing unit per millimetre on the floor.
- Plan (x east, y south, metres) maps to DXF (1000·x, −1000·y): north up, the plan's origin (the
  hall's north-west corner) at the drawing's origin, as ``planner new --from-dxf`` reads a
  drawing back (``planner.io.dxf.north_west``).
- One layer per kind of object (``LAYERS``), each with its colour, line weight and a
  description: outline, columns and walls, zones, racks, floor units, busbar runs, trays, doors,
  hand-offs and the title. Footprints are closed polylines; names are TEXT beside or on them.
- Trays are the ones the plan's cables run in (``planner.fabric.trays.TrayLoads`` over the
  router's routes), drawn at their design-basis width along the stretch that carries cables.

User text is cleaned for DXF: control characters out and one line (``one_line``), at most
``MAX_TEXT`` characters (older readers stop at 255), and the two sequences CAD would act on
written literally: "%%" (AutoCAD's %%c, %%d … codes) as "%%%" per percent sign, and a caret
("^J" is a control character in DXF strings) as "^ ", the DXF reference's literal caret.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import BinaryIO

import ezdxf
import ezdxf.zoom
from ezdxf.document import Drawing
from ezdxf.enums import TextEntityAlignment
from ezdxf.layouts import Modelspace

from planner.export.options import ExportOptions
from planner.export.pages import TitleBlock
from planner.export.printed_text import clip, one_line
from planner.fabric.trays import CROSS, Tray, TrayLoads
from planner.model.document import Document, natural_key
from planner.model.geometry import FRONT_DIRECTION, footprint_polygon, point_in_polygon
from planner.model.objects import Point

MM = 1000.0
MAX_TEXT = 250
HANDOFF_RADIUS_MM = 200.0
TEXT_STYLE = "HP-TEXT"
#: Name → (AutoCAD colour index, line weight in 1/100 mm, description shown in the layer manager).
LAYERS: dict[str, tuple[int, int, str]] = {
    "HP-OUTLINE": (7, 50, "Hall outline"),
    "HP-COLUMNS": (8, 35, "Columns and walls (obstacles)"),
    "HP-ZONES": (3, 18, "Floor zones with their distributed load rating"),
    "HP-RACKS": (5, 25, "Racks: footprint, name, front edge"),
    "HP-FLOOR-UNITS": (4, 25, "Row CDUs and power cabinets"),
    "HP-BUSBARS": (1, 50, "Overhead busbar runs (side A solid, side B dashed)"),
    "HP-TRAYS": (30, 18, "Overhead cable trays at design-basis width, where cables run"),
    "HP-DOORS": (6, 35, "Doors"),
    "HP-HANDOFFS": (2, 25, "Power, coolant and network hand-off points"),
    "HP-TITLE": (7, 18, "Title block"),
}
OUTLINE, COLUMNS, ZONES, RACKS, UNITS, BUSBARS, TRAYS, DOORS, HANDOFFS, TITLE = LAYERS
_MIDDLE = TextEntityAlignment.MIDDLE_CENTER


def dxf_text(text: str) -> str:
    """User text as a DXF string that CAD shows as typed (see the module docstring)."""
    text = clip(one_line(text), MAX_TEXT)
    if "%%" in text:
        text = text.replace("%", "%%%")
    return text.replace("^", "^ ")


def to_dxf(point: Point) -> tuple[float, float]:
    """A plan point (m, y south) as a drawing point (mm, y north), to the micrometre."""
    return round(point[0] * MM, 3), round(-point[1] * MM, 3) + 0.0


class _Drawing:
    """The modelspace and the few ways this drawing adds to it."""

    def __init__(self) -> None:
        self.doc = ezdxf.new("R2010", setup=["linetypes"])
        self.doc.header["$INSUNITS"] = 4
        self.doc.header["$MEASUREMENT"] = 1
        self.doc.header["$LUNITS"] = 2
        for name, (colour, weight, description) in LAYERS.items():
            layer = self.doc.layers.add(name, color=colour)
            layer.dxf.lineweight = weight
            layer.description = description
        # A TrueType face every CAD tool has or substitutes, not the SHX "txt" of Standard.
        self.doc.styles.add(TEXT_STYLE, font="arial.ttf")
        self.msp: Modelspace = self.doc.modelspace()

    def polygon(self, layer: str, points: Sequence[Point]) -> None:
        """A closed polyline; a "polygon" of fewer than two corners is no shape and is left out."""
        if len(points) >= 2:
            self.msp.add_lwpolyline([to_dxf(p) for p in points], close=True, dxfattribs={"layer": layer})

    def line(self, layer: str, start: Point, end: Point, linetype: str = "BYLAYER") -> None:
        self.msp.add_line(to_dxf(start), to_dxf(end), dxfattribs={"layer": layer, "linetype": linetype})

    def text(self, layer: str, at: Point, text: str, height_m: float,
             align: TextEntityAlignment = TextEntityAlignment.LEFT, rotation: float = 0.0) -> None:
        """TEXT at a plan point; ``rotation`` in degrees anticlockwise on the drawing (90 reads north)."""
        entity = self.msp.add_text(dxf_text(text), height=round(height_m * MM, 1), rotation=rotation,
                                   dxfattribs={"layer": layer, "style": TEXT_STYLE})
        entity.set_placement(to_dxf(at), align=align)


def render_dxf(doc: Document, options: ExportOptions | None = None) -> Drawing:
    """The plan as an ezdxf drawing (entities per layer: see ``write_dxf``)."""
    options = options or ExportOptions()
    drawing = _Drawing()
    points: list[Point] = list(doc.outline)
    if doc.outline:
        drawing.polygon(OUTLINE, doc.outline)
    for obstacle in sorted(doc.obstacles.values(), key=lambda o: natural_key(o.id)):
        drawing.polygon(COLUMNS, obstacle.polygon)
        points += obstacle.polygon
    for zone in sorted(doc.zones.values(), key=lambda z: natural_key(z.id)):
        drawing.polygon(ZONES, zone.polygon)
        if zone.polygon:  # the name in the south-west corner: hand-offs sit at the north wall
            x0, _y0, _x1, y1 = _bounds(zone.polygon)
            drawing.text(ZONES, (x0 + 0.2, y1 - 0.3), f"{zone.name} {zone.rating_kpa:g} kPa", 0.3)
    options.report(0.1)
    for rack in sorted(doc.racks.values(), key=lambda r: natural_key(r.name)):
        item = doc.catalog.items.get(rack.type)
        if item is None:
            continue
        polygon = footprint_polygon(rack.x, rack.y, item.width_m, item.depth_m, rack.rotation)
        drawing.polygon(RACKS, polygon)
        drawing.line(RACKS, *_front_edge(polygon, rack.rotation))
        drawing.text(RACKS, (rack.x, rack.y), rack.name, _label_height(polygon, rack.name), _MIDDLE)
        points += polygon
    options.report(0.4)
    for unit in sorted(doc.floor_units.values(), key=lambda u: natural_key(u.name)):
        item = doc.catalog.items.get(unit.type)
        if item is None:
            continue
        polygon = footprint_polygon(unit.x, unit.y, item.width_m, item.depth_m, unit.rotation)
        drawing.polygon(UNITS, polygon)
        drawing.text(UNITS, (unit.x, unit.y), unit.name, _label_height(polygon, unit.name), _MIDDLE)
        points += polygon
    for bus in sorted(doc.busbars.values(), key=lambda b: natural_key(b.name)):
        drawing.line(BUSBARS, (bus.x1, bus.y1), (bus.x2, bus.y2), "CONTINUOUS" if bus.side == "A" else "DASHED")
        drawing.text(BUSBARS, (bus.x1 + 0.1, bus.y1 - 0.08), f"{bus.name} ({bus.side})", 0.15)
    options.report(0.5)
    points += _trays(doc, drawing)
    options.report(0.8)
    for door in sorted(doc.doors.values(), key=lambda d: natural_key(d.id)):
        drawing.line(DOORS, (door.x1, door.y1), (door.x2, door.y2))
        at, angle = _door_label(doc, door.x1, door.y1, door.x2, door.y2)
        drawing.text(DOORS, at, door.name, 0.25, _MIDDLE, angle)
    for handoff in sorted(doc.handoffs.values(), key=lambda h: natural_key(h.id)):
        drawing.msp.add_circle(to_dxf((handoff.x, handoff.y)), HANDOFF_RADIUS_MM, dxfattribs={"layer": HANDOFFS})
        # Read upwards, below the disc: hand-offs often stand a disc apart along a wall.
        below = (handoff.x, handoff.y + HANDOFF_RADIUS_MM / MM + 0.1)
        drawing.text(HANDOFFS, below, f"{handoff.name} ({handoff.kind})", 0.15,
                     TextEntityAlignment.MIDDLE_RIGHT, 90.0)
        points.append((handoff.x, handoff.y))
    bounds = _bounds(points)
    _title(doc, options, drawing, bounds)
    x0, y0, x1, y1 = bounds
    drawing.msp.dxf.extmin = (*to_dxf((x0, y1 + 3.0)), 0.0)  # ezdxf copies them to $EXTMIN/$EXTMAX
    drawing.msp.dxf.extmax = (*to_dxf((x1, y0)), 0.0)
    ezdxf.zoom.window(drawing.msp, to_dxf((x0 - 1, y1 + 4)), to_dxf((x1 + 1, y0 - 1)))
    return drawing.doc


def _tray_outlines(doc: Document) -> list[tuple[Tray, list[Point], str]]:
    """Each tray that carries cables: the tray, its outline (m) at design-basis width along the
    stretch that carries them, and its label."""
    loads = TrayLoads(doc)
    basis = doc.basis
    trays = []
    for tray_id in sorted(loads.trays(), key=natural_key):
        tray = Tray.parse(tray_id)
        spans = list(loads.spans(tray_id))
        if not spans:
            continue
        start, end = spans[0].start_mm / MM, spans[-1].end_mm / MM
        half = (basis.cross_tray_width_m if tray.kind == CROSS else basis.row_tray_width_m) / 2
        across = tray.across_mm / MM
        if tray.axis == "x":
            outline = [(start, across - half), (end, across - half), (end, across + half), (start, across + half)]
        else:
            outline = [(across - half, start), (across + half, start), (across + half, end), (across - half, end)]
        peak = loads.peak(tray_id)
        label = f"{tray.describe(loads.row_of(tray_id))}: {peak.cables:,} cables at its busiest"
        trays.append((tray, outline, label))
    return trays


def _trays(doc: Document, drawing: _Drawing) -> list[Point]:
    points = []
    for tray, outline, label in _tray_outlines(doc):
        drawing.polygon(TRAYS, outline)
        (x0, y0), (_x1, y1) = outline[0], outline[2]
        # Along the tray, inside its edge: clear of the rack names on the row's centre line.
        if tray.axis == "x":
            drawing.text(TRAYS, (x0 + 0.1, y0 + 0.1), label, 0.1, TextEntityAlignment.MIDDLE_LEFT)
        else:
            drawing.text(TRAYS, (x0 + 0.1, y1 - 0.1), label, 0.1, TextEntityAlignment.MIDDLE_LEFT, 90.0)
        points += outline
    return points


def _front_edge(polygon: list[Point], rotation: int) -> tuple[Point, Point]:
    (x0, y0), (x1, y1) = polygon[0], polygon[2]
    dx, dy = FRONT_DIRECTION[rotation % 360]
    if dy:
        y = y0 if dy < 0 else y1
        return (x0, y), (x1, y)
    x = x1 if dx > 0 else x0
    return (x, y0), (x, y1)


def _door_label(doc: Document, x1: float, y1: float, x2: float, y2: float) -> tuple[Point, float]:
    """Where a door's name goes: along the door, 0.3 m to the side that lies inside the hall."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    side = 1.0 if not doc.outline or point_in_polygon(mx + 0.3 * nx, my + 0.3 * ny, doc.outline) else -1.0
    angle = -math.degrees(math.atan2(y2 - y1, x2 - x1))  # plan y runs south, drawing y north
    if angle <= -90 or angle > 90:  # never upside down
        angle += 180 if angle <= -90 else -180
    return (mx + side * 0.3 * nx, my + side * 0.3 * ny), angle


def _label_height(polygon: list[Point], name: str) -> float:
    """A name's text height (m): fits the footprint's width, 80–220 mm."""
    width = abs(polygon[2][0] - polygon[0][0])
    return min(0.22, max(0.08, 1.6 * width / max(1, len(name))))


def _bounds(points: list[Point]) -> tuple[float, float, float, float]:
    if not points:
        return 0.0, 0.0, 10.0, 10.0
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def _title(doc: Document, options: ExportOptions, drawing: _Drawing, bounds: tuple[float, ...]) -> None:
    """Title block under the drawing: what it is, whose, which revision, and how it is drawn."""
    x0, _y0, _x1, y1 = bounds
    block = TitleBlock.of(doc, options, "Floor plan")
    lines = [
        (f"{block.title}: {block.project}, {block.hall}", 0.5),
        (" · ".join(fact for fact in (f"revision {block.revision}", block.date, block.author, block.file_name)
                    if fact), 0.3),
        ("Millimetres at 1:1. North up; origin at the plan's origin (hall north-west corner). Layers HP-*: "
         + "one per kind of object.", 0.25),
    ]
    y = y1 + 1.2
    for text, height in lines:
        drawing.text(TITLE, (x0, y), text, height)
        y += height * 1.8


def write_dxf(doc: Document, out: BinaryIO, options: ExportOptions | None = None) -> None:
    """Write the plan as DXF (R2010, UTF-8). Entities per layer: outline 1 polyline; columns one
    polyline per obstacle; zones a polyline and a text each; racks a polyline, a front line and
    a name each; floor units a polyline and a name; busbars a line and a name; trays a polyline
    and a label per cable-carrying tray; doors a line and a name; hand-offs a circle and a name;
    title 3 texts."""
    options = options or ExportOptions()
    drawing = render_dxf(doc, options)
    text = io.TextIOWrapper(out, encoding=drawing.output_encoding, errors="dxfreplace", newline="",
                            write_through=True)
    drawing.write(text)
    text.flush()
    text.detach()
    options.report(1.0)
