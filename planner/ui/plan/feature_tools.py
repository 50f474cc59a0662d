"""Drawing the hall on the plan: the Draw tools (columns, round columns, walls, zones, doors,
hand-off points) and dragging and reshaping the features already there (issue 18).

The tools watch the plan view's mouse and keys through an event filter, so the view's own
gestures (select, drag racks, row tool, pan) stay as they are: a draw tool, a press on a
selected feature's handle and a press on a column, wall, zone or door are taken here, anything
else goes on to the view. Every finished gesture is one command (``planner.commands.features``)
pushed through the view's editor, so a refusal becomes a status message and a new shape is
selected; until then only the view's preview and the displaced items show it. Points snap to
the tile grid while the view snaps (G).

Listed in the main window's ``EXTENSIONS``: ``attach`` puts the tools in Plan ▸ Draw and on a
Draw toolbar, and a double-click on a feature opens Plan ▸ Hall features at its row.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeyEvent, QKeySequence, QMouseEvent
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu, QToolBar

from planner.commands import Command, Compound, Refusal, edits, features
from planner.model.document import natural_key, prefix_of
from planner.model.objects import Door, Point
from planner.ui.display_units import length_unit, to_display
from planner.ui.plan.editing import MOVABLE_PREFIXES
from planner.ui.plan.feature_items import HANDLE_REACH_PIXELS, HandleLayer
from planner.ui.plan.items import FootprintItem
from planner.ui.plan.units import to_model, to_scene

if TYPE_CHECKING:
    from planner.model.document import Document
    from planner.ui.main_window import MainWindow
    from planner.ui.plan.view import PlanView

#: (tool, menu text, toolbar text, shortcut, what to do): the Draw tools in menu order.
TOOLS = (
    ("column", "&Column (rectangle)", "Column", "C", "drag from corner to corner"),
    ("round", "&Round column", "Round column", "Shift+C", "drag from the centre out to the rim"),
    ("wall", "&Wall", "Wall", "W", "drag along the wall's centre line"),
    ("zone", "Floor &zone", "Zone", "Z", "click the corners; double-click or Enter to finish"),
    ("door", "&Door", "Door", "D", "drag from one jamb to the other"),
    ("power", "&Power hand-off", "Power", "P", "click where the facility power enters"),
    ("coolant", "C&oolant hand-off", "Coolant", "L", "click where the facility water enters"),
    ("network", "&Network hand-off", "Network", "N", "click where the network enters"),
)
#: Features a press on the plan drags here (hand-offs the view drags, with the racks).
DRAGGED_HERE = ("obs", "zone", "door")


class FeatureTools(QObject):
    """The Draw tools and the feature drag and reshape gestures of one PlanView."""

    edit_requested = Signal(str)

    def __init__(self, view: PlanView) -> None:
        super().__init__(view)
        self.view = view
        self.session = view.session
        self.tool = ""
        self._gesture = ""
        self._start: Point = (0.0, 0.0)
        self._press = QPointF()
        self._corners: list[Point] = []
        self._moving: dict[str, QPointF] = {}
        self._anchor: Point = (0.0, 0.0)
        self._delta: Point = (0.0, 0.0)
        self._handle: tuple[str, int] | None = None
        self._target: Point | None = None
        self.handles = HandleLayer()
        view.plan_scene.add_layer(self.handles)
        group = QActionGroup(self)
        group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
        self._actions: dict[str, QAction] = {}
        for key, text, short, shortcut, hint in TOOLS:
            action = QAction(text, view)
            action.setIconText(short)
            action.setToolTip(f"{text.replace('&', '')} ({shortcut}): {hint}")
            action.setCheckable(True)
            action.setShortcut(QKeySequence(shortcut))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.setStatusTip(f"{text.replace('&', '')}: {hint}; Esc leaves the tool")
            action.toggled.connect(lambda on, k=key: self._toggled(k, on))
            group.addAction(action)
            view.addAction(action)
            self._actions[key] = action
        # kept, so the filter tells its objects apart without calling into a view being destroyed
        self._viewport = view.viewport()
        self._mouse = {QEvent.Type.MouseButtonPress: self._pressed, QEvent.Type.MouseMove: self._moved,
                       QEvent.Type.MouseButtonRelease: self._released, QEvent.Type.MouseButtonDblClick: self._double_clicked}
        self._viewport.installEventFilter(self)
        view.installEventFilter(self)
        self.session.selection_changed.connect(lambda _ids: self.refresh_handles())
        self.session.changed.connect(lambda _change: self.refresh_handles())
        self.session.reset.connect(self._on_reset)
        view.row_tool_action.toggled.connect(lambda on: self.set_tool("") if on else None)

    def actions(self) -> list[QAction]:
        return list(self._actions.values())

    def action(self, tool: str) -> QAction:
        return self._actions[tool]

    @property
    def doc(self) -> Document:
        return self.session.doc

    # ------------------------------------------------------------------ tools
    def set_tool(self, tool: str) -> None:
        """Take up a Draw tool ("" puts the current one down)."""
        if tool:
            self._actions[tool].setChecked(True)
        elif self.tool:
            self._actions[self.tool].setChecked(False)

    def _toggled(self, tool: str, on: bool) -> None:
        self._cancel()
        if on:
            self.tool = tool
            self.view.set_row_tool(False)
            self.view.viewport().setCursor(Qt.CursorShape.CrossCursor)
            self.view.setFocus()
            self.view.status_message.emit(self._actions[tool].statusTip())
        elif self.tool == tool:
            self.tool = ""
            self.view.viewport().unsetCursor()

    def _on_reset(self) -> None:
        self._cancel()
        self.refresh_handles()

    def _cancel(self) -> None:
        """Drop the gesture in progress: the preview goes, displaced items go back."""
        for obj_id in self._moving:
            item = self.view.plan_scene.item_for(obj_id)
            if item is not None:
                item.sync()
        self._gesture, self._corners, self._moving = "", [], {}
        self._handle, self._target = None, None
        self.view.preview.clear()

    # ---------------------------------------------------------------- handles
    def _selected_features(self) -> list[str]:
        return sorted((i for i in self.session.selection if prefix_of(i) in DRAGGED_HERE and i in self.doc),
                      key=natural_key)

    def refresh_handles(self) -> None:
        self.handles.set_points([p for i in self._selected_features() for p in features.handles(self.doc.get(i))])

    def handle_at(self, pos: QPointF) -> tuple[str, int] | None:
        """The selected feature's handle within reach of a viewport point: (id, handle)."""
        for obj_id in self._selected_features():
            for index, (x, y) in enumerate(features.handles(self.doc.get(obj_id))):
                point = self.view.mapFromScene(to_scene(x, y))
                if math.hypot(point.x() - pos.x(), point.y() - pos.y()) <= HANDLE_REACH_PIXELS:
                    return obj_id, index
        return None

    # ----------------------------------------------------------------- events
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Mouse on the viewport, keys on the view; filters installed later (the comment pin,
        the two-point scale) see the events first, so their modes win over the feature gestures."""
        kind = event.type()
        if watched is self._viewport and kind in self._mouse and isinstance(event, QMouseEvent):
            return self._mouse[kind](event)
        if watched is self.view and kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            return self._key(event)
        return False

    def _model(self, event: QMouseEvent) -> Point:
        return to_model(self.view.mapToScene(event.position().toPoint()))

    def _pressed(self, event: QMouseEvent) -> bool:
        if event.button() != Qt.MouseButton.LeftButton or self.view.dragMode() == QGraphicsView.DragMode.ScrollHandDrag:
            return False
        point = self.view.snap_point(*self._model(event))
        if self.tool:
            self.view.setFocus()
            if self.tool in features.HANDOFF_KINDS:
                kind = self.tool
                self._push(lambda: features.add_handoff(self.doc, kind, *point))
            elif self.tool == "zone":
                if not self._corners or self._corners[-1] != point:
                    self._corners.append(point)
                self._gesture = "zone"
                self._preview_zone(self._model(event))
            else:
                self._gesture, self._start = "draw", point
            return True
        if event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.AltModifier):
            return False
        handle = self.handle_at(event.position())
        if handle is not None:
            self._gesture, self._handle, self._target = "reshape", handle, None
            return True
        item = self.view.plan_scene.plan_item_at(self.view.mapToScene(event.position().toPoint()))
        if item is None or prefix_of(item.obj_id) not in DRAGGED_HERE:
            return False
        selection = self.session.selection
        if item.obj_id not in selection:
            selection = {item.obj_id}
            self.session.select(selection)
        self._gesture, self._press = "move-pending", event.position()
        self._anchor = features.anchor(self.doc.get(item.obj_id))
        self._moving = {}
        for obj_id in selection:
            moving = self.view.plan_scene.item_for(obj_id)
            if moving is not None and prefix_of(obj_id) in (*features.FEATURE_PREFIXES, *MOVABLE_PREFIXES):
                self._moving[obj_id] = moving.pos()
        self._delta = (0.0, 0.0)
        return True

    def _moved(self, event: QMouseEvent) -> bool:
        if not (self.tool or self._gesture):
            return False
        raw = self._model(event)
        self.view.cursor_moved.emit(*raw)
        if self._gesture == "draw":
            self._preview_shape(self.view.snap_point(*raw))
        elif self._gesture == "zone":
            self._preview_zone(raw)
        elif self._gesture == "move-pending":
            if (event.position() - self._press).manhattanLength() >= QApplication.startDragDistance():
                self._gesture = "move"
                self._drag(event)
        elif self._gesture == "move":
            self._drag(event)
        elif self._gesture == "reshape":
            self._preview_reshape(self.view.snap_point(*raw))
        return True

    def _released(self, event: QMouseEvent) -> bool:
        gesture = self._gesture
        if gesture == "draw":
            start, end = self._start, self.view.snap_point(*self._model(event))
            self._cancel()
            self._push(lambda: self._shape_command(start, end))
            return True
        if gesture == "move":
            ids, (dx, dy) = sorted(self._moving, key=natural_key), self._delta
            self._cancel()
            if dx or dy:
                self._push(lambda: self._move_command(ids, dx, dy), select=False)
            return True
        if gesture == "reshape":
            handle, target = self._handle, self._target
            self._cancel()
            if handle is not None and target is not None:
                self._push(lambda: features.reshape(self.doc, handle[0], handle[1], *target), select=False)
            return True
        if gesture == "move-pending":
            self._gesture, self._moving = "", {}
            return True
        return bool(self.tool)

    def _double_clicked(self, event: QMouseEvent) -> bool:
        if self.tool == "zone":
            point = self.view.snap_point(*self._model(event))
            if not self._corners or self._corners[-1] != point:  # its first press added it already
                self._corners.append(point)
            self._finish_zone()
            return True
        if self.tool:
            return True
        item = self.view.plan_scene.plan_item_at(self.view.mapToScene(event.position().toPoint()))
        if item is not None and prefix_of(item.obj_id) in features.FEATURE_PREFIXES:
            self.edit_requested.emit(item.obj_id)
            return True
        return False

    def _key(self, event: QKeyEvent) -> bool:
        key = event.key()
        if key == Qt.Key.Key_Escape and (self._gesture or self.tool):
            if self._gesture:
                self._cancel()
            else:
                self.set_tool("")
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self._gesture == "zone":
            self._finish_zone()
            return True
        return False

    # --------------------------------------------------------------- commands
    def _push(self, build: Callable[[], Command], select: bool = True) -> None:
        command = self.view.editor.push(build, select_new=select)
        if command is not None:
            self.view.status_message.emit(command.text)

    def _shape_command(self, start: Point, end: Point) -> Command:
        doc, (x0, y0), (x1, y1) = self.doc, start, end
        if self.tool == "column":
            return features.add_column(doc, x0, y0, x1, y1)
        if self.tool == "round":
            return features.add_round_column(doc, x0, y0, math.dist(start, end))
        if self.tool == "wall":
            return features.add_wall(doc, x0, y0, x1, y1)
        return features.add_door(doc, x0, y0, x1, y1)

    def _move_command(self, ids: list[str], dx: float, dy: float) -> Command:
        doc = self.doc
        shapes = [i for i in ids if prefix_of(i) in features.FEATURE_PREFIXES]
        others = [i for i in ids if i not in shapes]
        if not others:
            return features.move_features(doc, shapes, dx, dy)
        return Compound([features.move_features(doc, shapes, dx, dy), edits.move_objects(doc, others, dx, dy)],
                        text=f"Move {edits.subject(doc, map(doc.get, ids))}")

    def _finish_zone(self) -> None:
        corners = list(self._corners)
        self._cancel()
        self._push(lambda: features.add_zone(self.doc, corners))

    # --------------------------------------------------------------- previews
    def _length(self, metres: float) -> str:
        return f"{to_display(self.doc, metres):.2f} {length_unit(self.doc)}"

    def _preview_shape(self, end: Point) -> None:
        """The shape the draw tool would make from the press to ``end``, and its size in words."""
        preview, (x0, y0), (x1, y1) = self.view.preview, self._start, end
        if self.tool == "column":
            preview.set_shape([], [QRectF(to_scene(x0, y0), to_scene(x1, y1)).normalized()])
            words = f"Column {self._length(abs(x1 - x0))} × {self._length(abs(y1 - y0))}"
        elif self.tool == "round":
            radius = math.dist(self._start, end)
            preview.set_shape([to_scene(*p) for p in features.circle(x0, y0, radius)], closed=True)
            words = f"Round column ⌀ {self._length(2 * radius)}"
        elif self.tool == "wall":
            polygon = features.wall(x0, y0, x1, y1) if (x0, y0) != (x1, y1) else []
            preview.set_shape([to_scene(*p) for p in polygon], closed=True)
            words = f"Wall {self._length(math.dist(self._start, end))}"
        else:
            preview.set_shape([to_scene(x0, y0), to_scene(x1, y1)])
            words = f"Door {self._length(math.dist(self._start, end))}"
        self.view.status_message.emit(words)

    def _preview_zone(self, cursor: Point) -> None:
        points = [to_scene(*p) for p in self._corners] + [to_scene(*self.view.snap_point(*cursor))]
        self.view.preview.set_shape(points, closed=True)
        count = len(self._corners)
        self.view.status_message.emit(f"Zone: {count} corner{'s' if count != 1 else ''}; "
                                      "double-click or Enter to finish, Esc to cancel")

    def _drag(self, event: QMouseEvent) -> None:
        """Displace the dragged items so the grabbed feature's anchor lands on the grid."""
        raw = to_model(self.view.mapToScene(event.position().toPoint()) - self.view.mapToScene(self._press.toPoint()))
        ax, ay = self._anchor
        sx, sy = self.view.snap_point(ax + raw[0], ay + raw[1])
        self._delta = (round(sx - ax, features.DIGITS), round(sy - ay, features.DIGITS))
        offset = to_scene(*self._delta)
        for obj_id, start in self._moving.items():
            item = self.view.plan_scene.item_for(obj_id)
            if item is not None:
                item.setPos(start + offset)
                if isinstance(item, FootprintItem):
                    self.view.plan_scene.footprints.track(item)
        self.view.status_message.emit(f"Move by {self._length(self._delta[0])}, {self._length(self._delta[1])}")

    def _preview_reshape(self, target: Point) -> None:
        assert self._handle is not None, "a reshape drags a handle"
        obj_id, index = self._handle
        obj = self.doc.get(obj_id)
        try:
            values = features.reshaped(obj, index, *target)
        except Refusal as refusal:
            self._target = None
            self.view.preview.clear()
            self.view.status_message.emit(str(refusal))
            return
        self._target = target
        if isinstance(obj, Door):
            ends = [(values["x1"], values["y1"]), (values["x2"], values["y2"])]
            self.view.preview.set_shape([to_scene(*p) for p in ends])
        else:
            self.view.preview.set_shape([to_scene(*p) for p in values["polygon"]], closed=True)


# ------------------------------------------------------------------- window
def open_features_table(window: MainWindow, obj_id: str) -> None:
    """Plan ▸ Hall features at the row of ``obj_id``: the precise editor of a drawn feature."""
    from planner.ui.dialogs.hall_features import HallFeaturesDialog

    dialog = HallFeaturesDialog(window.session.doc, window)
    dialog.show_object(obj_id)
    if dialog.exec() == HallFeaturesDialog.DialogCode.Accepted:
        command = dialog.command()
        if command is not None:
            window.session.push(command)


def attach(window: MainWindow) -> None:
    """Plan ▸ Draw and the Draw toolbar; a double-click on a feature opens its table row."""
    tools = FeatureTools(window.plan_view)
    window.feature_tools = tools
    plan = window.menu("&Plan")
    after = next((a for a in plan.actions() if a.text().replace("&", "").startswith("Hall features")), None)
    listed = plan.actions()
    following = listed[listed.index(after) + 1] if after is not None and after is not listed[-1] else None
    draw = QMenu("&Draw", plan)
    if following is None:
        plan.addMenu(draw)
    else:
        plan.insertMenu(following, draw)
    toolbar = QToolBar("Draw", window)
    toolbar.setObjectName("draw_toolbar")
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, toolbar)
    toolbar.hide()  # the plan keeps its height; View ▸ Draw toolbar shows it, Plan ▸ Draw has the tools
    shown = toolbar.toggleViewAction()
    shown.setText("&Draw toolbar")
    window.menu("&View").addAction(shown)
    for action in tools.actions():
        draw.addAction(action)
        toolbar.addAction(action)
    tools.edit_requested.connect(lambda obj_id: open_features_table(window, obj_id))
