"""Rules that follow routes (N8): a move that shifts a cross-aisle tray re-checks the cables of
the rack pairs whose routed length it changed, far from the rack that moved, and no others.

Row 1 (y 2.0 m): R01 (node N1) at x 1.0, R02 (empty) at x 0.4.
Row 2 (y 5.0 m): R03 (node N2) at x 1.6, R04 (empty) at x 3.0.
No switches, so the cross-aisle trays run at the row ends only: x 0.4 and 3.0. The cable
N1 → N2 has no crossing between its racks (x 1.0 … 1.6) and takes the nearer one, x 0.4:
0.6 + 3.0 + 1.2 = 4.8 m along the trays. R02 moving 0.4 m west takes the row end, and so the
crossing, to x 0.0: 1.0 + 3.0 + 1.6 = 5.6 m, although neither rack of the cable moved.
"""

from __future__ import annotations

import pytest

from planner.commands import History, edits
from planner.fabric.routing import Router, link_values
from planner.model.document import Document
from planner.model.objects import Device, Link, Rack
from planner.rules.engine import Validator, all_rules

RACK = "rack-800x1200-52u"
NODE = "node-8gpu-liquid-4u"


@pytest.fixture
def hall() -> Document:
    doc = Document()
    for rack_id, name, x, y, row in (("rack-1", "R01", 1.0, 2.0, "1"), ("rack-2", "R02", 0.4, 2.0, "1"),
                                      ("rack-3", "R03", 1.6, 5.0, "2"), ("rack-4", "R04", 3.0, 5.0, "2")):
        doc.add(Rack(id=rack_id, type=RACK, name=name, x=x, y=y, row=row))
    doc.add(Device(id="dev-1", type=NODE, name="N1", rack="rack-1", u=1))
    doc.add(Device(id="dev-2", type=NODE, name="N2", rack="rack-3", u=1))
    doc.add(Link(id="link-1", a_device="dev-1", a_port="p1", b_device="dev-2", b_port="p1", tier="node-leaf"))
    for field, value in link_values(Router(doc).route("dev-1", "dev-2", "node-leaf")).items():
        setattr(doc.links["link-1"], field, value)
    return doc


def test_a_shifted_crossing_rechecks_the_far_cable(hall):
    assert Router(hall).tray_path("rack-1", "rack-3")[0] == pytest.approx(4.8)
    n8 = [r for r in all_rules() if r.id == "N8"]
    validator = Validator(hall, n8)
    assert validator.findings == []
    history = History(hall)
    validator.update(history.push(edits.move_objects(hall, ["rack-2"], -0.4, 0.0)))
    assert Router(hall).tray_path("rack-1", "rack-3")[0] == pytest.approx(5.6)
    [finding] = validator.findings
    assert (finding.rule, finding.subjects) == ("N8", ("link-1",))
    assert validator.findings == Validator(hall, n8).findings
    validator.update(history.undo())
    assert validator.findings == []


def test_only_the_rerouted_pairs_cables_are_named(hall):
    validator = Validator(hall, [r for r in all_rules() if r.id == "N8"])
    ctx = validator.ctx
    change = edits.move_objects(hall, ["rack-4"], 0.6, 0.0).apply(hall)  # the far row end moves east
    ctx.forget(racks={"rack-4"}, spatial=set(), assignments=set(), zones_changed=False)
    assert ctx.update_routes(set()) == (set(), set())  # N1 → N2 still crosses at x 0.4
    edits.move_objects(hall, ["rack-2"], -0.4, 0.0).apply(hall)
    ctx.forget(racks={"rack-2"}, spatial=set(), assignments=set(), zones_changed=False)
    assert ctx.update_routes(set())[1] == {"link-1"}
    assert change.touched == {"rack-4"}


@pytest.mark.parametrize("bundles_first", [False, True])
def test_a_route_watcher_hears_each_flow_once(bundles_first):
    """The plan's cable layer watches the routes; on a hall it does so before the first full
    validation has made the bundles (the checks run after the first paint): either way it hears
    the bundles once, and each edit's flows once."""
    from planner.layout.templates import build_template
    from planner.rules.context import Context

    doc = build_template("pod", 4)
    ctx = Context(doc)
    if bundles_first:
        ctx.cable_bundles()
    heard: list[bool] = []
    ctx.watch_routes(lambda _flows, fresh: heard.append(fresh))
    assert heard == [True]
    validator = Validator(doc)
    validator.ctx = ctx
    rack = next(iter(doc.racks))
    validator.full_run()
    heard.clear()
    validator.update(edits.move_objects(doc, [rack], 0.0, 0.6).apply(doc))
    assert heard == [False]
