"""N8 reports the routed lengths its candidates computed (``route_lengths``), one finding per rack
pair and kind (``route_findings``): those lengths are ``Router.length``'s to the bit, the labels
``cable_label``'s, and the findings those worked cable by cable with the router and grouped, on a
plan with moved racks, typed labels, cables outgrowing their stock, cables of no stored length and
cables whose end is not in the plan; an edit's findings are a full run's."""

from __future__ import annotations

import random
import re

import pytest

from planner.commands import edits
from planner.commands.base import History, RemoveObjects, SetFields
from planner.fabric.bundles import pair_subject
from planner.fabric.routing import Router
from planner.layout.templates import build_template
from planner.model.document import natural_key
from planner.model.labels import cable_label
from planner.rules import route_findings
from planner.rules.context import Context
from planner.rules.engine import Validator, all_rules
from planner.rules.route_findings import _cm, stale_candidates, stale_judged
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
    links, routed, pairs = stale_among(ctx, list(pod.links))
    assert len(links) > 100  # the moves made many cables stale
    for link, now in zip(links, routed):
        assert now == router.length(link.a_device, link.b_device), link.id  # the same float
    assert pairs == [pair_subject(pod.devices[link.a_device].rack, pod.devices[link.b_device].rack) for link in links]
    stale = {link.id for link in links}
    for link in pod.links.values():
        if link.tier in ROUTED_TIERS and link.id not in stale:
            assert abs(router.length(link.a_device, link.b_device) - link.length_m) <= 0.005
    whole, lengths, whole_pairs = stale_in_plan(Context(pod))
    assert sorted(zip((link.id for link in whole), lengths, whole_pairs)) == \
        sorted(zip((link.id for link in links), routed, pairs))


def test_an_end_not_in_the_plan_leaves_its_cable_out_and_codes_the_rest(pod):
    """A cable whose device is gone (a hand-edited file) gets no length; the cables after it in
    the edit's list still get their own ends' lengths."""
    links = [link for link in pod.links.values() if link.tier in ROUTED_TIERS]
    gone = links[len(links) // 2].a_device
    del pod.devices[gone]
    ctx = Context(pod)
    found, routed, _pairs = stale_among(ctx, [link.id for link in links])
    assert gone not in {d for link in found for d in (link.a_device, link.b_device)}
    router = Router(pod)
    assert found and all(now == router.length(link.a_device, link.b_device) for link, now in zip(found, routed))
    assert sorted(link.id for link in found) == sorted(link.id for link in stale_in_plan(Context(pod))[0])


def _expected(doc):
    """N8's findings worked cable by cable with the router: (severity, cable ids) of each rack
    pair (either way round) and kind."""
    router, groups = Router(doc), {}
    for link in doc.links.values():
        if link.tier not in ROUTED_TIERS or link.length_m <= 0:
            continue
        now = router.length(link.a_device, link.b_device)
        if abs(now - link.length_m) > 0.005:
            racks = tuple(sorted((doc.devices[link.a_device].rack, doc.devices[link.b_device].rack)))
            severity = "error" if link.stock_m and now > link.stock_m + 1e-9 else "warning"
            groups.setdefault((racks, severity), []).append(link.id)
    return sorted((severity, tuple(sorted(ids, key=natural_key))) for (_racks, severity), ids in groups.items())


def _racks(doc, link_id):
    link = doc.links[link_id]
    return frozenset((doc.devices[link.a_device].rack, doc.devices[link.b_device].rack))


def test_one_finding_per_rack_pair_and_kind_naming_its_cables(pod):
    links = [link for link in pod.links.values() if link.tier in ROUTED_TIERS]
    stale = [link for link in links if abs(Router(pod).length(link.a_device, link.b_device) - link.length_m) > 0.005]
    erring = {_racks(pod, ids[0]) for severity, ids in _expected(pod) if severity == "error"}
    lone = next(link for link in stale if _racks(pod, link.id) not in erring)
    lone.stock_m = 1.0  # outgrown, the only one of its pair: an error naming it
    stale[0].label = "C-00123 ↔ typed"  # a typed label is the name
    stale[2].length_m = 0.0  # no stored length: N8 leaves it
    found = [f for f in Validator(pod, [_n8()]).findings]
    assert sorted((f.severity, f.subjects) for f in found) == _expected(pod)
    assert {f.severity for f in found} == {"error", "warning"}
    assert len(found) < len(stale) / 5  # bundles, not cables
    assert not any(stale[2].id in f.subjects for f in found)
    span = r"[\d.]+(–[\d.]+)?"
    for f in found:
        if len(f.subjects) == 1:
            assert f.message.startswith(f"{pod.links[f.subjects[0]].label or cable_label(pod, pod.links[f.subjects[0]])}: ")
            continue
        a, b = (pod.racks[pod.devices[d].rack].name for d in (pod.links[f.subjects[0]].a_device,
                                                                pod.links[f.subjects[0]].b_device))
        pair = f"({a} ↔ {b}|{b} ↔ {a})"
        if f.severity == "warning":
            wording = rf"{pair}: {len(f.subjects)} cables' stored lengths {span} m no longer match their routes \({span} m\)"
        else:
            wording = rf"{pair}: {len(f.subjects)} cables' routes now {span} m, longer than their {span} m stock cables " \
                      rf"\(stored {span} m\)"
        assert re.fullmatch(wording + "; Plan ▸ Recompute cable lengths", f.message), f.message
    assert any(len(f.subjects) > 1 and f.severity == "error" for f in found)
    [error] = [f for f in found if lone.id in f.subjects]
    assert error.severity == "error" and error.subjects == (lone.id,)
    assert error.message.startswith(f"{cable_label(pod, lone)}: route now ")
    assert "longer than its 1 m stock cable" in error.message
    assert any(f.message.startswith("C-00123 ↔ typed: ") for f in found) == \
        any(f.subjects == (stale[0].id,) for f in found)


def test_each_pair_judged_alone_is_as_the_full_run(pod):
    """The check of a pair asked without the candidates (a new context) and ``judged`` over every
    cable give the full run's findings."""
    pod.links[next(iter(pod.links))].stock_m = 1.0
    rule = _n8()
    every = sorted((f.severity, f.subjects, f.message) for f in Validator(pod, [rule]).findings)
    pairs = Context(pod).cable_bundles().pair_subjects()
    ctx = Context(pod)
    alone = sorted((f.severity, f.subjects, f.message) for pair in pairs for f in rule.check(ctx, pair, rule))
    assert alone == every
    ctx = Context(pod)
    judged = stale_judged(ctx, set(pod.links), set(), rule)
    assert sorted((f.severity, f.subjects, f.message) for found in judged.values() for f in found) == every
    ctx = Context(pod)
    assert sorted(stale_candidates(ctx)) == sorted(p for p, found in judged.items() if found)


def test_a_pair_within_one_rack_is_named_so(pod):
    rule, ctx = _n8(), Context(pod)
    link = next(link for link in pod.links.values() if link.tier in ROUTED_TIERS
                and pod.devices[link.a_device].rack == pod.devices[link.b_device].rack)
    link.length_m += 1.0
    other = next(i for i in ctx.cable_bundles().cables_between(
        pair_subject(pod.devices[link.a_device].rack, pod.devices[link.a_device].rack)) if i != link.id)
    pod.links[other].length_m += 1.0
    [finding] = rule.check(Context(pod), pair_subject(*[pod.devices[link.a_device].rack] * 2), rule)
    rack = pod.racks[pod.devices[link.a_device].rack].name
    assert finding.message.startswith(f"{rack} (within the rack): 2 cables' stored lengths ")


def test_the_labels_are_cable_label(pod):
    ctx = Context(pod)
    label = route_findings._labeller(ctx)
    for link in pod.links.values():
        assert label(link) == cable_label(pod, link)
    link = next(iter(pod.links.values()))
    device = pod.devices[link.a_device]
    device.rack = "rack-gone"  # an end in no rack of the plan: the rack id stands for its name
    assert route_findings._labeller(Context(pod))(link) == cable_label(pod, link)


def test_incremental_equals_full_after_network_racks_move():
    doc = _moved_pod()
    validator = Validator(doc)
    moves = (("rack-17", 0.6), ("rack-17", 0.6), ("rack-2", -1.2), ("rack-18", 0.6), ("rack-17", -1.2))
    for rack_id, dx in moves:  # rack-17 and rack-18 hold the switches
        validator.update(edits.move_objects(doc, [rack_id], dx, 0.0).apply(doc))
        assert any(f.rule == "N8" for f in validator.findings)
        assert validator.findings == Validator(doc).findings


def test_incremental_equals_full_as_cables_change_pairs_and_stock():
    """A pair's finding is judged again when one of its cables leaves it (re-ended, its device
    moved to another rack, deleted), when its stock changes, and on undo."""
    doc = _moved_pod()
    validator, history = Validator(doc), History(doc)
    [warned] = [f for f in validator.findings if f.rule == "N8" and len(f.subjects) > 2][:1]
    first, second, third = (doc.links[i] for i in warned.subjects[:3])
    far = next(d for d in doc.devices.values() if d.rack not in {doc.devices[first.a_device].rack,
                                                                  doc.devices[first.b_device].rack})
    steps = [SetFields({first.id: {"stock_m": 1.0}}),
             SetFields({second.id: {"b_device": far.id}}),
             SetFields({doc.devices[third.a_device].id: {"rack": far.rack}}),
             RemoveObjects([third.id])]
    for command in steps:
        validator.update(history.push(command))
        assert validator.findings == Validator(doc).findings
    for _step in steps:
        validator.update(history.undo())
        assert validator.findings == Validator(doc).findings


def test_lengths_print_as_before():
    assert [_cm(x) for x in (-0.0, 0.0, 1.005, 19.93, 19.93, 2.0)] == [f"{x:.2f}" for x in
                                                                     (-0.0, 0.0, 1.005, 19.93, 19.93, 2.0)]
