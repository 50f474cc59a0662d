"""The plan view's press-drag-release gestures, one class each (as QGIS's map tools and Orange's
canvas interactions are): pan, move the selection, lay a row of racks, assign racks with a sweep,
and capture a polygon click by click.

The view keeps the one under way and hands it the mouse; a gesture holds its own state (where it
started, what it moves or collects) and ends in at most one command through the view's editor.
Until then only the preview and the displaced items show it; ``cancel`` puts those back.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from planner.model.catalog import RACK
from planner.model.document import prefix_of
from planner.model.objects import Rack
from planner.ui.plan.items import FootprintItem
from planner.ui.plan.units import m, snap_m, to_model, to_scene

if TYPE_CHECKING:
    from planner.ui.plan.view import PlanView


class Gesture:
    """One gesture on the plan view, from the press that starts it to the release that ends it."""

    def __init__(self, view: PlanView, press: QPointF) -> None:
        self.view = view
        self.press = press  # scene coordinates

    def move(self, pos: QPointF, event: QMouseEvent) -> None:
        """The mouse moved to ``pos`` (scene coordinates) with the gesture under way."""

    def release(self, pos: QPointF) -> None:
        """The button came up at ``pos``: finish (the view forgets the gesture)."""
        self.view.cancel_gesture()

    def cancel(self) -> None:
        """Put back what the gesture displaced (the view clears the preview)."""


class Pan(Gesture):
    """Middle button, or Space with the left: drag the plan."""

    def __init__(self, view: PlanView, press: QPointF, at: QPointF) -> None:
        super().__init__(view, press)
        self.last = at  # view coordinates

    def move(self, pos: QPointF, event: QMouseEvent) -> None:
        delta = event.position() - self.last
        self.last = event.position()
        view = self.view
        view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() - int(delta.x()))
        view.verticalScrollBar().setValue(view.verticalScrollBar().value() - int(delta.y()))

    def release(self, pos: QPointF) -> None:
        self.view.forget_gesture()
        self.view.viewport().unsetCursor()


class MoveSelection(Gesture):
    """A press on a selected item: past the drag distance, the selection follows the mouse
    (snapped by the grabbed item's corner), and moves once, on release."""

    def __init__(self, view: PlanView, press: QPointF, anchor: str, moving: dict[str, QPointF]) -> None:
        super().__init__(view, press)
        self.anchor = anchor
        self.moving = moving  # id → the item's position at the press
        self.started = False
        self.delta = (0.0, 0.0)

    def move(self, pos: QPointF, event: QMouseEvent) -> None:
        view = self.view
        if not self.started:
            moved = (view.mapFromScene(pos) - view.mapFromScene(self.press)).manhattanLength()
            self.started = moved >= QApplication.startDragDistance() and bool(self.moving)
        if self.started:
            self._drag(pos)

    def release(self, pos: QPointF) -> None:
        if not self.started:  # a click: the selection is all it did
            self.view.forget_gesture()
            return
        ids, (dx, dy) = list(self.moving), self.delta
        self.view.cancel_gesture()
        if dx or dy:
            self.view.editor.move(ids, dx, dy)

    def cancel(self) -> None:
        if self.started:
            self.view.plan_scene_resync(self.moving)

    def _drag(self, pos: QPointF) -> None:
        raw_x, raw_y = to_model(pos - self.press)
        ax, ay = self._anchor_corner()
        if self.view.snapping():
            dx, dy = snap_m(ax + raw_x) - ax, snap_m(ay + raw_y) - ay
        else:
            dx, dy = raw_x, raw_y
        self.delta = (round(dx, 6), round(dy, 6))
        offset = to_scene(*self.delta)
        scene = self.view.plan_scene
        for obj_id, start in self.moving.items():
            item = scene.item_for(obj_id)
            if item is not None:
                item.setPos(start + offset)
                if isinstance(item, FootprintItem):
                    scene.footprints.track(item)  # zoomed out, the batch draws it

    def _anchor_corner(self) -> tuple[float, float]:
        """The point of the grabbed object that snaps to the grid: footprint corner or line start."""
        doc = self.view.session.doc
        obj = doc.find(self.anchor) if self.anchor in self.moving else None
        if obj is None:
            obj = doc.find(next(iter(self.moving)))
        assert obj is not None, "a drag moves objects of the plan"
        prefix = prefix_of(obj.id)
        if prefix in ("rack", "fu"):
            x0, y0, _x1, _y1 = doc.rack_bounds(obj)
            return x0, y0
        if prefix == "bus":
            return obj.x1, obj.y1
        return obj.x, obj.y


class LayRow(Gesture):
    """The row tool: a drag along the floor lays a row of racks of one type."""

    def __init__(self, view: PlanView, press: QPointF, rack_type: str) -> None:
        super().__init__(view, press)
        self.rack_type = rack_type

    def racks(self, pos: QPointF) -> list[Rack]:
        x0, y0 = to_model(self.press)
        x1, y1 = to_model(pos)
        catalog = self.view.session.doc.catalog
        key = self.rack_type or catalog.default_rack().key
        if catalog[key].kind != RACK:
            key = catalog.default_rack().key
        return self.view.editor.row_racks(key, x0, y0, x1, y1)

    def move(self, pos: QPointF, event: QMouseEvent) -> None:
        doc = self.view.session.doc
        rects = []
        for rack in self.racks(pos):
            x0, y0, x1, y1 = doc.rack_bounds(rack)
            rects.append(QRectF(to_scene(x0, y0), to_scene(x1, y1)))
        self.view.preview.set_shape([], rects)
        self.view.status_message.emit(f"Row of {len(rects)} racks")

    def release(self, pos: QPointF) -> None:
        racks = self.racks(pos)
        self.view.cancel_gesture()
        self.view.editor.add_row(racks)


class AssignSweep(Gesture):
    """Alt-drag from a busbar or CDU across racks: each rack swept is assigned to it."""

    def __init__(self, view: PlanView, press: QPointF, source: str) -> None:
        super().__init__(view, press)
        self.source = source
        self.racks: list[str] = []
        self.last = press

    def move(self, pos: QPointF, event: QMouseEvent) -> None:
        scene = self.view.plan_scene
        start = self.last
        steps = max(1, int(math.hypot(pos.x() - start.x(), pos.y() - start.y()) / m(0.1)))
        for k in range(steps + 1):
            point = start + (pos - start) * (k / steps)
            item = scene.plan_item_at(point, kinds=("rack",))
            if item is not None and item.obj_id not in self.racks:
                self.racks.append(item.obj_id)
        self.last = pos
        source = scene.item_for(self.source)
        rects = [item.sceneBoundingRect() for r in self.racks if (item := scene.item_for(r))]
        origin = source.sceneBoundingRect().center() if source else self.press
        self.view.preview.set_shape([origin, pos], rects)

    def release(self, pos: QPointF) -> None:
        source, racks = self.source, list(self.racks)
        self.view.cancel_gesture()
        self.view.editor.assign(source, racks)


class PolygonCapture(Gesture):
    """Corners clicked one by one (snapped); a double-click or Enter finishes, Esc cancels."""

    def __init__(self, view: PlanView) -> None:
        super().__init__(view, QPointF())
        self.points: list[tuple[float, float]] = []

    def click(self, pos: QPointF) -> None:
        self.points.append(self.view.snap_point(*to_model(pos)))
        self.move(pos, None)

    def move(self, pos: QPointF, event: QMouseEvent | None) -> None:
        self.view.preview.set_shape([to_scene(x, y) for x, y in self.points] + [pos])

    def release(self, pos: QPointF) -> None:
        """A release between clicks: the capture goes on."""
