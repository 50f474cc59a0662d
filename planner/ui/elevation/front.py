"""Painting the rack elevation's front, and keeping it as a picture between edits of the rack.

A network rack of a 32k-GPU hall shows 49 switches with 2,400 port markers; painting them took
25 ms, and the elevation was painted again after every edit anywhere in the plan: its layer of
finding marks is a transparent child, so a mark that changed (a cable of a switch in it getting
longer when any rack moved) repaints the elevation under it, and so does a relayout of the
window. What the front shows changes only with the rack shown (``set_rack``, which the dock calls
for every edit of the rack, its devices or their cables), the selection among its devices, the
port picked for cabling, the device dragged, the widget's size and its palette and font. So it is
painted once into a pixmap for those, and a repaint for anything else copies the pixmap. The
ghost of a drag or drop is drawn over the copy, as it was drawn over the front, so a drag's
every mouse move does not paint the front again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen, QPixmap

from planner.fabric.hand_commands import end_words
from planner.model.catalog import NODE, RACK_CDU, RACK_MANIFOLD, RACK_PDU, STORAGE, SWITCH
from planner.ui.elevation.ports import paint_ports, strip_left

if TYPE_CHECKING:
    from planner.ui.elevation.dock import ElevationWidget

#: Geometry of the front, in widget pixels (the widget's own methods place the units and slots).
LEFT = 36
TOP = 28
BAY_WIDTH = 200
CHANNEL_WIDTH = 34
#: How much wider than the widget the front is painted (pixels of background).
SPARE_WIDTH = 64
KIND_COLOURS = {NODE: "#cfe8cf", SWITCH: "#cfe0f5", STORAGE: "#e3d7f0", RACK_PDU: "#f6dcc0", RACK_CDU: "#c9ecec",
                RACK_MANIFOLD: "#bfe3f5"}


class FrontPicture:
    """The elevation's front as last painted, and what it was painted for."""

    def __init__(self) -> None:
        self._pixmap: QPixmap | None = None
        self._key: tuple[Any, ...] | None = None
        self._width = 0

    def forget(self) -> None:
        """The rack shown, or what it holds, changed: paint the front afresh next time."""
        self._pixmap = self._key = None

    def pixmap(self, widget: ElevationWidget) -> QPixmap:
        """The front as it is now: the kept picture, or a new one when anything it shows changed."""
        key = self._key_of(widget)
        if self._pixmap is None or key != self._key or widget.width() > self._width:
            # a rack's front is as wide whatever the widget's width (only the background is
            # wider): painted SPARE_WIDTH wider, it still serves when a relayout of the window
            # widens the dock a little
            width = widget.width() + (SPARE_WIDTH if widget.rack_id is not None else 0)
            ratio = widget.devicePixelRatioF()
            pixmap = QPixmap(QSize(width, widget.height()) * ratio)
            pixmap.setDevicePixelRatio(ratio)
            painter = QPainter(pixmap)
            # what a painter on the widget starts with: its text colour, background and font
            palette = widget.palette()
            painter.setPen(palette.color(widget.foregroundRole()))
            painter.setBackground(palette.brush(widget.backgroundRole()))
            painter.setFont(widget.font())
            try:
                paint_front(widget, painter, QRect(0, 0, width, widget.height()))
            finally:
                painter.end()
            self._pixmap, self._key, self._width = pixmap, key, width
        return self._pixmap

    @staticmethod
    def _key_of(widget: ElevationWidget) -> tuple[Any, ...]:
        doc, picked = widget.doc, widget.picked
        palette = widget.palette()
        away = end_words(doc, *picked) if picked is not None and picked[0] not in widget.device_ids \
            and picked[0] in doc.devices else None  # a pick in another rack is named in the title
        # the hint without a rack wraps to the width in view; a rack's front depends on its height
        size = widget.height() if widget.rack_id is not None else (widget.size(), _in_view(widget).width())
        return (id(doc), widget.rack_id, size, widget.devicePixelRatioF(),
                frozenset(widget.session.selection & widget.device_ids), picked, away,
                widget.dragged_device(), palette.cacheKey(), palette.currentColorGroup(), widget.font().key())


def _in_view(widget: ElevationWidget) -> QRect:
    """The part of the widget its scroll area shows (the widget keeps a rack's width, wider than
    a narrow dock), or all of it when it is not shown."""
    visible = widget.visibleRegion().boundingRect()
    return QRect(0, 0, visible.right() + 1, widget.height()) if not visible.isEmpty() else widget.rect()


def paint_front(widget: ElevationWidget, painter: QPainter, area: QRect) -> None:
    """Paint one rack's front elevation (or the hint to select one) as the widget shows it, its
    background over ``area``."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.fillRect(area, widget.palette().base())
    if widget.rack_id is None:
        painter.setPen(widget.palette().placeholderText().color())
        painter.drawText(_in_view(widget).adjusted(12, 12, -12, -12), Qt.TextFlag.TextWordWrap,
                         "Select a rack (or a device in it) to see its front elevation.")
        return
    doc = widget.doc
    rack = doc.racks[widget.rack_id]
    total = widget.rack_units()
    px_per_u = widget.px_per_u
    text_colour = widget.palette().text().color()
    painter.setPen(text_colour)
    bold = painter.font()
    bold.setBold(True)
    painter.setFont(bold)
    painter.drawText(QRectF(LEFT, 4, BAY_WIDTH + CHANNEL_WIDTH, TOP - 8), Qt.AlignmentFlag.AlignLeft,
                     f"{rack.name} — front, {total}U")
    bold.setBold(False)
    picked = widget.picked
    if picked is not None and picked[0] not in widget.device_ids and picked[0] in doc.devices:
        painter.setFont(bold)
        painter.setPen(QColor("#1f5fbf"))  # the pick made in another rack, waiting for its far end
        painter.drawText(QRectF(LEFT, 4, BAY_WIDTH + CHANNEL_WIDTH, TOP - 8), Qt.AlignmentFlag.AlignRight,
                         f"from {end_words(doc, *picked)}")
        painter.setPen(text_colour)
    small = bold
    small.setPointSizeF(max(6.5, bold.pointSizeF() * 0.8))
    painter.setFont(small)
    frame = QRectF(LEFT, TOP, BAY_WIDTH, total * px_per_u)
    painter.fillRect(frame, QColor("#f4f4f4"))
    grid = QPen(QColor("#d8d8d8"))
    metrics = QFontMetrics(small)
    step = next(s for s in (1, 2, 5, 10) if s * px_per_u >= metrics.height() * 0.9 or s == 10)
    for u in range(1, total + 1):
        rect = widget.u_rect(u, 1)
        painter.setPen(grid)
        painter.drawLine(rect.topLeft(), rect.topRight())
        if u % step:
            continue
        painter.setPen(text_colour)
        painter.drawText(QRectF(0, rect.top(), LEFT - 6, px_per_u),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(u))
    painter.setPen(QPen(text_colour, 1.5))
    painter.drawRect(frame)
    painter.drawRect(QRectF(LEFT + BAY_WIDTH, TOP, CHANNEL_WIDTH, total * px_per_u))
    selection = widget.session.selection
    dragged = widget.dragged_device()
    devices = doc.devices_in(widget.rack_id)
    zero_index = 0
    zero_count = sum(1 for d in devices if doc.catalog[d.type].height_u == 0)
    for device in devices:
        item = doc.catalog[device.type]
        if item.height_u == 0:
            rect = widget.channel_rect(zero_index, zero_count)
            zero_index += 1
            label = device.name
        else:
            rect = widget.u_rect(device.u, item.height_u).adjusted(2, 1, -2, -1)
            label = f"{device.name}  {item.name}"
        painter.setBrush(QColor(KIND_COLOURS.get(item.kind, "#e0e0e0")).darker(115 if device.id == dragged else 100))
        painter.setPen(QPen(QColor("#1f5fbf") if device.id in selection else QColor("#555555"),
                            2.5 if device.id in selection else 1))
        painter.drawRect(rect)
        painter.setPen(text_colour)
        if item.height_u == 0:
            painter.save()
            painter.translate(rect.center())
            painter.rotate(-90)
            painter.drawText(QRectF(-rect.height() / 2, -rect.width() / 2, rect.height(), rect.width()),
                             Qt.AlignmentFlag.AlignCenter, metrics.elidedText(label, Qt.TextElideMode.ElideRight,
                                                                              int(rect.height())))
            painter.restore()
        else:
            cells = widget.port_cells(device)
            width = strip_left(cells, rect) - rect.left() - 10
            painter.drawText(rect.adjusted(6, 0, -4, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(width)))
            if cells:
                paint_ports(painter, doc, device.id, cells, picked)
