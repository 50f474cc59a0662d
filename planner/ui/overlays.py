"""Design overlays on the floor plan (View ▸ Overlays): floor load against the zone rating,
power per rack, busbar loading as % of the derated rating, and CDU loops coloured by load.

Each overlay is one PlanScene layer that paints from the model through the live validator's
cached figures, so it costs nothing while hidden and repaints after each edit. A legend in
the view's corner explains the colours of the overlays shown.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QGraphicsItem,
    QLabel,
    QMenu,
    QStyleOptionGraphicsItem,
    QWidget,
)

from planner.model.document import Document
from planner.rules.engine import CDU, subjects
from planner.rules.figures import cdu_figures, cdu_position, feed_figures, floor_load_kpa
from planner.ui.plan.units import m, to_scene
from planner.ui.validation import LiveValidator

#: Load bands (upper bound of the ratio, colour, legend text), shared by every overlay.
BANDS: list[tuple[float, QColor, str]] = [
    (0.5, QColor(120, 200, 120), "≤ 50 %"),
    (0.8, QColor(190, 220, 90), "50–80 %"),
    (0.9, QColor(245, 200, 60), "80–90 %"),
    (1.0, QColor(245, 140, 40), "90–100 %"),
    (float("inf"), QColor(215, 30, 30), "over 100 %"),
]
FLOOR, POWER, BUSBAR, LOOPS = "floor", "power", "busbar", "loops"
TITLES = {FLOOR: "Floor load vs zone rating", POWER: "Power per rack vs rack rating",
          BUSBAR: "Busbar loading vs derated rating", LOOPS: "CDU loops by load"}
_TEXT = QColor(20, 20, 30)
Z_OVERLAY = 60


def band_colour(ratio: float) -> QColor:
    return next(colour for limit, colour, _ in BANDS if ratio <= limit)


def _font(size_m: float) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(m(size_m))))
    return font


def _label(painter: QPainter, bottom_left: QPointF, text: str, size_m: float) -> None:
    """Text on a white plate, so it stays readable over the plan's own labels."""
    font = _font(size_m)
    painter.setFont(font)
    width = QFontMetricsF(font).horizontalAdvance(text)
    height = m(size_m) * 1.3
    plate = QRectF(bottom_left.x(), bottom_left.y() - height, width + m(0.08), height)
    painter.setPen(QPen(QColor(90, 90, 100), m(0.01)))
    painter.setBrush(QColor(255, 255, 255, 235))
    painter.drawRect(plate)
    painter.setPen(_TEXT)
    painter.drawText(plate, Qt.AlignmentFlag.AlignCenter, text)


class OverlayLayer(QGraphicsItem):
    """One overlay kind, painted over the plan from the live figures."""

    def __init__(self, kind: str, live: LiveValidator) -> None:
        super().__init__()
        self.kind = kind
        self.live = live
        self.setZValue(Z_OVERLAY)
        self._rect = QRectF()
        self.refresh()

    @property
    def doc(self) -> Document:
        return self.live.session.doc

    def refresh(self) -> None:
        """Recompute the painted area and repaint (after an edit)."""
        doc = self.doc
        xs: list[float] = [p[0] for p in doc.outline]
        ys: list[float] = [p[1] for p in doc.outline]
        for obj in [*doc.racks.values(), *doc.floor_units.values()]:
            x0, y0, x1, y1 = doc.rack_bounds(obj)
            xs += [x0, x1]
            ys += [y0, y1]
        for bus in doc.busbars.values():
            xs += [bus.x1, bus.x2]
            ys += [bus.y1, bus.y2]
        rect = QRectF()
        if xs:
            rect = QRectF(to_scene(min(xs) - 2, min(ys) - 2), to_scene(max(xs) + 2, max(ys) + 2))
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        {FLOOR: self._paint_floor, POWER: self._paint_power, BUSBAR: self._paint_busbars,
         LOOPS: self._paint_loops}[self.kind](painter)

    def _box(self, painter: QPainter, obj, ratio: float, text: str) -> None:
        x0, y0, x1, y1 = self.doc.rack_bounds(obj)
        rect = QRectF(to_scene(x0, y0), to_scene(x1, y1))
        colour = QColor(band_colour(ratio))
        colour.setAlpha(240)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawRect(rect)
        painter.setPen(_TEXT)
        painter.setFont(_font(min(0.15, (x1 - x0) / 5.0)))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, f"{obj.name}\n{text}")

    def _paint_floor(self, painter: QPainter) -> None:
        ctx, doc = self.live.context, self.doc
        for rack in doc.racks.values():
            zone = ctx.zone_of(rack.id)
            figs = ctx.rack(rack.id)
            kpa, _area = floor_load_kpa(figs.weight_kg, figs.width_m, figs.depth_m, doc.basis)
            ratio = kpa / zone.rating_kpa if zone and zone.rating_kpa > 0 else 0.0
            self._box(painter, rack, ratio, f"{kpa:.1f} kPa")
        for unit in doc.floor_units.values():
            item = doc.catalog[unit.type]
            zone = ctx.zone_of(unit.id)
            kpa, _area = floor_load_kpa(item.weight_kg, item.width_m, item.depth_m, doc.basis)
            ratio = kpa / zone.rating_kpa if zone and zone.rating_kpa > 0 else 0.0
            self._box(painter, unit, ratio, f"{kpa:.1f} kPa")

    def _paint_power(self, painter: QPainter) -> None:
        ctx, doc = self.live.context, self.doc
        powers = {r: ctx.rack(r).power_w(doc.basis) for r in doc.racks}
        largest = max(powers.values(), default=0.0) or 1.0
        for rack_id, power in powers.items():
            limit = ctx.rack(rack_id).max_power_w or largest
            self._box(painter, doc.racks[rack_id], power / limit, f"{power / 1000:.1f} kW")

    def _paint_busbars(self, painter: QPainter) -> None:
        ctx, doc = self.live.context, self.doc
        failover = doc.basis.redundancy == "2N"
        for bus in doc.busbars.values():
            feed = feed_figures(ctx, bus.id)
            if feed.derated_a <= 0:
                continue
            normal = feed.normal_a / feed.derated_a
            worst = feed.failover_a / feed.derated_a if failover else normal
            pen = QPen(band_colour(worst), m(0.12))
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            start, end = to_scene(bus.x1, bus.y1), to_scene(bus.x2, bus.y2)
            painter.drawLine(start, end)
            text = f"{bus.name}: {normal:.0%}" + (f" · failover {worst:.0%}" if failover else "")
            _label(painter, QPointF(min(start.x(), end.x()), min(start.y(), end.y()) - m(0.08)), text, 0.16)

    def _paint_loops(self, painter: QPainter) -> None:
        ctx, doc = self.live.context, self.doc
        for cdu_id in subjects(doc, CDU):
            cdu = cdu_figures(ctx, cdu_id)
            ratios = [cdu.liquid_w / cdu.capacity_w if cdu.capacity_w else 0.0,
                      cdu.flow_required_lpm / cdu.flow_rated_lpm if cdu.flow_rated_lpm else 0.0]
            load = max(ratios)
            colour = band_colour(load)
            x, y = cdu_position(doc, cdu_id)
            origin = to_scene(x, y)
            painter.setPen(QPen(colour, m(0.06)))
            painter.setBrush(colour)
            for rack_id in ctx.racks_on_cdu(cdu_id):
                rack = doc.racks[rack_id]
                end = to_scene(rack.x, rack.y)
                painter.drawLine(origin, end)
                painter.drawEllipse(end, m(0.07), m(0.07))
            painter.setBrush(colour)
            painter.setPen(QPen(_TEXT, m(0.02)))
            painter.drawEllipse(origin, m(0.2), m(0.2))
            _label(painter, QPointF(origin.x() - m(0.2), origin.y() - m(0.25)), f"{cdu.name} {load:.0%}", 0.18)


class OverlayLegend(QLabel):
    """The colour key of the overlays shown, pinned to the view's lower-right corner (the scale bar is left)."""

    def __init__(self, view: QAbstractScrollArea) -> None:
        super().__init__(view)  # not the viewport: scrolling the plan would carry the legend along
        self.view = view
        self.setStyleSheet("QLabel { background: rgba(255, 255, 255, 235); border: 1px solid #888;"
                           " padding: 6px; color: #111; }")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        view.installEventFilter(self)
        self.hide()

    def show_for(self, kinds: list[str]) -> None:
        if not kinds:
            self.hide()
            return
        swatches = "".join(f"<tr><td style='background:{colour.name()}'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
                           f"<td>&nbsp;{text}</td></tr>" for _limit, colour, text in BANDS)
        titles = "<br>".join(f"<b>{TITLES[k]}</b>" for k in kinds)
        self.setText(f"{titles}<table cellspacing='2'>{swatches}</table>")
        self.adjustSize()
        self._place()
        self.show()
        self.raise_()

    def showEvent(self, event) -> None:
        self._place()
        super().showEvent(event)

    def _place(self) -> None:
        area = self.view.viewport().geometry()
        self.move(max(area.left() + 10, area.right() - self.width() - 10),
                  max(area.top() + 10, area.bottom() - self.height() - 10))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False


class OverlayController(QObject):
    """Adds the overlay toggles to a menu and keeps the shown layers current."""

    def __init__(self, view: QAbstractScrollArea, scene, live: LiveValidator, menu: QMenu) -> None:
        super().__init__(menu)
        self.scene = scene
        self.live = live
        self.layers: dict[str, OverlayLayer] = {}
        self.legend = OverlayLegend(view)
        self.actions: dict[str, QAction] = {}
        for kind in (FLOOR, POWER, BUSBAR, LOOPS):
            action = QAction(TITLES[kind], menu)
            action.setCheckable(True)
            action.toggled.connect(lambda on, k=kind: self.set_visible(k, on))
            menu.addAction(action)
            self.actions[kind] = action
        live.updated.connect(self.refresh)
        live.session.changed.connect(self.refresh)
        live.session.reset.connect(self.refresh)

    def set_visible(self, kind: str, visible: bool) -> None:
        if visible and kind not in self.layers:
            self.layers[kind] = OverlayLayer(kind, self.live)
            self.scene.add_layer(self.layers[kind])
        elif not visible and kind in self.layers:
            self.scene.remove_layer(self.layers.pop(kind))
        if self.actions[kind].isChecked() != visible:
            self.actions[kind].setChecked(visible)
        self.legend.show_for([k for k in (FLOOR, POWER, BUSBAR, LOOPS) if k in self.layers])

    def refresh(self, *_args: object) -> None:
        for layer in self.layers.values():
            layer.refresh()
