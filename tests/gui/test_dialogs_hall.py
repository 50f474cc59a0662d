"""New hall and hall-features dialogs: tables become one undoable Compound command."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from planner.commands import History
from planner.io import load
from planner.ui.dialogs.hall_features import HallFeaturesDialog
from planner.ui.dialogs.new_hall import NewHallDialog


def _set(table, row, col, text):
    table.table.item(row, col).setText(text)


SHELL_HALL = Path(__file__).resolve().parents[1] / "data" / "shell_hall.hall"


@pytest.fixture
def hall():
    """The test hall: 30 × 18 m, slab and raised-floor zones, six columns, one door."""
    return load(SHELL_HALL)


@pytest.fixture
def dialog(hall, qtbot):
    dlg = HallFeaturesDialog(hall)
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


def test_edits_are_one_undo_step(hall, dialog):
    _set(dialog.zones, 1, 5, "9.5")  # raised floor: 7.2 → 9.5 kPa
    dialog.obstacles.add_row(None, ["C7", "column", 3.0, 9.0, 3.6, 9.6])
    dialog.doors.table.selectRow(0)
    dialog.doors.remove_selected()
    _set(dialog.outline, 1, 0, "32")
    _set(dialog.outline, 2, 0, "32")
    dialog.accept()
    command = dialog.command()
    history = History(hall)
    change = history.push(command)
    assert hall.zones["zone-2"].rating_kpa == 9.5
    assert not hall.doors and hall.outline[1] == (32.0, 0.0)
    new_id = next(i for i in change.added)
    assert hall.obstacles[new_id].polygon == [(3.0, 9.0), (3.6, 9.0), (3.6, 9.6), (3.0, 9.6)]
    assert change.modified == {"zone-2": {"rating_kpa"}} and change.outline
    history.undo()
    assert hall.zones["zone-2"].rating_kpa == 7.2 and "door-1" in hall.doors
    assert new_id not in hall.obstacles and hall.outline[1] == (30.0, 0.0)


def test_a_bad_cell_keeps_the_dialog_open(dialog, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    _set(dialog.doors, 0, 2, "wide")
    dialog.accept()
    assert dialog.result() != HallFeaturesDialog.DialogCode.Accepted
    assert said == ["row 1, y1 (m): 'wide' is not a number"]


def test_a_polygon_zone_keeps_its_shape(hall, qtbot):
    hall.zones["zone-1"].polygon = [(0.0, 0.0), (18.0, 0.0), (18.0, 18.0), (9.0, 20.0), (0.0, 18.0)]
    dlg = HallFeaturesDialog(hall)
    qtbot.addWidget(dlg)
    assert not dlg.zones.table.item(0, 1).flags() & Qt.ItemFlag.ItemIsEditable
    _set(dlg.zones, 0, 5, "15")
    dlg.accept()
    History(hall).push(dlg.command())
    zone = hall.zones["zone-1"]
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


def test_hand_off_points_are_added_and_their_kind_checked(hall, dialog, monkeypatch):
    said = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    dialog.handoffs.add_row(None, ["Facility water", "water", 0.6, 1.2])
    dialog.accept()
    assert said == ["hand-off Facility water: kind must be one of power, coolant, network"]
    _set(dialog.handoffs, 0, 1, "coolant")
    dialog.accept()
    change = History(hall).push(dialog.command())
    (new_id,) = change.added
    assert new_id.startswith("ho-") and hall.handoffs[new_id].kind == "coolant"
    assert (hall.handoffs[new_id].x, hall.handoffs[new_id].y) == (0.6, 1.2)
