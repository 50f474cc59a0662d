"""Start the GUI: `planner [FILE]`.

Opens FILE, or the bundled example hall as an untitled copy (so Save asks where to put it),
after offering any recovery copy a crashed session left behind. A FILE that does not exist yet
is offered as a new hall (its size asked as File ▸ New hall asks), written there on Save.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from planner import __version__
from planner.io import HallFileError, load
from planner.model.document import Document
from planner.resources_access import example_hall_path
from planner.ui.dialogs.new_hall import NewHallDialog
from planner.ui.files import describe_error
from planner.ui.main_window import MainWindow
from planner.ui.recovery import RecoveryCopy, orphaned_copies
from planner.ui.session import DocumentSession

ORGANIZATION = "Hall Planner"
APPLICATION = "Hall Planner"
EXAMPLE_NAME = "Example hall (unsaved copy)"


def application(argv: list[str] | None = None) -> QApplication:
    """The running QApplication, created with the names QSettings and app-data paths use."""
    app = QApplication.instance()
    if app is None:
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationVersion(__version__)
    return app  # type: ignore[return-value]


def load_example() -> Document:
    with resources.as_file(example_hall_path()) as path:
        return load(path)


def offer_recovery(parent: QWidget | None = None) -> tuple[Document, RecoveryCopy] | None:
    """Ask whether to reopen the newest recovery copy; the others are kept for the next start."""
    copies = orphaned_copies()
    for copy in copies:
        try:
            doc = copy.load()
        except HallFileError:
            copy.discard()
            continue
        buttons = QMessageBox.StandardButton
        answer = QMessageBox.question(
            parent, "Recover unsaved work",
            f"Hall Planner did not close properly last time. A recovery copy of {copy.describe()} exists.\n\n"
            "Open it? (Discard deletes it.)",
            buttons.Open | buttons.Discard | buttons.Ignore, buttons.Open)
        if answer == buttons.Open:
            return doc, copy
        if answer == buttons.Discard:
            copy.discard()
        return None
    return None


def open_window(path: str | None) -> MainWindow | None:
    """The window the GUI starts with: a recovered plan, FILE, or the example (None if FILE is unreadable)."""
    recovered = offer_recovery()
    if recovered is not None:
        doc, copy = recovered
        source = Path(copy.source) if copy.source else None
        window = MainWindow(DocumentSession(doc), source)
        if source is None:
            window.files.untitled_name = "Recovered plan"
        window.session.undo_stack.resetClean()
        window.files.autosaver.write_now()
        copy.discard()
        window.update_title()
        return window
    if path is not None and not Path(path).exists():
        return create_window(path)
    if path is not None:
        try:
            doc = load(path)
        except HallFileError as exc:
            QMessageBox.critical(None, "Cannot open plan", f"{Path(path).name} cannot be opened:\n\n{describe_error(exc)}")
            return None
        return MainWindow(DocumentSession(doc), Path(path).resolve())
    window = MainWindow(DocumentSession(load_example()))
    window.files.untitled_name = EXAMPLE_NAME
    window.update_title()
    return window


def create_window(path: str) -> MainWindow | None:
    """A new hall to be saved as ``path`` (which does not exist yet), or None if the user declines."""
    buttons = QMessageBox.StandardButton
    answer = QMessageBox.question(
        None, "Create plan",
        f"{Path(path).name} does not exist.\n\nStart a new hall plan and save it there?",
        buttons.Yes | buttons.Cancel, buttons.Yes)
    if answer != buttons.Yes:
        return None
    dialog = NewHallDialog()
    if dialog.exec() != NewHallDialog.DialogCode.Accepted:
        return None
    window = MainWindow(DocumentSession(dialog.document()), Path(path).resolve())
    window.session.undo_stack.resetClean()  # nothing is on disk yet: closing asks to save
    window.update_title()
    return window


def run_gui(path: str | None) -> int:
    """Run the application until its window closes; the exit code for `planner [FILE]`."""
    app = application()
    window = open_window(path)
    if window is None:
        return 2
    window.show_as_last_time()
    window.plan_view.fit_to_hall()
    return app.exec()
