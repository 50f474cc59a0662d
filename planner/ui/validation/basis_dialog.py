"""File ▸ Design basis…: edit the plan's design values in one dialog; OK pushes one undoable
SetAttributes("basis", …) command, and the live validator re-runs every rule.

The basis stores SI values (fractions, metres); the dialog shows percentages and millimetres
where people think in them (``DISPLAY_SCALE``) and converts back in ``changes()``. Whole-number
fields (tray levels) get an integer spin box and come back as ``int``. Every box's range is the
field's range in the format's bounds table (``planner.model.bounds``), so the dialog accepts
every value a plan file may hold and nothing the file would refuse.
"""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from planner.commands.base import SetAttributes
from planner.commands.checks import Refusal
from planner.model.basis import ASHRAE_CLASSES, DesignBasis
from planner.ui.dialogs.parts import field_range, ok_cancel
from planner.ui.session import DocumentSession

#: (field, label, choices as (value, text)) of the multiple-choice values.
CHOICES: list[tuple[str, str, list[tuple[Any, str]]]] = [
    ("derating", "Continuous-load derating", [(0.8, "NEC: 80 % of rating"), (1.0, "IEC: 100 % of rating")]),
    ("redundancy", "Feed redundancy", [("2N", "2N (A and B feeds)"), ("N+1", "N+1"), ("none", "None")]),
    ("load_basis", "Load basis", [("peak", "Peak power"), ("steady", "Steady power")]),
    ("fluid", "Coolant", [("water", "Water"), ("pg25", "Propylene glycol 25 % (PG25)")]),
    ("ashrae_class", "ASHRAE liquid-cooling class", [(c, f"{c} (facility water up to {t:g} °C)" if t else
                                                      f"{c} (above 45 °C)") for c, t in ASHRAE_CLASSES.items()]),
    ("floor_method", "Floor load method", [("footprint", "Footprint (W / A)"), ("ibm", "IBM spread (service area)")]),
    ("units", "Display units", [("metric", "Metric"), ("imperial", "Imperial")]),
    ("inband_switch_per", "In-band access switch", [("row", "One per row"), ("rack", "One per rack")]),
    ("oob_switch_per", "Out-of-band access switch", [("rack", "One per rack"), ("row", "One per row")]),
]
#: (field, label, unit, step, decimals) of the numeric values, by group; ranges from the bounds table.
NUMBERS: dict[str, list[tuple[str, str, str, float, int]]] = {
    "Power": [("voltage_v", "Supply voltage (3-phase)", "V", 5.0, 0),
              ("power_factor", "Power factor", "", 0.01, 2)],
    "Cooling": [("delta_t_k", "Coolant ΔT", "K", 0.5, 1),
                ("facility_supply_c", "Facility supply temperature", "°C", 0.5, 1),
                ("max_supply_c", "Maximum cold-plate supply", "°C", 0.5, 1)],
    "Aisles": [("front_aisle_min_m", "Front (cold) aisle, recommended", "m", 0.05, 2),
               ("front_aisle_vendor_min_m", "Front aisle, vendor minimum", "m", 0.05, 2),
               ("rear_aisle_min_m", "Rear (hot) aisle, recommended", "m", 0.05, 2),
               ("rear_aisle_vendor_min_m", "Rear aisle, vendor minimum", "m", 0.05, 2),
               ("working_space_m", "Electrical working space", "m", 0.05, 2)],
    "Cables and trays": [("cable_slack_fraction", "Cable slack", "%", 1.0, 0),
                         ("cable_slack_min_m", "Minimum slack", "m", 0.1, 2),
                         ("tray_height_m", "Tray height above rack top", "m", 0.05, 2),
                         ("row_tray_width_m", "Row tray width", "mm", 50.0, 0),
                         ("row_tray_depth_m", "Row tray fill depth", "mm", 10.0, 0),
                         ("row_tray_levels", "Row tray levels", "", 1, 0),
                         ("cross_tray_width_m", "Cross-aisle tray width", "mm", 50.0, 0),
                         ("cross_tray_depth_m", "Cross-aisle tray fill depth", "mm", 10.0, 0),
                         ("cross_tray_levels", "Cross-aisle tray levels", "", 1, 0),
                         ("tray_fill_warn", "Tray fill warning above", "%", 5.0, 0),
                         ("tray_fill_error", "Tray fill limit", "%", 5.0, 0)],
    "Networks": [("storage_read_gbps_per_gpu", "Storage read bandwidth per GPU", "GB/s", 0.1, 3)],
    "Commissioning": [("nccl_efficiency", "NCCL bus bandwidth floor (share of line rate)", "%", 1.0, 0)],
    "Efficiency and step load": [("ppue_target", "Design pPUE target", "", 0.01, 2),
                                 ("loop_pressure_drop_kpa", "Coolant loop pressure drop", "kPa", 10.0, 0),
                                 ("pump_efficiency", "Pump efficiency (wire to water)", "%", 1.0, 0),
                                 ("air_cooling_cop", "Air cooling COP", "", 0.1, 1),
                                 ("busbar_efficiency", "Busbar efficiency", "%", 0.1, 1),
                                 ("rack_pdu_efficiency", "Rack PDU efficiency", "%", 0.1, 1),
                                 ("idle_power_fraction", "GPU node idle draw (share of peak)", "%", 1.0, 0)],
}
#: Shown value = stored SI value × scale, by the unit shown.
DISPLAY_SCALE = {"%": 100.0, "mm": 1000.0}
#: Fields stored as whole numbers (the file checker rejects a float there).
INT_FIELDS = {f.name for f in fields(DesignBasis) if f.type in (int, "int")}
#: The groups in each of the dialog's three columns, chosen so the columns come out about as tall.
COLUMNS = (("Power", "Cooling", "Floor and display"), ("Cables and trays", "Networks"),
           ("Aisles", "Efficiency and step load", "Commissioning"))
_GROUP_OF_CHOICE = {"derating": "Power", "redundancy": "Power", "load_basis": "Power", "fluid": "Cooling",
                    "ashrae_class": "Cooling",
                    "floor_method": "Floor and display", "units": "Floor and display",
                    "inband_switch_per": "Networks", "oob_switch_per": "Networks"}


class BasisDialog(QDialog):
    """Edits a copy of the design basis; ``changes()`` names only the fields the user changed."""

    def __init__(self, basis: DesignBasis, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Design basis")
        self.basis = basis
        self.combos: dict[str, QComboBox] = {}
        self.spins: dict[str, QDoubleSpinBox | QSpinBox] = {}
        self._shown: dict[str, float] = {}
        forms: dict[str, QFormLayout] = {}
        layout = QVBoxLayout(self)
        intro = QLabel("Thresholds every rule checks against. Changing them re-validates the plan; "
                       "the change is one undo step.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        columns = QHBoxLayout()
        for titles in COLUMNS:
            column = QVBoxLayout()
            for title in titles:
                group = QGroupBox(title)
                forms[title] = QFormLayout(group)
                column.addWidget(group)
            column.addStretch(1)
            columns.addLayout(column)
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
        for title, rows in NUMBERS.items():
            for name, label, unit, step, decimals in rows:
                low, high = field_range("DesignBasis", name, 1.0 / DISPLAY_SCALE.get(unit, 1.0))
                spin: QDoubleSpinBox | QSpinBox
                if name in INT_FIELDS:
                    spin = QSpinBox()
                    spin.setRange(int(low), int(high))
                    spin.setSingleStep(int(step))
                    spin.setValue(int(getattr(basis, name)))
                else:
                    spin = QDoubleSpinBox()
                    spin.setRange(low, high)
                    spin.setSingleStep(step)
                    spin.setDecimals(decimals)
                    spin.setValue(getattr(basis, name) * DISPLAY_SCALE.get(unit, 1.0))
                spin.setSuffix(f" {unit}" if unit else "")
                spin.setToolTip(basis.source(name))
                self.spins[name] = spin
                self._shown[name] = spin.value()
                forms[title].addRow(label, spin)
        buttons = ok_cancel(self)
        layout.addWidget(buttons)

    def changes(self) -> dict[str, Any]:
        """{field: new value in SI units} for every field that differs from the basis. A number
        counts as changed only when the user changed what the dialog showed, so a stored value
        finer than the spin box shows (or outside its range) is not rounded away on OK."""
        values: dict[str, Any] = {name: combo.currentData() for name, combo in self.combos.items()}
        changed = {name: value for name, value in values.items() if value != getattr(self.basis, name)}
        units = {name: unit for rows in NUMBERS.values() for name, _label, unit, *_rest in rows}
        for name, spin in self.spins.items():
            if spin.value() == self._shown[name]:
                continue
            if isinstance(spin, QSpinBox):
                changed[name] = int(spin.value())
                continue
            scale = DISPLAY_SCALE.get(units[name], 1.0)
            digits = spin.decimals() + round(math.log10(scale))  # 2 more for %, 3 for mm
            changed[name] = round(spin.value() / scale, digits)
        return changed

    def accept(self) -> None:
        """Stay open on values that cannot go together (a warning above its error), saying which."""
        try:
            SetAttributes("basis", self.changes(), "check", current=self.basis)
        except Refusal as exc:
            QMessageBox.warning(self, "Design basis", str(exc))
            return
        super().accept()


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
    session.push(SetAttributes("basis", values, f"Design basis: {names}", current=session.doc.basis))
    return True
