"""The fake NetBox's objects and the rules of its writes, as NetBox 4.6 applies them.

A write is checked whole before anything changes (NetBox runs each in one transaction): a bulk
create of devices is refused with the first failing object's errors (a dict: DeviceViewSet is
SequentialBulkCreatesMixin), of anything else with a list of errors aligned with the request
(``{}`` for the good ones, DRF's ListSerializer); a bulk PATCH with the failing object's errors.
A device is made with the components of its type's templates (Device._instantiate_components);
a cable's terminations set each end's ``cable`` and ``cable_end``; deleting a device deletes its
components, and a cable on one of them stays with that end empty (dcim/signals.py
nullify_connected_endpoints; recorded in cables.after-device-delete.json). A cable's ends are
listed as NetBox orders them (CableTermination ordering: connector, then id): a cable with a
profile gives each new end the connector of its place in the list written and keeps the
connector of an end it keeps (a new end on a kept one's connector is the database's 500,
error.twin-kept-place); one without lists the ends it keeps first (recorded in
cables.twin*.json, record_twins.py).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from . import shapes
from .schema import (
    CABLED,
    CABLES,
    CASCADE,
    COMPONENT_TEMPLATES,
    COMPUTED,
    DEFAULTS,
    DEVICES,
    FEEDS,
    LOCATIONS,
    MODULES,
    POWER_PORTS,
    PROTECTED,
    RACK_TYPES,
    RACKS,
    RACKTYPE_FIELDS,
    REFS,
    REQUIRED,
    TAGS,
    UNIQUE,
)

Errors = dict[str, list[str]]
TERMINATIONS = ("a_terminations", "b_terminations")


class Refusal(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(status, body)
        self.status, self.body = status, body


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Store:
    """Every object by endpoint and id, in the written shape: foreign keys as ids, a cable's
    ends as ``[(object_type, id)]``."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.data: dict[str, dict[int, dict[str, Any]]] = {endpoint: {} for endpoint in shapes.ENDPOINTS}
        #: (endpoint, field) → referred id → the ids of the objects that refer to it.
        self.children: dict[tuple[str, str], dict[int, set[int]]] = {}
        self._next = 0
        #: Extra refusals a test installs: (endpoint, test of the written object, errors).
        self.refusals: list[tuple[str, Callable[[dict[str, Any]], bool], Errors]] = []

    # ------------------------------------------------------------ lookups
    def get(self, endpoint: str, number: Any) -> dict[str, Any] | None:
        return self.data[endpoint].get(number) if isinstance(number, int) else None

    def referring(self, endpoint: str, field: str, number: int) -> set[int]:
        return self.children.get((endpoint, field), {}).get(number, set())

    def _index(self, endpoint: str, obj: dict[str, Any], add: bool) -> None:
        for field in REFS.get(endpoint, {}):
            target = obj.get(field)
            if isinstance(target, int):
                ids = self.children.setdefault((endpoint, field), {}).setdefault(target, set())
                (ids.add if add else ids.discard)(obj["id"])
        for tag in obj.get("tags") or ():
            ids = self.children.setdefault((endpoint, "tags"), {}).setdefault(tag, set())
            (ids.add if add else ids.discard)(obj["id"])

    def site_of(self, endpoint: str, obj: dict[str, Any]) -> set[int]:
        """The site(s) an object is in (a cable: the sites of its ends)."""
        if "site" in REFS.get(endpoint, {}):
            return {obj["site"]} if obj.get("site") else set()
        if "device" in REFS.get(endpoint, {}):
            device = self.get(DEVICES, obj.get("device"))
            return {device["site"]} if device else set()
        if endpoint == FEEDS:
            panel = self.get("dcim/power-panels", obj.get("power_panel"))
            return {panel["site"]} if panel else set()
        if endpoint == CABLES:
            sites: set[int] = set()
            for kind, number in (*obj["a_terminations"], *obj["b_terminations"]):
                end = self.get(shapes.OBJECT_TYPES[kind], number)
                sites |= self.site_of(shapes.OBJECT_TYPES[kind], end) if end else set()
            return sites
        return set()

    # ------------------------------------------------------------ checks
    def clean(self, endpoint: str, data: Any, current: dict[str, Any] | None,
              pending: list[dict[str, Any]]) -> tuple[dict[str, Any], Errors]:
        """The object ``data`` writes (over ``current`` for a PATCH) and what is wrong with it."""
        errors: Errors = {}
        if not isinstance(data, dict):
            return {}, {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}
        template = shapes.template(endpoint)
        labels = shapes.choices(endpoint)
        refs = REFS.get(endpoint, {})
        values = dict(current) if current is not None else dict(DEFAULTS.get(endpoint, {}))
        for key, value in data.items():
            if key in COMPUTED or (key not in template and key not in TERMINATIONS):
                continue  # read-only or unknown: DRF leaves it out
            if key in refs:
                if isinstance(value, dict) and "id" in value:
                    value = value["id"]
                if value is not None and self.get(refs[key], value) is None:
                    errors[key] = [f"Related object not found using the provided numeric ID: {value}"]
                values[key] = value
            elif key == "tags":
                numbers = [t["id"] if isinstance(t, dict) else t for t in value or []]
                missing = [n for n in numbers if self.get(TAGS, n) is None]
                if missing:
                    errors[key] = [f"Related object not found using the provided numeric ID: {missing[0]}"]
                values[key] = sorted(set(numbers))
            elif key == "profile" and endpoint == CABLES and value in (None, ""):
                errors[key] = [shapes.message("profile-blank", "profile")]
            elif key in TERMINATIONS:
                if value or current is None:  # a PATCH's empty side is left as it is (cables.patch-empty-side)
                    values[key] = self._terminations(value, key, errors)
            elif key in labels and value not in (None, "") and value not in labels[key]:
                errors[key] = [f"{value} is not a valid choice."]
            else:
                values[key] = value
        if current is None:
            for key in REQUIRED.get(endpoint, ()):
                if values.get(key) in (None, ""):
                    errors.setdefault(key, ["This field is required."])
            if endpoint == CABLES and not (values.get("a_terminations") and values.get("b_terminations")):
                errors.setdefault("__all__", ["Must define A and B terminations when creating a new cable."])
        if endpoint == CABLES and values.get("profile") and not errors:
            _profile_limits(values, labels, errors)
        kind = self.get(RACK_TYPES, values.get("rack_type")) if endpoint == RACKS else None
        if kind is not None:  # Rack.copy_racktype_attrs: the type's size over the rack's own (racks.typed)
            values.update({name: kind.get(name) for name in RACKTYPE_FIELDS})
        if not errors:
            self._unique(endpoint, values, pending, errors)
            self._model_clean(endpoint, values, pending, errors)
        for where, test, refusal in self.refusals:
            if where == endpoint and test(values):
                for key, said in refusal.items():
                    errors.setdefault(key, []).extend(said)
        return values, errors

    def _terminations(self, value: Any, key: str, errors: Errors) -> list[tuple[str, int]]:
        ends = []
        for end in value or []:
            kind, number = (end.get("object_type"), end.get("object_id")) if isinstance(end, dict) else (None, None)
            endpoint = shapes.OBJECT_TYPES.get(kind or "")
            if endpoint is None or self.get(endpoint, number) is None:
                errors.setdefault(key, []).append(f"Related object not found: {kind} {number}")
                continue
            ends.append((kind, number))
        return ends

    def _unique(self, endpoint: str, values: dict[str, Any], pending: list[dict[str, Any]], errors: Errors) -> None:
        for fields, key, said in UNIQUE.get(endpoint, []):
            wanted = tuple(_folded(values.get(f)) for f in fields)
            if any(v in (None, "") for v in wanted[-1:]):
                continue
            others = [*(o for o in self.data[endpoint].values() if o["id"] != values.get("id")), *pending]
            if any(tuple(_folded(o.get(f)) for f in fields) == wanted for o in others):
                errors.setdefault(key, []).append(shapes.message(said[9:]) if said.startswith("RECORDED:") else said)

    def _model_clean(self, endpoint: str, values: dict[str, Any], pending: list[dict[str, Any]],
                     errors: Errors) -> None:
        if endpoint == DEVICES:
            rack, location = self.get(RACKS, values.get("rack")), self.get(LOCATIONS, values.get("location"))
            site = self.data["dcim/sites"].get(values.get("site"), {})
            if rack and rack["site"] != values.get("site"):
                errors.setdefault("rack", []).append(f"Rack {rack['name']} does not belong to site {site.get('name')}.")
            if location and location["site"] != values.get("site"):
                errors.setdefault("location", []).append(
                    f"Location {location['name']} does not belong to site {site.get('name')}.")
            if rack and location and rack.get("location") != location["id"]:
                errors.setdefault("rack", []).append(
                    f"Rack {rack['name']} does not belong to location {location['name']}.")
            if values.get("position") and not values.get("face"):
                errors.setdefault("face", []).append("Must specify rack face when defining rack position.")
        if endpoint == MODULES:
            bay = values.get("module_bay")
            if any(o.get("module_bay") == bay for o in pending) or any(
                    number != values.get("id") for number in self.referring(MODULES, "module_bay", bay)):
                # NetBox 4.6.8 does not check it: the database refuses, as a 500 (error.module-bay-occupied)
                body = dict(shapes.error("module-bay-occupied"))
                body["error"] = re.sub(r"=\(\d+\)", f"=({bay})", body["error"])
                raise Refusal(500, body)
        if endpoint == CABLES:
            held = {end: "(another of this request)" for o in pending
                    for end in (*o.get("a_terminations", ()), *o.get("b_terminations", ()))}
            for kind, number in (*values.get("a_terminations", ()), *values.get("b_terminations", ())):
                end = self.get(shapes.OBJECT_TYPES[kind], number) or {}
                holder = end.get("cable") or held.get((kind, number))
                if holder is not None and holder != values.get("id"):
                    errors.setdefault("__all__", []).append(
                        f"Duplicate termination found for {kind} {number}: cable {holder}")

    # ------------------------------------------------------------ writes
    def create(self, endpoint: str, items: list[Any]) -> list[dict[str, Any]]:
        with self.lock:
            made, errors = [], []
            for item in items:
                values, wrong = self.clean(endpoint, item, None, made)
                errors.append(wrong)
                if wrong and endpoint == DEVICES:  # sequential: the first failing object's errors
                    raise Refusal(400, wrong)
                made.append(values)
            if any(errors):
                raise Refusal(400, errors)
            for values in made:
                self._insert(endpoint, values)
            return made

    def _insert(self, endpoint: str, values: dict[str, Any]) -> dict[str, Any]:
        self._next += 1
        ends = {key: values.pop(key, []) for key in TERMINATIONS} if endpoint == CABLES else {}
        values.update(id=self._next, created=now(), last_updated=now())
        self.data[endpoint][values["id"]] = values
        self._index(endpoint, values, True)
        if endpoint == DEVICES:
            self._instantiate_components(values)
        if endpoint == CABLES:
            values.update(a_terminations=[], b_terminations=[], _connectors={})
            self._terminate(values, {key: _placed(values, key, given, True) for key, given in ends.items()})
        return values

    def _instantiate_components(self, device: dict[str, Any]) -> None:
        """The device's components from its type's templates, power ports first (the outlets
        name theirs)."""
        ports: dict[int, int] = {}
        for endpoint, templates in COMPONENT_TEMPLATES.items():
            for number in sorted(self.referring(templates, "device_type", device["device_type"])):
                template = self.data[templates][number]
                component = {key: value for key, value in template.items()
                             if key not in ("id", "device_type", "created", "last_updated", "power_port")}
                component = {**DEFAULTS.get(endpoint, {}), **component, "device": device["id"]}
                if template.get("power_port"):
                    component["power_port"] = ports.get(template["power_port"])
                made = self._insert(endpoint, component)
                if endpoint == POWER_PORTS:  # template ids of other endpoints may be the same numbers
                    ports[number] = made["id"]

    def _terminate(self, cable: dict[str, Any], ends: dict[str, Placed]) -> None:
        """Put ``cable`` on ``ends`` (its a and b sides, placed by ``_placed``), taking it off its old ones."""
        for side, key in (("A", "a_terminations"), ("B", "b_terminations")):
            if key not in ends:
                continue
            for kind, number in cable[key]:
                end = self.get(shapes.OBJECT_TYPES[kind], number)
                if end is not None and end.get("cable") == cable["id"]:
                    end.update(cable=None, cable_end=None)
            cable[key], cable["_connectors"][key] = ends[key]
            for kind, number in cable[key]:
                self.data[shapes.OBJECT_TYPES[kind]][number].update(cable=cable["id"], cable_end=side)

    def update(self, endpoint: str, items: list[Any]) -> list[dict[str, Any]]:
        with self.lock:
            changes = []
            for item in items:
                current = self.get(endpoint, item.get("id")) if isinstance(item, dict) else None
                if current is None:
                    continue  # NetBox leaves out an id it does not have (error.patch-unknown-id.json)
                values, wrong = self.clean(endpoint, item, current, [])
                if wrong:
                    raise Refusal(400, wrong)
                ends: dict[str, Placed] = {}
                if endpoint == CABLES:  # a profile changed: every end made again, in the order written
                    forced = values.get("profile") != current.get("profile")
                    ends = {key: _placed(current, key, values[key], forced) for key in TERMINATIONS
                            if forced or values[key] != current[key]}
                changes.append((current, values, ends))
            done = []
            for current, values, ends in changes:
                self._index(endpoint, current, False)
                if endpoint == CABLES:
                    values.update({key: current[key] for key in TERMINATIONS})
                moved = endpoint == RACKS and (values.get("site"), values.get("location")) != (
                    current.get("site"), current.get("location"))
                current.update(values, last_updated=now())
                self._index(endpoint, current, True)
                if ends:
                    self._terminate(current, ends)
                if moved:  # dcim/signals.py handle_rack_site_change
                    for number in self.referring(DEVICES, "rack", current["id"]):
                        device = self.data[DEVICES][number]
                        self._index(DEVICES, device, False)
                        device.update(site=current["site"], location=current.get("location"))
                        self._index(DEVICES, device, True)
                done.append(current)
            return done

    def delete(self, endpoint: str, items: list[Any]) -> None:
        with self.lock:
            numbers = [i.get("id") for i in items if isinstance(i, dict)]
            doomed: dict[str, set[int]] = {}
            for number in numbers:
                if self.get(endpoint, number) is not None:
                    self._collect(endpoint, number, doomed)
            blockers = [(e, n) for (e, field) in PROTECTED for target in doomed.get(REFS[e][field], ())
                        for n in self.referring(e, field, target) if n not in doomed.get(e, set())]
            if blockers:
                names = ", ".join(f"{self.data[e][n].get('name') or n} ({n})" for e, n in blockers[:5])
                raise Refusal(409, {"detail": f"Unable to delete object. {len(blockers)} dependent objects were "
                                              f"found: {names}"})
            for kind, ids in doomed.items():
                for number in ids:
                    self._remove(kind, number)

    def _collect(self, endpoint: str, number: int, doomed: dict[str, set[int]]) -> None:
        if number in doomed.setdefault(endpoint, set()):
            return
        doomed[endpoint].add(number)
        for child, field in CASCADE:
            if REFS[child][field] == endpoint:
                for inner in list(self.referring(child, field, number)):
                    self._collect(child, inner, doomed)

    def _remove(self, endpoint: str, number: int) -> None:
        obj = self.data[endpoint].pop(number, None)
        if obj is None:
            return
        self._index(endpoint, obj, False)
        if endpoint == CABLES:
            for kind, end in (*obj["a_terminations"], *obj["b_terminations"]):
                target = self.get(shapes.OBJECT_TYPES[kind], end)
                if target is not None:
                    target.update(cable=None, cable_end=None)
        elif endpoint in CABLED and obj.get("cable"):
            cable = self.data[CABLES].get(obj["cable"])
            if cable is not None:  # the cable stays, without this end
                kind = shapes.ENDPOINT_TYPES[endpoint]
                for key in TERMINATIONS:
                    cable[key] = [end for end in cable[key] if end != (kind, number)]


#: A cable side's ends in NetBox's order, and each one's connector (None without a profile).
Placed = tuple[list[tuple[str, int]], dict[tuple[str, int], int | None]]


def _placed(cable: dict[str, Any], key: str, given: list[tuple[str, int]], forced: bool) -> Placed:
    """A cable side's ends after a write of ``given`` (module docstring); Refusal 500 where a new
    end would take the connector of one kept."""
    profiled = bool(cable.get("profile"))
    if forced:
        return list(given), {end: place + 1 if profiled else None for place, end in enumerate(given)}
    before = cable.get("_connectors", {}).get(key, {})
    now = [end for end in cable.get(key, []) if end in given]
    connectors = {end: before.get(end) for end in now}
    for place, end in enumerate(given):
        if end in connectors:
            continue
        connector = place + 1 if profiled else None
        if connector is not None and connector in connectors.values():
            body = dict(shapes.error("twin-kept-place"))
            body["error"] = re.sub(r"=\(\d+, [AB], \d+\)", f"=({cable['id']}, {key[0].upper()}, {connector})",
                                   body["error"])
            raise Refusal(500, body)
        connectors[end] = connector
        now.append(end)
    if profiled:
        now.sort(key=lambda end: connectors[end] or 0)
    return now, connectors


def _profile_limits(values: dict[str, Any], labels: dict[str, dict[Any, str]], errors: Errors) -> None:
    """A trunk profile's connectors a side (``trunk-2c1p``: 2), as NetBox's profile ``clean``
    counts them against a cable's ends (error.twin-three)."""
    found = re.match(r"(?:trunk|single)-(\d+)c", values["profile"])
    if found is None:
        return
    limit = int(found.group(1))
    label = labels.get("profile", {}).get(values["profile"], values["profile"])
    for side, key in (("A", "a_terminations"), ("B", "b_terminations")):
        count = len(values.get(key) or ())
        if count > limit:
            errors.setdefault(key, []).append(f"{side} side of cable has {count} terminations but only {limit} "
                                              f"are permitted for profile {label}")


def _folded(value: Any) -> Any:
    return value.casefold() if isinstance(value, str) else value
