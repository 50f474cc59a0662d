"""A highlighted cable route on the plan: the path along the trays in a colour no other mark
uses, over a casing and a halo, its two racks outlined and its ends named at the drops.
"""

from __future__ import annotations

import itertools

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from planner.ui.plan.units import BUNDLE_OFFSET_M, RAIL_OFFSET_M, m, to_scene


def _route_pen(colour: QColor, width: float, cap: Qt.PenCapStyle = Qt.PenCapStyle.RoundCap) -> QPen:
    pen = QPen(colour, width, Qt.PenStyle.SolidLine, cap, Qt.PenJoinStyle.RoundJoin)
    pen.setCosmetic(True)
    return pen


Z_ROUTE = 65
#: The highlighted cable route's colour, reserved for it: no rail, busbar, CDU, load band or
#: finding uses it. Drawn over a black casing and a white halo, so it also reads in black and white.
ROUTE_COLOUR = QColor(255, 0, 255)
#: The route lies on the middle of the cable layer's bundle (rails 1–8 and the core rail).
ROUTE_OFFSET_M = BUNDLE_OFFSET_M + 5 * RAIL_OFFSET_M
#: Drop markers' radius (screen pixels) and the route's painted margin around its path (m).
ROUTE_MARKER_PIXELS = 8.0
ROUTE_PAD_M = 1.5
_ROUTE_HALO = _route_pen(QColor(255, 255, 255), 12)
_ROUTE_CASING = _route_pen(QColor(0, 0, 0), 8)
_ROUTE_RACK_HALO = _route_pen(QColor(255, 255, 255), 8, Qt.PenCapStyle.SquareCap)
_ROUTE_RACK = _route_pen(ROUTE_COLOUR, 4, Qt.PenCapStyle.SquareCap)
_ROUTE_FONT = QFont("DejaVu Sans")
_ROUTE_FONT.setPixelSize(12)
_ROUTE_FONT.setBold(True)
def route_on_tray(points_m: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A cable's plan polyline (``Router.tray_path``: rack centre, crossings, rack centre) moved
    across each tray onto the cable layer's bundle, as ``CableLayer`` draws it: a leg along x is
    moved by ROUTE_OFFSET_M in y, a leg along y in x, and a corner by both."""
    if len(points_m) < 2:
        return list(points_m)
    along_x = [abs(y2 - y1) <= abs(x2 - x1) for (x1, y1), (x2, y2) in itertools.pairwise(points_m)]
    out = []
    for k, (x, y) in enumerate(points_m):
        legs = along_x[max(0, k - 1):k + 1]
        dx = ROUTE_OFFSET_M if not all(legs) else 0.0
        dy = ROUTE_OFFSET_M if any(legs) else 0.0
        out.append((round(x + dx, 6), round(y + dy, 6)))
    return out


class RouteEndLabel(QGraphicsItem):
    """What a route end is (device, U, rack) on a white plate, a fixed size on screen beside its
    drop marker (a child of the route, ignoring the view's zoom)."""

    def __init__(self, parent: QGraphicsItem, text: str, below: bool) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.text = text
        metrics = QFontMetricsF(_ROUTE_FONT)
        width, height = metrics.horizontalAdvance(text) + 8, metrics.height() + 4
        top = ROUTE_MARKER_PIXELS + 3 if below else -ROUTE_MARKER_PIXELS - 3 - height
        self._plate = QRectF(-width / 2, top, width, height)

    def boundingRect(self) -> QRectF:
        return self._plate.adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setPen(_route_pen(ROUTE_COLOUR, 1.5))
        painter.setBrush(QColor(255, 255, 255, 240))
        painter.drawRect(self._plate)
        painter.setPen(QColor(0, 0, 0))
        painter.setFont(_ROUTE_FONT)
        painter.drawText(self._plate, Qt.AlignmentFlag.AlignCenter, self.text)


class RouteItem(QGraphicsPathItem):
    """A cable route highlighted on the plan (PlanView.show_route): the polyline along its row and
    cross-aisle trays, on the drawn tray bundle (``route_on_tray``), in ROUTE_COLOUR over a black
    casing and a white halo (so it reads over any fill, and in black and white); a ringed marker
    where the cable drops into each end rack, and those racks outlined in the same colour."""

    def __init__(self, points_m: list[tuple[float, float]], end_racks: list[QRectF] | None = None,
                 end_labels: tuple[str, ...] | None = None) -> None:
        super().__init__()
        self.points_m = route_on_tray(points_m)
        path = QPainterPath()
        if self.points_m:
            path.moveTo(to_scene(*self.points_m[0]))
            for x, y in self.points_m[1:]:
                path.lineTo(to_scene(x, y))
        self.setPath(path)
        self.setPen(_route_pen(ROUTE_COLOUR, 5))
        self.end_racks = list(end_racks or [])
        self._ends = [to_scene(*self.points_m[0]), to_scene(*self.points_m[-1])] if self.points_m else []
        box = path.boundingRect() if self.points_m else QRectF()
        for rect in self.end_racks:
            box = box.united(rect)
        pad = m(ROUTE_PAD_M)
        self._bounds = box.adjusted(-pad, -pad, pad, pad)
        self.setZValue(Z_ROUTE)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.labels: list[RouteEndLabel] = []
        if end_labels and self._ends:
            # end A's label above its marker, end B's below (they never sit on each other)
            for point, text, below in zip(self._ends, end_labels, (False, True)):
                label = RouteEndLabel(self, text, below)
                label.setPos(point)
                self.labels.append(label)

    def route_rect(self) -> QRectF:
        """What the route covers on the plan: its path and its end racks (scene units)."""
        box = self.path().boundingRect() if self.points_m else QRectF()
        for rect in self.end_racks:
            box = box.united(rect)
        return box

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        return self.path()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen in (_ROUTE_RACK_HALO, _ROUTE_RACK):
            painter.setPen(pen)
            for rect in self.end_racks:
                painter.drawRect(rect)
        path = self.path()
        for pen in (_ROUTE_HALO, _ROUTE_CASING, self.pen()):
            painter.setPen(pen)
            painter.drawPath(path)
        # the drops: a ring at each end, a fixed size on screen
        scale = painter.worldTransform().m11() or 1.0
        r = ROUTE_MARKER_PIXELS / scale
        for point in self._ends:
            painter.setPen(_route_pen(QColor(0, 0, 0), 7))
            painter.setBrush(QColor(255, 255, 255))
            painter.drawEllipse(point, r, r)
            painter.setPen(_route_pen(ROUTE_COLOUR, 4))
            painter.drawEllipse(point, r, r)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0))
            painter.drawEllipse(point, r / 2.5, r / 2.5)
