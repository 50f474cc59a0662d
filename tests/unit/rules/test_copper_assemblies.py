"""Copper cables with their plugs on: a twin-port cage's two DACs are one cable to order (a
twin-port cable or a splitter), and copper that would join more than two ports through its cages
is an N16 error the generators avoid by going to fibre."""

from __future__ import annotations

import copy

import pytest

from planner.commands.base import SetFields
from planner.export.bom import build_bom
from planner.fabric.cage_media import one_media_per_cage
from planner.fabric.routing import Router
from planner.model.cages import CageLookup
from planner.model.copper import SPLITTER, STRAIGHT, copper_assemblies
from planner.rules.engine import Validator, validate


@pytest.fixture
def pod(pod16):
    return pod16


def _name(doc, device_id):
    return doc.devices[device_id].name


def _straight_pairs(doc):
    """The leaf–spine DAC pairs that join one leaf cage to one spine cage, by leaf cage."""
    lookup = CageLookup(doc.catalog, doc.devices)
    by_cages: dict[tuple, list] = {}
    for link in doc.links.values():
        if link.tier == "leaf-spine" and link.media == "dac":
            by_cages.setdefault(tuple(lookup.cages_of(link)), []).append(link)
    return [sorted(pair, key=lambda link: link.a_port) for pair in by_cages.values() if len(pair) == 2]


def test_a_cage_to_cage_dac_pair_is_one_twin_port_cable_in_the_bom(pod):
    pairs = _straight_pairs(pod)
    assert len(pairs) == 128  # 16 leaves × 8 spine cages: L1 17/1 and 17/2 both to S1 1/1 and 1/2
    first = pairs[0]
    assert [(_name(pod, c.a_device), c.a_port, _name(pod, c.b_device), c.b_port) for c in first] == [
        ("L1", "17/1", "S1", "1/1"), ("L1", "17/2", "S1", "1/2")]
    shapes = {tuple(c.id for c in a.links): a.shape for a in copper_assemblies(pod)}
    assert shapes[tuple(c.id for c in first)] == STRAIGHT
    twin = [c for c in build_bom(pod)["cables"] if c["form"] == "twin-port"]
    assert sum(c["quantity"] for c in twin) == 128 and sum(c["port_cables"] for c in twin) == 256
    assert twin[0]["name"] == "Passive copper DAC, twin-port (a cage's 2 ports to one cage)"


def test_a_leaf_cage_s_two_node_cables_on_copper_are_one_splitter(pod):
    leaf = next(d for d in pod.devices.values() if d.name == "L1")
    cage = sorted((link for link in pod.links_of(leaf.id) if link.tier == "node-leaf"
                   and (link.b_port if link.b_device == leaf.id else link.a_port).split("/")[0] == "1"),
                  key=lambda link: link.id)
    assert len(cage) == 2 and {c.media for c in cage} == {"sr4"}
    before = build_bom(pod)["cables"]
    SetFields({c.id: {"media": "acc", "stock_m": 5.0} for c in cage}).apply(pod)
    assert {tuple(c.id for c in a.links): a.shape for a in copper_assemblies(pod)}[tuple(c.id for c in cage)] == SPLITTER
    after = build_bom(pod)["cables"]
    splitters = [(c["media"], c["quantity"], c["port_cables"]) for c in after if c["form"] == "splitter"]
    assert sorted(splitters) == sorted([(c["media"], c["quantity"], c["port_cables"]) for c in before
                                        if c["form"] == "splitter"] + [("acc", 1, 2)])
    assert sum(c["quantity"] for c in after) == sum(c["quantity"] for c in before) - 1
    assert [f for f in validate(pod) if f.rule == "N16"] == []  # one plug, one media, one assembly


def _ring(doc):
    """Two cage-to-cage pairs with their second cables' spine ends swapped: leaf cage A to spine
    cages X and Y, leaf cage B to Y and X, four DACs no one copper assembly can be."""
    p, q = _straight_pairs(doc)[0], next(pair for pair in _straight_pairs(doc)[1:]
                                         if pair[0].a_device != _straight_pairs(doc)[0][0].a_device
                                         and pair[0].b_device != _straight_pairs(doc)[0][0].b_device)
    swap = SetFields({p[1].id: {"b_device": q[1].b_device, "b_port": q[1].b_port},
                      q[1].id: {"b_device": p[1].b_device, "b_port": p[1].b_port}})
    return [*p, *q], swap


def test_copper_joining_four_ports_through_their_cages_is_an_n16_error_live_and_in_full(pod):
    ring, swap = _ring(pod)
    engine = Validator(pod)
    assert [f for f in engine.findings if f.rule == "N16"] == []
    engine.update(swap.apply(pod))
    live = [f for f in engine.findings if f.rule == "N16"]
    assert [f.message for f in live] == [f.message for f in validate(pod) if f.rule == "N16"]
    assert len(live) == 1 and live[0].severity == "error"
    assert {c.id for c in ring} <= set(live[0].subjects)
    leaf = pod.devices[ring[0].a_device]
    assert live[0].message.startswith(f"{pod.racks[leaf.rack].name}/{leaf.name} cage 17 and 3 more cages take one "
                                      f"plug each, but 4 DAC cables join them into one copper assembly (")
    assert "a DAC or ACC serves at most two ports" in live[0].message
    assert all(len(a.links) == 1 for a in copper_assemblies(pod) if ring[0].id in {c.id for c in a.links})  # each counted alone
    engine.update(swap.revert(pod))
    assert [f for f in engine.findings if f.rule == "N16"] == []


def test_the_generators_put_such_copper_on_fibre(pod):
    ring, swap = _ring(pod)
    swap.apply(pod)
    router = Router(pod)
    cables = [copy.copy(pod.links[c.id]) for c in ring]
    for cable in cables:
        cable.length_m = cable.length_m or 1.0
    assert one_media_per_cage(router, cables) == 4
    assert all(pod.catalog.media[c.media].transceivers_per_link for c in cables)  # twin-port optics: any port anywhere
    assert all(c.stock_m >= c.length_m for c in cables)


def test_re_lengthing_one_cable_of_such_copper_puts_its_whole_group_on_fibre(pod):
    """A move re-routes a rack's cables only; their cage partners come along, and on copper the
    whole group their cages join, so no cable of it is left on copper beside a fibre (N16)."""
    from planner.fabric.relength import recompute_lengths

    ring, swap = _ring(pod)
    swap.apply(pod)
    assert [f for f in validate(pod) if f.rule == "N16"]
    recompute_lengths(pod, [ring[0].id]).apply(pod)
    assert all(pod.catalog.media[pod.links[c.id].media].transceivers_per_link for c in ring)
    assert [f.message for f in validate(pod) if f.rule == "N16"] == []
