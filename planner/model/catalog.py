"""Equipment specifications as data: catalogue entries read from resources/catalog/*.json.

A plan embeds the custom entries a user defined, so a file opens the same on any machine.
Every entry says where its figures come from (``source``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field

from planner.model.ports import (
    COMPUTE,
    COOLANT,
    DEFAULT_STEMS,
    INBAND,
    MGMT_STEM,
    NETWORKS,
    OOB,
    POWER,
    STORAGE_NET,
    Outlet,
    OutletGroup,
    Port,
    PortGroup,
    coolant_names,
    group_names,
    outlets_of,
    psu_names,
    psu_shortfall_w,
    redundancy_spares,
)
from planner.model.typed import build
from planner.resources_access import resource

#: Kinds of catalogue entry, and how each is placed.
RACK = "rack"
NODE = "node"
SWITCH = "switch"
STORAGE = "storage"
RACK_PDU = "rack_pdu"
#: A 0U rack manifold at the rack's rear (like a 0U PDU): the quick-disconnect pairs the
#: liquid-cooled devices' hoses plug into, fed by the rack's CDU loop.
RACK_MANIFOLD = "rack_manifold"
RACK_CDU = "rack_cdu"
ROW_CDU = "row_cdu"
CABINET = "cabinet"
BUSBAR = "busbar"

#: The networks a switch may be made for (``CatalogItem.network``): the management networks.
MANAGEMENT_SWITCH_NETWORKS = (INBAND, OOB)

IN_RACK_KINDS = (NODE, SWITCH, STORAGE, RACK_PDU, RACK_CDU, RACK_MANIFOLD)
FLOOR_KINDS = (ROW_CDU, CABINET)
ALL_KINDS = (RACK, NODE, SWITCH, STORAGE, RACK_PDU, RACK_CDU, RACK_MANIFOLD, ROW_CDU, CABINET, BUSBAR)
#: Kinds that may have coolant quick-disconnects: liquid-cooled devices, the CDUs and rack manifolds.
COOLED_KINDS = (NODE, SWITCH, STORAGE, RACK_CDU, ROW_CDU, RACK_MANIFOLD)

#: Where a device's network ports are (``CatalogItem.port_face``): the rack's front or rear face;
#: "" = not given, read as the rear (``planner.export.install.DEFAULT_PORT_FACE`` says why).
PORT_FACES = ("front", "rear", "")

#: Fabric protocols a switch speaks (``CatalogItem.protocol``); the design basis's ``fabric_kind``
#: names one of them, and the media reaches follow it (DESIGN §5 Cables: DR4 100 m InfiniBand,
#: 500 m Ethernet).
INFINIBAND = "infiniband"
ETHERNET = "ethernet"
PROTOCOLS = (INFINIBAND, ETHERNET)

#: Palette groups (DESIGN §2 issue 2): the group each kind is shown under.
PALETTE_GROUPS = {
    RACK: "Racks",
    NODE: "GPU nodes",
    SWITCH: "Switches",
    ROW_CDU: "Cooling",
    RACK_CDU: "Cooling",
    RACK_MANIFOLD: "Cooling",
    CABINET: "Power",
    BUSBAR: "Power",
    RACK_PDU: "Power",
    STORAGE: "Storage",
}


@dataclass
class CatalogItem:
    """One equipment type. Fields that do not apply to a kind stay at their zero value; a rating
    that may be absent is ``None`` ("not rated"), never 0, so no check is switched off by a zero
    (``planner.model.physical`` says which fields each kind needs and in what range).

    Units are SI: metres, kilograms, watts, litres per minute, amperes, volts, kelvin.
    """

    key: str
    kind: str
    name: str
    source: str = ""
    # Physical
    width_m: float = 0.0
    depth_m: float = 0.0
    height_u: int = 0
    weight_kg: float = 0.0
    # Rack only
    rack_units: int = 0
    #: Racks: static load and power ratings; None = not rated (F3 and P4 say they did not check).
    max_load_kg: float | None = None
    max_power_kw: float | None = None
    # Power and heat
    power_w: float = 0.0
    power_peak_w: float = 0.0
    liquid_fraction: float = 0.0
    gpus: int = 0
    # Network ports: cages × ports per cage at a speed. Nodes: one rail port per GPU.
    port_cages: int = 0
    ports_per_cage: int = 1
    port_speed_gbps: float = 0.0
    #: The cages' connector ("OSFP", "QSFP112" …, ``planner.model.ports.CONNECTORS``; "" = not given).
    port_connector: str = ""
    # Cooling units
    capacity_kw: float = 0.0
    rated_flow_lpm: float = 0.0
    pumps: int = 0
    redundant_pumps: int = 0
    approach_k: float = 0.0
    reach_m: float = 0.0
    # Power distribution
    rating_a: float = 0.0
    #: Busbars, rack PDUs and cabinets: supply voltage; None = the design basis's ``voltage_v``.
    voltage_v: float | None = None
    phases: int = 0
    #: Busbars: each tap-off's rating; None = not rated (P1 says it did not check the tap-offs).
    tapoff_rating_a: float | None = None
    #: Busbars: how far in plan a tap-off's cord drop reaches from the run to a rack's roof, m.
    #: None = not given (custom entries made before the field existed): P5 then cannot check reach.
    tapoff_whip_m: float | None = None
    #: Devices: the rack face their network ports are on, "front" or "rear" (``PORT_FACES``); ""
    #: (the bundled entries, and custom entries made before the field existed) means the rear.
    #: The installer's paper prints it next to each cable end.
    port_face: str = ""
    #: Nodes: the RDMA device (HCA) behind each rail port, in port order (``P1`` first), as the
    #: host's discovery tools name it; [] = ``mlx5_0`` … ``mlx5_<n-1>`` in port order.
    hca_names: list[str] = field(default_factory=list)
    #: Switches: how the network OS names interfaces in LLDP output ("sonic", "cumulus"); "" =
    #: the plan's own port names. ``planner.io.discovery`` holds the schemes.
    lldp_naming: str = ""
    #: Switches: the protocol it speaks, "infiniband" or "ethernet" (``PROTOCOLS``). A custom
    #: switch saved before the field existed loads with its plan's fabric kind
    #: (``planner.io.migrations``); "" on a switch made in code reads as InfiniBand (``switch_protocol``).
    protocol: str = ""
    #: Switches: the management network it is made for ("inband" or "oob", ``MANAGEMENT_SWITCH_NETWORKS``),
    #: so the fabric generator builds that network of it and the compute fabric never picks it;
    #: "" = a fabric switch (compute, or the storage fabric, which the DGX SuperPOD builds of the
    #: same switches: RA-11333-001 Table 1).
    network: str = ""
    #: Who makes it, as NetBox and the devicetype-library name the manufacturer ("" = generic).
    manufacturer: str = ""
    #: Ports beyond the compute rails: storage, in-band and out-of-band (BMC, management) groups
    #: (``planner.model.ports.PortGroup``); [] = none given (custom types made before the field).
    port_groups: list[PortGroup] = field(default_factory=list)
    #: PSUs: how many (None = not given), the inlet each has ("C14" or "C20"; "" = not given), each
    #: one's rating in W (None = not given) and the redundancy promised ("5+1", "N+1", "N+N"; "").
    psu_count: int | None = None
    psu_inlet: str = ""
    psu_rating_w: float | None = None
    psu_redundancy: str = ""
    #: Liquid-cooled devices and CDUs: quick-disconnect pairs (a supply and a return each; None =
    #: none, or not given on a liquid-cooled type) and their size ("1/2 in", "12.7 mm", "UQD08").
    coolant_ports: int | None = None
    qd_size: str = ""
    #: Rack PDUs: the outlet groups (``planner.model.ports.OutletGroup``: type C13/C19, count,
    #: the group's breaker in A and its phase); outlets are ``O1`` … along the strip, group after
    #: group. [] = not given (custom PDUs made before the field).
    outlet_groups: list[OutletGroup] = field(default_factory=list)
    #: Rack PDUs: the input, as its datasheet says it ("IEC 60309 3P+N+E 63 A 6h", "hardwired");
    #: "" = not given.
    pdu_inlet: str = ""
    #: Devices: the connector of its serial console port (``planner.model.ports.CONSOLE_CONNECTORS``,
    #: the port named ``console``); "" = none, or not given. Not a network port: a console server
    #: or a laptop reaches it, and NetBox holds it as a console port.
    console_port: str = ""
    custom: bool = False

    @property
    def port_count(self) -> int:
        return self.port_cages * self.ports_per_cage

    def copy(self) -> CatalogItem:
        """An independent copy: its own lists of HCA names and port groups too (``copy.copy``
        would share them)."""
        twin = copy.copy(self)
        twin.hca_names = list(self.hca_names)
        twin.port_groups = [group.copy() for group in self.port_groups]
        twin.outlet_groups = [group.copy() for group in self.outlet_groups]
        return twin

    @property
    def cage_network(self) -> str:
        """The network of the port cages: a storage node's cages are its storage-fabric ports, a
        management switch's its network's, every other type's the compute rails (a fabric switch
        in the storage fabric has its cages there: ``planner.model.networks`` goes by its role)."""
        if self.kind == STORAGE:
            return STORAGE_NET
        return self.network or COMPUTE

    def port_names(self, network: str | None = None) -> list[str]:
        """Port names as printed on the hardware: of the port cages (no network: the names every
        cable and file of the rails uses, as before networks existed), or of one network (DESIGN
        §3 Networks).

        Cages: switches with twin-port cages ``1/1``, ``1/2`` … ``32/2``, single-port cages ``1``
        … ``N``; GPU nodes one rail NIC per GPU, ``P1`` … ``P8`` in GPU order. They are on
        ``cage_network``. Storage, in-band and out-of-band groups: ``S1`` … ``S4``, ``E1``,
        ``BMC``, ``mgmt0``; power: ``PSU1`` …, and a rack PDU's outlets ``O1`` …; coolant:
        ``SUP1``, ``RET1`` …. No name is on two networks of one device (the loader refuses a type
        whose names meet).
        """
        if network is not None:
            if network == POWER:
                return psu_names(self.psu_count) + self.outlet_names()
            if network == COOLANT:
                return coolant_names(self.coolant_ports)
            cages = self.port_names() if network == self.cage_network else []
            return cages + [name for group in self.port_groups if group["network"] == network
                            for name in group_names(group)]
        if self.kind == NODE:
            return [f"P{i}" for i in range(1, self.port_count + 1)]
        if self.ports_per_cage > 1:
            return [
                f"{cage}/{lane}"
                for cage in range(1, self.port_cages + 1)
                for lane in range(1, self.ports_per_cage + 1)
            ]
        return [str(cage) for cage in range(1, self.port_cages + 1)]

    def networks(self) -> tuple[str, ...]:
        """The networks this type has ports on, in ``planner.model.ports.NETWORKS`` order."""
        found = {group["network"] for group in self.port_groups if group["count"]}
        if self.port_count:
            found.add(self.cage_network)
        if self.psu_count or self.outlet_groups:
            found.add(POWER)
        if self.coolant_ports:
            found.add(COOLANT)
        return tuple(network for network in NETWORKS if network in found)

    def ports(self) -> list[Port]:
        """Every port of this type, network by network: name, network, connector, speed."""
        found = [Port(name, self.cage_network, self.port_connector, self.port_speed_gbps) for name in self.port_names()]
        for group in self.port_groups:
            found += [Port(name, group["network"], group["connector"], group["speed_gbps"])
                      for name in group_names(group)]
        found += [Port(name, POWER, self.psu_inlet, 0.0) for name in psu_names(self.psu_count)]
        found += [Port(outlet.name, POWER, outlet.outlet, 0.0) for outlet in self.outlets()]
        found += [Port(name, COOLANT, self.qd_size, 0.0) for name in coolant_names(self.coolant_ports)]
        return found

    def all_port_names(self) -> list[str]:
        """The names of every port of every network (distinct: the loader refuses a type whose
        names meet)."""
        return [port.name for port in self.ports()]

    # ------------------------------------------------------- rack PDU outlets
    def outlets(self) -> list[Outlet]:
        """A rack PDU's outlets in strip order: name (``O1`` …), type, group index, the group's
        breaker (A) and phase ([] when none are given)."""
        return outlets_of(self.outlet_groups)

    def outlet_names(self) -> list[str]:
        """``O1`` … ``O<n>``: a rack PDU's outlets, numbered along the strip group after group."""
        return [outlet.name for outlet in self.outlets()]

    def outlets_of_type(self, outlet: str) -> list[str]:
        """The names of the outlets of one type ("C13" or "C19")."""
        return [found.name for found in self.outlets() if found.outlet == outlet]

    def outlets_in_group(self, group: int) -> list[str]:
        """The names of the outlets of ``outlet_groups[group]`` (they share its breaker)."""
        return [found.name for found in self.outlets() if found.group == group]

    def outlet(self, name: str) -> Outlet:
        """One outlet by name: its type, group, breaker and phase. KeyError when the PDU has none
        of that name."""
        found = next((outlet for outlet in self.outlets() if outlet.name == name), None)
        if found is None:
            raise KeyError(f"{self.key} has no outlet {name!r}")
        return found

    def psu_spares(self) -> int | None:
        """How many PSUs may fail by the redundancy promised ("5+1" → 1, "N+N" of 6 → 3); None
        when not given or unreadable (the loader refuses unreadable text)."""
        try:
            return redundancy_spares(self.psu_redundancy, self.psu_count)
        except ValueError:
            return None

    def psu_capacity_w(self, failed: int = 0) -> float | None:
        """What the PSUs carry with ``failed`` of them out, W (None when the count or rating is
        not given)."""
        if not self.psu_count or not self.psu_rating_w:
            return None
        return max(0, self.psu_count - failed) * self.psu_rating_w

    def psu_shortfall_w(self) -> float | None:
        """How many watts of ``power_peak_w`` (the steady draw when no peak is given) the PSUs
        left after the promised failures cannot carry: 0 when they carry it, None when not given."""
        return psu_shortfall_w(self)


def default_stem(kind: str, network: str) -> tuple[str, int | None]:
    """The (stem, first number) a new port group of ``network`` takes on a ``kind``: storage
    ``S1`` …, in-band ``E1`` …, out-of-band ``BMC`` on servers and ``mgmt0`` on switches, PDUs
    and CDUs."""
    if network == "oob" and kind not in (NODE, STORAGE):
        return MGMT_STEM
    return DEFAULT_STEMS[network]


def switch_protocol(item: CatalogItem) -> str:
    """The protocol a switch type speaks: its catalogue entry's, InfiniBand when not given (the
    design basis's default fabric kind)."""
    return item.protocol or INFINIBAND


@dataclass
class MediaType:
    """A cable or optic family: reach at 400G, the stock lengths it is sold in, its outer
    diameter for tray fill (0 when the catalogue entry does not give one) and the order code an
    installer takes from the store (``part``; "" = not given, the paper prints ``name``)."""

    key: str
    name: str
    reach_m: float
    stock_lengths_m: list[float]
    switch_to_switch_reach_m: float = 0.0
    transceivers_per_link: int = 0
    source: str = ""
    ethernet_reach_m: float = 0.0
    diameter_mm: float = 0.0
    part: str = ""
    connector: str = ""  # the jack it plugs into when only one kind ("RJ45": twisted pair); "" = the cages

    def copy(self) -> MediaType:
        """An independent copy, its stock lengths included."""
        twin = copy.copy(self)
        twin.stock_lengths_m = list(self.stock_lengths_m)
        return twin

    def reach_for(self, switch_to_switch: bool, ethernet: bool) -> float:
        """Reach for this use; switch-to-switch DAC and Ethernet single-mode differ."""
        if switch_to_switch and self.switch_to_switch_reach_m:
            return self.switch_to_switch_reach_m
        if ethernet and self.ethernet_reach_m:
            return self.ethernet_reach_m
        return self.reach_m


@dataclass
class Catalog:
    """The equipment types and media a plan can use: built-in entries plus the plan's custom ones."""

    items: dict[str, CatalogItem] = field(default_factory=dict)
    media: dict[str, MediaType] = field(default_factory=dict)

    def __getitem__(self, key: str) -> CatalogItem:
        return self.items[key]

    def __contains__(self, key: object) -> bool:
        return key in self.items

    def fabric_switches(self) -> list[CatalogItem]:
        """The switches a compute or storage fabric may be built of: every switch not made for a
        management network (``CatalogItem.network``)."""
        return [item for item in self.of_kind(SWITCH) if not item.network]

    def management_switch(self, network: str) -> CatalogItem | None:
        """The first catalogue switch made for a management network (``inband``, ``oob``), or None."""
        return next((item for item in self.of_kind(SWITCH) if item.network == network), None)

    def of_kind(self, *kinds: str) -> list[CatalogItem]:
        return [item for item in self.items.values() if item.kind in kinds]

    def custom_items(self) -> list[CatalogItem]:
        return [item for item in self.items.values() if item.custom]

    def add(self, item: CatalogItem) -> None:
        self.items[item.key] = item

    def default_rack(self) -> CatalogItem:
        """The rack type used when a device is dropped on empty floor."""
        racks = self.of_kind(RACK)
        return next((r for r in racks if r.key == "rack-600x1200-48u"), racks[0])


_CATALOG_FILES = ("racks", "nodes", "switches", "storage", "cooling", "manifolds", "power")


def _load_builtin() -> tuple[dict[str, CatalogItem], dict[str, MediaType]]:
    items: dict[str, CatalogItem] = {}
    for name in _CATALOG_FILES:
        data = json.loads(resource("catalog", f"{name}.json").read_text(encoding="utf-8"))
        for index, entry in enumerate(data["items"]):
            item = build(CatalogItem, entry, f"{name}.json:items[{index}]")
            items[item.key] = item
    media_data = json.loads(resource("catalog", "media.json").read_text(encoding="utf-8"))
    media = {}
    for index, entry in enumerate(media_data["media"]):
        medium = build(MediaType, entry, f"media.json:media[{index}]")
        media[medium.key] = medium
    return items, media


_BUILTIN: tuple[dict[str, CatalogItem], dict[str, MediaType]] | None = None


def builtin_catalog() -> Catalog:
    """A fresh catalogue of the built-in entries (read from disk once per process).

    Every entry is a copy of its own: a plan that changes one (``doc.catalog[key].power_w = …``)
    changes no other plan and no later ``builtin_catalog()`` (about 0.1 ms for the bundled set).
    """
    global _BUILTIN
    if _BUILTIN is None:
        _BUILTIN = _load_builtin()
    items, media = _BUILTIN
    return Catalog(items={key: item.copy() for key, item in items.items()},
                   media={key: medium.copy() for key, medium in media.items()})
