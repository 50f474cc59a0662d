"""P6 and C7 (planner/rules/references.py): references right in kind but wrong in detail, which
an edit can make after the assignment was right, are findings (not load errors), with names,
live after the edit that makes them and gone after its undo."""

from __future__ import annotations

from planner.commands import History, SetFields
from planner.io import dumps, loads
from planner.rules.engine import Validator, validate


def _rule(findings, rule_id):
    return [f for f in findings if f.rule == rule_id]


def test_a_feed_on_the_other_sides_busbar_is_p6(example_doc):
    rack = next(r for r in example_doc.racks.values() if r.feed_a and r.feed_b)
    bus_a = example_doc.busbars[rack.feed_a]
    validator = Validator(example_doc)
    assert _rule(validator.findings, "P6") == []
    history = History(example_doc)
    validator.update(history.push(SetFields({bus_a.id: {"side": "B"}}, text="Move busbar to side B")))
    found = _rule(validator.findings, "P6")
    on_it = sorted(r.id for r in example_doc.racks.values() if r.feed_a == bus_a.id)
    assert sorted(f.subjects[0] for f in found) == on_it
    mine = next(f for f in found if f.subjects == (rack.id, bus_a.id))
    assert mine.severity == "error"
    assert mine.message == (f"{rack.name}: feed A is busbar {bus_a.name}, a side-B run; assign a side-A busbar")
    assert _rule(validator.findings, "P6") == _rule(validate(example_doc), "P6")  # incremental = full
    reloaded = loads(dumps(example_doc))  # what an edit can make, a file can hold
    assert _rule(validate(reloaded), "P6") == found
    validator.update(history.undo())
    assert _rule(validator.findings, "P6") == []


def test_one_busbar_as_both_feeds_is_p6(example_doc):
    rack = next(r for r in example_doc.racks.values() if r.feed_a and r.feed_b)
    example_doc.set_fields(rack.id, {"feed_b": rack.feed_a})
    found = _rule(validate(example_doc), "P6")
    assert [f.subjects for f in found] == [(rack.id, rack.feed_a)]
    assert "feed B is busbar" in found[0].message


def test_a_loop_on_a_unit_that_is_no_cdu_is_c7(example_doc):
    rack = next(r for r in example_doc.racks.values() if r.cdu)
    cdu = example_doc.find(rack.cdu)
    node_type = next(d.type for d in example_doc.devices.values() if d.type.startswith("node"))
    validator = Validator(example_doc)
    assert _rule(validator.findings, "C7") == []
    history = History(example_doc)
    # A node id as the loop: the assign gesture refuses it, a file may hold it.
    node = next(d for d in example_doc.devices.values() if d.type == node_type)
    validator.update(history.push(SetFields({rack.id: {"cdu": node.id}}, text="Loop")))
    found = _rule(validator.findings, "C7")
    assert [f.subjects for f in found] == [(rack.id, node.id)]
    assert found[0].message.startswith(f"{rack.name}: coolant loop on {node.name}, a GPU node (")
    assert found[0].message.endswith("not a CDU")
    assert _rule(validator.findings, "C7") == _rule(validate(example_doc), "C7")
    validator.update(history.undo())
    assert _rule(validator.findings, "C7") == [] and example_doc.racks[rack.id].cdu == cdu.id


def test_a_cdu_whose_type_changes_to_a_cabinet_is_c7_live(example_doc):
    unit = next(u for u in example_doc.floor_units.values() if example_doc.catalog[u.type].kind == "row_cdu")
    racks = sorted(r.id for r in example_doc.racks.values() if r.cdu == unit.id)
    assert racks
    cabinet = example_doc.catalog.of_kind("cabinet")[0]
    validator = Validator(example_doc)
    history = History(example_doc)
    validator.update(history.push(SetFields({unit.id: {"type": cabinet.key}}, text="Change type")))
    found = _rule(validator.findings, "C7")
    assert sorted(f.subjects[0] for f in found) == racks
    assert f"a power cabinet ({cabinet.name}), not a CDU" in found[0].message
    assert _rule(validator.findings, "C7") == _rule(validate(example_doc), "C7")
    validator.update(history.undo())
    assert _rule(validator.findings, "C7") == []
