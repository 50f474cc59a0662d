"""File ▸ Merge…: another revision taken into the open plan as one undoable edit, after a dialog
that says what it takes in and lists the conflicts; the findings follow as after any edit, and the
plan keeps its file and stays unsaved until saved."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import dumps, load, loads, save
from planner.layout.templates import build_template
from planner.review.merge_command import merged_result
from planner.rules.engine import Validator


@pytest.fixture(scope="module")
def pod_text():
    return dumps(build_template("pod", nodes=16))


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


@pytest.fixture
def files(tmp_path, pod_text):
    """base.hall (the pod), theirs.hall (R02 renamed R02t and R04 moved 1.2 m east) and ours.hall
    (R03 moved 1.8 m south), each saved."""
    base_path, theirs_path, ours_path = tmp_path / "base.hall", tmp_path / "theirs.hall", tmp_path / "ours.hall"
    base_path.write_text(pod_text)
    theirs = loads(pod_text)
    SetFields({rack(theirs, "R02").id: {"name": "R02t"}}, "Rename").apply(theirs)
    move_objects(theirs, [rack(theirs, "R04").id], 1.2, 0.0).apply(theirs)
    save(theirs, theirs_path)
    ours = loads(pod_text)
    move_objects(ours, [rack(ours, "R03").id], 0.0, 1.8).apply(ours)
    save(ours, ours_path)
    return base_path, theirs_path, ours_path


def _click_when_shown(button_text: str, seen: list[str]) -> None:
    """Click ``button_text`` on the merge's message box once it is up (it is modal)."""
    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        seen.append(box.text())
        seen.append(box.detailedText())
        next(b for b in box.buttons() if b.text().replace("&", "") == button_text).click()
    QTimer.singleShot(0, click)


def test_the_menu_item_sits_before_save(make_window, files):
    window = make_window(load(files[2]))
    titles = [a.text() for a in window.menu("&File").actions()]
    assert titles.index("&Merge…") < titles.index("&Save")
    assert window.merge.action.shortcut().toString() == "Ctrl+Shift+M"


def test_merge_takes_theirs_in_as_one_edit_and_undo_takes_it_back(make_window, files):
    base_path, theirs_path, ours_path = files
    window = make_window(load(ours_path))
    window.files.path = ours_path
    doc = window.session.doc
    before = dumps(doc)
    expected = merged_result(load(base_path), load(ours_path), load(theirs_path)).doc
    seen: list[str] = []
    _click_when_shown("Merge", seen)
    assert window.merge.merge_files(theirs_path, base_path)
    assert seen[0] == "theirs.hall: 2 changes to take in, 0 conflicts"
    assert dumps(doc) == dumps(expected)
    assert rack(doc, "R02t") and rack(doc, "R03").y == pytest.approx(rack(expected, "R03").y)
    assert window.session.undo_stack.count() == 1 and window.session.undo_stack.undoText() == "Merge theirs.hall"
    assert not window.session.undo_stack.isClean() and window.files.path == ours_path
    assert window.statusBar().currentMessage() == ("Merged theirs.hall: 2 changes taken in, 0 conflicts; "
                                                   "Edit ▸ Undo takes the merge back")
    window.live_validator.finish()
    assert window.live_validator.findings == Validator(doc).findings
    window.session.undo_stack.undo()
    assert dumps(doc) == before
    assert window.live_validator.findings == Validator(doc).findings


def test_cancel_leaves_the_plan_and_a_conflict_is_listed(make_window, files):
    base_path, theirs_path, ours_path = files
    ours = load(ours_path)
    SetFields({rack(ours, "R02").id: {"name": "R02o"}}, "Rename").apply(ours)  # theirs renamed it R02t
    window = make_window(ours)
    before = dumps(ours)
    seen: list[str] = []
    _click_when_shown("Cancel", seen)
    assert not window.merge.merge_files(theirs_path, base_path)
    assert seen[0] == "theirs.hall: 1 change to take in, 1 conflict (the open plan's value is kept there)"
    assert "R02o" in seen[1] and "R02t" in seen[1]
    assert dumps(ours) == before and window.session.undo_stack.count() == 0


def test_an_unreadable_file_is_said_and_nothing_changes(make_window, files, tmp_path, no_blocking_prompts):
    base_path, _theirs, ours_path = files
    broken = tmp_path / "broken.hall"
    broken.write_text("{ not a plan")
    window = make_window(load(ours_path))
    assert not window.merge.merge_files(broken, base_path)
    assert window.session.undo_stack.count() == 0
    title, text = no_blocking_prompts[-1]
    assert title == "Merge" and "broken.hall" in text
