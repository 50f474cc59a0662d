"""Build dataclasses from parsed JSON, checking every value's type and naming its JSON path.

A hand-written checker rather than a schema library: it reads the dataclass annotations the
model already has, so the file format cannot drift from the model, and it is fast enough for
100k links.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields, is_dataclass
from functools import lru_cache
from typing import Any


class SchemaError(ValueError):
    """A value in the file does not fit the model; ``path`` is its JSON path ($.racks[3].x)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def _describe(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else "null"
    )


@lru_cache(maxsize=None)
def _field_specs(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    hints = typing.get_type_hints(cls)
    return tuple(
        (f.name, hints[f.name], f.default is MISSING and f.default_factory is MISSING)  # type: ignore[misc]
        for f in fields(cls)
    )


def convert(value: Any, hint: Any, path: str) -> Any:
    """Check ``value`` against the annotation ``hint`` and convert it (lists to tuples etc.)."""
    if hint is Any:
        return value
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        errors = []
        for option in options:
            if option is type(None):
                continue
            try:
                return convert(value, option, path)
            except SchemaError as exc:
                errors.append(exc)
        raise errors[0]
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SchemaError(path, f"expected a number, found {_describe(value)}")
        if value != value or value in (float("inf"), float("-inf")):
            raise SchemaError(path, "expected a finite number")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                return int(value)
            raise SchemaError(path, f"expected a whole number, found {_describe(value)}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise SchemaError(path, f"expected a string, found {_describe(value)}")
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise SchemaError(path, f"expected true or false, found {_describe(value)}")
        return value
    if origin is list:
        if not isinstance(value, list):
            raise SchemaError(path, f"expected a list, found {_describe(value)}")
        (item_hint,) = typing.get_args(hint)
        return [convert(item, item_hint, f"{path}[{i}]") for i, item in enumerate(value)]
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list) or len(value) != len(args):
            raise SchemaError(path, f"expected a list of {len(args)} numbers")
        return tuple(convert(item, h, f"{path}[{i}]") for i, (item, h) in enumerate(zip(value, args)))
    if origin is dict:
        if not isinstance(value, dict):
            raise SchemaError(path, f"expected an object, found {_describe(value)}")
        _key_hint, value_hint = typing.get_args(hint)
        return {k: convert(v, value_hint, f"{path}.{k}") for k, v in value.items()}
    if is_dataclass(hint):
        return build(hint, value, path)
    raise SchemaError(path, f"unsupported type {hint!r}")


def build(cls: type, data: Any, path: str) -> Any:
    """Construct ``cls`` from a JSON object, rejecting unknown keys and missing required ones."""
    if not isinstance(data, dict):
        raise SchemaError(path, f"expected an object, found {_describe(data)}")
    specs = _field_specs(cls)
    known = {name for name, _hint, _required in specs}
    for key in data:
        if key not in known:
            raise SchemaError(f"{path}.{key}", "unknown key")
    kwargs = {}
    for name, hint, required in specs:
        if name in data:
            kwargs[name] = convert(data[name], hint, f"{path}.{name}")
        elif required:
            raise SchemaError(f"{path}.{name}", "missing")
    return cls(**kwargs)


def to_json(obj: Any) -> Any:
    """Dataclass → plain JSON value; tuples become lists."""
    if is_dataclass(obj):
        return {f.name: to_json(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items()}
    return obj
