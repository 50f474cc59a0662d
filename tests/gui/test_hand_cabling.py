"""Cabling by hand in the window (issue 18), as a user does it: pick a port in the rack elevation,
choose the far end in the port picker, rewire, delete from the Cables dock, undo — with the live
N1 finding for a wrong-rail cable appearing and clearing."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from planner.commands.edits import place_device
from planner.fabric.hall import STEPS, apply_steps
from planner.fabric.hand_commands import free_ports
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.labels import cable_label

NODE_RACK, LEAF_RACK, NEW_NODE = "rack-1", "rack-4", "dev-73"


@pytest.fixture(scope="module")
def pod_text() -> str:
    """A clean 12-node pod (R01, R03, R04 nodes; R02 the leaves L1–L8 and spines) and a new node
    N5 at R01 U17 with all eight rail ports free (every other network connected)."""
    doc = build_template("pod", 12)
    for _side in "AB":  # R01's eight PDUs have a C19 outlet for each of its four nodes' PSUs, no more
        place_device(doc, "pdu-rack-3ph-63a", NODE_RACK).apply(doc)
    place_device(doc, "node-8gpu-liquid-4u", NODE_RACK, 17).apply(doc)
    assert doc.devices[NEW_NODE].name == "N5"
    apply_steps(doc, STEPS)  # its cords, hoses, storage and management cables: only its rails are free
    assert free_ports(doc, NEW_NODE)[:8] == [f"P{rail}" for rail in range(1, 9)]
    return dumps(doc)


@pytest.fixture
def window(make_window, pod_text):
    window = make_window(loads(pod_text))
    window.activateWindow()
    return window


def device(doc, rack_name: str, name: str) -> str:
    rack = next(r for r in doc.racks.values() if r.name == rack_name)
    return next(d.id for d in doc.devices_in(rack.id) if d.name == name)


def show_rack(qtbot, window, rack_id: str):
    elevation = window.elevation_dock.elevation
    window.session.select({rack_id})
    qtbot.waitUntil(lambda: elevation.rack_id == rack_id)
    return elevation


def port_point(elevation, device_id: str, port: str) -> QPoint:
    return elevation.port_cells(elevation.doc.devices[device_id])[port].center().toPoint()


def right_click(elevation, point: QPoint) -> None:
    QApplication.sendEvent(elevation, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point,
                                                        elevation.mapToGlobal(point)))


def rules(window) -> list[tuple[str, tuple[str, ...]]]:
    """Errors and warnings shown (the template's zone has no air-cooling rating: a C6 info)."""
    return [(f.rule, f.subjects) for f in window.findings_dock.visible_findings() if f.severity != "info"]


def focused(qtbot, picker):
    """The open picker, once it has the keyboard (it opens window-modal over the window)."""
    assert picker is not None and picker.isVisible() and picker.isModal()
    picker.activateWindow()
    qtbot.waitUntil(picker.filter.hasFocus)
    return picker


def choose_in_picker(qtbot, picker, words: str) -> None:
    """Type in the picker's filter and press Enter, as a user picks the far end."""
    QTest.keyClicks(picker.filter, words)
    QTest.keyClick(picker.filter, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not picker.isVisible())


def test_connect_by_hand_rewire_and_undo_both_with_the_wrong_rail_finding(qtbot, window):
    session, doc = window.session, window.session.doc
    start, at_start = dumps(doc), rules(window)
    assert [r for r, _ in at_start] == ["N6"]  # N5 reaches nothing yet
    leaf1, leaf2 = device(doc, "R02", "L1"), device(doc, "R02", "L2")
    wrong, right = free_ports(doc, leaf2)[0], free_ports(doc, leaf1)[0]

    # pick N5's P1 in the elevation, Enter opens the port picker
    elevation = show_rack(qtbot, window, NODE_RACK)
    QTest.mouseClick(elevation, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     port_point(elevation, NEW_NODE, "P1"))
    assert elevation.picked == (NEW_NODE, "P1")
    assert elevation.hasFocus()
    QTest.keyClick(elevation, Qt.Key.Key_Return)
    picker = focused(qtbot, elevation.cabling.picker)
    assert picker.current_device() == leaf1  # the rail-1 leaves come first for GPU 1
    QTest.keyClicks(picker.filter, "R02 L2")
    assert picker.current_device() == leaf2 and picker.chosen() == (leaf2, wrong)
    assert "wrong rail" in picker.hint.text() and "rail-2 leaf L2" in picker.hint.text()
    QTest.keyClick(picker.filter, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not picker.isVisible())

    (link_id,) = set(doc.links) - set(loads(start).links)
    link = doc.links[link_id]
    assert (link.a_device, link.a_port, link.b_device, link.b_port) == (NEW_NODE, "P1", leaf2, wrong)
    assert link.label == "" and link.media and link.stock_m >= link.length_m > 0
    assert cable_label(doc, link) == f"R01-U17-N5-P1 ↔ R02-U02-L2-{wrong}"
    assert session.undo_stack.undoText() == f"Connect R01 N5 P1 to R02 L2 {wrong}"
    dock = window.cable_dock
    assert dock.model.index(dock.model.row_of(link_id), 0).data() == cable_label(doc, link)
    n1 = [s for r, s in rules(window) if r == "N1"]
    assert len(n1) == 1 and link_id in n1[0]  # the wrong-rail finding, live
    assert "N6" not in [r for r, _ in rules(window)]
    assert window.live_validator.severity(NEW_NODE) == "error"

    # rewire the leaf end from N5's port: right-click ▸ Rewire the other end…
    right_click(elevation, port_point(elevation, NEW_NODE, "P1"))
    menu = elevation.menu
    assert menu is not None and menu.isVisible()
    action = next(a for a in menu.actions() if a.objectName() == "rewire-other-end")
    assert action.text() == f"Rewire the other end (R02 L2 {wrong})…"
    menu.close()
    action.trigger()
    picker = focused(qtbot, elevation.cabling.picker)
    assert picker.current_device() == leaf2  # where the end is now
    choose_in_picker(qtbot, picker, "R02 L1")
    link = doc.links[link_id]
    assert (link.b_device, link.b_port, link.rail) == (leaf1, right, 1)
    assert session.undo_stack.undoText() == f"Rewire R01 N5 P1 from R02 L2 {wrong} to R02 L1 {right}"
    assert not rules(window)  # the finding cleared, and N5 reaches the fabric
    assert window.live_validator.severity(NEW_NODE) == ""

    # undo both: the plan is as it started, with its findings
    window.undo_action.trigger()
    assert [r for r, _ in rules(window)] == ["N1"] and doc.links[link_id].b_device == leaf2
    window.undo_action.trigger()
    assert dumps(doc) == start and rules(window) == at_start
    assert dock.model.row_of(link_id) == -1
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert doc.links[link_id].b_device == leaf1 and not rules(window)


def test_a_pick_waits_while_another_rack_is_shown_and_ctrl_click_fills_the_picker(qtbot, window):
    session, doc = window.session, window.session.doc
    elevation = show_rack(qtbot, window, NODE_RACK)
    QTest.mouseClick(elevation, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     port_point(elevation, NEW_NODE, "P3"))
    show_rack(qtbot, window, LEAF_RACK)
    assert elevation.picked == (NEW_NODE, "P3")
    leaf3 = device(doc, "R02", "L3")
    port = free_ports(doc, leaf3)[2]
    QTest.mouseClick(elevation, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     port_point(elevation, leaf3, port))
    picker = focused(qtbot, elevation.cabling.picker)
    assert picker.chosen() == (leaf3, port) and "wrong rail" not in picker.hint.text()
    QTest.keyClick(picker.filter, Qt.Key.Key_Enter)
    qtbot.waitUntil(lambda: not picker.isVisible())
    assert session.undo_stack.undoText() == f"Connect R01 N5 P3 to R02 L3 {port}"
    assert elevation.picked is None
    # the leaf's port now shows the cable; Escape drops a pick; right-click offers the port list
    QTest.mouseClick(elevation, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     port_point(elevation, leaf3, port))
    assert elevation.picked == (leaf3, port)
    QTest.keyClick(elevation, Qt.Key.Key_Escape)
    assert elevation.picked is None
    right_click(elevation, port_point(elevation, leaf3, free_ports(doc, leaf3)[0]))
    titles = [a.text() for a in elevation.menu.actions()]
    assert titles[0].startswith("Connect R02 L3 ") and "Connect port" in titles
    elevation.menu.close()


def test_delete_from_the_cables_dock_asks_for_installed_cables_and_undoes(qtbot, window, monkeypatch,
                                                                          no_blocking_prompts):
    session, doc = window.session, window.session.doc
    dock = window.cable_dock
    start = dumps(doc)
    table = dock.table
    rows = [dock.model.index(r, 0).data(Qt.ItemDataRole.UserRole) for r in range(3)]
    doc.links[rows[1]].state = "verified"  # as an installer left it (not an edit of this test)
    start = dumps(doc)
    for row in range(3):
        table.selectionModel().select(dock.model.index(row, 0), table.selectionModel().SelectionFlag.Select
                                      | table.selectionModel().SelectionFlag.Rows)
    table.setFocus()
    assert dock.selected_links() == rows
    steps = session.undo_stack.count()
    QTest.keyClick(table, Qt.Key.Key_Delete)  # asks: 1 of 3 is verified; the answer is Cancel
    assert no_blocking_prompts and "1 of the 3 cables to delete is past planned (1 verified)" in \
        no_blocking_prompts[-1][1]
    assert session.undo_stack.count() == steps and all(i in doc.links for i in rows)
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Yes))
    dock.cable_actions.update_enabled()
    assert dock.cable_actions.delete.text() == "&Delete 3 cables"
    dock.cable_actions.delete.trigger()
    assert not any(i in doc.links for i in rows)
    assert session.undo_stack.count() == steps + 1 and session.undo_stack.undoText() == "Delete 3 cables"
    assert dock.count.text() == f"{len(doc.links):,} cables"
    window.undo_action.trigger()
    assert dumps(doc) == start and all(dock.model.row_of(i) >= 0 for i in rows)


def test_rewire_end_b_from_the_cables_dock_keeps_the_cable_and_resets_its_state(qtbot, window):
    session, doc = window.session, window.session.doc
    dock = window.cable_dock
    node1 = device(doc, "R01", "N1")
    link_id = next(lk.id for lk in doc.links_of(node1) if lk.a_port == "P2")
    doc.links[link_id].state = "tested"
    dock.select_link(link_id)
    dock.cable_actions.update_enabled()
    assert dock.cable_actions.rewire_b.isEnabled()
    dock.cable_actions.rewire_b.trigger()
    picker = focused(qtbot, dock.cable_actions.cabling.picker)
    old_leaf = doc.links[link_id].b_device
    assert picker.current_device() == old_leaf
    spare = free_ports(doc, old_leaf)[-1]
    # the same leaf, another port: Tab to the ports, End for the last one, Enter
    QTest.keyClick(picker.filter, Qt.Key.Key_Tab)  # to the device list
    QTest.keyClick(picker.devices, Qt.Key.Key_Tab)  # to the ports
    QTest.keyClick(picker.ports, Qt.Key.Key_End)
    assert picker.chosen() == (old_leaf, spare)
    QTest.keyClick(picker.ports, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not picker.isVisible())
    link = doc.links[link_id]
    assert (link.b_device, link.b_port, link.state) == (old_leaf, spare, "planned")
    assert session.undo_stack.undoText().startswith("Rewire R01 N1 P2 from R02 L2 ")
    assert dock.selected_link() == link_id
    window.undo_action.trigger()
    assert doc.links[link_id].state == "tested" and doc.links[link_id].b_port != spare


def test_typing_a_label_in_the_cables_dock_and_clearing_it(window):
    """Cable ▸ Label… types a label (one undo step); an empty one is derived again from the ends."""
    session, dock = window.session, window.cable_dock
    doc = session.doc
    link_id = next(iter(doc.links))
    derived = cable_label(doc, doc.links[link_id])
    dock.select_link(link_id)
    dock.cable_actions.update_enabled()
    assert dock.cable_actions.label.isEnabled()
    dock.cable_actions.edit_label("SITE-0001")
    assert doc.links[link_id].label == "SITE-0001" and cable_label(doc, doc.links[link_id]) == "SITE-0001"
    assert session.undo_stack.count() == 1
    dock.cable_actions.edit_label("")
    assert doc.links[link_id].label == "" and cable_label(doc, doc.links[link_id]) == derived
    session.undo_stack.undo()
    assert doc.links[link_id].label == "SITE-0001"
    session.undo_stack.undo()
    assert doc.links[link_id].label == ""
