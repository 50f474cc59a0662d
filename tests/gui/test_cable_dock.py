"""The Cables dock over a generated 256-node template hall (4,096 cables): filter, natural-order
sort, and edits elsewhere in the plan updating rows by difference (issue 9).

The scaling guards are not timed: they count the search texts the index recomputes
(``CableIndex.rows_computed``) and the model resets, so per-edit work cannot silently become
proportional to the plan again.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from planner.commands import SetFields
from planner.commands.edits import delete_objects, move_objects
from planner.fabric.routing import route
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.document import Document, natural_key
from planner.ui.cables.dock import CableDock
from planner.ui.cables.index import COLUMNS, END_A, LENGTH, NUMERIC, TIER, end_text, text_key
from planner.ui.plan.route import route_on_tray
from planner.ui.session import DocumentSession


@pytest.fixture(scope="module")
def hall_text() -> str:
    return dumps(build_template("hall", 256))


@pytest.fixture
def dock(qtbot, hall_text) -> CableDock:
    dock = CableDock(DocumentSession(loads(hall_text)))
    qtbot.addWidget(dock)
    dock.resize(900, 500)
    dock.show()
    return dock


def _rows(dock: CableDock) -> list[str]:
    model = dock.model
    return [model.index(row, 0).data(Qt.UserRole) for row in range(model.rowCount())]


def _cell(dock: CableDock, link_id: str, column: int) -> str:
    model = dock.model
    return model.index(model.row_of(link_id), column).data()


def _shown_text(doc: Document, link_id: str) -> str:
    """What a row shows, joined: the filter matches words in it."""
    link = doc.links[link_id]
    ends = (end_text(doc, link.a_device, link.a_port), end_text(doc, link.b_device, link.b_port))
    return " ".join((link.label, *ends, link.tier, str(link.rail), link.media, f"{link.length_m:.2f}",
                     f"{link.stock_m:.2f}")).lower()


def _rack_links(doc: Document, rack_name: str) -> set[str]:
    rack = next(r for r in doc.racks.values() if r.name == rack_name)
    return {i for d in doc.devices_in(rack.id) for i in doc.link_ids_of(d.id)}


def _resets(dock: CableDock) -> list[int]:
    resets: list[int] = []
    dock.model.modelReset.connect(lambda: resets.append(1))
    return resets


def test_filter_shows_the_rows_containing_every_word(dock):
    doc = dock.session.doc
    total = len(doc.links)
    assert dock.count.text() == f"{total:,} cables"
    for text in ("R02", "r02 p1", "leaf-SPINE r26", "R0", "sr4 15.00"):
        dock.filter.setText(text)
        words = text.lower().split()
        expected = {i for i in doc.links if all(w in _shown_text(doc, i) for w in words)}
        assert expected and set(_rows(dock)) == expected, text
        assert dock.count.text() == f"{len(expected):,} of {total:,} cables"
    # the rows of a node rack: its cables, and the cables whose label names it
    dock.filter.setText("R02")
    assert _rack_links(doc, "R02") <= set(_rows(dock))
    dock.filter.setText("")
    assert dock.model.rowCount() == total and _rows(dock) == sorted(doc.links, key=natural_key)


def test_a_pasted_label_with_its_arrow_finds_its_cable_and_the_search_texts_are_ascii(dock):
    """The arrow of a label is kept as one ASCII character in the search texts and sort keys (a
    two-byte string per cable otherwise); the words typed go through the same table."""
    doc = dock.session.doc
    link_id = sorted(doc.links, key=natural_key)[7]
    label = _cell(dock, link_id, 0)
    assert " ↔ " in label
    dock.filter.setText(label)
    assert _rows(dock) == [link_id]
    index = dock.model.cables
    assert all(text.isascii() for text in index.texts)
    assert text_key("R1-P1 ↔ R2") < text_key("R1-P1 ↔ R10") and text_key("R1-P1 ↔ R2").isascii()
    dock.filter.setText("")


def test_typing_narrows_and_backspace_widens_to_the_same_rows(dock, qtbot):
    qtbot.keyClicks(dock.filter, "r026")
    assert set(_rows(dock)) == {i for i in dock.session.doc.links if "r026" in _shown_text(dock.session.doc, i)}
    qtbot.keyClick(dock.filter, Qt.Key_Backspace)
    narrowed_then_widened = _rows(dock)
    dock.filter.setText("")
    dock.filter.setText("r02")
    assert narrowed_then_widened == _rows(dock)


def test_sort_is_natural_and_ties_go_by_label(dock):
    doc, model = dock.session.doc, dock.model
    racks = {r.name: r.id for r in doc.racks.values()}
    dock.session.push(SetFields({racks["R02"]: {"name": "R2"}, racks["R03"]: {"name": "R10"}}))
    dock.table.sortByColumn(END_A, Qt.AscendingOrder)
    ends = [model.index(row, END_A).data() for row in range(model.rowCount())]
    assert ends == sorted(ends, key=natural_key)
    first = {name: next(n for n, end in enumerate(ends) if end.startswith(name + " ")) for name in ("R2", "R10")}
    assert first["R2"] < first["R10"]  # R2 before R10, though "R10" < "R2" as plain text
    dock.table.sortByColumn(END_A, Qt.DescendingOrder)
    assert [model.index(row, END_A).data() for row in range(model.rowCount())] == ends[::-1]
    dock.table.sortByColumn(TIER, Qt.AscendingOrder)
    keys = [(model.index(row, TIER).data(), natural_key(model.index(row, 0).data()))
            for row in range(model.rowCount())]
    assert keys == sorted(keys)
    dock.table.sortByColumn(LENGTH, Qt.DescendingOrder)
    lengths = [float(model.index(row, LENGTH).data()) for row in range(model.rowCount())]
    assert lengths == sorted(lengths, reverse=True)
    dock.filter.setText("r26")  # the filter keeps the sort
    lengths = [float(model.index(row, LENGTH).data()) for row in range(model.rowCount())]
    assert len(lengths) < len(doc.links) and lengths == sorted(lengths, reverse=True)


def test_renaming_a_rack_changes_only_its_cables_rows(dock):
    doc, model = dock.session.doc, dock.model
    dock.filter.setText("rx2")
    assert model.rowCount() == 0
    dock.filter.setText("")
    own = _rack_links(doc, "R02")
    rack = next(r for r in doc.racks.values() if r.name == "R02")
    other = next(i for i in doc.links if i not in own)
    other_text = _cell(dock, other, END_A) + _cell(dock, other, 2)
    resets = _resets(dock)
    computed = model.cables.rows_computed
    dock.session.push(SetFields({rack.id: {"name": "RX2"}}, "Rename"))
    # scaling guard: the rack's cables' search texts were recomputed, no other row's
    assert model.cables.rows_computed - computed == len(own)
    assert not resets
    assert all("RX2 U" in _cell(dock, i, END_A) + _cell(dock, i, 2) for i in own)
    assert _cell(dock, other, END_A) + _cell(dock, other, 2) == other_text
    dock.filter.setText("rx2")
    assert set(_rows(dock)) == own
    dock.session.undo_stack.undo()  # with the filter on, the rows leave it
    assert model.rowCount() == 0 and not resets
    dock.session.undo_stack.redo()
    assert set(_rows(dock)) == own and not resets


def test_edits_that_change_no_end_text_recompute_nothing(dock):
    doc, model = dock.session.doc, dock.model
    model.prepare(now=True)
    rack = next(r for r in doc.racks.values() if r.name == "R02")
    computed = model.cables.rows_computed
    dock.session.push(move_objects(doc, [rack.id], 0.6, 0.0))
    dock.session.push(SetFields({rack.id: {"notes": "spare"}}))
    assert model.cables.rows_computed == computed
    dock.session.push(SetFields({"link-7": {"length_m": 42.5}}))
    assert model.cables.rows_computed == computed + 1 and _cell(dock, "link-7", LENGTH) == "42.50"


def test_deleting_cables_removes_their_rows_and_undo_puts_them_back(dock):
    doc, model, session = dock.session.doc, dock.model, dock.session
    model.prepare(now=True)
    dock.table.sortByColumn(LENGTH, Qt.DescendingOrder)
    before = _rows(dock)
    resets = _resets(dock)
    computed = model.cables.rows_computed
    gone = before[100]
    session.push(delete_objects(doc, [gone]))
    assert model.row_of(gone) == -1 and gone not in _rows(dock)
    assert model.rowCount() == len(before) - 1 and dock.count.text() == f"{len(before) - 1:,} cables"
    session.undo_stack.undo()
    assert _rows(dock) == before
    # many cables in scattered rows (one layout change rather than a signal per row)
    many = before[::97]
    session.push(delete_objects(doc, many))
    assert _rows(dock) == [i for i in before if i not in set(many)]
    session.undo_stack.undo()
    assert _rows(dock) == before
    assert not resets
    assert model.cables.rows_computed - computed == 1 + len(many)  # the cables that came back


def test_deleting_a_rack_removes_its_cables_in_plan_order(dock):
    doc, session = dock.session.doc, dock.session
    before = _rows(dock)
    own = _rack_links(doc, "R26")
    rack = next(r for r in doc.racks.values() if r.name == "R26")
    session.push(delete_objects(doc, [rack.id]))
    assert _rows(dock) == [i for i in before if i not in own]
    session.undo_stack.undo()
    assert _rows(dock) == before


def test_selection_stays_on_its_cable_across_filter_and_sort(dock):
    link_id = "link-40"
    dock.select_link(link_id)
    assert dock.selected_link() == link_id
    dock.filter.setText(_cell(dock, link_id, END_A).split()[0])
    assert dock.selected_link() == link_id
    dock.table.sortByColumn(END_A, Qt.DescendingOrder)
    assert dock.selected_link() == link_id
    dock.filter.setText("no-such-cable")
    dock.select_link(link_id)  # hidden by the filter: the filter is cleared
    assert dock.filter.text() == "" and dock.selected_link() == link_id


def test_search_texts_and_label_keys_are_built_in_idle_time(qtbot, hall_text):
    dock = CableDock(DocumentSession(loads(hall_text)))
    qtbot.addWidget(dock)
    cables = dock.model.cables
    assert cables.rows_computed == 0 and not cables.ready  # nothing while the plan opens
    dock.show()
    qtbot.waitUntil(lambda: cables.ready, timeout=5000)
    assert cables.rows_computed == len(dock.session.doc.links)


def test_moving_a_rack_redraws_the_selected_cables_route(make_window, hall_text):
    window = make_window(loads(hall_text))
    dock, doc = window.cable_dock, window.session.doc
    link = doc.links["link-1"]
    dock.select_link(link.id)
    assert window.plan_view._route is not None
    rack = doc.devices[link.a_device].rack
    window.session.push(move_objects(doc, [rack], 0.0, 1.2))
    expected = route_on_tray(route(doc, link).polyline)
    path = window.plan_view._route.path()
    first = path.elementAt(0)
    assert path.elementCount() == len(expected)
    assert (round(first.x / 100, 3), round(first.y / 100, 3)) == tuple(round(v, 3) for v in expected[0])


def test_sort_keys_stay_the_natural_keys_of_the_shown_text(dock):
    """The index builds keys from memoised tokens and per-device parts: they must equal
    ``text_key`` of what the cell shows, before and after an edit patches them."""
    cables = dock.model.cables
    for column in range(len(COLUMNS)):
        cables.keys(column)
    rack = next(r for r in dock.session.doc.racks.values() if r.name == "R26")
    dock.session.push(SetFields({rack.id: {"name": "Net-10"}, "link-5": {"label": "X2-Y10 ↔ Z3"}}))
    for column in range(len(COLUMNS)):
        keys = cables.keys(column)
        for slot in range(0, len(cables.ids), 7):
            shown = cables.display(slot, column)
            if column in NUMERIC:  # shown to 2 decimals
                assert keys[slot] == pytest.approx(float(shown), abs=0.005), (column, shown)
            else:
                assert keys[slot] == text_key(shown), (column, shown)


def test_the_columns_are_fitted_once_at_construction(qtbot, hall_text, monkeypatch):
    """To the first rows when there are any (reading them is most of the dock's open time), else
    to the headers and typical cells, and again when the first rows come."""
    import planner.ui.cables.dock as cable_dock

    fitted: list[int] = []
    real = cable_dock.fit_columns
    monkeypatch.setattr(cable_dock, "fit_columns", lambda view, typical=(): fitted.append(
        view.model().rowCount()) or real(view, typical))
    dock = CableDock(DocumentSession(loads(hall_text)))
    qtbot.addWidget(dock)
    assert len(fitted) == 1 and fitted[0] > 0
    fitted.clear()
    dock.filter.setText("no such cable anywhere")
    dock.filter.setText("")
    assert fitted == []
    empty = CableDock(DocumentSession(Document()))
    qtbot.addWidget(empty)
    assert fitted == [0]
