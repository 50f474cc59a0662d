"""Long jobs in a worker process (planner.ui.jobs.runner): twenty exports in a row with the GC on, outcomes
of failing and killed workers, Cancel, and the template build and verify run through the worker."""

from __future__ import annotations

import csv
import gc
import io
import os
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QTimer

from planner.layout.templates import build_template
from planner.ui.app import application
from planner.ui.asbuilt import attach as asbuilt_attach
from planner.ui.asbuilt.attach import VerifyDialog
from planner.ui.jobs import template_dialog
from planner.ui.jobs.export_dialog import ExportDialog
from planner.ui.jobs.runner import Job
from planner.ui.jobs.template_dialog import TemplateDialog
from planner.ui.main_window import MainWindow
from planner.ui.session import DocumentSession


@pytest.fixture
def fakes(monkeypatch):
    """tests/gui/job_fakes.py, importable by name in the worker too (it gets the parent's sys.path)."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    import job_fakes

    yield job_fakes
    sys.modules.pop("job_fakes", None)


@pytest.fixture
def window(qtbot):
    application()
    win = MainWindow(DocumentSession(build_template("starter")))
    qtbot.addWidget(win)
    yield win
    win.session.undo_stack.setClean()
    win.close()


def _outcome(job: Job) -> list[tuple[str, object]]:
    seen: list[tuple[str, object]] = []
    job.succeeded.connect(lambda result: seen.append(("succeeded", result)))
    job.failed.connect(lambda line: seen.append(("failed", line)))
    job.cancelled.connect(lambda: seen.append(("cancelled", None)))
    return seen


def _check(kind: str, path: Path, doc) -> None:
    """Each export read back as its reader would."""
    data = path.read_bytes()
    if kind == "cables-csv":
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8"))))
        assert len(rows) == len(doc.links)
    elif kind == "bom-csv":
        assert len(list(csv.reader(io.StringIO(data.decode("utf-8"))))) > 3
    elif kind == "floorplan-svg":
        assert ET.fromstring(data).tag.endswith("svg")
    else:
        assert len(PdfReader(io.BytesIO(data)).pages) >= 1


def test_twenty_exports_in_a_row_with_the_gc_on(window, qtbot, tmp_path):
    """The QThread exporter crashed about 1 run in 6 with the GC collecting in the GUI thread; the
    worker process shares nothing, so the GC stays on and collects all the time here."""
    kinds = ["cables-csv", "bom-csv", "floorplan-svg", "cabling-pdf"]
    collector = QTimer()
    collector.timeout.connect(gc.collect)
    collector.start(20)
    gc_states: list[bool] = []
    try:
        for run in range(20):
            kind = kinds[run % len(kinds)]
            target = tmp_path / f"export-{run}{Path(kind.replace('-', '.')).suffix}"
            dialog = ExportDialog(window, kind)
            qtbot.addWidget(dialog)
            dialog.path_edit.setText(str(target))
            dialog.start_export()
            qtbot.waitUntil(lambda d=dialog: gc_states.append(gc.isenabled()) or d.written is not None,
                            timeout=30000)
            _check(kind, target, window.session.doc)
    finally:
        collector.stop()
    assert gc_states and all(gc_states)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"export-{r}.{kinds[r % 4].split('-')[1]}"
                                                                for r in range(20))


def test_a_job_runs_in_another_process_and_returns_data(fakes, qtbot):
    application()
    job = Job(fakes.echo_pid, {"plan": "x.hall", "racks": ("R01",)})
    seen = _outcome(job)
    job.start()
    job.wait()
    assert seen == [("succeeded", {"pid": job.pid, "payload": {"plan": "x.hall", "racks": ("R01",)}})]
    assert job.pid != os.getpid()


def test_progress_streams_and_cancel_stops_the_worker_and_cleans(fakes, qtbot, tmp_path):
    application()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / "half.part").write_text("partial")
    job = Job(fakes.slow, {"steps": 400, "pause": 0.01, "marker": str(tmp_path / "pid")}, cleanup=[str(scratch)])
    progress: list[tuple[float, str]] = []
    job.progressed.connect(lambda fraction, text: progress.append((fraction, text)))
    seen = _outcome(job)
    job.start()
    qtbot.waitUntil(lambda: len(progress) >= 3, timeout=20000)
    job.cancel()
    assert seen == [("cancelled", None)] and not job.running
    assert progress[0] == (0.0, "step 0") and all(0 <= f < 1 for f, _t in progress)
    assert not scratch.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(job.pid, 0)


def test_cancel_from_a_progress_slot_ends_the_job_once_as_cancelled(fakes, qtbot):
    application()
    job = Job(fakes.slow, {"steps": 1000, "pause": 0.05})
    seen = _outcome(job)
    job.progressed.connect(lambda _fraction, _text: job.cancel())
    job.start()
    qtbot.waitUntil(lambda: bool(seen), timeout=20000)
    qtbot.wait(200)
    assert seen == [("cancelled", None)]


def test_an_exception_in_the_worker_comes_back_as_one_line(fakes, qtbot):
    application()
    job = Job(fakes.failing, {})
    seen = _outcome(job)
    job.start()
    job.wait()
    assert seen == [("failed", "RuntimeError: the disk is full")]


def test_a_killed_worker_is_reported_not_waited_on(fakes, qtbot, tmp_path):
    application()
    marker = tmp_path / "pid"
    job = Job(fakes.slow, {"steps": 1000, "pause": 0.05, "marker": str(marker)})
    seen = _outcome(job)
    job.start()
    qtbot.waitUntil(marker.exists, timeout=20000)
    os.kill(job.pid, 9)
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    assert seen == [("failed", "the worker process was killed (SIGKILL)")]


def test_template_build_runs_in_the_worker(qtbot, monkeypatch):
    application()
    started: list[Job] = []
    original = Job.start
    monkeypatch.setattr(template_dialog.Job, "start", lambda job: (started.append(job), original(job)))
    dialog = TemplateDialog()
    qtbot.addWidget(dialog)
    dialog.template.setCurrentIndex(dialog.template.findData("pod"))
    dialog.nodes.setValue(8)
    dialog.accept()
    doc = dialog.document()
    assert doc is not None and len(doc.links_in("compute")) == 8 * 8  # 64 GPU ports: one leaf, no spine
    assert started and started[0].pid != os.getpid() and dialog.result() == TemplateDialog.DialogCode.Accepted


def test_template_build_can_be_cancelled(fakes, qtbot, tmp_path, monkeypatch):
    """Cancel from the build's first progress message, while the worker is held right after it
    (job_fakes.template_held): the worker is mid-build whatever the machine's speed."""
    application()
    monkeypatch.setattr(template_dialog, "run_template", fakes.template_held)
    started: list[Job] = []
    original = Job.start
    monkeypatch.setattr(template_dialog.Job, "start", lambda job: (started.append(job), original(job)))
    dialog = TemplateDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.template.setCurrentIndex(dialog.template.findData("hall"))
    dialog.nodes.setValue(64)
    messages: list[str] = []

    def cancel_on_first_message(_fraction: float, text: str) -> None:
        messages.append(text)
        if len(messages) == 1:  # Cancel as a click does, from the event loop, while the worker holds
            QTimer.singleShot(0, dialog.reject)

    QTimer.singleShot(0, lambda: started[0].progressed.connect(cancel_on_first_message))
    began = time.monotonic()
    dialog.accept()
    assert messages and messages[0].startswith("Laying out 64 nodes"), messages
    assert time.monotonic() - began < fakes.HOLD_S / 2  # the held worker was stopped, not waited for
    assert dialog.document() is None and dialog.error.text() == "Cancelled: no plan was made."
    assert dialog.isVisible() and dialog.create_button.isEnabled()
    with pytest.raises(ProcessLookupError):
        os.kill(started[0].pid, 0)
    assert dialog.grab().save(str(tmp_path / "template-dialog-cancelled.png"))


def test_verify_runs_in_the_worker_and_brings_the_result_back(window, qtbot, tmp_path, monkeypatch):
    written: list[str] = []
    real = asbuilt_attach.plan_input
    monkeypatch.setattr(asbuilt_attach, "plan_input", lambda doc: written.append(real(doc)) or written[-1])
    doc = window.session.doc
    links = list(doc.links.values())
    lines = ["a_device,a_port,b_device,b_port"] + [
        f"{doc.hostname(doc.devices[link.a_device])},{link.a_port},{doc.hostname(doc.devices[link.b_device])},"
        f"{link.b_port}" for link in links[1:]]
    (tmp_path / "links.csv").write_text("\n".join(lines) + "\n")
    dialog = VerifyDialog(window)
    qtbot.addWidget(dialog)
    dialog.edits["links"].setText(str(tmp_path / "links.csv"))
    dialog.run()
    result = dialog.verification
    # the file holds every cable but the first, a compute one; the power cords and hoses in it are the
    # plan's (checked by no discovery): not counted, and not unexpected either
    compute = doc.links_in("compute")
    assert links[0].id in compute and len(compute) < len(links)
    assert result is not None and result.networks == ["compute"]
    assert result.summary == {"planned": len(compute), "ok": len(compute) - 1, "miswired": 0, "missing": 1,
                              "unexpected": 0}
    assert [c.link_id for c in result.cables if c.status == "missing"] == [links[0].id]
    assert written and not os.path.exists(written[0])  # the worker's copy of the plan is gone


def test_the_template_dialog_states_the_limits_the_templates_take(qtbot):
    """The dialog's limits are the templates' own (``MAX_NODES``, the same the command line's
    ``new --nodes`` help prints), not a number of its own (it said "up to 4,096 nodes")."""
    from planner.cli import build_parser
    from planner.layout.templates import HALL_NODES_64_PORT, MAX_NODES, TEMPLATES

    dialog = TemplateDialog()
    qtbot.addWidget(dialog)
    shown = {dialog.template.itemData(i): dialog.template.itemText(i) for i in range(dialog.template.count())}
    assert set(shown) == set(TEMPLATES)
    for key, text in shown.items():
        assert f"up to {MAX_NODES[key]:,} nodes" in text
    assert "16,384" in shown["hall"] and f"{HALL_NODES_64_PORT:,} on 64-port switches" in shown["hall"]
    assert "4,096" not in " ".join(shown.values())
    dialog.template.setCurrentIndex(dialog.template.findData("hall"))
    assert dialog.nodes.maximum() == MAX_NODES["hall"]
    new = build_parser()._subparsers._group_actions[0].choices["new"]
    nodes_help = " ".join(next(a.help for a in new._actions if "--nodes" in a.option_strings).split())
    assert f"hall ≤ {HALL_NODES_64_PORT:,} with 64-port switches, ≤ {MAX_NODES['hall']:,}" in nodes_help
