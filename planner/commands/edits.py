"""Ready-made edits: the commands behind the editor's gestures, built from the primitives.

Each function looks at the document, decides what must change and returns one Command (a
Compound where a gesture touches several objects) without changing anything itself; the
caller applies it (on the undo stack in the GUI). Functions that can refuse return ``None``
and give the reason through ``Refusal``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from planner.commands.base import AddObjects, Command, Compound, RemoveObjects, SetFields
from planner.commands.checks import Refusal
from planner.model.catalog import (
    BUSBAR,
    FLOOR_KINDS,
    IN_RACK_KINDS,
    NODE,
    RACK,
    RACK_CDU,
    RACK_PDU,
    STORAGE,
    SWITCH,
)
from planner.model.document import Document, natural_key, prefix_of
from planner.model.objects import BusbarRun, Device, FloorUnit, Rack

_DEVICE_STEMS = {NODE: "N", SWITCH: "SW", STORAGE: "ST", RACK_PDU: "PDU", RACK_CDU: "CDU"}


def next_rack_name(doc: Document, taken: set[str] | None = None) -> str:
    names = {r.name for r in doc.racks.values()} | (taken or set())
    return doc.unique_name(names, "R")


def device_name(doc: Document, type_key: str, rack_id: str, taken: set[str] | None = None) -> str:
    """Default short name of a new device in a rack: N1, N2 … for nodes, SW1 … for switches."""
    stem = _DEVICE_STEMS[doc.catalog[type_key].kind]
    names = {d.name for d in doc.devices_in(rack_id)} | (taken or set())
    return doc.unique_name(names, stem, width=1)


def new_rack(doc: Document, type_key: str, x: float, y: float, rotation: int = 0,
             name: str | None = None, row: str = "") -> Rack:
    """A Rack object with a fresh id (not yet in the document)."""
    if doc.catalog[type_key].kind != RACK:
        raise Refusal(f"{doc.catalog[type_key].name} is not a rack")
    return Rack(id=doc.new_id("rack"), type=type_key, name=name or next_rack_name(doc),
                x=x, y=y, rotation=rotation, row=row)


def place_rack(doc: Document, type_key: str, x: float, y: float, rotation: int = 0) -> Command:
    rack = new_rack(doc, type_key, x, y, rotation)
    return AddObjects([rack], text=f"Add rack {rack.name}")


def place_floor_unit(doc: Document, type_key: str, x: float, y: float, rotation: int = 0) -> Command:
    item = doc.catalog[type_key]
    if item.kind not in FLOOR_KINDS:
        raise Refusal(f"{item.name} does not stand on the floor")
    stem = "CDU-" if item.kind == "row_cdu" else "PDC-"
    name = doc.unique_name({u.name for u in doc.floor_units.values()}, stem)
    unit = FloorUnit(id=doc.new_id("fu"), type=type_key, name=name, x=x, y=y, rotation=rotation)
    return AddObjects([unit], text=f"Add {name}")


def place_busbar(doc: Document, type_key: str, x1: float, y1: float, x2: float, y2: float,
                 side: str = "A", row: str = "") -> Command:
    if doc.catalog[type_key].kind != BUSBAR:
        raise Refusal(f"{doc.catalog[type_key].name} is not a busbar")
    name = doc.unique_name({b.name for b in doc.busbars.values()}, f"BB-{side}", width=2)
    bus = BusbarRun(id=doc.new_id("bus"), type=type_key, name=name, x1=x1, y1=y1, x2=x2, y2=y2,
                    side=side, row=row)
    return AddObjects([bus], text=f"Add busbar {name}")


def new_device(doc: Document, type_key: str, rack_id: str, u: int | None = None,
               taken_units: set[int] | None = None) -> Device:
    """A Device at ``u`` (or the lowest free U range that fits). Raises Refusal when it does not fit."""
    item = doc.catalog[type_key]
    if item.kind not in IN_RACK_KINDS:
        raise Refusal(f"{item.name} does not go in a rack")
    rack = doc.racks[rack_id]
    if u is None:
        u = doc.lowest_free_u(rack_id, item.height_u)
        if u is None:
            raise Refusal(f"{item.name} ({item.height_u}U) does not fit in {rack.name}: no free {item.height_u}U range")
    elif not doc.fits_at(rack_id, item.height_u, u):
        raise Refusal(f"{item.name} ({item.height_u}U) does not fit in {rack.name} at U{u}")
    return Device(id=doc.new_id("dev"), type=type_key, name=device_name(doc, type_key, rack_id),
                  rack=rack_id, u=u)


def place_device(doc: Document, type_key: str, rack_id: str, u: int | None = None) -> Command:
    device = new_device(doc, type_key, rack_id, u)
    rack = doc.racks[rack_id]
    return AddObjects([device], text=f"Add {device.name} to {rack.name} U{device.u}")


def place_device_on_floor(doc: Document, type_key: str, x: float, y: float) -> Command:
    """A device dropped on empty floor: a new rack of the default type holding it (one step)."""
    item = doc.catalog[type_key]
    if item.kind not in IN_RACK_KINDS:
        raise Refusal(f"{item.name} does not go in a rack")
    rack_type = doc.catalog.default_rack()
    if item.height_u > rack_type.rack_units:
        raise Refusal(f"{item.name} does not fit in a {rack_type.name}")
    rack = new_rack(doc, rack_type.key, x, y)
    u = 0 if item.height_u == 0 else 1
    stem = _DEVICE_STEMS[item.kind]
    device = Device(id=doc.new_id("dev"), type=type_key, name=f"{stem}1", rack=rack.id, u=u)
    return AddObjects([rack, device], text=f"Add {rack.name} with {item.name}")


def move_device(doc: Document, device_id: str, rack_id: str, u: int) -> Command:
    device = doc.devices[device_id]
    height = doc.catalog[device.type].height_u
    if not doc.fits_at(rack_id, height, u, ignore=device_id):
        raise Refusal(f"{device.name} ({height}U) does not fit in {doc.racks[rack_id].name} at U{u}")
    values: dict[str, Any] = {"u": u}
    if rack_id != device.rack:
        values["rack"] = rack_id
    return SetFields({device_id: values}, text=f"Move {device.name} to U{u}")


def delete_objects(doc: Document, ids: Iterable[str]) -> Command:
    """Delete objects with everything that depends on them, as one step.

    A rack takes its devices and their links; a busbar or CDU leaves the racks it served
    unassigned.
    """
    order: list[str] = []
    seen: set[str] = set()
    clear: dict[str, dict[str, Any]] = {}
    for obj_id in sorted(set(ids), key=natural_key):
        if obj_id not in doc or obj_id in seen:
            continue
        for dep in [*doc.dependents(obj_id), obj_id]:
            if dep not in seen:
                seen.add(dep)
                order.append(dep)
    for obj_id in order:
        for rack_id, name in doc.references_to(obj_id):
            if rack_id not in seen:
                clear.setdefault(rack_id, {})[name] = None
    # dependents first: links, then devices, then the rest
    rank = {"link": 0, "dev": 1}
    order.sort(key=lambda i: rank.get(prefix_of(i), 2))
    children: list[Command] = []
    if clear:
        children.append(SetFields(clear, text="Unassign"))
    children.append(RemoveObjects(order))
    count = len([i for i in order if prefix_of(i) not in ("link", "dev")]) or len(order)
    return Compound(children, text=f"Delete {count} item{'s' if count != 1 else ''}")


def _offset_values(obj: Any, dx: float, dy: float) -> dict[str, float]:
    """New position fields of an object moved by (dx, dy)."""
    if isinstance(obj, BusbarRun):
        return {"x1": round(obj.x1 + dx, 6), "y1": round(obj.y1 + dy, 6),
                "x2": round(obj.x2 + dx, 6), "y2": round(obj.y2 + dy, 6)}
    if hasattr(obj, "x"):
        return {"x": round(obj.x + dx, 6), "y": round(obj.y + dy, 6)}
    raise Refusal(f"{obj.id} cannot be moved on the plan")


def move_objects(doc: Document, ids: Iterable[str], dx: float, dy: float) -> Command:
    """Translate racks, floor units, busbars and hand-off points by (dx, dy) metres."""
    values = {obj_id: _offset_values(doc.get(obj_id), dx, dy) for obj_id in ids}
    count = len(values)
    return SetFields(values, text=f"Move {count} item{'s' if count != 1 else ''}")


def rotate_objects(doc: Document, ids: Iterable[str], degrees: int = 90) -> Command:
    """Turn racks and floor units about their own centres (clockwise)."""
    values = {}
    for obj_id in ids:
        obj = doc.get(obj_id)
        if hasattr(obj, "rotation"):
            values[obj_id] = {"rotation": (obj.rotation + degrees) % 360}
    if not values:
        raise Refusal("nothing in the selection can be rotated")
    return SetFields(values, text=f"Rotate {len(values)} item{'s' if len(values) != 1 else ''}")


def duplicate_objects(doc: Document, ids: Iterable[str], dx: float, dy: float) -> Command:
    """Copies of racks (with their devices, not their cables), floor units and busbars, offset."""
    objects: list[Any] = []
    rack_names: set[str] = set()
    for obj_id in sorted(ids, key=natural_key):
        obj = doc.find(obj_id)
        if obj is None:
            continue
        prefix = prefix_of(obj_id)
        if prefix == "rack":
            name = next_rack_name(doc, rack_names)
            rack_names.add(name)
            clone = copy.copy(obj)
            clone.id, clone.name, clone.x, clone.y = doc.new_id("rack"), name, obj.x + dx, obj.y + dy
            objects.append(clone)
            for device in doc.devices_in(obj_id):
                dev = copy.copy(device)
                dev.id, dev.rack = doc.new_id("dev"), clone.id
                objects.append(dev)
        elif prefix in ("fu", "bus"):
            clone = copy.copy(obj)
            clone.id = doc.new_id(prefix)
            clone.name = obj.name + "′"
            for key, value in _offset_values(obj, dx, dy).items():
                setattr(clone, key, value)
            objects.append(clone)
    if not objects:
        raise Refusal("nothing in the selection can be duplicated")
    return AddObjects(objects, text=f"Duplicate {len(objects)} item{'s' if len(objects) != 1 else ''}")


def array_racks(doc: Document, rack_id: str, count: int, pitch_m: float | None = None,
                along_x: bool = True) -> Command:
    """``count`` more racks like ``rack_id`` in a row beside it (its devices copied too)."""
    if count < 1:
        raise Refusal("the array needs at least one rack")
    rack = doc.racks[rack_id]
    ex, ey = doc.rack_extents(rack)
    pitch = pitch_m if pitch_m is not None else (ex if along_x else ey)
    objects: list[Any] = []
    names: set[str] = set()
    for k in range(1, count + 1):
        name = next_rack_name(doc, names)
        names.add(name)
        clone = copy.copy(rack)
        clone.id, clone.name = doc.new_id("rack"), name
        clone.x = rack.x + (pitch * k if along_x else 0)
        clone.y = rack.y + (0 if along_x else pitch * k)
        objects.append(clone)
        for device in doc.devices_in(rack_id):
            dev = copy.copy(device)
            dev.id, dev.rack = doc.new_id("dev"), clone.id
            objects.append(dev)
    return AddObjects(objects, text=f"Array {count} racks from {rack.name}")


def row_of_racks(doc: Document, type_key: str, x: float, y: float, count: int,
                 rotation: int = 0, row: str = "") -> Command:
    """A new row of ``count`` racks side by side, the first centred on (x, y)."""
    item = doc.catalog[type_key]
    ex, _ey = (item.width_m, item.depth_m) if rotation % 180 == 0 else (item.depth_m, item.width_m)
    names: set[str] = set()
    racks = []
    for k in range(count):
        name = next_rack_name(doc, names)
        names.add(name)
        racks.append(new_rack(doc, type_key, round(x + k * ex, 6), y, rotation, name, row))
    return AddObjects(racks, text=f"Add row of {count} racks")


def assign(doc: Document, rack_ids: Iterable[str], field: str, target: str | None) -> Command:
    """Assign racks to a busbar (``feed_a``/``feed_b``) or a CDU (``cdu``); None unassigns."""
    if field not in ("feed_a", "feed_b", "cdu"):
        raise Refusal(f"cannot assign {field}")
    if target is not None:
        if field == "cdu":
            ok = target in doc.floor_units and doc.catalog[doc.floor_units[target].type].kind == "row_cdu"
            ok = ok or (target in doc.devices and doc.catalog[doc.devices[target].type].kind == RACK_CDU)
            if not ok:
                raise Refusal(f"{target} is not a CDU")
        else:
            if target not in doc.busbars:
                raise Refusal(f"{target} is not a busbar")
            side = "A" if field == "feed_a" else "B"
            if doc.busbars[target].side != side:
                raise Refusal(f"{doc.busbars[target].name} is on side {doc.busbars[target].side}, not {side}")
    values = {rid: {field: target} for rid in rack_ids if getattr(doc.racks[rid], field) != target}
    label = {"feed_a": "feed A", "feed_b": "feed B", "cdu": "CDU loop"}[field]
    return SetFields(values, text=f"Assign {label} of {len(values)} rack{'s' if len(values) != 1 else ''}")
