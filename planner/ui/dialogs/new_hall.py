"""The New hall dialog: the few facts a surveyor knows first (size or outline, floor rating).

Columns, more zones and doors follow in the hall-features dialog, which stays available from
the Plan menu, so everything entered here can be changed later. Ranges and lengths come from
the format's bounds table; OK refuses a name the file would refuse.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QMessageBox,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from planner.model.document import Document
from planner.model.objects import Point, Zone
from planner.ui.dialogs.parts import bounded_line, bounded_spin, ok_cancel, text_problem_for

_ZONE_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Zone)}


def spin(value: float, maximum: float, suffix: str, decimals: int = 2, minimum: float = 0.0) -> QDoubleSpinBox:
    """A metric spin box (shared by the dialogs)."""
    box = QDoubleSpinBox()
    box.setDecimals(decimals)
    box.setRange(minimum, maximum)
    box.setValue(value)
    box.setSuffix(f" {suffix}")
    box.setMinimumWidth(110)
    return box


class NewHallDialog(QDialog):
    """Asks for the hall's size (or to draw its outline) and its floor rating."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New hall")
        self.project = bounded_line("Meta", "project", "Untitled project")
        self.hall = bounded_line("Meta", "hall", "Hall 1")
        self.rectangle = QRadioButton("Rectangle, width × depth:")
        self.polygon = QRadioButton("Draw the outline on the plan, corner by corner")
        self.rectangle.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.rectangle)
        group.addButton(self.polygon)
        self.width_m = bounded_spin("HallFileContent", "outline", 24.0, "m", minimum=1.0)
        self.depth_m = bounded_spin("HallFileContent", "outline", 18.0, "m", minimum=1.0)
        self.rating_kpa = bounded_spin("Zone", "rating_kpa", _ZONE_DEFAULTS["rating_kpa"], "kPa", 1)
        self.tile_kn = bounded_spin("Zone", "tile_rating_kn", 0.0, "kN", 1)
        self.tile_kn.setMinimum(0.0)  # 0 in the box is slab floor: no tile rating (None)
        self.tile_kn.setSpecialValueText("slab (no tiles)")
        self.tile_kn.setValue(0.0)
        self.polygon.toggled.connect(self._drawn)

        form = QFormLayout()
        form.addRow("Project", self.project)
        form.addRow("Hall", self.hall)
        form.addRow(self.rectangle)
        form.addRow("    Width (x)", self.width_m)
        form.addRow("    Depth (y)", self.depth_m)
        form.addRow(self.polygon)
        form.addRow("Floor rating", self.rating_kpa)
        form.addRow("Tile point load", self.tile_kn)
        note = QLabel("The floor becomes one zone with these ratings. Columns, more zones and doors "
                      "come next; all of it stays editable (Plan ▸ Hall features…).")
        note.setWordWrap(True)
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)

    def _drawn(self, on: bool) -> None:
        """A drawn outline has no width and depth to type."""
        self.width_m.setEnabled(not on)
        self.depth_m.setEnabled(not on)

    def accept(self) -> None:
        for label, field, edit in (("Project", "project", self.project), ("Hall", "hall", self.hall)):
            problem = text_problem_for(label, "Meta", field, edit.text().strip())
            if problem:
                QMessageBox.warning(self, "New hall", problem)
                return
        super().accept()

    def draw_outline(self) -> bool:
        return self.polygon.isChecked()

    def outline(self) -> list[Point]:
        w, d = self.width_m.value(), self.depth_m.value()
        return [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)]

    def zone_for(self, doc: Document, outline: list[Point]) -> Zone:
        """The whole-floor zone with the ratings entered here."""
        return Zone(id=doc.new_id("zone"), name="Floor", polygon=list(outline),
                    rating_kpa=self.rating_kpa.value(), tile_rating_kn=self.tile_kn.value() or None)

    def document(self) -> Document:
        """The new plan: title block, and outline and floor zone unless they are to be drawn."""
        doc = Document()
        doc.meta.project = self.project.text().strip() or doc.meta.project
        doc.meta.hall = self.hall.text().strip() or doc.meta.hall
        if not self.draw_outline():
            doc.outline = self.outline()
            doc.add(self.zone_for(doc, doc.outline))
        return doc
