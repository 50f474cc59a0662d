"""A rule's shared inputs: when they change, the rule re-runs for every subject, not just
the neighbourhood of the edit (N8 uses this for the cross-aisle trays)."""

from __future__ import annotations

from planner.commands import History, SetFields
from planner.rules.engine import RACK, Rule, Validator
from planner.rules.finding import WARNING


def _eastmost_x(ctx):
    return max(rack.x for rack in ctx.doc.racks.values())


def _eastmost(ctx, rack_id, r):
    if ctx.doc.racks[rack_id].x == _eastmost_x(ctx):
        yield r.finding(ctx, WARNING, (rack_id,), f"{ctx.doc.racks[rack_id].name} is the eastmost rack")


def _rule(shared):
    return Rule(id="X1", title="Eastmost rack", scope=RACK, reads=frozenset({"rack.x"}), check=_eastmost,
                shared=shared)


def _flagged(validator):
    return [f.subjects for f in validator.findings]


def test_a_change_of_shared_inputs_reruns_every_subject(core_doc):
    validator = Validator(core_doc, rules=[_rule(_eastmost_x)])
    r01 = next(r for r in core_doc.racks.values() if r.name == "R01")
    r09 = next(r for r in core_doc.racks.values() if r.name == "R09")
    assert _flagged(validator) == [(r09.id,)]
    # R01 jumps 10 m east, far beyond R09's neighbourhood: only the shared value tells R09 it lost
    validator.update(History(core_doc).push(SetFields({r01.id: {"x": r01.x + 10.0}})))
    assert _flagged(validator) == [(r01.id,)]


def test_without_shared_inputs_the_far_rack_would_be_missed(core_doc):
    """The counter-example that makes the mechanism necessary."""
    validator = Validator(core_doc, rules=[_rule(None)])
    r01 = next(r for r in core_doc.racks.values() if r.name == "R01")
    validator.update(History(core_doc).push(SetFields({r01.id: {"x": r01.x + 10.0}})))
    assert len(_flagged(validator)) == 2  # stale: R09 still flagged beside R01
