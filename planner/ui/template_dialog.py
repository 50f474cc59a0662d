"""File ▸ New from template…: the parameters of ``planner new`` in a dialog.

The dialog builds the plan with ``planner.layout.templates.build_template`` and checks it
against the full rule catalogue, exactly as the command line does; a template the parameters
cannot make error-free keeps the dialog open with the one-line reason.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from planner.layout.templates import (
    DEFAULT_NODE,
    DEFAULT_NODES,
    DEFAULT_RACK_KW,
    MAX_NODES,
    TEMPLATES,
    TemplateError,
    build_template,
)
from planner.model.catalog import NODE, SWITCH, builtin_catalog
from planner.model.document import Document
from planner.rules.engine import validate
from planner.rules.finding import ERROR
from planner.ui.busy import busy
from planner.ui.dialogs.parts import error_label, ok_cancel

TEMPLATE_LABELS = {"starter": "Starter: one rack, up to 4 nodes",
                   "pod": "Pod: one row, up to 32 nodes",
                   "hall": "Hall: rows of pods, up to 4,096 nodes"}


class TemplateDialog(QDialog):
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
        for item in catalog.of_kind(SWITCH):
            self.switch.addItem(item.name, item.key)
        self.rack_kw = QDoubleSpinBox()
        self.rack_kw.setRange(1.0, 200.0)
        self.rack_kw.setSuffix(" kW")
        self.rack_kw.setDecimals(1)
        self.error = error_label()
        form = QFormLayout()
        form.addRow("Template", self.template)
        form.addRow("GPU nodes", self.nodes)
        form.addRow("Node type", self.node_type)
        form.addRow("Switch type", self.switch)
        form.addRow("Rack power budget", self.rack_kw)
        buttons = ok_cancel(self, "Create")
        layout = QVBoxLayout(self)
        layout.addLayout(form)
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

    def build(self) -> Document:
        """The plan for the current parameters; TemplateError when it would have errors."""
        doc = build_template(self.template.currentData(), nodes=self.nodes.value(),
                             node_type=self.node_type.currentData(), switch_type=self.switch.currentData(),
                             rack_kw=self.rack_kw.value())
        errors = [f for f in validate(doc) if f.severity == ERROR]
        if errors:
            raise TemplateError(f"the plan would have errors: {errors[0].message}")
        return doc

    def document(self) -> Document | None:
        return self._doc

    def name(self) -> str:
        return f"{self.template.currentData()}-{self.nodes.value()}-nodes"

    def accept(self) -> None:
        try:
            with busy(self, f"Building the {self.template.currentData()} template, {self.nodes.value():,} nodes…"):
                self._doc = self.build()
        except TemplateError as exc:
            self.error.setText(str(exc))
            return
        super().accept()
