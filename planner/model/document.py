"""The document: the single source of truth for one plan.

Holds every object by id in one collection per kind, the design basis, the catalogue and the
title-block facts, and keeps the indices (devices per rack, cables per network and per device)
that the editor, rules and fabric need on hot paths. All mutation goes through ``add``, ``remove``
and ``set_fields`` so the indices stay right; commands are built on these three. A loaded plan is
built whole by ``from_collections``, its indices made once (the cables per device when first
asked for: opening and checking a plan need none). ``add`` and ``set_fields`` are the
model's boundary: a whole number given where the model says float is stored as a float, so the
plan saves the same bytes whether it was built in code or loaded (``outline`` is a property
that does the same for the hall outline).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from functools import cache
from itertools import compress
from typing import Any

from planner.model.basis import DesignBasis
from planner.model.catalog import Catalog, CatalogItem, builtin_catalog
from planner.model.geometry import extents, footprint_bounds
from planner.model.networks import NETWORK_OF_TIER, network_of
from planner.model.objects import (
    COLLECTIONS,
    PREFIX_OF_CLASS,
    BusbarRun,
    Comment,
    Device,
    Door,
    FloorUnit,
    HandOff,
    Link,
    Meta,
    NetBoxRecord,
    Obstacle,
    Point,
    Rack,
    Underlay,
    Zone,
)
from planner.model.ports import COMPUTE, NETWORKS
from planner.model.references import assignable, reference_names
from planner.model.typed import as_points, normalise, normalise_value

_ID_PATTERN = re.compile(r"^([a-z]+)-(\d+)$")
#: Value types ``set_fields`` stores as given (anything else may be a whole number for a float).
_AS_GIVEN = frozenset({float, str, type(None), bool})
#: The fields of a cable that name its devices: the index of links by device follows them.
_LINK_ENDS = reference_names(Link)


@cache
def _ids_pattern(prefix: str) -> re.Pattern[str]:
    """Ids ``<prefix>-<ASCII digits>``, each followed by a NUL. Possessive quantifiers: there is
    nothing to backtrack into, and the matcher then keeps no state per id."""
    return re.compile(rf"(?:{re.escape(prefix)}-[0-9]++\x00)*+")


def id_numbers(prefix: str, ids: Iterable[str]) -> list[int] | None:
    """The numbers of ids that are all ``<prefix>-<ASCII digits>``, else None.

    One regex pass over the ids joined by NUL, not a match per id: 100k ids in a few ms.
    """
    ids = list(ids)
    if not ids:
        return []
    joined = "\0".join(ids) + "\0"
    if joined.count("\0") != len(ids) or not _ids_pattern(prefix).fullmatch(joined):
        return None  # (an id holding a NUL would pass the pattern as two ids: hence the count)
    return list(map(int, joined[:-1].replace(f"{prefix}-", "").split("\0")))


@cache
def _canonical_ids_pattern(prefix: str) -> re.Pattern[str]:
    """As ``_ids_pattern``, with no leading zeros (``rack-07``): among such ids of one length,
    the greatest text is the greatest number."""
    return re.compile(rf"(?:{re.escape(prefix)}-(?:0|[1-9][0-9]*+)\x00)*+")


def canonical_ids(prefix: str, ids: Iterable[str]) -> bool:
    """Whether the ids are all ``<prefix>-<ASCII digits>`` without a leading zero, as ``new_id``
    makes them: one regex pass over the ids joined by NUL (192k ids in about 10 ms)."""
    ids = list(ids)
    joined = "\0".join(ids) + "\0"
    return not ids or joined.count("\0") == len(ids) and _canonical_ids_pattern(prefix).fullmatch(joined) is not None


def highest_id_number(prefix: str, ids: Iterable[str]) -> int | None:
    """The greatest number of ids that are all ``<prefix>-<ASCII digits>`` (0 for none), else None.

    Found without turning every id into a number: the longest ids are compared as text, when
    none has a leading zero (the ids ``new_id`` makes): a third less time than ``id_numbers``.
    """
    ids = list(ids)
    if not ids:
        return 0
    if canonical_ids(prefix, ids):
        longest = max(map(len, ids))
        return int(max(compress(ids, map(longest.__eq__, map(len, ids))))[len(prefix) + 1:])
    numbers = id_numbers(prefix, ids)
    return None if numbers is None else max(numbers)


def prefix_of(obj_id: str) -> str:
    return obj_id.split("-", 1)[0]


_DIGITS = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple:
    """Sort key that orders ``rack-2`` before ``rack-10`` and ``R2`` before ``R10``."""
    return tuple(int(part) if part.isdigit() else part for part in _DIGITS.split(text))


class Document:
    """One hall plan. Mutate only through add/remove/set_fields (or commands built on them)."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.meta = Meta()
        self.netbox = NetBoxRecord()
        self.basis = DesignBasis()
        self.catalog = catalog if catalog is not None else builtin_catalog()
        self._outline: list[Point] = []
        self.zones: dict[str, Zone] = {}
        self.obstacles: dict[str, Obstacle] = {}
        self.doors: dict[str, Door] = {}
        self.handoffs: dict[str, HandOff] = {}
        self.racks: dict[str, Rack] = {}
        self.devices: dict[str, Device] = {}
        self.floor_units: dict[str, FloorUnit] = {}
        self.busbars: dict[str, BusbarRun] = {}
        self.links: dict[str, Link] = {}
        self.comments: dict[str, Comment] = {}
        self.underlays: dict[str, Underlay] = {}
        self._devices_by_rack: dict[str, set[str]] = {}
        #: Cables per device; None until first asked for (``links_by_device``).
        self._links_by_device: dict[str, set[str]] | None = {}
        #: Cables per network; None until first asked for (``links_in``).
        self._links_by_network: dict[str, dict[str, Link]] | None = {network: {} for network in NETWORKS}
        self._next_number: dict[str, int] = {}
        #: Collections whose next id number is still to be found (``_number_from``): a loaded
        #: plan finds it when first needed, not in the load (30 ms of it at 192k cables).
        self._unnumbered: set[str] = set()

    @classmethod
    def from_collections(cls, collections: Mapping[str, Iterable[Any]], catalog: Catalog | None = None) -> Document:
        """A document holding whole collections (attribute name → objects), as ``add`` of each
        object would give, with the indices built once per collection and the next id numbers
        found when first needed (``number_ids``): loading a 100k-object plan spends its time in
        the file, not in index upkeep.

        Every id must be ``<prefix>-<digits>`` as ``new_id`` makes them (checked in one regex pass
        per collection): ValueError otherwise, KeyError for a duplicate id or unknown collection.
        """
        doc = cls(catalog)
        prefixes = {attr: prefix for prefix, (attr, _cls) in COLLECTIONS.items()}
        for attr, objects in collections.items():
            if attr not in prefixes:
                raise KeyError(f"no collection {attr!r}")
            items = list(objects)
            collection = {obj.id: obj for obj in items}
            if len(collection) != len(items):
                seen: set[str] = set()
                duplicate = next(o.id for o in items if o.id in seen or seen.add(o.id))  # type: ignore[func-returns-value]
                raise KeyError(f"{duplicate} already exists")
            if canonical_ids(prefixes[attr], collection):
                if collection:
                    doc._unnumbered.add(prefixes[attr])
            else:
                highest = highest_id_number(prefixes[attr], collection)
                if highest is None:
                    raise ValueError(f"{attr}: every id must be {prefixes[attr]}-<digits>")
                if collection:
                    doc._next_number[prefixes[attr]] = highest + 1
            setattr(doc, attr, collection)
        # Plain loops (attribute reads in bytecode beat operator.attrgetter), with a set made
        # up front for every rack: one dict lookup per member, not two.
        by_rack: dict[str, set[str]] = {rack_id: set() for rack_id in doc.racks}
        for device in doc.devices.values():
            try:
                by_rack[device.rack].add(device.id)
            except KeyError:
                by_rack[device.rack] = {device.id}
        # As add() leaves it: an entry only where there is a member.
        doc._devices_by_rack = {key: members for key, members in by_rack.items() if members}
        # The cables per device and per network are made when first asked for: the plan drawn
        # and saving need neither, and at 192k cables they are 60 and 45 ms of a load.
        doc._links_by_device = None
        doc._links_by_network = None
        return doc

    def links_by_device(self) -> dict[str, set[str]]:
        """Device id → ids of its cables (an entry only where there is one): made on first use,
        then kept by every edit. A caller with a moment to spare may ask ahead
        (``Context.prepare_edits``)."""
        index = self._links_by_device
        if index is None:
            index = {device_id: set() for device_id in self.devices}
            for link in self.links.values():
                try:
                    index[link.a_device].add(link.id)
                except KeyError:
                    index[link.a_device] = {link.id}
                try:
                    index[link.b_device].add(link.id)
                except KeyError:
                    index[link.b_device] = {link.id}
            index = self._links_by_device = {key: members for key, members in index.items() if members}
        return index

    @property
    def outline(self) -> list[Point]:
        """The hall outline, corners as (float, float) (empty: no outline drawn yet)."""
        return self._outline

    @outline.setter
    def outline(self, points: list[Point]) -> None:
        self._outline = points if all(type(p) is tuple and type(p[0]) is float and type(p[1]) is float
                                      for p in points) else as_points(points)

    # ----------------------------------------------------------------- lookup
    def collection(self, obj_id: str) -> dict[str, Any]:
        return getattr(self, COLLECTIONS[prefix_of(obj_id)][0])

    def get(self, obj_id: str) -> Any:
        return self.collection(obj_id)[obj_id]

    def find(self, obj_id: str) -> Any | None:
        prefix = prefix_of(obj_id)
        if prefix not in COLLECTIONS:
            return None
        return getattr(self, COLLECTIONS[prefix][0]).get(obj_id)

    def __contains__(self, obj_id: object) -> bool:
        return isinstance(obj_id, str) and self.find(obj_id) is not None

    def all_objects(self) -> Iterator[Any]:
        for attr, _cls in COLLECTIONS.values():
            yield from getattr(self, attr).values()

    def item_type(self, obj: Rack | Device | FloorUnit | BusbarRun) -> CatalogItem:
        """The catalogue entry of an object that has a ``type``."""
        return self.catalog[obj.type]

    def devices_in(self, rack_id: str, ordered: bool = True) -> list[Device]:
        """Devices of a rack, bottom U first (``ordered=False``: in no order, for a caller that
        sorts them its own way or not at all)."""
        devices = [self.devices[d] for d in self._devices_by_rack.get(rack_id, ())]
        if not ordered:
            return devices
        numbers = id_numbers("dev", [d.id for d in devices])  # ids in name order are in number order
        if numbers is None:
            return sorted(devices, key=lambda d: (d.u, natural_key(d.id)))
        return [devices[i] for i in sorted(range(len(devices)), key=lambda i: (devices[i].u, numbers[i]))]

    def links_of(self, device_id: str) -> list[Link]:
        return [self.links[link_id] for link_id in sorted(self.links_by_device().get(device_id, ()), key=natural_key)]

    def links_in(self, network: str) -> Mapping[str, Link]:
        """The cables of one network (``planner.model.networks``), id → cable, in the order they
        joined it (made on first use in the plan's order, then kept by every edit): the compute
        fabric's rules and exports read ``links_in(COMPUTE)``, so the storage, management, power
        and coolant cables never count as rails."""
        by_network = self._links_by_network
        if by_network is None:
            by_network = self._links_by_network = {name: {} for name in NETWORKS}
            network_of_tier = NETWORK_OF_TIER.get
            for link in self.links.values():
                by_network[network_of_tier(link.tier, COMPUTE)][link.id] = link
        return by_network[network]

    def link_ids_of(self, device_id: str) -> set[str]:
        return set(self.links_by_device().get(device_id, ()))

    def hostname(self, device: Device) -> str:
        """The device's hostname: its own, or ``<rack name>-<device name>`` (``R01-N1``)."""
        if device.hostname:
            return device.hostname
        rack = self.racks.get(device.rack)
        return f"{rack.name}-{device.name}" if rack is not None else device.name

    def racks_on_feed(self, busbar_id: str) -> list[Rack]:
        return [r for r in self.racks.values() if busbar_id in (r.feed_a, r.feed_b)]

    def racks_on_cdu(self, cdu_id: str) -> list[Rack]:
        return [r for r in self.racks.values() if r.cdu == cdu_id]

    def rack_bounds(self, rack: Rack | FloorUnit) -> tuple[float, float, float, float]:
        item = self.catalog[rack.type]
        return footprint_bounds(rack.x, rack.y, item.width_m, item.depth_m, rack.rotation)

    def rack_extents(self, rack: Rack | FloorUnit) -> tuple[float, float]:
        item = self.catalog[rack.type]
        return extents(item.width_m, item.depth_m, rack.rotation)

    def used_units(self, rack_id: str, ignore: str | None = None) -> set[int]:
        """U numbers occupied in a rack (optionally not counting one device)."""
        used: set[int] = set()
        for device in self.devices_in(rack_id):
            if device.id == ignore:
                continue
            height = self.catalog[device.type].height_u
            used.update(range(device.u, device.u + height))
        return used

    def lowest_free_u(self, rack_id: str, height_u: int, ignore: str | None = None) -> int | None:
        """Lowest U at which ``height_u`` free units fit in the rack, or None.

        0U devices (rack PDUs) mount in the side channel and always fit: they return 0.
        """
        if height_u == 0:
            return 0
        total = self.catalog[self.racks[rack_id].type].rack_units
        used = self.used_units(rack_id, ignore)
        for start in range(1, total - height_u + 2):
            if not any(u in used for u in range(start, start + height_u)):
                return start
        return None

    def fits_at(self, rack_id: str, height_u: int, u: int, ignore: str | None = None) -> bool:
        """Whether a device of ``height_u`` fits at ``u`` in the rack."""
        if height_u == 0:
            return u == 0
        total = self.catalog[self.racks[rack_id].type].rack_units
        if u < 1 or u + height_u - 1 > total:
            return False
        used = self.used_units(rack_id, ignore)
        return not any(x in used for x in range(u, u + height_u))

    # ------------------------------------------------------------------- ids
    def number_ids(self) -> None:
        """Find now the next id number of every collection a load left unnumbered, for a caller
        with a moment to spare (``Context.prepare_edits``): the first edit then need not."""
        for prefix in list(self._unnumbered):
            self._number_from(prefix)

    def _number_from(self, prefix: str) -> None:
        """Note the highest id number the collection holds, if it is still to be found: before
        the first id is made and before the first object goes, so no id is ever reused."""
        if prefix in self._unnumbered:
            self._unnumbered.discard(prefix)
            highest = highest_id_number(prefix, getattr(self, COLLECTIONS[prefix][0]))
            if highest is not None and self._next_number.get(prefix, 1) <= highest:
                self._next_number[prefix] = highest + 1

    def new_id(self, prefix: str) -> str:
        """A fresh id for the collection; never reuses an id, even of a removed object."""
        self._number_from(prefix)
        number = self._next_number.get(prefix, 1)
        collection = getattr(self, COLLECTIONS[prefix][0])
        while f"{prefix}-{number}" in collection:
            number += 1
        self._next_number[prefix] = number + 1
        return f"{prefix}-{number}"

    def new_id_for(self, cls: type) -> str:
        return self.new_id(PREFIX_OF_CLASS[cls])

    def _note_id(self, obj_id: str) -> None:
        match = _ID_PATTERN.match(obj_id)
        if match:
            prefix, number = match.group(1), int(match.group(2))
            if self._next_number.get(prefix, 1) <= number:
                self._next_number[prefix] = number + 1

    def unique_name(self, existing: set[str], stem: str, width: int = 2) -> str:
        """The first ``stem`` + number not in ``existing`` (R01, R02 …)."""
        number = 1
        while f"{stem}{number:0{width}d}" in existing:
            number += 1
        return f"{stem}{number:0{width}d}"

    # -------------------------------------------------------------- mutation
    def add(self, obj: Any) -> None:
        collection = self.collection(obj.id)
        if obj.id in collection:
            raise KeyError(f"{obj.id} already exists")
        normalise(obj)
        collection[obj.id] = obj
        self._note_id(obj.id)
        if isinstance(obj, Device):
            self._devices_by_rack.setdefault(obj.rack, set()).add(obj.id)
        elif isinstance(obj, Link):
            if self._links_by_device is not None:
                self._links_by_device.setdefault(obj.a_device, set()).add(obj.id)
                self._links_by_device.setdefault(obj.b_device, set()).add(obj.id)
            if self._links_by_network is not None:
                self._links_by_network[network_of(obj)][obj.id] = obj

    def remove(self, obj_id: str) -> Any:
        self._number_from(prefix_of(obj_id))
        obj = self.collection(obj_id).pop(obj_id)
        if isinstance(obj, Device):
            self._devices_by_rack.get(obj.rack, set()).discard(obj_id)
        elif isinstance(obj, Link):
            if self._links_by_device is not None:
                self._links_by_device.get(obj.a_device, set()).discard(obj_id)
                self._links_by_device.get(obj.b_device, set()).discard(obj_id)
            if self._links_by_network is not None:
                self._links_by_network[network_of(obj)].pop(obj_id, None)
        return obj

    def set_fields(self, obj_id: str, values: dict[str, Any]) -> dict[str, Any]:
        """Set fields of an object; returns the previous values (for revert)."""
        obj = self.get(obj_id)
        names = {f.name for f in fields(obj)}
        unknown = set(values) - names
        if unknown or "id" in values:
            raise KeyError(f"cannot set {sorted(unknown) or ['id']} on {obj_id}")
        if not all(type(value) in _AS_GIVEN for value in values.values()):  # ints, lists: maybe floats
            values = {name: normalise_value(type(obj), name, value) for name, value in values.items()}
        old = {name: getattr(obj, name) for name in values}
        if isinstance(obj, Device) and "rack" in values:
            self._devices_by_rack.get(obj.rack, set()).discard(obj_id)
            self._devices_by_rack.setdefault(values["rack"], set()).add(obj_id)
        by_device = self._links_by_device if isinstance(obj, Link) else None
        if isinstance(obj, Link):
            for end in _LINK_ENDS:
                if end in values and by_device is not None:
                    by_device.get(getattr(obj, end), set()).discard(obj_id)
            if "tier" in values and self._links_by_network is not None:
                self._links_by_network[network_of(obj)].pop(obj_id, None)
        for name, value in values.items():
            setattr(obj, name, value)
        if isinstance(obj, Link):
            if by_device is not None:
                by_device.setdefault(obj.a_device, set()).add(obj_id)
                by_device.setdefault(obj.b_device, set()).add(obj_id)
            if "tier" in values and self._links_by_network is not None:
                self._links_by_network[network_of(obj)][obj_id] = obj
        return old

    # ------------------------------------------------------------- dependents
    def dependents(self, obj_id: str) -> list[str]:
        """Objects that cannot exist without ``obj_id``: a rack's devices, a device's links."""
        prefix = prefix_of(obj_id)
        if prefix == "rack":
            result: list[str] = []
            for device in self.devices_in(obj_id):
                result.append(device.id)
                result.extend(self.dependents(device.id))
            return result
        if prefix == "dev":
            return sorted(self.links_by_device().get(obj_id, ()), key=natural_key)
        return []

    def references_to(self, obj_id: str) -> list[tuple[str, str]]:
        """(object id, field) pairs assigned to ``obj_id`` (a rack's feeds on a busbar, its loop on
        a CDU: ``Ref.hold`` ASSIGNED), cleared when it goes."""
        refs: list[tuple[str, str]] = []
        for attr, cls in COLLECTIONS.values():
            names = [r.field for r in assignable(cls)]
            if names:
                refs.extend((obj.id, name) for obj in getattr(self, attr).values()
                            for name in names if getattr(obj, name) == obj_id)
        return refs
