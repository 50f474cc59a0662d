"""Size a rail-optimised fat-tree (DESIGN §4): scalable units, leaves, spines and cores.

The design is pure arithmetic on four numbers (nodes, rails per node, switch ports and the
allowed leaf oversubscription), so the same function serves the generator, the ``planner
fabric`` counts and the tests. The rules it keeps (DESIGN §4, issue 18):

- one leaf per rail per SU, built for the full SU; a single switch when every GPU port fits
  on one; a core tier only when two tiers cannot hold the GPUs;
- the oversubscription is at the leaf only: a leaf has ``down`` node ports and ``up`` uplinks,
  ``down ≤ ratio · up``; above the leaf every spine sends up exactly as many links as come up
  to it (its uplinks never exceed its downlinks, and it blocks nothing that reaches it);
- a leaf spreads its uplinks evenly over every spine of its pod, a spine evenly over the cores
  of its group (the same number of links to each).

How it searches (``design_fabric``): every uplink count from the fewest the ratio allows
(``leaf_split``) to the 1:1 split, every pod size (at most ``ports / (2 · rails)`` SUs, the most
whose spines still have a port up for every port down), every spine count per pod that divides
the uplinks and every core group size that divides a spine's uplinks; of the designs that need
no more switches and no more cables than the 1:1 design for the same nodes, the one with the
fewest switches, then the fewest cables, then the ratio nearest the one asked, then the smallest
pod. A leaf is not held to ``⌊k·r/(r+1)⌋`` downlinks: 22 uplinks (2:1 on 64 ports) divide only
by 1, 2, 11 and 22, and 24 uplinks on 40 downlinks may need fewer spines.

Pods are whole SUs; when the SUs do not fill the last pod, its spines carry fewer links (as many
up as come up) and reach as many cores of their group as divide those links evenly, from the
group's first core (``reached_cores``): a partly built pod needs no re-cabling of the full ones.

How the nodes fill the SUs (``su_sizes``): an SU has room for ``down`` nodes and N nodes take
s = ⌈N/down⌉ SUs. A non-blocking leaf (down ≤ up) stays non-blocking however full it is, so
SUs fill in order: ``down`` nodes each, the last the rest (DESIGN §4; each SU stays on whole
racks and new nodes land on free leaf ports without moving a cable). An oversubscribed leaf
(down > up) is what limits bandwidth, so the N nodes are spread evenly over the s SUs instead
(sizes differ by at most one, larger first): the same switches and cables, but no stub SU and
no leaf carrying more than ⌈N/s⌉ downlinks on its uplinks. 256 nodes at 2:1 on 64 ports: 42
down, 22 up, 7 SUs of 37, 37, 37, 37, 36, 36, 36 nodes (not six of 42 and one of 4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from planner.model.catalog import ETHERNET, INFINIBAND, NODE, SWITCH, switch_protocol
from planner.model.document import Document
from planner.model.networks import (
    NETWORK_OF_ROLE,
    ROLES_OF,
    TIERS_OF,
    in_compute_fabric,
    network_of,
)
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE
from planner.model.ports import COMPUTE


class FabricError(ValueError):
    """The fabric cannot be built as asked (too many GPUs, unknown switch …); one-line reason."""


@dataclass(frozen=True)
class FabricDesign:
    """The counts of one fabric. Index arithmetic in ``cabling`` relies on these fields.

    ``down``/``up`` are a leaf's downlink and uplink ports (``down + up = ports``); an SU holds
    ``down`` nodes. Two tiers: one pod holding every SU, ``spines_per_pod`` spines whose first
    ``spine_down`` ports face the leaves, ``spine_up`` = 0. Three tiers: pods of ``sus_per_pod``
    SUs (the last may hold fewer, ``pod_sus``); a spine of a full pod has ``spine_down`` ports
    down and as many, ``spine_up``, up from port ``spine_down`` on; spine *j* of every pod
    connects to core group *j* of ``cores_per_group``.
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
    def switches(self) -> int:
        return self.leaves + self.spines + self.cores if self.nodes else 0

    @property
    def cables(self) -> int:
        links = self.counts()["links"]
        return sum(links.values())

    @property
    def links_per_leaf_spine(self) -> int:
        """Links from one leaf to each spine of its pod."""
        return self.up // self.spines_per_pod if self.spines_per_pod else 0

    @property
    def links_per_spine_core(self) -> int:
        """Links from a spine of a full pod to each core of its group (also the core ports
        each full pod takes on a core: pod *p* uses ports ``p · links_per_spine_core`` on)."""
        return self.spine_up // self.cores_per_group if self.cores_per_group else 0

    def pod_sus(self, pod: int) -> int:
        """SUs in pod ``pod`` (0-based): ``sus_per_pod``, the last pod the rest."""
        return self.sus_per_pod if pod < self.pods - 1 else self.sus - (self.pods - 1) * self.sus_per_pod

    def pod_spine_up(self, pod: int) -> int:
        """Uplinks of each spine of pod ``pod``: as many as its leaves send up to it (3 tiers)."""
        if self.tiers < 3:
            return 0
        return self.pod_sus(pod) * self.rails * self.links_per_leaf_spine

    def reached_cores(self, pod: int) -> int:
        """Cores of its group a spine of pod ``pod`` reaches (the group's first ones): all of them
        when its uplinks divide evenly over the group, else the most that they divide over."""
        return _largest_divisor_at_most(self.pod_spine_up(pod), self.cores_per_group) if self.tiers == 3 else 0

    def pod_links_per_core(self, pod: int) -> int:
        """Links from a spine of pod ``pod`` to each core it reaches."""
        reached = self.reached_cores(pod)
        return self.pod_spine_up(pod) // reached if reached else 0

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
        leaf_spine = self.leaves * self.up if self.tiers > 1 else 0
        return {
            "nodes": self.nodes,
            "gpus": self.gpus,
            "tiers": self.tiers,
            "switches": {"leaf": self.leaves if self.nodes else 0, "spine": self.spines, "core": self.cores},
            "links": {
                TIER_NODE_LEAF: self.gpus,
                TIER_LEAF_SPINE: leaf_spine,
                # every spine sends up what comes up to it: as many spine–core links as leaf–spine
                TIER_SPINE_CORE: leaf_spine if self.tiers == 3 else 0,
            },
            "oversubscription": self.oversubscription,
        }


def _divisors(n: int) -> list[int]:
    """Divisors of ``n`` in ascending order."""
    return [d for d in range(1, n + 1) if n % d == 0]


def _largest_divisor_at_most(n: int, limit: int) -> int:
    """Largest divisor of ``n`` that is ≤ ``limit`` (1 when ``limit`` < 1 or ``n`` = 0)."""
    return max((d for d in range(1, min(n, limit) + 1) if n % d == 0), default=1)


def leaf_split(ports: int, oversubscription: float) -> tuple[int, int]:
    """(downlinks, uplinks) of a leaf with ``ports`` ports at most at a downlink:uplink ratio:
    the most downlinks the ratio allows, the rest up."""
    if oversubscription < 1.0:
        raise FabricError(f"oversubscription {oversubscription:g} is below 1 (1 = non-blocking)")
    down = math.floor(ports * oversubscription / (1 + oversubscription) + 1e-9)
    up = ports - down
    if up < 1 or down < 1:
        raise FabricError(f"oversubscription {oversubscription:g} leaves no uplink on a {ports}-port leaf")
    return down, up


def _two_tier(nodes: int, rails: int, ports: int, up: int) -> FabricDesign | None:
    """The smallest spine layer for leaves of ``up`` uplinks, if one spine layer holds them."""
    down = ports - up
    sus = math.ceil(nodes / down)
    leaves = sus * rails
    for spines in _divisors(up):
        if leaves * up <= spines * ports:
            return FabricDesign(nodes, rails, ports, 2, down, up, sus, sus, 1, spines, leaves * up // spines, 0, 0)
    return None


def _three_tier(nodes: int, rails: int, ports: int, up: int) -> list[FabricDesign]:
    """For each pod size and spine count per pod, the fewest cores per group that work."""
    down = ports - up
    sus = math.ceil(nodes / down)
    found = []
    for sus_per_pod in range(1, min(sus, ports // (2 * rails)) + 1):
        pods = math.ceil(sus / sus_per_pod)
        for per_pod in _divisors(up):
            spine_down = sus_per_pod * rails * (up // per_pod)
            if 2 * spine_down > ports:  # a spine needs a port up for every port down
                continue
            for group in _divisors(spine_down):
                design = FabricDesign(nodes, rails, ports, 3, down, up, sus, sus_per_pod, pods, per_pod,
                                      spine_down, spine_down, group)
                last = pods - 1
                if last * design.links_per_spine_core + design.pod_links_per_core(last) <= ports:
                    found.append(design)
                    break
    return found


def _preference(design: FabricDesign) -> tuple:
    """Fewest switches, fewest cables, the ratio nearest the one asked, the smallest pod."""
    return (design.switches, design.cables, design.tiers, -design.down, design.sus_per_pod, design.spines_per_pod)


@lru_cache(maxsize=512)
def design_fabric(nodes: int, rails: int, ports: int, oversubscription: float = 1.0) -> FabricDesign:
    """The fabric for ``nodes`` nodes of ``rails`` GPUs on ``ports``-port switches whose leaves
    are oversubscribed at most ``oversubscription``:1 (module docstring: how it is chosen)."""
    if nodes < 0 or rails < 1 or ports < 2:
        raise FabricError(f"cannot size a fabric for {nodes} nodes × {rails} rails on {ports}-port switches")
    if oversubscription < 1.0:
        raise FabricError(f"oversubscription {oversubscription:g} is below 1 (1 = non-blocking)")
    if nodes * rails <= ports:
        return FabricDesign(nodes, rails, ports, 1, ports, 0, 1 if nodes else 0, 1, 0, 0, 0, 0, 0)
    fewest_up = leaf_split(ports, oversubscription)[1]
    non_blocking_up = leaf_split(ports, 1.0)[1]
    by_up: dict[int, list[FabricDesign]] = {}
    for up in range(fewest_up, non_blocking_up + 1):
        two = _two_tier(nodes, rails, ports, up)
        by_up[up] = [two] if two else _three_tier(nodes, rails, ports, up)
    candidates = [design for designs in by_up.values() for design in designs]
    if not candidates:
        limit = ports ** 3 // 4
        raise FabricError(
            f"{nodes * rails:,} GPUs do not fit a three-tier fat-tree of {ports}-port switches "
            f"(limit about {limit:,} GPUs non-blocking)"
        )
    if by_up[non_blocking_up]:  # never more switches or cables than non-blocking (issue 18)
        base = min(by_up[non_blocking_up], key=_preference)
        candidates = [d for d in candidates if d.switches <= base.switches and d.cables <= base.cables]
    return min(candidates, key=_preference)


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
    """The switch type a plan uses: its fabric switches' type, else the catalogue's first switch
    speaking the design basis's fabric kind (any switch when none does)."""
    for device in doc.devices.values():
        if in_compute_fabric(device.role) and doc.catalog[device.type].kind == SWITCH:
            return device.type
    wanted = INFINIBAND if doc.basis.fabric_kind == INFINIBAND else ETHERNET
    switches = [s for s in doc.catalog.fabric_switches() if switch_protocol(s) == wanted]
    return (switches or doc.catalog.fabric_switches())[0].key


def fabric_counts(doc: Document) -> dict:
    """Counts for ``planner fabric --json``: the compute fabric's (DESIGN §7), and under
    ``networks`` every network's switches by role and cables by tier (``network_counts``).

    A plan with a generated fabric (switches with a role) reports what it holds; a plan
    without one reports the fabric the generator would build for its nodes.
    """
    counts = _compute_counts(doc)
    counts["networks"] = network_counts(doc)
    return counts


def network_counts(doc: Document) -> dict[str, dict[str, dict[str, int]]]:
    """Each network's switches by role and cables by tier, every role and tier listed (0 when
    the plan has none), in ``planner.model.networks`` order."""
    found: dict[str, dict[str, dict[str, int]]] = {
        network: {"switches": dict.fromkeys(ROLES_OF.get(network, ()), 0), "links": dict.fromkeys(tiers, 0)}
        for network, tiers in TIERS_OF.items()}
    for device in doc.devices.values():
        network = NETWORK_OF_ROLE.get(device.role)
        if network is not None:
            found[network]["switches"][device.role] += 1
    for link in doc.links.values():
        links = found[network_of(link)]["links"]
        if link.tier in links:  # a hand-drawn compute cable of an older file has no tier
            links[link.tier] += 1
    return found


def _compute_counts(doc: Document) -> dict:
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
    for link in doc.links_in(COMPUTE).values():
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
