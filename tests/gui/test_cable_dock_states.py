"""The Cables dock's installation state (issue 13): a State column, a state filter, and marking a
multi-selection through the menu as one undo step; faulty asks for a note.

Over a 16-node pod (384 cables): the rows are selected with real clicks on the table.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QInputDialog

from planner.asbuilt.states import set_state_command
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.ui.cables.dock import CableDock
from planner.ui.cables.index import STATE
from planner.ui.session import DocumentSession


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod", 16))


@pytest.fixture
def dock(qtbot, pod_text) -> CableDock:
    dock = CableDock(DocumentSession(loads(pod_text)))
    qtbot.addWidget(dock)
    dock.resize(1100, 500)
    dock.show()
    qtbot.waitExposed(dock)
    return dock


def _rows(dock: CableDock) -> list[str]:
    model = dock.model
    return [model.index(row, 0).data(Qt.UserRole) for row in range(model.rowCount())]


def _click_row(qtbot, dock: CableDock, row: int, modifier=Qt.NoModifier, button=Qt.LeftButton) -> QPoint:
    index = dock.model.index(row, 0)
    dock.table.scrollTo(index)
    point = dock.table.visualRect(index).center()
    qtbot.mouseClick(dock.table.viewport(), button, modifier, point)
    return point


def _choose(dock: CableDock, state: str) -> None:
    dock.state_menu.findChild(type(dock.state_menu.actions()[0]), f"state-{state}").trigger()


def test_marking_a_multi_selection_is_one_undo_step(dock, qtbot):
    doc, stack = dock.session.doc, dock.session.undo_stack
    messages: list[str] = []
    dock.status_message.connect(messages.append)
    _click_row(qtbot, dock, 2)
    _click_row(qtbot, dock, 6, Qt.ShiftModifier)  # rows 2..6
    _click_row(qtbot, dock, 9, Qt.ControlModifier)  # and row 9
    chosen = _rows(dock)[2:7] + [_rows(dock)[9]]
    assert dock.selected_links() == chosen
    steps = stack.count()
    _choose(dock, "tested")
    assert stack.count() == steps + 1 and stack.undoText() == "Mark 6 cables tested"
    assert messages[-1] == "Marked 6 cables tested"
    assert {doc.links[i].state for i in chosen} == {"tested"}
    assert sum(link.state == "tested" for link in doc.links.values()) == 6
    assert [dock.model.index(row, STATE).data() for row in (2, 6, 9)] == ["tested"] * 3
    assert dock.model.index(7, STATE).data() == "planned"
    stack.undo()  # one undo puts back every cable of the selection
    assert {link.state for link in doc.links.values()} == {"planned"}
    assert dock.model.index(2, STATE).data() == "planned"
    stack.redo()
    assert {doc.links[i].state for i in chosen} == {"tested"}


def test_faulty_asks_for_a_note_and_cancel_changes_nothing(dock, qtbot, monkeypatch):
    doc, stack = dock.session.doc, dock.session.undo_stack
    asked: list[str] = []

    def answer(_parent, _title, label, *_args, **_kwargs):
        asked.append(label)
        return reply

    monkeypatch.setattr(QInputDialog, "getText", staticmethod(answer))
    _click_row(qtbot, dock, 0)
    _click_row(qtbot, dock, 1, Qt.ShiftModifier)
    first, second = _rows(dock)[:2]
    reply = ("", False)  # cancelled
    _choose(dock, "faulty")
    assert asked and "2 cables" in asked[0]
    assert stack.count() == 0 and doc.links[first].state == "planned"
    reply = ("  latch bent  ", True)
    _choose(dock, "faulty")
    assert (doc.links[first].state, doc.links[first].state_note) == ("faulty", "latch bent")
    assert doc.links[second].state_note == "latch bent"
    index = dock.model.index(0, STATE)
    assert index.data() == "faulty: latch bent" and index.data(Qt.ToolTipRole) == "latch bent"
    _choose(dock, "verified")  # another state clears the note
    assert (doc.links[first].state, doc.links[first].state_note) == ("verified", "")
    stack.undo()
    assert doc.links[first].state_note == "latch bent"


def test_nothing_selected_is_said_not_done(dock):
    messages: list[str] = []
    dock.status_message.connect(messages.append)
    dock.table.clearSelection()
    _choose(dock, "run")
    assert messages == ["Select the cables to mark first"] and dock.session.undo_stack.count() == 0


def test_right_click_outside_the_selection_selects_that_row_and_opens_the_menu(dock, qtbot):
    _click_row(qtbot, dock, 0)
    _click_row(qtbot, dock, 2, Qt.ShiftModifier)
    viewport = dock.table.viewport()
    point = dock.table.visualRect(dock.model.index(1, 0)).center()  # inside the selection: kept
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Mouse, point, viewport.mapToGlobal(point)))
    assert dock.selected_links() == _rows(dock)[:3] and dock.cable_actions.row_menu.isVisible()
    assert dock.state_menu.menuAction() in dock.cable_actions.row_menu.actions()  # Set state ▸ in the row menu
    dock.cable_actions.row_menu.close()
    point = dock.table.visualRect(dock.model.index(4, 0)).center()
    QApplication.sendEvent(viewport, QContextMenuEvent(QContextMenuEvent.Mouse, point, viewport.mapToGlobal(point)))
    assert dock.selected_links() == [_rows(dock)[4]]
    assert dock.cable_actions.row_menu.isVisible()
    dock.cable_actions.row_menu.close()


def test_state_filter_shows_the_chosen_states_and_follows_edits(dock, qtbot):
    session, doc, model = dock.session, dock.session.doc, dock.model
    total = len(doc.links)
    ids = sorted(doc.links)
    verified, faulty = ids[:40], ids[40:43]
    session.push(set_state_command(doc, verified, "verified"))
    session.push(set_state_command(doc, faulty, "faulty", "no light"))
    combo = dock.state_filter
    combo.setCurrentIndex(combo.findText("Not verified"))
    assert set(_rows(dock)) == set(ids) - set(verified)
    assert dock.count.text() == f"{total - 40:,} of {total:,} cables"
    combo.setCurrentIndex(combo.findText("Faulty"))
    assert set(_rows(dock)) == set(faulty)
    combo.setCurrentIndex(combo.findText("Verified"))
    assert set(_rows(dock)) == set(verified)
    # the words and the states filter together
    word = dock.model.index(0, 1).data().split()[0].lower()
    dock.filter.setText(word)
    assert set(_rows(dock)) == {i for i in verified if word in model.cables.texts[model.cables.slot_of[i]]}
    dock.filter.clear()
    # a row leaves the filter when its state does, by difference (no model reset), and undo returns it
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(1))
    computed = model.cables.rows_computed
    _click_row(qtbot, dock, 0)
    leaving = dock.selected_links()[0]
    _choose(dock, "run")
    assert leaving not in _rows(dock) and len(_rows(dock)) == 39
    session.undo_stack.undo()
    assert set(_rows(dock)) == set(verified)
    assert not resets and model.cables.rows_computed == computed  # a state is in no search text
    combo.setCurrentIndex(combo.findText("All states"))
    assert model.rowCount() == total and dock.count.text() == f"{total:,} cables"


def test_marking_every_row_under_a_filter_empties_it_and_undo_fills_it(dock, qtbot):
    session, doc = dock.session, dock.session.doc
    dock.state_filter.setCurrentIndex(dock.state_filter.findText("Planned"))
    dock.table.setFocus()
    qtbot.keyClick(dock.table, Qt.Key_A, Qt.ControlModifier)
    assert len(dock.selected_links()) == len(doc.links)
    _choose(dock, "verified")
    assert dock.model.rowCount() == 0 and dock.count.text() == f"0 of {len(doc.links):,} cables"
    session.undo_stack.undo()
    assert _rows(dock) == sorted(doc.links, key=lambda i: int(i.split("-")[1]))


def test_sorting_by_state_groups_the_states(dock):
    doc, session = dock.session.doc, dock.session
    ids = sorted(doc.links)
    session.push(set_state_command(doc, ids[100:110], "verified"))
    session.push(set_state_command(doc, ids[5:8], "faulty", "dirty end"))
    dock.table.sortByColumn(STATE, Qt.AscendingOrder)
    states = [dock.model.index(row, STATE).data() for row in range(dock.model.rowCount())]
    assert states[:3] == ["faulty: dirty end"] * 3 and states[-10:] == ["verified"] * 10
    assert states[3:-10] == ["planned"] * (len(ids) - 13)
