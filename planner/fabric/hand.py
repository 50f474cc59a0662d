"""A cable made by hand (the window's port picker, a cable list): its tier, rail, route and media.

The generator knows each cable's tier and rail from the design; a cable a user draws between two
ports gets them from its ends, so the N-rules judge it as they judge a generated one: a GPU node
port to a leaf is ``node-leaf`` on the node port's rail (GPU *i* ↔ rail *i*), a leaf to a spine
``leaf-spine`` on the leaf's rail, a spine to a core ``spine-core``. Any other pair (storage, a
switch without a fabric role) has no fabric tier. The lower tier's end is end A, as the
generator writes them, and the route, stock length and media come from the same router.
"""

from __future__ import annotations

from planner.fabric.routing import Router
from planner.model.catalog import NODE
from planner.model.document import Document
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE, Link

#: Fabric roles from the bottom up; a cable joins two neighbouring ones.
_LEVELS = {NODE: 0, "leaf": 1, "spine": 2, "core": 3}
_TIERS = {(0, 1): TIER_NODE_LEAF, (1, 2): TIER_LEAF_SPINE, (2, 3): TIER_SPINE_CORE}


def _level(doc: Document, device_id: str) -> int | None:
    device = doc.devices[device_id]
    return _LEVELS.get(NODE if doc.catalog[device.type].kind == NODE else device.role)


def rail_of_port(doc: Document, device_id: str, port: str) -> int:
    """The rail a port is on: a GPU node's port *i* is rail *i*; a switch port is on its switch's
    rail (leaves have one, spines and cores none: 0)."""
    device = doc.devices[device_id]
    item = doc.catalog[device.type]
    if item.kind == NODE:
        names = item.port_names()
        return names.index(port) + 1 if port in names else 0
    return device.rail


def oriented(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str) -> tuple[str, str, str, str]:
    """The ends with the lower fabric level first (a node before its leaf), as generated."""
    a, b = _level(doc, a_device), _level(doc, b_device)
    if a is not None and b is not None and b < a:
        return b_device, b_port, a_device, a_port
    return a_device, a_port, b_device, b_port


def tier_and_rail(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str) -> tuple[str, int]:
    """The fabric tier and rail a cable between these ports has ("" and 0 outside the fabric)."""
    a, b = _level(doc, a_device), _level(doc, b_device)
    if a is None or b is None:
        return "", 0
    low, high = sorted((a, b))
    tier = _TIERS.get((low, high), "")
    if tier == TIER_NODE_LEAF:
        node, port = (a_device, a_port) if a == 0 else (b_device, b_port)
        return tier, rail_of_port(doc, node, port)
    if tier == TIER_LEAF_SPINE:
        return tier, doc.devices[a_device if a == 1 else b_device].rail
    return tier, 0


def hand_cable(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str, *, link_id: str = "",
               label: str = "", router: Router | None = None) -> Link:
    """The cable between two ports, routed, with media and stock length; ``link_id`` "" takes a new
    id. ``label`` "" derives the label from the ends."""
    a_device, a_port, b_device, b_port = oriented(doc, a_device, a_port, b_device, b_port)
    tier, rail = tier_and_rail(doc, a_device, a_port, b_device, b_port)
    result = (router or Router(doc)).route(a_device, b_device, tier)
    return Link(id=link_id or doc.new_id("link"), a_device=a_device, a_port=a_port, b_device=b_device, b_port=b_port,
                tier=tier, rail=rail, media=result.media, length_m=result.length_m, stock_m=result.stock_m,
                label=label)
