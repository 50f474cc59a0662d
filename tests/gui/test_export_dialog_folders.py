"""Folder exports in File ▸ Export (the NetBox set): a folder is picked, not a file; a folder with
files in it is replaced only when the user says so; and File ▸ Import from NetBox… opens a set as a
new plan, leaving the open one alone when the folder does not read."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from planner.export.options import ExportOptions
from planner.export.registry import export_to
from planner.layout.templates import build_template
from planner.ui.app import application
from planner.ui.jobs.export_dialog import ExportDialog
from planner.ui.jobs.netbox_attach import import_from_netbox
from planner.ui.main_window import MainWindow
from planner.ui.session import DocumentSession


@pytest.fixture
def window(qtbot):
    application()
    win = MainWindow(DocumentSession(build_template("starter")))
    qtbot.addWidget(win)
    yield win
    win.session.undo_stack.setClean()
    win.close()


def pick(monkeypatch, folder: Path | str) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *_a, **_k: str(folder)))


def test_a_folder_kind_asks_for_a_folder_named_after_the_set(window, qtbot, tmp_path, monkeypatch):
    dialog = ExportDialog(window, "netbox")
    qtbot.addWidget(dialog)
    assert dialog.folder_kind and Path(dialog.path_edit.text()).name == "plan-netbox"
    assert not dialog.paper_combo.isEnabled()
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    pick(monkeypatch, tmp_path)
    dialog._browse()
    assert dialog.path_edit.text() == str(tmp_path / "plan-netbox")  # in a folder with files: a folder of its own
    empty = tmp_path / "empty"
    empty.mkdir()
    pick(monkeypatch, empty)
    dialog._browse()
    assert dialog.path_edit.text() == str(empty)  # an empty folder becomes the set


def test_a_netbox_set_is_exported_in_the_background(window, qtbot, tmp_path):
    dialog = ExportDialog(window, "netbox")
    qtbot.addWidget(dialog)
    target = tmp_path / "netbox"
    dialog.path_edit.setText(str(target))
    dialog.start_export()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    assert (target / "README.txt").is_file() and (target / "devices.csv").is_file()
    types = [p for p in (target / "shared" / "device-types").glob("*.yaml") if "busbar-tap-off" not in p.name]
    assert len(types) == len({d.type for d in window.session.doc.devices.values()})
    assert "Site 'Starter template, 4 nodes', location 'Hall 1'" in (target / "README.txt").read_text(encoding="utf-8")
    assert "Exported netbox" in window.statusBar().currentMessage()


def test_a_folder_of_other_files_is_never_replaced(window, qtbot, tmp_path, no_blocking_prompts):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "precious.txt").write_text("keep", encoding="utf-8")
    dialog = ExportDialog(window, "netbox")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(target))
    dialog.start_export()
    assert dialog.job is None and "holds other files" in dialog.status.text()
    assert [p.name for p in target.iterdir()] == ["precious.txt"]


def test_an_earlier_export_is_replaced_only_when_the_user_agrees(window, qtbot, tmp_path, monkeypatch,
                                                                no_blocking_prompts):
    target = tmp_path / "netbox"
    dialog = ExportDialog(window, "netbox")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(target))
    dialog.start_export()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    (target / "stale.csv").write_text("old", encoding="utf-8")
    dialog.written = None
    dialog.start_export()  # the prompt answers No
    assert no_blocking_prompts[-1][0] == "Replace folder?" and "Not exported" in dialog.status.text()
    assert (target / "stale.csv").exists()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Yes))
    dialog.start_export()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    assert not (target / "stale.csv").exists() and (target / "racks.csv").is_file()


def test_a_plan_netbox_would_refuse_is_reported_in_the_dialog(window, qtbot, tmp_path):
    doc = window.session.doc
    for device in doc.devices.values():
        if device.name in ("N1", "N2"):
            doc.set_fields(device.id, {"hostname": "gpu"})
    dialog = ExportDialog(window, "netbox")
    qtbot.addWidget(dialog)
    dialog.path_edit.setText(str(tmp_path / "netbox"))
    dialog.start_export()
    qtbot.waitUntil(lambda: "failed" in dialog.status.text(), timeout=20000)
    assert "two devices are both called 'gpu'" in dialog.status.text()
    assert list(tmp_path.iterdir()) == []


def test_file_import_from_netbox_opens_the_set_as_a_new_plan(window, tmp_path, monkeypatch, no_blocking_prompts):
    action = window.findChild(type(window.import_netbox_action), "import-netbox")
    assert action is window.import_netbox_action and action in window.menu("&File").actions()
    doc = build_template("starter")
    doc.meta.project = "Campus"
    export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    pick(monkeypatch, tmp_path / "set")
    action.trigger()
    opened = window.session.doc
    hoses = sum(1 for link in doc.links.values() if link.tier == "coolant-hose")  # NetBox has no hoses
    assert opened.meta.project == "Campus" and len(opened.links) == len(doc.links) - hoses
    assert window.files.path is None and window.files.display_name() == "set.hall"
    title, text = no_blocking_prompts[-1]
    assert title == "Imported from NetBox" and "laid out" in text
    assert "Imported 1 racks" in window.statusBar().currentMessage()


def test_a_folder_that_does_not_read_leaves_the_open_plan(window, tmp_path, no_blocking_prompts):
    before = window.session.doc
    (tmp_path / "racks.csv").write_text("name\nR01\n", encoding="utf-8")
    assert not import_from_netbox(window, str(tmp_path))
    assert window.session.doc is before
    title, text = no_blocking_prompts[-1]
    assert title == "Cannot import from NetBox" and "device-types" in text and "unchanged" in text


def test_the_netbox_site_and_location_are_fields_of_the_dialog(window, qtbot, tmp_path):
    dialog = ExportDialog(window, "netbox")
    qtbot.addWidget(dialog)
    assert (dialog.site_edit.text(), dialog.location_edit.text()) == ("Starter template, 4 nodes", "Hall 1")
    dialog.site_edit.setText("DC West")
    dialog.location_edit.setText("  ")
    options = dialog.options()
    assert (options.site, options.location) == ("DC West", None)  # blank: the title block's hall
    other = ExportDialog(window, "cables-csv")
    qtbot.addWidget(other)
    assert other.site_edit.parentWidget() is None and dialog.site_edit.parentWidget() is dialog  # netbox only
