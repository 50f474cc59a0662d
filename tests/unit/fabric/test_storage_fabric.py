"""The storage fabric (issue 21): sized by hand from the catalogue and the design basis, every
storage port cabled, regeneration changing nothing, on the pod and a 1,024-node hall."""

from __future__ import annotations

import math

import pytest

from planner.commands.base import History
from planner.fabric.storage_fabric import plan_storage, size_storage, storage_switch_type
from planner.layout.templates import build_template
from planner.model.catalog import NODE, STORAGE
from planner.model.networks import (
    ROLE_STORAGE_LEAF,
    ROLE_STORAGE_SPINE,
    TIER_STORAGE_ACCESS,
    TIER_STORAGE_UPLINK,
)
from planner.model.ports import STORAGE_NET

#: Design basis 0.488 GB/s per GPU (RA-11333-001 Table 6 Best), × 8 bits a byte.
BASIS_GBPS = 0.488 * 8


@pytest.fixture(scope="module")
def pod():
    return build_template("pod")


@pytest.fixture(scope="module")
def hall():
    return build_template("hall", nodes=1024)


def _roles(doc, *roles):
    return [d for d in doc.devices.values() if d.role in roles]


def _ends(doc):
    """(device id, port) → count of storage cables on it."""
    ends: dict[tuple[str, str], int] = {}
    for link in doc.links_in(STORAGE_NET).values():
        for end in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            ends[end] = ends.get(end, 0) + 1
    return ends


def test_sizing_of_the_pod_by_hand():
    # 32 nodes × 2 storage ports (S1, S2) + 2 storage nodes × 2 cages = 68 ports > 64: two tiers.
    # Read 256 GPUs × 0.488 GB/s × 8 = 999.4 Gb/s. u = 1: 63 down, ⌈68/63⌉ = 2 leaves of 34 ports,
    # 2 storage + 32 GPU ports each; the 32 GPU ports are half the GPUs: 499.7 Gb/s, ⌈499.7/400⌉ = 2 > 1.
    # u = 2: 62 down, still 2 leaves of 34, need 2 ≤ 2. Spines ⌈2 × 2 / 64⌉ = 1.
    design = size_storage(64, 4, 64, 400.0, 256 * BASIS_GBPS)
    assert (design.leaves, design.uplinks, design.spines) == (2, 2, 1)
    assert design.gpu_ports == (32, 32) and design.storage_ports == (2, 2)


def test_one_leaf_when_everything_fits():
    design = size_storage(16, 4, 64, 400.0, 64 * BASIS_GBPS)
    assert (design.leaves, design.uplinks, design.spines) == (1, 0, 0)


def test_uplinks_carry_the_share_up_to_the_down_ports():
    # The pod's 68 ports at 2 GB/s per GPU: each leaf's 32 GPU ports take half of 256 × 2 × 8 =
    # 4,096 Gb/s, 2,048 Gb/s: ⌈2,048 / 400⌉ = 6 uplinks (58 down still hold 34 ports on 2 leaves).
    design = size_storage(64, 4, 64, 400.0, 256 * 2 * 8)
    assert (design.uplinks, design.leaves) == (6, 2)
    # At 20 GB/s the reads exceed what the GPU ports carry: the ports cap the need, 1:1 or better.
    design = size_storage(64, 4, 64, 400.0, 256 * 20 * 8)
    assert design.uplinks >= max(design.gpu_ports)
    assert all(g + s + design.uplinks <= 64 for g, s in zip(design.gpu_ports, design.storage_ports))


def test_more_leaves_than_a_spine_has_ports_make_blocks():
    # 4,096 nodes on 64-port switches: 8,192 + 320 ports, 140 leaves, more than a spine's 64 ports.
    gpus = 4096 * 8
    stores = math.ceil(gpus * BASIS_GBPS / 800) * 2
    design = size_storage(8192, stores, 64, 400.0, gpus * BASIS_GBPS)
    assert design.leaves > 64 and design.leaves_per_block == 64 and design.blocks == math.ceil(design.leaves / 64)
    assert design.uplinks % design.spines_per_block == 0  # each leaf's links spread evenly over its spines
    assert design.leaves_per_block * design.uplinks <= design.spines_per_block * 64


def test_pod_counts_by_hand(pod):
    # the storage switches are the compute leaves' type: QM9700 class, 64 × 400G
    assert storage_switch_type(pod) == next(d.type for d in pod.devices.values() if d.role == "leaf")
    nodes = [d for d in pod.devices.values() if pod.catalog[d.type].kind == NODE]
    stores = [d for d in pod.devices.values() if pod.catalog[d.type].kind == STORAGE]
    assert (len(nodes), len(stores)) == (32, 2)  # ⌈256 × 0.488 × 8 / 800⌉ = 2 storage nodes
    leaves, spines = _roles(pod, ROLE_STORAGE_LEAF), _roles(pod, ROLE_STORAGE_SPINE)
    assert sorted(d.name for d in leaves) == ["SL1", "SL2"] and [d.name for d in spines] == ["SS1"]
    tiers = [link.tier for link in pod.links_in(STORAGE_NET).values()]
    assert tiers.count(TIER_STORAGE_ACCESS) == 32 * 2 + 2 * 2
    assert tiers.count(TIER_STORAGE_UPLINK) == 2 * 2  # 2 leaves × 2 uplinks


def test_every_storage_port_cabled_once(pod):
    ends = _ends(pod)
    for device in pod.devices.values():
        item = pod.catalog[device.type]
        if item.kind in (NODE, STORAGE):
            for port in item.port_names(STORAGE_NET):
                assert ends.get((device.id, port)) == 1, (device.name, port)
    leaf_ids = {d.id for d in _roles(pod, ROLE_STORAGE_LEAF)}
    for link in pod.links_in(STORAGE_NET).values():
        if link.tier == TIER_STORAGE_ACCESS:
            assert link.b_device in leaf_ids and link.media and link.length_m > 0


def test_regeneration_changes_nothing(pod):
    before = {link_id: (link.a_device, link.a_port, link.b_device, link.b_port)
              for link_id, link in pod.links_in(STORAGE_NET).items()}
    generation = plan_storage(pod)
    assert generation.changes_nothing and generation.cables.kept == len(before)
    History(pod).push(generation)
    assert {i: (k.a_device, k.a_port, k.b_device, k.b_port) for i, k in pod.links_in(STORAGE_NET).items()} == before


def test_hall_of_1024_nodes_by_hand(hall):
    # 1,024 nodes × 2 = 2,048 GPU ports; ⌈8,192 × 0.488 × 8 / 800⌉ = 40 storage nodes, 80 cages:
    # 2,128 ports. u = 3: 61 down, ⌈2,128 / 61⌉ = 35 leaves of 60–61 ports, at most 59 GPU ports
    # (2 storage ports each, 3 on 10 of them): 59/2,048 × 31,982 Gb/s = 921 Gb/s, ⌈921/400⌉ = 3 ≤ 3
    # (u = 1, 2 leave 60 or 59 GPU ports: still 3). Spines: ⌈35 × 3 / 64⌉ = 2 does not divide 3: 3.
    assert len([d for d in hall.devices.values() if hall.catalog[d.type].kind == STORAGE]) == 40
    assert (len(_roles(hall, ROLE_STORAGE_LEAF)), len(_roles(hall, ROLE_STORAGE_SPINE))) == (35, 3)
    tiers = [link.tier for link in hall.links_in(STORAGE_NET).values()]
    assert (tiers.count(TIER_STORAGE_ACCESS), tiers.count(TIER_STORAGE_UPLINK)) == (2128, 35 * 3)
    per_spine: dict[str, int] = {}
    for link in hall.links_in(STORAGE_NET).values():
        if link.tier == TIER_STORAGE_UPLINK:
            per_spine[link.b_device] = per_spine.get(link.b_device, 0) + 1
    assert sorted(per_spine.values()) == [35, 35, 35]  # one link from every leaf to every spine
    assert plan_storage(hall).changes_nothing
