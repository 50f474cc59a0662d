"""The floor-plan view: selection, the gestures (pan, drag-to-move, the row tool, assign-by-drag,
polygon capture: one class each in ``gestures``), drops from the palette, keys and the cursor
position; zoom, fitting, the route highlight and the scale bar come from ``PlanCanvas``.

Every edit leaves here as one command on the session (through PlanEditor); during a drag the
items are only displaced as a preview and the model changes once, on release.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QPainter
from PySide6.QtWidgets import QGraphicsView, QWidget

from planner.model.document import prefix_of
from planner.ui.plan.canvas import PlanCanvas
from planner.ui.plan.editing import MOVABLE_PREFIXES, PlanEditor
from planner.ui.plan.gestures import (
    AssignSweep,
    Gesture,
    LayRow,
    MoveSelection,
    Pan,
    PolygonCapture,
)
from planner.ui.plan.items import PlanItem
from planner.ui.plan.overlays import PreviewItem
from planner.ui.plan.units import to_model, to_scene
from planner.ui.session import DocumentSession

MIME_TYPE = "application/x-hallplanner-type"


class PlanView(PlanCanvas):
    """Shows a PlanScene and turns mouse, key and drop gestures into commands."""

    cursor_moved = Signal(float, float)
    polygon_captured = Signal(object)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setRubberBandSelectionMode(Qt.ItemSelectionMode.ContainsItemShape)
        self.setAcceptDrops(True)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.editor = PlanEditor(self)
        self.preview = PreviewItem()
        self.plan_scene.addItem(self.preview)
        self._space = False  # Space held: a left drag pans
        self._gesture: Gesture | None = None  # the press-drag-release under way (``gestures``)
        self._row_type = ""
        self._view_actions = self._make_view_actions()
        session.reset.connect(self._on_reset)
        self.scale(0.5, 0.5)

    # ----------------------------------------------------------------- actions
    def _make_view_actions(self) -> list[QAction]:
        def action(text: str, shortcut: QKeySequence | QKeySequence.StandardKey | None, slot, checkable: bool = False,
                   checked: bool = False) -> QAction:
            act = QAction(text, self)
            if shortcut is not None:
                act.setShortcut(shortcut)
                act.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
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
            action("Zoom &in", QKeySequence.StandardKey.ZoomIn, lambda: self.zoom_in()),
            action("Zoom &out", QKeySequence.StandardKey.ZoomOut, lambda: self.zoom_out()),
            action("&Fit to hall", QKeySequence("Ctrl+0"), lambda: self.fit_to_hall()),
            self.snap_action, self.assignments_action, self.row_tool_action,
        ]

    def edit_actions(self) -> list[QAction]:
        """Select all, copy, paste, duplicate, delete, rotate, array — for the Edit menu."""
        return self.editor.edit_actions()

    def view_actions(self) -> list[QAction]:
        """Zoom in/out, fit, snap toggle, assignments toggle, row tool — for View/Plan menus."""
        return list(self._view_actions)

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

    # -------------------------------------------------------- polygon capture
    def start_polygon_capture(self) -> None:
        """Collect clicked vertices; double-click or Enter finishes, Esc cancels."""
        self.cancel_gesture()
        self._gesture = PolygonCapture(self)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.status_message.emit("Click the corners; double-click or Enter to finish, Esc to cancel")

    def _finish_polygon(self, capture: PolygonCapture) -> None:
        points = list(capture.points)
        self.cancel_gesture()
        if len(points) >= 3:
            self.polygon_captured.emit(points)
        else:
            self.status_message.emit("A polygon needs at least three corners")

    # --------------------------------------------------------------- gestures
    def cancel_gesture(self) -> None:
        """End the gesture under way, putting back what it displaced, and clear the preview."""
        if self._gesture is not None:
            self._gesture.cancel()
        self.forget_gesture()
        self.preview.clear()
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag if self._space else QGraphicsView.DragMode.RubberBandDrag)

    def forget_gesture(self) -> None:
        """The gesture under way is over and left nothing to put back."""
        self._gesture = None

    def plan_scene_resync(self, ids) -> None:
        for obj_id in ids:
            item = self.plan_scene.item_for(obj_id)
            if item is not None:
                item.sync()

    def _on_reset(self) -> None:
        self.cancel_gesture()
        self.clear_route()
        self.fit_to_hall()

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event) -> None:
        pos = self.mapToScene(event.position().toPoint())
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton and self._space):
            self._gesture = Pan(self, pos, event.position())
            self._set_auto_fit(False)
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if button != Qt.MouseButton.LeftButton:
            super().mousePressEvent(event)
            return
        event.accept()
        if isinstance(self._gesture, PolygonCapture):
            self._gesture.click(pos)
            return
        if self.row_tool_action.isChecked():
            self._gesture = LayRow(self, pos, self._row_type)
            return
        item = self.plan_scene.plan_item_at(pos)
        alt = bool(event.modifiers() & Qt.KeyboardModifier.AltModifier)
        if item is not None and alt and self.editor.assignment_field(item.obj_id):
            self._gesture = AssignSweep(self, pos, item.obj_id)
            return
        if item is not None:
            self._press_on_item(item, event.modifiers(), pos)
            return
        super().mousePressEvent(event)

    def _press_on_item(self, item: PlanItem, modifiers, pos: QPointF) -> None:
        selection = self.session.selection
        if modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier):
            self.session.select(selection ^ {item.obj_id})
            return
        if item.obj_id not in selection:
            selection = {item.obj_id}
            self.session.select(selection)
        moving: dict[str, QPointF] = {}
        for obj_id in selection:
            moved = self.plan_scene.item_for(obj_id)
            if moved is not None and prefix_of(obj_id) in MOVABLE_PREFIXES:
                moving[obj_id] = moved.pos()
        self._gesture = MoveSelection(self, pos, item.obj_id, moving)

    def mouseMoveEvent(self, event) -> None:
        pos = self.mapToScene(event.position().toPoint())
        x, y = to_model(pos)
        self.cursor_moved.emit(x, y)
        if self._gesture is not None:
            self._gesture.move(pos, event)
            return
        super().mouseMoveEvent(event)
        if not self._space:
            self._hover_cursor(pos)

    def _hover_cursor(self, pos: QPointF) -> None:
        """A move cursor over things that can be dragged, the arrow elsewhere."""
        item = self.plan_scene.plan_item_at(pos)
        movable = item is not None and prefix_of(item.obj_id) in MOVABLE_PREFIXES
        if movable and not self.row_tool_action.isChecked():
            self.viewport().setCursor(Qt.CursorShape.SizeAllCursor)
        else:
            self.viewport().unsetCursor()

    def mouseReleaseEvent(self, event) -> None:
        if self._gesture is None:
            super().mouseReleaseEvent(event)
            return
        event.accept()
        self._gesture.release(self.mapToScene(event.position().toPoint()))

    def mouseDoubleClickEvent(self, event) -> None:
        if isinstance(self._gesture, PolygonCapture):
            self._finish_polygon(self._gesture)
            return
        super().mouseDoubleClickEvent(event)

    # -------------------------------------------------------------------- keys
    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            if self._gesture is None:
                self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
            return
        if key == Qt.Key.Key_Escape:
            self.cancel_gesture()
            self.row_tool_action.setChecked(False)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and isinstance(self._gesture, PolygonCapture):
            self._finish_polygon(self._gesture)
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            if self._gesture is None:
                self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
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
