"""The fabric is right at every ratio (issue 18, DESIGN §4).

Over every size the templates accept (1 – 8,192 nodes on the 64-port switch, 1 – 16,384 on the
128-port one; ``planner.layout.templates``) and the ratios 1, 1.5, 2, 3 and 4:

- a ratio above 1:1 never needs more switches or more cables than 1:1 for the same nodes;
- each tier's uplinks never exceed its downlinks: a leaf's downlinks at most ``ratio`` times its
  uplinks, and a spine sends up exactly what comes up to it (the oversubscription is at the
  leaf only);
- every leaf and spine spreads evenly: the same number of links to each spine (core) it
  connects to; no switch port is used twice and every port index is below the port count.

These are checked on the port links ``cabling.fabric_links`` generates, not on the sizing's own
arithmetic. Then, for a few representative sizes, the written plan (pod or hall template built
with the ratio, every network cabled) validates with no error, power and space included, and
holds the compute fabric's switches the sizing asks for.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.fabric.cabling import CORE, LEAF, NODE, SPINE, fabric_links
from planner.fabric.sizing import FabricDesign, design_fabric
from planner.layout.templates import MAX_NODES, build_template
from planner.model.catalog import builtin_catalog
from planner.model.networks import in_compute_fabric
from planner.rules.engine import validate
from planner.rules.finding import ERROR

RATIOS = (1.0, 1.5, 2.0, 3.0, 4.0)
RAILS = 8
#: The port counts of the catalogue's fabric switches (not the management networks' own), each
#: with the most nodes the templates build on it.
SWITCH_PORTS = sorted({item.port_count for item in builtin_catalog().fabric_switches()})
MOST_NODES = {64: 8192, 128: MAX_NODES["hall"]}


def _cabled(design: FabricDesign) -> FabricDesign:
    """The design as the generator cables it: every slot of the full SUs."""
    return FabricDesign(**{**design.__dict__, "nodes": design.sus * design.down}) if design.tiers > 1 else design


def check_links(design: FabricDesign, ratio: float) -> None:
    """Every property of the module docstring on the design's generated port links."""
    used: set[tuple[str, int, int]] = set()
    spread: dict[tuple[str, int], Counter] = defaultdict(Counter)  # (role, index) → upper switch → links
    down: Counter = Counter()
    for link in fabric_links(_cabled(design)):
        for end in ((link.a_role, link.a_index, link.a_port), (link.b_role, link.b_index, link.b_port)):
            assert end not in used, f"port used twice: {end}"
            used.add(end)
            limit = RAILS if end[0] == NODE else design.ports
            assert 0 <= end[2] < limit, f"port index {end[2]} of {end[0]} {end[1]} beyond {limit}"
        if link.a_role != NODE:
            spread[(link.a_role, link.a_index)][link.b_index] += 1
        down[(link.b_role, link.b_index)] += 1
    for (role, index), counts in spread.items():
        assert len(set(counts.values())) == 1, f"{role} {index} spreads unevenly: {counts}"
        up = sum(counts.values())
        if role == LEAF:
            assert up == design.up and design.up <= design.down <= ratio * design.up + 1e-9
            assert len(counts) == design.spines_per_pod
        else:
            assert role == SPINE and up == down[(role, index)], f"spine {index}: {up} up, {down[(role, index)]} down"
    tops = [(role, index) for (role, index) in down if role in (SPINE, CORE) and (role, index) not in spread]
    assert all(role == (CORE if design.tiers == 3 else SPINE) for role, _ in tops)
    empty_slots = design.sus * design.down - design.nodes if design.tiers > 1 else 0
    assert sum(design.counts()["links"].values()) == sum(down.values()) - empty_slots * RAILS


@st.composite
def sizes(draw) -> tuple[int, int]:
    ports = draw(st.sampled_from(SWITCH_PORTS))
    return draw(st.integers(1, MOST_NODES[ports])), ports


@settings(max_examples=150, deadline=None)
@given(sizes(), st.sampled_from(RATIOS[1:]))
def test_a_ratio_never_needs_more_than_non_blocking(size, ratio):
    nodes, ports = size
    base, over = design_fabric(nodes, RAILS, ports, 1.0), design_fabric(nodes, RAILS, ports, ratio)
    assert over.switches <= base.switches, (base.counts(), over.counts())
    assert over.cables <= base.cables, (base.counts(), over.counts())
    assert over.oversubscription <= ratio + 1e-9


@settings(max_examples=60, deadline=None)
@given(sizes(), st.sampled_from(RATIOS))
def test_generated_links_spread_evenly_and_block_only_at_the_leaf(size, ratio):
    nodes, ports = size
    check_links(design_fabric(nodes, RAILS, ports, ratio), ratio)


@pytest.mark.parametrize("nodes", [257, 2080, 4100, 8192])
@pytest.mark.parametrize("ratio", RATIOS)
def test_links_at_awkward_sizes(nodes, ratio):
    """Past a power-of-two boundary the last pod is partly built: its spines still send up only
    what comes up (2,080 nodes at 1:1: 65 SUs, pods of 2, the last of one SU)."""
    check_links(design_fabric(nodes, RAILS, 64, ratio), ratio)


def test_2_to_1_at_1024_nodes_uses_fewer_switches_than_1_to_1():
    # 1:1: 32 SUs of 32 nodes, 256 leaves; pods of one SU: 8 spines each (32 down, 32 up),
    # 32 pods → cores in groups of 16 (32 pods × 32 up / 64 ports): 256 + 256 + 128 = 640.
    base = design_fabric(1024, RAILS, 64, 1.0)
    assert base.counts()["switches"] == {"leaf": 256, "spine": 256, "core": 128}
    # 2:1: 42 down, 22 up, ⌈1024 / 42⌉ = 25 SUs, 200 leaves; pods of 2 SUs (16 leaves) on 11
    # spines (2 links from each leaf, 32 down and 32 up), 13 pods (the last of one SU: its
    # spines 16 down, 16 up); groups of 8 cores: 12 × 4 + 2 = 50 ports of 64 on each core.
    over = design_fabric(1024, RAILS, 64, 2.0)
    assert over.counts()["switches"] == {"leaf": 200, "spine": 143, "core": 88}
    assert over.counts()["links"] == {"node-leaf": 8192, "leaf-spine": 4400, "spine-core": 4400}
    assert over.switches < base.switches


FULL_PLAN_SIZES = [("pod", 32), ("hall", 416), ("hall", 1024)]


@pytest.mark.parametrize(("template", "nodes"), FULL_PLAN_SIZES, ids=lambda v: str(v))
@pytest.mark.parametrize("ratio", RATIOS)
def test_the_written_plan_validates_clean(template, nodes, ratio):
    doc = build_template(template, nodes, oversubscription=ratio)
    errors = [f"{f.rule}: {f.message}" for f in validate(doc) if f.severity == ERROR]
    assert not errors, errors[:5]
    design = design_fabric(nodes, RAILS, 64, ratio)
    roles = Counter(d.role for d in doc.devices.values() if in_compute_fabric(d.role))
    assert roles == Counter({k: v for k, v in design.counts()["switches"].items() if v})
    assert doc.basis.oversubscription == ratio
