"""Overlays drawn over the plan as single items: assignment lines, a highlighted cable route,
and the preview of a gesture in progress (polygon capture, row tool, assign drag).

One item draws many lines, so a hall of hundreds of racks costs one item, not hundreds.
"""

from __future__ import annotations

import math
from typing import ClassVar

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from planner.model.document import Document
from planner.ui.plan.items import LOD_NAMES, Z_ASSIGN, colour_for, lod_of
from planner.ui.plan.units import m, to_scene

Z_ROUTE = 60
Z_PREVIEW = 70
#: Target length of the scale bar on screen, pixels.
SCALE_BAR_PIXELS = 120


def nearest_on_segment(px: float, py: float, x1: float, y1: float, x2: float, y2: float) -> tuple[float, float]:
    """The point of segment (x1, y1)–(x2, y2) nearest to (px, py)."""
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return x1, y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length2))
    return x1 + t * dx, y1 + t * dy


def assignment_lines(doc: Document) -> list[tuple[str, str, QLineF]]:
    """(target id, field, line) for every feed and loop assignment of every rack."""
    lines = []
    for rack in doc.racks.values():
        ex, ey = doc.rack_extents(rack)
        # start each line off the rack's centre so its name stays readable
        starts = {"feed_a": (rack.x - ex / 4, rack.y), "feed_b": (rack.x + ex / 4, rack.y),
                  "cdu": (rack.x, rack.y + ey / 4)}
        for field in ("feed_a", "feed_b"):
            bus = doc.busbars.get(getattr(rack, field) or "")
            if bus is not None:
                sx, sy = starts[field]
                x, y = nearest_on_segment(sx, sy, bus.x1, bus.y1, bus.x2, bus.y2)
                lines.append((bus.id, field, QLineF(to_scene(sx, sy), to_scene(x, y))))
        cdu_id = rack.cdu or ""
        target = doc.floor_units.get(cdu_id)
        if target is None and cdu_id in doc.devices:
            target = doc.racks.get(doc.devices[cdu_id].rack)
        if target is not None and target.id != rack.id:
            # to the nearest point of the CDU's footprint: racks in its row give one straight run
            sx, sy = starts["cdu"]
            x0, y0, x1, y1 = doc.rack_bounds(target)
            end = (min(max(sx, x0), x1), min(max(sy, y0), y1))
            lines.append((cdu_id, "cdu", QLineF(to_scene(sx, sy), to_scene(*end))))
    return lines


class AssignmentLayer(QGraphicsItem):
    """Thin lines from each rack to its A feed, B feed (dashed) and CDU loop (dotted)."""

    _STYLES: ClassVar[dict[str, Qt.PenStyle]] = {"feed_a": Qt.SolidLine, "feed_b": Qt.DashLine, "cdu": Qt.DotLine}

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_ASSIGN)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self._groups: dict[tuple[str, str], list[QLineF]] = {}
        self._pens: dict[tuple[str, str], tuple[QPen, QPen]] = {}
        self._bounds = QRectF()

    def rebuild(self, doc: Document) -> None:
        groups: dict[tuple[str, str], list[QLineF]] = {}
        bounds = QRectF()
        for target, field, line in assignment_lines(doc):
            groups.setdefault((target, field), []).append(line)
            bounds = bounds.united(QRectF(line.p1(), line.p2()).normalized())
        pens: dict[tuple[str, str], tuple[QPen, QPen]] = {}
        for target, field in groups:
            styled = QPen(colour_for(target), 1.5, self._STYLES[field])
            solid = QPen(colour_for(target), 1.5, Qt.SolidLine)
            styled.setCosmetic(True)
            solid.setCosmetic(True)
            pens[(target, field)] = (styled, solid)
        self.prepareGeometryChange()
        self._pens = pens
        self._groups = groups
        self._bounds = bounds.adjusted(-5, -5, 5, 5)
        self.update()

    def line_count(self) -> int:
        return sum(len(lines) for lines in self._groups.values())

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        # zoomed out, the dash patterns cost more than they tell: draw every line solid
        which = 0 if lod_of(painter) >= LOD_NAMES else 1
        for key, lines in self._groups.items():
            painter.setPen(self._pens[key][which])
            painter.drawLines(lines)


class RouteItem(QGraphicsPathItem):
    """A cable route highlighted on the plan (PlanView.show_route)."""

    def __init__(self, points_m: list[tuple[float, float]]) -> None:
        super().__init__()
        path = QPainterPath()
        if points_m:
            path.moveTo(to_scene(*points_m[0]))
            for x, y in points_m[1:]:
                path.lineTo(to_scene(x, y))
        self.setPath(path)
        pen = QPen(QColor(255, 0, 160), m(0.1), Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
        self.setPen(pen)
        self.setZValue(Z_ROUTE)
        self.setAcceptedMouseButtons(Qt.NoButton)


class PreviewItem(QGraphicsItem):
    """The outline of a gesture in progress: polygon vertices, a ghost row, an assign sweep."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_PREVIEW)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self._polyline = QPolygonF()
        self._rects: list[QRectF] = []
        self._closed = False
        self._colour = QColor(20, 110, 230)

    def set_shape(self, points: list[QPointF], rects: list[QRectF] | None = None,
                  closed: bool = False, colour: QColor | None = None) -> None:
        self.prepareGeometryChange()
        self._polyline = QPolygonF(points)
        self._rects = list(rects or [])
        self._closed = closed
        if colour is not None:
            self._colour = colour
        self.update()

    def clear(self) -> None:
        self.set_shape([])

    def boundingRect(self) -> QRectF:
        box = self._polyline.boundingRect()
        for rect in self._rects:
            box = box.united(rect)
        return box.adjusted(-20, -20, 20, 20)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        pen = QPen(self._colour, 2, Qt.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        fill = QColor(self._colour)
        fill.setAlphaF(0.15)
        painter.setBrush(fill)
        for rect in self._rects:
            painter.drawRect(rect)
        painter.setBrush(Qt.NoBrush)
        if self._closed:
            painter.drawPolygon(self._polyline)
        else:
            painter.drawPolyline(self._polyline)
        painter.setBrush(self._colour)
        for point in self._polyline:
            painter.drawEllipse(point, 5, 5)


def nice_length(target_m: float) -> float:
    """The 1-2-5 series length nearest below ``target_m`` (for the scale bar)."""
    exponent = math.floor(math.log10(target_m))
    for factor in (5, 2, 1):
        if factor * 10 ** exponent <= target_m:
            return factor * 10 ** exponent
    return 10 ** exponent


def paint_scale_bar(painter: QPainter, viewport_height: int, pixels_per_m: float) -> None:
    """A 1-2-5 scale bar in the bottom-left corner of the viewport (device coordinates)."""
    if pixels_per_m <= 0:
        return
    length_m = nice_length(SCALE_BAR_PIXELS / pixels_per_m)
    length_px = length_m * pixels_per_m
    painter.save()
    painter.resetTransform()
    x0, y0 = 16.0, viewport_height - 20.0
    painter.setRenderHint(QPainter.Antialiasing, True)
    painter.fillRect(QRectF(x0 - 8, y0 - 26, length_px + 16, 34), QColor(255, 255, 255, 215))
    painter.setPen(QPen(QColor(20, 20, 20), 2))
    painter.drawLine(QPointF(x0, y0), QPointF(x0 + length_px, y0))
    for x in (x0, x0 + length_px / 2, x0 + length_px):
        painter.drawLine(QPointF(x, y0 - 5), QPointF(x, y0 + 1))
    font = painter.font()
    font.setPixelSize(12)
    painter.setFont(font)
    label = f"{length_m:g} m" if length_m >= 1 else f"{length_m * 100:g} cm"
    painter.drawText(QRectF(x0, y0 - 24, length_px, 16), Qt.AlignCenter, label)
    painter.restore()
