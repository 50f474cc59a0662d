"""Build dataclasses from parsed JSON, checking every value's type and naming its JSON path.

A hand-written checker rather than a schema library: it reads the dataclass annotations the
model already has, so the file format cannot drift from the model. Each annotation is compiled
once into a converter function, and a value's path is only spelled out when it is wrong, so a
plan of 100k links loads in well under a second.
"""

from __future__ import annotations

import math
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from functools import cache
from typing import Any


class SchemaError(ValueError):
    """A value in the file does not fit the model; ``path`` is its JSON path ($.racks[3].x)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class _Mismatch(Exception):
    """A value is wrong; ``suffix`` is its path below the value being converted."""

    def __init__(self, suffix: str, problem: str) -> None:
        super().__init__(problem)
        self.suffix = suffix
        self.problem = problem


Converter = Callable[[Any], Any]


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    return {dict: "an object", list: "a list", str: "a string"}.get(type(value), "null")


def _to_float(value: Any) -> float:
    kind = type(value)
    if kind is float:
        if not math.isfinite(value):
            raise _Mismatch("", "expected a finite number")
        return value
    if kind is int:
        return float(value)
    raise _Mismatch("", f"expected a number, found {_describe(value)}")


def _to_int(value: Any) -> int:
    kind = type(value)
    if kind is int:
        return value
    if kind is float and value.is_integer():
        return int(value)
    raise _Mismatch("", f"expected a whole number, found {_describe(value)}")


def _to_str(value: Any) -> str:
    if type(value) is str:
        return value
    raise _Mismatch("", f"expected a string, found {_describe(value)}")


def _to_bool(value: Any) -> bool:
    if type(value) is bool:
        return value
    raise _Mismatch("", f"expected true or false, found {_describe(value)}")


_SCALARS: dict[Any, Converter] = {float: _to_float, int: _to_int, str: _to_str, bool: _to_bool, Any: lambda v: v}


@cache
def compile_hint(hint: Any) -> Converter:
    """A function that checks and converts a JSON value for the annotation ``hint``."""
    if hint in _SCALARS:
        return _SCALARS[hint]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        nullable = type(None) in args
        options = [compile_hint(a) for a in args if a is not type(None)]

        def union(value: Any) -> Any:
            if value is None and nullable:
                return None
            first: _Mismatch | None = None
            for option in options:
                try:
                    return option(value)
                except _Mismatch as exc:
                    first = first or exc
            assert first is not None
            raise first

        return union
    if origin is list:
        item = compile_hint(args[0])

        def as_list(value: Any) -> list:
            if type(value) is not list:
                raise _Mismatch("", f"expected a list, found {_describe(value)}")
            out = []
            for index, entry in enumerate(value):
                try:
                    out.append(item(entry))
                except _Mismatch as exc:
                    raise _Mismatch(f"[{index}]{exc.suffix}", exc.problem) from None
            return out

        return as_list
    if origin is tuple:
        items = [compile_hint(a) for a in args]

        def as_tuple(value: Any) -> tuple:
            if type(value) is not list or len(value) != len(items):
                raise _Mismatch("", f"expected a list of {len(items)} values")
            out = []
            for index, (entry, conv) in enumerate(zip(value, items)):
                try:
                    out.append(conv(entry))
                except _Mismatch as exc:
                    raise _Mismatch(f"[{index}]{exc.suffix}", exc.problem) from None
            return tuple(out)

        return as_tuple
    if origin is dict:
        value_conv = compile_hint(args[1])

        def as_dict(value: Any) -> dict:
            if type(value) is not dict:
                raise _Mismatch("", f"expected an object, found {_describe(value)}")
            out = {}
            for key, entry in value.items():
                try:
                    out[key] = value_conv(entry)
                except _Mismatch as exc:
                    raise _Mismatch(f".{key}{exc.suffix}", exc.problem) from None
            return out

        return as_dict
    if is_dataclass(hint):
        return lambda value: _build(hint, value)
    raise TypeError(f"unsupported annotation {hint!r}")


@cache
def _field_specs(cls: type) -> tuple[tuple[tuple[str, Converter, bool], ...], frozenset[str]]:
    hints = typing.get_type_hints(cls)
    specs = tuple(
        (f.name, compile_hint(hints[f.name]), f.default is MISSING and f.default_factory is MISSING)
        for f in fields(cls)
    )
    return specs, frozenset(name for name, _conv, _req in specs)


def _build(cls: type, data: Any) -> Any:
    if type(data) is not dict:
        raise _Mismatch("", f"expected an object, found {_describe(data)}")
    specs, known = _field_specs(cls)
    for key in data:
        if key not in known:
            raise _Mismatch(f".{key}", "unknown key")
    kwargs = {}
    for name, conv, required in specs:
        if name in data:
            try:
                kwargs[name] = conv(data[name])
            except _Mismatch as exc:
                raise _Mismatch(f".{name}{exc.suffix}", exc.problem) from None
        elif required:
            raise _Mismatch(f".{name}", "missing")
    return cls(**kwargs)


def build(cls: type, data: Any, path: str) -> Any:
    """Construct ``cls`` from a JSON object at ``path``, rejecting unknown keys and missing ones."""
    try:
        return _build(cls, data)
    except _Mismatch as exc:
        raise SchemaError(path + exc.suffix, exc.problem) from None


def convert(value: Any, hint: Any, path: str) -> Any:
    """Check and convert one value for the annotation ``hint``."""
    try:
        return compile_hint(hint)(value)
    except _Mismatch as exc:
        raise SchemaError(path + exc.suffix, exc.problem) from None
