"""Three-way merge of two revisions of a plan: ``planner merge BASE OURS THEIRS`` and git's merge
driver (DESIGN §6, §7).

A .hall file is one object a line, but a line merge is the wrong tool: two people moving
different racks touch different lines and merge, yet a rewire on one side and a deleted device
on the other also touch different lines and merge into a cable to nowhere, and two people each
adding a rack both write ``rack-57`` on the same line. So the merge works on the objects: matched
by id (stable, never reused within a plan's history), field by field, with fields that only mean
something together kept together (a position's x and y, a device's rack and U, a cable end's
device and port; ``_GROUPS``). For every collection, and for the title block, the design basis,
the hall outline and the custom equipment types:

- a field only one side changed takes that side's value; both sides making the same change is
  no conflict; both changing it differently is a conflict;
- an object one side deleted is deleted, unless the other side changed it: a conflict;
- a conflict keeps ours (the checked-out branch, git's ``%A``), so the result is always a plan
  that loads, and the user is told each conflict by object name and field with the base, ours
  and theirs values.

Objects both sides added with the same id: ids are handed out per file (the next free number),
so two people adding a rack from the same base both get ``rack-57``, for different racks. Both
must survive. When the two are the same object (same content, and whatever they point at the
same too) it is kept once; otherwise theirs is renumbered to a fresh id above the highest of
base, ours and theirs, and every reference to it in theirs (a device's rack, cable ends, a
rack's feeds and CDU loop, a comment's target and reply) follows. Theirs, because ours is the
branch being worked on: its ids stay as its user, its open diffs and its later commits know
them. Above both maxima, because an id must mean one object across every revision: reusing a
number either side ever used would make a later diff or merge take one object for another.

Then ``planner.review.merge_checks`` settles what the combined edits make impossible (two cables
on one port, a device in a deleted rack …), again towards ours, and the result is a Document.
The inputs are left as they were; the result shares unchanged objects with them.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any

from planner.model.catalog import builtin_catalog
from planner.model.change import Change
from planner.model.document import Document, id_numbers, natural_key
from planner.model.objects import (
    COLLECTIONS,
    NOTE,
    BusbarRun,
    Comment,
    Device,
    Door,
    FloorUnit,
    HandOff,
    Link,
    NetBoxRecord,
    Rack,
    Underlay,
)
from planner.model.references import REFERENCE_FIELDS, reference_names, references_of
from planner.review.merge_checks import (
    ATTR_OF_PREFIX,
    Objects,
    Settled,
    Sides,
    along,
    kind_of,
    restore,
    settle,
)

ATTRS = tuple(attr for attr, _cls in COLLECTIONS.values())
CLASS_OF_ATTR = {attr: cls for attr, cls in COLLECTIONS.values()}
#: What a deleted object, and one that is there, are shown as in a conflict's values.
DELETED = "(deleted)"
PRESENT = "(present)"
#: Fields that change together: merged as one value and reported under one name.
_GROUPS: dict[type, tuple[tuple[str, tuple[str, ...]], ...]] = {
    Rack: (("position", ("x", "y")),),
    FloorUnit: (("position", ("x", "y")),),
    HandOff: (("position", ("x", "y")),),
    Underlay: (("position", ("x", "y")),),
    BusbarRun: (("position", ("x1", "y1", "x2", "y2")),),
    Door: (("position", ("x1", "y1", "x2", "y2")),),
    Device: (("place", ("rack", "u")),),
    Link: (("end A", ("a_device", "a_port")), ("end B", ("b_device", "b_port")),
           ("route", ("length_m", "stock_m", "media"))),
    Comment: (("pin", ("x", "y", "target")),),
}
#: A cable's routed length, stock length and media follow from where its racks stand: when both
#: sides changed them differently (each re-routed after its own moves) the merge keeps ours and
#: lists the cable in ``MergeResult.reroute``, to be routed again in the merged plan (the CLI does).
_DERIVED = "route"


@dataclass
class Conflict:
    """One place where the two sides disagree, or where their edits together cannot stand.
    ``field`` is a field or a group of fields ("position"), "" for the object as a whole; the
    values are as stored (``DELETED`` for an object a side deleted); ``kept`` says what the
    result holds there."""

    kind: str
    id: str
    name: str
    field: str
    base: Any
    ours: Any
    theirs: Any
    reason: str
    kept: str = "ours"
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "id": self.id, "name": self.name, "field": self.field,
                "base": _plain(self.base), "ours": _plain(self.ours), "theirs": _plain(self.theirs),
                "reason": self.reason, "kept": self.kept}


@dataclass
class MergeResult:
    """The merged plan and what the merge did: conflicts, theirs' objects renumbered (theirs' id
    → the id in the result) and renamed, notes, and how many of theirs' changes it took."""

    doc: Document
    conflicts: list[Conflict] = field(default_factory=list)
    renumbered: dict[str, str] = field(default_factory=dict)
    renumbered_names: dict[str, str] = field(default_factory=dict)
    renamed: list[dict[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    from_theirs: int = 0
    #: Cables whose route both sides changed differently: ours is kept, to be routed again.
    reroute: list[str] = field(default_factory=list)
    #: The inputs' objects as the merge saw them (theirs renumbered), for ``become``.
    sides: Sides | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "merged": not self.conflicts,
            "conflicts": [c.to_json() for c in self.conflicts],
            "renumbered": [{"kind": kind_of(ATTR_OF_PREFIX[old.split("-", 1)[0]]), "name": self.renumbered_names[old],
                            "theirs_id": old, "id": new} for old, new in self.renumbered.items()],
            "renamed": self.renamed,
            "notes": self.notes,
            "from_theirs": self.from_theirs,
            "reroute": self.reroute,
        }


def merge_plans(base: Document, ours: Document, theirs: Document) -> MergeResult:
    """Merge ``ours`` and ``theirs``, two revisions of ``base`` (see the module docstring)."""
    b, o, t = _objects(base), _objects(ours), _objects(theirs)
    mapping = _renumbering(b, o, t)
    t = _rewritten(t, mapping)
    sides = Sides(b, o, t, {attr: {} for attr in (*ATTRS, "catalog")}, builtin_catalog().items, ours_doc=ours)
    merge = _Merge(sides)
    for attr in (*ATTRS, "catalog"):
        sides.merged[attr] = merge.keyed(attr)
    merge.keep_dependents()
    meta = merge.fields("title", "title", "title block", base.meta, ours.meta, theirs.meta)
    basis = merge.fields("basis", "basis", "design basis", base.basis, ours.basis, theirs.basis)
    outline = merge.outline(base.outline, ours.outline, theirs.outline)
    for settled in settle(sides):
        merge.settled(settled)
    names = {old: sides.name(attr, sides.theirs[attr][new])
             for old, new in mapping.items() for attr in (ATTR_OF_PREFIX[old.split("-", 1)[0]],)}
    result = MergeResult(_document(sides.merged), merge.conflicts, mapping, names, merge.renamed,
                         _comment_notes(sides), merge.from_theirs, sorted(merge.reroute, key=natural_key), sides)
    result.doc.meta, result.doc.basis, result.doc.outline = meta, basis, outline
    result.doc.netbox = _netbox_record(ours, theirs, mapping)
    return result


def _netbox_record(ours: Document, theirs: Document, mapping: dict[str, str]) -> NetBoxRecord:
    """Where the merged plan met NetBox: ours' record, and the NetBox ids theirs holds that ours
    lacks (theirs a pull of NetBox's edits: the objects made there), under their merged ids."""
    ids = dict(ours.netbox.ids)
    for key, number in theirs.netbox.ids.items():
        owner, slash, part = key.partition("/")
        ids.setdefault(mapping.get(owner, owner) + slash + part, number)
    return NetBoxRecord(ours.netbox.url or theirs.netbox.url, ours.netbox.site or theirs.netbox.site, ids)


def become(doc: Document, objects: Objects, other: Document, touched: dict[str, set[str]]) -> Change:
    """Change ``doc`` into the plan that has ``objects`` (a side of ``MergeResult.sides``) and the
    design basis, outline and custom types of ``other``, in place; returns what changed, so a
    ``Validator`` of ``doc`` can follow with an incremental update instead of a full run.

    ``doc`` must be the merged plan or one of the sides: they differ only at ``touched`` (the
    sides' ``touched``), so only those ids are looked at."""
    change = Change()
    for attr in ATTRS:
        mine, wanted = getattr(doc, attr), objects[attr]
        for key in touched.get(attr, ()):
            obj, present = wanted.get(key), mine.get(key)
            if obj is None:
                if present is not None:
                    doc.remove(key)
                    change.removed.add(key)
            elif present is None:
                doc.add(copy.copy(obj))
                change.added.add(key)
            elif present != obj:
                values = {f.name: getattr(obj, f.name) for f in fields(obj)
                          if getattr(present, f.name) != getattr(obj, f.name)}
                doc.set_fields(key, values)
                change.modified[key] = set(values)
    if doc.basis != other.basis:
        doc.basis, change.basis = copy.deepcopy(other.basis), True
    if doc.outline != other.outline:
        doc.outline, change.outline = list(other.outline), True
    custom = {item.key: item for item in other.catalog.custom_items()}
    if {item.key: item for item in doc.catalog.custom_items()} != custom:
        for item in doc.catalog.custom_items():
            del doc.catalog.items[item.key]
        for item in custom.values():
            doc.catalog.add(copy.copy(item))
        change.catalog = True
    return change


def _objects(doc: Document) -> Objects:
    found: Objects = {attr: getattr(doc, attr) for attr in ATTRS}
    found["catalog"] = {item.key: item for item in doc.catalog.custom_items()}
    return found


def _document(merged: Objects) -> Document:
    catalog = builtin_catalog()
    for item in merged["catalog"].values():
        catalog.add(item)
    try:
        return Document.from_collections({attr: merged[attr].values() for attr in ATTRS}, catalog)
    except ValueError:  # ids in other decimal digits (rack-٣), which the format lets through
        doc = Document(catalog)
        for attr in ATTRS:
            for obj in merged[attr].values():
                doc.add(obj)
        return doc


# ------------------------------------------------------------------ ids
def _renumbering(b: Objects, o: Objects, t: Objects) -> dict[str, str]:
    """Theirs' new ids that ours also added, for another object → fresh ids (module docstring)."""
    both: dict[str, tuple[Any, Any]] = {}
    clash: set[str] = set()
    for attr in ATTRS:
        for key in (o[attr].keys() & t[attr].keys()) - b[attr].keys():
            both[key] = (o[attr][key], t[attr][key])
            if o[attr][key] != t[attr][key]:
                clash.add(key)
    grew = bool(clash)
    while grew:  # the same content pointing at a renumbered object is another object
        grew = False
        for key, (_mine, theirs) in both.items():
            if key not in clash and any(getattr(theirs, r) in clash for r in reference_names(type(theirs))):
                clash.add(key)
                grew = True
    mapping: dict[str, str] = {}
    for prefix, (attr, _cls) in COLLECTIONS.items():
        mine = sorted((key for key in clash if key.split("-", 1)[0] == prefix), key=natural_key)
        if mine:
            top = max(_top_number(prefix, side[attr]) for side in (b, o, t))
            mapping.update({key: f"{prefix}-{top + k}" for k, key in enumerate(mine, start=1)})
    return mapping


def _top_number(prefix: str, objects: dict[str, Any]) -> int:
    numbers = id_numbers(prefix, objects)
    if numbers is None:  # ids in other decimal digits: one at a time
        numbers = [int(tail) for key in objects if (tail := key[len(prefix) + 1:]).isdecimal()]
    return max(numbers, default=0)


def _rewritten(t: Objects, mapping: dict[str, str]) -> Objects:
    """Theirs with renumbered ids and every reference to them following."""
    if not mapping:
        return t
    out: Objects = {"catalog": t["catalog"]}
    for attr in ATTRS:
        refs = reference_names(CLASS_OF_ATTR[attr])
        objects: dict[str, Any] = {}
        for key, obj in t[attr].items():
            values = {r: mapping[v] for r in refs if (v := getattr(obj, r)) in mapping}
            if key in mapping:
                values["id"] = mapping[key]
            if values:
                obj = _changed(obj, values)
            objects[obj.id] = obj
        out[attr] = objects
    return out


# ------------------------------------------------------------------ values
@cache
def _groups(cls: type) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A class's fields as merge units: groups (``_GROUPS``) and single fields, in field order."""
    named = dict(_GROUPS.get(cls, ()))
    member = {name: label for label, names in named.items() for name in names}
    units: list[tuple[str, tuple[str, ...]]] = []
    for f in fields(cls):
        label = member.get(f.name)
        if label is None:
            if f.name not in ("id", "key"):
                units.append((f.name, (f.name,)))
        elif label not in dict(units):
            units.append((label, named[label]))
    return tuple(units)


def _unit(obj: Any, names: tuple[str, ...]) -> tuple[Any, ...] | None:
    return None if obj is None else tuple(getattr(obj, n) for n in names)


def _plain(value: Any) -> Any:
    """A value as JSON holds it (tuples as lists)."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _changed(obj: Any, values: dict[str, Any]) -> Any:
    """A copy of ``obj`` with ``values`` set (objects may be shared with the inputs)."""
    changed = copy.copy(obj)
    for name, value in values.items():
        setattr(changed, name, value)
    return changed


def _values(names: tuple[str, ...], unit: tuple[Any, ...] | None) -> Any:
    if unit is None:
        return DELETED
    return unit[0] if len(names) == 1 else dict(zip(names, unit))


class _Merge:
    """The field-by-field merge of one run, collecting conflicts as it goes."""

    def __init__(self, sides: Sides) -> None:
        self.s = sides
        self.conflicts: list[Conflict] = []
        self.renamed: list[dict[str, str]] = []
        self.from_theirs = 0
        #: Objects ours changed and theirs deleted, kept: (attr, id, its conflict).
        self.kept: list[tuple[str, str, Conflict]] = []
        self.reroute: set[str] = set()

    def keyed(self, attr: str) -> dict[str, Any]:
        """One collection (or the custom types) merged by id (key)."""
        b, o, t = self.s.base[attr], self.s.ours[attr], self.s.theirs[attr]
        out = dict(o)
        touched = self.s.touched.setdefault(attr, set())
        touched.update(o.keys() - t.keys())
        for key, theirs in t.items():
            mine = o.get(key)
            if mine is theirs or mine == theirs:
                continue
            touched.add(key)
            before = b.get(key)
            if mine == before:
                out[key] = theirs
                self.from_theirs += 1
            elif theirs != before:
                if mine is None:
                    self._gone(attr, key, before, None, theirs, "ours deleted it, theirs changed it")
                else:
                    out[key] = self.fields(kind_of(attr), key, self.s.name(attr, mine), before, mine, theirs)
        for key in b.keys() - t.keys():
            mine = o.get(key)
            if mine is None:
                continue
            if mine == b[key]:
                del out[key]
                self.from_theirs += 1
            else:
                self.kept.append((attr, key, self._gone(attr, key, b[key], mine, None,
                                                        "ours changed it, theirs deleted it")))
        return out

    def _gone(self, attr: str, key: str, before: Any, mine: Any, theirs: Any, reason: str) -> Conflict:
        """A conflict between a deletion and a change; ours (deleted or changed) stays."""
        kept = mine if mine is not None else theirs
        cls: type = type(kept)
        changed = [(label, names) for label, names in _groups(cls) if _unit(before, names) != _unit(kept, names)]
        names = tuple(n for _label, group in changed for n in group)
        return self._add(Conflict(kind_of(attr), key, self.s.name(attr, kept), ", ".join(label for label, _n in changed),
                                  _values(names, _unit(before, names)), _values(names, _unit(mine, names)),
                                  _values(names, _unit(theirs, names)), reason))

    def keep_dependents(self) -> None:
        """An object ours changed and theirs deleted is kept as ours has it, with what theirs'
        delete took along (``merge_checks.restore``)."""
        for attr, key, conflict in self.kept:
            brought = along(restore(self.s, attr, key))
            if brought:
                conflict.kept = f"ours,{brought} theirs deleted or cleared along with it"
                conflict.text = self._text(conflict)

    def fields(self, kind: str, key: str, name: str, before: Any, mine: Any, theirs: Any) -> Any:
        """Two changed versions of one object (or of the title block, the design basis) merged unit
        by unit; ``before`` is None when both sides added it."""
        values: dict[str, Any] = {}
        rerouted = False
        cls: type = type(mine)
        for label, names in _groups(cls):
            ours_unit, theirs_unit, base_unit = _unit(mine, names), _unit(theirs, names), _unit(before, names)
            if ours_unit == theirs_unit or theirs_unit == base_unit:
                continue
            if ours_unit == base_unit:
                values.update(zip(names, theirs_unit))  # type: ignore[arg-type]
                continue
            if label == _DERIVED and before is not None:
                self.reroute.add(key)
                rerouted = True
                continue
            self._add(Conflict(kind, key, name, label, _values(names, base_unit) if before is not None else None,
                               _values(names, ours_unit), _values(names, theirs_unit),
                               "both changed it" if before is not None else "both added it, differently"))
        return _changed(mine, values) if values or rerouted else mine  # a copy to re-route

    def outline(self, before: list[Any], mine: list[Any], theirs: list[Any]) -> list[Any]:
        if mine == theirs or theirs == before:
            return mine
        if mine == before:
            return theirs
        self._add(Conflict("outline", "outline", "hall outline", "polygon", before, mine, theirs, "both changed it"))
        return mine

    def settled(self, settled: Settled) -> None:
        """Report a problem ``merge_checks`` settled: theirs' objects renamed, or a conflict."""
        s = self.s
        for attr, key, old, new in settled.renamed:
            self.renamed.append({"kind": kind_of(attr), "id": key, "theirs_name": old, "name": new})
        if not settled.conflict:
            return
        problem = settled.problem
        attr, key, names = settled.subject or problem.involved[0]
        obj = s.find(attr, key)
        if names:  # the fields concerned
            base, ours, theirs = [_values(names, _unit(side[attr].get(key), names)) for side in (s.base, s.ours, s.theirs)]
        else:  # the object as a whole: there or not
            base, ours, theirs = [PRESENT if key in side[attr] else DELETED for side in (s.base, s.ours, s.theirs)]
        self._add(Conflict(kind_of(attr), key, s.name(attr, obj) if obj is not None else key,
                           problem.field if names else "", base, ours, theirs, problem.reason,
                           "; ".join(settled.actions) or "ours"))

    def _add(self, conflict: Conflict) -> Conflict:
        conflict.text = self._text(conflict)
        self.conflicts.append(conflict)
        return conflict

    def _text(self, c: Conflict) -> str:
        """One line: ``rack R07 (rack-7) position: base x=4.0, y=3.0 | ours … | theirs …: both
        changed it; kept ours``; references by name."""
        shown = " | ".join(f"{side} {self._shown(value, c.field)}" for side, value in
                           (("base", c.base), ("ours", c.ours), ("theirs", c.theirs)))
        where = f" {c.field}" if c.field else ""
        return f"{c.kind.replace('_', ' ')} {c.name} ({c.id}){where}: {shown}: {c.reason}; kept {c.kept}"

    def _shown(self, value: Any, name: str = "") -> str:
        if isinstance(value, dict):
            return ", ".join(f"{k}={self._shown(v, k)}" for k, v in value.items())
        if name in REFERENCE_FIELDS and isinstance(value, str) and value:
            attr = ATTR_OF_PREFIX.get(value.split("-", 1)[0])
            return self.s.name_of(attr, value) if attr else value
        if value is None:
            return "(none)"
        if isinstance(value, (list, tuple)) and len(value) > 4:
            return f"[{len(value)} items]"
        return _WHITESPACE.sub(" ", str(value))


_WHITESPACE = re.compile(r"\s+")


def _comment_notes(s: Sides) -> list[str]:
    """Comments the merge left pointing at nothing: allowed (a comment keeps its text when its
    object goes, a reply whose comment went shows as a comment), but worth a word."""
    notes = []
    merged = s.merged
    for holder in ATTRS:
        loose = [r for r in references_of(CLASS_OF_ATTR[holder]) if r.ref.hold == NOTE]
        for obj in sorted(merged[holder].values(), key=lambda c: natural_key(c.id)) if loose else ():
            for reference in loose:
                ref = getattr(obj, reference.field)
                attr = ATTR_OF_PREFIX.get(ref.split("-", 1)[0]) if ref else None
                if attr and ref not in merged[attr] and (ref in s.ours[attr] or ref in s.theirs[attr]):
                    who = f"{kind_of(holder)} {s.name(holder, obj)!r} ({obj.id})"
                    notes.append(f"{reference.sentence(who, s.name_of(attr, ref))}, which {s.gone(attr, ref)}")
    return notes
