"""Check parsed or raw JSON against the model's dataclasses, naming the JSON path of a bad value.

msgspec does the checking in C: it decodes JSON straight into typed objects and reports a bad
value with its path (``$.racks[3].x``). It cannot refuse unknown keys of a plain dataclass,
though, so each model dataclass gets a mirror ``msgspec.Struct`` that forbids them. The mirror
is derived from the dataclass's annotations at first use, never written by hand, so the file
format cannot drift from the model; ``model_builder`` turns decoded mirrors back into the
model's dataclasses. Floats must be finite (a JSON file cannot hold NaN or infinity).
"""

from __future__ import annotations

import re
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from functools import cache
from itertools import starmap
from typing import Annotated, Any

import msgspec

#: A float that must be finite: NaN fails both bounds, ±infinity one of them.
FiniteFloat = Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]

Builder = Callable[[Any], Any]


class SchemaError(ValueError):
    """A value in the file does not fit the model; ``path`` is its JSON path ($.racks[3].x)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


# ------------------------------------------------------------- decode types
@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def decode_type(hint: Any) -> Any:
    """The msgspec type that checks JSON for the annotation ``hint`` (a dataclass → its mirror)."""
    if hint is float:
        return FiniteFloat
    if hint in (int, str, bool, Any, type(None)):
        return hint
    if is_dataclass(hint):
        return _mirror(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(decode_type(a) for a in args)]  # noqa: UP007 (built at run time)
    if origin is list:
        return list[decode_type(args[0])]
    if origin is tuple:
        return tuple[tuple(decode_type(a) for a in args)]
    if origin is dict:
        return dict[decode_type(args[0]), decode_type(args[1])]
    raise TypeError(f"unsupported annotation {hint!r}")


def _mirror(cls: type) -> type[msgspec.Struct]:
    hints = _hints(cls)
    spec: list[tuple[Any, ...]] = []
    for f in fields(cls):
        kind = decode_type(hints[f.name])
        if f.default is not MISSING:
            spec.append((f.name, kind, f.default))
        elif f.default_factory is not MISSING:
            factory = f.default_factory
            default = decode_type(factory) if is_dataclass(factory) else factory  # Meta() → its mirror
            spec.append((f.name, kind, msgspec.field(default_factory=default)))
        else:
            spec.append((f.name, kind))
    # gc=False: decoded mirrors hold only JSON values, never a cycle, and are dropped at once.
    return msgspec.defstruct(f"{cls.__name__}Json", spec, forbid_unknown_fields=True, gc=False)


# ------------------------------------------------------------ model objects
@cache
def model_builder(hint: Any) -> Builder | None:
    """A function turning a value decoded as ``decode_type(hint)`` into the model's value, or
    None when it already is one (no dataclass inside)."""
    if is_dataclass(hint):
        hints = _hints(hint)
        parts = [model_builder(hints[f.name]) for f in fields(hint)]
        if not any(parts):
            return lambda struct: hint(*msgspec.structs.astuple(struct))
        return lambda struct: hint(*[part(value) if part else value
                                     for part, value in zip(parts, msgspec.structs.astuple(struct))])
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    inner = [model_builder(a) for a in args]
    if not any(inner):
        return None
    if origin is list:
        item = args[0]
        if is_dataclass(item) and not any(model_builder(h) for h in _hints(item).values()):
            return lambda values: list(starmap(item, map(msgspec.structs.astuple, values)))
        part = inner[0]
        assert part is not None
        return lambda values: [part(value) for value in values]
    raise TypeError(f"cannot build {hint!r}: only dataclasses and lists of them hold dataclasses")


# ------------------------------------------------------------------ errors
_WANTED = {"float": "a number", "int": "a whole number", "str": "a string", "bool": "true or false",
           "array": "a list", "object": "an object"}
_FOUND = {"float": "a number", "int": "a number", "str": "a string", "bool": "true/false", "array": "a list",
          "object": "an object", "null": "null"}


def _wanted(types_: str) -> str:
    """What msgspec expected, in words; an optional field wants its type ("str | null": a string)."""
    names = [name for name in types_.split(" | ") if name != "null"] or ["null"]
    return " or ".join(_WANTED.get(name, name) for name in names)


_STEP = re.compile(r"\.([^.[]+)|\[(\d+|\.\.\.)\]")


def _name_keys(where: str, value: Any, hint: Any) -> str:
    """msgspec's path with each dict key it writes as ``[...]`` named, found in ``value``."""
    named = []
    for step in _STEP.finditer(where):
        field, index = step.groups()
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if field is not None:
            value, hint = value[field], _hints(hint)[field]
        elif index != "...":
            value, hint = value[int(index)], args[int(index)] if origin is tuple else args[0]
        else:
            bad = next(k for k, v in value.items() if not _fits(v, args[1]))
            value, hint = value[bad], args[1]
            named.append(f".{bad}")
            continue
        named.append(step.group(0))
    return "".join(named)


def _fits(value: Any, hint: Any) -> bool:
    try:
        msgspec.convert(value, decode_type(hint), strict=True)
    except msgspec.ValidationError:
        return False
    return True


def schema_error(exc: msgspec.ValidationError, base: str = "$", value: Any = None, hint: Any = None) -> SchemaError:
    """msgspec's "Expected `float`, got `str` - at `$.racks[2].x`" as a SchemaError below ``base``
    (with the checked ``value`` and its ``hint``, dict keys are named instead of ``[...]``)."""
    message, _sep, where = str(exc).rpartition(" - at `")
    if not _sep:
        message, where = str(exc), "$`"
    where = where[1:-1]
    if "[...]" in where and hint is not None:
        try:
            where = _name_keys(where, value, hint)
        except (LookupError, TypeError, StopIteration):  # keep msgspec's "[...]"
            pass
    path = base + where
    if message.startswith(("Object missing required field `", "Object contains unknown field `")):
        name = message.split("`", 1)[1][:-1]
        return SchemaError(f"{path}.{name}", "missing" if "missing" in message else "unknown key")
    if message.startswith(("Expected `float` >=", "Expected `float` <=")):
        return SchemaError(path, "expected a finite number")
    if message.startswith("Expected `array` of length "):
        return SchemaError(path, f"expected a list of {message.split()[4].rstrip(',')} values")
    if message.startswith("Expected `") and ", got `" in message:
        wanted, found = message[len("Expected `"):-1].split("`, got `", 1)
        return SchemaError(path, f"expected {_wanted(wanted)}, found {_FOUND.get(found, found)}")
    return SchemaError(path, message[:1].lower() + message[1:])


def _whole_floats_as_ints(value: Any, hint: Any) -> Any:
    """``value`` with integral floats (3.0) where ``hint`` wants an int, as the format allows."""
    if hint is int:
        return int(value) if type(value) is float and value.is_integer() else value
    if is_dataclass(hint):
        if type(value) is not dict:
            return value
        hints = _hints(hint)
        return {k: _whole_floats_as_ints(v, hints[k]) if k in hints else v for k, v in value.items()}
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and type(value) is list:
        return [_whole_floats_as_ints(v, args[0]) for v in value]
    if origin is tuple and type(value) is list and len(value) == len(args):
        return [_whole_floats_as_ints(v, a) for v, a in zip(value, args)]
    if origin is dict and type(value) is dict:
        return {k: _whole_floats_as_ints(v, args[1]) for k, v in value.items()}
    if origin in (typing.Union, types.UnionType) and int in args:
        return _whole_floats_as_ints(value, int)
    return value


# ----------------------------------------------------------- parsed values
def convert(value: Any, hint: Any, path: str) -> Any:
    """Check parsed JSON ``value`` against the annotation ``hint`` and build the model's value."""
    kind = decode_type(hint)
    try:
        try:
            checked = msgspec.convert(value, kind, strict=True)
        except msgspec.ValidationError as exc:
            if "Expected `int`, got `float`" not in str(exc):
                raise
            checked = msgspec.convert(_whole_floats_as_ints(value, hint), kind, strict=True)
    except msgspec.ValidationError as exc:
        raise schema_error(exc, path, value, hint) from None
    builder = model_builder(hint)
    return builder(checked) if builder else checked


def build(cls: type, data: Any, path: str) -> Any:
    """Construct ``cls`` from a JSON object at ``path``, rejecting unknown keys and missing ones."""
    return convert(data, cls, path)
