"""Generate a plan's fabric: size it, place the switches, cable every port, route every cable.

``generate_fabric`` returns one Compound (switches reused or placed, racks added or moved aside,
the fabric's cables reconciled with the plan's, with routed lengths and media) and changes
nothing itself, so the GUI pushes it as one undo step and the templates apply it directly.
Cables keep their identity (``reconcile``): one whose two ends the new fabric also joins is kept
whole (id, typed label, state, note), so regenerating an unchanged plan changes nothing and
adding nodes adds only their cables; the command's ``cables`` says what it does in numbers.
Switches of the chosen type already in the plan are reused before new ones are placed: a
switch keeps the slot whose role and name it has (regenerating changes nothing), the others
fill the remaining slots in rack and U order, so hand-placed switches keep their places.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from planner.commands.base import (
    AddObjects,
    Command,
    Compound,
    RemoveObjects,
    SetAttributes,
    SetFields,
)
from planner.fabric.cabling import CORE, LEAF, NODE, SPINE, SwitchSlot, fabric_links, switch_slots
from planner.fabric.cage_media import Ends, held_ends, one_media_per_cage
from planner.fabric.placement import place_switches, row_key
from planner.fabric.reconcile import CablePlan, reconcile
from planner.fabric.routing import Router
from planner.fabric.sizing import FabricDesign, FabricError, design_fabric, node_devices, rails_of
from planner.model.catalog import SWITCH, switch_protocol
from planner.model.document import Document, natural_key
from planner.model.networks import in_compute_fabric, is_compute
from planner.model.objects import TIERS, Device, Link, Rack
from planner.model.ports import COMPUTE

_STEMS = {LEAF: "L", SPINE: "S", CORE: "C"}


def generate_fabric(doc: Document, switch_type: str, oversubscription: float = 1.0,
                    placement: str = "middle", rack_power_w: float | None = None) -> FabricGeneration:
    """The command that gives the plan a complete, cabled, routed rail-optimised fabric.

    ``rack_power_w`` caps the switch power per network rack (default: the rack rating less
    the design-basis warning margin).
    """
    if switch_type not in doc.catalog or doc.catalog[switch_type].kind != SWITCH:
        raise FabricError(f"{switch_type} is not a switch type in the catalogue")
    item = doc.catalog[switch_type]
    nodes = node_devices(doc)
    if not nodes:
        raise FabricError("the plan has no GPU nodes to connect")
    design = design_fabric(len(nodes), rails_of(doc, nodes), item.port_count, oversubscription)
    slots = switch_slots(design)

    fabric_devices = {d.id for d in nodes} | {d.id for d in doc.devices.values() if in_compute_fabric(d.role)}
    old_links = {link.id for link in doc.links_in(COMPUTE).values()
                 if link.tier in TIERS or link.a_device in fabric_devices or link.b_device in fabric_devices}
    assigned, spare = _reuse(doc, switch_type, slots)
    to_place = [position for position in range(len(slots)) if position not in assigned]

    homes = _home_rows(doc, design, nodes, [slots[position] for position in to_place])
    where = place_switches(doc, switch_type, homes, placement, rack_power_w)
    placed = dict(zip(to_place, where.slots))

    updates: dict[str, dict[str, Any]] = {oid: dict(v) for oid, v in {**where.moves, **where.shifts}.items()}
    devices: dict[tuple[str, int], Device] = {}
    new_devices: list[Device] = []
    for position, slot in enumerate(slots):
        fields: dict[str, Any] = {"name": _switch_name(slot), "role": slot.role, "su": slot.su, "pod": slot.pod,
                                  "rail": slot.rail}
        if position in assigned:
            device = assigned[position]
            if any(getattr(device, k) != v for k, v in fields.items()):
                updates[device.id] = fields
            devices[(slot.role, slot.index)] = Device(id=device.id, type=switch_type, rack=device.rack,
                                                      u=device.u, **fields)
        else:
            rack_id, u = placed[position]
            device = Device(id=doc.new_id("dev"), type=switch_type, rack=rack_id, u=u, **fields)
            new_devices.append(device)
            devices[(slot.role, slot.index)] = device
    retired = [*spare, *(d for d in doc.devices.values() if in_compute_fabric(d.role) and d.type != switch_type)]
    kept_names = _names_by_rack(doc, [*devices.values(), *new_devices], {d.id for d in retired})
    for device in retired:
        fields = {"role": "", "su": 0, "pod": 0, "rail": 0} if device.role else {}
        taken = kept_names.setdefault(device.rack, set())
        if device.name in taken:  # the new fabric's L1 in the same rack: hostnames must differ (H1)
            name = next(f"{device.name}-retired{n or ''}" for n in range(len(taken) + 1)
                        if f"{device.name}-retired{n or ''}" not in taken)
            fields["name"] = name
        taken.add(fields.get("name", device.name))
        if fields:
            updates[device.id] = fields
    for node_slot, node in _node_slots(doc, design, nodes, switch_type).items():
        devices[(NODE, node_slot)] = node

    new_devices.extend(where.pdus)  # new and fuller network racks need their way in for power (P4)

    moved_racks = [_moved(doc.racks[rack_id], values) for rack_id, values in where.moves.items()]
    protocol = switch_protocol(item)
    router = Router(doc, racks=[*where.new_racks, *moved_racks], devices=devices.values(), fabric_kind=protocol)
    links = _links(design, devices, router, item.port_names(),
                   doc.catalog[nodes[0].type].port_names(), held_ends(doc.links_in(COMPUTE).values()))

    cables = reconcile(doc, links, old_links)
    children: list[Command] = []
    if cables.removed:
        children.append(RemoveObjects(cables.removed, text="Remove old fabric links"))
    if updates:
        children.append(SetFields(updates, text="Assign fabric switches"))
    if where.new_racks or new_devices:
        children.append(AddObjects([*where.new_racks, *new_devices], text="Place switches"))
    children.extend(c for c in (cables.update_command(), cables.add_command()) if c is not None)
    counts = design.counts()["switches"]
    text = (f"Generate fabric ({counts['leaf']} leaf, {counts['spine']} spine, {counts['core']} core; "
            f"{len(links)} cables: {cables.summary()}")
    if oversubscription != doc.basis.oversubscription:
        # N5 checks the cabled leaves against the design basis: the ratio built is the ratio allowed.
        children.insert(0, SetAttributes("basis", {"oversubscription": oversubscription},
                                         text="Set the design-basis oversubscription"))
        text += f"; oversubscription {oversubscription:g}:1"
    if protocol != doc.basis.fabric_kind:  # media reaches (N7) and NetBox types follow the switches built
        children.insert(0, SetAttributes("basis", {"fabric_kind": protocol}, text="Set the design-basis fabric kind"))
    return FabricGeneration(children, text=f"{text})", cables=cables)


class FabricGeneration(Compound):
    """The generation as one undo step, with what it does to the existing cables (``cables``:
    kept, rewired, removed, added) for the dialog and the CLI to show before applying."""

    def __init__(self, children: list[Command], text: str, cables: CablePlan) -> None:
        super().__init__(children, text=text)
        self.cables = cables

    @property
    def changes_nothing(self) -> bool:
        """Regenerating an unchanged plan: no switch, rack, cable or basis value to change."""
        return not self.children


def _names_by_rack(doc: Document, fabric: list[Device], retired: set[str]) -> dict[str, set[str]]:
    """Device names per rack once the fabric is in place: its switches and nodes, and every
    other device that stays (retired switches not counted: they are named after these)."""
    names: dict[str, set[str]] = {}
    placed = {device.id for device in fabric}
    for device in [*fabric, *(d for d in doc.devices.values() if d.id not in placed and d.id not in retired)]:
        names.setdefault(device.rack, set()).add(device.name)
    return names


def _node_slots(doc: Document, design: FabricDesign, nodes: list[Device], switch_type: str) -> dict[int, Device]:
    """The leaf slot of each node: the one its cables hold now, where the new design has it (so
    regenerating keeps every cable and added nodes take free slots), else the next free slot of
    the design's own order (``node_slots``), then any free slot."""
    rails = design.rails
    width = design.down if design.tiers > 1 else design.ports // max(rails, 1)
    capacity = design.sus * width if design.tiers > 1 else width
    port_index = {name: i for i, name in enumerate(doc.catalog[switch_type].port_names())}
    taken: dict[int, Device] = {}
    rest: list[Device] = []
    for node in nodes:
        held = set()
        for link in doc.links_of(node.id):
            if not is_compute(link):
                continue
            leaf = doc.devices.get(link.b_device if link.a_device == node.id else link.a_device)
            port = link.b_port if link.a_device == node.id else link.a_port
            if leaf is None or leaf.role != LEAF or leaf.type != switch_type or port not in port_index:
                continue
            index = port_index[port]
            if design.tiers == 1:
                held.add(index // rails)
            elif index < width:
                held.add((leaf.su - 1) * width + index)
        slot = held.pop() if len(held) == 1 else None
        if slot is not None and 0 <= slot < capacity and slot not in taken:
            taken[slot] = node
        else:
            rest.append(node)
    ordered = design.node_slots()
    listed = set(ordered)
    free = iter([s for s in ordered if s not in taken] +
                [s for s in range(capacity) if s not in taken and s not in listed])
    for node in rest:
        taken[next(free)] = node
    return dict(sorted(taken.items()))


def _moved(rack: Rack, move: dict[str, float]) -> Rack:
    """``rack`` moved aside: a move is {"x": …} or {"y": …} (``place_switches``), the other coordinate stays."""
    return replace(rack, x=move.get("x", rack.x), y=move.get("y", rack.y))


def _switch_name(slot: SwitchSlot) -> str:
    return f"{_STEMS[slot.role]}{slot.index + 1}"


def _reuse(doc: Document, switch_type: str, slots: list[SwitchSlot]) -> tuple[dict[int, Device], list[Device]]:
    """Existing switches for the slots: first the one already holding a slot's role and name
    (so regenerating keeps every switch where it is), then the rest in rack and U order."""
    pool = sorted((d for d in doc.devices.values() if d.type == switch_type and (not d.role or in_compute_fabric(d.role))),
                  key=lambda d: (natural_key(doc.racks[d.rack].name), d.u))
    by_name = {(d.role, d.name): d for d in pool if d.role}
    assigned: dict[int, Device] = {}
    for position, slot in enumerate(slots):
        device = by_name.pop((slot.role, _switch_name(slot)), None)
        if device is not None:
            assigned[position] = device
    taken = {d.id for d in assigned.values()}
    rest = iter([d for d in pool if d.id not in taken])
    for position in range(len(slots)):
        if position not in assigned:
            device = next(rest, None)
            if device is None:
                break
            assigned[position] = device
    return assigned, list(rest)


def _home_rows(doc: Document, design: FabricDesign, nodes: list[Device], slots: list) -> list[str]:
    """Row for each switch still to place: where the nodes it serves stand."""
    node_rows = [row_key(doc.racks[n.rack]) for n in nodes]
    ordered_rows = list(dict.fromkeys(node_rows))

    def middle_row(first: int, last: int) -> str:
        last = min(last, len(nodes))
        return node_rows[(first + last - 1) // 2]

    homes = []
    starts = [0]  # first node (fabric order) of each SU, and one past the last
    for size in design.su_sizes():
        starts.append(starts[-1] + size)
    per_pod = design.sus_per_pod
    for slot in slots:
        if slot.role == LEAF:
            su = slot.su - 1
            homes.append(middle_row(starts[su], starts[su + 1]))
        elif slot.role == SPINE:
            pod = slot.pod - 1
            first_su, last_su = pod * per_pod, min((pod + 1) * per_pod, design.sus)
            homes.append(middle_row(starts[first_su], starts[last_su]))
        else:
            group = slot.index // design.cores_per_group
            homes.append(ordered_rows[(2 * group + 1) * len(ordered_rows) // (2 * design.core_groups)])
    return homes


def _links(design: FabricDesign, devices: dict[tuple[str, int], Device], router: Router,
           switch_ports: list[str], node_ports: list[str], held: dict[Ends, Link]) -> list[Link]:
    """Every cable of the design as a Link. Nodes sit at their leaf slots (``node_slots``), so the
    cabling runs over the full SUs' slots and skips the slots no node fills. One media per
    twin-port cage, but the cables the hall already has (``held``) keep theirs."""
    links: list[Link] = []
    ports = {NODE: node_ports, LEAF: switch_ports, SPINE: switch_ports, CORE: switch_ports}
    slotted = replace(design, nodes=design.sus * design.down) if design.tiers > 1 else design
    for spec in fabric_links(slotted):
        a = devices.get((spec.a_role, spec.a_index))
        if a is None:  # an empty leaf slot of a partly filled SU
            continue
        b = devices[(spec.b_role, spec.b_index)]
        a_port, b_port = ports[spec.a_role][spec.a_port], ports[spec.b_role][spec.b_port]
        result = router.route(a.id, b.id, spec.tier)
        links.append(Link(
            id=f"new-{len(links) + 1}", a_device=a.id, a_port=a_port, b_device=b.id, b_port=b_port,
            tier=spec.tier, rail=spec.rail, media=result.media, length_m=result.length_m,
            stock_m=result.stock_m))
    one_media_per_cage(router, links, held)
    return links
