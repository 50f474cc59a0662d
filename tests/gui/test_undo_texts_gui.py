"""Issue 10/11 loose end: the undo history of plan gestures reads like a change list (the texts of
planner/ui/plan/editing.py and the edits it calls), on the bundled example."""

from __future__ import annotations

import pytest

from planner.commands import SetFields


@pytest.fixture
def view(make_view, example_doc):
    return make_view(example_doc)


def texts(view) -> list[str]:
    stack = view.session.undo_stack
    return [stack.text(i) for i in range(stack.count())]


def rack_id(doc, name: str) -> str:
    return next(r.id for r in doc.racks.values() if r.name == name)


def test_plan_gestures_leave_a_readable_history(view):
    session = view.session
    doc = session.doc
    r09 = rack_id(doc, "R09")
    session.select({r09})
    view.editor.copy()
    view.editor.paste(at=(1.2, 4.8))
    pasted = doc.racks[next(iter(session.selection))]
    session.select({pasted.id})
    view.editor.nudge(1, 0)
    view.editor.rotate()
    view.editor.duplicate()
    session.select({rack_id(doc, "R02"), rack_id(doc, "R03")})
    view.editor.nudge(0, 1)
    session.push(SetFields({r: {"feed_a": None} for r in (rack_id(doc, "R02"), rack_id(doc, "R03"))}, "Clear"))
    view.editor.assign("bus-1", [rack_id(doc, "R02"), rack_id(doc, "R03")])
    racks = view.editor.row_racks("rack-600x1200-48u", 0.6, 5.1, 3.0, 5.1)
    view.editor.add_row(racks)
    session.select({pasted.id})
    view.editor.delete()
    assert texts(view) == [
        "Paste R10", "Move R10", "Rotate R10 90°", "Duplicate R10 as R11", "Move 2 racks", "Clear",
        "Assign 2 racks to feed A BB-A01",
        f"Add row 2 of {len(racks)} racks (R12–R{11 + len(racks)})",
        f"Delete R10 ({len(doc.devices_in(r09))} devices)",
    ]
