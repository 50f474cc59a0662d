"""Migrations of older .hall files, one function per version step (``MIGRATIONS[N]``: N → N+1).

Each takes and returns the parsed JSON object before the schema is applied, so it sees the old
shape and only has to make the next one; the loader then checks the result like any file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from planner.model.basis import ASHRAE_CLASSES, DesignBasis
from planner.model.catalog import ETHERNET, INFINIBAND, SWITCH
from planner.model.labels import SEPARATOR


def _listed(data: dict[str, Any], key: str) -> list[Any]:
    """A collection as the migration may walk it: anything but a list is left for the schema to
    refuse with its path (a migration must not be the step that crashes on a malformed file)."""
    value = data.get(key)
    return value if isinstance(value, list) else []


def _derived_labels(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2: ``Link.label`` holds only a typed label. Version 1 stored every label, so one
    equal to what its ends give is dropped (it is derived again, and now follows its ends); one
    that differs stays as typed, and N10 says when it no longer names its ends."""
    racks = {r.get("id"): r.get("name") for r in _listed(data, "racks") if isinstance(r, dict)}
    ends = {}
    for device in _listed(data, "devices"):
        if isinstance(device, dict) and isinstance(device.get("u"), int):
            ends[device.get("id")] = (racks.get(device.get("rack"), device.get("rack")), device.get("u"),
                                      device.get("name"))
    for link in _listed(data, "links"):
        if not isinstance(link, dict) or not link.get("label"):
            continue
        a, b = ends.get(link.get("a_device")), ends.get(link.get("b_device"))
        if a is None or b is None:
            continue
        derived = (f"{a[0]}-U{a[1]:02d}-{a[2]}-{link.get('a_port')}{SEPARATOR}"
                   f"{b[0]}-U{b[1]:02d}-{b[2]}-{link.get('b_port')}")
        if link["label"] == derived:
            link["label"] = ""
    return data


def _switch_protocols(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2: a switch type states its protocol. A custom switch of version 1 speaks what its
    plan's fabric kind says (the design basis was the only place the protocol was written)."""
    basis = data.get("basis")
    kind = basis.get("fabric_kind") if isinstance(basis, dict) else None
    for item in _listed(data, "catalog"):
        if isinstance(item, dict) and item.get("kind") == SWITCH and not item.get("protocol"):
            item["protocol"] = INFINIBAND if kind in (None, INFINIBAND) else ETHERNET  # as the routers read it
    return data


def _to_version_2(data: dict[str, Any]) -> dict[str, Any]:
    return _switch_protocols(_derived_labels(data))


#: Fields where version 2 wrote 0 for "not given" and version 3 writes null (``planner.model.physical``).
NOT_GIVEN_FIELDS = {
    "zones": ("tile_rating_kn", "rolling_rating_kn", "air_capacity_kw"),
    "catalog": ("max_load_kg", "max_power_kw", "tapoff_rating_a", "tapoff_whip_m", "voltage_v"),
}


def _ashrae_class(basis: Any) -> None:
    """Version 3: the design basis names the facility water's ASHRAE class (C9). A version-2 plan
    gets the smallest class its facility supply temperature fits, so it loads as it was meant."""
    if not isinstance(basis, dict) or "ashrae_class" in basis:
        return
    supply = basis.get("facility_supply_c", DesignBasis.facility_supply_c)
    if not isinstance(supply, int | float) or isinstance(supply, bool):
        return  # the schema refuses it with its path
    basis["ashrae_class"] = next((name for name, top in ASHRAE_CLASSES.items() if top is not None and supply <= top),
                                 "W+")


def _to_version_3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3: absent is null, never 0. A version-2 zone with tile rating 0 was slab floor, a
    rack rated 0 kW or a busbar at 0 V was not rated (the basis voltage applied): those zeros become
    null, so the rules say what they did not check. Any other 0 the loader then refuses with its
    range (a 0 A busbar or a 0 kPa floor has no version-2 meaning either: the check was off)."""
    _ashrae_class(data.get("basis"))
    for key, names in NOT_GIVEN_FIELDS.items():
        for entry in _listed(data, key):
            if not isinstance(entry, dict):
                continue
            for name in names:
                value = entry.get(name)
                if type(value) in (int, float) and value == 0:
                    entry[name] = None
    return data


#: version N → function turning a version-N document dict into version N+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _to_version_2, 2: _to_version_3}
