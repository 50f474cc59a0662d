"""Fabric counts against DESIGN §4, worked by hand for 64-port switches and 8-rail nodes."""

from __future__ import annotations

import pytest

from planner.fabric.sizing import FabricError, design_fabric, leaf_split


def test_single_switch_when_every_gpu_port_fits_on_one():
    for nodes in (1, 4, 8):  # 8 × 8 = 64 ports: still one switch
        design = design_fabric(nodes, 8, 64)
        assert design.tiers == 1
        assert design.counts()["switches"] == {"leaf": 1, "spine": 0, "core": 0}
        assert design.counts()["links"] == {"node-leaf": nodes * 8, "leaf-spine": 0, "spine-core": 0}


def test_one_node_more_than_a_switch_builds_a_full_su():
    # 9 nodes: one SU of 32 nodes, 8 rail leaves with 32 uplinks each = 256 uplinks;
    # spines of 64 ports: at least 4; 4 divides 32, so 8 links from each leaf to each spine.
    design = design_fabric(9, 8, 64)
    assert (design.tiers, design.leaves, design.spines) == (2, 8, 4)
    assert design.links_per_leaf_spine == 8
    assert design.counts()["links"] == {"node-leaf": 72, "leaf-spine": 256, "spine-core": 0}


def test_smallest_spine_count_that_divides_the_uplinks():
    # 3 SUs: 24 leaves × 32 uplinks = 768 → ≥ 12 spines; 12 does not divide 32, 16 does.
    design = design_fabric(96, 8, 64)
    assert (design.leaves, design.spines, design.links_per_leaf_spine) == (24, 16, 2)


def test_two_tier_limit_is_k_squared_over_two_gpus():
    assert design_fabric(256, 8, 64).tiers == 2  # 2,048 GPUs = 64² / 2
    design = design_fabric(257, 8, 64)
    assert design.tiers == 3
    # pods of one SU (8 leaves → 8 spines of 32 down/32 up), 9 pods; core groups of 8
    # (smallest divisor of 32 with 9 × 32 / G ≤ 64 → G ≥ 4.5).
    assert (design.sus_per_pod, design.pods, design.spines_per_pod, design.cores_per_group) == (1, 9, 8, 8)
    assert design.counts()["switches"] == {"leaf": 72, "spine": 72, "core": 64}


def test_32k_gpus_take_pods_of_two_sus():
    design = design_fabric(4096, 8, 64)
    assert (design.sus, design.sus_per_pod, design.pods) == (128, 2, 64)
    assert design.counts() == {
        "nodes": 4096, "gpus": 32768, "tiers": 3,
        "switches": {"leaf": 1024, "spine": 1024, "core": 512},
        "links": {"node-leaf": 32768, "leaf-spine": 32768, "spine-core": 32768},
        "oversubscription": 1.0,
    }


def test_three_tier_limit():
    assert design_fabric(8192, 8, 64).tiers == 3  # 65,536 GPUs = 64³ / 4
    with pytest.raises(FabricError, match="three-tier"):
        design_fabric(8193, 8, 64)


def test_oversubscription_splits_leaf_ports():
    assert leaf_split(64, 1.0) == (32, 32)
    assert leaf_split(64, 3.0) == (48, 16)
    design = design_fabric(100, 8, 64, 3.0)
    assert design.down == 48 and design.counts()["oversubscription"] == 3.0
    with pytest.raises(FabricError):
        leaf_split(64, 0.5)
