"""A cable made by hand (the window's port picker, a cable list): its tier, rail, route and media.

The generator knows each cable's tier and rail from the design; a cable a user draws between two
ports gets them from its ends, so the N-rules judge it as they judge a generated one: a GPU node
port to a leaf is ``node-leaf`` on the node port's rail (GPU *i* ↔ rail *i*), a leaf to a spine
``leaf-spine`` on the leaf's rail, a spine to a core ``spine-core``. A cable between ports of
another network (``CatalogItem.ports()``; a switch's cages are on its role's network) gets that
network's tier: a device to its storage leaf or management access switch the access tier, a leaf
or access switch to a spine or aggregation switch the uplink tier (a node's BMC to an OOB switch
is ``oob-access``), a PSU to a PDU outlet a power cord, a quick-disconnect to the manifold a hose;
those have no rail. Any other pair (a switch without a role) has no tier. The lower tier's end is
end A, as the generator writes them (the PSU's or the device's end for cords and hoses), and the
route, stock length and media come from the same router; cords and hoses stay in the rack and
have no media (a cord's length and stock as ``power_cords`` plans them).
"""

from __future__ import annotations

from planner.fabric.cage_media import with_cage_partners
from planner.fabric.power_cords import cord_length_m, outlet_height_m, psu_height_m
from planner.fabric.routing import Router
from planner.model.catalog import NODE, RACK_MANIFOLD, RACK_PDU, SWITCH
from planner.model.cords import cord_stock_m
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS, NETWORK_OF_ROLE, ROLES_OF, TIERS_OF
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE, Device, Link
from planner.model.ports import COMPUTE, COOLANT, POWER

#: Fabric roles from the bottom up; a cable joins two neighbouring ones.
_LEVELS = {NODE: 0, "leaf": 1, "spine": 2, "core": 3}
_TIERS = {(0, 1): TIER_NODE_LEAF, (1, 2): TIER_LEAF_SPINE, (2, 3): TIER_SPINE_CORE}


def _level(doc: Document, device_id: str) -> int | None:
    device = doc.devices[device_id]
    return _LEVELS.get(NODE if doc.catalog[device.type].kind == NODE else device.role)


def port_network(doc: Document, device_id: str, port: str) -> str:
    """The network a port is on (``CatalogItem.ports()``); a switch's cages on its role's network
    (a fabric switch is a storage leaf by its role), "" for a port its type does not have."""
    device = doc.devices[device_id]
    item = doc.catalog[device.type]
    if item.kind == SWITCH and device.role in NETWORK_OF_ROLE and port in item.port_names():
        return NETWORK_OF_ROLE[device.role]
    return next((found.network for found in item.ports() if found.name == port), "")


def _network_tier(doc: Document, network: str, a_device: str, b_device: str) -> tuple[str, bool]:
    """The tier of a cable of a network other than compute, and whether end B is the lower one
    (a switch of the network's upper role, or a PDU or manifold, belongs at end B)."""
    if network in (POWER, COOLANT):
        feeding = (RACK_PDU, RACK_MANIFOLD)
        kind_a, kind_b = (doc.catalog[doc.devices[d].type].kind for d in (a_device, b_device))
        return TIERS_OF[network][0], kind_a in feeding and kind_b not in feeding
    roles = ROLES_OF[network]
    a_role, b_role = doc.devices[a_device].role, doc.devices[b_device].role
    a_up, b_up = a_role in roles[1:], b_role in roles[1:]
    access, uplink = TIERS_OF[network]
    if a_role in roles and b_role in roles:
        return uplink, a_up and not b_up
    return access, a_role in roles and b_role not in roles


def rail_of_port(doc: Document, device_id: str, port: str) -> int:
    """The rail a port is on: a GPU node's port *i* is rail *i*; a switch port is on its switch's
    rail (leaves have one, spines and cores none: 0)."""
    device = doc.devices[device_id]
    item = doc.catalog[device.type]
    if item.kind == NODE:
        names = item.port_names()
        return names.index(port) + 1 if port in names else 0
    return device.rail


def cable_network(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str) -> str:
    """The network of a cable between two ports: the ports' network where either is off compute
    (end A's first), else compute."""
    for device_id, port in ((a_device, a_port), (b_device, b_port)):
        network = port_network(doc, device_id, port)
        if network and network != COMPUTE:
            return network
    return COMPUTE


def oriented(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str) -> tuple[str, str, str, str]:
    """The ends with the lower level first (a node before its leaf or access switch, a PSU before
    its PDU outlet), as generated."""
    network = cable_network(doc, a_device, a_port, b_device, b_port)
    if network != COMPUTE:
        if _network_tier(doc, network, a_device, b_device)[1]:
            return b_device, b_port, a_device, a_port
        return a_device, a_port, b_device, b_port
    a, b = _level(doc, a_device), _level(doc, b_device)
    if a is not None and b is not None and b < a:
        return b_device, b_port, a_device, a_port
    return a_device, a_port, b_device, b_port


def tier_and_rail(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str) -> tuple[str, int]:
    """The tier and rail a cable between these ports has: of its network's family off compute
    (no rail), of the compute fabric's ("" and 0 outside it) otherwise."""
    network = cable_network(doc, a_device, a_port, b_device, b_port)
    if network != COMPUTE:
        return _network_tier(doc, network, a_device, b_device)[0], 0
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
    result = (router or Router(doc)).route(a_device, b_device, tier, a_port, b_port)
    media, length, stock = result.media, result.length_m, result.stock_m
    network = cable_network(doc, a_device, a_port, b_device, b_port)
    if network == POWER and b_port in doc.catalog[doc.devices[b_device].type].outlet_names():
        length, stock = _cord(doc, doc.devices[a_device], doc.devices[b_device], b_port)
    if network not in DATA_NETWORKS:
        media = ""
        stock = stock if network == POWER else 0.0
    link = Link(id=link_id or doc.new_id("link"), a_device=a_device, a_port=a_port, b_device=b_device, b_port=b_port,
                tier=tier, rail=rail, media=media, length_m=length, stock_m=stock, label=label)
    return with_cage_partners(router or Router(doc), link) if network in DATA_NETWORKS else link


def _cord(doc: Document, device: Device, pdu: Device, outlet: str) -> tuple[float, float]:
    """A cord's length (PSU to outlet up the strip, with slack) and stock length, as
    ``planner.fabric.power_cords`` plans them."""
    names = doc.catalog[pdu.type].outlet_names()
    rack_units = doc.catalog[doc.racks[pdu.rack].type].rack_units if pdu.rack in doc.racks else 0
    item = doc.catalog[device.type]
    run = abs(outlet_height_m(names.index(outlet), len(names), rack_units) - psu_height_m(device, item))
    length = cord_length_m(doc, run)
    return length, cord_stock_m(doc.catalog[pdu.type].outlet(outlet).outlet, length)
