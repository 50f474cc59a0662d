"""Size a rail-optimised fat-tree (DESIGN §4): scalable units, leaves, spines and cores.

The design is pure arithmetic on four numbers (nodes, rails per node, switch ports and the
leaf oversubscription), so the same function serves the generator, the ``planner fabric``
counts and the tests. Every count follows the rules in DESIGN §4: one leaf per rail per SU,
build for the full SU, a leaf's uplinks spread evenly over its spines (smallest spine count
that divides the uplinks and gives the spines enough ports), a core tier only when two tiers
cannot hold the GPUs, and a single switch when every GPU port fits on one.

How the nodes fill the SUs (``su_sizes``): a k-port leaf at ratio r has d = ⌊k·r/(r+1)⌋
downlinks and k − d uplinks, so an SU has room for d nodes and N nodes take s = ⌈N/d⌉ SUs.
A non-blocking leaf (d = k − d) stays non-blocking however full it is, so SUs fill in order:
d nodes each, the last the rest (DESIGN §4; each SU stays on whole racks and new nodes land on
free leaf ports without moving a cable). An oversubscribed leaf (d > k − d) is what limits
bandwidth, so the N nodes are spread evenly over the s SUs instead (sizes differ by at most one,
larger first): the same switches and cables, but no stub SU and no leaf carrying more than
⌈N/s⌉ downlinks on its k − d uplinks. 256 nodes at 2:1 on 64 ports: d = 42, 22 uplinks,
7 SUs of 37, 37, 37, 37, 36, 36, 36 nodes (not six of 42 and one of 4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.model.catalog import NODE, SWITCH
from planner.model.document import Document
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE


class FabricError(ValueError):
    """The fabric cannot be built as asked (too many GPUs, unknown switch …); one-line reason."""


@dataclass(frozen=True)
class FabricDesign:
    """The counts of one fabric. Index arithmetic in ``cabling`` relies on these fields.

    ``down``/``up`` are a leaf's downlink and uplink ports; an SU holds ``down`` nodes.
    Two tiers: one pod holding every SU, ``spines_per_pod`` spines with all ports down.
    Three tiers: pods of ``sus_per_pod`` SUs; a spine gives ``spine_down`` ports down and
    ``spine_up`` up; spine *j* of every pod connects to core group *j* of ``cores_per_group``.
    """

    nodes: int
    rails: int
    ports: int
    tiers: int
    down: int
    up: int
    sus: int
    sus_per_pod: int
    pods: int
    spines_per_pod: int
    spine_down: int
    spine_up: int
    cores_per_group: int

    @property
    def gpus(self) -> int:
        return self.nodes * self.rails

    @property
    def leaves(self) -> int:
        return 1 if self.tiers == 1 else self.sus * self.rails

    @property
    def spines(self) -> int:
        return self.pods * self.spines_per_pod

    @property
    def core_groups(self) -> int:
        return self.spines_per_pod if self.tiers == 3 else 0

    @property
    def cores(self) -> int:
        return self.core_groups * self.cores_per_group

    @property
    def links_per_leaf_spine(self) -> int:
        """Links from one leaf to each spine of its pod."""
        return self.up // self.spines_per_pod if self.spines_per_pod else 0

    @property
    def links_per_spine_core(self) -> int:
        """Links from one spine to each core of its group."""
        return self.spine_up // self.cores_per_group if self.cores_per_group else 0

    @property
    def oversubscription(self) -> float:
        return 1.0 if self.tiers == 1 else round(self.down / self.up, 3)

    def su_sizes(self) -> list[int]:
        """Nodes in each SU (see the module docstring): in order at 1:1, evenly when oversubscribed."""
        if self.tiers == 1 or not self.nodes:
            return [self.nodes] if self.nodes else []
        if self.down <= self.up:
            return [min(self.down, self.nodes - su * self.down) for su in range(self.sus)]
        base, extra = divmod(self.nodes, self.sus)
        return [base + (1 if su < extra else 0) for su in range(self.sus)]

    def node_slots(self) -> list[int]:
        """The leaf slot ``su · down + position`` of each node in fabric order: node *n* is
        cabled to port ``position`` of its SU's rail leaves (``cabling`` numbers slots so)."""
        if self.tiers == 1:
            return list(range(self.nodes))
        return [su * self.down + position for su, size in enumerate(self.su_sizes()) for position in range(size)]

    def counts(self) -> dict:
        """The ``planner fabric --json`` object (DESIGN §7 keys)."""
        return {
            "nodes": self.nodes,
            "gpus": self.gpus,
            "tiers": self.tiers,
            "switches": {"leaf": self.leaves if self.nodes else 0, "spine": self.spines, "core": self.cores},
            "links": {
                TIER_NODE_LEAF: self.gpus,
                TIER_LEAF_SPINE: self.leaves * self.up if self.tiers > 1 else 0,
                TIER_SPINE_CORE: self.spines * self.spine_up if self.tiers == 3 else 0,
            },
            "oversubscription": self.oversubscription,
        }


def _smallest_divisor_at_least(n: int, minimum: float) -> int | None:
    """Smallest divisor of ``n`` that is ≥ ``minimum`` (None when ``minimum`` > n)."""
    for d in range(max(1, math.ceil(minimum - 1e-9)), n + 1):
        if n % d == 0:
            return d
    return None


def leaf_split(ports: int, oversubscription: float) -> tuple[int, int]:
    """(downlinks, uplinks) of a leaf with ``ports`` ports at a downlink:uplink ratio."""
    if oversubscription < 1.0:
        raise FabricError(f"oversubscription {oversubscription:g} is below 1 (1 = non-blocking)")
    down = math.floor(ports * oversubscription / (1 + oversubscription) + 1e-9)
    up = ports - down
    if up < 1 or down < 1:
        raise FabricError(f"oversubscription {oversubscription:g} leaves no uplink on a {ports}-port leaf")
    return down, up


def design_fabric(nodes: int, rails: int, ports: int, oversubscription: float = 1.0) -> FabricDesign:
    """The smallest fabric for ``nodes`` nodes of ``rails`` GPUs on ``ports``-port switches."""
    if nodes < 0 or rails < 1 or ports < 2:
        raise FabricError(f"cannot size a fabric for {nodes} nodes × {rails} rails on {ports}-port switches")
    if oversubscription < 1.0:
        raise FabricError(f"oversubscription {oversubscription:g} is below 1 (1 = non-blocking)")
    if nodes * rails <= ports:
        return FabricDesign(nodes, rails, ports, 1, ports, 0, 1 if nodes else 0, 1, 0, 0, 0, 0, 0)
    down, up = leaf_split(ports, oversubscription)
    sus = math.ceil(nodes / down)
    leaves = sus * rails
    spines = _smallest_divisor_at_least(up, leaves * up / ports)
    if spines is not None:
        return FabricDesign(nodes, rails, ports, 2, down, up, sus, sus, 1, spines, ports, 0, 0)
    spine_up = ports // 2
    spine_down = ports - spine_up
    for sus_per_pod in range(1, sus + 1):
        pod_leaves = sus_per_pod * rails
        per_pod = _smallest_divisor_at_least(up, pod_leaves * up / spine_down)
        if per_pod is None:
            break
        pods = math.ceil(sus / sus_per_pod)
        group = _smallest_divisor_at_least(spine_up, pods * spine_up / ports)
        if group is not None:
            return FabricDesign(nodes, rails, ports, 3, down, up, sus, sus_per_pod, pods, per_pod,
                                spine_down, spine_up, group)
    limit = ports ** 3 // 4
    raise FabricError(
        f"{nodes * rails:,} GPUs do not fit a three-tier fat-tree of {ports}-port switches "
        f"(limit about {limit:,} GPUs non-blocking)"
    )


def node_devices(doc: Document) -> list:
    """GPU nodes of the plan in fabric order: by row, along the row, bottom U first."""
    nodes = [d for d in doc.devices.values() if doc.catalog[d.type].kind == NODE]

    def key(device):
        rack = doc.racks[device.rack]
        return (_row_key(rack.row), rack.y, rack.x, device.u, device.id)

    return sorted(nodes, key=key)


def _row_key(row: str) -> tuple:
    return (0, int(row), "") if row.isdigit() else (1, 0, row)


def rails_of(doc: Document, nodes: list) -> int:
    """Rails per node (one NIC per GPU); all nodes of one fabric must agree."""
    rails = {doc.catalog[d.type].port_count for d in nodes}
    if len(rails) > 1:
        raise FabricError(f"nodes with different rail counts ({sorted(rails)}) cannot share one rail-optimised fabric")
    return rails.pop() if rails else 8


def default_switch(doc: Document) -> str:
    """The switch type a plan uses: its fabric switches' type, else the catalogue default."""
    for device in doc.devices.values():
        if device.role and doc.catalog[device.type].kind == SWITCH:
            return device.type
    ethernet = doc.basis.fabric_kind != "infiniband"
    switches = [s for s in doc.catalog.of_kind(SWITCH) if ("eth" in s.key) == ethernet]
    return (switches or doc.catalog.of_kind(SWITCH))[0].key


def fabric_counts(doc: Document) -> dict:
    """Counts for ``planner fabric --json``.

    A plan with a generated fabric (switches with a role) reports what it holds; a plan
    without one reports the fabric the generator would build for its nodes.
    """
    nodes = node_devices(doc)
    roles = {"leaf": 0, "spine": 0, "core": 0}
    for device in doc.devices.values():
        if device.role in roles:
            roles[device.role] += 1
    if not any(roles.values()):
        switch = doc.catalog[default_switch(doc)]
        design = design_fabric(len(nodes), rails_of(doc, nodes), switch.port_count, doc.basis.oversubscription)
        return design.counts()
    links = {TIER_NODE_LEAF: 0, TIER_LEAF_SPINE: 0, TIER_SPINE_CORE: 0}
    for link in doc.links.values():
        if link.tier in links:
            links[link.tier] += 1
    rails = rails_of(doc, nodes)
    tiers = 3 if roles["core"] else 2 if roles["spine"] else 1
    uplinks = links[TIER_LEAF_SPINE]
    ratio = 1.0 if tiers == 1 or not uplinks else round(_leaf_downports(doc) / uplinks, 3)
    return {
        "nodes": len(nodes),
        "gpus": len(nodes) * rails,
        "tiers": tiers,
        "switches": roles,
        "links": links,
        "oversubscription": ratio,
    }


def _leaf_downports(doc: Document) -> int:
    """Downlink ports of the plan's leaves (full SU, cabled or not), from their recorded design."""
    total = 0
    for device in doc.devices.values():
        if device.role == "leaf":
            ports = doc.catalog[device.type].port_count
            ups = sum(1 for link in doc.links_of(device.id) if link.tier == TIER_LEAF_SPINE)
            total += ports - ups
    return total
