"""The main window: opens on the example, menus and docks, title with modified mark, extensions."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDockWidget, QMessageBox

from planner.commands import SetFields
from planner.io import load
from planner.ui import main_window as main_window_module
from planner.ui.app import application, load_example, open_window
from planner.ui.main_window import MainWindow
from planner.ui.session import DocumentSession


@dataclass
class Answers:
    """What the patched QMessageBox answers, and what it was asked."""

    warning: QMessageBox.StandardButton = QMessageBox.StandardButton.Cancel
    question: QMessageBox.StandardButton = QMessageBox.StandardButton.Ignore
    asked: list[tuple[str, str]] = field(default_factory=list)


def patch_message_boxes(monkeypatch) -> Answers:
    answers = Answers()

    def warning(_parent, title, text, *_args):
        answers.asked.append((title, text))
        return answers.warning

    def question(_parent, title, text, *_args):
        answers.asked.append((title, text))
        return answers.question

    def critical(_parent, title, text, *_args):
        answers.asked.append((title, text))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(warning))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(critical))
    return answers


SHELL_HALL = Path(__file__).resolve().parents[1] / "data" / "shell_hall.hall"


def shell_window() -> MainWindow:
    """A window on the test hall (3 racks of 4 nodes and a PDU, A/B busbars, a row CDU), untitled."""
    application()
    return MainWindow(DocumentSession(load(SHELL_HALL)))


def example_window() -> MainWindow:
    application()
    window = open_window(None)
    assert window is not None
    return window


def dispose(window: MainWindow) -> None:
    """Close without prompts (tests leave unsaved edits behind)."""
    window.session.undo_stack.setClean()
    window.close()
    window.deleteLater()


@pytest.fixture
def window(qtbot, monkeypatch):
    patch_message_boxes(monkeypatch)
    win = shell_window()
    win.show()
    yield win
    dispose(win)


def test_window_opens_on_the_example_as_an_untitled_copy(qtbot, monkeypatch):
    patch_message_boxes(monkeypatch)
    window = example_window()
    try:
        example = load_example()
        doc = window.session.doc
        assert doc.meta == example.meta and set(doc.racks) == set(example.racks) and doc.racks
        assert window.files.path is None
        assert window.windowTitle().startswith("Example hall (unsaved copy)[*]")
        assert not window.isWindowModified()
    finally:
        dispose(window)


def test_window_has_the_menus_docks_and_canvas(window):
    titles = [a.text() for a in window.menuBar().actions()]
    assert titles == ["&File", "&Edit", "&View", "&Plan", "&Help"]
    docks = {d.windowTitle() for d in window.findChildren(QDockWidget)}
    assert {"Equipment", "Properties", "Rack elevation", "Undo history"} <= docks
    assert window.centralWidget() is window.plan_view


def test_modified_mark_follows_the_undo_stack(window):
    window.session.push(SetFields({"rack-1": {"name": "RX"}}, text="Rename"))
    assert window.isWindowModified()
    window.undo_action.trigger()
    assert window.session.doc.racks["rack-1"].name == "R01"
    assert not window.isWindowModified()
    window.redo_action.trigger()
    assert window.session.doc.racks["rack-1"].name == "RX" and window.isWindowModified()


def test_edit_menu_lists_undo_redo_and_the_canvas_actions(window):
    edit = window.menu("&Edit")
    texts = [a.text().replace("&", "") for a in edit.actions() if not a.isSeparator()]
    assert texts[0].startswith("Undo") and texts[1].startswith("Redo")
    assert window.undo_action.shortcut().toString() == "Ctrl+Z"
    assert window.redo_action.shortcut().toString() == "Ctrl+Shift+Z"
    assert any(t.lower() == "select all" for t in texts)
    assert any(t.startswith("Delete") for t in texts)


def test_status_bar_shows_cursor_in_metres(window):
    window.plan_view.cursor_moved.emit(12.345, 4.8)
    assert window._cursor_label.text() == "x   12.35 m   y    4.80 m"
    window.session.doc.basis.units = "imperial"
    window.plan_view.cursor_moved.emit(3.048, 0.3048)
    assert window._cursor_label.text() == "x   10.00 ft   y    1.00 ft"


def test_menu_creates_new_menus_once_and_add_dock_lists_the_toggle(window):
    assert window.menu("Help") is window.menu("&Help")
    tools = window.menu("&Tools")
    assert window.menu("&Tools") is tools
    dock = QDockWidget("Findings")
    window.add_dock(dock)
    assert dock.objectName() == "findings"
    assert dock.toggleViewAction() in window._docks_menu.actions()


def test_extensions_are_attached_when_a_window_opens(qtbot, monkeypatch):
    import sys
    import types

    attached = []
    module = types.ModuleType("planner_test_extension")
    module.attach = lambda win: attached.append(win)
    monkeypatch.setitem(sys.modules, "planner_test_extension", module)
    monkeypatch.setattr(main_window_module, "EXTENSIONS", [*main_window_module.EXTENSIONS, "planner_test_extension"])
    patch_message_boxes(monkeypatch)
    win = example_window()
    try:
        assert attached == [win]
    finally:
        dispose(win)


# ------------------------------------------------------------------ files
def _patch_file_dialogs(monkeypatch, save_to=None, open_from=None):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(save_to), "")))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(open_from), "")))


def test_save_as_then_reopen_through_the_file_menu(window, tmp_path, monkeypatch):
    answers = patch_message_boxes(monkeypatch)
    target = tmp_path / "plan"  # the .hall suffix is added
    _patch_file_dialogs(monkeypatch, save_to=target)
    window.session.push(SetFields({"rack-1": {"name": "R-SAVED"}}, text="Rename"))
    window.save_action.trigger()  # untitled: Save asks for a path
    saved = tmp_path / "plan.hall"
    assert saved.is_file() and window.files.path == saved.resolve()
    assert window.windowTitle().startswith("plan.hall[*]") and not window.isWindowModified()
    assert not answers.asked

    window.session.push(SetFields({"rack-1": {"name": "R-UNSAVED"}}, text="Rename"))
    answers.warning = QMessageBox.StandardButton.Discard
    _patch_file_dialogs(monkeypatch, open_from=saved)
    window.open_action.trigger()
    assert answers.asked and answers.asked[0][0] == "Unsaved changes"
    assert window.session.doc.racks["rack-1"].name == "R-SAVED"
    assert not window.isWindowModified() and window.session.undo_stack.count() == 0
    assert str(saved.resolve()) in window.files.recent_files()


def test_save_writes_in_place_and_keeps_a_backup(window, tmp_path, monkeypatch):
    path = tmp_path / "hall.hall"
    _patch_file_dialogs(monkeypatch, save_to=path)
    window.save_as_action.trigger()
    window.session.push(SetFields({"rack-2": {"notes": "checked"}}, text="Note"))
    window.save_action.trigger()
    assert (tmp_path / "hall.hall.bak").is_file()
    assert '"notes": "checked"' in path.read_text(encoding="utf-8")


def test_a_bad_file_shows_one_message_and_leaves_the_plan_untouched(window, tmp_path, monkeypatch):
    answers = patch_message_boxes(monkeypatch)
    bad = tmp_path / "bad.hall"
    bad.write_text('{"format": "hall", "version": 1, "racks": [{"id": "rack-1"}]}', encoding="utf-8")
    doc_before = window.session.doc
    window.session.push(SetFields({"rack-1": {"name": "KEEP"}}, text="Rename"))
    assert window.files.open_path(bad, ask=False) is False
    assert window.session.doc is doc_before and doc_before.racks["rack-1"].name == "KEEP"
    assert window.isWindowModified() and window.session.undo_stack.count() == 1
    assert len(answers.asked) == 1
    title, text = answers.asked[0]
    assert title == "Cannot open plan" and "$.racks[0].type" in text and "bad.hall" in text


def test_closing_with_unsaved_changes_asks(window, tmp_path, monkeypatch):
    answers = patch_message_boxes(monkeypatch)
    window.session.push(SetFields({"rack-1": {"name": "RX"}}, text="Rename"))
    answers.warning = QMessageBox.StandardButton.Cancel
    assert window.close() is False and window.isVisible()
    answers.warning = QMessageBox.StandardButton.Save
    _patch_file_dialogs(monkeypatch, save_to=tmp_path / "closing.hall")
    assert window.close() is True
    assert [t for t, _ in answers.asked] == ["Unsaved changes", "Unsaved changes"]
    assert '"name": "RX"' in (tmp_path / "closing.hall").read_text(encoding="utf-8")


def test_new_hall_asks_then_starts_an_empty_plan(window, monkeypatch):
    from planner.ui.dialogs.hall_features import HallFeaturesDialog
    from planner.ui.dialogs.new_hall import NewHallDialog

    answers = patch_message_boxes(monkeypatch)
    answers.warning = QMessageBox.StandardButton.Discard
    window.session.push(SetFields({"rack-1": {"name": "RX"}}, text="Rename"))

    def fill(dialog):
        dialog.width_m.setValue(20)
        dialog.depth_m.setValue(12)
        dialog.rating_kpa.setValue(15)
        return NewHallDialog.DialogCode.Accepted

    monkeypatch.setattr(NewHallDialog, "exec", fill)
    features_opened = []
    monkeypatch.setattr(HallFeaturesDialog, "exec", lambda d: features_opened.append(d) or 0)
    window.new_action.trigger()
    doc = window.session.doc
    assert not doc.racks and doc.outline == [(0.0, 0.0), (20.0, 0.0), (20.0, 12.0), (0.0, 12.0)]
    (zone,) = doc.zones.values()
    assert zone.rating_kpa == 15 and zone.polygon == doc.outline
    assert features_opened and window.files.path is None and not window.isWindowModified()
    assert window.windowTitle().startswith("Untitled[*]")


def test_new_hall_with_a_drawn_outline_is_one_undo_step(window, monkeypatch):
    from planner.ui.dialogs.hall_features import HallFeaturesDialog
    from planner.ui.dialogs.new_hall import NewHallDialog

    def fill(dialog):
        dialog.polygon.setChecked(True)
        return NewHallDialog.DialogCode.Accepted

    monkeypatch.setattr(NewHallDialog, "exec", fill)
    monkeypatch.setattr(HallFeaturesDialog, "exec", lambda d: 0)
    started = []
    monkeypatch.setattr(window.plan_view, "start_polygon_capture", lambda: started.append(True))
    window.new_action.trigger()
    assert started and window.session.doc.outline == []
    window.plan_view.polygon_captured.emit([(-1.2, 0.6), (8.8, 0.6), (8.8, 8.6), (2.8, 12.6), (-1.2, 8.6)])
    doc = window.session.doc
    assert doc.outline == [(0.0, 0.0), (10.0, 0.0), (10.0, 8.0), (4.0, 12.0), (0.0, 8.0)]  # NW corner at origin
    assert len(doc.zones) == 1
    assert window.session.undo_stack.count() == 1
    window.undo_action.trigger()
    assert doc.outline == [] and not doc.zones
    window.plan_view.polygon_captured.emit([(0, 0), (5, 0), (5, 5)])  # a later capture is not an outline
    assert doc.outline == [] and window.session.undo_stack.count() == 1


# --------------------------------------------------------------- recovery
def test_recovery_copy_is_written_offered_and_removed(window, monkeypatch, qtbot):
    from planner.ui.app import offer_recovery
    from planner.ui.recovery import orphaned_copies, recovery_dir

    answers = patch_message_boxes(monkeypatch)
    autosaver = window.files.autosaver
    autosaver.idle_s = 0.2
    assert autosaver.write_if_needed() is False  # nothing to save yet
    window.session.push(SetFields({"rack-3": {"name": "R-CRASH"}}, text="Rename"))
    assert autosaver.write_if_needed() is False  # just edited: waits until the plan is left alone
    qtbot.waitUntil(autosaver.plan_path.is_file, timeout=3000)
    assert autosaver.plan_path.parent == recovery_dir() and autosaver.plan_path.is_file()
    assert orphaned_copies() == []  # the live window still holds its lock

    autosaver._lock.unlock()  # the process "dies": its lock is gone, the copy stays
    answers.question = QMessageBox.StandardButton.Open
    recovered = open_window(None)
    try:
        assert recovered is not None and recovered.session.doc.racks["rack-3"].name == "R-CRASH"
        assert recovered.isWindowModified()
        assert recovered.windowTitle().startswith("Recovered plan[*]")
        assert "did not close properly" in answers.asked[-1][1]
        assert not autosaver.plan_path.exists()  # the offered copy was taken over
        assert recovered.files.autosaver.plan_path.is_file()  # and re-protected at once
    finally:
        dispose(recovered)
    assert not recovered.files.autosaver.plan_path.exists()
    assert offer_recovery() is None


def test_saving_removes_the_recovery_copy(window, tmp_path, monkeypatch):
    _patch_file_dialogs(monkeypatch, save_to=tmp_path / "safe.hall")
    window.session.push(SetFields({"rack-3": {"name": "R-SAFE"}}, text="Rename"))
    window.files.autosaver.write_now()
    assert window.files.autosaver.plan_path.is_file()
    window.save_action.trigger()
    assert not window.files.autosaver.plan_path.exists()


# -------------------------------------------------------------- packaging
def test_screenshot_script_renders_the_main_window(tmp_path, qapp):
    import importlib.util
    from pathlib import Path

    from PySide6.QtGui import QImage

    script = Path(__file__).resolve().parents[2] / "packaging" / "screenshot.py"
    spec = importlib.util.spec_from_file_location("screenshot", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = module.render(tmp_path / "shot.png")
    image = QImage(str(out))
    assert (image.width(), image.height()) == module.SIZE


def test_start_with_a_file_or_refuse_an_unreadable_one(tmp_path, qtbot, monkeypatch):
    from planner.io import save

    answers = patch_message_boxes(monkeypatch)
    path = tmp_path / "site.hall"
    save(load_example(), path)
    win = open_window(str(path))
    try:
        assert win.files.path == path.resolve() and win.windowTitle().startswith("site.hall[*]")
        win._fill_recent_menu()
        assert [a.text() for a in win.recent_menu.actions()] == ["site.hall"]
    finally:
        dispose(win)
    (tmp_path / "broken.hall").write_text("{", encoding="utf-8")
    assert open_window(str(tmp_path / "broken.hall")) is None
    assert answers.asked[-1][0] == "Cannot open plan" and "not valid JSON" in answers.asked[-1][1]


def test_ctrl_z_and_ctrl_shift_z_undo_and_redo_from_the_keyboard(window, qtbot):
    from PySide6.QtCore import Qt

    window.activateWindow()
    qtbot.waitActive(window)
    window.session.push(SetFields({"rack-2": {"name": "RK"}}, text="Rename"))
    window.plan_view.setFocus()
    qtbot.keyClick(window.plan_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session.doc.racks["rack-2"].name == "R02"
    qtbot.keyClick(window.plan_view, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.session.doc.racks["rack-2"].name == "RK"


def test_locks_of_ended_sessions_without_a_copy_are_cleared(tmp_path, qapp):
    from PySide6.QtCore import QSysInfo

    from planner.ui.recovery import orphaned_copies

    # a lock as QLockFile writes it (pid, app name, host) for a process that no longer runs
    (tmp_path / "gone.lock").write_text(f"999999999\nplanner\n{QSysInfo.machineHostName()}\n", encoding="utf-8")
    assert orphaned_copies(tmp_path) == []
    assert not (tmp_path / "gone.lock").exists()


def test_plan_menu_dialogs_push_one_command_each(window, monkeypatch):
    from planner.ui.dialogs.custom_type import CustomTypeDialog
    from planner.ui.dialogs.hall_features import HallFeaturesDialog
    from planner.ui.dialogs.title_block import TitleBlockDialog

    def define(dialog):
        dialog.set_kind("storage")
        dialog.name.setText("Archive node 4U")
        dialog.boxes["width_m"].setValue(0.44)
        dialog.boxes["depth_m"].setValue(0.8)
        dialog.boxes["height_u"].setValue(4)
        dialog.boxes["weight_kg"].setValue(40)
        dialog.boxes["power_w"].setValue(1.2)  # kW
        dialog.boxes["power_peak_w"].setValue(1.5)
        dialog.source.setPlainText("Vendor datasheet")
        dialog.accept()
        return dialog.result()

    def retitle(dialog):
        dialog.edits["revision"].setText("C")
        return TitleBlockDialog.DialogCode.Accepted

    def add_column(dialog):
        dialog.obstacles.add_row(None, ["C9", "column", 20.0, 15.0, 20.6, 15.6])
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(CustomTypeDialog, "exec", define)
    monkeypatch.setattr(TitleBlockDialog, "exec", retitle)
    monkeypatch.setattr(HallFeaturesDialog, "exec", add_column)
    texts = {a.text(): a for a in window.menu("&Plan").actions()}
    for name in ("&Define equipment type…", "&Title block…", "&Hall features…"):
        texts[name].trigger()
    doc = window.session.doc
    assert doc.catalog["custom-archive-node-4u"].custom and doc.meta.revision == "C"
    assert any(o.name == "C9" for o in doc.obstacles.values())
    assert window.session.undo_stack.count() == 3 and window.isWindowModified()


def test_a_file_that_does_not_exist_is_offered_as_a_new_hall(tmp_path, qtbot, monkeypatch):
    from planner.ui.dialogs.new_hall import NewHallDialog

    answers = patch_message_boxes(monkeypatch)
    path = tmp_path / "new site.hall"
    answers.question = QMessageBox.StandardButton.Cancel
    assert open_window(str(path)) is None  # declined: nothing opened, nothing written
    assert answers.asked[-1][0] == "Create plan" and "new site.hall does not exist" in answers.asked[-1][1]
    answers.question = QMessageBox.StandardButton.Yes
    monkeypatch.setattr(NewHallDialog, "exec", lambda self: NewHallDialog.DialogCode.Accepted)
    win = open_window(str(path))
    try:
        assert win.files.path == path.resolve() and win.isWindowModified()
        assert win.session.doc.outline and not path.exists()
        win.files.save()
        assert path.exists() and load(path).outline == win.session.doc.outline
        assert not win.isWindowModified()
    finally:
        dispose(win)
