"""Wires review comments into the main window (listed in ``EXTENSIONS``).

Adds Edit ▸ Add comment (Ctrl+Alt+M): the next click on the plan places a comment there, pinned
to the rack, unit, busbar or other object under the click (the pin then follows it), or to the
floor; Esc cancels. A right-click offers "Comment on R07…" (or "Add comment here…" on the floor)
and, on a pin, the comment's own actions. On the plan a pin can be dragged to another place (one
undo step; dropped on an object it is pinned to that object), clicked to show the comment in the
Comments dock, and double-clicked to open it there. View ▸ Show comment pins hides them.

The plan view knows nothing of comments: this module watches the view's mouse and key events
(an event filter on its viewport, ahead of the view's own handling) and takes only the gestures
that concern comments: a click while placing, and presses on pins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QPoint, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QContextMenuEvent, QKeyEvent, QKeySequence, QMouseEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QMenu

from planner.commands import Command, Refusal
from planner.commands.comments import OPEN, add_comment, delete_comment, move_pin, set_status
from planner.commands.edits import object_name
from planner.ui.plan.units import to_model
from planner.ui.review.comments_dock import CommentsDock, ask_comment, default_author
from planner.ui.review.pins import CommentPins

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

#: What a comment can be pinned to on the plan; a click on a zone's floor pins to the point.
PINNABLE = ("rack", "fu", "bus", "obs", "door", "ho")
#: Where the main window keeps the dock layout the user left (``MainWindow._restore_layout``).
SAVED_LAYOUT = "window/state"


class CommentTool(QObject):
    """Turns the plan gestures that concern comments into commands (see the module docstring)."""

    def __init__(self, window: MainWindow, pins: CommentPins, dock: CommentsDock) -> None:
        super().__init__(window)
        self.window, self.pins, self.dock = window, pins, dock
        self.view = window.plan_view
        self.session = window.session
        self._drag = ""
        self._press = QPoint()
        self._grip = QPoint()  # from the mouse to the dragged pin's tip
        self.action = QAction("Add &comment", window)
        self.action.setObjectName("add-comment")
        self.action.setShortcut(QKeySequence("Ctrl+Alt+M"))
        self.action.setCheckable(True)
        self.action.setStatusTip("Click on the plan where the comment goes: on an object to pin it there")
        self.action.toggled.connect(self._toggled)
        self.view.viewport().installEventFilter(self)
        self.view.installEventFilter(self)

    @property
    def placing(self) -> bool:
        return self.action.isChecked()

    def _toggled(self, on: bool) -> None:
        if on:
            self.view.viewport().setCursor(Qt.CursorShape.CrossCursor)
            self.window.show_status("Add comment: click on the plan where it goes (on an object to pin it to "
                                    "the object); Esc cancels")
        else:
            self.view.viewport().unsetCursor()

    # ------------------------------------------------------------------ gestures
    def _model_point(self, viewport_pos: QPoint) -> tuple[float, float]:
        return to_model(self.view.mapToScene(viewport_pos))

    def target_at(self, viewport_pos: QPoint) -> str:
        """The object a comment placed at this point of the viewport is pinned to ("" for the floor)."""
        item = self.view.plan_scene.plan_item_at(self.view.mapToScene(viewport_pos), kinds=PINNABLE)
        return item.obj_id if item is not None else ""

    def place(self, viewport_pos: QPoint, text: str | None = None, author: str | None = None) -> None:
        """Add a comment at a point of the viewport, on the object there (asks for the text unless given)."""
        self.action.setChecked(False)
        target = self.target_at(viewport_pos)
        x, y = self._model_point(viewport_pos)
        if text is None:
            doc = self.session.doc
            on = f" on {object_name(doc, doc.get(target))}" if target else ""
            answer = ask_comment(self.window, f"Add comment{on}", author=default_author())
            if answer is None:
                return
            text, author = answer
        doc = self.session.doc
        command = self._push(lambda: add_comment(doc, text, author if author is not None else default_author(),
                                                 x, y, target))
        if command is not None:
            self.dock.show_comment(command.objects[0].id)

    def _push(self, make: Callable[[], Command]) -> Any:
        """Build a command and push it; a refusal is said in the status bar (None returned)."""
        try:
            command = make()
        except Refusal as exc:
            self.window.show_status(f"Not changed: {exc}")
            return None
        self.session.push(command)
        return command

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.view:
            if (kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape
                    and self.placing):
                self.action.setChecked(False)
            return False
        if isinstance(event, QContextMenuEvent):
            menu = self.context_menu(event.pos())
            if menu.actions():
                menu.exec(event.globalPos())
            return True
        if not isinstance(event, QMouseEvent):
            return False
        if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
            pos = event.position().toPoint()
            if self.placing:
                self.place(pos)
                return True
            self._drag = self.pins.pin_at(self.view, pos)
            if self._drag:
                self._press = pos
                self._grip = self.view.mapFromScene(self.pins.pins[self._drag].pos()) - pos
            return bool(self._drag)
        if kind == QEvent.Type.MouseMove and self._drag:
            pin = self.pins.pins.get(self._drag)
            if pin is not None:
                pin.setPos(self.view.mapToScene(event.position().toPoint() + self._grip))
            return True
        if kind == QEvent.Type.MouseButtonRelease and self._drag:
            comment_id, self._drag = self._drag, ""
            pos = event.position().toPoint()
            if (pos - self._press).manhattanLength() >= QApplication.startDragDistance():
                self.move_pin(comment_id, pos + self._grip)
            else:
                self.dock.show_comment(comment_id)
            return True
        if kind == QEvent.Type.MouseButtonDblClick and event.button() == Qt.MouseButton.LeftButton:
            comment_id = self.pins.pin_at(self.view, event.position().toPoint())
            if comment_id:
                self.dock.show_comment(comment_id)
                self.dock.focus_plan()
                self.dock.tree.setFocus()
                return True
        return False

    def move_pin(self, comment_id: str, viewport_pos: QPoint) -> None:
        """Put a pin's tip at a point of the viewport, pinned to the object there (or to the floor)."""
        x, y = self._model_point(viewport_pos)
        doc = self.session.doc
        if self._push(lambda: move_pin(doc, comment_id, x, y, self.target_at(viewport_pos))) is None:
            self.pins.refresh()  # back where the model has it

    def context_menu(self, viewport_pos: QPoint) -> QMenu:
        """The right-click menu at a point of the plan: a pin's actions, or a comment on what is there."""
        menu = QMenu(self.view)
        comment_id = self.pins.pin_at(self.view, viewport_pos)
        doc = self.session.doc
        if comment_id:
            comment = doc.comments[comment_id]
            menu.addAction("Open in the Comments dock", lambda: self.dock.show_comment(comment_id))
            def reply() -> None:
                self.dock.show_comment(comment_id)
                self.dock.reply()

            menu.addAction("Reply…", reply)
            status = "resolved" if comment.status == OPEN else OPEN
            menu.addAction("Resolve" if status == "resolved" else "Reopen",
                           lambda: self._push(lambda: set_status(doc, comment_id, status)))
            menu.addAction("Delete comment", lambda: self._push(lambda: delete_comment(doc, comment_id)))
            return menu
        target = self.target_at(viewport_pos)
        title = f"Comment on {object_name(doc, doc.get(target))}…" if target else "Add comment here…"
        menu.addAction(title, lambda: self.place(viewport_pos))
        return menu


def _tab_behind(window: MainWindow, front: QDockWidget, dock: QDockWidget) -> None:
    if not window.tabifiedDockWidgets(dock):
        window.tabifyDockWidget(front, dock)
    dock.show()
    front.raise_()


def attach(window: MainWindow) -> None:
    scene = window.plan_view.plan_scene
    pins = CommentPins(window.session, scene)
    dock = CommentsDock(window.session, window.plan_view, pins, window)
    dock.status_message.connect(window.show_status)
    window.add_dock(dock, Qt.DockWidgetArea.BottomDockWidgetArea)
    beside = (window.cable_dock if type(window).cable_dock.provided(window) else
              window.findings_dock if type(window).findings_dock.provided(window) else None)
    if beside is not None and not QSettings().contains(SAVED_LAYOUT):
        # A tab behind the cables, so the default layout keeps its sizes; hidden until then, so the
        # window's default dock sizes are worked out without it. Made once the window runs: a
        # second group of tabbed docks made before the window is shown leaves a stale copy of its
        # tab bar on screen (Qt 6), and the right column already has one.
        dock.hide()
        QTimer.singleShot(0, window, lambda: _tab_behind(window, beside, dock))
    tool = CommentTool(window, pins, dock)
    edit = window.menu("&Edit")
    edit.addSeparator()
    edit.addAction(tool.action)
    show = window.menu("&View").addAction("Show comment &pins")
    show.setObjectName("show-comment-pins")
    show.setCheckable(True)
    show.setChecked(True)
    show.toggled.connect(pins.set_visible)
    window.comments_dock, window.comment_pins, window.comment_tool = dock, pins, tool
