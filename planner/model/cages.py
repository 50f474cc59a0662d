"""Twin-port cages: one plug serves both ports of a cage (DESIGN §5 Cables).

A switch whose cages carry two ports each (the Quantum-2 / Spectrum-4 class: 32 twin-port OSFP
cages, 64 ports ``1/1`` … ``32/2``) takes one plug per cage: a twin-port transceiver, or a
twin-port copper DAC or ACC, for both of its ports (``SOURCE``). So the two cables of a cage are
on one media (N16), and the optics to order are one per cage at such a switch and one per port at
a single-port end (a GPU node's rail NIC, a storage or management NIC): the BOM and the NetBox
modules count them here, not as two per optical cable.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from planner.model.catalog import NODE, Catalog, CatalogItem
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import Device, Link

SOURCE = ("NVIDIA networking documentation, MMS4X00-NS twin-port OSFP transceiver overview: the "
          "switches' twin-port OSFP cages take one OSFP plug with two transceiver engines, and the same "
          "twin-port plugs for transceivers, copper DACs and ACCs")

#: A twin-port cage: device id, cage number.
Cage = tuple[str, int]
#: Plug forms: a twin-port cage's one plug for its ports, or a port's own plug.
TWIN_PORT, SINGLE_PORT = "twin-port", "single-port"


def cage_of(item: CatalogItem, port: str) -> int:
    """The cage (1 …) that ``port`` shares with the other ports of its cage, or 0 when the port has
    a plug of its own (single-port cages, GPU nodes' rail NICs, port groups, names not of a cage)."""
    if item.ports_per_cage < 2 or item.kind == NODE:
        return 0
    head, slash, lane = port.partition("/")
    if not (slash and head.isdigit() and lane.isdigit()):
        return 0
    cage = int(head)
    return cage if 1 <= cage <= item.port_cages and 1 <= int(lane) <= item.ports_per_cage else 0


def cage_numbers(catalog: Catalog, type_key: str) -> dict[str, int]:
    """Port → cage of the type's shared cages (``cage_of`` above 0); {} when it has none."""
    item = catalog.items.get(type_key)
    if item is None or item.ports_per_cage < 2 or item.kind == NODE:
        return {}
    return {port: cage for port in item.port_names() if (cage := cage_of(item, port))}


class CageLookup:
    """Which twin-port cages cable ends are in, over ``devices`` (a router's may hold devices a
    generator has not added yet), each device type's cage numbers made once."""

    def __init__(self, catalog: Catalog, devices: Mapping[str, Device]) -> None:
        self.catalog, self.devices = catalog, devices
        self._numbers: dict[str, dict[str, int]] = {}

    def cage(self, device_id: str, port: str) -> int:
        """The twin-port cage of a device's port, 0 for none (or a device not known)."""
        device = self.devices.get(device_id)
        if device is None:
            return 0
        numbers = self._numbers.get(device.type)
        if numbers is None:
            numbers = self._numbers[device.type] = cage_numbers(self.catalog, device.type)
        return numbers.get(port, 0)

    def cages_of(self, link: Link) -> list[Cage]:
        """The twin-port cages a cable ends in (none, one or two)."""
        return [(device_id, cage) for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port))
                if (cage := self.cage(device_id, port))]

    def cables_in(self, doc: Document, cage: Cage) -> list[tuple[str, Link]]:
        """(port, cable) of every cable of the plan in a twin-port cage."""
        device_id, number = cage
        found = []
        for link in doc.links_of(device_id):
            port = link.a_port if link.a_device == device_id else link.b_port
            if self.cage(device_id, port) == number:
                found.append((port, link))
        return found


def _port_plugs(item: CatalogItem) -> dict[str, tuple[int, str, float]]:
    """Port → (cage, connector, speed in Gb/s) of every data port of a type."""
    return {port.name: (cage_of(item, port.name), port.connector, port.speed_gbps)
            for port in item.ports() if port.network in DATA_NETWORKS}


@dataclass(frozen=True)
class Plug:
    """One plug in a device: a twin-port cage's (``cage`` > 0, naming its cabled ports) or a port's
    own (``cage`` 0), into a ``connector`` ("OSFP", "QSFP28" …; "" = not given) at ``speed_gbps``
    per port. ``media`` is its cables' media; a cage whose cables differ has a plug per media here,
    and N16 reports it."""

    device: str
    cage: int
    ports: tuple[str, ...]
    media: str
    connector: str = ""
    speed_gbps: float = 0.0

    @property
    def form(self) -> str:
        return TWIN_PORT if self.cage else SINGLE_PORT


def plugs(doc: Document) -> list[Plug]:
    """The plugs the plan's data cables need at their ends: the single-port ones in cable order,
    then the twin-port cages'; an end on a device not in the plan needs none."""
    catalog, devices = doc.catalog, doc.devices
    ports_of: dict[str, dict[str, tuple[int, str, float]]] = {}
    shared: dict[tuple[str, int, str], list[str]] = {}
    found: list[Plug] = []
    for link in doc.links.values():
        if network_of(link) not in DATA_NETWORKS:
            continue
        for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            device = devices.get(device_id)
            if device is None:
                continue
            if device.type not in ports_of:
                ports_of[device.type] = _port_plugs(catalog[device.type]) if device.type in catalog else {}
            cage, connector, speed = ports_of[device.type].get(port, (0, "", 0.0))
            if not cage:
                found.append(Plug(device_id, 0, (port,), link.media, connector, speed))
            elif (key := (device_id, cage, link.media)) in shared:
                shared[key].append(port)
            else:
                shared[key] = [port]
    for (device_id, cage, media), ports in shared.items():
        connector, speed = ports_of[devices[device_id].type][ports[0]][1:]
        found.append(Plug(device_id, cage, tuple(sorted(ports)), media, connector, speed))
    return found


#: A kind of transceiver to order: media, plug form, connector, speed per port (Gb/s).
TransceiverKind = tuple[str, str, str, float]


def transceiver_counts(doc: Document) -> Counter[TransceiverKind]:
    """Transceivers to order by kind: one per plug of an optical media, half the media's
    ``transceivers_per_link`` (one per cable end), rounded up."""
    media = doc.catalog.media
    counts: Counter[TransceiverKind] = Counter()
    for plug in plugs(doc):
        optics = media[plug.media].transceivers_per_link if plug.media in media else 0
        if optics:
            counts[(plug.media, plug.form, plug.connector, plug.speed_gbps)] += math.ceil(optics / 2)
    return counts


def transceiver_name(kind: TransceiverKind) -> str:
    """"SR4 transceiver, OSFP twin-port, 2 × 400G": what the store is asked for."""
    media, form, connector, speed = kind
    ports = f"2 × {speed:g}G" if form == TWIN_PORT else f"{speed:g}G"
    shape = " ".join(part for part in (connector, form) if part)
    return f"{media.upper()} transceiver, {shape}" + (f", {ports}" if speed else "")
