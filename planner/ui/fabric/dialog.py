"""Plan ▸ Generate fabric…: switch type, oversubscription and network-rack placement.

The dialog only collects the choices and builds the command with
``planner.fabric.hall.cable_hall``; pushing it on the session makes the whole generation
(switches, racks moved aside, every cable of every network — compute, storage, in-band and
out-of-band management, coolant hoses, power cords — and the design basis's oversubscription set
to the one chosen, so N5 checks the fabric against what was built) one undo step. A plan the
generator refuses (no nodes, too many GPUs) keeps the dialog open with the reason shown in it.

Generation stays in the GUI process, under a wait cursor, unlike exports and template builds
(``planner.ui.jobs.runner``): at 4,096 nodes it takes 1.0 s and applying the command 0.3 s, while a worker
would add its start (0.3–0.8 s), reading the plan, and a 41 MB command to send back and unpickle
here, where the command must be applied anyway as one undo step. The worker would be slower.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from planner.commands.edits import Refusal
from planner.fabric import FabricError
from planner.fabric.hall import cable_hall, refusal, summary
from planner.fabric.sizing import default_switch, design_fabric, node_devices, rails_of
from planner.fabric.stages import HallCabling
from planner.model.networks import NETWORK_WORDS
from planner.model.ports import NETWORKS
from planner.ui.busy import busy
from planner.ui.dialogs.parts import error_label, ok_cancel
from planner.ui.session import DocumentSession

PLACEMENT_LABELS = {"middle": "Middle of the row", "end": "End of the row"}


class GenerateFabricDialog(QDialog):
    """Collects the fabric choices and pushes one generate command on the session."""

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.setWindowTitle("Generate fabric")
        doc = session.doc
        self.switch = QComboBox()
        for item in doc.catalog.fabric_switches():
            self.switch.addItem(f"{item.name}", item.key)
        self.switch.setCurrentIndex(max(0, self.switch.findData(default_switch(doc))))
        self.oversubscription = QDoubleSpinBox()
        self.oversubscription.setRange(1.0, 8.0)
        self.oversubscription.setSingleStep(0.5)
        self.oversubscription.setSuffix(" : 1")
        self.oversubscription.setValue(doc.basis.oversubscription)
        self.placement = QComboBox()
        for key, label in PLACEMENT_LABELS.items():
            self.placement.addItem(label, key)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.error = error_label()
        form = QFormLayout()
        form.addRow("Switch type", self.switch)
        form.addRow("Oversubscription", self.oversubscription)
        form.addRow("New network racks", self.placement)
        buttons = ok_cancel(self, "Generate")
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.switch.currentIndexChanged.connect(self._update_summary)
        self.oversubscription.valueChanged.connect(self._update_summary)
        self._update_summary()
        self.setMinimumWidth(460)

    def _update_summary(self) -> None:
        doc = self.session.doc
        nodes = node_devices(doc)
        try:
            item = doc.catalog[self.switch.currentData()]
            design = design_fabric(len(nodes), rails_of(doc, nodes), item.port_count, self.oversubscription.value())
        except FabricError as exc:
            self.summary.setText(str(exc))
            return
        counts = design.counts()
        switches, links = counts["switches"], counts["links"]
        ratio = self.oversubscription.value()
        basis = ""
        if ratio != doc.basis.oversubscription:
            basis = (f" The design basis's oversubscription changes from {doc.basis.oversubscription:g}:1 "
                     f"to {ratio:g}:1.")
        self.summary.setText(
            f"{counts['nodes']} nodes, {counts['gpus']} GPUs → {counts['tiers']} tier(s): "
            f"{switches['leaf']} leaf, {switches['spine']} spine, {switches['core']} core switches; "
            f"{sum(links.values()):,} cables. Cables whose two ends stay the same are kept with their id, "
            f"label and state; you see what changes before it is applied.{basis}")

    def command(self) -> HallCabling:
        """The command for the current choices, planned on every network (raises FabricError /
        Refusal): the compute fabric and each other network are planned on the plan as the step
        before leaves it, so the command is applied once and reverted here to learn what it does;
        pushing it replays exactly that."""
        doc = self.session.doc
        command = cable_hall(doc, self.switch.currentData(), self.oversubscription.value(),
                             self.placement.currentData())
        command.apply(doc)
        command.revert(doc)
        return command

    def accept(self) -> None:
        try:
            with busy(self, "Generating the fabric and every other network, cabling and routing…"):
                command = self.command()
        except (FabricError, Refusal) as exc:
            self.error.setText(str(exc))
            return
        if command.changes_nothing:
            doc = self.session.doc
            kept = ", ".join(f"{len(doc.links_in(n)):,} {NETWORK_WORDS[n]}" for n in NETWORKS if doc.links_in(n))
            self.error.setText(f"Nothing to change: the plan already has this fabric and every other network "
                               f"({len(doc.links):,} cables kept: {kept}).")
            return
        if self.session.doc.links and not self.confirm(command):
            return
        with busy(self, "Applying the fabric…"):
            self.session.push(command)
        super().accept()

    def confirm(self, command: HallCabling) -> bool:
        """Ask before a generation that changes existing cables: the numbers per network, and a
        warning when cables already run, tested or verified would be removed or rewired (then No is
        the default)."""
        box = QMessageBox(self)
        box.setWindowTitle("Generate fabric")
        box.setText("\n".join(f"{line}." for line in summary(command)))
        risky = refusal(command)
        if risky:
            box.setIcon(QMessageBox.Icon.Warning)
            box.setInformativeText(f"{risky}. Their installation state is lost. Apply anyway?")
        else:
            box.setIcon(QMessageBox.Icon.Question)
            box.setInformativeText("Apply the generated fabric? (One undo step.)")
        box.setStandardButtons(QMessageBox.StandardButton.Apply | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel if risky else QMessageBox.StandardButton.Apply)
        return box.exec() == QMessageBox.StandardButton.Apply
