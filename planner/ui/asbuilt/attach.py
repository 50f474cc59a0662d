"""Wires the as-built work into the main window (listed in ``EXTENSIONS``, issue 13).

Adds File ▸ Verify against discovery… (links CSV, ibnetdiscover and LLDP files, checked against
the plan; the result in the Verification dock, a tab over the findings), File ▸ Import tick sheet…
(the installers' paper ticks as cable states, one undo step), View ▸ Overlays ▸ Installation
progress (racks coloured by the share of their cables verified, faulty ones hatched), and the
status bar's "71,204 of 98,304 cables verified", kept by difference as cables change state. The
Cables dock's own messages (marking cables) go to the status bar too.

Comes after ``ui.validation.attach`` (the Overlays menu), ``ui.jobs.export_dialog`` (the File menu's
Export entry, which the new actions sit above) and ``ui.fabric.attach`` (the Cables dock).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from planner.asbuilt.ticksheet import TickSheetError, tick_sheet_command
from planner.asbuilt.verify import Verification
from planner.jobs.worker import VerifyJob, run_verify
from planner.model.change import Change
from planner.ui.asbuilt.install_overlay import (
    InstallLayer,
    InstallLegend,
    InstallTally,
    verified_text,
)
from planner.ui.asbuilt.verify_dock import VerifyDock, summary_text
from planner.ui.busy import busy
from planner.ui.jobs.runner import Job, JobDialog, plan_input, show_progress

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

#: The three kinds of discovery input: (key, row title, file filter, a folder is allowed).
KINDS = (
    ("links", "Links CSV", "CSV files (*.csv);;All files (*)", False),
    ("ibnetdiscover", "ibnetdiscover", "Topology files (*.txt *.topo *.out);;All files (*)", False),
    ("lldp", "LLDP JSON", "lldpcli JSON (*.json);;All files (*)", True),
)
SEPARATOR = ";"
UNKNOWN_LISTED = 10


def split_paths(text: str) -> list[str]:
    return [part.strip() for part in text.split(SEPARATOR) if part.strip()]


class VerifyDialog(JobDialog):
    """Which discovery files to check the plan against: any number of each kind at once.

    The check runs in a worker process (2–4 s at 98k cables) with a busy bar and Cancel; the
    ``Verification`` comes back as plain data.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window_ref = window
        self.setWindowTitle("Verify against discovery")
        self.setMinimumWidth(640)
        self.verification: Verification | None = None
        self.inputs: dict[str, list[str]] = {}
        source = window.files.path
        self._folder = str(Path(source).parent) if source else str(Path.home())
        intro = QLabel("What the fabric reports, matched to the plan by hostname and port. Give one or more "
                       f"files of any kind (separate several with “{SEPARATOR}”); LLDP takes a folder of "
                       "one JSON file per host or switch.")
        intro.setWordWrap(True)
        form = QFormLayout()
        self.edits: dict[str, QLineEdit] = {}
        for key, title, pattern, folder in KINDS:
            edit = QLineEdit()
            edit.setObjectName(f"verify-{key}")
            edit.setPlaceholderText({"links": "a_device,a_port,b_device,b_port with hostnames",
                                     "ibnetdiscover": "the topology file ibnetdiscover prints",
                                     "lldp": "lldpcli show neighbors -f json, per host; or their folder"}[key])
            self.edits[key] = edit
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.addWidget(edit, 1)
            files = QPushButton("Files…")
            files.clicked.connect(lambda _c=False, k=key, t=title, p=pattern: self._choose_files(k, t, p))
            line.addWidget(files)
            if folder:
                choose = QPushButton("Folder…")
                choose.clicked.connect(lambda _c=False, k=key: self._choose_folder(k))
                line.addWidget(choose)
            form.addRow(title, row)
        self.status = QLabel(" ")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar()
        self.progress.hide()
        self.job: Job | None = None
        buttons = QDialogButtonBox()
        self.verify_button = buttons.addButton("Verify", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.verify_button.clicked.connect(self.run)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(buttons)

    def _add(self, key: str, paths: list[str]) -> None:
        edit = self.edits[key]
        edit.setText(f"{SEPARATOR} ".join(split_paths(edit.text()) + paths))
        self._folder = str(Path(paths[-1]).parent)

    def _choose_files(self, key: str, title: str, pattern: str) -> None:
        paths, _filter = QFileDialog.getOpenFileNames(self, f"Choose {title} files", self._folder, pattern)
        if paths:
            self._add(key, paths)

    def _choose_folder(self, key: str) -> None:
        path = QFileDialog.getExistingDirectory(self, "Choose a folder of LLDP JSON files", self._folder)
        if path:
            self._add(key, [path])

    def run(self) -> None:
        """Read and check; a file that cannot be read is named here and the dialog stays open."""
        self.inputs = {key: split_paths(edit.text()) for key, edit in self.edits.items()}
        if not any(self.inputs.values()):
            self.status.setText("Choose at least one discovery file.")
            return
        missing = [path for paths in self.inputs.values() for path in paths if not os.path.exists(path)]
        if missing:
            self.status.setText(f"No such file or folder: {missing[0]}")
            return
        if self.job is not None:
            return
        with busy(self.window_ref, "Handing the plan to the check…"):
            plan = plan_input(self.window_ref.session)
        self.job = Job(run_verify, VerifyJob(plan, **{key: tuple(paths) for key, paths in self.inputs.items()}),
                       cleanup=[plan], parent=self)
        self.job.progressed.connect(lambda fraction, text: show_progress(self.progress, self.status, fraction, text))
        self.job.failed.connect(lambda message: self.status.setText(f"Cannot read: {message}"))
        self.job.cancelled.connect(lambda: self.status.setText("Cancelled."))
        results: list[Verification] = []
        self.job.succeeded.connect(results.append)
        self.verify_button.setEnabled(False)
        self.progress.show()
        try:
            self.job.start()
            self.job.wait()  # the window stays live; Cancel stops the worker
        finally:
            self.job = None
            self.progress.hide()
            self.verify_button.setEnabled(True)
        if results:
            self.verification = results[0]
            self.accept()

    def file_count(self) -> int:
        return sum(len(paths) for paths in self.inputs.values())


def verify_against_discovery(window: MainWindow) -> None:
    dialog = VerifyDialog(window)
    if dialog.exec() != QDialog.DialogCode.Accepted or dialog.verification is None:
        return
    show_verification(window, dialog.verification)
    count = dialog.file_count()
    window.show_status(f"Checked against {count} file{'s' if count != 1 else ''}: {summary_text(dialog.verification)}")


def show_verification(window: MainWindow, result: Verification) -> None:
    """Put a verification in the dock and bring it to the front: the first time as a tab over the
    findings (a click on a row selects the cable in the Cables dock, which stays in view beside it)."""
    dock = window.verify_dock
    dock.show_result(result)
    findings = window.findings_dock if type(window).findings_dock.provided(window) else None
    if dock.isHidden() and findings is not None and not window.tabifiedDockWidgets(dock):
        window.tabifyDockWidget(findings, dock)
    dock.show()
    dock.raise_()


def import_tick_sheet(window: MainWindow) -> None:
    source = window.files.path
    folder = str(Path(source).parent) if source else str(Path.home())
    path, _filter = QFileDialog.getOpenFileName(window, "Import tick sheet", folder,
                                                "Tick sheets (*.csv);;All files (*)")
    if not path:
        return
    try:
        command = tick_sheet_command(window.session.doc, path)
    except TickSheetError as exc:
        QMessageBox.warning(window, "Import tick sheet", f"The tick sheet cannot be read:\n{exc}")
        return
    if command.values:
        window.session.push(command)
    message = command.text if command.values else "Import tick sheet: no cable moved on"
    if command.kept:
        message += f"; {command.kept:,} verified or faulty left so"
    window.show_status(message)
    unknown = command.unknown_labels
    if unknown:
        listed = "\n".join(unknown[:UNKNOWN_LISTED])
        more = f"\n… and {len(unknown) - UNKNOWN_LISTED:,} more" if len(unknown) > UNKNOWN_LISTED else ""
        QMessageBox.information(window, "Import tick sheet",
                                f"{len(unknown):,} label{'s' if len(unknown) != 1 else ''} on the sheet "
                                f"match no cable in the plan:\n{listed}{more}")


class InstallProgress:
    """The status bar's verified count and the progress overlay, over one tally kept by difference."""

    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        self.window = window
        session = window.session
        self.tally = InstallTally(session.doc)
        self.layer: InstallLayer | None = None
        self.legend = InstallLegend(window.plan_view)
        self.label = QLabel()
        self.label.setObjectName("verified_count")
        self.label.setToolTip("Cables marked verified (Cables dock, Verification ▸ Mark in plan)")
        self.label.setContentsMargins(12, 0, 12, 0)  # apart from the findings count beside it
        window.statusBar().addPermanentWidget(self.label)
        self._show_count()
        self.action = QAction("Installation progress", menu)
        self.action.setObjectName("overlay-install")
        self.action.setCheckable(True)
        self.action.setStatusTip("Racks by the share of their cables verified; racks with a faulty cable hatched")
        self.action.toggled.connect(self.set_visible)
        menu.addAction(self.action)
        session.changed.connect(self._changed)
        session.reset.connect(self._reset)

    def set_visible(self, visible: bool) -> None:
        scene = self.window.plan_view.plan_scene
        if visible and self.layer is None:
            self.layer = InstallLayer(self.window.session.doc, self.tally)
            scene.add_layer(self.layer)
        elif not visible and self.layer is not None:
            scene.remove_layer(self.layer)
            self.layer = None
        self.legend.setVisible(visible)
        if self.action.isChecked() != visible:
            self.action.setChecked(visible)

    def _show_count(self) -> None:
        """The count, or nothing while the plan has no cables (a hall being sketched)."""
        self.label.setText(verified_text(self.tally))
        self.label.setVisible(self.tally.total > 0)

    def _changed(self, change: Change) -> None:
        racks = self.tally.apply(change)
        self._show_count()
        if self.layer is not None:
            # the racks whose counts changed, and those moved, turned, renamed, added or removed
            racks |= {i for i in change.touched if i.startswith("rack-")}
            self.layer.refresh(None if change.catalog else racks)

    def _reset(self) -> None:
        self.tally = InstallTally(self.window.session.doc)
        self._show_count()
        if self.layer is not None:
            self.layer.follow(self.window.session.doc, self.tally)


def _overlays_menu(window: MainWindow) -> QMenu:
    """View ▸ Overlays (validation_attach makes it), else the View menu itself."""
    view = window.menu("&View")
    for action in view.actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and menu.title().replace("&", "") == "Overlays":
            menu.addSeparator()
            return menu
    return view


def attach(window: MainWindow) -> None:
    """Add the as-built actions, dock, overlay and count to a main window."""
    window.install_progress = InstallProgress(window, _overlays_menu(window))

    dock = VerifyDock(window.session, window)
    window.verify_dock = dock
    window.add_dock(dock, Qt.DockWidgetArea.BottomDockWidgetArea)
    cables = window.cable_dock if type(window).cable_dock.provided(window) else None
    if cables is not None:
        cables.status_message.connect(window.show_status)
        dock.cable_requested.connect(cables.select_link)
    dock.hide()  # until the first verification
    dock.rack_requested.connect(lambda rack_id: window.plan_view.centre_on_ids([rack_id]))
    dock.status_message.connect(window.show_status)

    file_menu = window.menu("&File")
    verify_action = QAction("&Verify against discovery…", window)
    verify_action.setObjectName("verify-discovery")
    verify_action.setStatusTip("Check the cabled hall against the plan: links CSV, ibnetdiscover, LLDP")
    verify_action.triggered.connect(lambda: verify_against_discovery(window))
    ticks_action = QAction("Import &tick sheet…", window)
    ticks_action.setObjectName("import-tick-sheet")
    ticks_action.setStatusTip("Read the installers' run / labelled / tested ticks back into the plan")
    ticks_action.triggered.connect(lambda: import_tick_sheet(window))
    exports = type(window).export_menu.provided(window)
    before = window.export_menu.menuAction() if exports else window.quit_action
    for action in (verify_action, ticks_action):
        file_menu.insertAction(before, action)
    file_menu.insertSeparator(before)
    window.verify_action, window.import_ticks_action = verify_action, ticks_action
