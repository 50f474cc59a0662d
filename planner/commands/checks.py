"""The format's bounds applied to edits: a command refuses a value the file would refuse.

Every value a user types reaches the document through a command (SetFields from the
properties dock and the hall-features table, SetAttributes from the design-basis and title-block
dialogs, SetOutline, AddCatalogItem from the custom-type dialog). If a command let 1e308 m or a
control character through, the plan would save but never load again: a lost plan. So the
commands check their values against ``planner.model.bounds`` when they are made and raise
``Refusal`` with the table's words ("x: 1e308 m is outside -10,000 to 10,000 m"), which every
editor already shows in the status bar or a message box. The checks are cheap enough for the
largest edits (re-routing 98k cables sets 300k values): plain comparisons first, the table's
message only for a value that fails them.
"""

from __future__ import annotations

import math
import types
from collections.abc import Iterable
from dataclasses import is_dataclass, replace
from functools import cache
from typing import Any

import msgspec

from planner.model.basis import BASIS_CHOICES
from planner.model.bounds import (
    BAD_LINE_CHAR,
    BAD_MULTILINE_CHAR,
    Range,
    Text,
    field_problem,
    limits,
)
from planner.model.catalog import ALL_KINDS, PROTOCOLS
from planner.model.objects import CABLE_STATES, COLLECTIONS, COMMENT_STATUSES, ROTATIONS, SIDES
from planner.model.physical import basis_problem, item_problem, outline_problem, polygon_problem
from planner.model.typed import decode_type, schema_error


class Refusal(ValueError):
    """An edit that cannot be made, with the reason a user reads in the status bar."""


#: Object fields whose value is one of a few values (the loader refuses anything else).
FIELD_CHOICES: dict[str, tuple[Any, ...]] = {"rotation": ROTATIONS, "side": SIDES, "state": CABLE_STATES,
                                             "status": COMMENT_STATUSES}
_CLASS_OF_PREFIX = {prefix: cls.__name__ for prefix, (_attr, cls) in COLLECTIONS.items()}


@cache
def _quick(cls_name: str, field: str) -> tuple[float, float, type | None, int, bool]:
    """(low, high, number type or None, max characters, multiline) of a field, for the fast check."""
    found = limits(cls_name, field)
    bound = next((x for x in found if isinstance(x, Range)), None)
    text = next((x for x in found if isinstance(x, Text)), None)
    low, high = (bound.low, bound.high) if bound else (-math.inf, math.inf)
    return low, high, float if bound else None, text.max_chars if text else -1, bool(text and text.multiline)


def _fits(cls_name: str, field: str, value: Any) -> bool:
    """Whether ``value`` surely fits (False: ask the table, which may still say it does)."""
    low, high, number, max_chars, multiline = _quick(cls_name, field)
    kind = type(value)
    if number is not None and (kind is float or kind is int):
        return low <= value <= high
    if max_chars >= 0 and kind is str:
        return len(value) <= max_chars and (value.isprintable() or not (
            BAD_MULTILINE_CHAR if multiline else BAD_LINE_CHAR).search(value))
    return value is None


def value_problem(cls_name: str, field: str, value: Any) -> str | None:
    """Why ``value`` cannot be field ``field`` of a ``cls_name``, in the table's words, or None."""
    if field in FIELD_CHOICES and cls_name != "CatalogItem" and value not in FIELD_CHOICES[field]:
        return f"{value!r} is not one of {', '.join(map(str, FIELD_CHOICES[field]))}"
    if cls_name == "DesignBasis" and field in BASIS_CHOICES and value not in BASIS_CHOICES[field]:
        return f"{value!r} is not one of {', '.join(BASIS_CHOICES[field])}"
    if _fits(cls_name, field, value):
        return None
    return field_problem(cls_name, field, value)


def check_fields(values: dict[str, dict[str, Any]]) -> None:
    """Refuse field values (SetFields: {id: {field: value}}) that the file format would refuse.

    Floats inside their range and printable strings within their length pass on a few
    comparisons (re-routing 98k cables checks 300k values); anything else asks ``value_problem``.
    """
    quick: dict[tuple[str, str], tuple[float, float, int]] = {}
    for obj_id, fields in values.items():
        cls_name = _CLASS_OF_PREFIX.get(obj_id.partition("-")[0])
        if cls_name is None:
            continue
        for name, value in fields.items():
            key = (cls_name, name)
            limits_ = quick.get(key)
            if limits_ is None:
                low, high, _number, max_chars, _multiline = _quick(cls_name, name)
                limits_ = quick[key] = (low, high, -1 if name in FIELD_CHOICES else max_chars)
            kind = type(value)
            if kind is float and limits_[0] <= value <= limits_[1]:
                continue
            if kind is str and len(value) <= limits_[2] and value.isprintable():
                continue
            problem = value_problem(cls_name, name, value)
            if problem:
                raise Refusal(f"{name.replace('_', ' ')}: {problem}")
            if name == "polygon":
                problem = polygon_problem(value)
                if problem:
                    raise Refusal(f"polygon: {problem}")


def check_attributes(target: str, values: dict[str, Any], current: Any = None) -> None:
    """Refuse design-basis ("basis") or title-block ("meta") values the format would refuse; with
    the ``current`` design basis, also values that put two fields out of order (a warning above
    its error, ``planner.model.physical.BASIS_ORDER``)."""
    cls_name = {"basis": "DesignBasis", "meta": "Meta"}[target]
    for name, value in values.items():
        problem = value_problem(cls_name, name, value)
        if problem:
            raise Refusal(f"{name.replace('_', ' ')}: {problem}")
    if target == "basis" and current is not None:
        found = basis_problem(replace(current, **values))
        if found:
            raise Refusal(f"{found[0].replace('_', ' ')}: {found[1]}")


def check_outline(points: list[tuple[float, float]]) -> None:
    """Refuse an outline the file format would refuse: 1 or 2 corners, too many, out of bounds,
    no area, crossing itself, wider than a hall."""
    if 0 < len(points) < 3:
        raise Refusal("outline: an outline needs at least 3 corners")
    problem = field_problem("HallFileContent", "outline", [list(p) for p in points]) or outline_problem(points)
    if problem:
        raise Refusal(f"outline: {problem}")


def check_catalog_item(item: Any, builtin: Iterable[str] = ()) -> None:
    """Refuse a custom type the file format would refuse: an unknown kind, a key that clashes
    with a built-in type (``builtin``), or a field outside its bounds."""
    if item.kind not in ALL_KINDS:
        raise Refusal(f"kind: {item.kind!r} is not one of {', '.join(ALL_KINDS)}")
    if item.key in set(builtin):
        raise Refusal(f"key: {item.key!r} is a built-in type")
    if item.protocol not in ("", *PROTOCOLS):
        raise Refusal(f"protocol: {item.protocol!r} is not one of {', '.join(PROTOCOLS)}")
    for name, value in vars(item).items():
        problem = value_problem("CatalogItem", name, value)
        if problem:
            raise Refusal(f"{name.replace('_', ' ')}: {problem}")
    found = item_problem(item)
    if found:
        raise Refusal(f"{found[0].replace('_', ' ')}: {found[1]}")


def check_objects(objects: list[Any]) -> None:
    """Refuse new objects whose numbers or text lengths the format would refuse.

    One msgspec pass per kind of object (a fabric of 98k cables in about 35 ms); control
    characters are not looked for here: new objects are made by code, copied from objects
    already checked, or come from dialogs that check their text.
    """
    by_class: dict[type, list[Any]] = {}
    for obj in objects:
        by_class.setdefault(type(obj), []).append(obj)
    for cls, group in by_class.items():
        try:
            # types.GenericAlias(list, (t,)) is ``list[t]``, spelt out as t is only known at run time.
            msgspec.convert(group, types.GenericAlias(list, (decode_type(cls),)), from_attributes=True)
        except msgspec.ValidationError as exc:
            raise Refusal(_object_problem(exc, cls, group)) from None
        # The objects are the model's dataclass objects: is_dataclass only tells mypy so.
        if is_dataclass(cls) and "polygon" in cls.__dataclass_fields__:
            for obj in group:
                problem = polygon_problem(obj.polygon)
                if problem:
                    raise Refusal(f"{obj.name} polygon: {problem}")


def _object_problem(exc: msgspec.ValidationError, cls: type, group: list[Any]) -> str:
    where = str(exc).rpartition(" - at `$[")[2]
    index = where.split("]", 1)[0]
    obj = group[int(index)] if index.isdigit() else None
    if obj is not None:
        for name, value in vars(obj).items():
            problem = field_problem(cls.__name__, name, value)
            if problem:
                return f"{getattr(obj, 'name', getattr(obj, 'id', type(obj).__name__))} {name.replace('_', ' ')}: {problem}"
    return schema_error(exc).problem
