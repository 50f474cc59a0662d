"""The storage nodes a template gives a hall: enough to feed every GPU its design-basis read bandwidth.

NVIDIA's DGX SuperPOD sizes the storage fabric "to match peak performance of the configured
storage array" (RA-11333-001 V11, Table 1) and asks the array for a read bandwidth per scalable
unit (Table 6); a template has no array yet, so it places as many storage nodes as the GPUs'
read bandwidth (``DesignBasis.storage_read_gbps_per_gpu``) needs through their storage ports,
in the network racks of the middle row (new racks there when those are full).
"""

from __future__ import annotations

import math

from planner.fabric.place_devices import place_devices
from planner.fabric.placement import row_key
from planner.fabric.relength import recompute_lengths
from planner.model.catalog import CatalogItem
from planner.model.document import Document, natural_key
from planner.model.networks import BITS_PER_BYTE
from planner.model.ports import COMPUTE, STORAGE_NET


def storage_gbps(item: CatalogItem) -> float:
    """A storage node's bandwidth on the storage fabric: the sum of its storage ports' speeds, Gb/s."""
    return sum(port.speed_gbps for port in item.ports() if port.network == STORAGE_NET)


def storage_nodes_needed(doc: Document, gpus: int, storage_key: str) -> int:
    """Storage nodes of ``storage_key`` whose storage ports carry ``gpus`` GPUs' read bandwidth:
    ⌈GPUs × GB/s per GPU × 8 / node Gb/s⌉ (at least one when there are GPUs)."""
    each = storage_gbps(doc.catalog[storage_key])
    if gpus <= 0 or each <= 0:
        return 0
    need = gpus * doc.basis.storage_read_gbps_per_gpu * BITS_PER_BYTE
    return max(1, math.ceil(need / each - 1e-9))


def place_storage_nodes(doc: Document, storage_key: str, count: int, rack_power_w: float | None) -> None:
    """Add ``count`` storage nodes named ST1 … to the network racks of the plan's middle row."""
    if count <= 0 or not doc.racks:
        return
    rows = sorted({row_key(rack) for rack in doc.racks.values()}, key=natural_key)
    home = rows[len(rows) // 2]
    fields = [{"name": f"ST{n}"} for n in range(1, count + 1)]
    before = {rack.id: (rack.x, rack.y) for rack in doc.racks.values()}
    commands, _ = place_devices(doc, storage_key, fields, [home] * count, rack_power_w=rack_power_w,
                                text="Place storage nodes")
    for command in commands:
        command.apply(doc)
    if any((rack.x, rack.y) != before.get(rack.id) for rack in doc.racks.values()):
        # A rack inserted mid-row moved the racks beyond it: the compute cables routed before
        # run a new way now (N8 would find their stored lengths stale).
        recompute_lengths(doc, list(doc.links_in(COMPUTE))).apply(doc)
