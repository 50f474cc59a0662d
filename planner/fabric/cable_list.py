"""A hand-kept cable list applied to a plan as one change (``planner cables import``, File ▸ Import
cable list…).

Each row's two ends are found in the plan (``planner.io.cable_list`` reads the rows), each cable
is made as a hand cable (``hand_cable``: tier, rail, route, media and stock length from its ends,
one shared router) and the whole list is reconciled with the plan's cables (``reconcile``):
cables whose ends a row names are kept whole, a cable sharing one end with a row is rewired, the
rest of the scope removed, the rest of the rows added.

Finding an end:

- the device: with a rack, the device of that name in the rack, else the device whose hostname
  the name is (it must stand in that rack); without a rack, the hostname, else a device name
  only one rack has. A U given must be the device's U;
- the port: the plan's own name (``P1``, ``1/1``, any case), or as the UFM cable validation
  tool writes it: on a GPU node a host port number ``k`` is the HCA ``mlx5_<k-1>`` (that tool's
  default mapping) and so the node port behind it, ``rail<k>`` the k-th port, an HCA name its
  port; on a switch an IB port number (``3`` = ``2/1`` on twin-port cages), NVOS
  ``sw<cage>p<lane>``, Cumulus ``swp<cage>s<lane-1>`` or SONiC ``Ethernet<i>``.

A port of any network is found by its plan name (``CatalogItem.all_port_names``: ``S1``, ``BMC``,
``PSU1``, a PDU's ``O37``, ``SUP1``); a row that names its network (the schedule's ``network``
column) must name the network its ends put the cable on (``network_of``), else it is a row
problem. A row without one is on whatever network its ends are (compute for the rails).

A row's label equal to what its ends derive, or to the derived label of the cable it matches or
rewires (a port edited, the old label left), means "derived" (""); any other label is typed.
A port on two rows, a cable from a port to itself, an unknown rack, device or port are row
problems; while there is one, nothing is applied.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from planner.commands.base import Compound
from planner.commands.checks import value_problem
from planner.fabric.hand import hand_cable
from planner.fabric.reconcile import CablePlan, reconcile
from planner.fabric.routing import Router
from planner.io.cable_list import UFM_P2P, CableList, ListedCable, ListedEnd, read_cable_list, shown
from planner.io.discovery.naming import PlanNames, hca_names, port_names
from planner.io.discovery.records import IB, LLDP, PLAN
from planner.model.catalog import NODE, CatalogItem
from planner.model.document import Document
from planner.model.labels import SEPARATOR, end_text
from planner.model.networks import NETWORK_WORDS, network_of
from planner.model.objects import Link

#: Problems listed before "and K more".
SHOWN_PROBLEMS = 20
End = tuple[str, str]
_NVOS = re.compile(r"sw(\d+)p(\d+)")
_RAIL = re.compile(r"rail(\d+)")
_U = re.compile(r"u?\s*(\d+)(?:\.0*)?")


class _RowProblem(Exception):
    pass


def type_port_names(item: CatalogItem) -> dict[str, str]:
    """Every way a row may write a port of this type (lower case) → the plan's port name."""
    ports = item.port_names()
    if item.kind == NODE:
        names = port_names(item, PLAN)
        by_hca = {hca.lower(): port for hca, port in zip(hca_names(item), ports)}
        for number, port in enumerate(ports, start=1):
            names.setdefault(f"rail{number}", port)
            names.setdefault(str(number), by_hca.get(f"mlx5_{number - 1}", port))
        names.update({f"{hca}/p1": port for hca, port in by_hca.items()})
    else:
        names = {**port_names(item, LLDP), **port_names(item, IB)}
        lanes = max(1, item.ports_per_cage)
        for index, port in enumerate(ports):
            names.setdefault(f"sw{index // lanes + 1}p{index % lanes + 1}", port)
    for port in item.all_port_names():  # the other networks' ports, as the plan names them
        names.setdefault(port.lower(), port)
    return names


class _Ends:
    """Racks, devices and ports of a plan looked up as a cable list writes them."""

    def __init__(self, doc: Document, z_side: bool) -> None:
        self.doc = doc
        self.sides = ("A", "Z" if z_side else "B")
        self.racks: dict[str, str | None] = {}
        for rack in doc.racks.values():
            key = rack.name.lower()
            self.racks[key] = None if key in self.racks else rack.id
        self.in_rack: dict[tuple[str, str], str] = {}
        self.by_name: dict[str, list[str]] = {}
        for device in doc.devices.values():
            self.in_rack.setdefault((device.rack, device.name.lower()), device.id)
            self.by_name.setdefault(device.name.lower(), []).append(device.id)
        self.names = PlanNames(doc)
        self._ports: dict[str, dict[str, str]] = {}

    def where(self, device_id: str) -> str:
        device = self.doc.devices[device_id]
        rack = self.doc.racks.get(device.rack)
        return f"{rack.name if rack else device.rack} {device.name}"

    def device(self, end: ListedEnd) -> str:
        if end.rack:
            key = end.rack.lower()
            if key not in self.racks:
                raise _RowProblem(f"unknown rack {shown(end.rack)}")
            rack_id = self.racks[key]
            if rack_id is None:
                raise _RowProblem(f"rack name {shown(end.rack)} is shared by several racks")
            found = self.in_rack.get((rack_id, end.device.lower())) or self.names.device(end.device)
            if found is None or self.doc.devices[found].rack != rack_id:
                elsewhere = f" ({shown(end.device)} is {self.where(found)})" if found else ""
                raise _RowProblem(f"no device {shown(end.device)} in rack {self.doc.racks[rack_id].name}{elsewhere}")
            return found
        found = self.names.device(end.device)
        if found is not None:
            return found
        same = self.by_name.get(end.device.lower(), [])
        if len(same) == 1:
            return same[0]
        if same:
            raise _RowProblem(f"{shown(end.device)} is in {len(same):,} racks: give the rack")
        if end.device.strip().lower() in self.names.shared:
            raise _RowProblem(f"hostname {shown(end.device)} is shared by several devices")
        raise _RowProblem(f"unknown device {shown(end.device)}")

    def port(self, device_id: str, text: str) -> str:
        device_type = self.doc.devices[device_id].type
        table = self._ports.get(device_type)
        if table is None:
            table = self._ports[device_type] = type_port_names(self.doc.catalog[device_type])
        if not table:
            raise _RowProblem(f"{self.where(device_id)} has no network ports")
        port = table.get(text.lower())
        if port is None:
            ports = self.doc.catalog[device_type].port_names() or self.doc.catalog[device_type].all_port_names()
            raise _RowProblem(f"{self.where(device_id)} has no port {shown(text)} (ports {ports[0]} … {ports[-1]})")
        return port

    def end(self, end: ListedEnd, side: int) -> End:
        try:
            device_id = self.device(end)
            if end.u:
                match = _U.fullmatch(end.u.lower())
                if match is None:
                    raise _RowProblem(f"U {shown(end.u)} is not a number")
                u = self.doc.devices[device_id].u
                if int(match.group(1)) != u:
                    raise _RowProblem(f"{self.where(device_id)} is at U{u}, the row says U{int(match.group(1))}")
            return device_id, self.port(device_id, end.port)
        except _RowProblem as exc:
            raise _RowProblem(f"{self.sides[side]} end: {exc}") from None


@dataclass
class CableListChange:
    """What a cable list does to a plan: the change (``plan``, None while any row has a problem)
    and the rows' problems, ``(row, text)`` in row order."""

    name: str
    rows: int
    plan: CablePlan | None = None
    problems: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.plan is not None and not self.problems

    def problem_lines(self, limit: int = SHOWN_PROBLEMS) -> list[str]:
        """``row N: …`` for the first ``limit`` problems, then "and K more"."""
        lines = [f"row {row}: {text}" for row, text in self.problems[:limit]]
        if len(self.problems) > limit:
            lines.append(f"and {len(self.problems) - limit:,} more")
        return lines

    def command(self) -> Compound:
        """The whole change as one undo step."""
        assert self.plan is not None
        return Compound(self.plan.commands(), text=f"Import cable list ({self.plan.summary()})")


def cable_list_change(doc: Document, path: str | os.PathLike[str], keep_unlisted: bool = False) -> CableListChange:
    """Read the list at ``path`` and plan it (``CableListError`` for a file that cannot be read)."""
    return plan_cable_list(doc, read_cable_list(path), keep_unlisted)


def plan_cable_list(doc: Document, listed: CableList, keep_unlisted: bool = False) -> CableListChange:
    """The change the list makes: every cable of the networks the list holds in scope (a cable of
    them not on the list is removed; a list of the compute fabric leaves the other networks
    alone), or with ``keep_unlisted`` only the cables that hold a port a row names."""
    result = CableListChange(listed.name, len(listed.cables) + len(listed.problems), problems=list(listed.problems))
    ends = _Ends(doc, listed.kind == UFM_P2P)
    resolved: list[tuple[ListedCable, End, End]] = []
    taken: dict[End, int] = {}
    for row in listed.cables:
        try:
            a, b = ends.end(row.a, 0), ends.end(row.b, 1)
            if a == b:
                raise _RowProblem(f"both ends are {ends.where(a[0])} {a[1]}")
            for end in (a, b):
                if end in taken:
                    raise _RowProblem(f"{ends.where(end[0])} {end[1]} is on row {taken[end]} too")
            problem = value_problem("Link", "label", row.label) if row.label else None
            if problem:
                raise _RowProblem(f"label: {problem}")
        except _RowProblem as exc:
            result.problems.append((row.row, str(exc)))
            continue
        taken[a] = taken[b] = row.row
        resolved.append((row, a, b))
    result.problems.sort(key=lambda p: p[0])
    if result.problems:
        return result
    at_end: dict[End, list[str]] = {}
    for link in doc.links.values():
        at_end.setdefault((link.a_device, link.a_port), []).append(link.id)
        at_end.setdefault((link.b_device, link.b_port), []).append(link.id)
    router = Router(doc)
    wanted: list[Link] = []
    for row, a, b in resolved:
        link = hand_cable(doc, *a, *b, link_id=f"row-{row.row}", router=router)  # reconcile numbers the new
        if row.network and network_of(link) != row.network:
            found = NETWORK_WORDS[network_of(link)]
            result.problems.append((row.row, f"the row says network {row.network}, its ends are on {found}"))
            continue
        if row.label and _is_derived(doc, row.label, link, [*at_end.get(a, ()), *at_end.get(b, ())]):
            link.label = ""
        else:
            link.label = row.label
        wanted.append(link)
    if result.problems:
        return result
    if keep_unlisted:
        scope = {link_id for end in taken for link_id in at_end.get(end, ())}
    else:  # the networks the list holds: a UFM p2p of the compute fabric leaves cords and hoses alone
        listed_networks = {network_of(link) for link in wanted}
        scope = {link.id for link in doc.links.values() if network_of(link) in listed_networks}
    result.plan = reconcile(doc, wanted, scope)
    return result


def _is_derived(doc: Document, label: str, link: Link, near: list[str]) -> bool:
    """Whether a row's label is only what its ends (or the cable it matches or rewires) derive."""
    a, b = end_text(doc, link.a_device, link.a_port), end_text(doc, link.b_device, link.b_port)
    if label in (f"{a}{SEPARATOR}{b}", f"{b}{SEPARATOR}{a}"):
        return True
    for link_id in near:
        old = doc.links[link_id]
        old_a, old_b = end_text(doc, old.a_device, old.a_port), end_text(doc, old.b_device, old.b_port)
        if label in (f"{old_a}{SEPARATOR}{old_b}", f"{old_b}{SEPARATOR}{old_a}"):
            return True
    return False
