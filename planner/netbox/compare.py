"""Whether a NetBox object already holds what the plan wants: the REST API reads a field in
another shape than it writes it (``netbox/netbox/api/fields.py`` ChoiceField reads
``{"value", "label"}``; a related object reads as its nested brief form with an ``id``; decimals
read as numbers; tags as a list of nested tags), so each read value is brought to the written
shape before the two are compared."""

from __future__ import annotations

from typing import Any

from planner.netbox.wanted import Ref


def resolved(value: Any, ids: dict[str, dict[tuple[str, ...], int]]) -> Any:
    """``value`` with every ``Ref`` replaced by the NetBox id of what it names (KeyError when
    that is not there yet: the order of the push is wrong)."""
    if isinstance(value, Ref):
        return ids[value.endpoint][value.key]
    if isinstance(value, dict):
        return {key: resolved(inner, ids) for key, inner in value.items()}
    if isinstance(value, list):
        return [resolved(inner, ids) for inner in value]
    return value


def as_written(value: Any) -> Any:
    """A value read from the API in the shape it is written in."""
    if isinstance(value, dict):
        if "id" in value:
            return value["id"]
        if "value" in value:
            return value["value"]
        return value
    if isinstance(value, list):
        return sorted(as_written(inner) for inner in value)
    return value


def _same(wanted: Any, found: Any) -> bool:
    if wanted in (None, "") and found in (None, ""):
        return True
    if isinstance(wanted, list):
        return isinstance(found, list) and sorted(wanted) == found
    if isinstance(wanted, bool) or isinstance(found, bool):
        return wanted == found
    if isinstance(wanted, int | float) and isinstance(found, int | float | str):
        try:
            return round(float(wanted), 2) == round(float(found), 2)
        except ValueError:
            return False
    return bool(wanted == found)


def differing(wanted: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``wanted`` (resolved) that ``found`` (as read) does not hold, as a PATCH."""
    return {name: value for name, value in wanted.items() if not _same(value, as_written(found.get(name)))}
