"""What the Cables dock does to the selected rows: set their installation state, rewire an end,
delete them — each one undo step.

The right-click menu on the table (a click outside the selection selects that row first) and the
"Cable" button under it hold "Rewire end A…" and "Rewire end B…" (one cable selected: the port
picker opens for the end's new place, ``planner.ui.cables.hand``), "Delete cables" (the Delete
key in the table; asks first when a cable is past planned) and the "Set state" menu (issue 13),
which is also the "Set state" button's. Kept apart from ``planner.ui.cables.dock`` so the dock
stays the table and its filters.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMenu, QPushButton

from planner.asbuilt.states import set_state_command
from planner.commands.base import SetFields
from planner.commands.checks import Refusal
from planner.model.labels import cable_label, derived_label
from planner.model.objects import CABLE_STATES
from planner.ui.cables.hand import HandCabling

FAULTY = "faulty"
_ROOT = QModelIndex()


def cables_text(count: int) -> str:
    return f"{count:,} cable{'s' if count != 1 else ''}"


class CableActions(QObject):
    """The Cables dock's edits of its selected rows, as menus, buttons and the Delete key.

    ``dock`` is the ``CableDock`` (not imported: it imports this module): its session, table,
    ``selected_links``, ``select_link`` and ``status_message`` are used."""

    def __init__(self, dock: Any) -> None:
        super().__init__(dock)
        self.dock = dock
        self.cabling = HandCabling(dock.session, dock)
        self.cabling.status_message.connect(dock.status_message)
        self.cabling.cabled.connect(dock.select_link)
        self.state_menu = QMenu("Set state", dock)
        for state in CABLE_STATES:
            action = self.state_menu.addAction(f"{state.capitalize()}{'…' if state == FAULTY else ''}")
            action.setObjectName(f"state-{state}")
            action.triggered.connect(lambda _checked=False, s=state: self.set_state(s))
        self.state_button = QPushButton("Set state")
        self.state_button.setToolTip("Mark the selected cables (one undo step); faulty asks for a note")
        self.state_button.setMenu(self.state_menu)

        self.rewire_a = self._action("rewire-a", "Rewire end &A…", lambda: self.rewire("a"),
                                     "Move the selected cable's end A to another port (the port picker opens)")
        self.rewire_b = self._action("rewire-b", "Rewire end &B…", lambda: self.rewire("b"),
                                     "Move the selected cable's end B to another port (the port picker opens)")
        self.delete = self._action("delete-cables", "&Delete cables", self.delete_selected,
                                   "Delete the selected cables (one undo step)")
        self.label = self._action("cable-label", "&Label…", self.edit_label,
                                  "Type the selected cable's label; leave it empty to derive it from the ends")
        self.delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        dock.table.addAction(self.delete)  # the Delete key while the table has the focus

        self.edit_menu = QMenu("Cable", dock)
        for action in (self.rewire_a, self.rewire_b, self.label, self.delete):
            self.edit_menu.addAction(action)
        self.edit_button = QPushButton("Cable")
        self.edit_button.setObjectName("cable_edit_button")
        self.edit_button.setToolTip("Rewire an end of the selected cable, or delete the selected cables")
        self.edit_button.setMenu(self.edit_menu)
        self.edit_menu.aboutToShow.connect(self.update_enabled)

        self.row_menu = QMenu(dock)
        self.row_menu.setObjectName("cable_row_menu")
        for action in (self.rewire_a, self.rewire_b, self.label):
            self.row_menu.addAction(action)
        self.row_menu.addSeparator()
        self.row_menu.addAction(self.delete)
        self.row_menu.addSeparator()
        self.row_menu.addMenu(self.state_menu)
        self.row_menu.aboutToShow.connect(self.update_enabled)

    def _action(self, name: str, text: str, slot, tip: str) -> QAction:
        action = QAction(text, self.dock)
        action.setObjectName(name)
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(slot)
        return action

    def update_enabled(self) -> None:
        """Rewire and label need one cable selected; delete one or more."""
        ids = self.dock.selected_links()
        for action in (self.rewire_a, self.rewire_b, self.label):
            action.setEnabled(len(ids) == 1)
        self.delete.setEnabled(bool(ids))
        self.delete.setText(f"&Delete {cables_text(len(ids))}" if len(ids) > 1 else "&Delete cable")

    # ---------------------------------------------------------------- edits
    def set_state(self, state: str, note: str | None = None) -> None:
        """Mark the selected cables ``state`` as one undo step; faulty asks for a note (unless
        ``note`` is given), and cancelling that question changes nothing."""
        dock = self.dock
        ids = dock.selected_links()
        if not ids:
            dock.status_message.emit("Select the cables to mark first")
            return
        if state == FAULTY and note is None:
            note, ok = QInputDialog.getText(dock, "Faulty cables",
                                            f"What is wrong with {cables_text(len(ids))}? (kept as the cable's note)")
            if not ok:
                return
            note = note.strip()
        try:
            command = set_state_command(dock.session.doc, ids, state, note)
        except Refusal as exc:
            dock.status_message.emit(str(exc))
            return
        dock.session.push(command)
        dock.status_message.emit(f"Marked {cables_text(len(ids))} {state}")

    def rewire(self, end: str) -> None:
        """Open the port picker for a new place of the selected cable's end ``end``."""
        ids = self.dock.selected_links()
        if len(ids) != 1:
            self.dock.status_message.emit("Select one cable to rewire")
            return
        self.cabling.rewire(ids[0], end)

    def edit_label(self, text: str | None = None) -> None:
        """Type the selected cable's label (``text``, else asked): one undo step. An empty label
        is the derived one (``planner.model.labels``), which follows the cable's ends."""
        dock = self.dock
        ids = dock.selected_links()
        if len(ids) != 1:
            dock.status_message.emit("Select one cable to label")
            return
        doc = dock.session.doc
        link = doc.links[ids[0]]
        if text is None:
            text, ok = QInputDialog.getText(dock, "Cable label", f"Label (empty: derived, {derived_label(doc, link)})",
                                            text=link.label)
            if not ok:
                return
        text = text.strip()
        if text == link.label:
            return
        try:
            command = SetFields({link.id: {"label": text}},
                                f"Label {cable_label(doc, link)} {text!r}" if text else f"Derive the label of {link.id}")
        except Refusal as exc:
            dock.status_message.emit(str(exc))
            return
        dock.session.push(command)

    def delete_selected(self) -> None:
        """Delete the selected cables as one undo step (asks first when any is past planned)."""
        self.cabling.delete(self.dock.selected_links())

    def context_menu(self, pos: QPoint) -> None:
        """The row menu at the pointer; a click outside the selection selects that row first."""
        table = self.dock.table
        index = table.indexAt(pos)
        if index.isValid() and not table.selectionModel().isRowSelected(index.row(), _ROOT):
            table.setCurrentIndex(index)
        if table.selectionModel().hasSelection():
            self.row_menu.popup(table.viewport().mapToGlobal(pos))
