"""File ▸ Import from NetBox…: a hall recorded in NetBox, read from a folder of NetBox import files
(as ``planner export --to netbox`` writes them, or NetBox's own Export ▸ All Data), opened as a new
unsaved plan to check with the rules — the same step as ``planner import --from netbox DIR -o FILE``
(``import_netbox``). Push to NetBox… and Pull from NetBox… (``planner.ui.jobs.netbox_server``) are
added beside it.

Like File ▸ New from template…, it asks before dropping unsaved changes and replaces the window's
plan only when the folder reads; a set that cannot be read leaves the open plan as it was. What
the reader had to assume (the racks' floor positions, the floor rating, no CDUs) is shown once
the plan is open, since the findings that follow depend on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.io.netbox import NetBoxReadError
from planner.jobs.netbox import import_netbox
from planner.ui.busy import busy
from planner.ui.jobs.netbox_server import open_netbox_dialog, show_notes

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow


def import_from_netbox(window: MainWindow, folder: str | None = None) -> bool:
    """Ask for a folder (unless given) and open its NetBox set as a new plan; whether it did."""
    if not window.files.maybe_save():
        return False
    if folder is None:
        start = window.files.path.parent if window.files.path else Path.home()
        folder = QFileDialog.getExistingDirectory(window, "Import from NetBox: the folder of the import set or of NetBox's exports",
                                                  str(start))
        if not folder:
            return False
    try:
        with busy(window, f"Reading the NetBox set {Path(folder).name}…"):
            result = import_netbox(folder)
    except (NetBoxReadError, OSError) as exc:
        QMessageBox.critical(window, "Cannot import from NetBox", f"{exc}\n\nThe open plan is unchanged.")
        return False
    doc = result.doc
    window.files.set_document(doc, None, f"{Path(folder).name}.hall")
    summary = (f"{len(doc.racks)} racks, {len(doc.devices)} devices, {len(doc.floor_units)} floor units, "
               f"{len(doc.links)} cables and "
               f"{len(doc.busbars)} busbar runs from {folder}.")
    window.show_status(f"Imported {summary}")
    show_notes(window, "Imported from NetBox", summary, result.notes)
    return True


def attach(window: MainWindow) -> None:
    """Add File ▸ Import from NetBox… after File ▸ New from template… (or before Open…)."""
    file_menu = window.menu("&File")
    action = QAction("Import from &NetBox…", window)
    action.setObjectName("import-netbox")
    action.setStatusTip("Open a hall recorded in NetBox: a folder of NetBox import CSVs and device-type YAMLs, "
                        "or of NetBox's own Export ▸ All Data downloads")
    action.triggered.connect(lambda: import_from_netbox(window))
    file_menu.insertAction(window.open_action, action)
    window.import_netbox_action = action
    push_tip = "Create and update the plan's site in a NetBox server over its REST API (a dry run shows what would change)"
    pull_tip = "Open a NetBox site read over its REST API as a new plan, laid onto the open plan to see NetBox's edits"
    for pulling, name, tip in ((False, "Pus&h to NetBox…", push_tip), (True, "P&ull from NetBox…", pull_tip)):
        server = QAction(name, window)
        server.setObjectName("pull-netbox" if pulling else "push-netbox")
        server.setStatusTip(tip)
        server.triggered.connect(lambda _checked=False, p=pulling: open_netbox_dialog(window, p))
        file_menu.insertAction(window.open_action, server)
        if pulling:
            window.netbox_pull_action = server
        else:
            window.netbox_push_action = server
