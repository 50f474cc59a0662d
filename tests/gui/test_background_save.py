"""Save, autosave and the hand-over of the plan to a job write in the background (issue 19):
the text and the disk are another thread's, the bytes are ``dumps`` of the plan at the moment of
the snapshot, writes queue rather than interleave, and a discarded copy never comes back."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from planner.commands import SetFields
from planner.io import dumps
from planner.io.hallfile import snapshot
from planner.layout.templates import build_template
from planner.ui import files as files_module
from planner.ui.jobs import runner as jobs
from planner.ui.writer import BackgroundWriter, take_snapshot


@pytest.fixture
def window(make_window):
    return make_window(build_template("hall", nodes=72))


def test_save_writes_off_the_gui_thread_the_bytes_of_dumps(window, tmp_path, monkeypatch):
    written = threading.Event()
    threads: list[int] = []
    real = files_module.save_snapshot

    def watched(snap, path):
        threads.append(threading.get_ident())
        real(snap, path)
        written.set()
    monkeypatch.setattr(files_module, "save_snapshot", watched)
    window.session.push(SetFields({"rack-3": {"name": "R-BG"}}, text="Rename"))
    expected = dumps(window.session.doc).encode("utf-8")
    target = tmp_path / "bg.hall"
    assert window.files._write(target)
    assert written.is_set() and threads and threads[0] != threading.get_ident()
    assert target.read_bytes() == expected
    assert window.session.undo_stack.isClean()


def test_an_edit_during_the_write_leaves_the_plan_unsaved(window, tmp_path, monkeypatch):
    from PySide6.QtCore import QTimer
    real = files_module.save_snapshot
    started, release = threading.Event(), threading.Event()

    def slow(snap, path):
        started.set()
        assert release.wait(10)
        real(snap, path)
    monkeypatch.setattr(files_module, "save_snapshot", slow)
    before = dumps(window.session.doc).encode("utf-8")

    def edit_once_writing():  # in the event loop, while the save waits for its thread
        if started.is_set() and not release.is_set():
            window.session.push(SetFields({"rack-3": {"name": "R-LATE"}}, text="Rename"))
            release.set()
    poll = QTimer()
    poll.timeout.connect(edit_once_writing)
    poll.start(5)
    assert window.files._write(tmp_path / "late.hall")
    poll.stop()
    assert release.is_set()
    assert (tmp_path / "late.hall").read_bytes() == before  # the snapshot's moment
    assert not window.session.undo_stack.isClean()


def test_a_second_write_queues_behind_the_first(qtbot, tmp_path):
    writer = BackgroundWriter()
    doc = build_template("hall", nodes=72)
    first_may_end = threading.Event()
    order: list[str] = []

    def first(_snap):
        order.append("first starts")
        assert first_may_end.wait(10)
        order.append("first ends")

    def second(_snap):
        order.append("second starts")

    writer.submit(snapshot(doc).take(), first)
    done = writer.submit(snapshot(doc).take(), second)
    assert not done.done()
    first_may_end.set()
    done.result(10)
    assert order == ["first starts", "first ends", "second starts"]
    writer.close()


def test_a_snapshot_taken_in_slices_restarts_when_the_plan_changes(window, monkeypatch):
    from PySide6.QtCore import QTimer

    from planner.io import hallwrite
    monkeypatch.setattr(hallwrite, "SNAPSHOT_SLICE", 50)  # many slices: an edit lands between two
    session = window.session
    QTimer.singleShot(0, lambda: session.push(SetFields({"rack-3": {"name": "R-MID"}}, text="Rename")))
    snap = take_snapshot(session.doc, session)
    assert snap.restarts >= 1
    assert "".join(hallwrite.pieces(snap)) == dumps(session.doc)  # one moment: after the edit


def test_autosave_writes_in_the_background_and_a_discard_wins(window, monkeypatch):
    autosaver = window.files.autosaver
    window.session.push(SetFields({"rack-3": {"name": "R-AUTO"}}, text="Rename"))
    expected = dumps(window.session.doc).encode("utf-8")
    autosaver.write_now()
    assert autosaver.plan_path.read_bytes() == expected
    # a write under way when the copy is discarded does not bring it back
    release = threading.Event()
    started = threading.Event()
    from planner.ui import recovery
    real = recovery._write_beside

    def slow(path, snap):
        started.set()
        assert release.wait(10)
        return real(path, snap)
    monkeypatch.setattr(recovery, "_write_beside", slow)
    window.session.push(SetFields({"rack-3": {"name": "R-AUTO2"}}, text="Rename"))
    autosaver.write_now(wait=False)
    assert started.wait(10)
    autosaver.discard()
    release.set()
    autosaver.writer.wait_all()
    assert not autosaver.plan_path.exists()
    assert not Path(str(autosaver.plan_path) + ".tmp").exists()


def test_a_plan_input_appears_whole_or_not_at_all(window):
    expected = dumps(window.session.doc).encode("utf-8")
    path = jobs.plan_input(window.session)
    jobs._INPUT_WRITER.submit(lambda: None).result(30)  # the writes before it have ended
    assert Path(path).read_bytes() == expected
    jobs.remove_input(path)
    assert not Path(path).exists()
    # given up before it is written: nothing is left behind
    gate = threading.Event()
    jobs._INPUT_WRITER.submit(gate.wait, 10)
    path = jobs.plan_input(window.session.doc)
    jobs.remove_input(path)
    gate.set()
    jobs._INPUT_WRITER.submit(lambda: None).result(30)
    assert not Path(path).exists() and not Path(path + ".part").exists()
