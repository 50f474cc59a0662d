"""File handling for a main window: New, Open, Save, Save As, recent files, unsaved changes.

Kept apart from the window so the rules are in one place: a bad file never replaces the open
plan; any action that would drop unsaved changes asks first (Save / Discard / Cancel); saving
is atomic with the target in place at every instant (``planner.io.atomic``, which refuses a
folder as the target), runs in the background from a snapshot (``planner.ui.writer``: the
window never freezes) and marks the undo stack clean; the recovery copy follows the plan (see
``planner.ui.recovery``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from planner.commands import AddObjects, Compound, SetOutline
from planner.io import HallFileError, load
from planner.io.hallwrite import save_snapshot
from planner.model.document import Document
from planner.ui.busy import busy
from planner.ui.dialogs.new_hall import NewHallDialog
from planner.ui.plan.view import PlanView
from planner.ui.recovery import Autosaver
from planner.ui.session import DocumentSession
from planner.ui.writer import BackgroundWriter, take_snapshot

FILE_FILTER = "Hall plans (*.hall);;All files (*)"
RECENT_KEY = "files/recent"
MAX_RECENT = 8


def describe_error(exc: HallFileError) -> str:
    """The loader's message, with its JSON path when the message does not already name it."""
    text = str(exc) or "unreadable"
    if exc.path != "$" and exc.path not in text:
        text = f"{text} (at {exc.path})"
    return text


class FileController(QObject):
    """Which file the window's plan belongs to, and every action that reads or writes it.

    It is given what it uses of the window (the parent of its dialogs, the plan view, the status
    line, the hall features dialog) rather than the window, so it does not import the window."""

    #: The plan's file (or untitled name) changed: the title needs updating.
    path_changed = Signal()

    def __init__(self, window: QWidget, session: DocumentSession, plan_view: PlanView, path: Path | None,
                 show_status: Callable[[str], None], edit_hall_features: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self.session = session
        self.plan_view = plan_view
        self.show_status = show_status
        self.edit_hall_features = edit_hall_features
        self.path = path
        self.untitled_name = "Untitled"
        # Set while a new hall waits for its outline to be drawn on the plan.
        self._new_hall_dialog: NewHallDialog | None = None
        plan_view.polygon_captured.connect(self._outline_captured)
        # Saves and recovery copies are written in one background thread, in the order asked for.
        self.writer = BackgroundWriter(self)
        self.autosaver = Autosaver(self.session, parent=self, writer=self.writer)
        self._edits = 0  # edits so far: a save is clean only if none came while it was written
        self.session.changed.connect(self._count_edit)
        self.session.reset.connect(self._count_edit)
        self.autosaver.source = str(path) if path else None
        if path is not None:
            self._remember(path)

    # ---------------------------------------------------------------- naming
    def display_name(self) -> str:
        return self.path.name if self.path is not None else self.untitled_name

    def _directory(self) -> str:
        if self.path is not None:
            return str(self.path.parent)
        recent = self.recent_files()
        return str(Path(recent[0]).parent) if recent else str(Path.home())

    # ------------------------------------------------------------- documents
    def set_document(self, doc: Document, path: Path | None, untitled_name: str = "Untitled") -> None:
        """Show another plan in the window (history, selection and recovery copy start afresh)."""
        self.session.replace_document(doc)
        self._new_hall_dialog = None
        self.path = path
        self.untitled_name = untitled_name
        self.autosaver.source = str(path) if path else None
        if path is not None:
            self._remember(path)
        self.path_changed.emit()
        self.plan_view.fit_to_hall()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current plan (saved, discarded, or unchanged)."""
        if self.session.undo_stack.isClean():
            return True
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.warning(
            self.window, "Unsaved changes",
            f"{self.display_name()} has unsaved changes. Save them before continuing?",
            buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save)
        if answer == buttons.Save:
            return self.save()
        return answer == buttons.Discard

    def new_hall(self) -> None:
        if not self.maybe_save():
            return
        dialog = NewHallDialog(self.window)
        if dialog.exec() != NewHallDialog.DialogCode.Accepted:
            return
        self.set_document(dialog.document(), None, "Untitled")
        if dialog.draw_outline():
            self._new_hall_dialog = dialog
            self.plan_view.start_polygon_capture()
        else:
            self.edit_hall_features()

    def _outline_captured(self, points: list[tuple[float, float]]) -> None:
        """The outline of a new hall, drawn on the plan (other captures are not ours)."""
        dialog, self._new_hall_dialog = self._new_hall_dialog, None
        if dialog is None:
            return
        corners = [(float(x), float(y)) for x, y in points]
        if len(corners) < 3:
            self.show_status("An outline needs at least three corners")
            return
        # The plan's origin is the hall's north-west corner: shift the drawn outline onto it.
        x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
        outline = [(round(x - x0, 3), round(y - y0, 3)) for x, y in corners]
        zone = dialog.zone_for(self.session.doc, outline)
        self.session.push(Compound([SetOutline(outline), AddObjects([zone])], text="Draw hall outline"))
        self.plan_view.fit_to_hall()
        self.edit_hall_features()

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        name, _filter = QFileDialog.getOpenFileName(self.window, "Open plan", self._directory(), FILE_FILTER)
        if name:
            self.open_path(name, ask=False)

    def open_path(self, path: str | Path, ask: bool = True) -> bool:
        """Open a plan; a file that cannot be read leaves the current plan as it was."""
        if ask and not self.maybe_save():
            return False
        try:
            with busy(self.window, f"Opening {Path(path).name}…"):
                doc = load(path)
                self.set_document(doc, Path(path).resolve())
        except HallFileError as exc:
            QMessageBox.critical(self.window, "Cannot open plan",
                                 f"{Path(path).name} cannot be opened:\n\n{describe_error(exc)}\n\n"
                                 "The open plan is unchanged.")
            return False
        self.show_status(f"Opened {path}")
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        return self._write(self.path)

    def save_as(self) -> bool:
        suggested = str(Path(self._directory()) / (self.path.name if self.path else "hall.hall"))
        name, _filter = QFileDialog.getSaveFileName(self.window, "Save plan as", suggested, FILE_FILTER)
        if not name:
            return False
        path = Path(name)
        if path.suffix != ".hall":
            path = path.with_name(path.name + ".hall")
        return self._write(path)

    def _count_edit(self, _change: object = None) -> None:
        self._edits += 1

    def _write(self, path: Path) -> bool:
        """Save to ``path``: a snapshot now (in slices, the window live), then the text and the
        disk in the background while the event loop runs; returns once the file is in place."""
        try:
            with busy(self.window, f"Saving {path.name}…"):
                snap = take_snapshot(self.session.doc, self.session)
                edits = self._edits
                self.writer.run(snap, lambda s: save_snapshot(s, path))
        except OSError as exc:  # HallSaveError: a folder, a full disk, no permission …
            QMessageBox.critical(self.window, "Cannot save plan",
                                 f"{path} could not be written:\n\n{exc.strerror or exc}\n\n"
                                 "Any file already there is as it was, and your changes are still "
                                 "open; try another name or folder.")
            return False
        self.path = path.resolve()
        self.autosaver.source = str(self.path)
        if self._edits == edits:
            self.session.undo_stack.setClean()
            self.autosaver.discard()
        else:  # edited while it was written: the file holds an earlier moment, no undo step is it
            self.session.undo_stack.resetClean()
        self._remember(self.path)
        self.path_changed.emit()
        self.show_status(f"Saved {self.path}")
        return True

    def close_cleanly(self) -> None:
        """The window closes: wait for writes under way (nothing is dropped), then clean up."""
        self.writer.close()
        self.autosaver.close()

    # ----------------------------------------------------------- recent files
    def recent_files(self) -> list[str]:
        values = QSettings().value(RECENT_KEY, [])
        if isinstance(values, str):
            values = [values]
        return [v for v in (values if isinstance(values, list) else []) if Path(v).is_file()]

    def _remember(self, path: Path) -> None:
        entries = [str(path)] + [p for p in self.recent_files() if p != str(path)]
        QSettings().setValue(RECENT_KEY, entries[:MAX_RECENT])
