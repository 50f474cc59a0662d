"""Scene items of the floor plan: the base item, racks, floor units and busbar runs (the hall's
features are ``hall_items``). Each holds only an object id and draws from the model.

``sync()`` re-reads the model (position, footprint, rotation) after a Change names the id;
``paint`` reads names and figures from the document. Level of detail: below a few pixels per
metre only fills and front edges are drawn; names and small details appear when zoomed in.

There a repaint's cost is Qt calling into Python once per item (7 µs, 8 ms for the 1,136 racks
of a 32k-GPU hall), so racks and floor units are drawn by one batch item instead
(``overlays.FootprintBatch``), told of model changes through ``FootprintItem.observer``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
)
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from planner.model.catalog import ROW_CDU
from planner.model.geometry import FRONT_DIRECTION, extents
from planner.ui.plan.units import m, to_scene

if TYPE_CHECKING:
    from planner.model.document import Document

#: Level of detail (screen pixels per scene unit, i.e. per cm) above which names are drawn.
LOD_NAMES = 0.6
#: ... and above which small details (figures, badges, U summary) are drawn.
LOD_DETAIL = 1.5
#: Footprint names are sized to fit, at most this size (scene units, cm), and drawn only
#: when at least MIN_TEXT_PIXELS tall on screen.
NAME_FONT_MAX = 24
MIN_TEXT_PIXELS = 8

#: A trunk tray's cable bundle starts this far (m) past a network rack's centre (the cable
#: layer's BUNDLE_OFFSET_M): the rack's name keeps short of it.
TRUNK_CLEAR_M = 0.2

#: Drawn width of a busbar run, scene units (8 cm).
BUSBAR_WIDTH = m(0.08)

#: Columns and walls lie over racks and floor units: one standing where a rack is must show.
Z_ZONE, Z_MARK, Z_FLOOR, Z_OBSTACLE, Z_BUSBAR, Z_ASSIGN = 0, 6, 20, 25, 30, 40

SEVERITY_COLOURS = {"error": QColor(215, 30, 30), "warning": QColor(235, 150, 0)}
SELECTION_COLOUR = QColor(20, 110, 230)

_LABEL_FONT = QFont("DejaVu Sans")
_LABEL_FONT.setPixelSize(14)
_SMALL_FONT = QFont("DejaVu Sans")
_SMALL_FONT.setPixelSize(9)

_ASSIGN_COLOURS = [
    QColor(214, 39, 40), QColor(31, 119, 180), QColor(44, 160, 44), QColor(148, 103, 189),
    QColor(255, 127, 14), QColor(23, 190, 207), QColor(140, 86, 75), QColor(227, 119, 194),
]


def colour_for(obj_id: str) -> QColor:
    """A stable colour per busbar or CDU, so its assignment lines read as one family."""
    digest = hashlib.blake2s(obj_id.encode(), digest_size=2).digest()
    return _ASSIGN_COLOURS[digest[0] % len(_ASSIGN_COLOURS)]


def lod_of(painter: QPainter) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


def _cosmetic(colour: QColor, width: float = 0.0, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


#: Pens made once: a full repaint of a large hall paints hundreds of footprints.
SELECTION_PEN = _cosmetic(SELECTION_COLOUR, 3)
SEVERITY_PENS = {name: _cosmetic(colour, 3) for name, colour in SEVERITY_COLOURS.items()}
_TEXT_COLOUR = QColor(20, 20, 30)
_ROW_CDU_FILL, _CABINET_FILL = QColor(200, 238, 245), QColor(250, 225, 195)
_EDGE = QColor(60, 60, 70)
EDGE_PEN = _cosmetic(_EDGE, 1)
FRONT_PEN = _cosmetic(_EDGE, 3)


class PlanItem(QGraphicsItem):
    """Base of every plan item: an id, access to the document, selection and finding marks."""

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__()
        self._doc_provider = doc_provider
        self.obj_id = obj_id
        self.severity = ""
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setData(0, obj_id)

    @property
    def doc(self) -> Document:
        return self._doc_provider()

    def model(self):
        return self.doc.get(self.obj_id)

    def sync(self) -> None:
        """Re-read geometry from the model."""
        self.update()

    def set_severity(self, severity: str) -> None:
        if severity != self.severity:
            self.severity = severity
            self.update()

    def outline_pen(self, normal: QColor | QPen) -> QPen:
        if self.isSelected():
            return SELECTION_PEN
        if self.severity in SEVERITY_PENS:
            return SEVERITY_PENS[self.severity]
        return normal if isinstance(normal, QPen) else _cosmetic(normal, 1)


#: Drawn around a footprint (its cosmetic outline, a badge on its corner), scene units. The
#: bounding rect stays this close: a rubber band selects what wholly encloses it.
_BOUNDS_MARGIN = 8


class FootprintItem(PlanItem):
    """A rack or floor unit: a rectangle at the object's centre, front edge marked."""

    fill = QColor(235, 235, 240)

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__(doc_provider, obj_id)
        self.setZValue(Z_FLOOR)
        self._rect = QRectF()
        self._bounds = QRectF()
        self._front = QLineF()
        #: Told when the model changes what the item looks like zoomed out (the footprint batch;
        #: the scene reports selection and marks, the view drag previews). Not an ``itemChange``
        #: override: that makes Qt call Python for every flag and state change of every item,
        #: 9 ms each time the view switches 1,136 racks to or from the batch.
        self.observer: Callable[[FootprintItem], None] | None = None
        self.sync()

    def sync(self) -> None:
        obj = self.model()
        item = self.doc.catalog[obj.type]
        ex, ey = extents(item.width_m, item.depth_m, obj.rotation)
        rect = QRectF(-m(ex) / 2, -m(ey) / 2, m(ex), m(ey))
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            self._bounds = rect.adjusted(-_BOUNDS_MARGIN, -_BOUNDS_MARGIN, _BOUNDS_MARGIN, _BOUNDS_MARGIN)
        fx, fy = FRONT_DIRECTION[obj.rotation % 360]
        hx, hy = m(ex) / 2, m(ey) / 2
        if fx == 0:
            y = fy * hy
            self._front = QLineF(-hx, y, hx, y)
        else:
            x = fx * hx
            self._front = QLineF(x, -hy, x, hy)
        self._name_box = self.name_box(obj.rotation)
        self._name_font = QFont(_LABEL_FONT)
        fitting = self._name_box.width() / (0.65 * max(3, len(obj.name)))
        self._name_font.setPixelSize(max(6, min(NAME_FONT_MAX, int(fitting))))
        self._badge = QRectF()
        self.setPos(to_scene(obj.x, obj.y))
        self.update()
        if self.observer is not None:
            self.observer(self)

    def footprint(self) -> tuple[QRectF, QLineF]:
        """The footprint and its front edge in scene coordinates."""
        pos = self.pos()
        return self._rect.translated(pos), self._front.translated(pos)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRect(self._rect)
        return path

    def fill_colour(self) -> QColor:
        return self.fill

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        lod = lod_of(painter)
        painter.setPen(self.outline_pen(EDGE_PEN))
        painter.setBrush(self.fill_colour())
        painter.drawRect(self._rect)
        painter.setPen(FRONT_PEN)
        painter.drawLine(self._front)
        if lod * self._name_font.pixelSize() >= MIN_TEXT_PIXELS:
            self.paint_labels(painter, lod)
        if self.severity and lod >= LOD_NAMES:
            self._paint_badge(painter, lod)

    def name_box(self, rotation: int) -> QRectF:
        """Where the name is written (the footprint; racks keep clear of trunk trays)."""
        return QRectF(self._rect)

    def name_rect(self, lod: float) -> QRectF:
        """The name's drawn extent at this level of detail (scene units)."""
        metrics = QFontMetricsF(self._name_font)
        name = self.model().name
        width, height = metrics.horizontalAdvance(name), metrics.height()
        box = self._name_box
        return QRectF(box.center().x() - width / 2, box.center().y() - height / 2, width, height)

    def badge_rect(self, lod: float) -> QRectF:
        """Where the finding badge goes: the first corner of the footprint clear of the name (the
        name wins), else a smaller one on the top-right corner (within the item's margin)."""
        r = min(self._rect.width(), self._rect.height()) * 0.18
        inset = QPointF(r * 1.2, r * 1.2)
        name = self.name_rect(lod) if lod * self._name_font.pixelSize() >= MIN_TEXT_PIXELS else QRectF()
        rect = self._rect
        corners = (rect.topRight() + QPointF(-inset.x(), inset.y()), rect.topLeft() + inset,
                   rect.bottomRight() - inset, rect.bottomLeft() + QPointF(inset.x(), -inset.y()))
        for centre in corners:
            badge = QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r)
            if name.isNull() or not badge.intersects(name):
                return badge
        r = min(r, _BOUNDS_MARGIN)
        return QRectF(rect.right() - r, rect.top() - r, 2 * r, 2 * r)

    def _paint_badge(self, painter: QPainter, lod: float) -> None:
        colour = SEVERITY_COLOURS.get(self.severity)
        if colour is None:
            return
        badge = self.badge_rect(lod)
        r, centre = badge.width() / 2, badge.center()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(centre, r, r)
        painter.setPen(QColor("white"))
        painter.setFont(_LABEL_FONT)
        painter.drawText(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter,
                         "!" if self.severity == "error" else "?")

    def paint_labels(self, painter: QPainter, lod: float) -> None:
        painter.setPen(_TEXT_COLOUR)
        painter.setFont(self._name_font)
        painter.drawText(self._name_box, Qt.AlignmentFlag.AlignCenter, self.model().name)


class RackItem(FootprintItem):
    """A rack: name when zoomed in; GPUs and U used when zoomed further."""

    fill = QColor(222, 230, 245)
    _FILL_BY_CONTENT: ClassVar[dict[str, QColor]] = {
        "node": QColor(200, 218, 245), "switch": QColor(225, 210, 240), "storage": QColor(215, 235, 215)}

    def sync(self) -> None:
        # what the rack holds changes only through a Change naming it or its devices, so the fill
        # and the "U used / GPUs" line are worked out here rather than on every paint
        doc = self.doc
        rack = self.model()
        devices = doc.devices_in(self.obj_id)
        kinds = {doc.catalog[d.type].kind for d in devices}
        self._network = "switch" in kinds
        self._content_fill = next((self._FILL_BY_CONTENT[k] for k in ("node", "switch", "storage")
                                   if k in kinds), self.fill)
        gpus = sum(doc.catalog[d.type].gpus for d in devices)
        used, total = len(doc.used_units(self.obj_id)), doc.catalog[rack.type].rack_units
        self._summary = f"{used}/{total} U" + (f"\n{gpus} GPU" if gpus else "")
        super().sync()

    def fill_colour(self) -> QColor:
        return self._content_fill

    def name_box(self, rotation: int) -> QRectF:
        """A network rack has a cross-aisle (trunk) tray over it, its bundle drawn from
        TRUNK_CLEAR_M past the centre towards +x (rows along x) or +y: the name keeps to the other side."""
        rect = QRectF(self._rect)
        if getattr(self, "_network", False):
            if rotation % 180 == 0:
                rect.setRight(min(rect.right(), m(TRUNK_CLEAR_M)))
            else:
                rect.setBottom(min(rect.bottom(), m(TRUNK_CLEAR_M)))
        return rect

    def name_rect(self, lod: float) -> QRectF:
        if lod < LOD_DETAIL:
            return super().name_rect(lod)
        metrics = QFontMetricsF(self._name_font)
        width, height = metrics.horizontalAdvance(self.model().name), metrics.height()
        box = self._name_box
        return QRectF(box.center().x() - width / 2, box.center().y() - height, width, height)

    def paint_labels(self, painter: QPainter, lod: float) -> None:
        rack = self.model()
        painter.setPen(_TEXT_COLOUR)
        painter.setFont(self._name_font)
        if lod < LOD_DETAIL:
            painter.drawText(self._name_box, Qt.AlignmentFlag.AlignCenter, rack.name)
            return
        box = self._name_box
        top = QRectF(box.x(), box.y(), box.width(), box.height() / 2)
        painter.drawText(top, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom, rack.name)
        painter.setFont(_SMALL_FONT)
        painter.drawText(top.translated(0, top.height()), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, self._summary)


class FloorUnitItem(FootprintItem):
    """A row CDU or power distribution cabinet standing on the floor."""

    def fill_colour(self) -> QColor:
        return _ROW_CDU_FILL if self.doc.catalog[self.model().type].kind == ROW_CDU else _CABINET_FILL


class BusbarItem(PlanItem):
    """An overhead busbar run: side A solid, side B dashed, coloured per run."""

    def __init__(self, doc_provider, obj_id: str) -> None:
        super().__init__(doc_provider, obj_id)
        self.setZValue(Z_BUSBAR)
        self._line = QLineF()
        self._bounds = QRectF()
        self._colour = colour_for(obj_id)
        self._label_colour = self._colour.darker(140)
        self.sync()

    def sync(self) -> None:
        bus = self.model()
        line = QLineF(to_scene(bus.x1, bus.y1), to_scene(bus.x2, bus.y2))
        if line != self._line:
            self.prepareGeometryChange()
            self._line = line
            # the label may sit on either side of the run, from its start
            self._bounds = QRectF(line.p1(), line.p2()).normalized().adjusted(-30, -30, 30, 30)
            self._bounds = self._bounds.united(QRectF(line.p1(), line.p1()).adjusted(-m(2.5), -40, m(2.5), 40))
        style = Qt.PenStyle.SolidLine if bus.side == "A" else Qt.PenStyle.DashLine
        self._pens = (_cosmetic(self._colour, 2, style),
                      QPen(self._colour, BUSBAR_WIDTH, style, Qt.PenCapStyle.FlatCap))
        self.setPos(0, 0)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath(self._line.p1())
        path.lineTo(self._line.p2())
        stroker = QPainterPathStroker()
        stroker.setWidth(m(0.2))
        return stroker.createStroke(path)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        colour = self._colour
        if self.isSelected() or self.severity:
            painter.setPen(self.outline_pen(colour))
            painter.drawLine(self._line)
        lod = lod_of(painter)
        thin, thick = self._pens
        painter.setPen(thin if lod * BUSBAR_WIDTH < 2 else thick)
        painter.drawLine(self._line)
        if lod >= LOD_NAMES:
            bus = self.model()
            painter.setFont(_LABEL_FONT)
            painter.setPen(self._label_colour)
            painter.drawText(self.label_rect(), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, f"{bus.name} ({bus.side})")

    def label_rect(self) -> QRectF:
        """Where the name goes: at the run's start, on the side away from the racks' cable bundle.
        The cable layer draws a row's bundle beside the rack centre line towards +y (+x for rows
        along y), so a run along the +y edge of its racks has the bundle against it: its label
        goes on the outside, below the run (right of it)."""
        bus = self.model()
        text = f"{bus.name} ({bus.side})"
        metrics = QFontMetricsF(_LABEL_FONT)
        width, height = metrics.horizontalAdvance(text) + 2, metrics.height()
        start, end = self._line.p1(), self._line.p2()
        if start.x() > end.x() or (start.x() == end.x() and start.y() > end.y()):
            start, end = end, start
        gap = BUSBAR_WIDTH / 2 + 2
        along_x = abs(end.y() - start.y()) <= abs(end.x() - start.x())
        outside = self._racks_before(start, end, along_x)
        if along_x:
            top = start.y() + gap if outside else start.y() - gap - height
            return QRectF(start.x(), top, width, height)
        left = start.x() + gap if outside else start.x() - gap - width
        return QRectF(left, start.y(), width, height)

    def _racks_before(self, start: QPointF, end: QPointF, along_x: bool) -> bool:
        """Whether racks stand just on the −y side of the run (−x for a run along y)."""
        scene = self.scene()
        if scene is None:
            return False
        mid = (start + end) / 2
        probe = QRectF(mid.x() - m(0.1), mid.y() - m(0.5), m(0.2), m(0.4)) if along_x else \
            QRectF(mid.x() - m(0.5), mid.y() - m(0.1), m(0.4), m(0.2))
        return any(isinstance(item, FootprintItem) for item in scene.items(probe, Qt.ItemSelectionMode.IntersectsItemShape))
