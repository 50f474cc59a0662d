"""A pulled site laid onto the plan that was pushed there (``planner netbox pull --onto PLAN``),
so that ``planner diff PLAN PULLED`` lists what changed in NetBox and ``planner merge`` can take
it into the plan.

Objects are matched by identity: the NetBox id PLAN recorded at its push (``Document.netbox.ids``)
names the plan object a NetBox object is. The result is PLAN with, for each matched object, the
fields NetBox holds taken from NetBox, and the rest kept:

- rack: its name (and its feeds A and B, by the power panels they are on); the floor position,
  rotation, row and CDU loop stay;
- device: rack, U, name and hostname, and its type where NetBox's maps to another catalogue type;
- cable: its ends, label, stock length, media and installation state, each only where NetBox's
  says something else than PLAN's would have been written as (a length NetBox stores to 2
  places, a twin cable's as the longer of its two port-cables, a state NetBox holds as planned
  or connected: a verified cable stays verified while NetBox says connected); the routed length
  and the tier stay;
- busbar run (a power panel), floor unit (a row CDU, a power cabinet: a device in no rack): its
  name; its place and type stay.

An object NetBox has that PLAN does not know comes in with a fresh id; one PLAN recorded that
NetBox no longer has is taken out (and what lives in it: a removed device's cables and hoses);
what NetBox never held (zones, coolant loops and hoses, comments, the design basis) stays as it is.
The NetBox ids recorded are the pull's, and the push's for what a pull does not read (the site, its
locations, the cables from PDU inlets to feeds) while what they belong to is still there.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from planner.export.netbox_twins import cable_of, twin_records
from planner.io.netbox_names import CABLE_TYPES, cable_status
from planner.model.document import Document
from planner.model.labels import cable_label
from planner.model.networks import network_of
from planner.model.objects import COLLECTIONS, NetBoxRecord
from planner.model.ports import COOLANT
from planner.model.references import reference_names

#: The collections NetBox holds: only these are matched, added and taken out.
HELD = ("racks", "devices", "floor_units", "links", "busbars")


def _cable_fields(theirs: Any, ours: Any, pulled: Document, base: Document, stock: dict[str, float]) -> dict[str, Any]:
    """``stock``: the length NetBox holds for a port-cable of a twin cable (the longer of its
    two: ``twin_stock``), where it is one."""
    values: dict[str, Any] = {}
    for name in ("a_device", "a_port", "b_device", "b_port"):
        if getattr(theirs, name) != getattr(ours, name):
            values[name] = getattr(theirs, name)
    # NetBox holds the label the push wrote (a derived one too): a change only when it differs
    # from that, so a device moved in NetBox does not turn its cables' labels into typed ones.
    label = cable_label(pulled, theirs)
    if label != cable_label(base, ours):
        values["label"] = label
    if round(stock.get(ours.id, ours.stock_m), 2) != theirs.stock_m:
        values["stock_m"] = theirs.stock_m
    if cable_status(ours.state) != cable_status(theirs.state):
        values["state"] = theirs.state
    if theirs.media and CABLE_TYPES.get(ours.media) != CABLE_TYPES.get(theirs.media):
        values["media"] = theirs.media
    return values


def twin_stock(base: Document) -> dict[str, float]:
    """Port-cable id → the stock length of its twin cable (its longest port-cable), for the
    cables of ``base`` that NetBox holds as twin cables (``netbox_twins``)."""
    twins = twin_records(base.netbox.ids)
    longest: dict[int, float] = {}
    for key in twins:
        if key in base.links:
            number = cable_of(base.netbox.ids[key])
            longest[number] = max(longest.get(number, 0.0), base.links[key].stock_m)
    return {key: longest[cable_of(base.netbox.ids[key])] for key in twins if key in base.links}


def _fields(attr: str, theirs: Any, ours: Any, doc: Document, base: Document, stock: dict[str, float]) -> dict[str, Any]:
    """The fields of a matched object that NetBox's version changes (module docstring)."""
    if attr == "racks":
        return {name: getattr(theirs, name) for name in ("name", "feed_a", "feed_b") if getattr(theirs, name) != getattr(ours, name)}
    if attr == "devices":
        values = {name: getattr(theirs, name) for name in ("rack", "u", "name", "hostname")
                  if getattr(theirs, name) != getattr(ours, name)}
        if theirs.type != ours.type and not doc.catalog[theirs.type].custom:
            values["type"] = theirs.type
        return values
    if attr == "links":
        return _cable_fields(theirs, ours, doc, base, stock)
    return {"name": theirs.name} if theirs.name != ours.name else {}


def onto(pulled: Document, base: Document) -> tuple[Document, list[str]]:
    """``base`` with what ``pulled`` (a ``planner.netbox.pull`` of its site) says (module
    docstring), and notes on what came in or went out."""
    # pulled id → base id, for every pulled object whose NetBox id (of its kind) the base recorded
    base_of = {(plan_id.split("-", 1)[0], number): plan_id for plan_id, number in base.netbox.ids.items()
               if "/" not in plan_id}
    mapping = {pid: base_of[key] for pid, number in pulled.netbox.ids.items()
               if "/" not in pid and (key := (pid.split("-", 1)[0], number)) in base_of}
    recorded = set(base.netbox.ids)
    notes: list[str] = []
    collections: dict[str, dict[str, Any]] = {attr: dict(getattr(base, attr)) for attr, _cls in COLLECTIONS.values()}
    fresh: dict[str, str] = {}
    numbers: dict[str, int] = {}
    for prefix, (attr, _cls) in COLLECTIONS.items():
        taken = [int(i.split("-", 1)[1]) for i in collections[attr] if i.split("-", 1)[1].isdigit()]
        numbers[prefix] = max(taken, default=0)
    for prefix, (attr, _cls) in COLLECTIONS.items():
        if attr not in HELD:
            continue
        for pid in getattr(pulled, attr):
            if pid not in mapping:
                numbers[prefix] += 1
                fresh[pid] = f"{prefix}-{numbers[prefix]}"
    ids = {**mapping, **fresh}
    stock = twin_stock(base)

    def ours(value: Any) -> Any:
        return ids.get(value, value) if isinstance(value, str) else value

    for attr in HELD:
        seen = set()
        added = 0
        for pid, obj in getattr(pulled, attr).items():
            moved = replace(obj, **{name: ours(getattr(obj, name)) for name in _id_fields(obj)})
            seen.add(moved.id)
            if moved.id in collections[attr]:
                change = _fields(attr, obj if attr == "links" else moved, collections[attr][moved.id], pulled, base,
                                 stock)
                if attr == "links":
                    change = {name: ours(value) for name, value in change.items()}
                if change:
                    collections[attr][moved.id] = replace(collections[attr][moved.id], **change)
            else:
                collections[attr][moved.id] = moved
                added += 1
        gone = [oid for oid in collections[attr] if oid not in seen and oid in recorded]
        for oid in gone:
            del collections[attr][oid]
        if added or gone:
            notes.append(f"{attr}: {added} new in NetBox, {len(gone)} taken out in NetBox")
    devices = collections["devices"]
    collections["devices"] = {i: d for i, d in devices.items() if d.rack in collections["racks"]}
    kept = {i: link for i, link in collections["links"].items()
            if link.a_device in collections["devices"] and link.b_device in collections["devices"]}
    lost_hoses = sum(network_of(link) == COOLANT for i, link in collections["links"].items() if i not in kept)
    if lost_hoses:
        notes.append(f"{lost_hoses} coolant hose(s) of devices taken out in NetBox went with them")
    collections["links"] = kept
    doc = Document.from_collections({attr: objs.values() for attr, objs in collections.items()}, base.catalog)
    for item in pulled.catalog.custom_items():
        if item.key not in doc.catalog:
            doc.catalog.add(item)
    doc.meta, doc.basis, doc.outline = base.meta, base.basis, base.outline
    pulled_ids = {ids.get(owner, owner) + (f"/{part}" if part else ""): number
             for key, number in pulled.netbox.ids.items() for owner, _slash, part in (key.partition("/"),)}
    # what the pull does not read back (the site, locations, feed cables) stays as the push
    # recorded it, while what it belongs to is still in the plan
    kept = {key: number for key, number in base.netbox.ids.items()
            if key not in pulled_ids and _still_there(doc, key.partition("/")[0])}
    doc.netbox = NetBoxRecord(pulled.netbox.url, pulled.netbox.site, {**kept, **pulled_ids})
    return doc, notes


def _still_there(doc: Document, owner: str) -> bool:
    """Whether the plan object a NetBox record belongs to is in ``doc`` (a site's, a location's
    belongs to no plan object: always)."""
    found = COLLECTIONS.get(owner.split("-", 1)[0])
    return found is None or "-" not in owner or owner in getattr(doc, found[0])


def _id_fields(obj: Any) -> tuple[str, ...]:
    return ("id", *reference_names(type(obj)))
