"""A rule's ``candidates`` (what a full run checks instead of every subject) and ``narrowed``
(the same among an edit's subjects) leave out no subject the check reports: on plans broken in
the ways those shortcuts compute on columns (stale lengths, unknown and empty media, a tier-less
cable, speeds that differ, a cable past its reach, bad host names, a port used twice), each
rule's findings are those of its check run on every subject of its scope."""

from __future__ import annotations

import random

import pytest

from planner.commands import edits
from planner.layout.templates import build_template
from planner.rules.context import Context
from planner.rules.engine import all_rules
from planner.rules.scopes import subjects


def _broken_pod():
    doc = build_template("pod", 8)
    rng = random.Random(5)
    for rack_id in rng.sample(sorted(doc.racks), 3):
        edits.move_objects(doc, [rack_id], 1.5, 0.9).apply(doc)
    links = list(doc.links.values())
    for link in rng.sample(links, 10):
        link.length_m = round(link.length_m + 2.5, 2)
    links[0].media, links[1].media, links[2].tier = "", "no-such-media", ""
    links[3].length_m = 900.0
    links[4].a_port, links[4].a_device = links[5].a_port, links[5].a_device  # one port, two cables
    links[6].b_port = "no-such-port"
    devices = list(doc.devices.values())
    devices[0].hostname, devices[1].hostname, devices[2].hostname = "bad name", "-edge", "a" * 64
    rail = next(link for link in links if link.tier == "node-leaf")
    management = next(link for link in links if link.tier == "oob-access")
    rail.a_port, rail.a_device = management.a_port, management.a_device  # a 1 Gb/s port on a rail
    return doc


def _found(ctx, rule, chosen):
    return sorted((f.severity, f.subjects, f.message) for s in chosen for f in rule.check(ctx, s, rule))


@pytest.fixture(scope="module")
def broken():
    return _broken_pod()


@pytest.mark.parametrize("rule", [r for r in all_rules() if r.candidates is not None], ids=lambda r: r.key)
def test_candidates_leave_out_no_finding(broken, rule):
    every = _found(Context(broken), rule, list(subjects(broken, rule.scope, Context(broken))))
    ctx = Context(broken)
    assert _found(ctx, rule, list(rule.candidates(ctx))) == every


@pytest.mark.parametrize("rule", [r for r in all_rules() if r.narrowed is not None], ids=lambda r: r.key)
def test_narrowed_leaves_out_no_finding(broken, rule):
    among = sorted(subjects(broken, rule.scope, Context(broken)))[::3]
    every = _found(Context(broken), rule, among)
    ctx = Context(broken)
    assert _found(ctx, rule, [s for s in among if s in set(rule.narrowed(ctx, among))]) == every


def test_the_broken_plan_is_broken_where_the_shortcuts_compute(broken):
    """The plan above has findings of each rule whose candidates are columns (else the test
    would pass on a sound plan alone)."""
    ctx = Context(broken)
    rules = {r.id: r for r in all_rules() if r.candidates is not None}
    for rule_id in ("N3", "N7", "N8", "H2"):
        rule = rules[rule_id]
        assert _found(ctx, rule, list(rule.candidates(ctx))), rule_id
