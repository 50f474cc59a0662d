"""Custom equipment type: the form becomes a catalogue entry saved inside the plan."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from planner.commands import History
from planner.io import dumps, loads
from planner.model.catalog import NODE, RACK, RACK_PDU, ROW_CDU, SWITCH
from planner.ui.dialogs.custom_type import CustomTypeDialog


def test_a_custom_node_is_added_undoably_and_saved_with_the_plan(example_doc, qtbot):
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(NODE)
    assert dlg.form.isRowVisible(dlg.boxes["gpus"]) and not dlg.form.isRowVisible(dlg.boxes["capacity_kw"])
    dlg.name.setText("8-GPU node, liquid, 5U")
    for name, value in {"width_m": 0.44, "depth_m": 0.9, "height_u": 5, "weight_kg": 118,
                        "power_w": 11.5, "power_peak_w": 12.8, "liquid_fraction": 85, "gpus": 8,
                        "port_cages": 8, "port_speed_gbps": 400}.items():
        dlg.boxes[name].setValue(value)
    dlg.source.setPlainText("Vendor datasheet rev 3, table 2")
    dlg.accept()
    item = dlg.item()
    assert item.key == "custom-8-gpu-node-liquid-5u" and item.custom
    assert (item.height_u, item.power_w, item.power_peak_w, item.liquid_fraction) == (5, 11500.0, 12800.0, 0.85)
    assert item.port_names()[:2] == ["P1", "P2"]
    history = History(example_doc)
    history.push(dlg.command())
    assert example_doc.catalog[item.key] == item and example_doc.catalog[item.key] is not item  # the plan's own copy
    reopened = loads(dumps(example_doc))
    assert reopened.catalog[item.key] == item
    history.undo()
    assert item.key not in example_doc.catalog


def test_missing_source_or_bad_figures_are_refused(example_doc, qtbot, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(ROW_CDU)
    dlg.name.setText("Row CDU 1.2 MW")
    dlg.accept()
    assert "where the figures come from" in said[-1]
    dlg.source.setPlainText("Vendor datasheet")
    dlg.accept()
    assert said[-1] == "Width and depth must be greater than zero."
    dlg.boxes["width_m"].setValue(1.2)
    dlg.boxes["depth_m"].setValue(1.2)
    dlg.boxes["power_w"].setValue(12)
    dlg.accept()
    assert said[-1] == "Peak power cannot be below steady power."
    dlg.boxes["power_peak_w"].setValue(15)
    dlg.boxes["capacity_kw"].setValue(1200)
    dlg.accept()  # what a row CDU needs beyond its ranges (planner.model.physical), named with its range
    assert said[-1].startswith("weight kg: 0 kg is outside 0.1–100,000 kg for a row cdu")
    dlg.boxes["weight_kg"].setValue(1800)
    dlg.boxes["rated_flow_lpm"].setValue(2200)
    dlg.boxes["pumps"].setValue(3)
    dlg.boxes["redundant_pumps"].setValue(3)
    dlg.accept()
    assert said[-1].startswith("redundant pumps: 3 of 3 pumps: at least one pump must run")
    dlg.boxes["redundant_pumps"].setValue(1)
    dlg.accept()
    assert dlg.result() == CustomTypeDialog.DialogCode.Accepted
    assert dlg.item().kind == ROW_CDU and dlg.item().capacity_kw == 1200 and dlg.item().gpus == 0


def test_a_custom_node_carries_its_psus_ports_and_coolant_pair_through_the_file(example_doc, qtbot, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(NODE)
    for widget in (dlg.boxes["psu_count"], dlg.boxes["psu_rating_w"], dlg.boxes["coolant_ports"], dlg.psu_inlet,
                   dlg.psu_redundancy, dlg.qd_size, *dlg.port_rows.values()):
        assert dlg.form.isRowVisible(widget)
    dlg.name.setText("8-GPU node, liquid, 5U, every port")
    for name, value in {"width_m": 0.44, "depth_m": 0.9, "height_u": 5, "weight_kg": 118, "power_w": 11.5,
                        "power_peak_w": 12.8, "liquid_fraction": 85, "gpus": 8, "port_cages": 8,
                        "port_speed_gbps": 400, "psu_count": 6, "psu_rating_w": 3300, "coolant_ports": 1}.items():
        dlg.boxes[name].setValue(value)
    dlg.psu_inlet.setCurrentIndex(dlg.psu_inlet.findData("C20"))
    dlg.psu_redundancy.setText("5+2")
    dlg.qd_size.setText("UQD08")
    dlg.port_counts["storage"].setValue(4)
    dlg.port_counts["inband"].setValue(1)
    dlg.port_speeds["inband"].setValue(25)
    dlg.port_connectors["inband"].setCurrentText("SFP28")
    dlg.port_counts["oob"].setValue(1)
    dlg.source.setPlainText("Vendor datasheet rev 3, tables 2 and 5")
    dlg.accept()  # 5+2 is seven PSUs: refused with the field and the model's words
    assert said[-1] == "psu redundancy: '5+2' is 7 PSUs, the type has 6"
    dlg.psu_redundancy.setText("5+1")
    dlg.accept()
    item = dlg.item()
    assert (item.psu_count, item.psu_inlet, item.psu_rating_w, item.psu_redundancy) == (6, "C20", 3300.0, "5+1")
    assert item.psu_spares() == 1 and item.psu_shortfall_w() == 0.0
    assert (item.coolant_ports, item.qd_size) == (1, "UQD08")
    assert item.port_names() == [f"P{i}" for i in range(1, 9)]
    assert item.port_names("storage") == ["S1", "S2", "S3", "S4"] and item.port_names("oob") == ["BMC"]
    inband = next(g for g in item.port_groups if g["network"] == "inband")
    assert (inband["connector"], inband["speed_gbps"], item.port_names("inband")) == ("SFP28", 25.0, ["E1"])
    History(example_doc).push(dlg.command())
    text = dumps(example_doc)
    reopened = loads(text)
    assert reopened.catalog[item.key] == item and dumps(reopened) == text


def test_a_custom_switch_gets_a_management_port_and_no_psus_when_not_given(example_doc, qtbot):
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(SWITCH)
    assert not dlg.form.isRowVisible(dlg.port_rows["storage"]) and dlg.form.isRowVisible(dlg.port_rows["oob"])
    dlg.name.setText("Leaf 64 x 400G")
    for name, value in {"width_m": 0.44, "depth_m": 0.66, "height_u": 1, "weight_kg": 14.5, "power_w": 0.75,
                        "power_peak_w": 1.7, "port_cages": 32, "ports_per_cage": 2, "port_speed_gbps": 400}.items():
        dlg.boxes[name].setValue(value)
    dlg.port_counts["oob"].setValue(1)
    assert dlg.form.isRowVisible(dlg.console_port) and dlg.console_port.currentData() == ""
    dlg.console_port.setCurrentIndex(dlg.console_port.findData("RJ45"))
    dlg.source.setPlainText("Vendor datasheet")
    dlg.accept()
    item = dlg.item()
    assert item.port_names("oob") == ["mgmt0"] and item.port_names()[:2] == ["1/1", "1/2"]
    assert (item.psu_count, item.psu_rating_w, item.psu_inlet, item.coolant_ports) == (None, None, "", None)
    assert item.console_port == "RJ45"
    History(example_doc).push(dlg.command())
    reopened = loads(dumps(example_doc))
    assert reopened.catalog[item.key].console_port == "RJ45"
    dlg.set_kind(RACK)
    assert not dlg.form.isRowVisible(dlg.console_port)


def test_a_custom_rack_pdu_carries_its_inlet_and_outlet_groups_through_the_file(example_doc, qtbot, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(NODE)
    assert not dlg.form.isRowVisible(dlg.outlet_rows) and not dlg.form.isRowVisible(dlg.pdu_inlet)
    dlg.set_kind(RACK_PDU)
    assert dlg.form.isRowVisible(dlg.outlet_rows) and dlg.form.isRowVisible(dlg.pdu_inlet)
    assert not dlg.form.isRowVisible(dlg.boxes["psu_count"])
    dlg.name.setText("PDU 230 V 32 A single-phase")
    for name, value in {"width_m": 0.056, "depth_m": 0.1, "weight_kg": 6.5, "rating_a": 32, "voltage_v": 230,
                        "phases": 1}.items():
        dlg.boxes[name].setValue(value)
    dlg.pdu_inlet.setText("IEC 60309 P+N+E 32 A 6h")
    dlg.add_outlet_group("C13", 10, 16, "L1")
    row = dlg.add_outlet_group("C19", 4, 16, "L2")
    assert dlg.outlet_table.rowCount() == 2
    dlg.source.setPlainText("Vendor datasheet rev 1, outlet table")
    dlg.accept()  # L2 on a single-phase PDU: refused with the group's path and the model's words
    assert said[-1] == "outlet groups[1].phase: 'L2' is not a phase of a 1-phase PDU (one of L1)"
    dlg.outlet_table.cellWidget(row, 3).setCurrentText("L1")
    dlg.outlet_table.cellWidget(row, 2).setValue(40)
    dlg.accept()  # a group breaker above the PDU's own rating
    assert said[-1].startswith("outlet groups[1].breaker a: 40 A is above the PDU's rating 32 A")
    dlg.outlet_table.cellWidget(row, 2).setValue(16)
    dlg.add_outlet_group()
    dlg.outlet_table.setCurrentCell(2, 0)
    dlg.remove_outlet_group()
    assert dlg.outlet_table.rowCount() == 2
    dlg.accept()
    item = dlg.item()
    assert item.pdu_inlet == "IEC 60309 P+N+E 32 A 6h" and item.phases == 1
    assert item.outlet_groups == [{"outlet": "C13", "count": 10, "breaker_a": 16.0, "phase": "L1"},
                                  {"outlet": "C19", "count": 4, "breaker_a": 16.0, "phase": "L1"}]
    assert item.outlet_names() == [f"O{i}" for i in range(1, 15)] and item.outlets_of_type("C19") == \
        ["O11", "O12", "O13", "O14"]
    assert item.port_names("power") == item.outlet_names()
    History(example_doc).push(dlg.command())
    text = dumps(example_doc)
    reopened = loads(text)
    assert reopened.catalog[item.key] == item and dumps(reopened) == text


def test_a_custom_node_has_no_outlet_groups_whatever_the_hidden_table_holds(example_doc, qtbot):
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(RACK_PDU)
    dlg.add_outlet_group("C19", 6, 16, "L1")
    dlg.set_kind(NODE)
    dlg.name.setText("8-GPU node")
    for name, value in {"width_m": 0.44, "depth_m": 0.9, "height_u": 5, "weight_kg": 118, "power_w": 11.5,
                        "power_peak_w": 12.8, "gpus": 8, "port_cages": 8, "port_speed_gbps": 400}.items():
        dlg.boxes[name].setValue(value)
    dlg.pdu_inlet.setText("hardwired")
    dlg.source.setPlainText("Vendor datasheet")
    dlg.accept()
    assert dlg.item().outlet_groups == [] and dlg.item().pdu_inlet == ""
