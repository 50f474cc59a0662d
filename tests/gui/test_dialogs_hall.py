"""New hall and hall-features dialogs: tables become one undoable Compound command."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from planner.commands import History
from planner.ui.dialogs.hall_features import HallFeaturesDialog
from planner.ui.dialogs.new_hall import NewHallDialog


def _set(table, row, col, text):
    table.table.item(row, col).setText(text)


@pytest.fixture
def dialog(example_doc, qtbot):
    dlg = HallFeaturesDialog(example_doc)
    qtbot.addWidget(dlg)
    return dlg


def test_tables_show_the_hall(dialog):
    assert dialog.outline.table.rowCount() == 4
    assert dialog.obstacles.table.rowCount() == 6
    assert dialog.zones.table.rowCount() == 2 and dialog.doors.table.rowCount() == 1
    assert dialog.zones.table.item(1, 5).text() == "7.2"  # raised floor rating, kPa
    assert dialog.zones.table.item(1, 6).text() == "4.5"  # tile point load, kN


def test_unchanged_tables_give_no_command(dialog):
    dialog.accept()
    assert dialog.result() == HallFeaturesDialog.DialogCode.Accepted
    assert dialog.command() is None


def test_edits_are_one_undo_step(example_doc, dialog):
    _set(dialog.zones, 1, 5, "9.5")  # raised floor: 7.2 → 9.5 kPa
    dialog.obstacles.add_row(None, ["C7", "column", 3.0, 9.0, 3.6, 9.6])
    dialog.doors.table.selectRow(0)
    dialog.doors.remove_selected()
    _set(dialog.outline, 1, 0, "32")
    _set(dialog.outline, 2, 0, "32")
    dialog.accept()
    command = dialog.command()
    history = History(example_doc)
    change = history.push(command)
    assert example_doc.zones["zone-2"].rating_kpa == 9.5
    assert not example_doc.doors and example_doc.outline[1] == (32.0, 0.0)
    new_id = next(i for i in change.added)
    assert example_doc.obstacles[new_id].polygon == [(3.0, 9.0), (3.6, 9.0), (3.6, 9.6), (3.0, 9.6)]
    assert change.modified == {"zone-2": {"rating_kpa"}} and change.outline
    history.undo()
    assert example_doc.zones["zone-2"].rating_kpa == 7.2 and "door-1" in example_doc.doors
    assert new_id not in example_doc.obstacles and example_doc.outline[1] == (30.0, 0.0)


def test_a_bad_cell_keeps_the_dialog_open(dialog, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    _set(dialog.doors, 0, 2, "wide")
    dialog.accept()
    assert dialog.result() != HallFeaturesDialog.DialogCode.Accepted
    assert said == ["row 1, y1 (m): 'wide' is not a number"]


def test_a_polygon_zone_keeps_its_shape(example_doc, qtbot):
    example_doc.zones["zone-1"].polygon = [(0.0, 0.0), (18.0, 0.0), (18.0, 18.0), (9.0, 20.0), (0.0, 18.0)]
    dlg = HallFeaturesDialog(example_doc)
    qtbot.addWidget(dlg)
    assert not dlg.zones.table.item(0, 1).flags() & Qt.ItemFlag.ItemIsEditable
    _set(dlg.zones, 0, 5, "15")
    dlg.accept()
    History(example_doc).push(dlg.command())
    zone = example_doc.zones["zone-1"]
    assert zone.rating_kpa == 15 and len(zone.polygon) == 5


def test_new_hall_dialog_builds_an_outline_and_a_floor_zone(qtbot):
    dlg = NewHallDialog()
    qtbot.addWidget(dlg)
    dlg.project.setText("Site survey")
    dlg.width_m.setValue(36)
    dlg.depth_m.setValue(21.6)
    dlg.tile_kn.setValue(4.5)
    doc = dlg.document()
    assert doc.meta.project == "Site survey"
    assert doc.outline == [(0.0, 0.0), (36.0, 0.0), (36.0, 21.6), (0.0, 21.6)]
    (zone,) = doc.zones.values()
    assert zone.tile_rating_kn == 4.5 and zone.raised and zone.rating_kpa == 12.0
    dlg.polygon.setChecked(True)
    assert not dlg.width_m.isEnabled() and dlg.document().outline == []
