"""Migrations of older .hall files, one function per version step (``MIGRATIONS[N]``: N → N+1).

Each takes and returns the parsed JSON object before the schema is applied, so it sees the old
shape and only has to make the next one; the loader then checks the result like any file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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


#: version N → function turning a version-N document dict into version N+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _to_version_2}
