"""P5 in the incremental engine: moving a rack re-checks that rack's reach (and its spatial
neighbours, as every rack rule), not every rack on its busbars; moving a busbar re-checks the
racks it feeds. The incremental result equals a full run."""

from __future__ import annotations

from dataclasses import replace

import pytest

from planner.commands import edits
from planner.commands.base import History
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.rules.engine import Validator, all_rules, validate


@pytest.fixture(scope="module")
def hall_text():
    return dumps(build_template("hall", 96))


def _recording_validator(doc):
    """A Validator whose P5 rack check records the racks it is run for."""
    seen: list[str] = []
    rules = []
    for r in all_rules():
        if r.key == "P5:rack":
            check = r.check

            def recorded(ctx, subject, rule, check=check):
                seen.append(subject)
                return check(ctx, subject, rule)

            r = replace(r, check=recorded)
        rules.append(r)
    return Validator(doc, rules), seen


def _near(a, b, margin):
    return a[0] <= b[2] + margin and b[0] <= a[2] + margin and a[1] <= b[3] + margin and b[1] <= a[3] + margin


def _p5_errors(findings):
    return [f for f in findings if f.rule == "P5" and f.severity == "error"]


def test_moving_a_rack_rechecks_its_own_reach(hall_text):
    doc = loads(hall_text)
    validator, seen = _recording_validator(doc)
    assert not _p5_errors(validator.findings)
    rack = next(r for r in doc.racks.values() if r.name == "R02")
    on_its_busbar = {r.id for r in doc.racks.values() if r.feed_a == rack.feed_a}
    old_box = doc.rack_bounds(rack)
    seen.clear()
    # 3.0 m south: its front edge is now 3.0 m from feed A (whip 1.8 m), 1.8 m from feed B (reaches)
    validator.update(History(doc).push(edits.move_objects(doc, [rack.id], 0.0, 3.0)))
    assert rack.id in seen
    # only racks near its old or new place (every rack rule's spatial neighbourhood) ran again,
    # not the racks further along its busbars
    margin = validator.affected.margin()
    near = {r for r in doc.racks if any(_near(doc.rack_bounds(doc.racks[r]), box, margin)
                                        for box in (old_box, doc.rack_bounds(rack)))}
    assert set(seen) <= near
    assert on_its_busbar - near, "the busbar's far racks are not re-checked"
    errors = _p5_errors(validator.findings)
    assert [f.subjects for f in errors] == [(rack.id, rack.feed_a)]
    assert "3.00 m from busbar" in errors[0].message and "tap-off whip reaches 1.8 m" in errors[0].message
    assert validator.findings == validate(doc)


def test_moving_a_busbar_rechecks_the_racks_it_feeds(hall_text):
    doc = loads(hall_text)
    validator, seen = _recording_validator(doc)
    bus = next(b for b in doc.busbars.values() if b.side == "A")
    fed = {r.id for r in doc.racks.values() if r.feed_a == bus.id}
    history = History(doc)
    seen.clear()
    validator.update(history.push(edits.move_objects(doc, [bus.id], 0.0, -2.4)))  # 2.4 m north of the racks
    assert fed <= set(seen)
    assert {f.subjects[0] for f in _p5_errors(validator.findings)} == fed
    assert validator.findings == validate(doc)
    validator.update(history.undo())
    assert not _p5_errors(validator.findings)
    assert validator.findings == validate(doc)
