"""A hall as an installer might have cabled it, and the discovery files it would report.

For trying ``planner verify`` before a fabric exists, for its tests (every planned cable is
classified exactly once, whatever went wrong) and for the benchmark at 98k cables. ``as_built``
starts from the plan and injects faults the way they happen on the floor, each on cables no
other fault touched; ``expected`` says which planned cables each fault must show as not ok.
The writers print the cabling in the formats the readers take, shaped like the real tools'
output (see ``planner.io.discovery``).

A hall is simulated one set of data networks at a time (``networks``: the compute fabric by
default, what ibnetdiscover sees; the in-band network for its Cumulus switches' LLDP files).
Faults land on each network's access cables (a node to its leaf, a device to its access switch);
rail faults need rails, so only the compute fabric gets them.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from planner.io.discovery.naming import CUMULUS, cumulus_name, hca_names, ib_port_number, sonic_name
from planner.io.discovery.resolve import End
from planner.model.catalog import NODE, SWITCH, CatalogItem
from planner.model.document import Document, natural_key
from planner.model.networks import NETWORK_OF_ROLE, ROLES_OF, TIERS_OF, network_of
from planner.model.objects import Link
from planner.model.ports import COMPUTE

#: How a link that trained at the ports' speed prints, and one that came up slow (NDR is 400 Gb/s
#: on 4 lanes, HDR 200: ``planner.io.discovery.ibnetdiscover.LANE_GBPS``).
GOOD_RATE, SLOW_RATE = "4xNDR", "4xHDR"
#: PCI vendor and device ids ibnetdiscover prints: Mellanox/NVIDIA, Quantum-2 switch, ConnectX-7.
VENDOR_ID, SWITCH_DEVICE_ID, HCA_DEVICE_ID = 0x2C9, 0xD2F0, 0x1021


@dataclass
class Faults:
    """How many of each fault to inject (``seed`` makes the choice repeatable)."""

    swaps: int = 0
    rail_swaps: int = 0
    wrong_port: int = 0
    wrong_rail: int = 0
    wrong_switch: int = 0
    missing: int = 0
    unexpected: int = 0
    slow: int = 0
    seed: int = 0


@dataclass
class Cable:
    """A cable as installed: two ends on plan ports and the rate it trained at."""

    a: End
    b: End
    rate: str = GOOD_RATE


@dataclass
class AsBuilt:
    """The installed cables, and per fault kind the planned cables it must show as not ok."""

    cables: list[Cable]
    expected: dict[str, set[str]] = field(default_factory=dict)
    #: Cables found as planned but slow: status ok with a fix.
    slow: set[str] = field(default_factory=set)
    unexpected: int = 0


def _ends(link: Link) -> tuple[End, End]:
    return (link.a_device, link.a_port), (link.b_device, link.b_port)


class _Injector:
    def __init__(self, doc: Document, faults: Faults, networks: tuple[str, ...]) -> None:
        self.doc = doc
        self.networks = networks
        self.rng = random.Random(faults.seed)
        links = sorted((link for link in doc.links.values() if network_of(link) in networks),
                       key=lambda x: natural_key(x.id))
        self.cables = {link.id: Cable(*_ends(link)) for link in links}
        self.touched: set[str] = set()
        self.strays: set[End] = set()  # ports a moved cable went into: one cable each
        self.planned_at = {end: link.id for link in links for end in _ends(link)}
        #: The access tiers (node-leaf, a device to its access switch) and the switch roles at their top.
        self.access = {TIERS_OF[network][0] for network in networks}
        self.access_roles = {ROLES_OF[network][0] for network in networks if network in ROLES_OF}
        self.result = AsBuilt([])

    def node_leaf(self) -> list[Link]:
        """The access cables no fault touched yet."""
        return [self.doc.links[i] for i in self.cables if i not in self.touched
                and self.doc.links[i].tier in self.access]

    def pick(self, links: list[Link], count: int) -> Iterator[Link]:
        self.rng.shuffle(links)
        for link in links[:count]:
            if link.id not in self.touched:
                yield link

    def note(self, kind: str, *link_ids: str) -> None:
        self.touched.update(link_ids)
        self.result.expected.setdefault(kind, set()).update(link_ids)

    def leaf_end(self, link: Link) -> tuple[End, End]:
        """(device end, switch end) of an access cable: the switch is the leaf or access switch."""
        a, b = _ends(link)
        return (b, a) if self.doc.devices[a[0]].role in self.access_roles else (a, b)

    def swaps(self, count: int, at_node: bool) -> None:
        """Two cables whose leaf ends (or node ends) are in each other's ports."""
        groups: dict[str, list[Link]] = {}
        for link in self.node_leaf():
            node, leaf = self.leaf_end(link)
            groups.setdefault((node if at_node else leaf)[0], []).append(link)
        pairs = [group[:2] for group in groups.values() if len(group) >= 2]
        self.rng.shuffle(pairs)
        for first, second in pairs[:count]:
            (n1, l1), (n2, l2) = self.leaf_end(first), self.leaf_end(second)
            self.cables[first.id], self.cables[second.id] = Cable(n1, l2), Cable(n2, l1)
            self.note("rail_swaps" if at_node else "swaps", first.id, second.id)

    def move(self, kind: str, count: int, target: str) -> None:
        """Land a cable's leaf end elsewhere: another port of its leaf, the same port of another
        rail's leaf, or of another SU's leaf of the same rail (a spine when there is one SU). The
        cable planned there is left unplugged at that end, so it is not discovered."""
        doc = self.doc
        moved = 0
        for link in self.pick(self.node_leaf(), count * 3):
            if moved >= count:
                break
            node, (leaf_id, port) = self.leaf_end(link)
            leaf = doc.devices[leaf_id]
            leaves = [d for d in doc.devices.values() if d.role == leaf.role]
            if target == "port":
                ports = doc.catalog[leaf.type].port_names()
                choices = [(leaf_id, p) for p in ports if p != port]
            elif target == "rail":
                choices = [(d.id, port) for d in leaves if d.su == leaf.su and d.pod == leaf.pod and d.rail != leaf.rail]
            else:  # another SU's leaf of the same rail; in a one-SU fabric, a spine
                choices = [(d.id, port) for d in leaves if d.rail == leaf.rail and d.id != leaf_id] or \
                    [(d.id, port) for d in doc.devices.values() if d.role in ROLES_OF[COMPUTE][1:]]
            choices = [c for c in choices if self.planned_at.get(c) not in self.touched and c not in self.strays]
            if not choices:
                continue
            stray = self.rng.choice(choices)
            self.strays.add(stray)
            displaced = self.planned_at.get(stray)
            self.cables[link.id] = Cable(node, stray)
            if displaced is not None:
                del self.cables[displaced]
                self.note(kind, displaced)
            self.note(kind, link.id)
            moved += 1

    def missing(self, count: int) -> None:
        links = [self.doc.links[i] for i in self.cables if i not in self.touched]
        for link in self.pick(links, count):
            del self.cables[link.id]
            self.note("missing", link.id)

    def slow(self, count: int) -> None:
        links = [self.doc.links[i] for i in self.cables if i not in self.touched]
        for link in self.pick(links, count):
            self.cables[link.id].rate = SLOW_RATE
            self.touched.add(link.id)
            self.result.slow.add(link.id)

    def unexpected(self, count: int) -> list[Cable]:
        """Cables between switch ports no planned cable uses (spare ports of part-filled SUs)."""
        free = [(d.id, p) for d in sorted(self.doc.devices.values(), key=lambda d: natural_key(d.id))
                if self.doc.catalog[d.type].kind == SWITCH and NETWORK_OF_ROLE.get(d.role, COMPUTE) in self.networks
                for p in self.doc.catalog[d.type].port_names()
                if (d.id, p) not in self.planned_at and (d.id, p) not in self.strays]
        self.rng.shuffle(free)
        extra = [Cable(free[2 * i], free[2 * i + 1]) for i in range(min(count, len(free) // 2))]
        self.result.unexpected = len(extra)
        return extra


def as_built(doc: Document, faults: Faults | None = None, networks: tuple[str, ...] = (COMPUTE,)) -> AsBuilt:
    """The cables of ``networks`` as installed with ``faults`` injected (see the module docstring)."""
    faults = faults or Faults()
    injector = _Injector(doc, faults, networks)
    injector.swaps(faults.swaps, at_node=False)
    injector.swaps(faults.rail_swaps, at_node=True)
    injector.move("wrong_port", faults.wrong_port, "port")
    injector.move("wrong_rail", faults.wrong_rail, "rail")
    injector.move("wrong_switch", faults.wrong_switch, "switch")
    injector.missing(faults.missing)
    injector.slow(faults.slow)
    extra = injector.unexpected(faults.unexpected)
    injector.result.cables = [*injector.cables.values(), *extra]
    return injector.result


# ------------------------------------------------------------------------ writers
def write_links_csv(doc: Document, cables: list[Cable], out: TextIO) -> None:
    out.write("a_device,a_port,b_device,b_port\n")
    for cable in cables:
        (a, pa), (b, pb) = cable.a, cable.b
        out.write(f"{doc.hostname(doc.devices[a])},{pa},{doc.hostname(doc.devices[b])},{pb}\n")


def _guid(kind: int, number: int) -> int:
    """A made-up EUI-64 under the Mellanox OUI (00:02:c9 → 0x0002c9…): switches and HCAs apart."""
    return (0x0002C9 << 40) | (kind << 32) | number


def write_ibnetdiscover(doc: Document, cables: list[Cable], out: TextIO, mf0: bool = True,
                        aggregation: bool = True) -> None:
    """The topology file ``ibnetdiscover`` would print for these cables: switches (NVIDIA's
    ``MF0;<host>:MQM9700/U1`` names when ``mf0``, else the plain hostname), each with a SHARP
    aggregation node on the port past its front panel when ``aggregation``, then one ``Ca`` per
    HCA (``<host> mlx5_k``). Every link is printed from both ends, as the tool does."""
    devices = sorted(doc.devices.values(), key=lambda d: natural_key(d.id))
    switch_guid: dict[str, int] = {}
    lid: dict[object, int] = {}
    ca_guid: dict[End, int] = {}
    ca_name: dict[End, str] = {}
    for number, device in enumerate(devices, start=1):
        item = doc.catalog[device.type]
        if item.kind == SWITCH:
            switch_guid[device.id] = _guid(0xE4, number)
            lid[device.id] = len(lid) + 1
        elif item.port_count:
            names = hca_names(item) if item.kind == NODE else item.port_names()
            for index, (port, hca) in enumerate(zip(item.port_names(), names)):
                ca_guid[(device.id, port)] = _guid(0xA1, number * 64 + index)
                ca_name[(device.id, port)] = f"{doc.hostname(device)} {hca}"
                lid[(device.id, port)] = len(lid) + 1

    def switch_description(device_id: str) -> str:
        host = doc.hostname(doc.devices[device_id])
        return f"MF0;{host}:MQM9700/U1" if mf0 else host

    ports: dict[object, list[tuple[int, str]]] = {}
    for cable in cables:
        for here, there in ((cable.a, cable.b), (cable.b, cable.a)):
            ports.setdefault(here[0] if here[0] in switch_guid else here, []).append(
                (_ib_port(doc, here, switch_guid), _port_text(doc, here, there, cable.rate, switch_guid, ca_guid,
                                                                ca_name, lid, switch_description)))
    out.write("#\n# Topology file: generated on Mon Jun  3 09:00:00 2024\n#\n")
    first = next(iter(switch_guid.values()), 0)
    out.write(f"# Initiated from node {first:016x} port {first:016x}\n")
    for device_id, guid in switch_guid.items():
        item = doc.catalog[doc.devices[device_id].type]
        out.write(f"\nvendid=0x{VENDOR_ID:x}\ndevid=0x{SWITCH_DEVICE_ID:x}\nsysimgguid=0x{guid:x}\n"
                  f"switchguid=0x{guid:x}({guid:x})\n"
                  f'Switch\t{item.port_count + 1} "S-{guid:016x}"\t\t# "{switch_description(device_id)}" '
                  f"enhanced port 0 lid {lid[device_id]} lmc 0\n")
        out.writelines(text for _number, text in sorted(ports.get(device_id, [])))
        if aggregation:
            sharp = guid | 0x8000
            out.write(f'[{item.port_count + 1}]\t"H-{sharp:016x}"[1]({sharp:x}) \t\t# '
                      f'"Mellanox Technologies Aggregation Node" lid {lid[device_id]} 4xNDR\n')
    for end, guid in ca_guid.items():
        out.write(f"\nvendid=0x{VENDOR_ID:x}\ndevid=0x{HCA_DEVICE_ID:x}\nsysimgguid=0x{guid:x}\ncaguid=0x{guid:x}\n"
                  f'Ca\t1 "H-{guid:016x}"\t\t# "{ca_name[end]}"\n')
        out.writelines(text for _number, text in ports.get(end, []))


def _ib_port(doc: Document, end: End, switch_guid: dict[str, int]) -> int:
    if end[0] in switch_guid:
        return ib_port_number(doc.catalog[doc.devices[end[0]].type], end[1])
    return 1


def _port_text(doc: Document, here: End, there: End, rate: str, switch_guid: dict[str, int],
               ca_guid: dict[End, int], ca_name: dict[End, str], lid: dict[object, int], switch_description) -> str:
    """One port line of ``here``'s block, in ibnetdiscover's own layout for switch and CA ports."""
    number = _ib_port(doc, here, switch_guid)
    if there[0] in switch_guid:
        peer = f'"S-{switch_guid[there[0]]:016x}"[{_ib_port(doc, there, switch_guid)}]'
        peer_name, peer_lid = switch_description(there[0]), lid[there[0]]
    else:
        guid = ca_guid[there]
        peer = f'"H-{guid:016x}"[1]' + (f"({guid:x}) " if here[0] in switch_guid else f" ({guid:x}) ")
        peer_name, peer_lid = ca_name[there], lid[there]
    if here[0] in switch_guid:
        return f'[{number}]\t{peer}\t\t# "{peer_name}" lid {peer_lid} {rate}\n'
    return f'[1]({ca_guid[here]:x}) \t{peer}\t\t# lid {lid[here]} lmc 0 "{peer_name}" lid {peer_lid} {rate}\n'


def write_lldp(doc: Document, cables: list[Cable], folder: Path) -> list[Path]:
    """One ``<hostname>.json`` per switch, as ``lldpcli -f json show neighbors`` prints it there
    (interfaces as its network OS names them, ``_interface``; a host neighbour sends its MAC as
    port id and its interface, named after the plan port, as description). Returns the files
    written."""
    folder.mkdir(parents=True, exist_ok=True)
    neighbours: dict[str, list[tuple[str, dict]]] = {}
    for cable in cables:
        for here, there in ((cable.a, cable.b), (cable.b, cable.a)):
            device = doc.devices[here[0]]
            item = doc.catalog[device.type]
            if item.kind != SWITCH:
                continue
            local = _interface(item, here[1])
            neighbours.setdefault(device.id, []).append((local, _neighbour(doc, there)))
    written = []
    for device_id, entries in neighbours.items():
        entries.sort(key=lambda e: natural_key(e[0]))
        interface: object = [{name: body} for name, body in entries]
        if len(entries) == 1:
            interface = {entries[0][0]: entries[0][1]}
        path = folder / f"{doc.hostname(doc.devices[device_id])}.json"
        path.write_text(json.dumps({"lldp": {"interface": interface}}, indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written


def _neighbour(doc: Document, end: End) -> dict:
    device = doc.devices[end[0]]
    item = doc.catalog[device.type]
    host = doc.hostname(device)
    number = zlib.crc32(f"{end[0]} {end[1]}".encode())
    mac = f"b8:3f:d2:{number & 0xFF:02x}:{(number >> 8) & 0xFF:02x}:{(number >> 16) & 0xFF:02x}"
    if item.kind == SWITCH:
        port = {"id": {"type": "ifname", "value": _interface(item, end[1])}, "descr": "", "ttl": "120"}
    else:
        port = {"id": {"type": "mac", "value": mac}, "descr": end[1], "ttl": "120"}
    return {"via": "LLDP", "rid": "1", "age": "0 day, 00:10:00",
            "chassis": {host: {"id": {"type": "mac", "value": mac}, "descr": "Linux", "mgmt-ip": "10.0.0.1",
                               "capability": [{"type": "Bridge", "enabled": item.kind == SWITCH}]}},
            "port": port}


def _interface(item: CatalogItem, port: str) -> str:
    """A switch port as its network OS names it in LLDP: a cage by the type's ``lldp_naming``
    (Cumulus ``swp5``, else SONiC ``Ethernet8``), any other port (``eth0``, ``swp49``) by its plan
    name, which is the OS's own."""
    cages = item.port_names()
    if port not in cages:
        return port
    index = cages.index(port)
    cage, lane = index // item.ports_per_cage + 1, index % item.ports_per_cage + 1
    return (cumulus_name if item.lldp_naming == CUMULUS else sonic_name)(item, cage, lane)
