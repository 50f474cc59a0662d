"""Comparing an answer of the fake NetBox with the answers recorded from the real one."""

from __future__ import annotations

from typing import Any

from netbox_fake import shapes


def differences(want: Any, got: Any, where: str = "") -> list[str]:
    """How ``got`` differs in shape from ``want``: other keys (or another key order) of an
    object or of a nested one, another type of a value. A null on either side is not compared."""
    if want is None or got is None:
        return []
    if isinstance(want, dict) and isinstance(got, dict):
        if list(want) != list(got):
            return [f"{where or 'object'}: keys {list(got)}, recorded {list(want)}"]
        if want.get("object_type", got.get("object_type")) != got.get("object_type"):
            return []  # a cable end of another type: compared where the fake has one of that type
        found = []
        for key in want:
            found += differences(want[key], got[key], f"{where}.{key}")
        return found
    if isinstance(want, list) and isinstance(got, list):
        return differences(want[0], got[0], f"{where}[0]") if want and got else []
    if isinstance(want, bool) != isinstance(got, bool) or (
            not isinstance(want, bool) and type(want) is not type(got)):
        return [f"{where}: {type(got).__name__} {got!r}, recorded {type(want).__name__} {want!r}"]
    return []


def unlike_every_recorded(endpoint: str, got: dict[str, Any]) -> list[str]:
    """Empty when ``got`` has the shape of one of the objects of ``endpoint`` recorded from
    NetBox; else how it differs from the nearest."""
    best: list[str] | None = None
    for name in shapes.ENDPOINTS[endpoint]:
        for recorded in shapes.objects_of(shapes.recorded(name)["response"]):
            found = differences(recorded, got)
            if not found:
                return []
            best = found if best is None or len(found) < len(best) else best
    return best or []
