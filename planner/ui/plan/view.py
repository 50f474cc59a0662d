"""The floor-plan view: zoom, pan, selection, drag-to-move, drops from the palette, the row
tool, assign-by-drag, polygon capture, the scale bar and the cursor position.

Every edit leaves here as one command on the session (through PlanEditor); during a drag the
items are only displaced as a preview and the model changes once, on release.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPaintEvent
from PySide6.QtWidgets import QApplication, QGraphicsView, QStyleOptionGraphicsItem, QWidget

from planner.model.catalog import RACK
from planner.model.document import prefix_of
from planner.model.geometry import extents
from planner.ui.plan.editing import MOVABLE_PREFIXES, PlanEditor
from planner.ui.plan.items import FootprintItem, PlanItem
from planner.ui.plan.overlays import BATCH_BELOW_LOD, PreviewItem, RouteItem, paint_scale_bar
from planner.ui.plan.scene import PlanScene
from planner.ui.plan.units import SCENE_PER_M, m, snap_m, to_model, to_scene
from planner.ui.session import DocumentSession

MIME_TYPE = "application/x-hallplanner-type"
ZOOM_STEP = 1.25
#: Zoom limits in screen pixels per metre.
MIN_PIXELS_PER_M, MAX_PIXELS_PER_M = 0.5, 2000.0
#: A picked cable's route is fitted with this margin (m), but zoomed in no further than rack
#: names and the racks around it read well (pixels per metre).
ROUTE_MARGIN_M, ROUTE_MAX_PIXELS_PER_M = 1.5, 90.0


class PlanView(QGraphicsView):
    """Shows a PlanScene and turns mouse, key and drop gestures into commands."""

    cursor_moved = Signal(float, float)
    status_message = Signal(str)
    polygon_captured = Signal(object)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.plan_scene = PlanScene(session)
        self.setScene(self.plan_scene)
        self.setRenderHint(QPainter.Antialiasing, False)
        self.setRenderHint(QPainter.TextAntialiasing, True)
        self.setCacheMode(QGraphicsView.CacheBackground)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ContainsItemShape)
        self.setAcceptDrops(True)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.StrongFocus)
        self.editor = PlanEditor(self)
        self.preview = PreviewItem()
        self.plan_scene.addItem(self.preview)
        self._route: RouteItem | None = None
        self._route_ends: tuple[str, ...] = ()
        self._snap = True
        self._space = False
        self._mode = ""
        self._press = QPointF()
        self._last_view_pos = QPointF()
        self._moving: dict[str, QPointF] = {}
        self._anchor = ""
        self._delta = (0.0, 0.0)
        self._polygon: list[tuple[float, float]] = []
        self._row_type = ""
        self._assign_source = ""
        self._assign_racks: list[str] = []
        self._last_sweep = QPointF()
        self._set_auto_fit(True)
        self._view_actions = self._make_view_actions()
        session.reset.connect(self._on_reset)
        self.scale(0.5, 0.5)

    # ----------------------------------------------------------------- actions
    def _make_view_actions(self) -> list[QAction]:
        def action(text: str, shortcut: QKeySequence | None, slot, checkable: bool = False,
                   checked: bool = False) -> QAction:
            act = QAction(text, self)
            if shortcut is not None:
                act.setShortcut(shortcut)
                act.setShortcutContext(Qt.WidgetWithChildrenShortcut)
            act.setCheckable(checkable)
            act.setChecked(checked)
            act.triggered.connect(slot)
            self.addAction(act)
            return act

        self.snap_action = action("Snap to &tile grid", QKeySequence("G"),
                                  lambda on: self.set_snap_enabled(on), True, True)
        self.assignments_action = action("Show &assignments", QKeySequence("Shift+A"),
                                         lambda on: self.set_assignments_visible(on), True, True)
        self.row_tool_action = action("&Row tool", QKeySequence("Shift+R"),
                                      lambda on: self.set_row_tool(on), True, False)
        return [
            action("Zoom &in", QKeySequence.ZoomIn, lambda: self.zoom_in()),
            action("Zoom &out", QKeySequence.ZoomOut, lambda: self.zoom_out()),
            action("&Fit to hall", QKeySequence("Ctrl+0"), lambda: self.fit_to_hall()),
            self.snap_action, self.assignments_action, self.row_tool_action,
        ]

    def edit_actions(self) -> list[QAction]:
        """Select all, copy, paste, duplicate, delete, rotate, array — for the Edit menu."""
        return self.editor.edit_actions()

    def view_actions(self) -> list[QAction]:
        """Zoom in/out, fit, snap toggle, assignments toggle, row tool — for View/Plan menus."""
        return list(self._view_actions)

    # ------------------------------------------------------------------- zoom
    def pixels_per_m(self) -> float:
        return self.transform().m11() * SCENE_PER_M

    def _zoom(self, factor: float) -> None:
        self._set_auto_fit(False)
        target = self.pixels_per_m() * factor
        if MIN_PIXELS_PER_M <= target <= MAX_PIXELS_PER_M:
            self.scale(factor, factor)
            self.viewport().update()

    def zoom_in(self) -> None:
        self._zoom(ZOOM_STEP)

    def zoom_out(self) -> None:
        self._zoom(1 / ZOOM_STEP)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_fit:
            self.fit_to_hall()

    def _set_auto_fit(self, fitted: bool) -> None:
        """Fitted, the whole hall is in view and there is nothing to scroll, so the scrollbars are
        off. Left on, they fed back: a fit showed one (the scene's margin is wider than the fit's),
        which narrowed the viewport, which refitted and hid it, and so on (95,000 resizes in 10 s
        with a 131k-GPU hall's docks open). Zoomed or panned, they come back."""
        self._auto_fit = fitted
        policy = Qt.ScrollBarPolicy.ScrollBarAlwaysOff if fitted else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        self.setHorizontalScrollBarPolicy(policy)
        self.setVerticalScrollBarPolicy(policy)

    def fit_to_hall(self) -> None:
        """Show the whole hall; until the user zooms or pans the view keeps it fitted on resize."""
        self._set_auto_fit(True)
        self.fitInView(self.plan_scene.hall_rect().adjusted(-m(1), -m(1), m(1), m(1)), Qt.KeepAspectRatio)
        self.viewport().update()

    def centre_on_ids(self, ids) -> None:
        """Bring the plan items of ``ids`` (a device by its rack) into view."""
        rect = QRectF()
        for obj_id in ids:
            item = self.plan_scene.item_for(obj_id)
            if item is None and obj_id in self.session.doc.devices:
                item = self.plan_scene.item_for(self.session.doc.devices[obj_id].rack)
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        self._centre_on_scene_rect(rect)

    def centre_on_rect(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Bring a plan rectangle in metres into view (a line, e.g. a stretch of tray, is fine)."""
        rect = QRectF(to_scene(min(x0, x1), min(y0, y1)), to_scene(max(x0, x1), max(y0, y1)))
        if rect.width() == 0 and rect.height() == 0:
            return
        self._centre_on_scene_rect(rect.adjusted(-m(0.05), -m(0.05), m(0.05), m(0.05)))

    def _centre_on_scene_rect(self, rect: QRectF) -> None:
        """Centre on ``rect``, zooming out to fit it (with 1 m around) when it does not fit."""
        if rect.isEmpty():
            return
        self._set_auto_fit(False)
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        if rect.width() > visible.width() or rect.height() > visible.height():
            self.fitInView(rect.adjusted(-m(1), -m(1), m(1), m(1)), Qt.KeepAspectRatio)
        else:
            self.centerOn(rect.center())

    def wheelEvent(self, event) -> None:
        """One wheel notch (120) zooms one step; a touchpad's finer deltas zoom in proportion."""
        notches = event.angleDelta().y() / 120
        if notches:
            self._zoom(ZOOM_STEP ** notches)
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:
        # decided here, as the one place every change of zoom (wheel, fit, centring) passes through
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(self.transform())
        self.plan_scene.batch_footprints(lod < BATCH_BELOW_LOD)
        super().paintEvent(event)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.viewport().update()

    # ---------------------------------------------------------------- options
    def set_snap_enabled(self, enabled: bool) -> None:
        self._snap = bool(enabled)
        self.snap_action.setChecked(self._snap)

    def set_assignments_visible(self, visible: bool) -> None:
        self.plan_scene.set_assignments_visible(bool(visible))
        self.assignments_action.setChecked(bool(visible))

    def set_row_tool(self, on: bool, type_key: str | None = None) -> None:
        """Row tool: a drag on the floor lays a row of racks of ``type_key``, else of the type of
        the selected racks (when they share one), else of the default rack type."""
        doc = self.session.doc
        selected = {doc.racks[i].type for i in self.session.selection if i in doc.racks}
        if type_key is None and len(selected) == 1:
            type_key = selected.pop()
        self._row_type = type_key or doc.catalog.default_rack().key
        self.row_tool_action.setChecked(bool(on))
        if on:
            self.status_message.emit("Row tool: drag along the floor to lay out a row of racks")

    def snap_point(self, x: float, y: float) -> tuple[float, float]:
        if not self._snap:
            return round(x, 3), round(y, 3)
        return snap_m(x), snap_m(y)

    def snap_centre(self, x: float, y: float, width: float, depth: float, rotation: int) -> tuple[float, float]:
        """Centre for a footprint dropped at (x, y): its corner on a tile line when snapping."""
        ex, ey = extents(width, depth, rotation)
        if not self._snap:
            return round(x, 3), round(y, 3)
        return round(snap_m(x - ex / 2) + ex / 2, 6), round(snap_m(y - ey / 2) + ey / 2, 6)

    # ----------------------------------------------------------------- routes
    def show_route(self, points_m: list[tuple[float, float]], ends: tuple[str, str] = (),
                   focus: bool = False) -> None:
        """Highlight a cable's route: ``points_m`` is its tray path (``Router.route(...).polyline``),
        ``ends`` its two devices (their racks are outlined and named at the drops). With ``focus``
        (the user picked the cable) the view fits the route and end A's device is selected, so
        the elevation dock shows it; a redraw after an edit leaves view and selection alone."""
        self.clear_route()
        doc = self.session.doc
        devices = [doc.devices[d] for d in ends if d in doc.devices]
        racks, labels = [], None
        for device in devices:
            item = self.plan_scene.item_for(device.rack)
            if isinstance(item, FootprintItem):
                racks.append(item.footprint()[0])
        if len(devices) == 2:
            labels = tuple(f"{side} · {doc.racks[d.rack].name} U{d.u} {d.name}" if d.rack in doc.racks
                           else f"{side} · {d.name}" for side, d in zip("AB", devices))
        self._route = RouteItem(points_m, racks, labels)
        self._route_ends = tuple(d.rack for d in devices)
        self.plan_scene.addItem(self._route)
        if focus:
            self.fit_scene_rect(self._route.route_rect(), ROUTE_MARGIN_M, ROUTE_MAX_PIXELS_PER_M)
            if devices:
                self.session.select({devices[0].id})

    def route_ends(self) -> tuple[str, ...]:
        """The racks at the ends of the highlighted route (outlined on the plan)."""
        return self._route_ends if self._route is not None else ()

    def clear_route(self) -> None:
        if self._route is not None:
            self.plan_scene.removeItem(self._route)
            self._route = None
            self._route_ends = ()

    def fit_scene_rect(self, rect: QRectF, margin_m: float, max_pixels_per_m: float) -> None:
        """Centre on ``rect`` and zoom to fit it with ``margin_m`` around, but no closer than
        ``max_pixels_per_m`` (a short route is shown with its surroundings)."""
        if rect.isNull():
            return
        self._set_auto_fit(False)
        self.fitInView(rect.adjusted(-m(margin_m), -m(margin_m), m(margin_m), m(margin_m)), Qt.KeepAspectRatio)
        ppm = self.pixels_per_m()
        limit = min(max_pixels_per_m, MAX_PIXELS_PER_M)
        if ppm > limit or ppm < MIN_PIXELS_PER_M:
            factor = min(max(ppm, MIN_PIXELS_PER_M), limit) / ppm
            self.scale(factor, factor)
        self.centerOn(rect.center())
        self.viewport().update()

    # -------------------------------------------------------- polygon capture
    def start_polygon_capture(self) -> None:
        """Collect clicked vertices; double-click or Enter finishes, Esc cancels."""
        self._cancel()
        self._mode = "polygon"
        self._polygon = []
        self.setDragMode(QGraphicsView.NoDrag)
        self.status_message.emit("Click the corners; double-click or Enter to finish, Esc to cancel")

    def _finish_polygon(self) -> None:
        points = list(self._polygon)
        self._cancel()
        if len(points) >= 3:
            self.polygon_captured.emit(points)
        else:
            self.status_message.emit("A polygon needs at least three corners")

    def _cancel(self) -> None:
        if self._mode == "move":
            self.plan_scene_resync(self._moving)
        self._mode = ""
        self._moving = {}
        self._polygon = []
        self._assign_racks = []
        self.preview.clear()
        self.setDragMode(QGraphicsView.ScrollHandDrag if self._space else QGraphicsView.RubberBandDrag)

    def plan_scene_resync(self, ids) -> None:
        for obj_id in ids:
            item = self.plan_scene.item_for(obj_id)
            if item is not None:
                item.sync()

    def _on_reset(self) -> None:
        self._cancel()
        self.clear_route()
        self.fit_to_hall()

    # ------------------------------------------------------------------ mouse
    def _scene_m(self, event) -> tuple[float, float]:
        return to_model(self.mapToScene(event.position().toPoint()))

    def mousePressEvent(self, event) -> None:
        pos = self.mapToScene(event.position().toPoint())
        self._press = pos
        self._last_view_pos = event.position()
        button = event.button()
        if button == Qt.MiddleButton or (button == Qt.LeftButton and self._space):
            self._mode = "pan"
            self._set_auto_fit(False)
            self.viewport().setCursor(Qt.ClosedHandCursor)
            event.accept()
            return
        if button != Qt.LeftButton:
            super().mousePressEvent(event)
            return
        x, y = to_model(pos)
        event.accept()
        if self._mode == "polygon":
            self._polygon.append(self.snap_point(x, y))
            self._preview_polygon(pos)
            return
        if self.row_tool_action.isChecked():
            self._mode = "row"
            return
        item = self.plan_scene.plan_item_at(pos)
        alt = bool(event.modifiers() & Qt.AltModifier)
        if item is not None and alt and self.editor.assignment_field(item.obj_id):
            self._mode = "assign"
            self._assign_source = item.obj_id
            self._assign_racks = []
            self._last_sweep = pos
            return
        if item is not None:
            self._press_on_item(item, event.modifiers())
            return
        super().mousePressEvent(event)

    def _press_on_item(self, item: PlanItem, modifiers) -> None:
        selection = self.session.selection
        if modifiers & (Qt.ControlModifier | Qt.ShiftModifier):
            self.session.select(selection ^ {item.obj_id})
            return
        if item.obj_id not in selection:
            selection = {item.obj_id}
            self.session.select(selection)
        self._mode = "move-pending"
        self._anchor = item.obj_id
        self._moving = {}
        for obj_id in selection:
            moving = self.plan_scene.item_for(obj_id)
            if moving is not None and prefix_of(obj_id) in MOVABLE_PREFIXES:
                self._moving[obj_id] = moving.pos()
        self._delta = (0.0, 0.0)

    def mouseMoveEvent(self, event) -> None:
        pos = self.mapToScene(event.position().toPoint())
        x, y = to_model(pos)
        self.cursor_moved.emit(x, y)
        if self._mode == "pan":
            delta = event.position() - self._last_view_pos
            self._last_view_pos = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            return
        if self._mode == "move-pending":
            moved = (self.mapFromScene(pos) - self.mapFromScene(self._press)).manhattanLength()
            if moved >= QApplication.startDragDistance() and self._moving:
                self._mode = "move"
        if self._mode == "move":
            self._drag_move(pos)
            return
        if self._mode == "row":
            self._preview_row(pos)
            return
        if self._mode == "assign":
            self._sweep_assign(pos)
            return
        if self._mode == "polygon":
            self._preview_polygon(pos)
            return
        if self._mode != "move-pending":
            super().mouseMoveEvent(event)
        if not self._mode and not self._space:
            self._hover_cursor(pos)

    def _hover_cursor(self, pos: QPointF) -> None:
        """A move cursor over things that can be dragged, the arrow elsewhere."""
        item = self.plan_scene.plan_item_at(pos)
        movable = item is not None and prefix_of(item.obj_id) in MOVABLE_PREFIXES
        if movable and not self.row_tool_action.isChecked():
            self.viewport().setCursor(Qt.SizeAllCursor)
        else:
            self.viewport().unsetCursor()

    def mouseReleaseEvent(self, event) -> None:
        mode = self._mode
        if mode:
            event.accept()
        if mode == "pan":
            self._mode = ""
            self.viewport().unsetCursor()
            return
        if mode == "move":
            ids = list(self._moving)
            dx, dy = self._delta
            self._cancel()
            if dx or dy:
                self.editor.move(ids, dx, dy)
            return
        if mode == "move-pending":
            self._mode = ""
            self._moving = {}
            return
        if mode == "row":
            racks = self._row_racks(self.mapToScene(event.position().toPoint()))
            self._cancel()
            self.editor.add_row(racks)
            return
        if mode == "assign":
            source, racks = self._assign_source, list(self._assign_racks)
            self._cancel()
            self.editor.assign(source, racks)
            return
        if mode == "polygon":
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        if self._mode == "polygon":
            self._finish_polygon()
            return
        super().mouseDoubleClickEvent(event)

    def _drag_move(self, pos: QPointF) -> None:
        raw_x, raw_y = to_model(pos - self._press)
        ax, ay = self._anchor_corner()
        if self._snap:
            dx, dy = snap_m(ax + raw_x) - ax, snap_m(ay + raw_y) - ay
        else:
            dx, dy = raw_x, raw_y
        self._delta = (round(dx, 6), round(dy, 6))
        offset = to_scene(*self._delta)
        for obj_id, start in self._moving.items():
            item = self.plan_scene.item_for(obj_id)
            if item is not None:
                item.setPos(start + offset)
                if isinstance(item, FootprintItem):
                    self.plan_scene.footprints.track(item)  # zoomed out, the batch draws it

    def _anchor_corner(self) -> tuple[float, float]:
        """The point of the grabbed object that snaps to the grid: footprint corner or line start."""
        doc = self.session.doc
        obj = doc.find(self._anchor) if self._anchor in self._moving else None
        if obj is None:
            obj = doc.find(next(iter(self._moving)))
        prefix = prefix_of(obj.id)
        if prefix in ("rack", "fu"):
            x0, y0, _x1, _y1 = doc.rack_bounds(obj)
            return x0, y0
        if prefix == "bus":
            return obj.x1, obj.y1
        return obj.x, obj.y

    def _row_racks(self, pos: QPointF) -> list:
        x0, y0 = to_model(self._press)
        x1, y1 = to_model(pos)
        key = self._row_type or self.session.doc.catalog.default_rack().key
        if self.session.doc.catalog[key].kind != RACK:
            key = self.session.doc.catalog.default_rack().key
        return self.editor.row_racks(key, x0, y0, x1, y1)

    def _preview_row(self, pos: QPointF) -> None:
        doc = self.session.doc
        rects = []
        for rack in self._row_racks(pos):
            x0, y0, x1, y1 = doc.rack_bounds(rack)
            rects.append(QRectF(to_scene(x0, y0), to_scene(x1, y1)))
        self.preview.set_shape([], rects)
        self.status_message.emit(f"Row of {len(rects)} racks")

    def _sweep_assign(self, pos: QPointF) -> None:
        start = self._last_sweep
        steps = max(1, int(math.hypot(pos.x() - start.x(), pos.y() - start.y()) / m(0.1)))
        for k in range(steps + 1):
            point = start + (pos - start) * (k / steps)
            item = self.plan_scene.plan_item_at(point, kinds=("rack",))
            if item is not None and item.obj_id not in self._assign_racks:
                self._assign_racks.append(item.obj_id)
        self._last_sweep = pos
        source = self.plan_scene.item_for(self._assign_source)
        rects = [self.plan_scene.item_for(r).sceneBoundingRect() for r in self._assign_racks]
        origin = source.sceneBoundingRect().center() if source else self._press
        self.preview.set_shape([origin, pos], rects)

    def _preview_polygon(self, cursor: QPointF) -> None:
        points = [to_scene(x, y) for x, y in self._polygon] + [cursor]
        self.preview.set_shape(points)

    # -------------------------------------------------------------------- keys
    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key == Qt.Key_Space and not event.isAutoRepeat():
            self._space = True
            if not self._mode:
                self.setDragMode(QGraphicsView.ScrollHandDrag)
            return
        if key == Qt.Key_Escape:
            self._cancel()
            self.row_tool_action.setChecked(False)
            return
        if key in (Qt.Key_Return, Qt.Key_Enter) and self._mode == "polygon":
            self._finish_polygon()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key_Space and not event.isAutoRepeat():
            self._space = False
            if not self._mode:
                self.setDragMode(QGraphicsView.RubberBandDrag)
            return
        super().keyReleaseEvent(event)

    # ------------------------------------------------------------------- drops
    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        if event.mimeData().hasFormat(MIME_TYPE):
            x, y = to_model(self.mapToScene(event.position().toPoint()))
            self.cursor_moved.emit(x, y)
            key = bytes(event.mimeData().data(MIME_TYPE)).decode("utf-8")
            boxes, hint = self.editor.drop_outline(key, x, y)
            self.preview.set_shape([], [QRectF(to_scene(x0, y0), to_scene(x1, y1)) for x0, y0, x1, y1 in boxes])
            if hint:
                self.status_message.emit(hint)
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragLeaveEvent(self, event) -> None:
        self.preview.clear()
        super().dragLeaveEvent(event)

    def dropEvent(self, event) -> None:
        self.preview.clear()
        if not event.mimeData().hasFormat(MIME_TYPE):
            event.ignore()
            return
        key = bytes(event.mimeData().data(MIME_TYPE)).decode("utf-8")
        x, y = to_model(self.mapToScene(event.position().toPoint()))
        event.acceptProposedAction()
        self.editor.drop(key, x, y)
        self.setFocus()

    # -------------------------------------------------------------- scale bar
    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        paint_scale_bar(painter, self.viewport().height(), self.pixels_per_m())
