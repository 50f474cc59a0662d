"""File ▸ Merge…: take another person's revision of this plan into the open one, as one edit.

The user picks their revision, then the revision both started from (the common base: the file
as it was handed out, or ``git show <base>:plan.hall``). The merge is the command line's
(``planner.review.merge_command``): the open plan is ours, so its ids stay and a conflict keeps
its value. Before anything changes the window says what the merge takes in and lists every
conflict; Merge applies it as one step on the undo stack (Edit ▸ Undo takes it back whole), and
validation follows as after any edit. The plan keeps its file: nothing is saved until the user
saves.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.io import HallFileError, load
from planner.review.merge_command import done_text, merge_command, merged_result, summary
from planner.ui.busy import busy

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

_FILTER = "Hall plans (*.hall);;All files (*)"


class MergeController(QObject):
    """File ▸ Merge… of one window."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.action = QAction("&Merge…", window)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+M"))
        self.action.setStatusTip("Take another revision of this plan into it, against the revision both started "
                                 "from (one edit: Undo takes it back)")
        self.action.triggered.connect(lambda: self.merge_files())

    def merge_files(self, theirs_path: str | Path | None = None, base_path: str | Path | None = None) -> bool:
        """Merge ``theirs_path`` against ``base_path`` into the open plan (each asked for when None).
        Returns whether the plan changed."""
        theirs_path = theirs_path or self._ask("Merge: their revision of this plan")
        if not theirs_path:
            return False
        base_path = base_path or self._ask("Merge: the revision both started from (the common base)")
        if not base_path:
            return False
        theirs_path, base_path = Path(theirs_path), Path(base_path)
        sides = []
        for path in (theirs_path, base_path):
            try:
                with busy(self.window, f"Reading {path.name}…"):
                    sides.append(load(path))
            except HallFileError as exc:
                QMessageBox.warning(self.window, "Merge", f"{path.name} cannot be merged:\n\n{exc}")
                return False
        theirs, base = sides
        doc = self.window.session.doc
        with busy(self.window, f"Merging {theirs_path.name}…"):
            result = merged_result(base, doc, theirs)
            command = merge_command(doc, result, theirs_path.name)
        head, lines = summary(result, theirs_path.name)
        if command is None:
            self.window.show_status(f"{head}: the open plan already holds everything the merge gives")
            if result.conflicts:
                self.confirm(head, lines, can_merge=False)
            return False
        if not self.confirm(head, lines, can_merge=True):
            return False
        self.window.session.push(command)
        self.window.show_status(done_text(result, theirs_path.name))
        return True

    def confirm(self, head: str, lines: list[str], can_merge: bool) -> bool:
        """Show what the merge does; whether the user chose Merge."""
        box = QMessageBox(QMessageBox.Icon.Question if can_merge else QMessageBox.Icon.Information, "Merge", head,
                          parent=self.window)
        box.setInformativeText("Take it into the open plan as one edit? Edit ▸ Undo takes it back; nothing is saved "
                               "until you save." if can_merge else "There is nothing to take in.")
        if lines:
            box.setDetailedText("\n".join(lines))
        merge = box.addButton("Merge", QMessageBox.ButtonRole.AcceptRole) if can_merge else None
        box.addButton(QMessageBox.StandardButton.Cancel if can_merge else QMessageBox.StandardButton.Close)
        box.exec()
        return merge is not None and box.clickedButton() is merge

    def _ask(self, title: str) -> str:
        start = str(self.window.files.path.parent) if self.window.files.path else ""
        name, _filter = QFileDialog.getOpenFileName(self.window, title, start, _FILTER)
        return name


def attach(window: MainWindow) -> None:
    """Add File ▸ Merge… after the Compare with menu."""
    controller = MergeController(window)
    window.merge = controller
    window.menu("&File").insertAction(window.save_action, controller.action)
