"""Every editor applies the format's bounds (issue 10): spin boxes span the bounds table's range,
names stop at their length, control characters are refused with one message and the dialog
stays open; and a save onto a folder is refused without renaming anything."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.commands import History
from planner.io import load
from planner.model.bounds import BOUNDS
from planner.model.catalog import NODE
from planner.ui.dialogs.custom_type import FIELDS, OPTIONAL, CustomTypeDialog
from planner.ui.dialogs.hall_features import HallFeaturesDialog
from planner.ui.dialogs.new_hall import NewHallDialog
from planner.ui.dialogs.title_block import TitleBlockDialog
from planner.ui.validation.basis_dialog import BasisDialog

SHELL_HALL = Path(__file__).resolve().parents[1] / "data" / "shell_hall.hall"


@pytest.fixture
def said(monkeypatch) -> list[str]:
    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text, *_a: messages.append(text)))
    return messages


def test_custom_type_boxes_span_the_bounds_table(example_doc, qtbot):
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    for spec in FIELDS:
        bound = BOUNDS["CatalogItem"][spec.name]
        box = dlg.boxes[spec.name]
        # a rating a type may leave out starts one step lower, at 0: "not rated" (null in the file)
        low = 0.0 if spec.name in OPTIONAL else bound.low / spec.scale
        assert (box.minimum(), box.maximum()) == pytest.approx((low, bound.high / spec.scale)), spec.name
        assert box.specialValueText() == OPTIONAL.get(spec.name, ""), spec.name
    assert dlg.boxes["port_cages"].maximum() == 1024 and dlg.boxes["power_w"].maximum() == 100_000  # kW
    assert dlg.name.maxLength() == 200


def test_custom_type_refuses_control_characters_and_gives_floats_where_the_model_says_float(
        example_doc, qtbot, said):
    dlg = CustomTypeDialog(example_doc)
    qtbot.addWidget(dlg)
    dlg.set_kind(NODE)
    for name, value in {"width_m": 0.44, "depth_m": 0.9, "height_u": 5, "weight_kg": 118, "power_w": 11.5,
                        "power_peak_w": 12.8, "gpus": 8, "port_cages": 8, "port_speed_gbps": 400}.items():
        dlg.boxes[name].setValue(value)
    dlg.source.setPlainText("Datasheet\nrev 3")  # line breaks are fine in a source note
    dlg.name.setText("Node\x07X")
    dlg.accept()
    assert dlg.result() != CustomTypeDialog.DialogCode.Accepted
    assert said == ["Name: holds a control character (U+0007) at character 5."]
    dlg.name.setText("Node X")
    dlg.accept()
    item = dlg.item()
    assert type(item.port_speed_gbps) is float and type(item.weight_kg) is float and type(item.height_u) is int
    History(example_doc).push(dlg.command())


@pytest.mark.parametrize("table, row, col, text, message", [
    ("zones", 0, 5, "-5", "row 1, Rating (kPa): -5 kPa is outside 0.5–1,000 kPa"),
    ("zones", 0, 8, "0", "row 1, Tile size (m): 0 m is outside 0.1–10 m"),
    ("zones", 0, 0, "Zone\x01", "row 1, Name: holds a control character (U+0001) at character 5"),
    ("outline", 1, 0, "1e308", "row 2, x (m): 1e308 m is outside -10,000 to 10,000 m"),
    ("outline", 1, 0, "nan", "row 2, x (m): NaN is not a number; expected -10,000 to 10,000 m"),
    ("doors", 0, 1, "inf", "row 1, x1 (m): infinity m is outside -10,000 to 10,000 m"),
    ("obstacles", 0, 1, "c" * 41, "row 1, Kind: 41 characters, at most 40"),
])
def test_hall_feature_cells_out_of_bounds_keep_the_dialog_open(qtbot, said, table, row, col, text, message):
    hall = load(SHELL_HALL)
    dlg = HallFeaturesDialog(hall)
    qtbot.addWidget(dlg)
    getattr(dlg, table).table.item(row, col).setText(text)
    dlg.accept()
    assert dlg.result() != HallFeaturesDialog.DialogCode.Accepted
    assert said == [message]


def test_title_block_refuses_control_characters_and_stops_at_the_length(qtbot, said):
    hall = load(SHELL_HALL)
    dlg = TitleBlockDialog(hall.meta)
    qtbot.addWidget(dlg)
    assert dlg.edits["project"].maxLength() == 200
    dlg.edits["author"].setText("A\x1bB")
    dlg.accept()
    assert dlg.result() != TitleBlockDialog.DialogCode.Accepted and dlg.command() is None
    assert said == ["Author: holds a control character (U+001B) at character 2"]
    dlg.edits["author"].setText("A. Surveyor")
    dlg.edits["notes"].setPlainText("line 1\nline 2")
    dlg.accept()
    assert dlg.result() == TitleBlockDialog.DialogCode.Accepted
    assert dlg.command().values == {"author": "A. Surveyor", "notes": "line 1\nline 2"}


def test_new_hall_ranges_come_from_the_table(qtbot, said):
    dlg = NewHallDialog()
    qtbot.addWidget(dlg)
    assert dlg.width_m.maximum() == 10_000 and dlg.width_m.minimum() == 1
    assert dlg.rating_kpa.maximum() == 1_000 and dlg.tile_kn.maximum() == 1_000
    dlg.project.setText("P\x00")
    dlg.accept()
    assert said == ["Project: holds a control character (U+0000) at character 2"]


def test_basis_dialog_ranges_come_from_the_table(qtbot):
    dlg = BasisDialog(load(SHELL_HALL).basis)
    qtbot.addWidget(dlg)
    spins = dlg.spins
    assert (spins["voltage_v"].minimum(), spins["voltage_v"].maximum()) == (1, 100_000)
    assert (spins["row_tray_width_m"].minimum(), spins["row_tray_width_m"].maximum()) == (1, 10_000)  # mm
    assert (spins["tray_fill_error"].minimum(), spins["tray_fill_error"].maximum()) == (0, 100)  # %
    assert (spins["cross_tray_levels"].minimum(), spins["cross_tray_levels"].maximum()) == (1, 100)
    assert (spins["facility_supply_c"].minimum(), spins["facility_supply_c"].maximum()) == (2, 70)  # water, W17–W+


def test_saving_onto_a_folder_is_refused_and_renames_nothing(qtbot, tmp_path, monkeypatch):
    from planner.ui.app import application
    from planner.ui.main_window import MainWindow
    from planner.ui.session import DocumentSession

    application()
    asked: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(lambda _p, title, text, *_a: asked.append((title, text))))
    folder = tmp_path / "plans.hall"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(folder), "")))
    window = MainWindow(DocumentSession(load(SHELL_HALL)))
    try:
        assert window.files.save_as() is False
        assert folder.is_dir() and sorted(p.name for p in tmp_path.iterdir()) == ["plans.hall"]
        (title, text), = asked
        assert title == "Cannot save plan" and "is a folder" in text and "as it was" in text
        assert window.files.path is None
    finally:
        window.session.undo_stack.setClean()
        window.close()
        window.deleteLater()


def test_basis_dialog_edits_the_nccl_floor_as_a_percentage(qtbot):
    basis = load(SHELL_HALL).basis
    dlg = BasisDialog(basis)
    qtbot.addWidget(dlg)
    spin = dlg.spins["nccl_efficiency"]
    assert (spin.minimum(), spin.maximum(), spin.value(), spin.suffix()) == (1, 100, 80, " %")
    assert spin.toolTip() == "Commissioning: NCCL bus bandwidth floor as a share of line rate (planning assumption)"
    group = spin.parentWidget()
    assert group.title() == "Commissioning"
    spin.setValue(85)
    assert dlg.changes() == {"nccl_efficiency": 0.85}
