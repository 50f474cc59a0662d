"""Define a custom equipment type: a catalogue entry saved inside the plan (AddCatalogItem).

The form shows only the fields that matter for the chosen kind and asks where the figures
come from, because every catalogue entry cites its source (DESIGN §2). Every box's range and
the name's and source's length come from the format's bounds table, and whole-number fields
stay ints while the rest are floats, so the type saves and loads back byte for byte. A rack
PDU's outlet groups (type, count, breaker, phase) are rows of a small table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from planner.commands import AddCatalogItem, Command, Refusal
from planner.model.bounds import NAME
from planner.model.catalog import (
    BUSBAR,
    CABINET,
    ETHERNET,
    IN_RACK_KINDS,
    INFINIBAND,
    NODE,
    RACK,
    RACK_CDU,
    RACK_MANIFOLD,
    RACK_PDU,
    ROW_CDU,
    STORAGE,
    SWITCH,
    CatalogItem,
    default_stem,
)
from planner.model.document import Document
from planner.model.ports import (
    CONNECTORS,
    CONSOLE_CONNECTORS,
    INBAND,
    OOB,
    OUTLET_TYPES,
    PHASES_OF,
    PSU_INLETS,
    STORAGE_NET,
    OutletGroup,
    PortGroup,
    outlet_group,
    port_group,
)
from planner.ui.dialogs.parts import (
    bounded_int_spin,
    bounded_line,
    bounded_spin,
    ok_cancel,
    text_problem_for,
)

KIND_LABELS = {
    NODE: "GPU node", SWITCH: "Switch", STORAGE: "Storage node", RACK_PDU: "Rack PDU (0U)",
    RACK_CDU: "In-rack CDU", RACK_MANIFOLD: "Rack manifold (0U)", RACK: "Rack", ROW_CDU: "Row CDU",
    CABINET: "Power cabinet", BUSBAR: "Busbar run",
}
_FLOOR = (RACK, ROW_CDU, CABINET)
_POWERED = (*IN_RACK_KINDS, ROW_CDU)
_PORTED = (NODE, SWITCH, STORAGE)
_COOLING = (RACK_CDU, ROW_CDU)
_ELECTRICAL = (RACK_PDU, CABINET, BUSBAR)
_PSUS = (NODE, SWITCH, STORAGE, RACK_CDU)
_COOLED = (NODE, SWITCH, STORAGE, RACK_CDU, ROW_CDU, RACK_MANIFOLD)
#: The port groups the form offers: network → (label, kinds, default connector, default speed Gb/s).
NETWORK_ROWS = {
    STORAGE_NET: ("Storage ports", (NODE, STORAGE), "QSFP112", 400.0),
    INBAND: ("In-band ports", (NODE, STORAGE), "RJ45", 10.0),
    OOB: ("BMC / management ports", (NODE, SWITCH, STORAGE, RACK_PDU, RACK_CDU, ROW_CDU), "RJ45", 1.0),
}
#: The kinds the form offers a serial console port on: those with a management port.
_CONSOLED = NETWORK_ROWS[OOB][1]
PROTOCOL_LABELS = {INFINIBAND: "InfiniBand", ETHERNET: "Ethernet (RoCEv2)"}


@dataclass(frozen=True)
class FieldSpec:
    """A catalogue field on the form: label, unit, the kinds it applies to, decimals, UI→SI scale.

    The range is the field's range in ``planner.model.bounds`` (in UI units: SI / scale)."""

    name: str
    label: str
    unit: str
    kinds: tuple[str, ...]
    decimals: int = 2
    scale: float = 1.0


FIELDS = (
    FieldSpec("width_m", "Width", "m", (*IN_RACK_KINDS, *_FLOOR), 3),
    FieldSpec("depth_m", "Depth", "m", (*IN_RACK_KINDS, *_FLOOR), 3),
    FieldSpec("height_u", "Height", "U", IN_RACK_KINDS, 0),
    FieldSpec("rack_units", "Rack units", "U", (RACK,), 0),
    FieldSpec("weight_kg", "Weight", "kg", (*IN_RACK_KINDS, *_FLOOR), 1),
    FieldSpec("max_load_kg", "Max static load", "kg", (RACK,), 0),
    FieldSpec("max_power_kw", "Max power", "kW", (RACK,), 1),
    FieldSpec("power_w", "Power, steady", "kW", _POWERED, 3, 1000.0),
    FieldSpec("power_peak_w", "Power, peak", "kW", _POWERED, 3, 1000.0),
    FieldSpec("liquid_fraction", "Liquid-cooled share", "%", (NODE, SWITCH, STORAGE), 0, 0.01),
    FieldSpec("gpus", "GPUs", "", (NODE,), 0),
    FieldSpec("port_cages", "Port cages", "", _PORTED, 0),
    FieldSpec("ports_per_cage", "Ports per cage", "", _PORTED, 0),
    FieldSpec("port_speed_gbps", "Port speed", "Gb/s", _PORTED, 0),
    FieldSpec("capacity_kw", "Cooling capacity", "kW", _COOLING, 1),
    FieldSpec("rated_flow_lpm", "Rated flow", "L/min", (*_COOLING, RACK_MANIFOLD), 1),
    FieldSpec("pumps", "Pumps", "", _COOLING, 0),
    FieldSpec("redundant_pumps", "of which redundant", "", _COOLING, 0),
    FieldSpec("approach_k", "Approach", "K", _COOLING, 1),
    FieldSpec("reach_m", "Hose/pipe reach", "m", _COOLING, 1),
    FieldSpec("rating_a", "Rating", "A", _ELECTRICAL, 0),
    FieldSpec("voltage_v", "Voltage", "V", _ELECTRICAL, 0),
    FieldSpec("phases", "Phases", "", _ELECTRICAL, 0),
    FieldSpec("tapoff_rating_a", "Tap-off rating", "A", (BUSBAR,), 0),
    FieldSpec("tapoff_whip_m", "Tap-off whip reach", "m", (BUSBAR,), 2),
    FieldSpec("psu_count", "PSUs", "", _PSUS, 0),
    FieldSpec("psu_rating_w", "PSU rating, each", "W", _PSUS, 0),
    FieldSpec("coolant_ports", "Coolant QD pairs", "", _COOLED, 0),
)
#: Fields a type may leave out (None in the catalogue), and what the box shows then: its lowest
#: value, one step under the field's range, stands for "not given".
OPTIONAL = {"max_load_kg": "not rated", "max_power_kw": "not rated", "voltage_v": "the plan's voltage",
            "tapoff_rating_a": "not rated", "tapoff_whip_m": "not given", "psu_count": "not given",
            "psu_rating_w": "not given", "coolant_ports": "none"}
#: CatalogItem fields that hold whole numbers (the rest of the form's fields are floats).
INT_FIELDS = frozenset(f.name for f in fields(CatalogItem) if f.type in (int, "int", "int | None"))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "type"


class CustomTypeDialog(QDialog):
    """A form for one new catalogue entry of any kind."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle("Define equipment type")
        self.kind = QComboBox()
        for kind, label in KIND_LABELS.items():
            self.kind.addItem(label, kind)
        self.name = QLineEdit()
        self.name.setMaxLength(NAME.max_chars)
        self.name.setPlaceholderText("e.g. 8-GPU node, liquid-cooled, 5U")
        self.source = QPlainTextEdit()
        self.source.setPlaceholderText("Where the figures come from (datasheet, measurement …)")
        self.source.setFixedHeight(60)
        self.form = QFormLayout()
        self.form.addRow("Kind", self.kind)
        self.form.addRow("Name", self.name)
        self.boxes: dict[str, QDoubleSpinBox] = {}
        for spec in FIELDS:
            box = bounded_spin("CatalogItem", spec.name, 0.0, spec.unit, spec.decimals, spec.scale)
            if spec.name in OPTIONAL:  # 0 in the box is "not given": the range itself starts above 0
                box.setMinimum(0.0)
                box.setSpecialValueText(OPTIONAL[spec.name])
                box.setValue(0.0)
            self.boxes[spec.name] = box
            self.form.addRow(spec.label, box)
        self.boxes["ports_per_cage"].setValue(1)
        self.boxes["phases"].setValue(3)  # busbars, PDUs and cabinets are 1- or 3-phase; most are 3
        # a switch states its protocol: the plan's fabric kind and media reaches follow it
        self.protocol = QComboBox()
        for protocol, label in PROTOCOL_LABELS.items():
            self.protocol.addItem(label, protocol)
        self.protocol.setCurrentIndex(self.protocol.findData(
            ETHERNET if doc.basis.fabric_kind == ETHERNET else INFINIBAND))
        self.form.addRow("Protocol", self.protocol)
        self._ports_rows()
        self._outlet_rows()
        self.form.addRow("Source of figures", self.source)
        self.kind.currentIndexChanged.connect(self._show_fields)
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(buttons)
        self._item: CatalogItem | None = None
        self._show_fields()

    def _ports_rows(self) -> None:
        """Rows for the ports beyond the rails: PSU inlet and redundancy, the QD size, the console
        port, and a count, connector and speed per network (``planner.model.ports``)."""
        self.psu_inlet = QComboBox()
        self.psu_inlet.addItem("not given", "")
        for inlet, outlet in PSU_INLETS.items():
            self.psu_inlet.addItem(f"{inlet} (cord {outlet})", inlet)
        self.form.addRow("PSU inlet", self.psu_inlet)
        self.psu_redundancy = bounded_line("CatalogItem", "psu_redundancy")
        self.psu_redundancy.setPlaceholderText("e.g. 5+1, N+1, N+N (empty: not given)")
        self.form.addRow("PSU redundancy", self.psu_redundancy)
        self.qd_size = bounded_line("CatalogItem", "qd_size")
        self.qd_size.setPlaceholderText("e.g. 1/2 in, 12.7 mm, UQD08 (empty: not given)")
        self.form.addRow("QD size", self.qd_size)
        self.console_port = QComboBox()
        self.console_port.addItem("none / not given", "")
        for connector in CONSOLE_CONNECTORS:
            self.console_port.addItem(connector, connector)
        self.form.addRow("Console port", self.console_port)
        self.port_counts: dict[str, QSpinBox] = {}
        self.port_connectors: dict[str, QComboBox] = {}
        self.port_speeds: dict[str, QDoubleSpinBox] = {}
        self.port_rows: dict[str, QWidget] = {}
        for network, (label, _kinds, connector, speed) in NETWORK_ROWS.items():
            count = QSpinBox()
            count.setRange(0, 1_024)
            count.setSuffix(" ports")
            plug = QComboBox()
            plug.addItems(CONNECTORS)
            plug.setCurrentText(connector)
            rate = bounded_spin("PortGroup", "speed_gbps", speed, "Gb/s", 2)
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            for widget in (count, plug, rate):
                line.addWidget(widget)
            self.port_counts[network], self.port_connectors[network], self.port_speeds[network] = count, plug, rate
            self.port_rows[network] = row
            self.form.addRow(label, row)

    def _outlet_rows(self) -> None:
        """Rows for a rack PDU's inlet and its outlet groups: a table of groups (outlet type,
        count, the group's breaker, its phase) with buttons to add and remove one."""
        self.pdu_inlet = bounded_line("CatalogItem", "pdu_inlet")
        self.pdu_inlet.setPlaceholderText("e.g. IEC 60309 3P+N+E 63 A 6h, hardwired (empty: not given)")
        self.form.addRow("PDU inlet", self.pdu_inlet)
        self.outlet_table = QTableWidget(0, 4)
        self.outlet_table.setHorizontalHeaderLabels(["Outlet", "Count", "Breaker", "Phase"])
        self.outlet_table.verticalHeader().setVisible(False)
        add, remove = QPushButton("Add group"), QPushButton("Remove group")
        add.clicked.connect(lambda: self.add_outlet_group())
        remove.clicked.connect(self.remove_outlet_group)
        self.outlet_rows = QWidget()
        column = QVBoxLayout(self.outlet_rows)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.outlet_table)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        column.addLayout(buttons)
        self.form.addRow("Outlet groups", self.outlet_rows)

    def add_outlet_group(self, outlet: str = "C13", count: int = 6, breaker_a: float = 16.0,
                         phase: str = "L1") -> int:
        """Add a row for one outlet group (outlets behind one breaker); returns its row."""
        row = self.outlet_table.rowCount()
        self.outlet_table.insertRow(row)
        plug = QComboBox()
        plug.addItems(OUTLET_TYPES)
        plug.setCurrentText(outlet)
        line = QComboBox()
        line.addItems(PHASES_OF[3])  # a single-phase PDU's L1 is among them; the model refuses the rest
        line.setCurrentText(phase)
        widgets = (plug, bounded_int_spin("OutletGroup", "count", count),
                   bounded_spin("OutletGroup", "breaker_a", breaker_a, "A", 0), line)
        for index, widget in enumerate(widgets):
            self.outlet_table.setCellWidget(row, index, widget)
        return row

    def remove_outlet_group(self) -> None:
        """Remove the selected outlet group's row (the last one when none is selected)."""
        row = self.outlet_table.currentRow()
        self.outlet_table.removeRow(row if row >= 0 else self.outlet_table.rowCount() - 1)

    def _outlet_groups(self) -> list[OutletGroup]:
        """The outlet groups the table gives, in its order (the outlets are numbered O1 … along it)."""
        groups = []
        for row in range(self.outlet_table.rowCount()):
            plug, count, breaker, line = (self.outlet_table.cellWidget(row, column) for column in range(4))
            assert isinstance(plug, QComboBox) and isinstance(count, QSpinBox)
            assert isinstance(breaker, QDoubleSpinBox) and isinstance(line, QComboBox)
            groups.append(outlet_group(plug.currentText(), count.value(), breaker.value(), line.currentText()))
        return groups

    def set_kind(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def _show_fields(self) -> None:
        kind = self.kind.currentData()
        for spec in FIELDS:
            self.form.setRowVisible(self.boxes[spec.name], kind in spec.kinds)
        self.form.setRowVisible(self.protocol, kind == SWITCH)
        self.form.setRowVisible(self.psu_inlet, kind in _PSUS)
        self.form.setRowVisible(self.psu_redundancy, kind in _PSUS)
        self.form.setRowVisible(self.qd_size, kind in _COOLED)
        self.form.setRowVisible(self.console_port, kind in _CONSOLED)
        self.form.setRowVisible(self.pdu_inlet, kind == RACK_PDU)
        self.form.setRowVisible(self.outlet_rows, kind == RACK_PDU)
        for network, (_label, kinds, _connector, _speed) in NETWORK_ROWS.items():
            self.form.setRowVisible(self.port_rows[network], kind in kinds)
        self.adjustSize()

    def _port_groups(self, kind: str) -> list[PortGroup]:
        """The port groups the form gives: one per network with ports, named as that network's
        ports are on this kind (``S1`` …, ``E1`` …, ``BMC`` or ``mgmt0``)."""
        groups = []
        for network, (_label, kinds, _connector, _speed) in NETWORK_ROWS.items():
            count = self.port_counts[network].value()
            if kind not in kinds or count < 1:
                continue
            stem, first = default_stem(kind, network)
            if first is None and count > 1:  # several BMC ports: BMC1, BMC2
                first = 1
            groups.append(port_group(network, self.port_connectors[network].currentText(), count,
                                     self.port_speeds[network].value(), stem, first))
        return groups

    # ------------------------------------------------------------------ result
    def _build(self) -> CatalogItem:
        kind = self.kind.currentData()
        name = self.name.text().strip()
        if not name:
            raise ValueError("Give the type a name.")
        source = self.source.toPlainText().strip()
        if not source:
            raise ValueError("Say where the figures come from (a datasheet, a measurement …).")
        for label, field, text in (("Name", "name", name), ("Source of figures", "source", source)):
            problem = text_problem_for(label, "CatalogItem", field, text)
            if problem:
                raise ValueError(f"{problem}.")
        values: dict[str, Any] = {}
        for spec in FIELDS:
            if kind not in spec.kinds:
                continue
            box = self.boxes[spec.name]
            if spec.name in OPTIONAL and box.value() == box.minimum():
                values[spec.name] = None
                continue
            value = box.value() * spec.scale
            values[spec.name] = round(value) if spec.name in INT_FIELDS else float(value)
        if kind in (*IN_RACK_KINDS, *_FLOOR) and (values["width_m"] <= 0 or values["depth_m"] <= 0):
            raise ValueError("Width and depth must be greater than zero.")
        if kind in IN_RACK_KINDS and kind not in (RACK_PDU, RACK_MANIFOLD) and values["height_u"] < 1:
            raise ValueError("Equipment in a rack is at least 1U high (only rack PDUs and manifolds are 0U).")
        if kind in (RACK_PDU, RACK_MANIFOLD) and values["height_u"] != 0:
            raise ValueError(f"{KIND_LABELS[kind]}s mount in the side channel: height 0U.")
        if kind == RACK and values["rack_units"] < 1:
            raise ValueError("A rack needs its number of rack units.")
        if kind in _POWERED and values["power_peak_w"] < values["power_w"]:
            raise ValueError("Peak power cannot be below steady power.")
        key = f"custom-{slug(name)}"
        number = 2
        while key in self.doc.catalog:
            key = f"custom-{slug(name)}-{number}"
            number += 1
        protocol = self.protocol.currentData() if kind == SWITCH else ""
        if kind in _PSUS:
            values["psu_inlet"] = self.psu_inlet.currentData()
            values["psu_redundancy"] = self.psu_redundancy.text().strip()
        if kind in _CONSOLED:
            values["console_port"] = self.console_port.currentData()
        if kind in _COOLED and values.get("coolant_ports"):
            values["qd_size"] = self.qd_size.text().strip()
        outlets = self._outlet_groups() if kind == RACK_PDU else []
        if kind == RACK_PDU:
            values["pdu_inlet"] = self.pdu_inlet.text().strip()
        return CatalogItem(key=key, kind=kind, name=name, source=source, custom=True, protocol=protocol,
                           port_groups=self._port_groups(kind), outlet_groups=outlets, **values)

    def accept(self) -> None:
        try:
            self._item = self._build()
            AddCatalogItem(self._item)  # the command's own check, so command() cannot refuse later
        except (ValueError, Refusal) as exc:
            self._item = None
            QMessageBox.warning(self, "Define equipment type", str(exc))
            return
        super().accept()

    def item(self) -> CatalogItem:
        """The entry defined (after the dialog was accepted)."""
        if self._item is None:
            raise RuntimeError("the dialog was not accepted")
        return self._item

    def command(self) -> Command:
        return AddCatalogItem(self.item())
