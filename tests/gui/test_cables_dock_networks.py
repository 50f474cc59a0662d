"""The Cables dock over every network (issue 21): a Network column, a network filter reached and
chosen with the keyboard alone, combined with the words and state filters and kept on edits.

Over the pod template (every network it generates; a hose by hand if it makes none).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from planner.commands.edits import delete_objects
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.networks import network_of
from planner.model.ports import COMPUTE, NETWORKS, POWER
from planner.ui.cables.dock import CableDock
from planner.ui.cables.filters import NETWORK_FILTERS
from planner.ui.cables.index import COLUMNS, NETWORK
from planner.ui.session import DocumentSession


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod"))


@pytest.fixture
def dock(qtbot, pod_text) -> CableDock:
    dock = CableDock(DocumentSession(loads(pod_text)))
    qtbot.addWidget(dock)
    dock.resize(1300, 600)
    dock.show()
    qtbot.waitExposed(dock)
    return dock


def _shown(dock: CableDock) -> list[str]:
    model = dock.model
    return [model.index(row, 0).data(Qt.UserRole) for row in range(model.rowCount())]


def _tab_to(qtbot, dock: CableDock, widget, limit: int = 12) -> None:
    """Tab from the filter box until ``widget`` has the focus (keyboard reachable)."""
    dock.filter.setFocus()
    for _ in range(limit):
        if QApplication.focusWidget() is widget:
            return
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Tab)
    assert QApplication.focusWidget() is widget, "not reachable by Tab"


def test_every_row_shows_its_network(dock):
    doc = dock.session.doc
    assert COLUMNS[NETWORK] == "Network"
    assert dock.model.headerData(NETWORK, Qt.Horizontal) == "Network"
    shown = {dock.model.index(row, 0).data(Qt.UserRole): dock.model.index(row, NETWORK).data()
             for row in range(dock.model.rowCount())}
    assert shown == {link_id: network_of(link) for link_id, link in doc.links.items()}
    assert {network_of(link) for link in doc.links.values()} >= {COMPUTE, POWER, "storage", "inband", "oob"}


def test_the_network_filter_is_chosen_with_the_keyboard(dock, qtbot):
    doc = dock.session.doc
    combo = dock.network_filter
    assert [combo.itemText(i) for i in range(combo.count())] == [text for text, _n in NETWORK_FILTERS]
    assert combo.itemText(0) == "All networks" and combo.count() == 1 + len(NETWORKS)
    _tab_to(qtbot, dock, combo)
    power = next(i for i in range(combo.count()) if combo.itemData(i) == (POWER,))
    for _ in range(power):
        qtbot.keyClick(combo, Qt.Key_Down)
    assert combo.currentIndex() == power
    cords = {i for i, link in doc.links.items() if network_of(link) == POWER}
    assert set(_shown(dock)) == cords
    assert dock.count.text() == f"{len(cords):,} of {len(doc.links):,} cables"
    # with the words: the cords of one rack; with a state: none is verified yet
    dock.filter.setText("R01")
    cables = dock.model.cables
    in_r01 = {i for i in cords if "r01" in cables.texts[cables.slot_of[i]]}
    assert in_r01 and in_r01 != cords and set(_shown(dock)) == in_r01
    dock.filter.clear()
    dock.state_filter.setCurrentIndex(next(i for i in range(dock.state_filter.count())
                                           if dock.state_filter.itemData(i) == ("verified",)))
    assert _shown(dock) == []
    dock.state_filter.setCurrentIndex(0)
    qtbot.keyClick(combo, Qt.Key_Home)
    assert len(_shown(dock)) == len(doc.links)


def test_the_filter_follows_edits(dock):
    doc, session = dock.session.doc, dock.session
    dock.network_filter.setCurrentIndex(next(i for i in range(dock.network_filter.count())
                                             if dock.network_filter.itemData(i) == (POWER,)))
    cords = sorted(i for i, link in doc.links.items() if network_of(link) == POWER)
    compute = next(i for i, link in doc.links.items() if network_of(link) == COMPUTE)
    session.push(delete_objects(doc, [cords[0], compute]))
    assert set(_shown(dock)) == set(cords[1:])
    session.undo_stack.undo()
    assert set(_shown(dock)) == set(cords)
