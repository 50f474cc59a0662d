"""File ▸ New from template…: the parameters of ``planner new`` in a dialog.

The plan is built with ``planner.layout.templates.build_template`` and checked against the full
rule catalogue, exactly as the command line does, in a worker process (``planner.ui.jobs.runner``): at
65k–131k GPUs that takes 10–60 s, during which the window repaints and Cancel stops the build. The
plan comes back as ``.hall`` text and is read here. A template the parameters cannot make
error-free keeps the dialog open with the one-line reason.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QProgressBar,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from planner.io import HallFileError, loads
from planner.jobs.worker import TemplateJob, run_template
from planner.layout.templates import (
    DEFAULT_NODE,
    DEFAULT_NODES,
    DEFAULT_RACK_KW,
    HALL_NODES_64_PORT,
    MAX_NODES,
    TEMPLATES,
)
from planner.model.catalog import NODE, builtin_catalog
from planner.model.document import Document
from planner.ui.dialogs.parts import error_label, ok_cancel
from planner.ui.jobs.runner import Job, JobDialog, show_progress

#: The limits are the template's own (``MAX_NODES``, the same the command line's --nodes help prints).
TEMPLATE_LABELS = {"starter": f"Starter: one rack, up to {MAX_NODES['starter']:,} nodes",
                   "pod": f"Pod: one row, up to {MAX_NODES['pod']:,} nodes",
                   "hall": f"Hall: rows of pods, up to {MAX_NODES['hall']:,} nodes "
                           f"({HALL_NODES_64_PORT:,} on 64-port switches)"}


class TemplateDialog(JobDialog):
    """Collects template parameters and builds a checked, error-free plan (``document()``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New from template")
        catalog = builtin_catalog()
        self.template = QComboBox()
        for key in TEMPLATES:
            self.template.addItem(TEMPLATE_LABELS[key], key)
        self.nodes = QSpinBox()
        self.node_type = QComboBox()
        for item in catalog.of_kind(NODE):
            self.node_type.addItem(item.name, item.key)
        self.node_type.setCurrentIndex(max(0, self.node_type.findData(DEFAULT_NODE)))
        self.switch = QComboBox()
        for item in catalog.fabric_switches():
            self.switch.addItem(item.name, item.key)
        self.rack_kw = QDoubleSpinBox()
        self.rack_kw.setRange(1.0, 200.0)
        self.rack_kw.setSuffix(" kW")
        self.rack_kw.setDecimals(1)
        self.error = error_label()
        self.progress = QProgressBar()
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.job: Job | None = None
        form = QFormLayout()
        form.addRow("Template", self.template)
        form.addRow("GPU nodes", self.nodes)
        form.addRow("Node type", self.node_type)
        form.addRow("Switch type", self.switch)
        form.addRow("Rack power budget", self.rack_kw)
        buttons = ok_cancel(self, "Create")
        self.create_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.template.currentIndexChanged.connect(self._template_changed)
        self._template_changed()
        self.setMinimumWidth(480)
        self._doc: Document | None = None

    def _template_changed(self) -> None:
        key = self.template.currentData()
        self.nodes.setRange(1, MAX_NODES[key])
        self.nodes.setValue(DEFAULT_NODES[key])
        self.rack_kw.setValue(DEFAULT_RACK_KW[key])
        self.error.clear()

    def parameters(self) -> TemplateJob:
        return TemplateJob(self.template.currentData(), self.nodes.value(), self.node_type.currentData(),
                           self.switch.currentData(), self.rack_kw.value())

    def document(self) -> Document | None:
        return self._doc

    def name(self) -> str:
        return f"{self.template.currentData()}-{self.nodes.value()}-nodes"

    def accept(self) -> None:
        """Build in a worker and wait for it, the window live; stay open on a refusal or Cancel."""
        if self.job is not None:
            return
        self.error.clear()
        self.job = Job(run_template, self.parameters(), parent=self)
        self.job.progressed.connect(lambda fraction, text: show_progress(self.progress, self.status, fraction, text))
        outcome: list[object] = []
        self.job.succeeded.connect(outcome.append)
        self.job.failed.connect(self.error.setText)
        self.job.cancelled.connect(lambda: self.error.setText("Cancelled: no plan was made."))
        self._set_running(True)
        try:
            self.job.start()
            self.job.wait()
        finally:
            self.job = None
            self._set_running(False)
        if not outcome:
            return
        try:
            self._doc = loads(str(outcome[0]))
        except HallFileError as exc:
            self.error.setText(str(exc))
            return
        super().accept()

    def _set_running(self, running: bool) -> None:
        for widget in (self.create_button, self.template, self.nodes, self.node_type, self.switch, self.rack_kw):
            widget.setEnabled(not running)
        self.progress.setVisible(running)
        self.status.setVisible(running)
        if running:
            show_progress(self.progress, self.status, -1.0, f"Building the {self.template.currentData()} template, "
                          f"{self.nodes.value():,} nodes…")
