"""Port-to-port cabling of a sized fabric (DESIGN §4), as index arithmetic.

Switches are numbered within their role: leaf ``su·R + rail``, spine ``pod·P + j``, core
``group·G + g``. A leaf's first ``down`` ports face the nodes, the rest go up; a spine's first
``spine_down`` ports face the leaves. Node *n* (in fabric order) sits at position ``n mod
down`` of SU ``n div down`` and its GPU *i* port lands on that SU's rail-*i* leaf at the port
of its position. Leaf uplinks go in equal blocks to each spine of its pod; spine *j* of every
pod sends as many links up as come up to it (from port ``spine_down`` on), in equal blocks to
each core of group *j* it reaches (all of them, but in a partly built last pod, whose spines
carry fewer links: ``FabricDesign.reached_cores``). Pod *p* takes core ports from
``p · links_per_spine_core`` on. ``fabric_links`` yields plain tuples so the generator can turn
100k of them into ``Link`` objects quickly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from planner.fabric.sizing import FabricDesign
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE

NODE, LEAF, SPINE, CORE = "node", "leaf", "spine", "core"


class PortLink(NamedTuple):
    """One cable between abstract endpoints: (role, index, port index) at each end."""

    tier: str
    rail: int
    a_role: str
    a_index: int
    a_port: int
    b_role: str
    b_index: int
    b_port: int


@dataclass(frozen=True)
class SwitchSlot:
    """An abstract switch and its fabric position (1-based su/pod/rail, 0 when not applicable).

    A frozen dataclass, not a NamedTuple: its ``index`` field would shadow ``tuple.index``.
    """

    role: str
    index: int
    su: int
    pod: int
    rail: int


def switch_slots(design: FabricDesign) -> list[SwitchSlot]:
    """Every switch the design needs, leaves first, then spines, then cores."""
    if design.nodes == 0:
        return []
    rails = design.rails
    slots = []
    for leaf in range(design.leaves):
        su = 0 if design.tiers == 1 else leaf // rails
        rail = 0 if design.tiers == 1 else leaf % rails + 1
        pod = su // design.sus_per_pod + 1 if design.tiers == 3 else 1
        slots.append(SwitchSlot(LEAF, leaf, su + 1, pod, rail))
    for spine in range(design.spines):
        slots.append(SwitchSlot(SPINE, spine, 0, spine // design.spines_per_pod + 1, 0))
    for core in range(design.cores):
        slots.append(SwitchSlot(CORE, core, 0, 0, 0))
    return slots


def fabric_links(design: FabricDesign) -> Iterator[PortLink]:
    """Every cable of the design, tier by tier."""
    rails, down = design.rails, design.down
    if design.tiers == 1:
        for node in range(design.nodes):
            for rail in range(rails):
                yield PortLink(TIER_NODE_LEAF, rail + 1, NODE, node, rail, LEAF, 0, node * rails + rail)
        return
    for node in range(design.nodes):
        su, position = divmod(node, down)
        for rail in range(rails):
            yield PortLink(TIER_NODE_LEAF, rail + 1, NODE, node, rail, LEAF, su * rails + rail, position)
    per_spine = design.links_per_leaf_spine
    pod_leaves = design.sus_per_pod * rails
    for leaf in range(design.leaves):
        pod, in_pod = divmod(leaf, pod_leaves)
        rail = leaf % rails + 1
        for j in range(design.up):
            spine = pod * design.spines_per_pod + j // per_spine
            yield PortLink(TIER_LEAF_SPINE, rail, LEAF, leaf, down + j, SPINE, spine,
                           in_pod * per_spine + j % per_spine)
    if design.tiers < 3:
        return
    per_pod = design.links_per_spine_core
    for spine in range(design.spines):
        pod, j = divmod(spine, design.spines_per_pod)
        per_core = design.pod_links_per_core(pod)
        for t in range(design.pod_spine_up(pod)):
            core = j * design.cores_per_group + t // per_core
            yield PortLink(TIER_SPINE_CORE, 0, SPINE, spine, design.spine_down + t, CORE, core,
                           pod * per_pod + t % per_core)
