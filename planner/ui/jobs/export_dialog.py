"""File ▸ Export: every document of the plan, with paper and title-block fields, in a worker process.

The exporters are Qt-free (``planner.export``); this module adds the dialog, runs the export in a
worker process (``planner.ui.jobs.runner``: the GUI thread shares no Python object with it) with a progress
bar and Cancel, and renders the PlanScene to PNG in the GUI process (it draws the scene itself).
The worker writes into a staging folder beside the target and the dialog moves the result into place
only on success, so a cancelled, failed or killed export leaves nothing behind. The dialog is modal,
so the plan cannot change while it is being written.

A folder kind (``ExportKind.folder``: the NetBox and Slurm sets) is saved to a folder, which the
export replaces whole: Browse picks the folder (an empty one becomes the set; in any other the set
gets a folder of its own); an earlier export there is replaced only after asking, and a folder of
other files never. A paper kind can be limited to the racks selected in the plan (and the racks of
the selected devices): an installer prints tomorrow's racks, not the hall.
"""

from __future__ import annotations

import os
import tempfile
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from planner.export.options import PAPER_SIZES, ExportOptions, LabelSheet
from planner.export.registry import EXPORT_KINDS
from planner.export.scale_bar import scale_bar_length
from planner.io.atomic_folder import EXPORT_MARKER
from planner.jobs.worker import ExportJob, publish, run_export, staging_folder
from planner.model.document import Document
from planner.ui.busy import busy
from planner.ui.jobs.runner import Job, JobDialog, plan_input, show_progress
from planner.ui.plan.units import SCENE_PER_M

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

PNG_KIND = "floorplan-png"
PNG_TITLE = "Floor plan image (PNG)"
#: Largest PNG side in pixels; halls up to 30 m render at two pixels per centimetre.
PNG_MAX_PIXELS = 6000
PNG_FOOTER_PX = 90


def selected_racks(doc: Document, selection: set[str]) -> frozenset[str]:
    """The racks a selection stands for: the selected racks and the racks of the selected devices."""
    racks = {i for i in selection if i in doc.racks}
    racks |= {doc.devices[i].rack for i in selection if i in doc.devices}
    return frozenset(racks)


def render_plan_png(window: MainWindow, path: str, options: ExportOptions) -> None:
    """Render the plan scene at scale with a footer (title facts, scale bar) to a PNG, atomically."""
    scene = window.plan_view.plan_scene
    doc = window.session.doc
    rect = scene.hall_rect().adjusted(-50, -50, 50, 50)
    scale = min(2.0, PNG_MAX_PIXELS / max(rect.width(), rect.height(), 1.0))
    width, height = int(rect.width() * scale), int(rect.height() * scale)
    image = QImage(width, height + PNG_FOOTER_PX, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    selected = scene.selectedItems()
    for item in selected:
        item.setSelected(False)
    scene.render(painter, QRectF(0, 0, width, height), rect)
    for item in selected:
        item.setSelected(True)
    px_per_m = SCENE_PER_M * scale
    bar_m = scale_bar_length(rect.width() / SCENE_PER_M)
    top = height + 12
    painter.setPen(QPen(QColor("black"), 2))
    painter.drawRect(QRectF(20, top, bar_m * px_per_m, 8))
    painter.fillRect(QRectF(20, top, bar_m * px_per_m / 2, 8), QColor("black"))
    font = QFont("DejaVu Sans")
    font.setPixelSize(14)
    painter.setFont(font)
    painter.drawText(int(28 + bar_m * px_per_m), top + 10, f"{bar_m:g} m   ·   north is up")
    facts = (f"Floor plan · {doc.meta.project} · {doc.meta.hall} · revision {options.revision or doc.meta.revision}"
             f" · {options.date} · {options.author if options.author is not None else doc.meta.author} · "
             f"{options.file_name} · page 1 of 1")
    painter.drawText(QRectF(20, top + 26, width - 40, PNG_FOOTER_PX - 40), Qt.TextFlag.TextWordWrap, facts)
    painter.end()
    folder = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".export-", suffix=".png", dir=folder)
    os.close(fd)
    try:
        if not image.save(temp):  # PNG: the format follows the name
            raise OSError(f"cannot write {path}")
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


class ExportDialog(JobDialog):
    """Where to write one export, on which paper and with which title-block facts."""

    def __init__(self, window: MainWindow, kind: str) -> None:
        super().__init__(window)
        self.window_ref = window
        self.kind = kind
        self.job: Job | None = None
        doc = window.session.doc
        spec = EXPORT_KINDS.get(kind)
        title = spec.title if spec else PNG_TITLE
        suffix = spec.suffix if spec else ".png"
        self.setWindowTitle(f"Export {title}")
        self.setModal(True)
        self.setMinimumWidth(520)

        source = window.files.path
        folder = Path(source).parent if source else Path.home()
        stem = Path(source).stem if source else "plan"
        document = kind.rsplit("-", 1)[0]  # "labels-pdf" → "labels": the suffix already says the format
        self.path_edit = QLineEdit(str(folder / f"{stem}-{document}{suffix}"))
        self.browse_button = QPushButton("Browse…")
        self.browse_button.clicked.connect(self._browse)
        path_row = QWidget()
        row_layout = QHBoxLayout(path_row)
        row_layout.setContentsMargins(0, 0, 0, 0)
        row_layout.addWidget(self.path_edit, 1)
        row_layout.addWidget(self.browse_button)
        self.paper_combo = QComboBox()
        self.paper_combo.addItems(list(PAPER_SIZES))
        self.paper_combo.setCurrentText(doc.basis.paper if doc.basis.paper in PAPER_SIZES else "A4")
        self.paper_combo.setEnabled(spec is not None and spec.paper)
        self.revision_edit = QLineEdit(doc.meta.revision)
        self.author_edit = QLineEdit(doc.meta.author)
        self.date_edit = QLineEdit(date.today().isoformat())
        self.file_name = Path(source).name if source else ""
        self.folder_kind = spec is not None and spec.folder

        form = QFormLayout()
        form.addRow("Save to folder" if self.folder_kind else "Save to", path_row)
        form.addRow("Paper", self.paper_combo)
        form.addRow("Revision", self.revision_edit)
        form.addRow("Author", self.author_edit)
        form.addRow("Date", self.date_edit)
        self.sheet_edit = QLineEdit("3x10:66.7x25.4")
        self.sheet_edit.setToolTip("Label sheet: columns x rows, then label width x height in mm")
        if kind == "labels-pdf":
            form.addRow("Label sheet", self.sheet_edit)
        self.remaining_box = QCheckBox("Only cables not yet verified, per rack (what is left to do)")
        if kind == "cabling-pdf":
            form.addRow("Cables", self.remaining_box)
        self.against_edit = QLineEdit()
        self.against_edit.setPlaceholderText("earlier revision (.hall) to compare with; empty: comments only")
        if kind == "review-pdf":
            form.addRow("Compare with", self.against_edit)
        self.site_edit = QLineEdit(doc.meta.project)
        self.location_edit = QLineEdit(doc.meta.hall)
        if kind == "netbox":  # the names NetBox files the hall under (planner export --site/--location)
            form.addRow("NetBox site", self.site_edit)
            form.addRow("NetBox location", self.location_edit)
        self.site_hosts_box = QCheckBox("Put the site in front of each default hostname (unique across halls)")
        if kind == "netbox":
            form.addRow("Hostnames", self.site_hosts_box)
        self.racks = selected_racks(doc, window.session.selection)
        count = len(self.racks)
        self.racks_box = QCheckBox(f"Only the {count:,} selected rack{'s' if count != 1 else ''}" if count
                                   else "Only the selected racks (select racks or devices in the plan)")
        self.racks_box.setEnabled(count > 0)
        if spec is not None and spec.paper:
            form.addRow("Racks", self.racks_box)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.status = QLabel(" ")
        self.status.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.export_button.clicked.connect(self.start_export)
        self.cancel_button.clicked.connect(self.cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.written: str | None = None

    def _browse(self) -> None:
        if self.folder_kind:
            self._browse_folder()
            return
        name, _filter = QFileDialog.getSaveFileName(self, "Export to", self.path_edit.text())
        if name:
            self.path_edit.setText(name)

    def _browse_folder(self) -> None:
        """The set's folder: the chosen one when it is empty, else a folder of the set's own name in it."""
        current = Path(self.path_edit.text())
        chosen = QFileDialog.getExistingDirectory(self, "Export into folder", str(current.parent))
        if chosen:
            empty = not any(Path(chosen).iterdir())
            self.path_edit.setText(chosen if empty else str(Path(chosen) / current.name))

    def _replace_allowed(self, path: str) -> bool:
        """A folder export replaces its target whole: only an earlier export (it carries
        ``EXPORT_MARKER``), after asking; a folder of anything else is never touched."""
        if not os.path.isdir(path) or not os.listdir(path):
            return True
        if not os.path.exists(os.path.join(path, EXPORT_MARKER)):
            self.status.setText(f"Not exported: {path} holds other files. Choose a new or empty folder.")
            return False
        answer = QMessageBox.question(
            self, "Replace folder?", f"{path} holds an earlier export. The export replaces the whole folder: "
            "everything in it now is deleted. Replace it?")
        if answer != QMessageBox.StandardButton.Yes:
            self.status.setText("Not exported: choose another folder.")
            return False
        return True

    def options(self) -> ExportOptions:
        """The dialog's fields as export options; raises ValueError for a malformed label sheet."""
        return ExportOptions(paper=self.paper_combo.currentText(), revision=self.revision_edit.text(),
                             author=self.author_edit.text(), date=self.date_edit.text().strip(),
                             file_name=self.file_name, label_sheet=LabelSheet.parse(self.sheet_edit.text()),
                             remaining_only=self.remaining_box.isChecked(),
                             against=self.against_edit.text().strip() or None,
                             site=self.site_edit.text().strip() or None,
                             location=self.location_edit.text().strip() or None,
                             site_in_hostnames=self.site_hosts_box.isChecked(),
                             racks=self.racks if self.racks_box.isChecked() else None)

    def _set_running(self, running: bool) -> None:
        for widget in (self.export_button, self.browse_button, self.path_edit, self.paper_combo, self.revision_edit, self.author_edit,
                       self.date_edit, self.sheet_edit, self.remaining_box, self.against_edit,
                       self.site_edit, self.location_edit, self.site_hosts_box):
            widget.setEnabled(not running and (widget is not self.paper_combo or self.kind not in
                                               EXPORT_KINDS or EXPORT_KINDS[self.kind].paper))
        self.racks_box.setEnabled(not running and bool(self.racks))

    def start_export(self) -> None:
        path = self.path_edit.text().strip()
        if not path or not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            self.status.setText(f"Choose a {'folder' if self.folder_kind else 'file'} in an existing folder.")
            return
        if self.folder_kind and not self._replace_allowed(path):
            return
        try:
            options = self.options()
        except ValueError as exc:
            self.status.setText(f"Label sheet: {exc}")
            return
        if self.kind == PNG_KIND:
            try:
                render_plan_png(self.window_ref, path, options)
            except OSError as exc:
                self._failed(str(exc))
            else:
                self._succeeded(path)
            return
        self._set_running(True)
        self.status.setText("Exporting…")
        target = os.path.abspath(path)
        staging = staging_folder(target)
        with busy(self, "Handing the plan to the export…"):  # 0.6 s at 98k cables: show why
            plan = plan_input(self.window_ref.session)
        staged = os.path.join(staging, os.path.basename(target))
        self.job = Job(run_export, ExportJob(plan, self.kind, staged, options), cleanup=[plan, staging], parent=self)
        self.job.progressed.connect(lambda fraction, text: show_progress(self.progress, self.status, fraction, text))
        self.job.succeeded.connect(lambda _staged: self._publish(staged, path))
        self.job.failed.connect(self._failed)
        self.job.cancelled.connect(self._cancelled)
        self.job.start()

    def cancel_job(self) -> None:
        self.cancel()

    def cancel(self) -> None:
        """Stop a running export (its worker is terminated and nothing is written), or close the dialog."""
        if self.job is not None and self.job.running:
            self.job.cancel()
            return
        self.reject()

    def _finish_job(self) -> None:
        self.job = None
        self.progress.setRange(0, 100)
        self._set_running(False)

    def _publish(self, staged: str, path: str) -> None:
        """The worker has finished: move its file (or folder) from the staging folder into place."""
        try:
            publish(staged, path, self.folder_kind)
        except OSError as exc:
            self._failed(str(exc))
            return
        self._succeeded(path)

    def _succeeded(self, path: str) -> None:
        self._finish_job()
        self.progress.setValue(100)
        self.written = path
        self.window_ref.show_status(f"Exported {Path(path).name}")
        self.accept()

    def _failed(self, message: str) -> None:
        self._finish_job()
        self.status.setText(f"Export failed: {message}")

    def _cancelled(self) -> None:
        self._finish_job()
        self.progress.setValue(0)
        self.status.setText("Cancelled: no file was written.")


def attach(window: MainWindow) -> None:
    """Add File ▸ Export with one action per document (and the PNG of the plan)."""
    file_menu = window.menu("&File")
    export_menu = file_menu.addMenu("E&xport")
    file_menu.insertMenu(window.quit_action, export_menu)
    file_menu.insertSeparator(window.quit_action)
    window.export_menu = export_menu
    entries = [(key, spec.title) for key, spec in EXPORT_KINDS.items()] + [(PNG_KIND, PNG_TITLE)]
    for key, title in entries:
        action = export_menu.addAction(f"{title}…")
        action.setObjectName(f"export-{key}")
        action.triggered.connect(lambda _checked=False, k=key: ExportDialog(window, k).exec())
