"""Wires File ▸ Import cable list… into the main window (listed in ``EXTENSIONS``, issue 18).

The same code as ``planner cables import`` (``planner.fabric.cable_list``): the list's rows found
in the plan, reconciled with its cables and applied as one undo step. A list with a row that
cannot be used changes nothing and names the rows; a list that would remove or rewire cables
already past planned (run, labelled, tested, verified, faulty) asks first, with the summary;
otherwise the summary goes to the status bar ("kept 43, rewired 2, removed 0, added 3") and
Edit ▸ Undo takes the whole list back.

Comes after ``ui.asbuilt.attach``: the action sits under File ▸ Import tick sheet….
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.fabric.cable_list import CableListChange, cable_list_change
from planner.io.cable_list import CableListError
from planner.ui.busy import busy

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

TITLE = "Import cable list"
FILTER = "Cable lists (*.csv);;All files (*)"


def import_cable_list(window: MainWindow, path: str | None = None) -> CableListChange | None:
    """Read a cable list (``path``, or one the user picks) and apply it; the change planned, or
    None when the file could not be read or the user chose none."""
    if path is None:
        source = window.files.path
        folder = str(Path(source).parent) if source else str(Path.home())
        path, _filter = QFileDialog.getOpenFileName(window, TITLE, folder, FILTER)
        if not path:
            return None
    try:
        with busy(window, "Reading the cable list…"):
            change = cable_list_change(window.session.doc, path)
    except CableListError as exc:
        QMessageBox.warning(window, TITLE, f"The cable list cannot be read:\n{exc}")
        return None
    if not change.ok:
        count = len(change.problems)
        QMessageBox.warning(window, TITLE, f"{count:,} row{'s' if count != 1 else ''} of {Path(path).name} cannot "
                            "be used, so nothing was changed:\n" + "\n".join(change.problem_lines()))
        window.show_status(f"{TITLE}: nothing changed ({count:,} bad row{'s' if count != 1 else ''})")
        return change
    plan = change.plan
    assert plan is not None
    summary = plan.summary()
    if plan.is_empty():
        window.show_status(f"{TITLE}: {summary}: the plan already has these cables")
        return change
    if plan.refusal():
        answer = QMessageBox.question(
            window, TITLE, f"{summary}.\n\n{plan.refusal()}: their installation state goes back to planned or "
            "they are gone.\n\nApply the cable list?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        if answer != QMessageBox.StandardButton.Yes:
            window.show_status(f"{TITLE}: not applied ({summary})")
            return change
    window.session.push(change.command())
    window.show_status(f"{TITLE}: {summary}")
    return change


def attach(window: MainWindow) -> None:
    """Add File ▸ Import cable list… (after Import tick sheet… when there is one)."""
    file_menu = window.menu("&File")
    action = QAction("Import &cable list…", window)
    action.setObjectName("import-cable-list")
    action.setStatusTip("Apply a cable list (cables-csv or UFM P2P columns): cables kept, rewired, removed, added")
    action.triggered.connect(lambda: import_cable_list(window))
    actions = file_menu.actions()
    ticks = (window.import_ticks_action if type(window).import_ticks_action.provided(window) else None)
    if ticks in actions and actions.index(ticks) + 1 < len(actions):
        file_menu.insertAction(actions[actions.index(ticks) + 1], action)
    elif type(window).export_menu.provided(window):
        file_menu.insertAction(window.export_menu.menuAction(), action)
    else:
        file_menu.addAction(action)
    window.import_cable_list_action = action
