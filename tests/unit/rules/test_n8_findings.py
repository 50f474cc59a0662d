"""N8 reports the routed lengths its candidates computed (``route_lengths``) and the messages made
with them in one loop (``route_findings``): those lengths are ``Router.length``'s to the bit, the
labels ``cable_label``'s, and the findings those of the check routing each cable on its own, on a
plan with moved racks, typed labels, cables outgrowing their stock, cables of no stored length and
cables whose end is not in the plan."""

from __future__ import annotations

import random

import pytest

from planner.commands import edits
from planner.fabric.routing import Router
from planner.layout.templates import build_template
from planner.model.labels import cable_label
from planner.rules import route_findings
from planner.rules.context import Context
from planner.rules.engine import Validator, all_rules
from planner.rules.route_findings import _cm, stale_candidates, stale_finding, stale_narrowed
from planner.rules.route_lengths import ROUTED_TIERS, stale_among, stale_in_plan


def _moved_pod():
    doc = build_template("hall", 64)
    rng = random.Random(11)
    for rack_id in rng.sample(sorted(doc.racks), 4):
        edits.move_objects(doc, [rack_id], 0.9, -0.6).apply(doc)
    return doc


def _n8():
    [rule] = [r for r in all_rules() if r.id == "N8"]
    return rule


def _alone(doc, link_ids):
    """N8's findings of each cable, each routed on its own (a new context, no candidates asked)."""
    rule, ctx = _n8(), Context(doc)
    return sorted((f.severity, f.subjects, f.message, f.source) for i in link_ids for f in rule.check(ctx, i, rule))


@pytest.fixture()
def pod():
    return _moved_pod()


def test_the_columns_route_every_cable_as_the_router_does(pod):
    router = Router(pod)
    ctx = Context(pod)
    links, routed = stale_among(ctx, list(pod.links))
    assert len(links) > 100  # the moves made many cables stale
    for link, now in zip(links, routed):
        assert now == router.length(link.a_device, link.b_device), link.id  # the same float
    stale = {link.id for link in links}
    for link in pod.links.values():
        if link.tier in ROUTED_TIERS and link.id not in stale:
            assert abs(router.length(link.a_device, link.b_device) - link.length_m) <= 0.005
    whole, lengths = stale_in_plan(Context(pod))
    assert sorted((link.id, now) for link, now in zip(whole, lengths)) == \
        sorted((link.id, now) for link, now in zip(links, routed))


def test_an_end_not_in_the_plan_leaves_its_cable_out_and_codes_the_rest(pod):
    """A cable whose device is gone (a hand-edited file) gets no length; the cables after it in
    the edit's list still get their own ends' lengths."""
    links = [link for link in pod.links.values() if link.tier in ROUTED_TIERS]
    gone = links[len(links) // 2].a_device
    del pod.devices[gone]
    ctx = Context(pod)
    found, routed = stale_among(ctx, [link.id for link in links])
    assert gone not in {d for link in found for d in (link.a_device, link.b_device)}
    router = Router(pod)
    assert found and all(now == router.length(link.a_device, link.b_device) for link, now in zip(found, routed))
    assert sorted(link.id for link in found) == sorted(link.id for link in stale_in_plan(Context(pod))[0])


def test_findings_are_those_of_each_cable_routed_alone(pod):
    links = [link for link in pod.links.values() if link.tier in ROUTED_TIERS]
    stale = [link for link in links if abs(Router(pod).length(link.a_device, link.b_device) - link.length_m) > 0.005]
    stale[0].label = "C-00123 ↔ typed"  # a typed label is the name
    stale[1].stock_m = 1.0  # outgrown: an error
    stale[2].length_m = 0.0  # no stored length: N8 leaves it
    rule = _n8()
    ids = [link.id for link in links]
    alone = _alone(pod, ids)
    assert {s for s, *_ in alone} == {"error", "warning"}
    assert any(m.startswith("C-00123 ↔ typed: ") for _, _, m, _ in alone)
    assert not any(stale[2].id in subjects for _, subjects, _, _ in alone)
    for narrowed in (lambda ctx: stale_narrowed(ctx, ids), stale_candidates):
        ctx = Context(pod)
        chosen = narrowed(ctx)
        assert stale[2].id not in chosen
        assert sorted((f.severity, f.subjects, f.message, f.source) for i in chosen
                      for f in rule.check(ctx, i, rule)) == alone


def test_the_labels_are_cable_label(pod):
    ctx = Context(pod)
    label = route_findings._labeller(ctx)
    for link in pod.links.values():
        assert label(link) == cable_label(pod, link)
    link = next(iter(pod.links.values()))
    device = pod.devices[link.a_device]
    device.rack = "rack-gone"  # an end in no rack of the plan: the rack id stands for its name
    assert route_findings._labeller(Context(pod))(link) == cable_label(pod, link)


def test_a_cable_not_among_the_candidates_is_routed_alone(pod):
    ctx = Context(pod)
    ids = stale_narrowed(ctx, list(pod.links)[:5])
    others = [i for i in pod.links if i not in ids and stale_finding(Context(pod), i) is not None]
    assert others and stale_finding(ctx, others[0]) == stale_finding(Context(pod), others[0])


def test_incremental_equals_full_after_network_racks_move():
    doc = _moved_pod()
    validator = Validator(doc)
    moves = (("rack-17", 0.6), ("rack-17", 0.6), ("rack-2", -1.2), ("rack-18", 0.6), ("rack-17", -1.2))
    for rack_id, dx in moves:  # rack-17 and rack-18 hold the switches
        validator.update(edits.move_objects(doc, [rack_id], dx, 0.0).apply(doc))
        assert any(f.rule == "N8" for f in validator.findings)
        assert validator.findings == Validator(doc).findings


def test_lengths_print_as_before():
    assert [_cm(x) for x in (-0.0, 0.0, 1.005, 19.93, 19.93, 2.0)] == [f"{x:.2f}" for x in
                                                                     (-0.0, 0.0, 1.005, 19.93, 19.93, 2.0)]
