"""The plan's 1-2-5 scale bar, placed where it covers nothing of the hall (issue 20).

It used to sit in the bottom-left corner whatever lay there, covering CDU and rack names at fit
view. Now the box goes in the first of a few places along the viewport's edges (the corners
first, bottom-left preferred) whose box meets no plan item: no rack, floor unit, busbar and its
label, door, column or hand-off, and no floor zone's edge or label (a zone is met by its shape,
not by the floor it covers). The fit leaves a margin round the hall, so at fit view a free place
is usually a corner in it. Where every place is taken (zoomed in on a dense row), the one
covering the least wins. The place chosen last is kept while it stays free, so the bar does not
hop about as the view pans.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsView

from planner.ui.plan.hall_items import ZoneItem
from planner.ui.plan.items import PlanItem

#: The bar's length aims at this many pixels, rounded down to the 1-2-5 series.
SCALE_BAR_PIXELS = 120
#: Gap (px) between the box and the viewport's edge, and the box's padding round the bar.
EDGE_GAP, PADDING = 8.0, 8.0
BOX_HEIGHT = 34.0
#: Where along the bottom and top edges the box may go (0 left, 1 right), in order of preference.
ALONG = (0.0, 1.0, 0.5, 0.25, 0.75)


def nice_length(target_m: float) -> float:
    """The 1-2-5 series length nearest below ``target_m``."""
    exponent = math.floor(math.log10(target_m))
    for factor in (5, 2, 1):
        if factor * 10 ** exponent <= target_m:
            return factor * 10 ** exponent
    return 10 ** exponent


def bar_length(pixels_per_m: float) -> tuple[float, float]:
    """(metres, pixels) of the bar at this zoom."""
    length_m = nice_length(SCALE_BAR_PIXELS / pixels_per_m)
    return length_m, length_m * pixels_per_m


def label_of(length_m: float) -> str:
    return f"{length_m:g} m" if length_m >= 1 else f"{length_m * 100:g} cm"


def _font() -> QFont:
    font = QFont()
    font.setPixelSize(12)
    return font


def box_size(pixels_per_m: float) -> tuple[float, float]:
    length_m, length_px = bar_length(pixels_per_m)
    text = QFontMetricsF(_font()).horizontalAdvance(label_of(length_m))
    return max(length_px, text) + 2 * PADDING, BOX_HEIGHT


def candidates(view: QGraphicsView, width: float, height: float) -> list[QRectF]:
    """The places the box may take, in viewport pixels, best first: bottom edge, then top."""
    area = QRectF(view.viewport().rect())
    span = max(0.0, area.width() - 2 * EDGE_GAP - width)
    places = []
    for top in (area.bottom() - EDGE_GAP - height, area.top() + EDGE_GAP):
        for along in ALONG:
            places.append(QRectF(area.left() + EDGE_GAP + span * along, top, width, height))
    return places


def covered(view: QGraphicsView, box: QRectF) -> float:
    """How much of the plan's content ``box`` (viewport pixels) would cover: the summed areas of
    the items' boxes it meets, in square pixels (0: it covers nothing)."""
    scene = view.scene()
    if scene is None:
        return 0.0
    polygon = view.mapToScene(box.toAlignedRect())
    path = QPainterPath()
    path.addPolygon(polygon)
    total = 0.0
    for item in scene.items(polygon, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
        if not isinstance(item, PlanItem) or not item.isVisible():
            continue
        if isinstance(item, ZoneItem):
            if not item.collidesWithPath(item.mapFromScene(path), Qt.ItemSelectionMode.IntersectsItemShape):
                continue  # over the zone's floor, clear of its edge and its label
            # a zone is as big as the hall: crossing its edge costs little, covering its label its area
            label = view.mapFromScene(item.mapRectToScene(item.label_rect())).boundingRect()
            overlap = QRectF(label).intersected(box)
            total += 1.0 + max(overlap.width(), 0.0) * max(overlap.height(), 0.0)
            continue
        shown = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
        overlap = QRectF(shown).intersected(box)
        total += max(overlap.width() * overlap.height(), 1.0)
    return total


def place(view: QGraphicsView, pixels_per_m: float, last: QRectF | None = None) -> QRectF:
    """Where the box goes now (viewport pixels): ``last`` while it is still free and in view,
    else the first free place, else the least covering one."""
    width, height = box_size(pixels_per_m)
    places = candidates(view, width, height)
    if last is not None and last.size() == places[0].size() and any(last == p for p in places) \
            and covered(view, last) == 0:
        return last
    best, least = places[0], None
    for box in places:
        cover = covered(view, box)
        if cover == 0:
            return box
        if least is None or cover < least:
            best, least = box, cover
    return best


def paint(painter: QPainter, box: QRectF, pixels_per_m: float) -> None:
    """The bar in ``box`` (device pixels): a white panel, the bar with end and middle ticks, and
    its length written over it."""
    length_m, length_px = bar_length(pixels_per_m)
    painter.save()
    painter.resetTransform()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.fillRect(box, QColor(255, 255, 255, 215))
    x0 = box.center().x() - length_px / 2
    y0 = box.bottom() - 8
    painter.setPen(QPen(QColor(20, 20, 20), 2))
    painter.drawLine(QPointF(x0, y0), QPointF(x0 + length_px, y0))
    for x in (x0, x0 + length_px / 2, x0 + length_px):
        painter.drawLine(QPointF(x, y0 - 5), QPointF(x, y0 + 1))
    painter.setFont(_font())
    painter.drawText(QRectF(box.left(), box.top() + 2, box.width(), 16), Qt.AlignmentFlag.AlignCenter,
                     label_of(length_m))
    painter.restore()
