"""What a merge of two valid plans can make impossible, and how the merge settles it.

Each side's plan was valid alone, but their edits can collide in ways no single field shows: a
cable rewired onto a port the other side cabled, a device moved into U the other side filled, a
device left in a rack the other side deleted, a feed on a busbar that is gone, a type the other
side removed, two new racks both called R41. ``settle`` finds these in the merged objects and
moves them towards ours until none is left (``Problem`` says which objects and fields are
concerned): what differs from ours goes back to ours (an object only theirs has is left out, one
ours has is restored), so the file holds a plan that loads. Each problem settled this way is a
conflict the user is told about.

A problem counts only when the merge made it: one that ours or theirs already had (a port used
twice in theirs, found by N2) is theirs to fix, not the merge's. The test is local: a problem is
new when one of its objects differs from ours and one differs from theirs. Problems the file
cannot hold at all (a dangling reference, a port the device type lacks, an unknown type) always
count.

Name clashes are the exception to "back to ours": both sides naming a *new* rack R41 (they each
took the next free name) is the normal outcome of working in parallel, so theirs' new object
takes the next free name of its series (R41 → R43), as it would have had theirs added it after
ours; it is reported as renamed, not as a conflict. A clash made by renaming an existing object
is a conflict like any other and keeps ours' name.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from planner.model.bounds import NAME
from planner.model.catalog import BUSBAR, FLOOR_KINDS, IN_RACK_KINDS, RACK, CatalogItem
from planner.model.document import Document, natural_key, prefix_of
from planner.model.labels import SEPARATOR, end_label
from planner.model.objects import COLLECTIONS, NOTE, Comment, Device, Link
from planner.model.references import reference_fields, references_of

#: (collection attribute, id or catalogue key, fields concerned or None: its existence only).
Involved = tuple[str, str, tuple[str, ...] | None]
#: A collection attribute → id → object; "catalog" holds the custom types by key.
Objects = dict[str, dict[str, Any]]

#: A cable's ends, and a device's place, are each one choice (as their references declare).
ENDS = reference_fields(Link, "a_device")
PLACE = reference_fields(Device, "rack")
_TYPED = (("racks", (RACK,)), ("devices", IN_RACK_KINDS), ("floor_units", FLOOR_KINDS), ("busbars", (BUSBAR,)))
ATTR_OF_PREFIX = {prefix: attr for prefix, (attr, _cls) in COLLECTIONS.items()}
_SERIES = re.compile(r"(.*?)(\d+)")
_COMMENT_CHARS = 40


@dataclass
class Sides:
    """One merge's objects by collection: the three inputs (theirs already renumbered) and the
    merged result being settled. ``builtin`` holds the built-in catalogue entries."""

    base: Objects
    ours: Objects
    theirs: Objects
    merged: Objects
    builtin: dict[str, CatalogItem]
    #: Per collection, the ids where ours and theirs differ (the merge's own doing can only be
    #: there: elsewhere ours, theirs and the merge hold the same object).
    touched: dict[str, set[str]] = field(default_factory=dict)
    #: Ours as a plan: what depends on an object (``restore``).
    ours_doc: Document | None = None

    def item(self, key: str) -> CatalogItem | None:
        return self.merged["catalog"].get(key) or self.builtin.get(key)

    def find(self, attr: str, key: str) -> Any | None:
        """The object in the merge, else ours, theirs or base: for names only."""
        for side in (self.merged, self.ours, self.theirs, self.base):
            obj = side[attr].get(key)
            if obj is not None:
                return obj
        return None

    def name(self, attr: str, obj: Any) -> str:
        """How the merge names an object: a device by its hostname (``R01-N1``: every rack has an
        N1), a cable by its label or its ends, a comment by the start of its text."""
        if isinstance(obj, Device):
            if obj.hostname:
                return obj.hostname
            rack = self.find("racks", obj.rack)
            return f"{rack.name}-{obj.name}" if rack is not None else obj.name
        if isinstance(obj, Link):
            return obj.label or f"{self.label_end(obj.a_device, obj.a_port)}{SEPARATOR}" \
                                f"{self.label_end(obj.b_device, obj.b_port)}"
        if isinstance(obj, Comment):
            text = " ".join(obj.text.split())
            return text if len(text) <= _COMMENT_CHARS else text[:_COMMENT_CHARS - 1] + "…"
        return str(getattr(obj, "name", obj.id if attr != "catalog" else obj.key))

    def name_of(self, attr: str, key: str) -> str:
        obj = self.find(attr, key)
        return key if obj is None else self.name(attr, obj)

    def label_end(self, device_id: str, port: str) -> str:
        """One end as a derived label names it (``planner.model.labels``)."""
        device = self.find("devices", device_id)
        if device is None:
            return f"{device_id}-{port}"
        rack = self.find("racks", device.rack)
        return end_label(rack.name if rack is not None else device.rack, device, port)

    def end(self, device_id: str, port: str) -> str:
        return f"{self.name_of('devices', device_id)} {port}"

    def gone(self, attr: str, key: str) -> str:
        """Why an object is not in the merge, in words."""
        if key in self.base[attr]:
            if key not in self.ours[attr]:
                return "ours deleted"
            if key not in self.theirs[attr]:
                return "theirs deleted"
        if key in self.ours[attr] or key in self.theirs[attr]:
            return "the merge left out"
        return "is in no plan"


@dataclass
class Problem:
    """Something the merged objects cannot be: the objects and fields it concerns, a reason that
    names them, and whether it always counts (the file cannot hold it) or only when new."""

    key: tuple[Any, ...]
    field: str
    reason: str
    involved: list[Involved]
    always: bool = True
    rename: bool = False


@dataclass
class Settled:
    """How one problem was settled: what was put back to ours (``actions``, in words) and which
    of theirs' new objects took a free name (attr, id, old name, new name)."""

    problem: Problem
    actions: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: What the conflict is listed under: the first object put back, else the problem's first.
    subject: Involved | None = None

    @property
    def conflict(self) -> bool:
        return bool(self.actions) or not self.renamed


# ------------------------------------------------------------------ finding
def find_problems(s: Sides) -> list[Problem]:
    """Every problem of the merged objects that may be new, in a stable order.

    Only what ours and theirs disagree on is looked at, and what it touches: an object both
    hold alike cannot dangle, use an unknown type or clash with another object both hold alike,
    or ours or theirs would have had the problem already (and could not have loaded, for most)."""
    found = [*_references(s), *_types(s), *_ports(s), *_units(s), *_names(s)]
    return sorted(found, key=lambda p: [natural_key(str(part)) for part in p.key])


def _touched(s: Sides, attr: str) -> list[Any]:
    """The merged objects of a collection that ours and theirs disagree on."""
    objects = s.merged[attr]
    return [objects[key] for key in s.touched.get(attr, ()) if key in objects]


def _references(s: Sides) -> Iterator[Problem]:
    """References the file cannot hold: an owned or assigned id naming nothing in the merge (a
    device in a deleted rack, a cable on a deleted device, a feed on a deleted busbar)."""
    for attr, cls in COLLECTIONS.values():
        held = [r for r in references_of(cls) if r.ref.hold != NOTE]
        for obj in _touched(s, attr) if held else ():
            for reference in held:
                target = getattr(obj, reference.field)
                if target is None or any(target in s.merged[to] for to in reference.ref.to):
                    continue
                where = ATTR_OF_PREFIX.get(prefix_of(target), reference.ref.to[0])
                yield Problem(("ref", obj.id, reference.field), reference.label,
                              f"{reference.sentence(s.name(attr, obj), s.name_of(where, target))}, "
                              f"which {s.gone(where, target)}",
                              [(attr, obj.id, reference.ref.moves_with or (reference.field,)), (where, target, None)])


def _types(s: Sides) -> Iterator[Problem]:
    for attr, kinds in _TYPED:
        for obj in _touched(s, attr):
            item = s.item(obj.type)
            if item is None or item.kind not in kinds:
                why = s.gone("catalog", obj.type) if item is None else "is of another kind"
                yield Problem(("type", obj.id), "type", f"{s.name(attr, obj)} is a {obj.type}, which {why}",
                              [(attr, obj.id, ("type",)), ("catalog", obj.type, None)])


def _ports(s: Sides) -> Iterator[Problem]:
    """Ends on a port the device's type lacks (a cable rewired, or its device's type changed),
    and ports with two cables (one of them rewired or added)."""
    devices, links = s.merged["devices"], s.merged["links"]
    changed = _touched(s, "links")
    touched_devices = {d.id for d in _touched(s, "devices")}
    wanted = {(device_id, port) for link in changed
              for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port))}
    ends_on = {device_id for device_id, _port in wanted} | touched_devices
    if not ends_on:
        return
    ports_of: dict[str, frozenset[str]] = {}
    users: dict[tuple[str, str], list[str]] = {}
    for link in links.values():
        if link.a_device not in ends_on and link.b_device not in ends_on:
            continue
        for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            device = devices.get(device_id)
            if device is None:
                continue  # a missing end (_references)
            if (device_id, port) in wanted:
                users.setdefault((device_id, port), []).append(link.id)
            ports = ports_of.get(device.type)
            if ports is None:
                item = s.item(device.type)
                ports = ports_of[device.type] = frozenset(item.all_port_names()) if item else frozenset()
            if port not in ports:
                yield Problem(("port", link.id, device_id, port), "ends",
                              f"{s.name('links', link)} ends on port {port}, which {s.name_of('devices', device_id)} "
                              f"({device.type}) does not have",
                              [("links", link.id, ENDS), ("devices", device_id, ("type",))])
    for (device_id, port), ids in users.items():
        if len(set(ids)) > 1:
            ids = sorted(set(ids), key=natural_key)
            yield Problem(("twice", device_id, port), "ends", f"{len(ids)} cables on port {s.end(device_id, port)}",
                          [("links", i, ENDS) for i in reversed(ids)], always=False)


def _units(s: Sides) -> Iterator[Problem]:
    """Devices overlapping in U, or beyond their rack's U, in racks where something moved."""
    racks = s.merged["racks"]
    concerned = {d.rack for d in _touched(s, "devices")} | {r.id for r in _touched(s, "racks")}
    spans: dict[str, list[tuple[int, int, str]]] = {}
    for device in s.merged["devices"].values():
        if device.rack in concerned and device.rack in racks:
            item = s.item(device.type)
            if item is not None and item.height_u > 0:
                spans.setdefault(device.rack, []).append((device.u, device.u + item.height_u - 1, device.id))
    for rack_id, ranges in spans.items():
        rack_item = s.item(racks[rack_id].type)
        total = rack_item.rack_units if rack_item is not None else 0
        ranges.sort()
        top, top_id = 0, ""
        for low, high, device_id in ranges:
            mine: list[Involved] = [("devices", device_id, PLACE), ("racks", rack_id, ("type",))]
            if low < 1 or high > total:
                yield Problem(("fit", device_id), "place",
                              f"{s.name_of('devices', device_id)} takes U{low}–U{high} of a {total}U rack",
                              mine, always=False)
            if low <= top:
                yield Problem(("overlap", top_id, device_id), "place",
                              f"{s.name_of('devices', device_id)} at U{low}–U{high} overlaps "
                              f"{s.name_of('devices', top_id)} (up to U{top})",
                              [mine[0], ("devices", top_id, PLACE), mine[1]], always=False)
            if high > top:
                top, top_id = high, device_id


def _names(s: Sides) -> Iterator[Problem]:
    """Two racks, busbars or floor units of one name, or two devices of one name in a rack."""
    for attr in ("racks", "busbars", "floor_units", "devices"):
        touched = _touched(s, attr)
        if not touched:
            continue
        scopes = {obj.rack for obj in touched} if attr == "devices" else {""}
        groups: dict[tuple[str, str], list[str]] = {}
        for obj in s.merged[attr].values():
            scope = obj.rack if attr == "devices" else ""
            if scope in scopes:
                groups.setdefault((scope, obj.name), []).append(obj.id)
        mine = s.touched[attr]
        for (scope, name), ids in groups.items():
            if len(ids) > 1 and not mine.isdisjoint(ids):
                ids.sort(key=natural_key)
                where = f" in {s.name_of('racks', scope)}" if scope else ""
                yield Problem(("name", attr, scope, name), "name",
                              f"{len(ids)} {_noun(attr)}s are called {name}{where}",
                              [(attr, i, ("name",)) for i in reversed(ids)], always=False, rename=True)


# ------------------------------------------------------------------ settling
def _differs(s: Sides, side: Objects, involved: Involved) -> bool:
    attr, key, names = involved
    mine, other = s.merged[attr].get(key), side[attr].get(key)
    if mine is None or other is None:
        return (mine is None) != (other is None)
    return names is not None and any(getattr(mine, n) != getattr(other, n) for n in names)


def counts(s: Sides, problem: Problem) -> bool:
    """Whether the merge made the problem (see the module docstring)."""
    return problem.always or (any(_differs(s, s.ours, i) for i in problem.involved)
                              and any(_differs(s, s.theirs, i) for i in problem.involved))


def settle(s: Sides) -> list[Settled]:
    """Settle every problem the merge made, in rounds (putting an object back can leave another
    one dangling: a device of theirs left out takes its cables along in the next round)."""
    done: set[tuple[Any, ...]] = set()
    result: list[Settled] = []
    while True:
        found = [p for p in find_problems(s) if p.key not in done and counts(s, p)]
        if not found:
            return result
        for problem in found:
            done.add(problem.key)
            if not _gone_since(s, problem):
                result.append(_settle(s, problem))


def _gone_since(s: Sides, problem: Problem) -> bool:
    """Whether a reference problem was settled by another of its round: what it names came back
    with an object put back before it (a rack ours kept brings back its PDUs, so the cords of the
    node ours changed no longer end on a deleted device)."""
    return problem.key[0] == "ref" and all(key in s.merged[attr] for attr, key, _names in problem.involved)


def _settle(s: Sides, problem: Problem) -> Settled:
    settled = Settled(problem)
    merged, ours = s.merged, s.ours
    for involved in problem.involved:
        if not _differs(s, ours, involved):
            continue
        attr, key, names = involved
        settled.subject = settled.subject or involved
        s.touched.setdefault(attr, set()).add(key)
        mine, theirs_new = merged[attr].get(key), key not in ours[attr]
        what = f"{_noun(attr)} {s.name_of(attr, key)}"
        if theirs_new and problem.rename and mine is not None:  # both survive: a name is no impossibility
            new_name = _free_name(s, attr, mine)
            if new_name is None:
                settled.actions.append(f"kept theirs' {what} under the same name: rename one")
            else:
                settled.renamed.append((attr, key, mine.name, new_name))
                _replace(merged, attr, mine, {"name": new_name})
        elif theirs_new:
            settled.actions.append(f"left out theirs' {what}")
            del merged[attr][key]
        elif mine is None:
            merged[attr][key] = ours[attr][key]
            settled.actions.append(f"kept ours' {what}{along(restore(s, attr, key))}")
        else:
            assert names is not None
            settled.actions.append(f"kept ours' {', '.join(names)} of {what}")
            _replace(merged, attr, mine, {n: getattr(ours[attr][key], n) for n in names})
    return settled


def restore(s: Sides, attr: str, key: str) -> dict[str, int]:
    """Ours' object ``key`` is back in the merge: bring back, as ours has them, what theirs' delete
    of it took along (a rack's devices, a device's cables) and the feeds or CDU loop of racks on
    it that theirs cleared. Returns how many of each came back (attribute → count)."""
    assert s.ours_doc is not None
    counts: dict[str, int] = {}
    for dependent in s.ours_doc.dependents(key):
        where = ATTR_OF_PREFIX[prefix_of(dependent)]
        if dependent not in s.merged[where]:
            s.merged[where][dependent] = s.ours[where][dependent]
            s.touched[where].add(dependent)
            counts[where] = counts.get(where, 0) + 1
    for rack_id, name in s.ours_doc.references_to(key):
        rack, was = s.merged["racks"].get(rack_id), s.theirs["racks"].get(rack_id)
        if rack is not None and getattr(rack, name) is None and was is not None and getattr(was, name) is None:
            _replace(s.merged, "racks", rack, {name: key})
            s.touched["racks"].add(rack_id)
            counts["assignments"] = counts.get("assignments", 0) + 1
    return counts


def along(counts: dict[str, int]) -> str:
    """`` with 8 devices, 32 cables`` (what ``restore`` brought back), or nothing."""
    words = {"devices": "device", "links": "cable", "assignments": "rack assignment"}
    parts = [f"{n} {words[w]}{'s' if n != 1 else ''}" for w, n in counts.items()]
    return f" with {', '.join(parts)}" if parts else ""


def _replace(merged: Objects, attr: str, obj: Any, values: dict[str, Any]) -> None:
    """Put a changed copy of ``obj`` in the merge (objects may be shared with the inputs)."""
    changed = copy.copy(obj)
    for name, value in values.items():
        setattr(changed, name, value)
    merged[attr][obj.id] = changed


def _free_name(s: Sides, attr: str, obj: Any) -> str | None:
    """The first free name of ``obj.name``'s series (R41 → the first free R<nn>; CDU-02 → CDU-<nn>;
    a name without a number gets -2, -3 …), among the merge's names in its scope (a device's rack)."""
    scope = (lambda o: o.rack == obj.rack) if attr == "devices" else (lambda o: True)
    taken = {o.name for o in s.merged[attr].values() if scope(o)}
    match = _SERIES.fullmatch(obj.name)
    stem, width, start = (match.group(1), len(match.group(2)), 1) if match else (f"{obj.name}-", 1, 2)
    number = start
    while f"{stem}{number:0{width}d}" in taken:
        number += 1
    name = f"{stem}{number:0{width}d}"
    return name if len(name) <= NAME.max_chars else None


#: The kind word of each collection, as ``planner diff`` has them (cables are ``cable``).
KINDS = {"zones": "zone", "obstacles": "obstacle", "doors": "door", "handoffs": "handoff", "racks": "rack",
         "devices": "device", "floor_units": "floor_unit", "busbars": "busbar", "links": "cable",
         "comments": "comment", "underlays": "underlay", "catalog": "type"}


def kind_of(attr: str) -> str:
    return KINDS[attr]


def _noun(attr: str) -> str:
    """The kind word as a sentence says it: floor unit, hand-off."""
    return "hand-off" if attr == "handoffs" else KINDS[attr].replace("_", " ")
