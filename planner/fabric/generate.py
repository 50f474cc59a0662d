"""Generate a plan's fabric: size it, place the switches, cable every port, route every cable.

``generate_fabric`` returns one Compound (old fabric links removed, switches reused or placed,
racks added or moved aside, links added with routed lengths, media and labels) and changes
nothing itself, so the GUI pushes it as one undo step and the templates apply it directly.
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
from planner.fabric.placement import device_power_w, place_switches, rack_pdus, row_key
from planner.fabric.routing import Router
from planner.fabric.sizing import FabricDesign, FabricError, design_fabric, node_devices, rails_of
from planner.model.catalog import SWITCH
from planner.model.document import Document, natural_key
from planner.model.objects import TIERS, Device, Link

_STEMS = {LEAF: "L", SPINE: "S", CORE: "C"}


def _label(rack_name: str, device: Device, port: str) -> str:
    return f"{rack_name}-U{device.u:02d}-{device.name}-{port}"


def generate_fabric(doc: Document, switch_type: str, oversubscription: float = 1.0,
                    placement: str = "middle", rack_power_w: float | None = None) -> Command:
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

    fabric_devices = {d.id for d in nodes} | {d.id for d in doc.devices.values() if d.role}
    old_links = sorted({link.id for link in doc.links.values()
                        if link.tier in TIERS or link.a_device in fabric_devices
                        or link.b_device in fabric_devices}, key=natural_key)
    assigned, spare = _reuse(doc, switch_type, slots)
    to_place = [position for position in range(len(slots)) if position not in assigned]

    homes = _home_rows(doc, design, nodes, [slots[position] for position in to_place])
    where = place_switches(doc, switch_type, homes, placement, rack_power_w)
    placed = dict(zip(to_place, where.slots))

    updates: dict[str, dict[str, Any]] = {rid: dict(v) for rid, v in where.moves.items()}
    devices: dict[tuple[str, int], Device] = {}
    new_devices: list[Device] = []
    for position, slot in enumerate(slots):
        fields = {"name": _switch_name(slot), "role": slot.role, "su": slot.su, "pod": slot.pod, "rail": slot.rail}
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
    retired = [*spare, *(d for d in doc.devices.values() if d.role and d.type != switch_type)]
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
    for slot, node in zip(design.node_slots(), nodes):
        devices[(NODE, slot)] = node

    each_w = device_power_w(doc, switch_type)
    for rack in where.new_racks:  # a new network rack needs its way in for power (P4)
        switches = sum(1 for d in new_devices if d.rack == rack.id)
        new_devices.extend(rack_pdus(doc, rack.id, switches * each_w))

    moved_racks = [replace(doc.racks[rack_id], **values) for rack_id, values in where.moves.items()]
    router = Router(doc, racks=[*where.new_racks, *moved_racks], devices=devices.values())
    rack_names = {r.id: r.name for r in doc.racks.values()}
    rack_names.update({r.id: r.name for r in where.new_racks})
    links = _links(doc, design, devices, router, rack_names, item.port_names(),
                   doc.catalog[nodes[0].type].port_names())

    children: list[Command] = []
    if old_links:
        children.append(RemoveObjects(old_links, text="Remove old fabric links"))
    if updates:
        children.append(SetFields(updates, text="Assign fabric switches"))
    if where.new_racks or new_devices:
        children.append(AddObjects([*where.new_racks, *new_devices], text="Place switches"))
    children.append(AddObjects(links, text="Cable fabric"))
    counts = design.counts()["switches"]
    text = f"Generate fabric ({counts['leaf']} leaf, {counts['spine']} spine, {counts['core']} core; {len(links)} cables"
    if oversubscription != doc.basis.oversubscription:
        # N5 checks the cabled leaves against the design basis: the ratio built is the ratio allowed.
        children.insert(0, SetAttributes("basis", {"oversubscription": oversubscription},
                                         text="Set the design-basis oversubscription"))
        text += f"; oversubscription {oversubscription:g}:1"
    return Compound(children, text=f"{text})")


def _names_by_rack(doc: Document, fabric: list[Device], retired: set[str]) -> dict[str, set[str]]:
    """Device names per rack once the fabric is in place: its switches and nodes, and every
    other device that stays (retired switches not counted: they are named after these)."""
    names: dict[str, set[str]] = {}
    placed = {device.id for device in fabric}
    for device in [*fabric, *(d for d in doc.devices.values() if d.id not in placed and d.id not in retired)]:
        names.setdefault(device.rack, set()).add(device.name)
    return names


def _switch_name(slot: SwitchSlot) -> str:
    return f"{_STEMS[slot.role]}{slot.index + 1}"


def _reuse(doc: Document, switch_type: str, slots: list[SwitchSlot]) -> tuple[dict[int, Device], list[Device]]:
    """Existing switches for the slots: first the one already holding a slot's role and name
    (so regenerating keeps every switch where it is), then the rest in rack and U order."""
    pool = sorted((d for d in doc.devices.values() if d.type == switch_type),
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


def relabel(doc: Document) -> None:
    """Rewrite every link label from its ends (after racks were renamed), in place."""
    for link in list(doc.links.values()):
        a, b = doc.devices[link.a_device], doc.devices[link.b_device]
        doc.set_fields(link.id, {"label": f"{_label(doc.racks[a.rack].name, a, link.a_port)} ↔ "
                                          f"{_label(doc.racks[b.rack].name, b, link.b_port)}"})


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


def _links(doc: Document, design: FabricDesign, devices: dict[tuple[str, int], Device], router: Router,
           rack_names: dict[str, str], switch_ports: list[str], node_ports: list[str]) -> list[Link]:
    """Every cable of the design as a Link. Nodes sit at their leaf slots (``node_slots``), so the
    cabling runs over the full SUs' slots and skips the slots no node fills."""
    links = []
    ports = {NODE: node_ports, LEAF: switch_ports, SPINE: switch_ports, CORE: switch_ports}
    number = int(doc.new_id("link").split("-")[1])
    slotted = replace(design, nodes=design.sus * design.down) if design.tiers > 1 else design
    for spec in fabric_links(slotted):
        a = devices.get((spec.a_role, spec.a_index))
        if a is None:  # an empty leaf slot of a partly filled SU
            continue
        b = devices[(spec.b_role, spec.b_index)]
        a_port, b_port = ports[spec.a_role][spec.a_port], ports[spec.b_role][spec.b_port]
        result = router.route(a.id, b.id, spec.tier)
        links.append(Link(
            id=f"link-{number}", a_device=a.id, a_port=a_port, b_device=b.id, b_port=b_port,
            tier=spec.tier, rail=spec.rail, media=result.media, length_m=result.length_m,
            stock_m=result.stock_m,
            label=f"{_label(rack_names[a.rack], a, a_port)} ↔ {_label(rack_names[b.rack], b, b_port)}",
        ))
        number += 1
    return links
