"""The other revision drawn on the floor plan while comparing (File ▸ Compare with…): what was
removed as grey ghosts at its old place, what moved as a dashed outline where it stood with an
arrow to where it stands now, added objects filled green and changed ones outlined teal.

Two scene layers, both drawn from the two documents and the diff: the ghosts lie under the plan
(over the zones, under racks and units); the outlines, arrows and cable lines lie over it, and so
does a moved object's old place, dashed, whose edges would hide under its old neighbours and
busbars. Each is one item that paints a few QPainterPaths, one per kind of mark, so a diff of a
whole row and a thousand rewired cables costs a handful of draw calls. Devices are marked by
their rack, cables by a line between their end racks. Pens are cosmetic (pixels on screen) with
a white halo, so marks read at any zoom and over any fill; the colours avoid those of findings
(red, amber), the selection (blue) and a picked cable's route (magenta).
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from planner.model.document import Document, prefix_of
from planner.review.diff import PlanDiff
from planner.ui.plan.units import m, to_scene

ADDED, REMOVED, MOVED, CHANGED = "added", "removed", "moved", "changed"
#: Colour of each kind of change (also the Changes dock's legend).
COLOURS = {ADDED: QColor(26, 150, 65), REMOVED: QColor(90, 90, 90), MOVED: QColor(123, 63, 160),
           CHANGED: QColor(0, 131, 143)}
LEGEND = {ADDED: "added (filled green)", REMOVED: "removed (grey ghost at its old place)",
          MOVED: "moved (dashed where it was, arrow to where it is)", CHANGED: "changed (outlined)"}
Z_GHOSTS = 3
Z_MARKS = 58
#: A point object (hand-off, comment) is marked by a circle of this radius (m); arrow heads.
POINT_RADIUS_M = 0.3
ARROW_HEAD_M = 0.3
_PAD = m(0.5)
#: Marks by (kind of change, where): its "place" (the old one for removed objects), the "old" place of a
#: moved object, "arrow" lines and their "heads", "cable" lines.
Key = tuple[str, str]


def _pen(colour: QColor, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(colour, width, style, Qt.PenCapStyle.FlatCap, Qt.PenJoinStyle.MiterJoin)
    pen.setCosmetic(True)
    return pen


_HALO = _pen(QColor(255, 255, 255, 220), 6)
_THIN_HALO = _pen(QColor(255, 255, 255, 200), 4)


def _fill(colour: QColor, alpha: int) -> QBrush:
    tinted = QColor(colour)
    tinted.setAlpha(alpha)
    return QBrush(tinted)


def _style(key: Key) -> tuple[QPen | None, QPen, QBrush]:
    """(halo, pen, brush) of one kind of mark."""
    change, where = key
    colour = COLOURS[change]
    if where == "cable":
        dashed = Qt.PenStyle.DashLine if change == REMOVED else Qt.PenStyle.SolidLine
        return None, _pen(colour, 1.5, dashed), QBrush(Qt.BrushStyle.NoBrush)
    if where == "arrow":
        return _THIN_HALO, _pen(colour, 2.5), _fill(colour, 255)
    if where == "old":
        return _THIN_HALO, _pen(colour, 2, Qt.PenStyle.DashLine), _fill(colour, 40)
    fills = {ADDED: 80, REMOVED: 60}
    brush = _fill(colour, fills[change]) if change in fills else QBrush(Qt.BrushStyle.NoBrush)
    style = Qt.PenStyle.DashLine if change == REMOVED else Qt.PenStyle.SolidLine
    return _HALO, _pen(colour, 3, style), brush


# ------------------------------------------------------------------------------ shapes
def _outline(doc: Document, obj_id: str) -> QPainterPath | None:
    """An object's shape on the plan in scene units: a footprint, a line, a polygon, a circle;
    a device by its rack. None for what has no place (a cable, an underlay, a gone rack)."""
    obj = doc.find(obj_id)
    if obj is None:
        return None
    prefix = prefix_of(obj_id)
    path = QPainterPath()
    if prefix == "dev":
        return _outline(doc, obj.rack)
    if prefix in ("rack", "fu"):
        if obj.type not in doc.catalog.items:
            return None
        x0, y0, x1, y1 = doc.rack_bounds(obj)
        path.addRect(QRectF(to_scene(x0, y0), to_scene(x1, y1)))
    elif prefix in ("bus", "door"):
        path.moveTo(to_scene(obj.x1, obj.y1))
        path.lineTo(to_scene(obj.x2, obj.y2))
    elif prefix in ("zone", "obs"):
        if len(obj.polygon) < 2:
            return None
        path.addPolygon(QPolygonF([to_scene(x, y) for x, y in obj.polygon]))
        path.closeSubpath()
    elif prefix in ("ho", "cmt"):
        path.addEllipse(to_scene(obj.x, obj.y), m(POINT_RADIUS_M), m(POINT_RADIUS_M))
    else:
        return None
    return path


def place_of(doc: Document, obj_id: str) -> tuple[float, float, float, float] | None:
    """Where an object is drawn, in metres (x0, y0, x1, y1); None where it has no place."""
    shape = _outline(doc, obj_id)
    if shape is None:
        return None
    rect = shape.boundingRect()
    return rect.left() / m(1), rect.top() / m(1), rect.right() / m(1), rect.bottom() / m(1)


def _centre(doc: Document, obj_id: str) -> QPointF | None:
    path = _outline(doc, obj_id)
    return path.boundingRect().center() if path is not None else None


def _arrow(path: QPainterPath, heads: QPainterPath, start: QPointF, end: QPointF) -> None:
    """A line from ``start`` to ``end`` with a filled head at ``end`` (nothing for no distance)."""
    line = QLineF(start, end)
    if line.length() < m(0.05):
        return
    path.moveTo(start)
    path.lineTo(end)
    angle = math.atan2(end.y() - start.y(), end.x() - start.x())
    size = m(ARROW_HEAD_M)
    left = QPointF(end.x() - size * math.cos(angle - 0.45), end.y() - size * math.sin(angle - 0.45))
    right = QPointF(end.x() - size * math.cos(angle + 0.45), end.y() - size * math.sin(angle + 0.45))
    heads.addPolygon(QPolygonF([end, left, right, end]))


def build_marks(old: Document, new: Document, diff: PlanDiff) -> dict[Key, QPainterPath]:
    """Every mark of a diff as one path per (kind of change, where)."""
    paths: dict[Key, QPainterPath] = {}

    def path(key: Key) -> QPainterPath:
        return paths.setdefault(key, QPainterPath())

    def add(key: Key, doc: Document, obj_id: str) -> None:
        shape = _outline(doc, obj_id)
        if shape is not None:
            path(key).addPath(shape)

    for entry in diff.added:
        add((ADDED, "place"), new, entry["id"])
    for entry in diff.removed:
        add((REMOVED, "place"), old, entry["id"])
    for entry in diff.changed:
        add((CHANGED, "place"), new, entry["id"])
    heads = QPainterPath()
    for entry in diff.moved:
        add((MOVED, "old"), old, entry["id"])
        add((MOVED, "place"), new, entry["id"])
        start, end = _centre(old, entry["id"]), _centre(new, entry["id"])
        if start is not None and end is not None:
            _arrow(path((MOVED, "arrow")), heads, start, end)
    if not heads.isEmpty():
        path((MOVED, "heads")).addPath(heads)
    for word, doc in ((ADDED, new), (REMOVED, old), (CHANGED, new)):
        entries = diff.cables["rewired" if word == CHANGED else word]
        for entry in entries:
            _cable(path((word, "cable")), doc, doc.links.get(entry["id"]))
    return {key: value for key, value in paths.items() if not value.isEmpty()}


def _cable(path: QPainterPath, doc: Document, link: Any) -> None:
    """A straight line between a cable's end racks (a cable within one rack draws nothing)."""
    if link is None:
        return
    ends = [_centre(doc, device) for device in (link.a_device, link.b_device)]
    if ends[0] is not None and ends[1] is not None and ends[0] != ends[1]:
        path.moveTo(ends[0])
        path.lineTo(ends[1])


# ------------------------------------------------------------------------------ layers
class _MarksItem(QGraphicsItem):
    """One layer of compare marks: paints the paths it is given, by where (in ``wheres`` order),
    then removed, changed, moved, added (the most telling last, on top)."""

    def __init__(self, z: float, wheres: tuple[str, ...]) -> None:
        super().__init__()
        self.setZValue(z)
        self._wheres = wheres
        self._paths: list[tuple[Key, QPainterPath]] = []
        self._rect = QRectF()

    def set_paths(self, paths: dict[Key, QPainterPath]) -> None:
        self.prepareGeometryChange()
        order = [(change, where) for where in self._wheres for change in (REMOVED, CHANGED, MOVED, ADDED)]
        self._paths = [(key, paths[key]) for key in order if key in paths]
        self._rect = QRectF()
        for _key, shape in self._paths:
            self._rect = self._rect.united(shape.boundingRect())
        self._rect = self._rect.adjusted(-_PAD, -_PAD, _PAD, _PAD) if not self._rect.isNull() else QRectF()
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, _option: QStyleOptionGraphicsItem, _widget: QWidget | None = None) -> None:
        for key, shape in self._paths:
            if key[1] == "heads":
                painter.setPen(_pen(COLOURS[key[0]], 1))
                painter.setBrush(_fill(COLOURS[key[0]], 255))
                painter.drawPath(shape)
                continue
            halo, pen, brush = _style(key)
            if halo is not None:
                painter.setPen(halo)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawPath(shape)
            painter.setPen(pen)
            painter.setBrush(brush if key[1] != "arrow" else Qt.BrushStyle.NoBrush)
            painter.drawPath(shape)


class CompareLayer:
    """The two scene layers of a comparison: ``ghosts`` under the plan, ``marks`` over it."""

    def __init__(self) -> None:
        self.ghosts = _MarksItem(Z_GHOSTS, ("place",))
        self.marks = _MarksItem(Z_MARKS, ("cable", "old", "place", "arrow", "heads"))
        self.marks_by_key: dict[Key, QPainterPath] = {}

    def items(self) -> tuple[QGraphicsItem, QGraphicsItem]:
        return self.ghosts, self.marks

    def show_diff(self, old: Document, new: Document, diff: PlanDiff) -> None:
        """Draw ``diff`` (from ``old`` to ``new``): removed objects as ghosts under the plan, the
        rest over it (a moved object's old place too: its edges would hide under its old neighbours)."""
        self.marks_by_key = build_marks(old, new, diff)
        under = {key: p for key, p in self.marks_by_key.items() if key == (REMOVED, "place")}
        over = {key: p for key, p in self.marks_by_key.items() if key not in under}
        self.ghosts.set_paths(under)
        self.marks.set_paths(over)

    def clear(self) -> None:
        self.marks_by_key = {}
        self.ghosts.set_paths({})
        self.marks.set_paths({})
