"""The network, tier and rail of each cable read from a NetBox set (``planner import --from netbox``).

A cable's tier is the one its tier tag names (``tier-storage-access`` …, ``netbox_names.TIER_TAGS``:
the set's own cables carry one). Without one, the network is its network tag's
(``net-oob`` …), else the one its ports are on (a PSU or outlet: power; a BMC: out-of-band; a
switch's cages: its role's network, ``NETWORK_OF_ROLE``, else the cage network of its type),
and the tier follows from the ends' roles: on the compute fabric node–leaf, leaf–spine,
spine–core; on the storage and management networks an uplink joins two switches of that
network's roles, any other cable is an access cable; a power cable is a cord.

Compute cables then get their rail (the node port's place among the rails) and each rail leaf
its rail and scalable unit (the set of nodes it serves), as the generator numbers them.
"""

from __future__ import annotations

from collections import defaultdict

from planner.model.catalog import NODE, SWITCH, Catalog
from planner.model.document import natural_key
from planner.model.networks import NETWORK_OF_ROLE, NETWORK_OF_TIER, ROLES_OF, TIERS_OF
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIER_SPINE_CORE, Device, Link
from planner.model.ports import COMPUTE, COOLANT, POWER

_COMPUTE_TIERS = {frozenset({"node", "leaf"}): TIER_NODE_LEAF, frozenset({"leaf", "spine"}): TIER_LEAF_SPINE,
                  frozenset({"spine", "core"}): TIER_SPINE_CORE}


def port_network(catalog: Catalog, device: Device, port: str) -> str:
    """The network a device's port is on: a switch's cages by its role, anything else by its type."""
    item = catalog[device.type]
    if item.kind == SWITCH and device.role in NETWORK_OF_ROLE and port in item.port_names():
        return NETWORK_OF_ROLE[device.role]
    return next((found.network for found in item.ports() if found.name == port), COMPUTE)


def _tier(catalog: Catalog, ends: tuple[Device, Device], network: str) -> str:
    if network == COMPUTE:
        roles = frozenset("node" if catalog[d.type].kind == NODE else d.role for d in ends)
        return _COMPUTE_TIERS.get(roles, "")
    tiers = TIERS_OF[network]
    if network in ROLES_OF:
        uplink = all(d.role in ROLES_OF[network] for d in ends)
        return tiers[1] if uplink else tiers[0]
    return tiers[0]


def assign_networks(catalog: Catalog, devices: list[Device], links: list[Link],
                    tagged: dict[str, tuple[str, str]]) -> None:
    """Set every cable's tier (``tagged``: link id → (network, tier) its tags name, "" when none)
    and the compute fabric's rails and scalable units."""
    by_id = {d.id: d for d in devices}
    for link in links:
        network, tier = tagged.get(link.id, ("", ""))
        if tier:
            link.tier = tier
            continue
        ends = (by_id[link.a_device], by_id[link.b_device])
        if not network:
            found = {port_network(catalog, d, p) for d, p in zip(ends, (link.a_port, link.b_port), strict=True)}
            network = POWER if POWER in found else next(iter(found - {COMPUTE}), COMPUTE)
        link.tier = _tier(catalog, ends, network) if network != COOLANT else TIERS_OF[COOLANT][0]
    _rails(catalog, by_id, [link for link in links if NETWORK_OF_TIER.get(link.tier, COMPUTE) == COMPUTE])


def _rails(catalog: Catalog, by_id: dict[str, Device], links: list[Link]) -> None:
    """Rail of every compute cable, rail and SU of every rail leaf."""
    role = {d: "node" if catalog[device.type].kind == NODE else device.role for d, device in by_id.items()}
    leaf_rails: dict[str, set[int]] = defaultdict(set)
    leaf_nodes: dict[str, set[str]] = defaultdict(set)
    for link in links:
        if link.tier == TIER_NODE_LEAF:
            node, port, leaf = ((link.a_device, link.a_port, link.b_device) if role[link.a_device] == "node"
                                else (link.b_device, link.b_port, link.a_device))
            names = catalog[by_id[node].type].port_names()
            link.rail = names.index(port) + 1 if port in names else 0
            leaf_rails[leaf].add(link.rail)
            leaf_nodes[leaf].add(node)
    sus: dict[frozenset[str], int] = {}
    for leaf_id in sorted(leaf_rails, key=lambda d: natural_key(by_id[d].name)):
        rails = leaf_rails[leaf_id]
        if len(rails) == 1:  # a rail leaf (a single-switch fabric carries every rail: rail 0)
            by_id[leaf_id].rail = next(iter(rails))
            by_id[leaf_id].su = sus.setdefault(frozenset(leaf_nodes[leaf_id]), len(sus) + 1)
    for link in links:
        if link.tier == TIER_LEAF_SPINE:
            leaf_device = by_id[link.a_device if role[link.a_device] == "leaf" else link.b_device]
            link.rail = leaf_device.rail
