"""Ready-made edits: the commands behind the editor's gestures, built from the primitives.

Each function looks at the document, decides what must change and returns one Command (a
Compound where a gesture touches several objects) without changing anything itself; the
caller applies it (on the undo stack in the GUI). Functions that can refuse return ``None``
and give the reason through ``Refusal``.

Each command's ``text`` is a line of the undo history, so the history reads like a change list:
it names what changed and where it went ("Assign 2 racks to feed A BB-A01", "Move R05",
"Delete R07 (4 devices, 32 cables)"), never just a count of "items". ``subject`` words a
selection the same way for every gesture.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from planner.commands.base import AddObjects, Command, Compound, RemoveObjects, SetFields
from planner.commands.checks import Refusal
from planner.model.catalog import (
    BUSBAR,
    CABINET,
    FLOOR_KINDS,
    IN_RACK_KINDS,
    NODE,
    RACK,
    RACK_CDU,
    RACK_MANIFOLD,
    RACK_PDU,
    ROW_CDU,
    STORAGE,
    SWITCH,
)
from planner.model.document import Document, natural_key, prefix_of
from planner.model.geometry import extents
from planner.model.labels import cable_label
from planner.model.objects import ASSIGNED, BusbarRun, Device, FloorUnit, Link, Rack
from planner.model.references import reference_of, why_not_target
from planner.text import plural

_DEVICE_STEMS = {NODE: "N", SWITCH: "SW", STORAGE: "ST", RACK_PDU: "PDU", RACK_CDU: "CDU", RACK_MANIFOLD: "MAN"}

#: A rack placed on its own joins the row of a rack it stands beside end-on, in line: the same
#: rotation, fronts on one line within ``ROW_LINE_TOLERANCE_M`` and a gap between their sides
#: of at most ``ROW_GAP_M`` (see ``row_to_join``).
ROW_LINE_TOLERANCE_M = 0.1
ROW_GAP_M = 0.1
#: Words for the kinds of object, by id prefix, in the order a mixed selection lists them.
_NOUNS = {"rack": "rack", "fu": "floor unit", "bus": "busbar", "dev": "device", "link": "cable",
          "ho": "hand-off", "zone": "zone", "obs": "obstacle", "door": "door"}
_FLOOR_NOUNS = {ROW_CDU: "row CDU", CABINET: "power cabinet"}


# ------------------------------------------------------------- undo texts
def _joined(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def _noun(doc: Document, obj: Any) -> str:
    prefix = prefix_of(obj.id)
    if isinstance(obj, FloorUnit):
        item = doc.catalog.items.get(obj.type)
        return _FLOOR_NOUNS.get(item.kind if item else "", "floor unit")
    return _NOUNS.get(prefix, "item")


def object_name(doc: Document, obj: Any, racks: dict[str, Any] | None = None) -> str:
    """How an undo text names one object: its name; a device with its rack ("N1 in R01"), since
    every rack has an N1; a cable by its label. ``racks`` holds racks not yet in the document."""
    if isinstance(obj, Device):
        rack = (racks or {}).get(obj.rack) or doc.racks.get(obj.rack)
        return f"{obj.name} in {rack.name}" if rack is not None else obj.name
    if isinstance(obj, Link):
        return f"cable {cable_label(doc, obj)}" if obj.a_device in doc.devices and obj.b_device in doc.devices \
            else f"cable {obj.label}" if obj.label else "a cable"
    return str(getattr(obj, "name", obj.id))


def subject(doc: Document, objects: Iterable[Any]) -> str:
    """A selection in words: one object by name ("R05"), one kind by count ("3 racks"), mixed
    kinds each by name or count ("3 racks and BB-A01"). Objects may be new (not yet in ``doc``)."""
    objects = list(objects)
    if not objects:
        return "nothing"
    racks = {o.id: o for o in objects if isinstance(o, Rack)}
    if len(objects) == 1:
        return object_name(doc, objects[0], racks)
    groups: dict[str, list[Any]] = {}
    for obj in objects:
        groups.setdefault(_noun(doc, obj), []).append(obj)
    if len(groups) == 1:
        ((noun, members),) = groups.items()
        return plural(len(members), noun)
    order = list(_NOUNS.values())
    parts = []
    for noun, members in sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else 1):
        parts.append(object_name(doc, members[0], racks) if len(members) == 1 else plural(len(members), noun))
    return _joined(parts)


def name_range(names: list[str]) -> str:
    """New racks' names as an undo text lists them: ``R10``, ``R10, R11``, ``R10–R14``."""
    if len(names) <= 2:
        return ", ".join(names)
    return f"{names[0]}–{names[-1]}"


def _target_name(doc: Document, target_id: str) -> str:
    """A busbar or CDU named for an assignment; an in-rack CDU with its rack."""
    return object_name(doc, doc.get(target_id))


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


def row_to_join(doc: Document, rack: Rack) -> str:
    """The row a rack placed on its own joins: that of the nearest rack it stands beside end-on
    in line, or "" when there is none.

    In line means: the same rotation (so the same row axis and the same facing), the fronts on
    one line across the row within ``ROW_LINE_TOLERANCE_M`` (fronts, not centres, so a shallower
    rack still lines up with the cold aisle), and the sides facing each other along the row no
    more than ``ROW_GAP_M`` apart (touching counts; overlapping does not, that is S1's business).
    Racks without a row are passed over. Only the row is taken: feeds and the CDU loop are
    chosen per rack (a busbar or loop may not reach it), so they stay unassigned.
    """
    item = doc.catalog.items.get(rack.type)
    if item is None:
        return ""
    along_x = rack.rotation % 180 == 0
    best: tuple[float, tuple, str] | None = None
    for other in doc.racks.values():
        if other.id == rack.id or not other.row or other.rotation != rack.rotation:
            continue
        other_item = doc.catalog.items.get(other.type)
        if other_item is None:
            continue
        gap, offset = _beside(rack, item.width_m, item.depth_m, other, other_item.width_m, other_item.depth_m,
                              along_x)
        if abs(offset) <= ROW_LINE_TOLERANCE_M + 1e-9 and -1e-6 <= gap <= ROW_GAP_M + 1e-9:
            candidate = (gap, natural_key(other.name), other.row)
            if best is None or candidate[:2] < best[:2]:
                best = candidate
    return best[2] if best else ""


def _beside(rack: Rack, width: float, depth: float, other: Rack, other_width: float, other_depth: float,
            along_x: bool) -> tuple[float, float]:
    """(gap between the two racks' facing sides along the row, offset of their fronts across it)
    of two racks of one rotation."""
    ex, ey = extents(width, depth, rack.rotation)
    ox, oy = extents(other_width, other_depth, other.rotation)
    if along_x:
        gap = abs(rack.x - other.x) - (ex + ox) / 2
        sign = -1 if rack.rotation % 360 == 0 else 1  # rotation 0 faces −y: its front is its min y
        offset = (rack.y + sign * ey / 2) - (other.y + sign * oy / 2)
    else:
        gap = abs(rack.y - other.y) - (ey + oy) / 2
        sign = 1 if rack.rotation % 360 == 90 else -1  # 90 faces +x, 270 faces −x
        offset = (rack.x + sign * ex / 2) - (other.x + sign * ox / 2)
    return gap, offset


def place_rack(doc: Document, type_key: str, x: float, y: float, rotation: int = 0) -> Command:
    """A new rack at (x, y); beside a row's end rack, in line, it joins that row (``row_to_join``)."""
    rack = new_rack(doc, type_key, x, y, rotation)
    rack.row = row_to_join(doc, rack)
    where = f" to row {rack.row}" if rack.row else ""
    return AddObjects([rack], text=f"Add rack {rack.name}{where}")


def place_floor_unit(doc: Document, type_key: str, x: float, y: float, rotation: int = 0) -> Command:
    item = doc.catalog[type_key]
    if item.kind not in FLOOR_KINDS:
        raise Refusal(f"{item.name} does not stand on the floor")
    stem = "CDU-" if item.kind == "row_cdu" else "PDC-"
    name = doc.unique_name({u.name for u in doc.floor_units.values()}, stem)
    unit = FloorUnit(id=doc.new_id("fu"), type=type_key, name=name, x=x, y=y, rotation=rotation)
    return AddObjects([unit], text=f"Add {_noun(doc, unit)} {name}")


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
    """A device dropped on empty floor: a new rack of the default type holding it (one step).
    The rack joins a row as a rack placed on its own does (``row_to_join``)."""
    item = doc.catalog[type_key]
    if item.kind not in IN_RACK_KINDS:
        raise Refusal(f"{item.name} does not go in a rack")
    rack_type = doc.catalog.default_rack()
    if item.height_u > rack_type.rack_units:
        raise Refusal(f"{item.name} does not fit in a {rack_type.name}")
    rack = new_rack(doc, rack_type.key, x, y)
    rack.row = row_to_join(doc, rack)
    u = 0 if item.height_u == 0 else 1
    stem = _DEVICE_STEMS[item.kind]
    device = Device(id=doc.new_id("dev"), type=type_key, name=f"{stem}1", rack=rack.id, u=u)
    where = f" to row {rack.row}" if rack.row else ""
    return AddObjects([rack, device], text=f"Add rack {rack.name}{where} with {device.name}")


def move_device(doc: Document, device_id: str, rack_id: str, u: int) -> Command:
    device = doc.devices[device_id]
    height = doc.catalog[device.type].height_u
    if not doc.fits_at(rack_id, height, u, ignore=device_id):
        raise Refusal(f"{device.name} ({height}U) does not fit in {doc.racks[rack_id].name} at U{u}")
    values: dict[str, Any] = {"u": u}
    here = doc.racks[device.rack].name
    if rack_id != device.rack:
        values["rack"] = rack_id
        text = f"Move {device.name} from {here} U{device.u} to {doc.racks[rack_id].name} U{u}"
    else:
        text = f"Move {device.name} in {here} from U{device.u} to U{u}"
    return SetFields({device_id: values}, text=text)


def delete_objects(doc: Document, ids: Iterable[str]) -> Command:
    """Delete objects with everything that depends on them, as one step.

    A rack takes its devices and their links; a busbar or CDU leaves the racks it served
    unassigned. The text names what was chosen and counts what went with it:
    "Delete R07 (4 devices, 32 cables)", "Delete BB-A01 (unassigns 9 racks)".
    """
    order: list[str] = []
    seen: set[str] = set()
    clear: dict[str, dict[str, Any]] = {}
    chosen = [i for i in sorted(set(ids), key=natural_key) if i in doc]
    dependents = {obj_id: doc.dependents(obj_id) for obj_id in chosen}
    carried = {dep for deps in dependents.values() for dep in deps}  # taken along, not chosen themselves
    for obj_id in chosen:
        if obj_id in seen:
            continue
        for dep in [*dependents[obj_id], obj_id]:
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
    named = [doc.get(i) for i in chosen if i not in carried]
    extra = [i for i in order if i in carried]
    along = [plural(n, noun) for noun, n in (("device", sum(prefix_of(i) == "dev" for i in extra)),
                                            ("cable", sum(prefix_of(i) == "link" for i in extra))) if n]
    notes = ", ".join(along)
    if clear:
        notes += f"{'; ' if notes else ''}unassigns {plural(len(clear), 'rack')}"
    return Compound(children, text=f"Delete {subject(doc, named)}" + (f" ({notes})" if notes else ""))


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
    return SetFields(values, text=f"Move {subject(doc, map(doc.get, values))}")


def rotate_objects(doc: Document, ids: Iterable[str], degrees: int = 90) -> Command:
    """Turn racks and floor units about their own centres (clockwise)."""
    values = {}
    for obj_id in ids:
        obj = doc.get(obj_id)
        if hasattr(obj, "rotation"):
            values[obj_id] = {"rotation": (obj.rotation + degrees) % 360}
    if not values:
        raise Refusal("nothing in the selection can be rotated")
    return SetFields(values, text=f"Rotate {subject(doc, map(doc.get, values))} {degrees % 360}°")


def duplicate_objects(doc: Document, ids: Iterable[str], dx: float, dy: float) -> Command:
    """Copies of racks (with their devices, not their cables), floor units and busbars, offset."""
    objects: list[Any] = []
    sources: list[Any] = []
    rack_names: set[str] = set()
    for obj_id in sorted(ids, key=natural_key):
        obj = doc.find(obj_id)
        if obj is None:
            continue
        prefix = prefix_of(obj_id)
        if prefix in ("rack", "fu", "bus"):
            sources.append(obj)
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
    if len(sources) == 1:
        text = f"Duplicate {sources[0].name} as {objects[0].name}"
    else:
        text = f"Duplicate {subject(doc, sources)}"
    return AddObjects(objects, text=text)


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
    added = [o.name for o in objects if isinstance(o, Rack)]
    if count == 1:
        return AddObjects(objects, text=f"Array {added[0]} beside {rack.name}")
    return AddObjects(objects, text=f"Array {count} racks beside {rack.name} ({name_range(added)})")


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
    return add_row(racks)


def add_row(racks: list[Rack]) -> Command:
    """Racks laid out as a row (by ``row_of_racks`` or the row tool), one step:
    "Add row 3 of 4 racks (R10–R13)"."""
    row = racks[0].row if racks and all(r.row == racks[0].row for r in racks) else ""
    which = f"row {row}" if row else "a row"
    names = name_range([r.name for r in racks])
    return AddObjects(racks, text=f"Add {which} of {plural(len(racks), 'rack')} ({names})")


def assign(doc: Document, rack_ids: Iterable[str], field: str, target: str | None) -> SetFields:
    """Assign racks to a busbar (``feed_a``/``feed_b``) or a CDU (``cdu``); None unassigns.

    The text names the racks and the target: "Set CDU loop of R01 to CDU-01", "Assign 2 racks
    to feed A BB-A01", "Clear feed B of R03"."""
    reference = reference_of(Rack, field)
    if reference is None or reference.ref.hold != ASSIGNED:
        raise Refusal(f"cannot assign {field}")
    if target is not None and (why := why_not_target(doc, reference, target)) is not None:
        raise Refusal(why)
    values = {rid: {field: target} for rid in rack_ids if getattr(doc.racks[rid], field) != target}
    label = reference.ref.word
    racks = [doc.racks[rid] for rid in values]
    if target is None:
        text = f"Clear {label} of {subject(doc, racks)}"
    elif len(racks) == 1:
        text = f"Set {label} of {racks[0].name} to {_target_name(doc, target)}"
    else:
        text = f"Assign {plural(len(racks), 'rack')} to {label} {_target_name(doc, target)}"
    return SetFields(values, text=text)
