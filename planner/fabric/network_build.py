"""What the storage and management networks' steps share: switches reused by role and name or
placed, cables routed, and the step's command put together (``planner.fabric.stages``).

A step plans on the plan as it stands, but its switches go in one after another (an aggregation
pair in a network rack, then an access switch at the top of each rack), so each placement is
applied while the step plans (``Staged``) and reverted before it returns: the step changes
nothing itself, and what it returns replays exactly what it planned. A switch the plan already
holds with the wanted role, name and type keeps its rack and U, so regenerating an unchanged
plan changes nothing; one of the network's roles no longer wanted loses its role (as the
compute fabric retires its switches) and stays where it is, its cords and cables with it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

from planner.commands.base import AddObjects, Command, SetFields
from planner.fabric.cage_media import held_ends, one_media_per_cage
from planner.fabric.placement import place_switches, tapoff_limit_w
from planner.fabric.reconcile import reconcile
from planner.fabric.relength import recompute_lengths
from planner.fabric.routing import Router
from planner.fabric.stages import NetworkGeneration
from planner.model.catalog import BUSBAR
from planner.model.document import Document
from planner.model.objects import Device, Link


class Wanted(NamedTuple):
    """A switch a network needs: its role, name and home row (where ``place_switches`` looks)."""

    role: str
    name: str
    home: str


class Staged:
    """Commands applied while a step plans, so the next placement sees the switches before it."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.commands: list[Command] = []
        self.reshaped = False  # racks added or moved: routes between rows may change

    def run(self, command: Command) -> None:
        command.apply(self.doc)
        self.commands.append(command)

    def undo(self) -> None:
        for command in reversed(self.commands):
            command.revert(self.doc)


def reuse(doc: Document, switch_type: str, wanted: list[Wanted]) -> tuple[dict[int, Device], list[int]]:
    """The plan's switches holding a wanted role and name (and type), by index in ``wanted``, and
    the indices still to place."""
    have = {(d.role, d.name): d for d in doc.devices.values() if d.type == switch_type and d.role}
    kept = {i: have[(w.role, w.name)] for i, w in enumerate(wanted) if (w.role, w.name) in have}
    return kept, [i for i in range(len(wanted)) if i not in kept]


def unfed_rack_w(doc: Document) -> float | None:
    """What a network rack may draw before the rows have their busbars (the templates place the
    storage and in-band switches first): a tap-off of the catalogue's highest-rated busbar, the
    one the templates fit, within the warning margin (P2). A fed rack is held to its own feeds'."""
    bus = max(doc.catalog.of_kind(BUSBAR), key=lambda item: item.rating_a, default=None)
    limit = math.inf if bus is None else tapoff_limit_w(doc, bus.key)
    return None if math.isinf(limit) else limit


def place(staged: Staged, switch_type: str, wanted: list[Wanted], placement: str = "middle") -> list[Device]:
    """The wanted switches, in order: reused where the plan has them, the others placed in network
    racks of their home rows (``place_switches``, each rack within ``unfed_rack_w``) and applied."""
    doc = staged.doc
    kept, missing = reuse(doc, switch_type, wanted)
    if not missing:
        return [kept[i] for i in range(len(wanted))]
    where = place_switches(doc, switch_type, [wanted[i].home for i in missing], placement, unfed_rack_w(doc))
    new = {i: Device(id=doc.new_id("dev"), type=switch_type, name=wanted[i].name, role=wanted[i].role,
                     rack=rack_id, u=u) for i, (rack_id, u) in zip(missing, where.slots)}
    moved = {oid: dict(values) for oid, values in {**where.moves, **where.shifts}.items()}
    if moved:
        staged.run(SetFields(moved, text="Move racks aside"))
    staged.run(AddObjects([*where.new_racks, *new.values(), *where.pdus], text="Place switches"))
    staged.reshaped = staged.reshaped or bool(where.new_racks or where.moves)
    return [kept.get(i) or new[i] for i in range(len(wanted))]


def add_at(staged: Staged, devices: list[Device]) -> None:
    """Add switches whose rack and U the step chose itself (the top of a rack)."""
    if devices:
        staged.run(AddObjects(devices, text="Place switches"))


def retire(staged: Staged, roles: Iterable[str], keep: Iterable[Device]) -> None:
    """Take the role from the plan's switches of ``roles`` the network no longer has; one whose
    name a switch that stays in its rack has (a new one of another type) is renamed
    ``NAME-retired`` as the compute fabric's are, so hostnames stay unique (H1)."""
    doc = staged.doc
    kept, roles = {d.id for d in keep}, set(roles)
    gone: dict[str, dict[str, str]] = {d.id: {"role": ""} for d in doc.devices.values()
                                       if d.role in roles and d.id not in kept}
    taken: dict[str, set[str]] = {}
    for device in doc.devices.values():
        if device.id not in gone:
            taken.setdefault(device.rack, set()).add(device.name)
    for device_id, fields in gone.items():
        device = doc.devices[device_id]
        names = taken.setdefault(device.rack, set())
        if device.name in names:
            fields["name"] = next(f"{device.name}-retired{n or ''}" for n in range(len(names) + 1)
                                  if f"{device.name}-retired{n or ''}" not in names)
        names.add(fields.get("name", device.name))
    if gone:
        staged.run(SetFields(gone, text="Retire switches"))


def current_peers(doc: Document, network: str, tier: str, switches: Iterable[Device]) -> dict[tuple[str, str], tuple[str, str]]:
    """Where the network's cables of ``tier`` with one end on one of ``switches`` run now:
    (device id, port) of the other end → (switch id, switch port)."""
    ids = {d.id for d in switches}
    peers: dict[tuple[str, str], tuple[str, str]] = {}
    for link in doc.links_in(network).values():
        if link.tier != tier:
            continue
        if link.b_device in ids:
            peers[(link.a_device, link.a_port)] = (link.b_device, link.b_port)
        elif link.a_device in ids:
            peers[(link.b_device, link.b_port)] = (link.a_device, link.a_port)
    return peers


class Cabler:
    """Routes a network's cables over the plan as staged (every switch of the step in place)."""

    def __init__(self, doc: Document) -> None:
        self.router = Router(doc)
        self.links: list[Link] = []

    def connect(self, a: Device, a_port: str, b: Device, b_port: str, tier: str) -> None:
        result = self.router.route(a.id, b.id, tier, a_port, b_port)
        self.links.append(Link(id=f"new-{len(self.links) + 1}", a_device=a.id, a_port=a_port, b_device=b.id,
                               b_port=b_port, tier=tier, media=result.media, length_m=result.length_m,
                               stock_m=result.stock_m))


def finish(staged: Staged, network: str, cabler: Cabler, text: str, switches: dict[str, int]) -> NetworkGeneration:
    """The step's command: cables the network no longer has removed first, then the placements
    as staged, the other networks' lengths where racks moved, then the cables rewired and added
    (``reconcile``: a cable whose two ends stay keeps its identity)."""
    doc = staged.doc
    scope = set(doc.links_in(network))
    one_media_per_cage(cabler.router, cabler.links, held_ends(doc.links_in(network).values()))
    cables = reconcile(doc, cabler.links, scope)
    if staged.reshaped:  # new or moved racks: the other networks' cables between rows re-route
        staged.run(recompute_lengths(doc, [i for i in doc.links if i not in scope]))
    staged.undo()
    children: list[Command] = [c for c in (cables.remove_command(),) if c is not None]
    children += [c for c in staged.commands if not (isinstance(c, SetFields) and not c.values)]
    children += [c for c in (cables.update_command(), cables.add_command()) if c is not None]
    counts = ", ".join(f"{n} {role}" for role, n in switches.items())
    return NetworkGeneration(network, children, text=f"{text} ({counts}; {len(cabler.links)} cables: "
                                                     f"{cables.summary()})", cables=cables, switches=switches)

