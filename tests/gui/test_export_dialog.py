"""File ▸ Export: the submenu, the dialog's fields, a threaded export, Cancel, and the plan PNG."""

from __future__ import annotations

import io
import time

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QImage

from planner.export import schedule
from planner.export.common import write_atomic
from planner.export.registry import EXPORT_KINDS
from planner.io import load
from planner.resources_access import example_hall_path
from planner.ui.app import application
from planner.ui.export_dialog import PNG_KIND, ExportDialog
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


def test_export_runs_in_a_thread_and_writes_the_document(window, qtbot, tmp_path):
    dialog = ExportDialog(window, "cabling-pdf")
    qtbot.addWidget(dialog)
    target = tmp_path / "plan.pdf"
    dialog.path_edit.setText(str(target))
    dialog.paper_combo.setCurrentText("Letter")
    dialog.revision_edit.setText("R7 <draft>")
    dialog.date_edit.setText("2026-12-24")
    dialog.grab().save(str(tmp_path / "dialog.png"))
    dialog.start_export()
    assert dialog.worker is not None and not dialog.export_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    first = reader.pages[0]
    assert round(float(first.mediabox.height)) == 612  # Letter, landscape
    assert "R7 <draft>" in first.extract_text() and "2026-12-24" in first.extract_text()
    assert dialog.progress.value() == 100
    assert "Exported plan.pdf" in window.statusBar().currentMessage()


def _slow_writer(doc, out, options):
    for step in range(400):
        out.write(b"x" * 100)
        options.report(step / 400)
        time.sleep(0.005)


def test_cancel_stops_the_export_and_leaves_no_file(window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(schedule, "write_csv", _slow_writer)  # the kind imports its writer when it runs
    dialog = ExportDialog(window, "cables-csv")
    qtbot.addWidget(dialog)
    target = tmp_path / "cables.csv"
    dialog.path_edit.setText(str(target))
    dialog.start_export()
    qtbot.waitUntil(lambda: dialog.progress.value() > 5, timeout=5000)
    dialog.cancel()
    qtbot.waitUntil(lambda: dialog.worker is None, timeout=5000)
    assert "Cancelled" in dialog.status.text() and dialog.written is None
    assert list(tmp_path.iterdir()) == []
    assert dialog.export_button.isEnabled()


def test_failed_export_is_reported_not_raised(window, qtbot, tmp_path, monkeypatch):
    def broken(doc, out, options):
        raise ValueError("no rails")

    monkeypatch.setattr(schedule, "write_csv", broken)
    dialog = ExportDialog(window, "cables-csv")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(tmp_path / "c.csv"))
    dialog.start_export()
    qtbot.waitUntil(lambda: "failed" in dialog.status.text(), timeout=5000)
    assert "no rails" in dialog.status.text() and list(tmp_path.iterdir()) == []


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
    assert "Label sheet" in dialog.status.text() and dialog.worker is None
