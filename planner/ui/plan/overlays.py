"""Overlays drawn over the plan as single items: assignment lines, the footprints batch drawn
zoomed out, and the preview of a gesture in progress (polygon capture, row tool, assign drag);
the scale bar. A highlighted cable route is ``route``.

One item draws many lines, so a hall of hundreds of racks costs one item, not hundreds: a
repaint calls into Python once for it, and Qt draws each batch of lines or rectangles that
share a pen in one call. The batches are kept between paints and rebuilt only for the pens an
edit changed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import ClassVar

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from planner.model.document import Document, prefix_of
from planner.model.objects import FloorUnit, Rack
from planner.model.references import assignable
from planner.ui.plan.items import (
    EDGE_PEN,
    FRONT_PEN,
    LOD_NAMES,
    MIN_TEXT_PIXELS,
    NAME_FONT_MAX,
    SELECTION_PEN,
    SEVERITY_PENS,
    Z_ASSIGN,
    Z_FLOOR,
    FootprintItem,
    colour_for,
    lod_of,
)
from planner.ui.plan.units import m, to_scene

#: Below this level of detail (screen pixels per cm) no footprint shows a name or a badge (names
#: are at most NAME_FONT_MAX cm tall and drawn from MIN_TEXT_PIXELS up), so the view lets the
#: footprint batch draw racks and floor units.
BATCH_BELOW_LOD = MIN_TEXT_PIXELS / NAME_FONT_MAX
#: Repainted around a footprint that changed (its 3-pixel outline, zoomed out), scene units.
FOOTPRINT_MARGIN = m(0.3)
#: Outlines drawn over the fill, later ones on top (as an item's selection hides its mark).
OUTLINE_PENS = {**SEVERITY_PENS, "selected": SELECTION_PEN}
_OUTLINE_ORDER = ("warning", "error", "selected")
_FRONTS = "fronts"
Z_PREVIEW = 70


def nearest_on_segment(px: float, py: float, x1: float, y1: float, x2: float, y2: float) -> tuple[float, float]:
    """The point of segment (x1, y1)–(x2, y2) nearest to (px, py)."""
    dx, dy = x2 - x1, y2 - y1
    length2 = dx * dx + dy * dy
    if length2 == 0:
        return x1, y1
    t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / length2))
    return x1 + t * dx, y1 + t * dy


#: A rack's assignments to busbars (its feeds), as their references declare them.
_FEEDS = tuple(r.field for r in assignable(Rack) if r.ref.to == ("busbars",))


def rack_assignment_lines(doc: Document, rack: Rack) -> list[tuple[str, str, QLineF]]:
    """(target id, field, line) for a rack's feed and loop assignments that have a target."""
    lines = []
    ex, ey = doc.rack_extents(rack)
    # start each line off the rack's centre so its name stays readable
    starts = {"feed_a": (rack.x - ex / 4, rack.y), "feed_b": (rack.x + ex / 4, rack.y),
              "cdu": (rack.x, rack.y + ey / 4)}
    for field in _FEEDS:
        bus = doc.busbars.get(getattr(rack, field) or "")
        if bus is not None:
            sx, sy = starts[field]
            x, y = nearest_on_segment(sx, sy, bus.x1, bus.y1, bus.x2, bus.y2)
            lines.append((bus.id, field, QLineF(to_scene(sx, sy), to_scene(x, y))))
    cdu_id = rack.cdu or ""
    target: FloorUnit | Rack | None = doc.floor_units.get(cdu_id)
    if target is None and cdu_id in doc.devices:
        target = doc.racks.get(doc.devices[cdu_id].rack)
    if target is not None and target.id != rack.id:
        # to the nearest point of the CDU's footprint: racks in its row give one straight run
        sx, sy = starts["cdu"]
        x0, y0, x1, y1 = doc.rack_bounds(target)
        end = (min(max(sx, x0), x1), min(max(sy, y0), y1))
        lines.append((cdu_id, "cdu", QLineF(to_scene(sx, sy), to_scene(*end))))
    return lines


#: A batch of assignment lines drawn with one pen: (target colour as RGB, field).
PenKey = tuple[int, str]


class AssignmentLayer(QGraphicsItem):
    """Thin lines from each rack to its A feed, B feed (dashed) and CDU loop (dotted).

    Lines are kept per rack and redrawn only for the racks an edit concerns (``update_racks``),
    and painted in one batch per pen (8 colours × 3 styles), not per busbar or CDU.
    """

    _STYLES: ClassVar[dict[str, Qt.PenStyle]] = {"feed_a": Qt.PenStyle.SolidLine, "feed_b": Qt.PenStyle.DashLine, "cdu": Qt.PenStyle.DotLine}

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_ASSIGN)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._lines: dict[str, list[tuple[PenKey, QLineF]]] = {}  # rack id → its lines
        self._assigned: dict[str, tuple[str, ...]] = {}  # rack id → the ids it is assigned to
        self._racks_on: dict[str, set[str]] = {}  # busbar / CDU id → racks assigned to it
        self._groups: dict[PenKey, dict[str, QLineF]] = {}  # pen → rack id → line
        self._batches: dict[PenKey, list[QLineF]] = {}  # what paint draws, rebuilt per changed pen
        self._pens: dict[PenKey, tuple[QPen, QPen]] = {}
        self._bounds = QRectF()

    def rebuild(self, doc: Document) -> None:
        """Every rack's lines from scratch (a plan was opened, the catalogue changed)."""
        self._lines, self._assigned, self._racks_on, self._groups, self._batches = {}, {}, {}, {}, {}
        self.prepareGeometryChange()
        self._bounds = QRectF()
        self._set_racks(doc, doc.racks)
        self.update()

    def update_racks(self, doc: Document, touched: set[str]) -> None:
        """Redraw the lines an edit touching ``touched`` ids can move: those of touched racks, of
        racks assigned to a touched busbar, floor unit or CDU device, and of racks assigned to
        a rack CDU in a touched rack."""
        moved_racks = {i for i in touched if prefix_of(i) == "rack"}
        racks = set(moved_racks)
        for obj_id in touched:
            if obj_id in self._racks_on:
                racks.update(self._racks_on[obj_id])
        if moved_racks:
            for target, assigned in self._racks_on.items():
                device = doc.devices.get(target) if prefix_of(target) == "dev" else None
                if device is not None and device.rack in moved_racks:
                    racks.update(assigned)
        if racks:
            self._set_racks(doc, racks)

    def _set_racks(self, doc: Document, rack_ids) -> None:
        changed = QRectF()
        for rack_id in rack_ids:
            for key, line in self._lines.pop(rack_id, ()):
                del self._groups[key][rack_id]
                self._batches.pop(key, None)
                changed = changed.united(QRectF(line.p1(), line.p2()).normalized())
            for target in self._assigned.pop(rack_id, ()):
                self._racks_on[target].discard(rack_id)
            rack = doc.racks.get(rack_id)
            if rack is None:
                continue
            assigned = tuple(t for t in (rack.feed_a, rack.feed_b, rack.cdu) if t)
            self._assigned[rack_id] = assigned
            for target in assigned:
                self._racks_on.setdefault(target, set()).add(rack_id)
            lines = []
            for target, field, line in rack_assignment_lines(doc, rack):
                key = (colour_for(target).rgb(), field)
                if key not in self._pens:
                    self._pens[key] = self._make_pens(target, field)
                self._groups.setdefault(key, {})[rack_id] = line
                self._batches.pop(key, None)
                lines.append((key, line))
                changed = changed.united(QRectF(line.p1(), line.p2()).normalized())
            self._lines[rack_id] = lines
        if changed.isNull():
            return
        changed.adjust(-5, -5, 5, 5)
        if not self._bounds.contains(changed):
            # grows only: a bound a little large after lines shrink costs nothing visible
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(changed)
        self.update(changed)

    def _make_pens(self, target: str, field: str) -> tuple[QPen, QPen]:
        """The pen of a batch as styled (zoomed in) and solid (zoomed out). Dashed and dotted lines
        are 1 px: Qt draws those straight and clipped to the screen, while a wider dashed pen is
        stroked dash by dash along the whole line (30–40 ms a repaint at 150 px/m and closer)."""
        style = self._STYLES[field]
        styled = QPen(colour_for(target), 1.5 if style == Qt.PenStyle.SolidLine else 1.0, style)
        solid = QPen(colour_for(target), 1.5, Qt.PenStyle.SolidLine)
        styled.setCosmetic(True)
        solid.setCosmetic(True)
        return styled, solid

    def line_count(self) -> int:
        return sum(len(lines) for lines in self._lines.values())

    def lines_of(self, rack_id: str) -> list[QLineF]:
        """The lines drawn from one rack (for tests and hit checks)."""
        return [line for _key, line in self._lines.get(rack_id, ())]

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        # zoomed out, the dash patterns cost more than they tell: draw every line solid
        which = 0 if lod_of(painter) >= LOD_NAMES else 1
        for key, group in self._groups.items():
            lines = self._batches.get(key)
            if lines is None:
                lines = self._batches[key] = list(group.values())
            if lines:
                painter.setPen(self._pens[key][which])
                painter.drawLines(lines)


class FootprintBatch(QGraphicsItem):
    """Every rack and floor unit as the plan shows them zoomed out (fill, edge, front edge, the
    selection or finding outline), drawn with one ``drawRects`` per fill colour and outline pen.

    The scene makes it draw (and the footprint items not paint at all) below BATCH_BELOW_LOD;
    it is kept current at every zoom (each item's ``observer`` call, the scene's ``restate`` of
    selection and marks), so switching is free.
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_FLOOR)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.active = False
        self._keys: dict[str, tuple[list[Hashable], QRectF]] = {}  # id → its groups, footprint
        self._groups: dict[Hashable, dict[str, QRectF | QLineF]] = {}  # group → id → shape
        self._batches: dict[Hashable, list] = {}  # what paint draws, rebuilt per changed group
        self._fills: dict[int, QColor] = {}
        self._bounds = QRectF()

    def reset(self, items: Iterable[FootprintItem]) -> None:
        """Track these footprints and no others (a plan was opened)."""
        self._keys, self._groups, self._batches = {}, {}, {}
        bounds = QRectF()
        for item in items:
            bounds = bounds.united(self._add(item))
        self.prepareGeometryChange()
        self._bounds = bounds.adjusted(-FOOTPRINT_MARGIN, -FOOTPRINT_MARGIN, FOOTPRINT_MARGIN, FOOTPRINT_MARGIN)
        self.update()

    def track(self, item: FootprintItem) -> None:
        """Take in an item's current geometry, fill and outline (its ``observer``)."""
        old = self.forget(item.obj_id)
        rect = self._add(item)
        self._repaint(rect if old is None else rect.united(old))

    def forget(self, obj_id: str) -> QRectF | None:
        """Stop drawing a footprint (its item was removed); returns where it was."""
        entry = self._keys.pop(obj_id, None)
        if entry is None:
            return None
        keys, rect = entry
        for key in keys:
            group = self._groups[key]
            del group[obj_id]
            if not group:
                del self._groups[key]
            self._batches.pop(key, None)
        self._repaint(rect)
        return rect

    def _add(self, item: FootprintItem) -> QRectF:
        rect, front = item.footprint()
        fill = item.fill_colour()
        self._fills.setdefault(fill.rgba(), fill)
        state = "selected" if item.isSelected() else item.severity
        keys: list[Hashable] = [("fill", fill.rgba()), _FRONTS]
        if state in OUTLINE_PENS:
            keys.append(("outline", state))
        for key in keys:
            self._groups.setdefault(key, {})[item.obj_id] = front if key == _FRONTS else rect
            self._batches.pop(key, None)
        self._keys[item.obj_id] = (keys, rect)
        return rect

    def restate(self, items: Iterable[FootprintItem]) -> None:
        """Take in new selection or finding states (geometry and fill unchanged): only the
        outline groups change, so selecting all 1,136 racks costs a few set operations each."""
        area = QRectF()
        for item in items:
            entry = self._keys.get(item.obj_id)
            if entry is None:
                continue
            keys, rect = entry
            state = "selected" if item.isSelected() else item.severity
            new = [("outline", state)] if state in OUTLINE_PENS else []
            if keys[2:] == new:
                continue
            for key in keys[2:]:
                group = self._groups[key]
                del group[item.obj_id]
                if not group:
                    del self._groups[key]
                self._batches.pop(key, None)
            for key in new:
                self._groups.setdefault(key, {})[item.obj_id] = rect
                self._batches.pop(key, None)
            keys[2:] = new
            area = area.united(rect)
        if not area.isNull():
            self._repaint(area)

    def _repaint(self, rect: QRectF) -> None:
        area = rect.adjusted(-FOOTPRINT_MARGIN, -FOOTPRINT_MARGIN, FOOTPRINT_MARGIN, FOOTPRINT_MARGIN)
        if not self._bounds.contains(area):
            self.prepareGeometryChange()
            self._bounds = self._bounds.united(area)
        if self.active:
            self.update(area)

    def set_active(self, active: bool) -> None:
        if active != self.active:
            self.active = active
            self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def _batch(self, key: Hashable) -> list:
        batch = self._batches.get(key)
        if batch is None:
            batch = self._batches[key] = list(self._groups[key].values())
        return batch

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem,
              widget: QWidget | None = None) -> None:
        if not self.active:
            return
        painter.setPen(EDGE_PEN)
        for key in self._groups:
            if isinstance(key, tuple) and key[0] == "fill":
                painter.setBrush(self._fills[key[1]])
                painter.drawRects(self._batch(key))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for state in _OUTLINE_ORDER:
            if ("outline", state) in self._groups:
                painter.setPen(OUTLINE_PENS[state])
                painter.drawRects(self._batch(("outline", state)))
        if _FRONTS in self._groups:
            painter.setPen(FRONT_PEN)
            painter.drawLines(self._batch(_FRONTS))


class PreviewItem(QGraphicsItem):
    """The outline of a gesture in progress: polygon vertices, a ghost row, an assign sweep."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_PREVIEW)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
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
        pen = QPen(self._colour, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        fill = QColor(self._colour)
        fill.setAlphaF(0.15)
        painter.setBrush(fill)
        for rect in self._rects:
            painter.drawRect(rect)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if self._closed:
            painter.drawPolygon(self._polyline)
        else:
            painter.drawPolyline(self._polyline)
        painter.setBrush(self._colour)
        for point in self._polyline.toList():
            painter.drawEllipse(point, 5, 5)
