"""Cabling by hand in the window (issue 18): the gestures the rack elevation and the Cables dock share.

``HandCabling`` opens the port picker for a new cable from a port, or for the new far end of a
cable being rewired, and pushes the command the picker's choice makes (``connect_command``,
``rewire_command``) as one undo step; ``delete`` removes cables as one step, asking first when
any of them is past planned (an installer has run, labelled, tested or verified it). A refused
edit (the port was taken meanwhile) and what an edit did go to ``status_message``.

The picker opens window-modal with ``open()``, not ``exec()``: the event loop keeps running, so
the window repaints behind it and tests drive it like a user (``picker`` is the open one). The
router comes from ``router_provider``: the window hands it the live validation's router
(``ui.cables.attach``), so a hand cable on a 98k-cable hall is routed without building a router.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from planner.commands.base import Command
from planner.commands.checks import Refusal
from planner.fabric.hand_commands import (
    connect_command,
    delete_cables_command,
    end_words,
    past_planned,
    rewire_command,
)
from planner.fabric.routing import Router
from planner.model.labels import cable_label
from planner.ui.dialogs.port_picker import PortPickerDialog
from planner.ui.session import DocumentSession


def _cables(count: int) -> str:
    return f"{count:,} cable{'s' if count != 1 else ''}"


class HandCabling(QObject):
    """Connect, rewire and delete cables by hand, each one undo step on the session."""

    #: What an edit did, or why it was refused, for the status bar.
    status_message = Signal(str)
    #: Emitted with a new or rewired cable's id once its command is pushed.
    cabled = Signal(str)

    def __init__(self, session: DocumentSession, widget: QWidget) -> None:
        super().__init__(widget)
        self.session = session
        self.widget = widget
        #: The router to route with (None: a new one per edit). The window sets the live one's.
        self.router_provider: Callable[[], Router | None] = lambda: None
        #: The port picker while it is open.
        self.picker: PortPickerDialog | None = None

    # ------------------------------------------------------------- gestures
    def connect_from(self, device: str, port: str, to_device: str | None = None,
                     to_port: str | None = None) -> PortPickerDialog | None:
        """Open the picker for a cable from (device, port); OK connects. ``to_device`` and
        ``to_port`` pre-fill the far end (picked in the elevation)."""
        doc = self.session.doc
        if device not in doc.devices:
            return None
        dialog = PortPickerDialog(doc, (device, port), title=f"Connect {end_words(doc, device, port)}",
                                  ok_text="Connect", device=to_device, port=to_port,
                                  router=self.router_provider(), parent=self.widget)
        dialog.accepted.connect(lambda: self._chosen(dialog, lambda far: connect_command(
            self.session.doc, device, port, *far, router=self.router_provider())))
        return self._open(dialog)

    def rewire(self, link_id: str, end: str) -> PortPickerDialog | None:
        """Open the picker for a new place of a cable's end ``end`` ("a" or "b"); the other end
        stays, and the device the moving end is on now is chosen first."""
        doc = self.session.doc
        link = doc.links.get(link_id)
        if link is None:
            return None
        fixed = (link.b_device, link.b_port) if end == "a" else (link.a_device, link.a_port)
        moving = link.a_device if end == "a" else link.b_device
        dialog = PortPickerDialog(doc, fixed, title=f"Rewire end {end.upper()} of {cable_label(doc, link)}",
                                  ok_text="Rewire", device=moving, router=self.router_provider(),
                                  parent=self.widget)
        dialog.accepted.connect(lambda: self._chosen(dialog, lambda far: rewire_command(
            self.session.doc, link_id, end, *far, router=self.router_provider())))
        return self._open(dialog)

    def delete(self, link_ids: Iterable[str]) -> bool:
        """Delete cables as one undo step; when any is past planned, ask first (No: nothing)."""
        doc = self.session.doc
        ids = [i for i in dict.fromkeys(link_ids) if i in doc.links]
        if not ids:
            self.status_message.emit("Select the cables to delete first")
            return False
        touched = past_planned(doc, ids)
        if touched:
            states: dict[str, int] = {}
            for link_id in touched:
                states[doc.links[link_id].state] = states.get(doc.links[link_id].state, 0) + 1
            counts = ", ".join(f"{n:,} {state}" for state, n in states.items())
            answer = QMessageBox.question(
                self.widget, "Delete cables",
                f"{len(touched):,} of the {_cables(len(ids))} to delete {'is' if len(touched) == 1 else 'are'} "
                f"past planned ({counts}): an installer has worked on "
                f"{'it' if len(touched) == 1 else 'them'}. Delete anyway?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Cancel)
            if answer != QMessageBox.StandardButton.Yes:
                return False
        return self._push(lambda: delete_cables_command(doc, ids)) is not None

    # -------------------------------------------------------------- helpers
    def _open(self, dialog: PortPickerDialog) -> PortPickerDialog:
        if self.picker is not None:
            self.picker.reject()
        self.picker = dialog
        dialog.finished.connect(lambda _result: self._closed(dialog))
        dialog.open()
        return dialog

    def _closed(self, dialog: PortPickerDialog) -> None:
        if self.picker is dialog:
            self.picker = None
        dialog.deleteLater()

    def _chosen(self, dialog: PortPickerDialog, build: Callable[[tuple[str, str]], Command]) -> None:
        far = dialog.chosen()
        if far is not None:
            self._push(lambda: build(far))

    def _push(self, build: Callable[[], Command]) -> Command | None:
        try:
            command = build()
        except Refusal as exc:
            self.status_message.emit(str(exc))
            return None
        self.session.push(command)
        self.status_message.emit(command.text)
        added = getattr(command, "objects", None)
        link_id = added[0].id if added else next(iter(getattr(command, "values", {})), None)
        if link_id is not None and link_id in self.session.doc.links:
            self.cabled.emit(link_id)
        return command
