"""Title block dialog: changed fields only, as one undoable SetAttributes command."""

from __future__ import annotations

from planner.commands import History
from planner.model.document import Document
from planner.ui.dialogs.title_block import TitleBlockDialog


def test_a_revision_bump_is_one_undoable_command(qtbot):
    doc = Document()
    doc.meta.project, doc.meta.revision = "Pod 3", "A"
    dlg = TitleBlockDialog(doc.meta)
    qtbot.addWidget(dlg)
    assert dlg.command() is None
    dlg.edits["revision"].setText("B ")
    dlg.edits["notes"].setPlainText("Issued for review")
    command = dlg.command()
    assert command.values == {"revision": "B", "notes": "Issued for review"}
    history = History(doc)
    change = history.push(command)
    assert change.meta and doc.meta.revision == "B" and doc.meta.project == "Pod 3"
    history.undo()
    assert doc.meta.revision == "A" and doc.meta.notes == ""
