"""File ▸ Design basis…: edit the plan's design values in one dialog; OK pushes one undoable
SetAttributes("basis", …) command, and the live validator re-runs every rule."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from planner.commands.base import SetAttributes
from planner.model.basis import DesignBasis
from planner.ui.dialogs.parts import ok_cancel
from planner.ui.session import DocumentSession

#: (field, label, choices as (value, text)) of the multiple-choice values.
CHOICES: list[tuple[str, str, list[tuple[Any, str]]]] = [
    ("derating", "Continuous-load derating", [(0.8, "NEC: 80 % of rating"), (1.0, "IEC: 100 % of rating")]),
    ("redundancy", "Feed redundancy", [("2N", "2N (A and B feeds)"), ("N+1", "N+1"), ("none", "None")]),
    ("load_basis", "Load basis", [("peak", "Peak power"), ("steady", "Steady power")]),
    ("fluid", "Coolant", [("water", "Water"), ("pg25", "Propylene glycol 25 % (PG25)")]),
    ("floor_method", "Floor load method", [("footprint", "Footprint (W / A)"), ("ibm", "IBM spread (service area)")]),
    ("units", "Display units", [("metric", "Metric"), ("imperial", "Imperial")]),
]
#: (field, label, unit, minimum, maximum, step, decimals) of the numeric values, by group.
NUMBERS: dict[str, list[tuple[str, str, str, float, float, float, int]]] = {
    "Power": [("voltage_v", "Supply voltage (3-phase)", "V", 100.0, 1000.0, 5.0, 0),
              ("power_factor", "Power factor", "", 0.5, 1.0, 0.01, 2)],
    "Cooling": [("delta_t_k", "Coolant ΔT", "K", 1.0, 30.0, 0.5, 1),
                ("facility_supply_c", "Facility supply temperature", "°C", 5.0, 50.0, 0.5, 1),
                ("max_supply_c", "Maximum cold-plate supply", "°C", 15.0, 65.0, 0.5, 1)],
    "Aisles": [("front_aisle_min_m", "Front (cold) aisle, recommended", "m", 0.3, 5.0, 0.05, 2),
               ("front_aisle_vendor_min_m", "Front aisle, vendor minimum", "m", 0.3, 5.0, 0.05, 2),
               ("rear_aisle_min_m", "Rear (hot) aisle, recommended", "m", 0.3, 5.0, 0.05, 2),
               ("rear_aisle_vendor_min_m", "Rear aisle, vendor minimum", "m", 0.3, 5.0, 0.05, 2),
               ("working_space_m", "Electrical working space", "m", 0.5, 3.0, 0.05, 2)],
}
_GROUP_OF_CHOICE = {"derating": "Power", "redundancy": "Power", "load_basis": "Power", "fluid": "Cooling",
                    "floor_method": "Floor and display", "units": "Floor and display"}


class BasisDialog(QDialog):
    """Edits a copy of the design basis; ``changes()`` names only the fields the user changed."""

    def __init__(self, basis: DesignBasis, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Design basis")
        self.basis = basis
        self.combos: dict[str, QComboBox] = {}
        self.spins: dict[str, QDoubleSpinBox] = {}
        forms: dict[str, QFormLayout] = {}
        layout = QVBoxLayout(self)
        intro = QLabel("Thresholds every rule checks against. Changing them re-validates the plan; "
                       "the change is one undo step.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        columns = QHBoxLayout()
        left, right = QVBoxLayout(), QVBoxLayout()
        for index, title in enumerate(("Power", "Cooling", "Aisles", "Floor and display")):
            group = QGroupBox(title)
            forms[title] = QFormLayout(group)
            (left if index % 2 == 0 else right).addWidget(group)
        left.addStretch(1)
        right.addStretch(1)
        columns.addLayout(left)
        columns.addLayout(right)
        layout.addLayout(columns)
        for name, label, options in CHOICES:
            combo = QComboBox()
            for value, text in options:
                combo.addItem(text, value)
            current = getattr(basis, name)
            index = next((i for i, (value, _t) in enumerate(options) if value == current), -1)
            if index < 0:  # a value set outside the dialog (e.g. 0.9 derating) stays selectable
                combo.addItem(str(current), current)
                index = combo.count() - 1
            combo.setCurrentIndex(index)
            combo.setToolTip(basis.source(name))
            self.combos[name] = combo
            forms[_GROUP_OF_CHOICE[name]].addRow(label, combo)
        for group, rows in NUMBERS.items():
            for name, label, unit, low, high, step, decimals in rows:
                spin = QDoubleSpinBox()
                spin.setRange(low, high)
                spin.setSingleStep(step)
                spin.setDecimals(decimals)
                spin.setSuffix(f" {unit}" if unit else "")
                spin.setValue(getattr(basis, name))
                spin.setToolTip(basis.source(name))
                self.spins[name] = spin
                forms[group].addRow(label, spin)
        buttons = ok_cancel(self)
        layout.addWidget(buttons)

    def changes(self) -> dict[str, Any]:
        """{field: new value} for every field that differs from the basis."""
        values: dict[str, Any] = {name: combo.currentData() for name, combo in self.combos.items()}
        values.update({name: round(spin.value(), spin.decimals()) for name, spin in self.spins.items()})
        return {name: value for name, value in values.items() if value != getattr(self.basis, name)}


def edit_basis(session: DocumentSession, parent: QWidget | None = None) -> bool:
    """Run the dialog; on OK with changes push one command. Returns whether anything changed."""
    dialog = BasisDialog(session.doc.basis, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    return push_basis(session, dialog.changes())


def push_basis(session: DocumentSession, values: dict[str, Any]) -> bool:
    if not values:
        return False
    names = ", ".join(sorted(values))
    session.push(SetAttributes("basis", values, f"Design basis: {names}"))
    return True
