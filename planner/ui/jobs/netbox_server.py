"""File ▸ Push to NetBox… and Pull from NetBox…: ``planner netbox push|pull`` in a dialog.

The server, the token file (empty: ``$NETBOX_TOKEN``, as the command line) and the site are asked
for; the server and token file are remembered between sessions, the token itself never is (it
is read in the worker, from the file). The push or pull runs in a worker process
(``planner.jobs.netbox_server``), its progress shown, Cancel at hand. A push's summary stays in
the dialog; unless it was a dry run, the NetBox ids it learnt go into the plan as one undoable
edit (``RecordNetBox``), so the next push updates what this one made. A pull opens the site as a
new unsaved plan, laid onto the open plan when asked (objects matched by the NetBox ids the open
plan recorded, what NetBox does not hold kept from it), so Plan ▸ Compare with… lists what was
changed in NetBox.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from planner.commands import RecordNetBox, Refusal
from planner.io import HallFileError, loads
from planner.model.objects import NetBoxRecord
from planner.netbox.client import TOKEN_ENV
from planner.ui.busy import busy
from planner.ui.dialogs.parts import error_label
from planner.ui.jobs.runner import Job, JobDialog, plan_input, show_progress

if TYPE_CHECKING:
    from planner.jobs.netbox_server import PullOutcome, PushOutcome
    from planner.ui.main_window import MainWindow

_URL_KEY, _TOKEN_KEY = "netbox/url", "netbox/token_file"


class NetBoxServerDialog(JobDialog):
    """Push the open plan to a NetBox site, or pull a site into a new plan (``pulling``)."""

    def __init__(self, window: MainWindow, pulling: bool) -> None:
        super().__init__(window)
        self.window_ref, self.pulling = window, pulling
        self.setWindowTitle("Pull from NetBox" if pulling else "Push to NetBox")
        doc, settings = window.session.doc, QSettings()
        self.url = QLineEdit(doc.netbox.url or str(settings.value(_URL_KEY, "")))
        self.url.setPlaceholderText("https://netbox.example.com")
        self.token_file = QLineEdit(str(settings.value(_TOKEN_KEY, "")))
        self.token_file.setPlaceholderText(f"empty: the {TOKEN_ENV} environment variable")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        token_row = QHBoxLayout()
        token_row.addWidget(self.token_file, 1)
        token_row.addWidget(browse)
        self.site = QLineEdit(doc.netbox.site or doc.meta.project)
        self.dry_run = QCheckBox("Dry run: show what would change, write nothing")
        self.modules = QCheckBox("Transceivers as modules (NetBox: about 80 ms each)")
        self.modules.setToolTip("A module per optical plug in its cage's module bay, as the BOM counts them. NetBox "
                                "4.6 makes one in about 80 ms: a 1,024-node hall's 35k take most of an hour.")
        self.modules.setChecked(True)
        self.onto = QCheckBox("Lay it onto the open plan (match by the NetBox ids it recorded)")
        self.onto.setChecked(bool(doc.netbox.ids))
        self.onto.setEnabled(bool(doc.netbox.ids))
        form = QFormLayout()
        form.addRow("NetBox server", self.url)
        form.addRow("Token file", token_row)
        form.addRow("Site", self.site)
        form.addRow("", self.onto if pulling else self.dry_run)
        if not pulling:
            form.addRow("", self.modules)
        for hidden in ((self.dry_run, self.modules) if pulling else (self.onto,)):
            hidden.hide()
        self.progress = QProgressBar()
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.error = error_label()
        self.summary = QPlainTextEdit()
        self.summary.setReadOnly(True)
        self.summary.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.run_button = buttons.addButton("Pull" if pulling else "Push", QDialogButtonBox.ButtonRole.AcceptRole)
        self.run_button.setDefault(True)
        buttons.accepted.connect(self.run)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.error)
        layout.addWidget(self.summary, 1)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)
        self.job: Job | None = None

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "The file holding the NetBox API token",
                                              self.token_file.text() or str(Path.home()))
        if path:
            self.token_file.setText(path)

    def run(self) -> None:
        """Push or pull in a worker, the window live; the dialog stays open on a refusal."""
        url, site = self.url.text().strip(), self.site.text().strip()
        if not url or (self.pulling and not site):
            self.error.setText("Give the NetBox server" + (" and the site." if self.pulling and url else "."))
            return
        if self.job is not None:
            return
        self.error.clear()
        settings = QSettings()
        settings.setValue(_URL_KEY, url)
        settings.setValue(_TOKEN_KEY, self.token_file.text().strip())
        cleanup = []
        plan = ""
        if not self.pulling or self.onto.isChecked():
            with busy(self.window_ref, "Handing the plan over…"):
                plan = plan_input(self.window_ref.session)
            cleanup.append(plan)
        # Late: the jobs pull in the NetBox client and the export's mapping (about 0.7 s of imports),
        # which opening the window need not wait for.
        from planner.jobs.netbox_server import PullJob, PushJob, run_pull, run_push
        token = self.token_file.text().strip()
        if self.pulling:
            self.job = Job(run_pull, PullJob(url, site, token, plan), cleanup=cleanup, parent=self)
        else:
            self.job = Job(run_push, PushJob(plan, url, token, site, self.dry_run.isChecked(), self.modules.isChecked()),
                           cleanup=cleanup, parent=self)
        self.job.progressed.connect(lambda fraction, text: show_progress(self.progress, self.status, fraction, text))
        self.job.failed.connect(self.error.setText)
        self.job.cancelled.connect(lambda: self.error.setText("Cancelled." if self.pulling else
                                                              "Cancelled: NetBox may hold part of the push; push again "
                                                              "to finish it (objects are found by name)."))
        outcome: list[object] = []
        self.job.succeeded.connect(outcome.append)
        self._set_running(True)
        try:
            self.job.start()
            self.job.wait()
        finally:
            self.job = None
            self._set_running(False)
        if outcome and not self.pulling:
            self._pushed(outcome[0])  # type: ignore[arg-type]  # run_push's PushOutcome
        elif outcome and self._open(outcome[0]):  # type: ignore[arg-type]  # run_pull's PullOutcome
            self.accept()

    def _open(self, outcome: PullOutcome) -> bool:
        """The pulled site as the window's new unsaved plan (after asking to save the open one)."""
        window = self.window_ref
        try:
            doc = loads(outcome.hall)
        except HallFileError as exc:
            self.error.setText(f"The pulled plan cannot be read: {exc}")
            return False
        if not window.files.maybe_save():
            self.error.setText("The open plan has unsaved changes: the pulled plan was not opened.")
            return False
        window.files.set_document(doc, None, f"{doc.netbox.site or 'netbox'}.hall")
        window.show_status(f"Pulled {outcome.summary}")
        show_notes(window, "Pulled from NetBox", outcome.summary, outcome.notes)
        return True

    def _pushed(self, outcome: PushOutcome) -> None:
        self.summary.setPlainText(outcome.text)
        self.summary.show()
        if outcome.dry_run:
            self.status.setText("Dry run: nothing was written to NetBox.")
            return
        try:
            self.window_ref.session.push(RecordNetBox(NetBoxRecord(outcome.url, outcome.site, outcome.ids)))
        except Refusal as exc:
            self.error.setText(f"NetBox answered ids the plan cannot hold: {exc}")
            return
        self.status.setText(f"Pushed. The plan now records {len(outcome.ids):,} NetBox ids (Edit ▸ Undo takes "
                            "them out); save it so the next push updates what this one made.")
        self.window_ref.show_status(f"Pushed to NetBox site {outcome.site!r} at {outcome.url}")

    def _set_running(self, running: bool) -> None:
        for widget in (self.run_button, self.url, self.token_file, self.site, self.dry_run, self.modules, self.onto):
            widget.setEnabled(not running and (widget is not self.onto or bool(self.window_ref.session.doc.netbox.ids)))
        self.progress.setVisible(running)
        self.status.setVisible(True)
        if running:
            show_progress(self.progress, self.status, -1.0, "Pulling…" if self.pulling else "Pushing…")


def show_notes(window: MainWindow, title: str, summary: str, notes: list[str]) -> None:
    """What an import or pull assumed, in a message box the user closes."""
    QMessageBox.information(window, title, summary + "\n\n" + "\n".join(f"• {note}" for note in notes))


def open_netbox_dialog(window: MainWindow, pulling: bool) -> NetBoxServerDialog:
    """File ▸ Push to NetBox… / Pull from NetBox…: the dialog, window-modal, left to the user."""
    dialog = NetBoxServerDialog(window, pulling)
    dialog.open()
    return dialog
