"""File ▸ Export: the submenu, the dialog's fields, an export in a worker process, Cancel, failures,
the selection checkbox and the plan PNG."""

from __future__ import annotations

import io
import os

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QImage

from planner.export.registry import EXPORT_KINDS
from planner.io import load
from planner.io.atomic import TEMP_SUFFIX, write_atomic
from planner.layout.templates import build_template
from planner.resources_access import example_hall_path
from planner.ui.app import application
from planner.ui.jobs import export_dialog
from planner.ui.jobs.export_dialog import PNG_KIND, ExportDialog
from planner.ui.main_window import MainWindow
from planner.ui.session import DocumentSession


@pytest.fixture
def window(qtbot):
    application()
    import importlib.resources

    with importlib.resources.as_file(example_hall_path()) as path:
        doc = load(path)
    win = MainWindow(DocumentSession(doc))
    qtbot.addWidget(win)
    yield win
    win.session.undo_stack.setClean()
    win.close()


def test_file_menu_has_an_export_submenu_with_every_document(window):
    names = [a.objectName() for a in window.export_menu.actions()]
    assert names == [f"export-{key}" for key in EXPORT_KINDS] + [f"export-{PNG_KIND}"]
    file_actions = window.menu("&File").actions()
    assert window.export_menu.menuAction() in file_actions
    assert file_actions.index(window.export_menu.menuAction()) < file_actions.index(window.quit_action)


def test_export_runs_in_a_worker_process_and_writes_the_document(window, qtbot, tmp_path):
    dialog = ExportDialog(window, "cabling-pdf")
    qtbot.addWidget(dialog)
    target = tmp_path / "plan.pdf"
    dialog.path_edit.setText(str(target))
    dialog.paper_combo.setCurrentText("Letter")
    dialog.revision_edit.setText("R7 <draft>")
    dialog.date_edit.setText("2026-12-24")
    dialog.grab().save(str(tmp_path / "dialog.png"))
    dialog.start_export()
    assert dialog.job is not None and dialog.job.pid != os.getpid() and not dialog.export_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    first = reader.pages[0]
    assert round(float(first.mediabox.height)) == 612  # Letter, landscape
    assert "R7 <draft>" in first.extract_text() and "2026-12-24" in first.extract_text()
    assert dialog.progress.value() == 100
    assert "Exported plan.pdf" in window.statusBar().currentMessage()


def test_cancel_mid_export_leaves_no_file_and_no_temporary(qtbot, tmp_path):
    application()
    win = MainWindow(DocumentSession(build_template("hall", nodes=512)))  # 8,192 labels: seconds to write
    qtbot.addWidget(win)
    dialog = ExportDialog(win, "labels-pdf")
    qtbot.addWidget(dialog)
    target = tmp_path / "labels.pdf"
    target.write_bytes(b"the earlier export")
    dialog.path_edit.setText(str(target))
    dialog.start_export()
    staging = next(p for p in tmp_path.iterdir() if p.name.startswith(".export-"))
    qtbot.waitUntil(lambda: 0 < dialog.progress.value() < 90, timeout=60000)
    assert [p.name for p in staging.iterdir() if p.name.endswith(TEMP_SUFFIX)]  # the worker is mid-write
    pid = dialog.job.pid
    dialog.cancel()
    assert dialog.job is None and "Cancelled" in dialog.status.text() and dialog.written is None
    assert [p.name for p in tmp_path.iterdir()] == ["labels.pdf"] and target.read_bytes() == b"the earlier export"
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the worker is gone, not left running
    assert dialog.export_button.isEnabled()
    win.close()


def test_failed_export_is_reported_in_one_line(window, qtbot, tmp_path):
    against = tmp_path / "old.hall"
    against.write_text("{ not a plan", encoding="utf-8")
    dialog = ExportDialog(window, "review-pdf")
    qtbot.addWidget(dialog)
    dialog.against_edit.setText(str(against))
    dialog.path_edit.setText(str(tmp_path / "review.pdf"))
    dialog.start_export()
    qtbot.waitUntil(lambda: "failed" in dialog.status.text(), timeout=20000)
    assert "\n" not in dialog.status.text() and "line 1" in dialog.status.text()
    assert [p.name for p in tmp_path.iterdir()] == ["old.hall"] and dialog.export_button.isEnabled()


def test_a_killed_worker_is_reported_and_leaves_nothing(qtbot, tmp_path):
    application()
    win = MainWindow(DocumentSession(build_template("hall", nodes=512)))
    qtbot.addWidget(win)
    dialog = ExportDialog(win, "labels-pdf")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(tmp_path / "labels.pdf"))
    dialog.start_export()
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=60000)
    os.kill(dialog.job.pid, 9)
    qtbot.waitUntil(lambda: dialog.job is None, timeout=10000)
    assert dialog.status.text() == "Export failed: the worker process was killed (SIGKILL)"
    assert list(tmp_path.iterdir()) == [] and dialog.written is None
    win.close()


def test_only_the_selected_racks_goes_to_the_worker_as_rack_ids(window, qtbot, tmp_path, monkeypatch):
    doc = window.session.doc
    racks = sorted(doc.racks)[:2]
    device = next(d for d in doc.devices.values() if d.rack not in racks)
    window.session.select([*racks, device.id])
    dialog = ExportDialog(window, "labels-pdf")
    qtbot.addWidget(dialog)
    box = dialog.racks_box
    assert box.parentWidget() is dialog and box.isEnabled() and not box.isChecked()
    assert box.text() == "Only the 3 selected racks"
    assert dialog.options().racks is None  # unticked: the whole hall
    box.setChecked(True)
    payloads = []
    monkeypatch.setattr(export_dialog.Job, "start", lambda job: payloads.append(job.payload))
    dialog.path_edit.setText(str(tmp_path / "labels.pdf"))
    dialog.start_export()
    assert payloads[0].options.racks == frozenset([*racks, device.rack]) and payloads[0].kind == "labels-pdf"
    window.session.select([])
    bare = ExportDialog(window, "cabling-pdf")
    qtbot.addWidget(bare)
    assert not bare.racks_box.isEnabled() and "select racks" in bare.racks_box.text()
    csv = ExportDialog(window, "cables-csv")
    qtbot.addWidget(csv)
    assert csv.racks_box.parentWidget() is None  # not a paper kind: no such choice


def test_png_of_the_plan_renders_the_scene_with_a_footer(window, qtbot, tmp_path):
    dialog = ExportDialog(window, PNG_KIND)
    qtbot.addWidget(dialog)
    target = tmp_path / "plan.png"
    dialog.path_edit.setText(str(target))
    assert not dialog.paper_combo.isEnabled()
    dialog.start_export()
    image = QImage(str(target))
    assert not image.isNull() and image.width() > 1000
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 37) for y in range(0, image.height(), 37)}
    assert len(colours) > 3


def test_atomic_write_keeps_the_old_file_on_failure(tmp_path):
    target = tmp_path / "keep.csv"
    target.write_text("old")

    def fail(out):
        out.write(b"partial")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        write_atomic(target, fail)
    assert target.read_text() == "old" and len(list(tmp_path.iterdir())) == 1


def test_label_sheet_field_sets_the_grid(window, qtbot, tmp_path):
    dialog = ExportDialog(window, "labels-pdf")
    qtbot.addWidget(dialog)
    dialog.sheet_edit.setText("2x7:99.1x38.1")
    assert dialog.options().label_sheet.per_sheet == 14
    dialog.sheet_edit.setText("two by seven")
    dialog.path_edit.setText(str(tmp_path / "labels.pdf"))
    dialog.start_export()
    assert "Label sheet" in dialog.status.text() and dialog.job is None
