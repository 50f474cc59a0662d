"""``planner netbox push``: make a NetBox site hold what the plan holds, over the REST API.

In dependency order (``planner.netbox.wanted``): what every hall shares (tags, manufacturers,
device roles, rack types, device types with their component templates, module types) is created
where it is missing and otherwise left as it is, so a second hall goes into a NetBox that holds
the first; then the
hall's own site, locations, racks, devices, power panels and feeds, each found again by the
NetBox id the plan recorded at the last push (so a rename is an update) or by its name in the
site, created when missing, updated where a field differs, and deleted when the plan recorded it
and no longer has it. Then the transceivers in the devices' module bays
(``planner.netbox.push_modules``), and the cables last (``planner.netbox.push_cables``).

Each list goes in one request per chunk of NetBox's bulk endpoints. ``dry_run`` reads the server
and reports what would change without writing anything. After a push the plan's
``Document.netbox`` holds the server, the site and the id of every object there; the caller
saves it, so the next push updates what this one made.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from planner.model.document import Document
from planner.netbox.client import NetBoxClient, NetBoxError
from planner.netbox.compare import differing, resolved
from planner.netbox.push_cables import push_cables
from planner.netbox.push_modules import push_modules
from planner.netbox.wanted import (
    CABLES,
    DEVICE_TYPES,
    LOCATIONS,
    MODULE_TYPES,
    OWN,
    SHARED,
    SITES,
    TEMPLATES,
    Ref,
    Wanted,
    WantedHall,
    wanted_hall,
)

#: The field that finds a shared object again, where it is not the slug.
SHARED_KEYS = {MODULE_TYPES: "model"}
#: How a NetBox object of each of the hall's endpoints is keyed, as ``Wanted.key`` keys it.
NATURAL_KEYS: dict[str, Callable[[dict[str, Any]], tuple[str, ...]]] = {
    SITES: lambda o: (o["slug"],),
    LOCATIONS: lambda o: (o["slug"],),
    "dcim/racks": lambda o: (o["name"],),
    "dcim/devices": lambda o: (o.get("name") or "",),
    "dcim/power-panels": lambda o: (o["name"],),
    "dcim/power-feeds": lambda o: ((o.get("power_panel") or {}).get("name", ""), o["name"]),
}


def endpoint_of_key(plan_key: str) -> str:
    """The endpoint of an object by its key in ``Document.netbox.ids`` (``wanted`` names them)."""
    if plan_key == "site":
        return SITES
    if plan_key.startswith("location"):
        return LOCATIONS
    owner, _slash, part = plan_key.partition("/")
    prefix = owner.split("-", 1)[0]
    if part:
        return "dcim/power-feeds" if prefix == "rack" and part in ("A", "B") else CABLES
    return {"rack": "dcim/racks", "dev": "dcim/devices", "fu": "dcim/devices", "bus": "dcim/power-panels",
            "link": CABLES}.get(prefix, "")


class PushError(Exception):
    """The plan cannot be pushed (a name NetBox would refuse, a reference it cannot resolve)."""


@dataclass
class PushReport:
    """What a push did (or, dry, would do), by endpoint."""

    url: str
    version: str
    site: str
    dry_run: bool
    created: Counter[str] = field(default_factory=Counter)
    updated: Counter[str] = field(default_factory=Counter)
    deleted: Counter[str] = field(default_factory=Counter)
    unchanged: Counter[str] = field(default_factory=Counter)
    existing: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    requests: dict[str, int] = field(default_factory=dict)
    #: Seconds spent waiting on NetBox, by endpoint (the server's share of ``seconds``).
    waited: dict[str, float] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"netbox": self.url, "version": self.version, "site": self.site, "dry_run": self.dry_run,
                "created": dict(self.created), "updated": dict(self.updated), "deleted": dict(self.deleted),
                "unchanged": dict(self.unchanged), "shared_existing": dict(self.existing), "notes": self.notes,
                "seconds": round(self.seconds, 1), "requests": self.requests,
                "waited": {endpoint: round(t, 1) for endpoint, t in self.waited.items()}}

    def text(self) -> str:
        verb = "Would push" if self.dry_run else "Pushed"
        lines = [f"{verb} site {self.site!r} to NetBox {self.version} at {self.url}"
                 + ("" if self.dry_run else f" in {self.seconds:.1f} s ({sum(self.requests.values())} requests)")]
        for word, counts in (("create", self.created), ("update", self.updated), ("delete", self.deleted)):
            if +counts:
                done = word if self.dry_run else word + "d"
                lines.append(f"  {done}: {_counts(counts)}")
        if +self.unchanged:
            lines.append(f"  unchanged: {_counts(self.unchanged)}")
        if +self.existing:
            lines.append(f"  already in NetBox (shared, left as they are): {_counts(self.existing)}")
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _counts(counts: Counter[str]) -> str:
    return ", ".join(f"{n:,} {endpoint.split('/')[-1].replace('-', ' ')}" for endpoint, n in counts.items() if n)


class Sync:
    """One push: the NetBox ids found or made so far, by endpoint and natural key."""

    def __init__(self, doc: Document, client: NetBoxClient, hall: WantedHall, report: PushReport) -> None:
        self.doc, self.client, self.hall, self.report = doc, client, hall, report
        self.ids: dict[str, dict[tuple[str, ...], int]] = {}
        self.recorded = dict(doc.netbox.ids) if doc.netbox.url == client.url else {}
        self.new_ids: dict[str, int] = {}
        #: NetBox ids of objects the plan recorded and no longer has, deleted after the cables.
        self.gone: dict[str, list[int]] = {}
        #: Placeholder ids of what a dry run would create (negative: never a NetBox id).
        self._placeholder = 0

    def resolve(self, value: Any) -> Any:
        return resolved(value, self.ids)

    def placeholder(self) -> int:
        self._placeholder -= 1
        return self._placeholder

    # ------------------------------------------------------------ shared
    def shared(self, endpoint: str) -> None:
        wanted = self.hall.objects.get(endpoint, [])
        key = SHARED_KEYS.get(endpoint, "slug")  # a module type has no slug: its model is unique
        there: dict[tuple[str, ...], int] = {(o[key],): o["id"] for o in self.client.get_all(endpoint, fields=("id", key))}
        self.ids[endpoint] = dict(there)
        missing = [w for w in wanted if w.key not in there]
        self.report.existing[endpoint] += len(wanted) - len(missing)
        if not missing:
            return
        self.report.created[endpoint] += len(missing)
        if self.report.dry_run:
            self.ids[endpoint].update({w.key: self.placeholder() for w in missing})
            for template in TEMPLATES if endpoint == DEVICE_TYPES else ():
                self.report.created[template] += sum(len(w.extra[template]) for w in missing)
            return
        made = self.client.create(endpoint, [self.resolve(w.fields) for w in missing])
        self.ids[endpoint].update({w.key: obj["id"] for w, obj in zip(missing, made, strict=True)})
        if endpoint == DEVICE_TYPES:
            self._templates(missing)

    def _templates(self, types: list[Wanted]) -> None:
        """The component templates of new device types: power ports first (outlets name theirs)."""
        port_ids: dict[tuple[int, str], int] = {}
        for endpoint in TEMPLATES:
            rows: list[dict[str, Any]] = []
            for wanted in types:
                type_id = self.ids[DEVICE_TYPES][wanted.key]
                for component in wanted.extra[endpoint]:
                    row = {**component, "device_type": type_id}
                    if "power_port" in row:
                        row["power_port"] = port_ids.get((type_id, row["power_port"]))
                    rows.append(row)
            made = self.client.create(endpoint, rows) if rows else []
            if endpoint == "dcim/power-port-templates":
                port_ids = {(row["device_type"], row["name"]): obj["id"] for row, obj in zip(rows, made, strict=True)}
            self.report.created[endpoint] += len(rows)

    # --------------------------------------------------------------- own
    def own(self, endpoint: str, site_id: int) -> None:
        wanted = self.hall.objects.get(endpoint, [])
        key_of = NATURAL_KEYS[endpoint]
        names = sorted({name for w in wanted for name in w.fields} | {"id"})
        if endpoint == SITES:
            there = self.client.get_all(endpoint, fields=names, slug=wanted[0].key[0])
        else:
            there = self.client.get_all(endpoint, fields=[*names, *(["power_panel"] if endpoint.endswith("feeds") else [])],
                                     site_id=site_id)
        by_id = {o["id"]: o for o in there}
        by_key = {key_of(o): o for o in there}
        self.ids[endpoint] = {}
        creates, updates, matched = [], [], set()
        for item in wanted:
            known = self.recorded.get(item.plan_key)
            found = by_id.get(known) if known is not None else None
            found = found if found is not None and found["id"] not in matched else by_key.get(item.key)
            if found is None or found["id"] in matched:
                creates.append(item)
                continue
            matched.add(found["id"])
            self.ids[endpoint][item.key] = found["id"]
            self.new_ids[item.plan_key] = found["id"]
            change = differing(self.resolve(item.fields), found)
            if change:
                updates.append({"id": found["id"], **change})
            else:
                self.report.unchanged[endpoint] += 1
        recorded = self.recorded_ids(endpoint)
        self.gone[endpoint] = [o["id"] for o in there if o["id"] not in matched and o["id"] in recorded]
        self.write(endpoint, creates, updates)

    def recorded_ids(self, endpoint: str) -> set[int]:
        """The NetBox ids the plan recorded for objects of ``endpoint`` (at the last push)."""
        return {number for key, number in self.recorded.items() if endpoint_of_key(key) == endpoint}

    def write(self, endpoint: str, creates: list[Wanted], updates: list[dict[str, Any]]) -> None:
        report = self.report
        self.ids.setdefault(endpoint, {})
        report.created[endpoint] += len(creates)
        report.updated[endpoint] += len(updates)
        if report.dry_run:
            for item in creates:
                self.ids[endpoint][item.key] = self.placeholder()
            return
        if updates:
            self.client.update(endpoint, updates)
        while creates:  # in passes: a location inside another is made after it
            ready = [item for item in creates if self._resolvable(item.fields)]
            if not ready:
                raise PushError(f"{endpoint}: {creates[0].name} refers to what the plan does not have")
            made = self.client.create(endpoint, [self.resolve(item.fields) for item in ready])
            for item, obj in zip(ready, made, strict=True):
                self.ids[endpoint][item.key] = obj["id"]
                self.new_ids[item.plan_key] = obj["id"]
            creates = [item for item in creates if item.key not in self.ids[endpoint]]

    def _resolvable(self, value: Any) -> bool:
        if isinstance(value, Ref):
            return value.key in self.ids.get(value.endpoint, {})
        if isinstance(value, dict):
            return all(self._resolvable(inner) for inner in value.values())
        if isinstance(value, list):
            return all(self._resolvable(inner) for inner in value)
        return True


def push(doc: Document, client: NetBoxClient, site: str = "", location: str = "", dry_run: bool = False,
         modules: bool = True) -> PushReport:
    """Push ``doc`` to the NetBox ``client`` talks to (module docstring); records the NetBox ids
    in ``doc.netbox`` unless ``dry_run``. ``modules`` false leaves the transceivers out (NetBox 4.6
    makes a module in about 80 ms: the 35k of a 1,024-node hall take most of an hour); the device
    types' module bays are there either way. Raises PushError or NetBoxError."""
    started = time.perf_counter()
    hall = wanted_hall(doc, site, location, modules)
    if hall.problems:
        more = f" (and {len(hall.problems) - 3} more)" if len(hall.problems) > 3 else ""
        raise PushError("NetBox would refuse this plan: " + "; ".join(hall.problems[:3]) + more)
    report = PushReport(client.url, client.version(), hall.site, dry_run)
    sync = Sync(doc, client, hall, report)
    for endpoint in SHARED:
        sync.shared(endpoint)
    sync.own(SITES, 0)
    site_id = sync.ids[SITES][hall.objects[SITES][0].key]
    for endpoint in OWN[1:]:
        if site_id < 0:  # a dry run for a new site: everything is new
            sync.write(endpoint, hall.objects.get(endpoint, []), [])
        else:
            sync.own(endpoint, site_id)
    if modules:
        push_modules(sync, site_id)
    else:
        report.notes.append("transceiver modules left out (--no-modules)")
    push_cables(sync, site_id)
    for endpoint in reversed(OWN[1:]):  # what the plan took out, after the cables on it
        gone = sync.gone.get(endpoint, [])
        report.deleted[endpoint] += len(gone)
        if gone and not dry_run:
            client.delete(endpoint, gone)
    report.seconds = time.perf_counter() - started
    report.requests = dict(client.requests)
    report.waited = dict(client.seconds)
    if not dry_run:
        doc.netbox.url, doc.netbox.site = client.url, hall.site
        doc.netbox.ids = sync.new_ids
    return report


__all__ = ["NetBoxError", "PushError", "PushReport", "Ref", "push"]
