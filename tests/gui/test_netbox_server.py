"""File ▸ Push to NetBox… and Pull from NetBox… against the fake NetBox 4.6 (tests/netbox_fake), the
push and pull running in the worker process as a user runs them: a push creates the site and puts
the NetBox ids into the plan as one undoable edit; a dry run writes nothing and records nothing;
a pull laid onto the pushed plan opens a new plan in which what was changed in NetBox is changed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the fake (--import-mode=importlib)
from netbox_fake import FakeNetBox

from planner.layout.templates import build_template
from planner.model.networks import network_of
from planner.ui.jobs.netbox_server import NetBoxServerDialog


@pytest.fixture
def fake():
    with FakeNetBox() as server:
        yield server


@pytest.fixture
def token_file(fake, tmp_path) -> Path:
    path = tmp_path / "token"
    path.write_text(fake.token + "\n", encoding="utf-8")
    return path


@pytest.fixture
def window(make_window):
    doc = build_template("pod", nodes=8)
    doc.meta.project = "Window pod"
    return make_window(doc)


def dialog_for(window, fake, token_file, pulling: bool) -> NetBoxServerDialog:
    dialog = NetBoxServerDialog(window, pulling)
    dialog.url.setText(fake.url)
    dialog.token_file.setText(str(token_file))
    return dialog


def test_the_file_menu_has_push_and_pull(window):
    names = [a.objectName() for a in window.menu("&File").actions()]
    assert {"push-netbox", "pull-netbox", "import-netbox"} <= set(names)
    assert window.netbox_push_action.objectName() == "push-netbox"


def test_a_push_from_the_window_records_the_ids_as_one_undoable_edit(window, fake, token_file):
    dialog = dialog_for(window, fake, token_file, pulling=False)
    assert dialog.site.text() == "Window pod"
    dialog.run()
    doc = window.session.doc
    assert dialog.error.text() == ""
    assert "created" in dialog.summary.toPlainText() and not dialog.summary.isHidden()
    devices = {d["name"] for d in fake.store.data["dcim/devices"].values()}
    assert devices == {doc.hostname(d) for d in doc.devices.values()} | {u.name for u in doc.floor_units.values()}
    assert doc.netbox.url == fake.url and doc.netbox.site == "Window pod"
    assert all(fake.store.data["dcim/devices"][doc.netbox.ids[d.id]]["name"] == doc.hostname(d)
               for d in doc.devices.values())
    assert window.session.undo_stack.undoText() == "Record NetBox ids"
    window.session.undo_stack.undo()
    assert not window.session.doc.netbox


def test_a_dry_run_writes_nothing_and_records_nothing(window, fake, token_file):
    dialog = dialog_for(window, fake, token_file, pulling=False)
    dialog.dry_run.setChecked(True)
    dialog.run()
    assert "Dry run" in dialog.status.text() and "would" in dialog.summary.toPlainText().lower()
    assert not [r for r in fake.requests if r.method != "GET"]
    assert not window.session.doc.netbox and window.session.undo_stack.count() == 0


def test_transceivers_can_be_left_out_of_a_push(window, fake, token_file):
    dialog = dialog_for(window, fake, token_file, pulling=False)
    assert dialog.modules.isChecked() and not dialog.modules.isHidden()
    dialog.modules.setChecked(False)
    dialog.run()
    assert dialog.error.text() == "" and not fake.store.data["dcim/modules"]
    assert "transceiver modules left out" in dialog.summary.toPlainText()
    assert NetBoxServerDialog(window, True).modules.isHidden()  # a pull has none to leave out


def test_a_wrong_token_is_one_line_in_the_dialog(window, fake, tmp_path):
    wrong = tmp_path / "wrong"
    wrong.write_text("f" * 40 + "\n", encoding="utf-8")
    dialog = dialog_for(window, fake, wrong, pulling=False)
    dialog.run()
    assert "403" in dialog.error.text() and "\n" not in dialog.error.text()
    assert not window.session.doc.netbox


def test_a_pull_onto_the_pushed_plan_opens_it_with_netbox_s_edits(window, fake, token_file, no_blocking_prompts):
    dialog_for(window, fake, token_file, pulling=False).run()
    pushed = window.session.doc
    cable = min((link for link in pushed.links.values() if network_of(link) == "compute"), key=lambda l: l.id)
    fake.store.delete("dcim/cables", [{"id": pushed.netbox.ids[cable.id]}])
    dialog = dialog_for(window, fake, token_file, pulling=True)
    assert dialog.onto.isChecked() and dialog.site.text() == "Window pod"
    dialog.run()
    opened = window.session.doc
    assert opened is not pushed and cable.id not in opened.links
    assert set(opened.links) == set(pushed.links) - {cable.id}
    assert opened.outline == pushed.outline and opened.racks.keys() == pushed.racks.keys()
    assert window.files.path is None and window.files.display_name() == "Window pod.hall"
    title, text = no_blocking_prompts[-1]
    assert title == "Pulled from NetBox" and "1 taken out in NetBox" in text


def test_file_import_reads_netbox_s_own_export_downloads(window, no_blocking_prompts):
    from planner.ui.jobs.netbox_attach import import_from_netbox

    folder = Path(__file__).resolve().parents[1] / "data" / "netbox_export" / "pod-32"
    assert import_from_netbox(window, str(folder))
    opened = window.session.doc
    assert (len(opened.racks), len(opened.devices), len(opened.floor_units), len(opened.links)) == (9, 144, 1, 1179)
    assert opened.meta.project == "CDU pod session" and window.files.display_name() == "pod-32.hall"
    title, text = no_blocking_prompts[-1]
    assert title == "Imported from NetBox" and "1 floor unit(s)" in text
