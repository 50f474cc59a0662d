"""Design overlays on the floor plan (View ▸ Overlays): floor load against the zone rating,
power per rack, busbar loading as % of the derated rating, CDU loops coloured by load, and
cable tray fill against the fill limit.

Each overlay is one PlanScene layer that paints from the model through the live validator's
cached figures, so it costs nothing while hidden and repaints after each edit. What the floor,
power and busbar overlays draw is worked out once per edit and batched per colour, and their
figures are written only where legible, so panning and zooming a 1,000-rack hall with an
overlay on stays smooth. A legend in the view's corner explains the colours of the overlays shown.

The tray overlay draws each stretch of every loaded tray (``Context.tray_loads``) as a thick
band over the cable bundle of that tray (the cable layer draws bundles beside the rack centre
line, so rack names stay readable), coloured by fill ÷ fill limit, and labels each tray once, at
its busiest stretch. Its labels keep a fixed size on screen and a label that would overlap one
already drawn (fuller trays first) is left out until the user zooms in.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from PySide6.QtCore import QEvent, QLineF, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QGraphicsItem,
    QLabel,
    QMenu,
    QStyleOptionGraphicsItem,
    QWidget,
)

from planner.fabric.trays import Tray, TraySpan, capacity_mm2
from planner.model.document import Document
from planner.model.objects import FloorUnit, Rack
from planner.rules.figures import cdu_figures, cdu_position, feed_figures, floor_load_kpa
from planner.rules.ppue import ppue_boxes
from planner.rules.scopes import CDU, subjects
from planner.ui.plan.items import lod_of
from planner.ui.plan.units import BUNDLE_OFFSET_M, RAIL_OFFSET_M, SCENE_PER_M, m, to_scene
from planner.ui.validation.live import LiveValidator

#: Load bands (upper bound of the ratio, colour, legend text), shared by every overlay.
BANDS: list[tuple[float, QColor, str]] = [
    (0.5, QColor(120, 200, 120), "≤ 50 %"),
    (0.8, QColor(190, 220, 90), "50–80 %"),
    (0.9, QColor(245, 200, 60), "80–90 %"),
    (1.0, QColor(245, 140, 40), "90–100 %"),
    (float("inf"), QColor(215, 30, 30), "over 100 %"),
]
FLOOR, POWER, BUSBAR, LOOPS, TRAYS, PPUE = "floor", "power", "busbar", "loops", "trays", "ppue"
KINDS = (FLOOR, POWER, BUSBAR, LOOPS, TRAYS, PPUE)
TITLES = {FLOOR: "Floor load vs zone rating", POWER: "Power per rack vs rack rating",
          BUSBAR: "Busbar loading vs derated rating", LOOPS: "CDU loops by load",
          TRAYS: "Tray fill vs fill limit", PPUE: "Design pPUE overhead (pPUE − 1) vs the target's"}
_TEXT = QColor(20, 20, 30)
Z_OVERLAY = 60
#: The tray band: centred on the cable layer's bundle (rails 1–8 and the core rail) and as wide,
#: but never thinner than TRAY_MIN_PIXELS on screen.
TRAY_OFFSET_M = BUNDLE_OFFSET_M + 5 * RAIL_OFFSET_M
TRAY_WIDTH_M = 10 * RAIL_OFFSET_M
TRAY_MIN_PIXELS = 5.0
#: Tray labels: text height on screen (pixels), and never smaller than this on the plan (m).
TRAY_LABEL_PIXELS = 12.0
TRAY_LABEL_MIN_M = 0.12
#: Figures on the floor, power, busbar and loop overlays are written from this height on screen
#: (pixels, as the plan's names): smaller, they read as grey specks (and a thousand cost 15 ms a repaint).
LABEL_MIN_PIXELS = 8.0


def band_index(ratio: float) -> int:
    return next(k for k, (limit, _colour, _text) in enumerate(BANDS) if ratio <= limit)


def band_colour(ratio: float) -> QColor:
    return BANDS[band_index(ratio)][1]


def _translucent(colour: QColor) -> QColor:
    faded = QColor(colour)
    faded.setAlpha(240)
    return faded


def _bar_pen(colour: QColor) -> QPen:
    pen = QPen(colour, m(0.12))
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen


#: Per load band: the fill of a rack's box and the pen of a busbar's bar.
_BOX_FILLS = [_translucent(colour) for _limit, colour, _text in BANDS]
_BAR_PENS = [_bar_pen(colour) for _limit, colour, _text in BANDS]


@lru_cache(maxsize=64)
def _font(size_m: float) -> QFont:
    """The label font at ``size_m`` metres tall (kept: a repaint writes a thousand labels)."""
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(m(size_m))))
    return font


def _plate(bottom_left: QPointF, text: str, size_m: float) -> QRectF:
    """The white plate ``_label`` draws for ``text``."""
    width = QFontMetricsF(_font(size_m)).horizontalAdvance(text)
    height = m(size_m) * 1.3
    return QRectF(bottom_left.x(), bottom_left.y() - height, width + m(size_m) * 0.5, height)


def _label(painter: QPainter, bottom_left: QPointF, text: str, size_m: float) -> QRectF:
    """Text on a white plate, so it stays readable over the plan's own labels; returns the plate."""
    font = _font(size_m)
    painter.setFont(font)
    plate = _plate(bottom_left, text, size_m)
    painter.setPen(QPen(QColor(90, 90, 100), m(0.01)))
    painter.setBrush(QColor(255, 255, 255, 235))
    painter.drawRect(plate)
    painter.setPen(_TEXT)
    painter.drawText(plate, Qt.AlignmentFlag.AlignCenter, text)
    return plate


def tray_fill_text(fill: float, cables: int) -> str:
    """"38 % · 2,880 cables"."""
    return f"{fill * 100:.0f} % · {cables:,} cable{'s' if cables != 1 else ''}"


class OverlayLayer(QGraphicsItem):
    """One overlay kind, painted over the plan from the live figures."""

    def __init__(self, kind: str, live: LiveValidator) -> None:
        super().__init__()
        self.kind = kind
        self.live = live
        self.setZValue(Z_OVERLAY)
        self._rect = QRectF()
        self._tray_plan: _TrayPlan | None = None
        self._figures: _Figures | None = None
        self._loops: list[tuple[QColor, list[QLineF], QPainterPath, QPointF, str]] | None = None
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)  # the exposed rect
        self.refresh()

    @property
    def doc(self) -> Document:
        return self.live.session.doc

    def refresh(self) -> None:
        """Recompute the painted area and repaint (after an edit)."""
        doc = self.doc
        xs: list[float] = [p[0] for p in doc.outline]
        ys: list[float] = [p[1] for p in doc.outline]
        footprints: list[Rack | FloorUnit] = [*doc.racks.values(), *doc.floor_units.values()]
        for obj in footprints:
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
        self._tray_plan = self._figures = self._loops = None
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.kind in (FLOOR, POWER, BUSBAR, PPUE):
            self._paint_figures(painter, option.exposedRect)
        elif self.kind == LOOPS:
            self._paint_loops(painter)
        else:
            self._paint_trays(painter)

    # ------------------------------------------------- floor, power, busbars
    def _paint_figures(self, painter: QPainter, exposed: QRectF) -> None:
        """Boxes or bars from the plan made after the last edit; the figures written on them only
        where they are legible (at least LABEL_MIN_PIXELS tall) and on screen."""
        if self._figures is None:
            self._figures = self._box_figures() if self.kind in (FLOOR, POWER, PPUE) else self._busbar_figures()
        figures = self._figures
        for pen, brush, shapes in figures.batches:
            painter.setPen(pen)
            if brush is None:
                painter.drawLines(shapes)
            else:
                painter.setBrush(brush)
                painter.drawRects(shapes)
        lod = lod_of(painter)
        for box, text, size_m, plate in figures.labels:
            if lod * m(size_m) < LABEL_MIN_PIXELS or not box.intersects(exposed):
                continue
            if plate:
                _label(painter, box.bottomLeft(), text, size_m)
            else:
                painter.setPen(_TEXT)
                painter.setFont(_font(size_m))
                painter.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)

    def _box_figures(self) -> _Figures:
        """Floor load or power per rack (and floor unit): a box coloured by load, named and numbered."""
        batches: dict[int, list[QRectF]] = {}
        labels: list[tuple[QRectF, str, float, bool]] = []
        boxes = {FLOOR: self._floor_loads, POWER: self._powers, PPUE: lambda: ppue_boxes(self.live.context)}
        for obj, ratio, text in boxes[self.kind]():
            x0, y0, x1, y1 = self.doc.rack_bounds(obj)
            rect = QRectF(to_scene(x0, y0), to_scene(x1, y1))
            batches.setdefault(band_index(ratio), []).append(rect)
            labels.append((rect, f"{obj.name}\n{text}", min(0.15, (x1 - x0) / 5.0), False))
        no_pen = QPen(Qt.PenStyle.NoPen)
        return _Figures([(no_pen, _BOX_FILLS[k], rects) for k, rects in sorted(batches.items())], labels)

    def _floor_loads(self) -> Iterator[tuple[Rack | FloorUnit, float, str]]:
        ctx, doc = self.live.context, self.doc
        for rack in doc.racks.values():
            zone = ctx.zone_of(rack.id)
            figs = ctx.rack(rack.id)
            kpa, _area = floor_load_kpa(figs.weight_kg, figs.width_m, figs.depth_m, doc.basis)
            yield rack, kpa / zone.rating_kpa if zone and zone.rating_kpa > 0 else 0.0, f"{kpa:.1f} kPa"
        for unit in doc.floor_units.values():
            item = doc.catalog[unit.type]
            zone = ctx.zone_of(unit.id)
            kpa, _area = floor_load_kpa(item.weight_kg, item.width_m, item.depth_m, doc.basis)
            yield unit, kpa / zone.rating_kpa if zone and zone.rating_kpa > 0 else 0.0, f"{kpa:.1f} kPa"

    def _powers(self) -> Iterator[tuple[Rack | FloorUnit, float, str]]:
        ctx, doc = self.live.context, self.doc
        powers = {r: ctx.rack(r).power_w(doc.basis) for r in doc.racks}
        largest = max(powers.values(), default=0.0) or 1.0
        for rack_id, power in powers.items():
            limit = ctx.rack(rack_id).max_power_w or largest
            yield doc.racks[rack_id], power / limit, f"{power / 1000:.1f} kW"

    def _busbar_figures(self) -> _Figures:
        """Each busbar as a bar coloured by its loading (the worse of normal and failover under 2N),
        labelled with both."""
        ctx, doc = self.live.context, self.doc
        failover = doc.basis.redundancy == "2N"
        batches: dict[int, list[QLineF]] = {}
        labels: list[tuple[QRectF, str, float, bool]] = []
        for bus in doc.busbars.values():
            feed = feed_figures(ctx, bus.id)
            if feed.derated_a <= 0:
                continue
            normal = feed.normal_a / feed.derated_a
            worst = feed.failover_a / feed.derated_a if failover else normal
            start, end = to_scene(bus.x1, bus.y1), to_scene(bus.x2, bus.y2)
            batches.setdefault(band_index(worst), []).append(QLineF(start, end))
            text = f"{bus.name}: {normal:.0%}" + (f" · failover {worst:.0%}" if failover else "")
            corner = QPointF(min(start.x(), end.x()), min(start.y(), end.y()) - m(0.08))
            labels.append((_plate(corner, text, 0.16), text, 0.16, True))
        return _Figures([(_BAR_PENS[k], None, lines) for k, lines in sorted(batches.items())], labels)

    def _paint_loops(self, painter: QPainter) -> None:
        """Each CDU as a disc with lines to the racks on its loop, coloured by its load (the worse
        of heat and flow), drawn from the plan made after the last edit."""
        if self._loops is None:
            self._loops = self._plan_loops()
        lod = lod_of(painter)
        for colour, lines, dots, origin, text in self._loops:
            painter.setPen(QPen(colour, m(0.06)))
            painter.setBrush(colour)
            painter.drawLines(lines)
            painter.drawPath(dots)
            painter.setPen(QPen(_TEXT, m(0.02)))
            painter.drawEllipse(origin, m(0.2), m(0.2))
            if lod * m(0.18) >= LABEL_MIN_PIXELS:
                _label(painter, QPointF(origin.x() - m(0.2), origin.y() - m(0.25)), text, 0.18)

    def _plan_loops(self) -> list[tuple[QColor, list[QLineF], QPainterPath, QPointF, str]]:
        ctx, doc = self.live.context, self.doc
        loops = []
        for cdu_id in subjects(doc, CDU):
            cdu = cdu_figures(ctx, cdu_id)
            ratios = [cdu.liquid_w / cdu.capacity_w if cdu.capacity_w else 0.0,
                      cdu.flow_required_lpm / cdu.flow_rated_lpm if cdu.flow_rated_lpm else 0.0]
            load = max(ratios)
            origin = to_scene(*cdu_position(doc, cdu_id))
            lines, dots = [], QPainterPath()
            for rack_id in ctx.racks_on_cdu(cdu_id):
                rack = doc.racks[rack_id]
                end = to_scene(rack.x, rack.y)
                lines.append(QLineF(origin, end))
                dots.addEllipse(end, m(0.07), m(0.07))
            loops.append((band_colour(load), lines, dots, origin, f"{cdu.name} {load:.0%}"))
        return loops

    # ----------------------------------------------------------------- trays
    @staticmethod
    def tray_line(tray: Tray, start_mm: int, end_mm: int) -> QLineF:
        """Where a stretch of a tray is drawn (scene units): along the tray, moved across it onto
        the cable layer's bundle."""
        (x1, y1), (x2, y2) = tray.point(start_mm), tray.point(end_mm)
        dx, dy = (0.0, TRAY_OFFSET_M) if tray.axis == "x" else (TRAY_OFFSET_M, 0.0)
        return QLineF(to_scene(x1 + dx, y1 + dy), to_scene(x2 + dx, y2 + dy))

    def tray_fills(self) -> list[tuple[Tray, TraySpan, float]]:
        """(tray, stretch, fill as a fraction of the tray's cross-section) of every loaded stretch."""
        basis = self.doc.basis
        loads = self.live.context.tray_loads()
        out = []
        for tray_id in loads.trays():
            tray = Tray.parse(tray_id)
            capacity = capacity_mm2(basis, tray.kind)
            for span in loads.spans(tray_id):
                if span.cables:
                    out.append((tray, span, span.area_mm2 / capacity if capacity > 0 else float("inf")))
        return out

    def _paint_trays(self, painter: QPainter) -> None:
        scale = painter.worldTransform().m11() or 1.0  # device pixels per scene unit
        plan = self._tray_plan if self._tray_plan is not None and self._tray_plan.scale == scale else None
        if plan is None:
            plan = self._tray_plan = self._plan_trays(scale)
        for colour, lines in plan.bands:
            pen = QPen(colour, plan.width)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            painter.drawLines(lines)
        for plate, text in plan.labels:
            _label(painter, plate.bottomLeft(), text, plan.label_m)

    def _plan_trays(self, scale: float) -> _TrayPlan:
        """Bands and label places at one zoom (``scale`` device pixels per scene unit); kept until
        the zoom changes or the plan is edited."""
        limit = self.doc.basis.tray_fill_error
        batches: dict[int, tuple[QColor, list[QLineF]]] = {}
        peaks: dict[Tray, tuple[TraySpan, float]] = {}
        extent: dict[Tray, QRectF] = {}
        width = max(m(TRAY_WIDTH_M), TRAY_MIN_PIXELS / scale)
        for tray, span, fill in self.tray_fills():
            colour = band_colour(fill / limit if limit > 0 else float("inf"))
            line = self.tray_line(tray, span.start_mm, span.end_mm)
            batches.setdefault(colour.rgb(), (colour, []))[1].append(line)
            band = QRectF(line.p1(), line.p2()).normalized().adjusted(-width / 2, -width / 2, width / 2, width / 2)
            extent[tray] = extent[tray].united(band) if tray in extent else band
            if tray not in peaks or span.area_mm2 > peaks[tray][0].area_mm2:
                peaks[tray] = (span, fill)
        size_m = max(TRAY_LABEL_MIN_M, TRAY_LABEL_PIXELS / (scale * SCENE_PER_M))
        hall = self._rect.adjusted(m(2), m(2), -m(2), -m(2))  # the plan's extent, inside the painted area
        labels: list[tuple[QRectF, str]] = []
        for tray, (span, fill) in sorted(peaks.items(), key=lambda kv: (-kv[1][1], kv[0])):
            text = tray_fill_text(fill, span.cables)
            others = [rect for other, rect in extent.items() if other != tray]
            taken = [plate for plate, _text in labels]
            best = None
            for plate in _label_places(self.tray_line(tray, span.start_mm, span.end_mm), tray.axis,
                                       _plate(QPointF(0, 0), text, size_m), width / 2 + m(size_m) * 0.3):
                if not hall.isEmpty():  # a label near a wall stays inside the plan
                    plate.moveLeft(min(max(plate.left(), hall.left()), hall.right() - plate.width()))
                    plate.moveTop(min(max(plate.top(), hall.top()), hall.bottom() - plate.height()))
                if any(plate.intersects(other) for other in taken):
                    continue
                if not any(plate.intersects(band) for band in others):
                    best = plate
                    break
                best = best or plate  # over another tray's band only if no place is clear
            if best is not None:
                labels.append((best, text))
        return _TrayPlan(scale, width, [batches[key] for key in sorted(batches)], size_m, labels)


@dataclass
class _Figures:
    """What the floor, power or busbar overlay paints until the next edit: shapes batched per
    (pen, brush) — lines when there is no brush, else rectangles — and labels as (box, text,
    text height in metres, drawn on a white plate)."""

    batches: list[tuple[QPen, QColor | None, list]]
    labels: list[tuple[QRectF, str, float, bool]]


@dataclass
class _TrayPlan:
    """What the tray overlay paints at one zoom."""

    scale: float
    width: float
    bands: list[tuple[QColor, list[QLineF]]]
    label_m: float
    labels: list[tuple[QRectF, str]]


def _label_places(line: QLineF, axis: str, plate: QRectF, gap: float) -> Iterator[QRectF]:
    """Where a tray's label may go, best first: beside its busiest stretch (``line``), then slid
    along the tray, on either side of the band."""
    mid, w, h = line.center(), plate.width(), plate.height()
    if axis == "x":  # a row tray: under the band, else over it; slid by up to a label's width
        for shift in (0.0, -0.25, 0.25, -0.5, 0.5, -0.75, 0.75, -1.0, 1.0):
            for top in (mid.y() + gap, mid.y() - gap - h):
                yield QRectF(mid.x() - w / 2 + shift * w, top, w, h)
    else:  # a cross-aisle tray: right of the band, else left; slid along the stretch
        reach = max(0.0, abs(line.dy()) / 2 - h / 2)
        steps = [0.0] + [k * sign * 1.25 * h for k in range(1, 4) for sign in (1, -1)]
        for shift in [step for step in steps if abs(step) <= reach] or [0.0]:
            for left in (mid.x() + gap, mid.x() - gap - w):
                yield QRectF(left, mid.y() - h / 2 + shift, w, h)


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

    def show_for(self, kinds: list[str], notes: dict[str, str] | None = None) -> None:
        """Show the key for ``kinds``; ``notes`` adds a line under an overlay's title."""
        if not kinds:
            self.hide()
            return
        notes = notes or {}
        swatches = "".join(f"<tr><td style='background:{colour.name()}'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
                           f"<td>&nbsp;{text}</td></tr>" for _limit, colour, text in BANDS)
        titles = "<br>".join(f"<b>{TITLES[k]}</b>" + (f"<br><small>{notes[k]}</small>" if k in notes else "")
                             for k in kinds)
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
        for kind in KINDS:
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
        self._show_legend()

    def _show_legend(self) -> None:
        basis = self.live.session.doc.basis
        notes = {TRAYS: f"colour: share of the {basis.tray_fill_error * 100:.0f} % fill limit<br>"
                        "label: fill of the tray at its busiest stretch"}
        self.legend.show_for([k for k in KINDS if k in self.layers], notes)

    def refresh(self, *_args: object) -> None:
        for layer in self.layers.values():
            layer.refresh()
        if TRAYS in self.layers:
            self._show_legend()  # the fill limit may have changed
