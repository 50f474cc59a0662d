"""Alt-drag from a busbar assigns only the racks its tap-off whip reaches (P5), and Plan ▸
Generate fabric writes the chosen oversubscription into the design basis in the same undo step."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from planner.commands import edits
from planner.fabric.hall import summary
from planner.layout.templates import build_template
from planner.rules.engine import validate
from planner.ui.fabric.dialog import GenerateFabricDialog
from planner.ui.plan.units import to_scene
from planner.ui.session import DocumentSession


def _at(view, x_m: float, y_m: float) -> QPoint:
    return view.mapFromScene(to_scene(x_m, y_m))


def test_alt_drag_skips_racks_beyond_the_tapoff_whip(make_view, example_doc):
    # the example's BB-A01 runs along y 2.4 m over the racks' fronts (racks y 2.4–3.6 m);
    # a new 0.8 × 1.2 m rack at y 5.3 m spans 4.7–5.9 m: 2.3 m from the run, whip 1.8 m
    view = make_view(example_doc)
    session, doc = view.session, view.session.doc
    session.push(edits.assign(doc, ["rack-2"], "feed_a", None))
    session.push(edits.place_rack(doc, "rack-800x1200-52u", 4.8, 5.3))
    far = next(r for r in doc.racks.values() if r.y == 5.3)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    viewport = view.viewport()
    bus = doc.busbars["bus-1"]
    QTest.mousePress(viewport, Qt.LeftButton, Qt.AltModifier, _at(view, 4.8, bus.y1))
    QTest.mouseMove(viewport, _at(view, 4.8, 3.0))
    QTest.mouseMove(viewport, _at(view, 4.8, 5.3))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.AltModifier, _at(view, 4.8, 5.3))
    assert doc.racks["rack-2"].feed_a == "bus-1"
    assert far.feed_a is None
    assert messages[-1] == f"Assigned 1 rack to feed A BB-A01; skipped {far.name}: beyond the 1.8 m tap-off whip"
    assert session.undo_stack.count() == 3  # one step for the drag
    # only out-of-reach racks swept: nothing assigned, nothing pushed, and the status says why
    view.editor.assign("bus-1", [far.id])
    assert far.feed_a is None and session.undo_stack.count() == 3
    assert messages[-1] == f"No rack assigned to feed A BB-A01; skipped {far.name}: beyond the 1.8 m tap-off whip"


def test_generate_fabric_sets_the_basis_oversubscription_in_one_step(qtbot):
    doc = build_template("pod", 12)
    session = DocumentSession(doc)
    dialog = GenerateFabricDialog(session)
    qtbot.addWidget(dialog)
    dialog.oversubscription.setValue(2.0)
    assert "oversubscription changes from 1:1 to 2:1" in dialog.summary.text()
    asked = []
    dialog.confirm = lambda command: asked.append(summary(command)) or True
    dialog.accept()
    assert len(asked) == 1 and asked[0][0].startswith("cables: kept ")  # the compute fabric's line
    assert session.doc.basis.oversubscription == 2.0
    assert session.undo_stack.count() == 1
    assert not [f for f in validate(session.doc) if f.rule == "N5"]
    session.undo_stack.undo()
    assert session.doc.basis.oversubscription == 1.0
    assert not [f for f in validate(session.doc) if f.rule == "N5"]
