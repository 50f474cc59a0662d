"""The storage fabric: a leaf–spine joining every GPU node's storage ports and every storage
node's to the plan's storage switches (issue 21, DESIGN §3 Networks).

NVIDIA builds the DGX SuperPOD storage fabric of the same switches as the compute fabric
(RA-11333-001 V11, "Storage Fabric": MQM9700), storage devices at 1:1 port to uplink and the
DGX connections slightly oversubscribed (about 4:3), the fabric sized "to match peak performance
of the configured storage array" (Table 1). Here the fabric is the compute leaves' switch type,
sized so the GPU nodes' and the storage nodes' storage ports are non-blocking up to the design
basis's read bandwidth per GPU (``storage_read_gbps_per_gpu``, RA Table 6): ``size_storage``
says how. Switches are storage leaves ``SL1`` … and spines ``SS1`` … in network racks; a
regeneration reuses them by role and name and keeps every cable whose ends stay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.fabric.network_build import (
    Cabler,
    Staged,
    Wanted,
    current_peers,
    finish,
    place,
    retire,
)
from planner.fabric.placement import row_key
from planner.fabric.reconcile import keep_or_deal
from planner.fabric.sizing import default_switch, node_devices
from planner.fabric.stages import NetworkGeneration
from planner.model.catalog import STORAGE
from planner.model.document import Document, natural_key
from planner.model.networks import (
    BITS_PER_BYTE,
    ROLE_STORAGE_LEAF,
    ROLE_STORAGE_SPINE,
    TIER_STORAGE_ACCESS,
    TIER_STORAGE_UPLINK,
)
from planner.model.objects import Device
from planner.model.ports import STORAGE_NET


@dataclass(frozen=True)
class StorageDesign:
    """Leaves, each leaf's uplinks, and spines per block of at most one spine's ports of leaves;
    per leaf the storage-node ports and the GPU-node ports it holds."""

    uplinks: int
    spines_per_block: int
    leaves_per_block: int
    storage_ports: tuple[int, ...]
    gpu_ports: tuple[int, ...]

    @property
    def leaves(self) -> int:
        return len(self.gpu_ports)

    @property
    def blocks(self) -> int:
        return math.ceil(self.leaves / self.leaves_per_block) if self.spines_per_block else 0

    @property
    def spines(self) -> int:
        return self.blocks * self.spines_per_block


def _spread(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` as even as can be, the first ones one more."""
    return [total // parts + (i < total % parts) for i in range(parts)]


def size_storage(gpu_ports: int, storage_ports: int, switch_ports: int, port_gbps: float,
                 read_gbps: float) -> StorageDesign:
    """The storage leaf–spine for ``gpu_ports`` GPU-node and ``storage_ports`` storage-node ports on
    ``switch_ports``-port switches at ``port_gbps``, carrying ``read_gbps`` (Gb/s: GPUs × basis
    GB/s × 8) between them.

    Ports P = GPU ports G + storage ports S. One leaf and no spine when P ≤ k (k = ports per
    switch). Otherwise, for u = 1, 2 … (uplinks per leaf, at most k/2): leaves L = ⌈P / (k − u)⌉,
    each holding an even share t_l of the ports, the storage ports dealt round the leaves (s_l;
    every leaf gets its share of the storage), the GPU ports the rest in node order (g_l = t_l −
    s_l). A leaf's uplinks must carry, in each direction, what would cross the spine if none of
    its traffic stayed on it: need_l = max(min(g_l·v, R·g_l/G), min(s_l·v, R·s_l/S)) Gb/s — the
    reads its GPUs take, and those its storage serves, each at most its ports' bandwidth
    (v = port speed, R = read bandwidth). The first u with ⌈need_l / v⌉ ≤ u on every leaf is
    taken. Spines: leaves in blocks of at most k (every spine port serves one leaf's link), each
    block the fewest spines S_b ≥ ⌈L_b·u/k⌉ that divide u, so each leaf has u/S_b links to every
    spine of its block (spread evenly, as N4 asks of the compute leaves). Blocks are separate
    leaf–spines, each with its share of the storage nodes.
    """
    k, total = switch_ports, gpu_ports + storage_ports
    if total <= k:
        return StorageDesign(0, 0, 1, (storage_ports,), (gpu_ports,))
    for uplinks in range(1, k // 2 + 1):
        leaves = math.ceil(total / (k - uplinks))
        shares, stores = _spread(total, leaves), _spread(storage_ports, leaves)
        gpus = [t - s for t, s in zip(shares, stores)]
        need = max(max(min(g * port_gbps, read_gbps * g / max(gpu_ports, 1)),
                       min(s * port_gbps, read_gbps * s / max(storage_ports, 1))) for g, s in zip(gpus, stores))
        if math.ceil(need / port_gbps - 1e-9) <= uplinks:
            break
    per_block = min(leaves, k)
    floor = math.ceil(per_block * uplinks / k)
    spines = next(s for s in range(max(floor, 1), uplinks + 1) if uplinks % s == 0)
    return StorageDesign(uplinks, spines, per_block, tuple(stores), tuple(gpus))


def storage_switch_type(doc: Document) -> str:
    """The switch the storage fabric is built of: the compute leaves' type (RA-11333-001 "Storage
    Fabric": the same switches), else the plan's fabric switch."""
    return next((d.type for d in doc.devices.values() if d.role == "leaf"), None) or default_switch(doc)


def storage_devices(doc: Document) -> list[Device]:
    """The plan's storage nodes, by row, rack and U."""
    return sorted((d for d in doc.devices.values() if doc.catalog[d.type].kind == STORAGE),
                  key=lambda d: (natural_key(row_key(doc.racks[d.rack])), natural_key(doc.racks[d.rack].name), d.u))


def plan_storage(doc: Document) -> NetworkGeneration:
    """The storage fabric's generation (``planner.fabric.stages`` step)."""
    switch_type = storage_switch_type(doc)
    item = doc.catalog[switch_type]
    nodes, stores = node_devices(doc), storage_devices(doc)
    gpu_ends = [(n, p) for n in nodes for p in doc.catalog[n.type].port_names(STORAGE_NET)]
    store_ends = [(d, p) for d in stores for p in doc.catalog[d.type].port_names(STORAGE_NET)]
    gpus = sum(doc.catalog[n.type].gpus for n in nodes)
    staged = Staged(doc)
    leaves: list[Device] = []
    spines: list[Device] = []
    design = None
    if gpu_ends:
        read = gpus * doc.basis.storage_read_gbps_per_gpu * BITS_PER_BYTE
        design = size_storage(len(gpu_ends), len(store_ends), item.port_count, item.port_speed_gbps, read)
        home = row_key(doc.racks[stores[0].rack]) if stores else row_key(doc.racks[nodes[len(nodes) // 2].rack])
        starts = [sum(design.gpu_ports[:i]) for i in range(design.leaves)]
        homes = [row_key(doc.racks[gpu_ends[min(s + g // 2, len(gpu_ends) - 1)][0].rack]) if g else home
                 for s, g in zip(starts, design.gpu_ports)]
        wanted = [Wanted(ROLE_STORAGE_LEAF, f"SL{i + 1}", h) for i, h in enumerate(homes)]
        wanted += [Wanted(ROLE_STORAGE_SPINE, f"SS{i + 1}", home) for i in range(design.spines)]
        placed = place(staged, switch_type, wanted)
        leaves, spines = placed[:design.leaves], placed[design.leaves:]
    retire(staged, (ROLE_STORAGE_LEAF, ROLE_STORAGE_SPINE), [*leaves, *spines])
    cabler = Cabler(doc)
    if design is not None:
        _cable(doc, cabler, design, item.port_names(), leaves, spines, gpu_ends, store_ends)
    switches = {ROLE_STORAGE_LEAF: len(leaves), ROLE_STORAGE_SPINE: len(spines)}
    return finish(staged, STORAGE_NET, cabler, "Generate storage fabric", switches)


def _leaf_shares(ends: list[tuple[Device, str]], quotas: tuple[int, ...], held: dict[tuple[str, str], int],
                 round_robin: bool) -> list[list[tuple[Device, str]]]:
    """``ends`` over the leaves, ``quotas[l]`` on leaf l: an end stays on the leaf it is cabled
    to while that leaf has room; the others are dealt round the leaves with room
    (``round_robin``, the storage nodes) or fill them in order (the GPU nodes)."""
    per_leaf: list[list[tuple[Device, str]]] = [[] for _ in quotas]
    room = list(quotas)
    rest = []
    for end in ends:
        leaf = held.get((end[0].id, end[1]))
        if leaf is not None and room[leaf] > 0:
            per_leaf[leaf].append(end)
            room[leaf] -= 1
        else:
            rest.append(end)
    at = 0
    for end in rest[:sum(room)]:
        while not room[at % len(room)]:
            at += 1
        per_leaf[at % len(room)].append(end)
        room[at % len(room)] -= 1
        at += round_robin
    return per_leaf


def _cable(doc: Document, cabler: Cabler, design: StorageDesign, names: list[str], leaves: list[Device], spines: list[Device],
           gpu_ends: list[tuple[Device, str]], store_ends: list[tuple[Device, str]]) -> None:
    """Storage ports dealt round the leaves, GPU ports filling them in node order, each leaf's last
    ``uplinks`` ports spread evenly over its block's spines. A port cabled to a leaf stays on that
    leaf and leaf port while the leaf's share of its kind has room and the port is a downlink
    (``keep_or_deal``), so growth rewires only the ports that must move."""
    peers = current_peers(doc, STORAGE_NET, TIER_STORAGE_ACCESS, leaves)
    index = {leaf.id: i for i, leaf in enumerate(leaves)}
    held = {end: index[leaf_id] for end, (leaf_id, _) in peers.items()}
    stores = _leaf_shares(store_ends, design.storage_ports, held, round_robin=True)
    gpus = _leaf_shares(gpu_ends, design.gpu_ports, held, round_robin=False)
    up, each = design.uplinks, design.uplinks // max(design.spines_per_block, 1)
    downlinks = names[:len(names) - up]
    for at_leaf, leaf in enumerate(leaves):
        ends = stores[at_leaf] + gpus[at_leaf]
        keys = [(device.id, port) for device, port in ends]
        slots = keep_or_deal(keys, [(leaf.id, p) for p in downlinks], peers)
        for (device, port), slot in zip(ends, slots):
            if slot is not None:
                cabler.connect(device, port, leaf, slot[1], TIER_STORAGE_ACCESS)
        block, at = divmod(at_leaf, design.leaves_per_block)
        for m in range(up):
            spine = spines[block * design.spines_per_block + m % design.spines_per_block]
            cabler.connect(leaf, names[len(names) - up + m], spine, names[at * each + m // design.spines_per_block],
                           TIER_STORAGE_UPLINK)
