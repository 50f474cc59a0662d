"""Coolant hoses on the pod: every liquid-cooled node's supply and return on a manifold pair in
its rack (supply to supply, one pair per node, in U order), lengths from the rack, a manifold
added where a rack has none, the rack CDU's loop on the top pair, identity kept on regeneration,
and a plan with manifolds and hoses that saves and loads the same."""

from __future__ import annotations

import json

import pytest

from planner.commands.base import History, RemoveObjects
from planner.fabric.hoses import MANIFOLD_NAME, hose_stock_lengths_m, plan_hoses
from planner.io import HallFileError, dumps, loads
from planner.io.hallfile import load, save
from planner.layout.templates import build_template
from planner.model.catalog import NODE, RACK_MANIFOLD
from planner.model.geometry import RACK_UNIT_M
from planner.model.networks import TIER_HOSE
from planner.model.objects import Device
from planner.model.ports import COOLANT


@pytest.fixture
def pod():
    doc = build_template("pod")
    History(doc).push(plan_hoses(doc))
    return doc


def _liquid_nodes(doc):
    return [d for d in doc.devices.values() if doc.catalog[d.type].kind == NODE and doc.catalog[d.type].liquid_fraction > 0]


def _hoses_of(doc, device_id):
    return {link.a_port: link for link in doc.links_in(COOLANT).values() if link.a_device == device_id}


def test_every_liquid_node_has_its_two_hoses_to_a_manifold_in_its_rack(pod):
    nodes = _liquid_nodes(pod)
    assert len(nodes) == 32
    for node in nodes:
        hoses = _hoses_of(pod, node.id)
        assert set(hoses) == {"SUP1", "RET1"}, node.name
        manifold = pod.devices[hoses["SUP1"].b_device]
        assert pod.catalog[manifold.type].kind == RACK_MANIFOLD and manifold.rack == node.rack
        assert hoses["RET1"].b_device == manifold.id
        j = hoses["SUP1"].b_port[3:]
        assert hoses["SUP1"].b_port == f"SUP{j}" and hoses["RET1"].b_port == f"RET{j}"
        assert all(link.tier == TIER_HOSE for link in hoses.values())
    assert len(pod.links_in(COOLANT)) == 2 * 32


def test_pairs_follow_the_u_order_and_no_qd_is_used_twice(pod):
    for rack_id in pod.racks:
        nodes = sorted((d for d in pod.devices_in(rack_id) if d in _liquid_nodes(pod)), key=lambda d: d.u)
        if not nodes:
            continue
        assert [_hoses_of(pod, n.id)["SUP1"].b_port for n in nodes] == [f"SUP{j}" for j in range(1, len(nodes) + 1)]
        ends = [(link.b_device, link.b_port) for link in pod.links_in(COOLANT).values()
                if pod.devices[link.b_device].rack == rack_id]
        assert len(ends) == len(set(ends))


def test_each_rack_of_liquid_nodes_got_one_manifold_at_0u(pod):
    for rack_id in pod.racks:
        manifolds = [d for d in pod.devices_in(rack_id) if pod.catalog[d.type].kind == RACK_MANIFOLD]
        has_liquid = any(d.rack == rack_id for d in _liquid_nodes(pod))
        assert len(manifolds) == (1 if has_liquid else 0)
        if manifolds:
            assert manifolds[0].name == MANIFOLD_NAME and manifolds[0].u == 0


def test_hose_length_is_the_vertical_run_plus_slack(pod):
    basis = pod.basis
    node = max(_liquid_nodes(pod), key=lambda d: d.u)
    hose = _hoses_of(pod, node.id)["SUP1"]
    manifold = pod.devices[hose.b_device]
    pairs = pod.catalog[manifold.type].coolant_ports
    units = pod.catalog[pod.racks[node.rack].type].rack_units
    j = int(hose.b_port[3:])
    run = abs((j - 0.5) / pairs * units * RACK_UNIT_M - (node.u - 1 + pod.catalog[node.type].height_u / 2) * RACK_UNIT_M)
    assert hose.length_m == pytest.approx(run + max(run * basis.cable_slack_fraction, basis.cable_slack_min_m), abs=0.01)
    assert hose.stock_m == min(x for x in hose_stock_lengths_m() if x >= hose.length_m)


def test_regeneration_changes_nothing_and_keeps_ids(pod):
    before = {link_id: (link.a_device, link.a_port, link.b_device, link.b_port)
              for link_id, link in pod.links_in(COOLANT).items()}
    again = plan_hoses(pod)
    assert again.changes_nothing
    History(pod).push(again)
    assert {i: (x.a_device, x.a_port, x.b_device, x.b_port) for i, x in pod.links_in(COOLANT).items()} == before


def test_a_removed_hose_comes_back_and_the_others_keep_their_ids(pod):
    link_id = next(iter(pod.links_in(COOLANT)))
    others = set(pod.links_in(COOLANT)) - {link_id}
    History(pod).push(RemoveObjects([link_id]))
    generation = plan_hoses(pod)
    assert generation.cables.kept == len(others) and len(generation.cables.added) == 1
    History(pod).push(generation)
    assert others < set(pod.links_in(COOLANT)) and len(pod.links_in(COOLANT)) == len(others) + 1


def test_too_few_pairs_hoses_what_fits_and_a_rack_cdu_feeds_the_top_pair(pod):
    rack_id = next(r for r in pod.racks if any(d.rack == r for d in _liquid_nodes(pod)))
    manifold = next(d for d in pod.devices_in(rack_id) if pod.catalog[d.type].kind == RACK_MANIFOLD)
    small = pod.catalog[manifold.type].copy()
    small.key, small.coolant_ports, small.custom = "manifold-3", 3, True
    pod.catalog.add(small)
    manifold.type = small.key
    cdu = Device(id=pod.new_id("dev"), type="cdu-rack-250kw", name="CDU1", rack=rack_id, u=40)
    pod.add(cdu)
    History(pod).push(plan_hoses(pod))
    nodes = sorted((d for d in _liquid_nodes(pod) if d.rack == rack_id), key=lambda d: d.u)
    assert [bool(_hoses_of(pod, n.id)) for n in nodes] == [True, True, False, False]
    loop = _hoses_of(pod, cdu.id)
    assert {p: (x.b_device, x.b_port) for p, x in loop.items()} == {"SUP2": (manifold.id, "SUP3"),
                                                                    "RET2": (manifold.id, "RET3")}


def test_a_plan_with_manifolds_and_hoses_round_trips(pod, tmp_path):
    path = tmp_path / "pod.hall"
    save(pod, path)
    loaded = load(path)
    assert {i: (x.a_device, x.a_port, x.b_device, x.b_port, x.tier, x.length_m, x.stock_m)
            for i, x in loaded.links_in(COOLANT).items()} == \
        {i: (x.a_device, x.a_port, x.b_device, x.b_port, x.tier, x.length_m, x.stock_m)
         for i, x in pod.links_in(COOLANT).items()}
    assert sum(loaded.catalog[d.type].kind == RACK_MANIFOLD for d in loaded.devices.values()) == 8
    assert plan_hoses(loaded).changes_nothing


def test_a_custom_manifold_round_trips_and_a_1u_or_portless_one_is_refused(pod):
    manifold = next(d for d in pod.devices.values() if pod.catalog[d.type].kind == RACK_MANIFOLD)
    custom = pod.catalog[manifold.type].copy()
    custom.key, custom.name, custom.coolant_ports, custom.custom = "man-8", "Manifold 8 pairs", 8, True
    pod.catalog.add(custom)
    manifold.type = custom.key
    loaded = loads(dumps(pod))
    assert loaded.catalog["man-8"].coolant_ports == 8 and loaded.devices[manifold.id].type == "man-8"
    for field, value in (("height_u", 1), ("coolant_ports", None)):
        data = json.loads(dumps(pod))
        entry = next(e for e in data["catalog"] if e["key"] == "man-8")
        entry[field] = value
        with pytest.raises(HallFileError, match=field):
            loads(json.dumps(data))
