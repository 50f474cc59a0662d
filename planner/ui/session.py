"""The open plan as the Qt side sees it: the document, its undo stack and the selection.

Everything in the GUI edits through ``push(command)``: the command is wrapped in a
QUndoCommand, applied, and ``changed`` is emitted with the Change it returned, so the scene,
docks and validation refresh exactly what changed. Scene items never edit the model directly.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from planner.commands import Command
from planner.model.change import Change
from planner.model.document import Document


class _UndoAdapter(QUndoCommand):
    """Runs a core Command on the QUndoStack and reports its Change."""

    def __init__(self, session: DocumentSession, command: Command) -> None:
        super().__init__(command.text)
        self._session = session
        self.command = command

    def redo(self) -> None:
        self._session._emit(self.command.apply(self._session.doc))

    def undo(self) -> None:
        self._session._emit(self.command.revert(self._session.doc))


class DocumentSession(QObject):
    """Owns the document being edited. One per main window."""

    #: Emitted after every apply/revert with what changed.
    changed = Signal(object)
    #: Emitted when a different document is loaded (New/Open): views rebuild from scratch.
    reset = Signal()
    #: Emitted with the new set of selected ids.
    selection_changed = Signal(object)

    def __init__(self, doc: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.undo_stack = QUndoStack(self)
        self._selection: set[str] = set()

    # ----------------------------------------------------------------- edits
    def push(self, command: Command) -> None:
        """Apply a command as one undo step."""
        self.undo_stack.push(_UndoAdapter(self, command))

    def _emit(self, change: Change) -> None:
        gone = self._selection & change.removed
        self.changed.emit(change)
        if gone:
            self.select(self._selection - gone)

    def replace_document(self, doc: Document) -> None:
        """Switch to another plan (New/Open): clears undo history and selection."""
        self.doc = doc
        self.undo_stack.clear()
        self.undo_stack.setClean()
        self._selection = set()
        self.reset.emit()
        self.selection_changed.emit(set())

    # ------------------------------------------------------------- selection
    @property
    def selection(self) -> set[str]:
        return set(self._selection)

    def select(self, ids: set[str] | list[str]) -> None:
        new = {i for i in ids if i in self.doc}
        if new != self._selection:
            self._selection = new
            self.selection_changed.emit(set(new))
