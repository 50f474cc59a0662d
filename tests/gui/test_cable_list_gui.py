"""File ▸ Import cable list… (issue 18): the same change as `planner cables import`, one undo step;
a bad row changes nothing; removing or rewiring cables past planned asks first."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.commands.base import History, RemoveObjects, SetFields
from planner.export.schedule import write_csv
from planner.io import dumps, loads
from planner.layout.templates import build_template

#: The 6-node pod's cables: 48 compute (6 nodes × 8 rails to one leaf), 82 power cords,
#: 34 out-of-band, 14 storage, 14 in-band and 12 coolant hoses. Its cable list holds them all.
POD_CABLES = 204
#: The plan the window opens: the pod less the three R03 N2 cables.
PLAN_CABLES = POD_CABLES - 3


@pytest.fixture(scope="module")
def pod() -> tuple[str, list[list[str]]]:
    """The 6-node pod without three cables (R03 N2 P6–P8), link-10 verified, and the full pod's
    cables-csv rows (header first: every network's cables, ``POD_CABLES`` rows)."""
    doc = build_template("pod", 6)
    out = io.BytesIO()
    write_csv(doc, out)
    rows = list(csv.reader(io.StringIO(out.getvalue().decode("utf-8"), newline="")))
    assert len(rows) == 1 + POD_CABLES == 1 + len(doc.links)
    History(doc).push(RemoveObjects(["link-46", "link-47", "link-48"]))
    History(doc).push(SetFields({"link-10": {"state": "verified"}}))
    return dumps(doc), rows


@pytest.fixture
def window(make_window, pod):
    return make_window(loads(pod[0]))


def _list(tmp_path: Path, rows: list[list[str]]) -> Path:
    path = tmp_path / "cables.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _rewired(rows: list[list[str]]) -> list[list[str]]:
    """link-1 and link-2 (R01 N1 P1, P2) moved to the leaf's free ports 25/1 and 25/2."""
    rows = [list(row) for row in rows]
    for row in rows[1:]:
        if row[1:4] == ["R01", "1", "N1"] and row[4] in ("P1", "P2"):
            row[8] = {"P1": "25/1", "P2": "25/2"}[row[4]]
    return rows


def _choose(monkeypatch, path: Path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(path), "")))


def test_import_from_the_file_menu_is_one_undo_step(window, pod, tmp_path, monkeypatch, no_blocking_prompts):
    doc = window.session.doc
    stack = window.session.undo_stack
    _choose(monkeypatch, _list(tmp_path, _rewired(pod[1])))
    file_menu = window.menu("&File")
    assert window.import_cable_list_action in file_menu.actions()
    names = [a.objectName() for a in file_menu.actions()]
    assert names.index("import-cable-list") == names.index("import-tick-sheet") + 1
    depth = stack.count()
    window.import_cable_list_action.trigger()
    assert no_blocking_prompts == []  # nothing past planned touched: no question
    # kept: every cable of the plan but the two rewired (PLAN_CABLES - 2 = 199); the three added
    assert window.statusBar().currentMessage() == (
        f"Import cable list: kept {PLAN_CABLES - 2}, rewired 2, removed 0, added 3")
    assert stack.count() == depth + 1
    assert len(doc.links) == POD_CABLES
    assert (doc.links["link-1"].b_port, doc.links["link-2"].b_port) == ("25/1", "25/2")
    assert doc.links["link-10"].state == "verified"
    stack.undo()
    assert len(doc.links) == PLAN_CABLES
    assert (doc.links["link-1"].b_port, doc.links["link-2"].b_port) == ("1/1", "1/2")
    stack.redo()
    assert len(doc.links) == POD_CABLES and doc.links["link-1"].b_port == "25/1"
    assert window.cable_dock.model.total() == POD_CABLES  # the Cables dock follows the one change


def test_a_bad_row_changes_nothing_and_is_named(window, pod, tmp_path, monkeypatch, no_blocking_prompts):
    rows = [*_rewired(pod[1]), ["", "R99", "1", "N1", "P1", "R02", "1", "L1", "26/1"]]
    _choose(monkeypatch, _list(tmp_path, rows))
    before = dumps(window.session.doc)
    depth = window.session.undo_stack.count()
    window.import_cable_list_action.trigger()
    assert len(no_blocking_prompts) == 1
    title, text = no_blocking_prompts[0]
    assert title == "Import cable list"
    assert "1 row of cables.csv cannot be used, so nothing was changed" in text
    assert f"row {POD_CABLES + 2}: A end: unknown rack 'R99'" in text  # after the header and every cable
    assert window.session.undo_stack.count() == depth
    assert dumps(window.session.doc) == before


def test_removing_a_verified_cable_asks_first(window, pod, tmp_path, monkeypatch, no_blocking_prompts):
    rows = [row for row in pod[1] if row[1:5] != ["R01", "5", "N2", "P2"]]  # link-10, verified
    _choose(monkeypatch, _list(tmp_path, rows))
    doc = window.session.doc
    window.import_cable_list_action.trigger()  # the conftest answers No
    assert len(no_blocking_prompts) == 1
    # kept: every cable of the plan but link-10 (PLAN_CABLES - 1 = 200)
    assert no_blocking_prompts[0][1].startswith(
        f"kept {PLAN_CABLES - 1}, rewired 0, removed 1 (1 verified), added 3.")
    assert "link-10" in no_blocking_prompts[0][1]
    assert "link-10" in doc.links and len(doc.links) == PLAN_CABLES
    assert window.statusBar().currentMessage().startswith("Import cable list: not applied")
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Yes))
    window.import_cable_list_action.trigger()
    assert "link-10" not in doc.links and len(doc.links) == PLAN_CABLES - 1 + 3
    window.session.undo_stack.undo()
    assert doc.links["link-10"].state == "verified" and len(doc.links) == PLAN_CABLES


def test_an_unreadable_list_says_why(window, tmp_path, monkeypatch, no_blocking_prompts):
    empty = tmp_path / "empty.csv"
    empty.write_bytes(b"a_device,a_port,b_device,b_port\n")
    _choose(monkeypatch, empty)
    depth = window.session.undo_stack.count()
    window.import_cable_list_action.trigger()
    assert len(no_blocking_prompts) == 1
    assert "no cables: only a header row" in no_blocking_prompts[0][1]
    assert window.session.undo_stack.count() == depth
