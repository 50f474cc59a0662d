"""Which network a cable, a switch or a port is on (issue 21, DESIGN §3 Networks).

A hall has four data networks (NVIDIA DGX SuperPOD RA-11333-001, "Network Fabrics": compute,
storage, in-band management, out-of-band management), and two more things an installer
connects: power cords (a PSU to a rack PDU outlet) and coolant hoses (a device's
quick-disconnects to the rack manifold). Every one of them is a ``Link``; its ``tier`` names its
network's family, so one cable list, one undo stack, one diff and one set of states covers them
all. A tier not named here (a hand-drawn cable of an older file: "") is on the compute network,
as every cable was before networks existed.

Switches carry a role of their network (``ROLES_OF``): the compute fabric's leaf, spine and core
(``planner.model.objects.ROLES``), the storage fabric's leaf and spine, and each management
network's access switches and aggregation pair. A switch's port cages are on its role's network.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from planner.model.objects import ROLES, TIERS, Link
from planner.model.ports import COMPUTE, COOLANT, INBAND, OOB, POWER, STORAGE_NET

#: Storage fabric (leaf–spine): a GPU or storage node's storage port to a storage leaf, and a
#: storage leaf to a storage spine.
TIER_STORAGE_ACCESS = "storage-access"
TIER_STORAGE_UPLINK = "storage-uplink"
#: In-band and out-of-band management: a device's port to its access switch, an access switch
#: to each switch of its aggregation pair.
TIER_INBAND_ACCESS = "inband-access"
TIER_INBAND_UPLINK = "inband-uplink"
TIER_OOB_ACCESS = "oob-access"
TIER_OOB_UPLINK = "oob-uplink"
#: A power cord from a PSU inlet to a rack PDU outlet.
TIER_POWER_CORD = "power-cord"
#: A coolant hose from a device's supply or return quick-disconnect to the rack manifold's.
TIER_HOSE = "coolant-hose"

#: Each network's tiers, in the order a cable list prints them.
TIERS_OF: Mapping[str, tuple[str, ...]] = MappingProxyType({
    COMPUTE: TIERS,
    STORAGE_NET: (TIER_STORAGE_ACCESS, TIER_STORAGE_UPLINK),
    INBAND: (TIER_INBAND_ACCESS, TIER_INBAND_UPLINK),
    OOB: (TIER_OOB_ACCESS, TIER_OOB_UPLINK),
    POWER: (TIER_POWER_CORD,),
    COOLANT: (TIER_HOSE,),
})
NETWORK_OF_TIER: Mapping[str, str] = MappingProxyType(
    {tier: network for network, tiers in TIERS_OF.items() for tier in tiers})
#: Every tier a cable may have ("" = not given: a compute cable).
ALL_TIERS = ("", *NETWORK_OF_TIER)
#: The networks of data cables (transceivers, LLDP, media by length); power and coolant are not.
DATA_NETWORKS = (COMPUTE, STORAGE_NET, INBAND, OOB)
#: The management networks: access switches uplinked to an aggregation pair.
MANAGEMENT_NETWORKS = (INBAND, OOB)

ROLE_STORAGE_LEAF = "storage-leaf"
ROLE_STORAGE_SPINE = "storage-spine"
ROLE_INBAND_ACCESS = "inband-access"
ROLE_INBAND_AGG = "inband-agg"
ROLE_OOB_ACCESS = "oob-access"
ROLE_OOB_AGG = "oob-agg"
#: Each data network's switch roles, lowest tier first.
ROLES_OF: Mapping[str, tuple[str, ...]] = MappingProxyType({
    COMPUTE: ROLES,
    STORAGE_NET: (ROLE_STORAGE_LEAF, ROLE_STORAGE_SPINE),
    INBAND: (ROLE_INBAND_ACCESS, ROLE_INBAND_AGG),
    OOB: (ROLE_OOB_ACCESS, ROLE_OOB_AGG),
})
NETWORK_OF_ROLE: Mapping[str, str] = MappingProxyType(
    {role: network for network, roles in ROLES_OF.items() for role in roles})
#: Every role a device may have ("" = none: a node, a PDU, or a switch in no network yet).
ALL_ROLES = ("", *NETWORK_OF_ROLE)

#: What each network is called in a sentence, a column or a legend.
NETWORK_WORDS: Mapping[str, str] = MappingProxyType({
    COMPUTE: "compute",
    STORAGE_NET: "storage",
    INBAND: "in-band management",
    OOB: "out-of-band management",
    POWER: "power",
    COOLANT: "coolant",
})
#: Short words of the networks for labels and narrow columns.
NETWORK_SHORT: Mapping[str, str] = MappingProxyType({
    COMPUTE: "COMP", STORAGE_NET: "STOR", INBAND: "INB", OOB: "OOB", POWER: "PWR", COOLANT: "H2O",
})
#: Each switch role in words ("storage leaf", "OOB aggregation").
ROLE_WORDS: Mapping[str, str] = MappingProxyType({
    "leaf": "leaf", "spine": "spine", "core": "core",
    ROLE_STORAGE_LEAF: "storage leaf", ROLE_STORAGE_SPINE: "storage spine",
    ROLE_INBAND_ACCESS: "in-band access", ROLE_INBAND_AGG: "in-band aggregation",
    ROLE_OOB_ACCESS: "OOB access", ROLE_OOB_AGG: "OOB aggregation",
})


#: Gb/s in a GB/s: storage bandwidth is quoted in bytes (RA-11333-001 Table 6), port speeds in bits.
BITS_PER_BYTE = 8


def network_of_tier(tier: str) -> str:
    """The network of a cable tier; a tier of no network (an older file's "") is compute."""
    return NETWORK_OF_TIER.get(tier, COMPUTE)


def network_of(link: Link) -> str:
    """The network a cable is on, by its tier."""
    return NETWORK_OF_TIER.get(link.tier, COMPUTE)


def is_compute(link: Link) -> bool:
    """Whether a cable is on the compute fabric (what rails, oversubscription, NCCL, Slurm and
    UFM read)."""
    return NETWORK_OF_TIER.get(link.tier, COMPUTE) == COMPUTE


def in_compute_fabric(role: str) -> bool:
    """Whether a switch role is the compute fabric's (leaf, spine, core)."""
    return role in ROLES
