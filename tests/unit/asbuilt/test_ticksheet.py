"""Tick sheets: the schedule CSV with run/labelled/tested columns, filled on paper and read back."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from planner.asbuilt.ticksheet import (
    TICK_COLUMNS,
    TickSheetError,
    tick_sheet_command,
    ticks_of_state,
)
from planner.commands.base import History
from planner.commands.checks import Refusal
from planner.export.schedule import COLUMNS, INSTALL_COLUMNS, write_tick_csv
from planner.io import load
from planner.model.labels import cable_label

DATA = Path(__file__).parents[2] / "data" / "discovery"
N1P1 = "R01-U01-N1-P1 ↔ R05-U01-L1-1/1"
N2P1 = "R01-U09-N2-P1 ↔ R05-U01-L1-1/2"
N1P2 = "R01-U01-N1-P2 ↔ R05-U03-L2-1/1"


def _sheet(doc) -> list[list[str]]:
    out = io.BytesIO()
    write_tick_csv(doc, out)
    return list(csv.reader(io.StringIO(out.getvalue().decode("utf-8"))))


def _write(path: Path, rows: list[list[str]]) -> Path:
    with open(path, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(rows)
    return path


def test_the_schedule_prints_the_tick_columns_from_each_state():
    doc = load(DATA / "tiny.hall")
    doc.set_fields("link-1", {"state": "labelled"})
    doc.set_fields("link-2", {"state": "verified"})
    doc.set_fields("link-3", {"state": "faulty", "state_note": "dirty MPO"})
    rows = _sheet(doc)
    assert rows[0] == [*COLUMNS, *INSTALL_COLUMNS, *TICK_COLUMNS]
    ticks = {row[0]: row[-3:] for row in rows[1:]}
    assert ticks[N1P1] == ["x", "x", ""]
    assert ticks[N2P1] == ["x", "x", "x"]
    assert ticks[N1P2] == ["", "", ""]  # faulty: to be done again
    assert ticks_of_state("planned") == (False, False, False)


def test_a_filled_sheet_moves_cables_on_in_one_undo_step(tmp_path):
    doc = load(DATA / "tiny.hall")
    doc.set_fields("link-4", {"state": "verified"})
    rows = _sheet(doc)
    filled = [rows[0]]
    marks = {N1P1: ["x", "", ""], N2P1: ["✓", "Yes", "1"], N1P2: ["", "X", ""]}
    for row in rows[1:]:
        filled.append([*row[:-3], *marks.get(row[0], ["x", "x", "x"])])
    filled.append(["R99-U01-N9-P1 ↔ R05-U01-L1-9/1", *[""] * (len(rows[0]) - 4), "x", "", ""])
    history = History(doc)
    command = tick_sheet_command(doc, _write(tmp_path / "ticks.csv", filled))
    history.push(command)
    states = {cable_label(doc, link): link.state for link in doc.links.values()}
    assert states[N1P1] == "run"
    assert states[N2P1] == "tested"
    assert states[N1P2] == "labelled"  # the furthest tick counts, even without "run"
    assert doc.links["link-4"].state == "verified"  # ticks never undo a verification
    assert command.unknown_labels == ["R99-U01-N9-P1 ↔ R05-U01-L1-9/1"]
    assert command.kept == 1
    assert command.text == "Import tick sheet: 5 cables moved on"
    history.undo()
    assert {link.state for link_id, link in doc.links.items() if link_id != "link-4"} == {"planned"}


def test_ticks_never_move_a_cable_back(tmp_path):
    doc = load(DATA / "tiny.hall")
    doc.set_fields("link-1", {"state": "tested"})
    sheet = _write(tmp_path / "t.csv", [["label", "run", "labelled", "tested"], [N1P1, "x", "", ""]])
    command = tick_sheet_command(doc, sheet)
    assert command.values == {} and command.unchanged == 1


def test_a_bad_tick_is_refused_with_its_line(tmp_path):
    doc = load(DATA / "tiny.hall")
    sheet = _write(tmp_path / "t.csv", [["label", "run", "labelled", "tested"], [N1P1, "x", "", ""],
                                        [N2P1, "x", "maybe", ""]])
    with pytest.raises(TickSheetError) as caught:
        tick_sheet_command(doc, sheet)
    assert caught.value.line == 3
    assert str(caught.value) == f"{sheet}:3: labelled: 'maybe' is neither a tick (x, ✓, yes, 1) nor blank"
    assert isinstance(caught.value, Refusal)  # the GUI shows it as it shows any refused edit


@pytest.mark.parametrize(("rows", "line", "problem"), [
    ([["cable", "run"], ["a", "x"]], 1, "the first row must name the columns"),
    ([["label", "route"], ["a", "x"]], 1, "the first row must name the columns"),
    ([["label", "run"], [N1P1, "x"], ["", "x"]], 3, "no label in this row"),
    ([["label", "run"], [N1P1, "x"], [N1P1, ""]], 3, "is on line 2 too"),
])
def test_other_bad_sheets(tmp_path, rows, line, problem):
    doc = load(DATA / "tiny.hall")
    with pytest.raises(TickSheetError) as caught:
        tick_sheet_command(doc, _write(tmp_path / "t.csv", rows))
    assert caught.value.line == line and problem in caught.value.problem


def test_a_label_neutralised_by_the_spreadsheet_export_is_found(tmp_path):
    doc = load(DATA / "tiny.hall")
    doc.set_fields("link-1", {"label": "=N1 P1"})
    sheet = _write(tmp_path / "t.csv", [["label", "run"], ["'=N1 P1", "x"]])
    tick_sheet_command(doc, sheet).apply(doc)
    assert doc.links["link-1"].state == "run"


def test_an_empty_or_missing_sheet(tmp_path):
    doc = load(DATA / "tiny.hall")
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    with pytest.raises(TickSheetError, match="empty"):
        tick_sheet_command(doc, tmp_path / "empty.csv")
    with pytest.raises(TickSheetError, match="cannot read"):
        tick_sheet_command(doc, tmp_path / "absent.csv")
