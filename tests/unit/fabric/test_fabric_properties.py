"""Generated fabrics for 1 → 4,096 nodes, checked as properties of the networkx graph.

Each plan comes from the hall template (layout, fabric, cabling, routing); the checks only
look at the document's devices and links, never at the generator's arithmetic. The template
cables every network (issue 21): the sizing checks read the compute fabric's switches and
cables, the port, label and length checks every cable of every network.
"""

from __future__ import annotations

from collections import Counter

import pytest

from planner.fabric.graph import (
    all_nodes_reachable,
    bisection_gbps,
    fabric_graph,
    leaf_spread,
    max_switch_hops,
)
from planner.fabric.sizing import design_fabric, node_devices
from planner.layout.templates import build_template
from planner.model.labels import cable_label
from planner.model.networks import DATA_NETWORKS, in_compute_fabric, network_of
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE
from planner.model.ports import COMPUTE

NODE_COUNTS = [1, 5, 8, 9, 31, 33, 96, 256, 257, 300, 4096]


@pytest.fixture(scope="module", params=NODE_COUNTS, ids=lambda n: f"{n}nodes")
def plan(request):
    return request.param, build_template("hall", request.param)


def test_counts_and_ports(plan):
    nodes, doc = plan
    design = design_fabric(nodes, 8, 64)
    roles = Counter(d.role for d in doc.devices.values() if in_compute_fabric(d.role))
    assert roles == Counter({k: v for k, v in design.counts()["switches"].items() if v})
    tiers = Counter(link.tier for link in doc.links_in(COMPUTE).values())
    assert tiers == Counter({k: v for k, v in design.counts()["links"].items() if v})
    ends = Counter((link.a_device, link.a_port) for link in doc.links.values())
    ends.update((link.b_device, link.b_port) for link in doc.links.values())
    assert max(ends.values()) == 1, "a port is used twice"
    assert len({cable_label(doc, link) for link in doc.links.values()}) == len(doc.links)
    assert all(link.stock_m >= link.length_m > 0 for link in doc.links.values())
    # power cords and hoses have no media (no transceivers); every data cable has one
    assert all(link.media for link in doc.links.values() if network_of(link) in DATA_NETWORKS)


def test_every_gpu_on_its_rail_leaf_and_reachable(plan):
    _nodes, doc = plan
    graph = fabric_graph(doc)
    assert all_nodes_reachable(graph)
    for node in node_devices(doc):
        links = [link for link in doc.links_of(node.id) if link.tier == TIER_NODE_LEAF]
        assert len(links) == 8
        for link in links:
            leaf = doc.devices[link.b_device]
            assert leaf.role == "leaf"
            if roles_have_spines(doc):
                assert int(link.a_port[1:]) == leaf.rail == link.rail
    hops = max_switch_hops(graph)
    expected = {1: 1, 2: 3, 3: 5}[3 if any(d.role == "core" for d in doc.devices.values())
                                   else 2 if roles_have_spines(doc) else 1]
    assert hops <= expected


def roles_have_spines(doc) -> bool:
    return any(d.role == "spine" for d in doc.devices.values())


def test_leaves_spread_evenly_and_non_blocking(plan):
    nodes, doc = plan
    if not roles_have_spines(doc):
        return
    leaves = [d for d in doc.devices.values() if d.role == "leaf"]
    design = design_fabric(nodes, 8, 64)
    assert len(leaves) == design.sus * 8  # full-SU leaves present even for a partial SU
    for leaf in leaves:
        spread = leaf_spread(doc, leaf.id)
        assert len(set(spread.values())) == 1, f"{leaf.name} uneven: {spread}"
        up = sum(spread.values())
        down_ports = doc.catalog[leaf.type].port_count - up
        assert up >= down_ports  # non-blocking for the full SU, cabled or not
        assert len(spread) == design.spines_per_pod
    cores = [d for d in doc.devices.values() if d.role == "core"]
    if cores:
        for spine in (d for d in doc.devices.values() if d.role == "spine"):
            to_core = Counter(link.b_device for link in doc.links_of(spine.id) if link.tier == TIER_SPINE_CORE)
            assert len(set(to_core.values())) == 1 and len(to_core) == design.cores_per_group
            up = sum(to_core.values())
            down = sum(1 for link in doc.links_of(spine.id) if link.tier == TIER_LEAF_SPINE)
            assert up >= down


@pytest.mark.parametrize("nodes", [9, 40, 257])
def test_bisection_is_full_when_non_blocking(nodes):
    doc = build_template("hall", nodes)
    ordered = [d.id for d in node_devices(doc)]
    # half the nodes × 8 rails × 400 Gb/s cross any even cut of a non-blocking fabric
    assert bisection_gbps(fabric_graph(doc), ordered) == (nodes // 2) * 8 * 400
