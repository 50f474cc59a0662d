"""The hall's features on the plan: floor zones, columns and walls, doors, and the hand-offs
where the facility's services reach the hall. Like every plan item each holds only an id and
draws from the model (``items.PlanItem``).
"""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from planner.ui.plan.items import (
    _LABEL_FONT,
    _SMALL_FONT,
    LOD_DETAIL,
    LOD_NAMES,
    Z_MARK,
    Z_OBSTACLE,
    Z_ZONE,
    PlanItem,
    lod_of,
)
from planner.ui.plan.units import m, to_scene

_ZONE_FONT = QFont("DejaVu Sans")
_ZONE_FONT.setPixelSize(32)


def zone_tint(rating_kpa: float) -> QColor:
    """Floor zones tinted by rating: weak floors warm, strong floors cool (alpha kept light)."""
    low, high = 5.0, 20.0
    t = min(1.0, max(0.0, (rating_kpa - low) / (high - low)))
    return QColor.fromHsvF(0.02 + 0.5 * t, 0.45, 0.95, 0.22)


class ZoneItem(PlanItem):
    """A floor zone tinted by its rating, labelled with it; picked by its edge or label."""

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__(doc_provider, obj_id)
        self.setZValue(Z_ZONE)
        self._polygon = QPolygonF()
        self.sync()

    def sync(self) -> None:
        polygon = QPolygonF([to_scene(x, y) for x, y in self.model().polygon])
        self.prepareGeometryChange()
        self._polygon = polygon
        self.setPos(0, 0)  # a drag previews by displacing the item; the model holds the corners
        self.update()

    def boundingRect(self) -> QRectF:
        return self._polygon.boundingRect().adjusted(-10, -10, 10, 10)

    def label_rect(self) -> QRectF:
        box = self._polygon.boundingRect()
        return QRectF(box.x() + m(0.2), box.bottom() - m(0.7), min(box.width() - m(0.4), m(9)), m(0.6))

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(self._polygon)
        path.closeSubpath()
        stroker = QPainterPathStroker()
        stroker.setWidth(m(0.2))
        edge = stroker.createStroke(path)
        edge.addRect(self.label_rect())
        return edge

    def label(self) -> str:
        zone = self.model()
        text = f"{zone.name} · {zone.rating_kpa:.1f} kPa"
        if zone.raised:
            text += f" · tile {zone.tile_rating_kn:.1f} kN"
        return text

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        zone = self.model()
        tint = zone_tint(zone.rating_kpa)
        ink = tint.darker(250)
        ink.setAlpha(255)
        painter.setPen(self.outline_pen(ink))
        painter.setBrush(tint)
        painter.drawPolygon(self._polygon)
        if lod_of(painter) * _ZONE_FONT.pixelSize() >= 7:
            painter.setFont(_ZONE_FONT)
            painter.setPen(ink)
            painter.drawText(self.label_rect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.label())


class ObstacleItem(PlanItem):
    """A column or wall: solid dark fill, drawn over racks (a column where a rack stands shows)."""

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__(doc_provider, obj_id)
        self.setZValue(Z_OBSTACLE)
        self._polygon = QPolygonF()
        self.sync()

    def sync(self) -> None:
        self.prepareGeometryChange()
        self._polygon = QPolygonF([to_scene(x, y) for x, y in self.model().polygon])
        self.setPos(0, 0)  # a drag previews by displacing the item; the model holds the corners
        self.update()

    def boundingRect(self) -> QRectF:
        return self._polygon.boundingRect().adjusted(-4, -4, 4, 4)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addPolygon(self._polygon)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(self.outline_pen(QColor(40, 40, 40)))
        painter.setBrush(QBrush(QColor(90, 90, 95), Qt.BrushStyle.SolidPattern))
        painter.drawPolygon(self._polygon)
        if lod_of(painter) >= LOD_DETAIL:
            painter.setFont(_SMALL_FONT)
            painter.setPen(QColor("white"))
            painter.drawText(self._polygon.boundingRect(), Qt.AlignmentFlag.AlignCenter, self.model().name)


class DoorItem(PlanItem):
    """A door in the hall wall: a thick gap line with its name."""

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__(doc_provider, obj_id)
        self.setZValue(Z_MARK)
        self._line = QLineF()
        self.sync()

    def sync(self) -> None:
        door = self.model()
        self.prepareGeometryChange()
        self._line = QLineF(to_scene(door.x1, door.y1), to_scene(door.x2, door.y2))
        self.setPos(0, 0)  # a drag previews by displacing the item; the model holds the ends
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(self._line.p1(), self._line.p2()).normalized().adjusted(-40, -40, 40, 40)

    def shape(self) -> QPainterPath:
        path = QPainterPath(self._line.p1())
        path.lineTo(self._line.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(m(0.3))
        return stroker.createStroke(path)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if self.isSelected() or self.severity:
            painter.setPen(self.outline_pen(QColor("black")))
            painter.drawLine(self._line)
        painter.setPen(QPen(QColor(0, 140, 90), m(0.2), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawLine(self._line)
        if lod_of(painter) >= LOD_NAMES:
            painter.setFont(_LABEL_FONT)
            painter.setPen(QColor(0, 100, 60))
            mid = self._line.center()
            painter.drawText(QPointF(mid.x() + m(0.2), mid.y()), self.model().name)


class HandOffItem(PlanItem):
    """Where facility power, coolant or network enters: a lettered disc."""

    RADIUS = m(0.25)
    _STYLE: ClassVar[dict[str, tuple[str, QColor]]] = {"power": ("P", QColor(230, 160, 20)), "coolant": ("C", QColor(30, 150, 220)),
              "network": ("N", QColor(120, 80, 200))}

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__(doc_provider, obj_id)
        self.setZValue(Z_MARK)
        self.sync()

    def sync(self) -> None:
        handoff = self.model()
        self.prepareGeometryChange()
        self._label_box = self.label_rect().adjusted(-2, -2, 2, 2)
        self.setPos(to_scene(handoff.x, handoff.y))
        self.update()

    def boundingRect(self) -> QRectF:
        r = self.RADIUS + 4
        return QRectF(-r, -r, 2 * r, 2 * r).united(self._label_box)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
        return path

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        handoff = self.model()
        letter, colour = self._STYLE.get(handoff.kind, ("?", QColor(120, 120, 120)))
        painter.setPen(self.outline_pen(colour.darker(150)))
        painter.setBrush(colour)
        painter.drawEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
        if lod_of(painter) >= LOD_NAMES:
            painter.setPen(QColor("white"))
            painter.setFont(_ZONE_FONT)
            painter.drawText(self.boundingRect(), Qt.AlignmentFlag.AlignCenter, letter)
        if lod_of(painter) >= LOD_DETAIL:
            painter.setPen(colour.darker(160))
            painter.setFont(_SMALL_FONT)
            painter.drawText(self.label_rect(), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, handoff.name)

    def label_rect(self) -> QRectF:
        """The name, centred under the disc (beside it, it ran under the next hand-off's disc)."""
        width = QFontMetricsF(_SMALL_FONT).horizontalAdvance(self.model().name) + 2
        return QRectF(-width / 2, self.RADIUS + 2, width, _SMALL_FONT.pixelSize() * 1.4)
