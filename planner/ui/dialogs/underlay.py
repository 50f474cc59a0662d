"""Dialogs of the drawings under the plan (``planner.ui.underlay.attach``): which DXF layers hold
the hall's outline, columns, zones and doors, and the true distance of a two-point scale."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QWidget,
)

from planner.io.dxf import Drawing
from planner.ui.dialogs.parts import ok_cancel


class LayersDialog(QDialog):
    """Which layers of a DXF hold the outline and the columns (guessed unless chosen), and which
    the zones and the doors (none unless chosen: they are only taken from layers named for them)."""

    GUESS = "(guess from the layer names)"
    NONE = "(no columns)"
    NO_ZONES = "(no zones)"
    NO_DOORS = "(no doors)"

    def __init__(self, drawing: Drawing, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Use outline, columns, zones and doors from drawing")
        self.outline = QComboBox()
        self.outline.addItems([self.GUESS, *drawing.layers])
        self.columns = QComboBox()
        self.columns.addItems([self.GUESS, self.NONE, *drawing.layers])
        self.zones = QComboBox()
        self.zones.addItems([self.NO_ZONES, *drawing.layers])
        self.doors = QComboBox()
        self.doors.addItems([self.NO_DOORS, *drawing.layers])
        form = QFormLayout(self)
        form.addRow("Hall outline layer", self.outline)
        form.addRow("Column layer", self.columns)
        form.addRow("Zone layer", self.zones)
        form.addRow("Door layer", self.doors)
        note = QLabel("The outline is the largest closed polyline on its layer; columns are the closed "
                      "polylines and circles on theirs; zones the closed polylines on theirs (default "
                      "ratings: Plan ▸ Hall features sets them); doors the lines on theirs. One undo step.")
        note.setWordWrap(True)
        form.addRow(note)
        form.addRow(ok_cancel(self, "Use"))

    def layers(self) -> tuple[str | None, str | None, str | None, str | None]:
        """(outline, column, zone, door layer) as ``outline_from_drawing`` takes them."""
        outline = None if self.outline.currentText() == self.GUESS else self.outline.currentText()
        column = self.columns.currentText()
        zone, door = self.zones.currentText(), self.doors.currentText()
        return (outline, None if column == self.GUESS else "" if column == self.NONE else column,
                None if zone == self.NO_ZONES else zone, None if door == self.NO_DOORS else door)


class ScaleDialog(QDialog):
    """The true distance between the two points clicked, and where the first one belongs."""

    def __init__(self, measured: float, first: tuple[float, float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scale drawing")
        self.distance = QDoubleSpinBox()
        self.distance.setDecimals(3)
        self.distance.setRange(0.001, 10_000)
        self.distance.setSuffix(" m")
        self.distance.setValue(measured)
        self.move_first = QCheckBox("Then put the first point at")
        self.first_x = QDoubleSpinBox()
        self.first_y = QDoubleSpinBox()
        for box, value in ((self.first_x, first[0]), (self.first_y, first[1])):
            box.setDecimals(3)
            box.setRange(-10_000, 10_000)
            box.setSuffix(" m")
            box.setValue(value)
            box.setEnabled(False)
            self.move_first.toggled.connect(box.setEnabled)
        form = QFormLayout(self)
        form.addRow(QLabel(f"The two points are {measured:.3f} m apart on the plan now."))
        form.addRow("Real distance", self.distance)
        form.addRow(self.move_first)
        form.addRow("x", self.first_x)
        form.addRow("y", self.first_y)
        form.addRow(ok_cancel(self, "Scale"))

    def place(self) -> tuple[float, float] | None:
        return (self.first_x.value(), self.first_y.value()) if self.move_first.isChecked() else None
