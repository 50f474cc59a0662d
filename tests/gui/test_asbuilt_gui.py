"""The as-built work in the window (issue 13): hostnames in the properties dock, File ▸ Verify
against discovery and its dock, "Mark in plan", the tick sheet import, the installation progress
overlay and the status bar's verified count.

Over a 16-node pod (5 racks, 775 cables of every network, 384 of them compute); the discovery file
is a links CSV of the compute cables (what ibnetdiscover sees) written here from the plan, with one
swapped pair and one cable left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QFileDialog, QLabel

from planner.asbuilt.states import set_state_command
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.labels import cable_label
from planner.model.networks import is_compute
from planner.model.objects import TIER_NODE_LEAF
from planner.ui.asbuilt.attach import VerifyDialog, show_verification
from planner.ui.asbuilt.install_overlay import FAULTY_COLOUR, PROGRESS_BANDS, InstallTally
from planner.ui.asbuilt.verify_dock import FIX, RACK, STATUS
from planner.ui.jobs.export_dialog import ExportDialog
from planner.ui.plan.units import to_scene


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod", 16))


@pytest.fixture
def window(make_window, pod_text):
    return make_window(loads(pod_text))


def _rack(doc: Document, name: str) -> str:
    return next(rack.id for rack in doc.racks.values() if rack.name == name)


def _rack_links(doc: Document, name: str) -> list[str]:
    return sorted({i for d in doc.devices_in(_rack(doc, name)) for i in doc.link_ids_of(d.id)})


#: Every cable of the 16-node pod: 384 compute (128 node-leaf + 256 leaf-spine), 208 power cords,
#: 83 out-of-band, 34 storage, 34 in-band and 32 coolant hoses. The status bar counts them all.
POD_CABLES = 775


def _count_label(window) -> str:
    return window.statusBar().findChild(QLabel, "verified_count").text()


# --------------------------------------------------------------------------- hostnames

def test_hostname_edit_undo_and_reset_to_default(window, qtbot):
    doc, session = window.session.doc, window.session
    device = next(d for d in doc.devices_in(_rack(doc, "R01")) if d.name == "N1")
    session.select({device.id})
    dock = window.properties_dock
    edit = dock.editors["hostname"]
    assert edit.isVisible() and edit.text() == "" and edit.placeholderText() == "R01-N1"
    edit.setFocus()
    qtbot.keyClicks(edit, "gpu-001")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert device.hostname == "gpu-001" and doc.hostname(device) == "gpu-001"
    assert session.undo_stack.undoText() == "Set hostname of R01 N1 to gpu-001"
    assert edit.text() == "gpu-001"
    session.undo_stack.undo()
    assert device.hostname == "" and edit.text() == "" and edit.placeholderText() == "R01-N1"
    session.undo_stack.redo()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key_Delete)  # empty: back to the default
    qtbot.keyClick(edit, Qt.Key_Return)
    assert device.hostname == "" and doc.hostname(device) == "R01-N1"
    assert session.undo_stack.undoText() == "Reset hostname of R01 N1 to R01-N1"
    # the default follows a rename of the rack
    session.select({_rack(doc, "R01")})
    name = dock.editors["name"]
    name.setFocus()
    name.selectAll()
    qtbot.keyClicks(name, "A01")
    qtbot.keyClick(name, Qt.Key_Return)
    session.select({device.id})
    assert edit.placeholderText() == "A01-N1"


def test_a_hostname_with_a_space_is_refused_in_the_status_bar(window, qtbot):
    doc, session = window.session.doc, window.session
    device = next(d for d in doc.devices.values() if d.name == "L1")
    session.select({device.id})
    edit = window.properties_dock.editors["hostname"]
    edit.setFocus()
    qtbot.keyClicks(edit, "leaf 1")
    qtbot.keyClick(edit, Qt.Key_Return)
    assert device.hostname == "" and session.undo_stack.count() == 0
    assert "no spaces" in window.statusBar().currentMessage()


def test_hostname_is_for_one_device_at_a_time(window):
    doc = window.session.doc
    window.session.select({d.id for d in doc.devices_in(_rack(doc, "R01"))})
    assert not window.properties_dock.editors["hostname"].isVisible()
    window.session.select({_rack(doc, "R01")})
    assert not window.properties_dock.editors["hostname"].isVisible()


# ----------------------------------------------------------------------- verification

def _discovery(doc: Document, path: Path) -> tuple[tuple[str, str], str]:
    """Write a links CSV of the plan's compute cables with N1 of R01's rail-1 and rail-2 cables
    crossed at the node and one compute cable of R02 missing; returns (the swapped pair, the
    missing cable)."""
    node = next(d for d in doc.devices_in(_rack(doc, "R01")) if d.name == "N1")
    by_port = {doc.links[i].a_port: i for i in doc.link_ids_of(node.id) if doc.links[i].tier == TIER_NODE_LEAF}
    first, second = doc.links[by_port["P1"]], doc.links[by_port["P2"]]
    missing = next(i for i in _rack_links(doc, "R02") if is_compute(doc.links[i]))
    lines = ["a_device,a_port,b_device,b_port"]
    for link in doc.links_in("compute").values():
        if link.id == missing:
            continue
        b_device, b_port = link.b_device, link.b_port
        if link.id == first.id:
            b_device, b_port = second.b_device, second.b_port
        elif link.id == second.id:
            b_device, b_port = first.b_device, first.b_port
        lines.append(f"{doc.hostname(doc.devices[link.a_device])},{link.a_port},"
                     f"{doc.hostname(doc.devices[b_device])},{b_port}")
    path.write_text("\n".join(lines) + "\n")
    return (first.id, second.id), missing


def _verify_through_dialog(window, qtbot, csv_path: Path) -> VerifyDialog:
    dialog = VerifyDialog(window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.edits["links"].setText(str(csv_path))
    qtbot.mouseClick(dialog.verify_button, Qt.LeftButton)
    return dialog


def test_verify_dock_shows_the_swap_and_the_missing_cable_and_marks_the_plan(window, qtbot, tmp_path):
    doc, session = window.session.doc, window.session
    (first, second), missing = _discovery(doc, tmp_path / "links.csv")
    session.push(set_state_command(doc, [missing], "run"))  # run, yet not found: faulty when marked
    dialog = _verify_through_dialog(window, qtbot, tmp_path / "links.csv")
    assert dialog.verification is not None and dialog.verification.summary == {
        "planned": 384, "ok": 381, "miswired": 2, "missing": 1, "unexpected": 0}
    show_verification(window, dialog.verification)
    dock = window.verify_dock
    assert dock.isVisible() and dock.summary.text().startswith("384 planned · 381 ok · 2 miswired · 1 missing")
    model = dock.model
    rows = [(model.index(r, RACK).data(), model.index(r, STATUS).data(), model.index(r, FIX).data())
            for r in range(model.rowCount())]
    assert [row[:2] for row in rows] == [("R01", "miswired"), ("R01", "miswired"), ("R02", "missing")]
    assert rows[0][2] == rows[1][2] and rows[0][2].startswith("R01 N1: swap the cables in P1 and P2")
    assert "cable missing" in rows[2][2]
    assert {model.row(model.index(r, 0)).link_id for r in range(2)} == {first, second}
    dock.status_filter.setCurrentIndex(dock.status_filter.findText("Missing"))
    assert model.rowCount() == 1 and model.row(model.index(0, 0)).link_id == missing
    dock.status_filter.setCurrentIndex(dock.status_filter.findText("Every cable"))
    assert model.rowCount() == 384

    steps = session.undo_stack.count()
    qtbot.mouseClick(dock.mark_button, Qt.LeftButton)
    assert session.undo_stack.count() == steps + 1
    assert sum(link.state == "verified" for link in doc.links.values()) == 381
    assert {doc.links[i].state for i in (first, second, missing)} == {"faulty"}
    assert doc.links[first].state_note == rows[0][2]  # the fix is the note
    assert len(doc.links) == POD_CABLES
    assert _count_label(window) == f"381 of {POD_CABLES} cables verified · 3 faulty"
    session.undo_stack.undo()  # one step takes the whole result back
    assert sum(link.state == "verified" for link in doc.links.values()) == 0
    assert doc.links[missing].state == "run" and _count_label(window) == f"0 of {POD_CABLES} cables verified"


def test_clicking_a_problem_selects_its_cable_and_centres_its_rack(window, qtbot, tmp_path):
    doc = window.session.doc
    (first, second), _missing = _discovery(doc, tmp_path / "links.csv")
    show_verification(window, _verify_through_dialog(window, qtbot, tmp_path / "links.csv").verification)
    dock, view = window.verify_dock, window.plan_view
    view.fit_to_hall()
    index = dock.model.index(0, FIX)
    qtbot.mouseClick(dock.table.viewport(), Qt.LeftButton, pos=dock.table.visualRect(index).center())
    chosen = dock.model.row(index).link_id
    assert chosen in (first, second) and window.cable_dock.selected_link() == chosen
    rack = doc.racks[_rack(doc, "R01")]
    centre = view.mapFromScene(to_scene(rack.x, rack.y))
    assert view.viewport().rect().adjusted(40, 40, -40, -40).contains(centre)
    assert view.route_ends()  # the cable's route is drawn


def test_an_unreadable_discovery_file_is_named_and_the_dialog_stays_open(window, qtbot, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("a_device,a_port,b_device,b_port\nR01-N1,P1,R03-L1\n")
    dialog = _verify_through_dialog(window, qtbot, bad)
    assert dialog.isVisible() and dialog.verification is None
    assert str(bad) in dialog.status.text() and ":2:" in dialog.status.text()
    dialog.edits["links"].clear()
    qtbot.mouseClick(dialog.verify_button, Qt.LeftButton)
    assert dialog.status.text() == "Choose at least one discovery file."


def test_file_menu_runs_the_dialog_and_shows_the_dock(window, qtbot, tmp_path, monkeypatch):
    _discovery(window.session.doc, tmp_path / "links.csv")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda *_a, **_k: ([str(tmp_path / "links.csv")], "")))

    def run(dialog):  # the modal loop, as a user would drive it: Files…, then Verify
        files = next(b for b in dialog.findChildren(type(dialog.verify_button)) if b.text() == "Files…")
        qtbot.mouseClick(files, Qt.LeftButton)
        qtbot.mouseClick(dialog.verify_button, Qt.LeftButton)
        return dialog.result()

    monkeypatch.setattr(VerifyDialog, "exec", run)
    assert not window.verify_dock.isVisible()
    window.verify_action.trigger()
    assert window.verify_dock.isVisible() and window.verify_dock.model.rowCount() == 3
    assert "Checked against 1 file: 384 planned" in window.statusBar().currentMessage()
    # another plan opened: the result was about the last one; the count is the new plan's
    window.session.replace_document(build_template("starter", 4))
    assert window.verify_dock.model.rowCount() == 0 and not window.verify_dock.mark_button.isEnabled()
    assert _count_label(window) == "0 of 88 cables verified"  # 32 compute, 46 power cords, 10 hoses


# ----------------------------------------------------------------------- tick sheet

def test_import_tick_sheet_is_one_undo_step(window, tmp_path, monkeypatch, no_blocking_prompts):
    doc, session = window.session.doc, window.session
    ids = _rack_links(doc, "R01")[:3]
    sheet = tmp_path / "ticks.csv"
    rows = [f"{cable_label(doc, doc.links[ids[0]])},x,,", f"{cable_label(doc, doc.links[ids[1]])},x,x,x",
            "NOT-A-CABLE,x,,"]
    sheet.write_text("label,run,labelled,tested\n" + "\n".join(rows) + "\n")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(sheet), "")))
    window.import_ticks_action.trigger()
    assert (doc.links[ids[0]].state, doc.links[ids[1]].state, doc.links[ids[2]].state) == ("run", "tested", "planned")
    assert session.undo_stack.count() == 1
    assert any("NOT-A-CABLE" in text for _title, text in no_blocking_prompts)  # listed, not dropped
    session.undo_stack.undo()
    assert {doc.links[i].state for i in ids} == {"planned"}
    sheet.write_text("label,run\nX,maybe\n")
    window.import_ticks_action.trigger()
    assert session.undo_stack.count() == 1 and ":2:" in no_blocking_prompts[-1][1]


# ----------------------------------------------------------- progress overlay, count

def test_status_bar_count_follows_an_edit_and_its_undo(window, qtbot):
    doc, session, cables = window.session.doc, window.session, window.cable_dock
    assert _count_label(window) == f"0 of {POD_CABLES} cables verified"
    cables.table.selectRow(0)
    qtbot.mouseClick(cables.table.viewport(), Qt.LeftButton, Qt.ShiftModifier,
                     cables.table.visualRect(cables.model.index(9, 0)).center())
    cables.set_state("verified")
    assert _count_label(window) == f"10 of {POD_CABLES} cables verified"
    assert window.statusBar().currentMessage() == "Marked 10 cables verified"
    cables.set_state("faulty", note="dirty")
    assert _count_label(window) == f"0 of {POD_CABLES} cables verified · 10 faulty"
    session.undo_stack.undo()
    assert _count_label(window) == f"10 of {POD_CABLES} cables verified"
    session.undo_stack.undo()
    assert _count_label(window) == f"0 of {POD_CABLES} cables verified"
    session.push(set_state_command(doc, list(doc.links), "verified"))
    assert _count_label(window) == f"{POD_CABLES} of {POD_CABLES} cables verified"


def _rack_rect(view, doc: Document, name: str) -> QRect:
    x0, y0, x1, y1 = doc.rack_bounds(doc.racks[_rack(doc, name)])
    top_left, bottom_right = view.mapFromScene(to_scene(x0, y0)), view.mapFromScene(to_scene(x1, y1))
    return QRect(top_left, bottom_right).normalized().adjusted(3, 3, -3, -3)


def test_overlay_colours_racks_by_share_verified_and_marks_faulty_ones(window, count_colour):
    doc, session, view = window.session.doc, window.session, window.plan_view
    session.push(set_state_command(doc, _rack_links(doc, "R01"), "verified"))
    r02 = _rack_links(doc, "R02")
    session.push(set_state_command(doc, [r02[0]], "faulty", "no light"))
    toggle = next(a for a in window.findChildren(type(window.verify_action)) if a.objectName() == "overlay-install")
    toggle.trigger()
    assert window.install_progress.legend.isVisible()
    view.fit_to_hall()
    image = view.viewport().grab().toImage()
    none, full = PROGRESS_BANDS[0][1], PROGRESS_BANDS[-1][1]
    r01, r04 = _rack_rect(view, doc, "R01"), _rack_rect(view, doc, "R04")
    area = r01.width() * r01.height()
    # (a few pixels of the other colour are the edges of the figures written on the rack)
    assert count_colour(image, r01, full, 30) > area / 3 and count_colour(image, r01, none, 30) < area / 20
    assert count_colour(image, r04, none, 30) > area / 3 and count_colour(image, r04, full, 30) < area / 20
    # both end racks of the faulty cable are hatched in red (inside their outline); R01 is not
    link = doc.links[r02[0]]
    ends = {doc.racks[doc.devices[d].rack].name for d in (link.a_device, link.b_device)}
    assert "R01" not in ends
    for name in ends:
        assert count_colour(image, _rack_rect(view, doc, name), FAULTY_COLOUR, 60) > area / 20, name
    assert count_colour(image, r01, FAULTY_COLOUR, 60) == 0
    # undo: R01 is back to none verified, by difference
    session.undo_stack.undo()
    session.undo_stack.undo()
    image = view.viewport().grab().toImage()
    assert count_colour(image, r01, full, 30) < area / 20 and count_colour(image, r01, none, 30) > area / 3
    toggle.trigger()
    assert not window.install_progress.legend.isVisible() and window.install_progress.layer is None


def test_export_dialog_prints_what_is_left_to_do(window, qtbot, tmp_path):
    doc = window.session.doc
    window.session.push(set_state_command(doc, _rack_links(doc, "R01"), "verified"))
    assert not ExportDialog(window, "labels-pdf").remaining_box.isVisibleTo(None)
    dialog = ExportDialog(window, "cabling-pdf")
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.remaining_box.isVisible() and not dialog.remaining_box.isChecked()
    qtbot.mouseClick(dialog.remaining_box, Qt.LeftButton)
    target = tmp_path / "left.pdf"
    dialog.path_edit.setText(str(target))
    qtbot.mouseClick(dialog.export_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    pages = [page.extract_text() for page in PdfReader(str(target)).pages]
    left = len(doc.links) - len(_rack_links(doc, "R01"))
    assert f"{left} of {len(doc.links)} cables not yet verified" in pages[0]
    assert not any(p.startswith("Rack R01 ·") for p in pages) and any(p.startswith("Rack R02 ·") for p in pages)


def test_tally_by_difference_matches_a_fresh_count(window):
    """The status count and the overlay's per-rack figures are kept by difference: after state
    edits, deleting a rack with its cables, undo and redo they equal a count made from scratch."""
    from planner.commands.edits import delete_objects

    doc, session = window.session.doc, window.session
    progress = window.install_progress
    progress.tally.per_rack()  # as when the overlay has been shown

    def check() -> None:
        fresh = InstallTally(doc)
        live = {r: c for r, c in progress.tally.per_rack().items() if c[0]}
        assert live == fresh.per_rack()
        assert {k: v for k, v in progress.tally.counts.items() if v} == {k: v for k, v in fresh.counts.items() if v}

    session.push(set_state_command(doc, _rack_links(doc, "R01"), "verified"))
    session.push(set_state_command(doc, _rack_links(doc, "R02")[:5], "faulty", "x"))
    session.push(set_state_command(doc, _rack_links(doc, "R02")[3:9], "tested"))
    check()
    session.push(delete_objects(doc, [_rack(doc, "R02")]))
    check()
    session.undo_stack.undo()
    check()
    session.undo_stack.undo()
    session.undo_stack.undo()
    check()
    session.undo_stack.redo()
    check()
