"""What changed between two revisions of a plan: ``planner diff``, git's diff driver, the GUI's
compare view and the review PDF all read the same ``PlanDiff`` (DESIGN §7).

Objects are matched by id (ids are stable and never reused) and reported by name. A change of
position is ``moved`` (racks and floor units x, y, rotation; devices rack and U; busbars and
doors their ends; zones and obstacles their polygon; hand-offs, comments and underlays their
point); any other field is ``changed``, with old and new value (a rename is ``fields.name``);
one object can be both. Values that point at other objects (feeds, CDU loop, a device's rack, a
comment's target) are given by the name of what they point at, so the list reads without ids.

Cables: ``rewired`` when an end moved to another device or port (ends read ``"<hostname>
<port>"``); ``changed`` for any other field, so a length or stock length that changed because a
rack moved, a new media or an installation state all show there (a cable can be both).

Added and removed entries carry ``x``/``y``: where to centre the view on them, metres (a device
at its rack, a line at its middle, a polygon at its box's centre; None where it has no place).

Plan-wide settings are objects of no collection; when they differ they are listed under
``changed`` with a kind of their own and their key as id: ``basis`` (the design basis),
``title`` (the title block), ``outline`` (the hall outline, field ``polygon``) and ``type`` (a
custom equipment type, by its key; added or removed types are listed under ``added`` and
``removed`` with no place). ``touched_ids`` holds only object and cable ids.

The consequences (findings new and resolved, each with the ids of its ``objects``; figures that
moved) come from ``planner.review.consequences``; ``consequences=False`` leaves them empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

from planner.commands.comments import pin_position
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.objects import COLLECTIONS, Comment, Device, Link
from planner.model.references import REFERENCE_FIELDS
from planner.review.consequences import PlanState, figures_delta, findings_delta, plan_states

#: The kind word of each collection in the diff, in the order lists are sorted.
KIND_OF_PREFIX = {"zone": "zone", "obs": "obstacle", "door": "door", "ho": "handoff", "rack": "rack",
                  "fu": "floor_unit", "bus": "busbar", "dev": "device", "cmt": "comment", "ul": "underlay"}
#: Plan-wide entries (no id of a collection), after the objects.
PLAN_KINDS = ("basis", "title", "outline", "type")
_KIND_ORDER = {kind: index for index, kind in enumerate([*KIND_OF_PREFIX.values(), *PLAN_KINDS])}
#: Fields that make up an object's place: a change there is ``moved``, not ``changed``.
POSITION_FIELDS: dict[str, tuple[str, ...]] = {
    "rack": ("x", "y", "rotation"), "fu": ("x", "y", "rotation"), "ul": ("x", "y", "rotation"),
    "dev": ("rack", "u"), "bus": ("x1", "y1", "x2", "y2"), "door": ("x1", "y1", "x2", "y2"),
    "zone": ("polygon",), "obs": ("polygon",), "ho": ("x", "y"), "cmt": ("x", "y"),
}
_CABLE_ENDS = ("a_device", "a_port", "b_device", "b_port")
_COMMENT_NAME_CHARS = 40


@dataclass
class PlanDiff:
    """The differences between two plans, as lists of plain entries (``as_json``'s shape).

    Entries are dicts so that the CLI, the GUI and the review PDF print the same thing; the
    lists are sorted by kind, then name (cables by label).
    """

    added: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    moved: list[dict[str, Any]] = field(default_factory=list)
    changed: list[dict[str, Any]] = field(default_factory=list)
    cables: dict[str, list[dict[str, Any]]] = field(
        default_factory=lambda: {"added": [], "removed": [], "rewired": [], "changed": []})
    findings: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {"new": [], "resolved": []})
    figures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        """No object, setting, cable, finding or figure differs."""
        return not (self.added or self.removed or self.moved or self.changed or any(self.cables.values())
                    or any(self.findings.values()) or self.figures)

    def as_json(self) -> dict[str, Any]:
        """The contract of ``planner diff --json`` (DESIGN §7)."""
        return {"added": self.added, "removed": self.removed, "moved": self.moved, "changed": self.changed,
                "cables": dict(self.cables), "findings": dict(self.findings), "figures": self.figures}

    def touched_ids(self) -> set[str]:
        """Ids of every object and cable added, removed, moved or changed."""
        objects = {e["id"] for e in [*self.added, *self.removed, *self.moved, *self.changed]
                   if e["kind"] in _KIND_OF_ID}
        return objects | {e["id"] for group in self.cables.values() for e in group}


_KIND_OF_ID = frozenset([*KIND_OF_PREFIX.values()])


def diff_plans(old: Document, new: Document, consequences: bool = True, *, old_state: PlanState | None = None,
               new_state: PlanState | None = None) -> PlanDiff:
    """What changed from ``old`` to ``new``. With ``consequences``, also the findings that are
    new and resolved and the figures (feed currents, CDU heat and flow, zone floor load) that
    moved. ``old_state``/``new_state`` are a plan's findings and figures when the caller already
    has them (the GUI's live validator); missing ones are worked out here."""
    result = PlanDiff()
    for prefix, (attr, _cls) in COLLECTIONS.items():
        if prefix == "link":
            _diff_cables(old, new, result)
        else:
            _diff_collection(old, new, prefix, getattr(old, attr), getattr(new, attr), result)
    _diff_plan_settings(old, new, result)
    if consequences:
        before, after = plan_states(old, new, old_state, new_state, result.touched_ids())
        result.findings = findings_delta(before.findings, after.findings)
        result.figures = figures_delta(before.figures, after.figures)
    for entries in (result.added, result.removed, result.moved, result.changed):
        entries.sort(key=_entry_key)
    for entries in result.cables.values():
        entries.sort(key=lambda e: (natural_key(e["label"]), natural_key(e["id"])))
    return result


def _entry_key(entry: dict[str, Any]) -> tuple:
    return _KIND_ORDER.get(entry["kind"], len(_KIND_ORDER)), natural_key(str(entry["name"])), natural_key(entry["id"])


# ------------------------------------------------------------------------------ names
def display_name(doc: Document, obj: Any) -> str:
    """How the diff names an object: a device by its hostname (``R01-N1``: every rack has an N1),
    a comment by the start of its text, anything else by its name."""
    if isinstance(obj, Device):
        return doc.hostname(obj)
    if isinstance(obj, Comment):
        text = " ".join(obj.text.split())
        return text if len(text) <= _COMMENT_NAME_CHARS else text[:_COMMENT_NAME_CHARS - 1] + "…"
    if isinstance(obj, Link):
        return cable_label(doc, obj)
    return str(getattr(obj, "name", obj.id))


def name_of_id(doc: Document, obj_id: str | None) -> str | None:
    """The display name of the object an id points at (the id itself when it is not in the plan)."""
    if not obj_id:
        return obj_id
    obj = doc.find(obj_id)
    return obj_id if obj is None else display_name(doc, obj)


def cable_end(doc: Document, device_id: str, port: str) -> str:
    """One end of a cable as ``"<hostname> <port>"`` (``R01-N1 P1``)."""
    device = doc.devices.get(device_id)
    return f"{doc.hostname(device) if device is not None else device_id} {port}"


def centre_of(doc: Document, obj: Any) -> tuple[float | None, float | None]:
    """Where to centre the view on an object (m): its point, a line's middle, a polygon's
    bounding-box centre, a device's rack, a reply's comment; (None, None) where it has no place."""
    if isinstance(obj, Device):
        rack = doc.racks.get(obj.rack)
        return (rack.x, rack.y) if rack is not None else (None, None)
    if isinstance(obj, Comment):  # the pin in the hall's frame (an object's comment stores an offset)
        pinned = doc.comments.get(obj.reply_to) if obj.reply_to else obj  # a reply has no pin of its own
        place = pin_position(doc, pinned) if pinned is not None else None
        return place if place is not None else (None, None)
    if hasattr(obj, "polygon"):
        if not obj.polygon:
            return None, None
        xs, ys = [p[0] for p in obj.polygon], [p[1] for p in obj.polygon]
        return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    if hasattr(obj, "x1"):
        return (obj.x1 + obj.x2) / 2, (obj.y1 + obj.y2) / 2
    if hasattr(obj, "x"):
        return obj.x, obj.y
    return None, None


# ---------------------------------------------------------------------------- objects
def _plain(value: Any) -> Any:
    """A field value as JSON holds it (polygons as lists of [x, y])."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _shown(doc: Document, name: str, value: Any) -> Any:
    return name_of_id(doc, value) if name in REFERENCE_FIELDS else _plain(value)


def _diff_collection(old: Document, new: Document, prefix: str, before: dict[str, Any], after: dict[str, Any],
                     result: PlanDiff) -> None:
    kind = KIND_OF_PREFIX[prefix]
    place = POSITION_FIELDS[prefix]
    for obj_id in after.keys() - before.keys():
        obj = after[obj_id]
        x, y = centre_of(new, obj)
        result.added.append({"id": obj_id, "kind": kind, "name": display_name(new, obj), "x": x, "y": y})
    for obj_id in before.keys() - after.keys():
        obj = before[obj_id]
        x, y = centre_of(old, obj)
        result.removed.append({"id": obj_id, "kind": kind, "name": display_name(old, obj), "x": x, "y": y})
    for obj_id, was in before.items():
        now = after.get(obj_id)
        if now is None or now == was:
            continue
        differing = [f.name for f in fields(was) if getattr(was, f.name) != getattr(now, f.name)]
        name = display_name(new, now)
        if any(f in place for f in differing):
            result.moved.append({"id": obj_id, "kind": kind, "name": name,
                                 "from": {f: _shown(old, f, getattr(was, f)) for f in place},
                                 "to": {f: _shown(new, f, getattr(now, f)) for f in place}})
        other = [f for f in differing if f not in place]
        if other:
            result.changed.append({"id": obj_id, "kind": kind, "name": name, "fields": {
                f: {"old": _shown(old, f, getattr(was, f)), "new": _shown(new, f, getattr(now, f))} for f in other}})


def _diff_cables(old: Document, new: Document, result: PlanDiff) -> None:
    before, after = old.links, new.links
    cables = result.cables
    for link_id in after.keys() - before.keys():
        link = after[link_id]
        cables["added"].append({"id": link_id, "label": cable_label(new, link), "typed": bool(link.label),
                                "a": cable_end(new, link.a_device, link.a_port),
                                "b": cable_end(new, link.b_device, link.b_port)})
    for link_id in before.keys() - after.keys():
        link = before[link_id]
        cables["removed"].append({"id": link_id, "label": cable_label(old, link), "typed": bool(link.label),
                                  "a": cable_end(old, link.a_device, link.a_port),
                                  "b": cable_end(old, link.b_device, link.b_port)})
    names = [f.name for f in fields(Link) if f.name != "id" and f.name not in _CABLE_ENDS]
    for link_id, was in before.items():
        now = after.get(link_id)
        if now is None or now == was:
            continue
        if (was.a_device, was.a_port, was.b_device, was.b_port) != (now.a_device, now.a_port, now.b_device, now.b_port):
            cables["rewired"].append({"id": link_id, "label": cable_label(new, now), "from": {
                "a": cable_end(old, was.a_device, was.a_port), "b": cable_end(old, was.b_device, was.b_port)}, "to": {
                "a": cable_end(new, now.a_device, now.a_port), "b": cable_end(new, now.b_device, now.b_port)}})
        differing = {f: {"old": getattr(was, f), "new": getattr(now, f)} for f in names
                     if getattr(was, f) != getattr(now, f)}
        if differing:
            cables["changed"].append({"id": link_id, "label": cable_label(new, now), "fields": differing})


# ----------------------------------------------------------------------- plan settings
def _field_changes(before: Any, after: Any, names: Iterable[str]) -> dict[str, dict[str, Any]]:
    return {n: {"old": _plain(getattr(before, n)), "new": _plain(getattr(after, n))} for n in names
            if getattr(before, n) != getattr(after, n)}


def _diff_plan_settings(old: Document, new: Document, result: PlanDiff) -> None:
    """The design basis, the title block, the outline and the custom equipment types."""
    for kind, name, before, after in (("basis", "design basis", old.basis, new.basis),
                                      ("title", "title block", old.meta, new.meta)):
        changes = _field_changes(before, after, [f.name for f in fields(before)])
        if changes:
            result.changed.append({"id": kind, "kind": kind, "name": name, "fields": changes})
    if old.outline != new.outline:
        result.changed.append({"id": "outline", "kind": "outline", "name": "hall outline",
                               "fields": {"polygon": {"old": _plain(old.outline), "new": _plain(new.outline)}}})
    types_before = {i.key: i for i in old.catalog.custom_items()}
    types_after = {i.key: i for i in new.catalog.custom_items()}
    for key in types_after.keys() - types_before.keys():
        result.added.append({"id": key, "kind": "type", "name": types_after[key].name, "x": None, "y": None})
    for key in types_before.keys() - types_after.keys():
        result.removed.append({"id": key, "kind": "type", "name": types_before[key].name, "x": None, "y": None})
    for key in types_before.keys() & types_after.keys():
        item_before, item_after = types_before[key], types_after[key]
        changes = _field_changes(item_before, item_after, [f.name for f in fields(item_before)])
        if changes:
            result.changed.append({"id": key, "kind": "type", "name": item_after.name, "fields": changes})
