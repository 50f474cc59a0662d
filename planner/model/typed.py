"""Check parsed or raw JSON against the model's dataclasses and the format's bounds, naming the
JSON path of a bad value.

msgspec does the checking in C: it decodes JSON straight into typed objects and reports a bad
value with its path (``$.racks[3].x``). It cannot refuse unknown keys of a plain dataclass,
though, so each model dataclass gets a mirror ``msgspec.Struct`` that forbids them. The mirror
is derived from the dataclass's annotations at first use, never written by hand, so the file
format cannot drift from the model; each field's bounds come from ``planner.model.bounds``
(``Meta(ge, le)`` on numbers, ``max_length`` on strings, ``min/max_length`` on lists), so the
fast path checks them in C as it decodes. ``model_builder`` turns decoded mirrors back into the
model's dataclasses. Floats must be finite (a JSON file cannot hold NaN or infinity).

Control characters are the one bound kept out of the fast mirrors: a regex per string costs
as much as the whole decode of a large plan. The *checked* mirrors (``checked=True``) add the
pattern; the loader uses them only when the raw text could hold such a character at all
(``texts_clean`` says whether decoded objects do, in one regex pass per field).
"""

from __future__ import annotations

import json
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import MISSING, fields, is_dataclass
from functools import cache
from itertools import starmap
from operator import attrgetter
from typing import Annotated, Any

import msgspec

from planner.model.bounds import (
    BAD_LINE_CHAR,
    BAD_MULTILINE_CHAR,
    LINE_PATTERN,
    MULTILINE_PATTERN,
    Items,
    Limit,
    Range,
    Text,
    limits,
    value_problem,
)

#: A float that must be finite: NaN fails both bounds, ±infinity one of them.
FiniteFloat = Annotated[float, msgspec.Meta(ge=-sys.float_info.max, le=sys.float_info.max)]

Builder = Callable[[Any], Any]
#: Fields whose strings come from a closed list, as (class name, field, the list): the fast
#: mirrors read them as literals (``decode_type``'s ``closed``).
Closed = tuple[tuple[str, str, tuple[Any, ...]], ...]


class SchemaError(ValueError):
    """A value in the file does not fit the model; ``path`` is its JSON path ($.racks[3].x)."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


class TooLong:
    """A whole number in the file with more digits than Python converts (4,300): kept as its
    digit count so the message can say so, and refused by every schema (it is no number)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


# ------------------------------------------------------------- decode types
@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def decode_type(hint: Any, found: tuple[Limit, ...] = (), checked: bool = False, closed: Closed = ()) -> Any:
    """The msgspec type that checks JSON for the annotation ``hint`` (a dataclass → its mirror)
    within the limits ``found`` (a field's entry in the bounds table); ``checked`` adds the
    control-character patterns to strings. The fast mirrors (not ``checked``) read the fields
    ``closed`` names as literals of their list: checked in C, and every value one shared string
    (not 192k copies of "planned"); the checked ones leave them to the caller, to say in words."""
    bound = next((x for x in found if isinstance(x, Range)), None)
    text = next((x for x in found if isinstance(x, Text)), None)
    size = next((x for x in found if isinstance(x, Items)), None)
    inner = tuple(x for x in found if not isinstance(x, Items))
    if hint is float:
        return Annotated[float, msgspec.Meta(ge=float(bound.low), le=float(bound.high))] if bound else FiniteFloat
    if hint is int:
        return Annotated[int, msgspec.Meta(ge=int(bound.low), le=int(bound.high))] if bound else int
    if hint is str:
        if text is None:
            return str
        pattern = (MULTILINE_PATTERN if text.multiline else LINE_PATTERN) if checked else None
        return Annotated[str, msgspec.Meta(max_length=text.max_chars, pattern=pattern)]
    if hint in (bool, Any, type(None)):
        return hint
    if isinstance(hint, type) and is_dataclass(hint):  # annotations are classes, never instances
        return _mirror(hint, checked, () if checked else closed)
    if typing.is_typeddict(hint):
        return _record_mirror(hint, checked)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(decode_type(a, inner, checked, closed) for a in args)]  # noqa: UP007 (built at run time)
    if origin is tuple:
        # types.GenericAlias(tuple, (a, b)) is what ``tuple[a, b]`` builds; spelt out as it is built at run time.
        return types.GenericAlias(tuple, tuple(decode_type(a, inner, checked, closed) for a in args))
    if origin is list:
        kind: Any = types.GenericAlias(list, (decode_type(args[0], inner, checked, closed),))
    elif origin is dict:
        kind = types.GenericAlias(dict, (decode_type(args[0], inner, checked, closed),
                                         decode_type(args[1], inner, checked, closed)))
    else:
        raise TypeError(f"unsupported annotation {hint!r}")
    return Annotated[kind, msgspec.Meta(min_length=size.low, max_length=size.high)] if size else kind


@cache
def _mirror(cls: type, checked: bool = False, closed: Closed = ()) -> type[msgspec.Struct]:
    hints = _hints(cls)
    choices = {name: values for owner, name, values in closed if owner == cls.__name__}
    spec: list[tuple[Any, ...]] = []
    for f in fields(cls):
        if f.name in choices:
            kind: Any = typing.Literal[choices[f.name]]
        else:
            kind = decode_type(hints[f.name], limits(cls.__name__, f.name), checked, closed)
        if f.default is not MISSING:
            spec.append((f.name, kind, f.default))
        elif f.default_factory is not MISSING:
            factory = f.default_factory
            default = _mirror(factory, checked, closed) if isinstance(factory, type) and is_dataclass(factory) \
                else factory  # Meta() → its mirror
            spec.append((f.name, kind, msgspec.field(default_factory=default)))
        else:
            spec.append((f.name, kind))
    # gc=False: decoded mirrors hold only JSON values, never a cycle, and are dropped at once.
    name = f"{cls.__name__}{'Checked' if checked else 'Closed' if choices else ''}Json"
    return msgspec.defstruct(name, spec, forbid_unknown_fields=True, gc=False)


@cache
def _record_mirror(cls: type, checked: bool = False) -> type[msgspec.Struct]:
    """The mirror of a record (a ``TypedDict`` such as ``PortGroup``): every key required, none
    unknown, each value within its bounds (``BOUNDS[cls.__name__]``). A record is a plain
    mapping in the model, so a catalogue entry's record writes it as a JSON object."""
    spec = [(name, decode_type(hint, limits(cls.__name__, name), checked)) for name, hint in _hints(cls).items()]
    return msgspec.defstruct(f"{cls.__name__}{'Checked' if checked else ''}Json", spec,
                             forbid_unknown_fields=True, gc=False)


# ------------------------------------------------------------ model objects
@cache
def model_builder(hint: Any) -> Builder | None:
    """A function turning a value decoded as ``decode_type(hint)`` into the model's value, or
    None when it already is one (no dataclass inside)."""
    if typing.is_typeddict(hint):
        return msgspec.structs.asdict
    if isinstance(hint, type) and is_dataclass(hint):
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
        if isinstance(item, type) and is_dataclass(item) and not any(model_builder(h) for h in _hints(item).values()):
            return lambda values: list(starmap(item, map(msgspec.structs.astuple, values)))
        part = inner[0]
        assert part is not None
        return lambda values: [part(value) for value in values]
    raise TypeError(f"cannot build {hint!r}: only dataclasses and lists of them hold dataclasses")


# ----------------------------------------------------------- text in bulk
@cache
def _text_plan(cls: type) -> tuple[list[tuple[str, bool, str]], list[tuple[str, type, bool]]]:
    """How to find every string of a ``cls`` object: (field, multiline, shape) of its string
    fields (shape "str", "optional" or "dict"), and (field, dataclass, is list) of the objects it holds."""
    strings: list[tuple[str, bool, str]] = []
    nested: list[tuple[str, type, bool]] = []
    for name, hint in _hints(cls).items():
        text = next((x for x in limits(cls.__name__, name) if isinstance(x, Text)), None)
        multiline = bool(text and text.multiline)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint is str:
            strings.append((name, multiline, "str"))
        elif origin in (typing.Union, types.UnionType) and str in args:
            strings.append((name, multiline, "optional"))
        elif origin is dict:
            strings.append((name, multiline, "dict"))
        elif isinstance(hint, type) and is_dataclass(hint):
            nested.append((name, hint, False))
        elif origin is list and (typing.is_typeddict(args[0]) or isinstance(args[0], type) and is_dataclass(args[0])):
            nested.append((name, args[0], True))
    return strings, nested


def _field_of(name: str) -> Callable[[Any], Any]:
    """A field of a model object or its mirror, or a key of a record (a plain mapping)."""
    attribute = attrgetter(name)
    return lambda obj: obj[name] if type(obj) is dict else attribute(obj)


def _gather(objects: list[Any], cls: type, lines: list[str], paragraphs: list[str]) -> None:
    strings, nested = _text_plan(cls)
    record = typing.is_typeddict(cls)
    for name, multiline, shape in strings:
        found = map(_field_of(name) if record else attrgetter(name), objects)
        values: Iterable[str] = found
        if shape == "optional":
            values = filter(None, found)
        elif shape == "dict":
            values = (text for mapping in found for pair in mapping.items() for text in pair)
        (paragraphs if multiline else lines).append("".join(values))
    for name, kind, is_list in nested:
        get = _field_of(name) if record else attrgetter(name)
        held = [item for obj in objects for item in get(obj)] if is_list else [get(obj) for obj in objects]
        _gather(held, kind, lines, paragraphs)


def texts_clean(obj: Any, cls: type) -> bool:
    """Whether no string in ``obj`` (a ``cls`` object or its decoded mirror) holds a character the
    bounds forbid. One regex pass over each field's strings joined: 100k objects in a few ms."""
    lines: list[str] = []
    paragraphs: list[str] = []
    _gather([obj], cls, lines, paragraphs)
    return not BAD_LINE_CHAR.search("".join(lines)) and not BAD_MULTILINE_CHAR.search("".join(paragraphs))


# ------------------------------------------------------------------ errors
_WANTED = {"float": "a number", "int": "a whole number", "str": "a string", "bool": "true or false",
           "array": "a list", "object": "an object"}
_FOUND = {"float": "a number", "int": "a number", "str": "a string", "bool": "true/false", "array": "a list",
          "object": "an object", "null": "null", "TooLong": "a number too long to read"}


def _wanted(types_: str) -> str:
    """What msgspec expected, in words; an optional field wants its type ("str | null": a string)."""
    names = [name for name in types_.split(" | ") if name != "null"] or ["null"]
    return " or ".join(_WANTED.get(name, name) for name in names)


_STEP = re.compile(r"\.([^.[]+)|\[(\d+|\.\.\.)\]")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,63}")


def path_key(name: str) -> str:
    """A key as a JSON-path step: ``.notes``, or quoted and cut short when a hostile file's key is
    long or holds anything but letters, digits, ``_`` and ``-`` (a message stays one short line)."""
    if _PLAIN_KEY.fullmatch(name):
        return f".{name}"
    shown = json.dumps(name[:40]) if len(name) <= 40 else json.dumps(name[:40])[:-1] + '…"'
    return f"[{shown}]"


def _locate(where: str, value: Any, hint: Any) -> tuple[str, Any, tuple[Limit, ...]]:
    """Follow msgspec's path ``where`` through ``value`` (annotated ``hint``): the path with each
    dict key it writes as ``[...]`` named, the value there and the bounds that apply to it (those
    of the field holding it; a list's size only when the value is that field's list itself)."""
    named = []
    found: tuple[Limit, ...] = ()
    for step in _STEP.finditer(where):
        field, index = step.groups()
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            hint = next(a for a in args if a is not type(None))
            origin, args = typing.get_origin(hint), typing.get_args(hint)
        if field is not None:
            found = limits(hint.__name__, field)
            value, hint = value[field], _hints(hint)[field]
            named.append(step.group(0))
            continue
        found = tuple(x for x in found if not isinstance(x, Items))
        if index != "...":
            value, hint = value[int(index)], args[int(index)] if origin is tuple else args[0]
            named.append(step.group(0))
            continue
        bad = next(k for k, v in value.items() if not (_fits(k, args[0], found) and _fits(v, args[1], found)))
        value, hint = value[bad], args[1]
        named.append(path_key(bad))
    return "".join(named), value, found


def _fits(value: Any, hint: Any, found: tuple[Limit, ...] = ()) -> bool:
    try:
        msgspec.convert(value, decode_type(hint, found, True), strict=True)
    except msgspec.ValidationError:
        return False
    return True


def _bound_problem(value: Any, found: tuple[Limit, ...]) -> str | None:
    """The bounds table's words for a value that breaks its bounds (None when it does not)."""
    if isinstance(value, TooLong):
        bound = next((x for x in found if isinstance(x, Range)), None)
        return f"a {value.digits:,}-digit number is outside {bound.text()}" if bound else None
    try:
        return value_problem(value, found)
    except (TypeError, ValueError):  # a value of the wrong type: msgspec's words say it better
        return None


def schema_error(exc: msgspec.ValidationError, base: str = "$", value: Any = None, hint: Any = None) -> SchemaError:
    """msgspec's "Expected `float`, got `str` - at `$.racks[2].x`" as a SchemaError below ``base``
    (with the checked ``value`` and its ``hint``, dict keys are named instead of ``[...]`` and a
    value outside its bounds is described in the bounds table's words: "1e308 m is outside …")."""
    message, _sep, where = str(exc).rpartition(" - at `")
    if not _sep:
        message, where = str(exc), "$`"
    where = where.removeprefix("key` in `")  # a bad key of a mapping: name the mapping
    where = where[1:-1]
    located: tuple[Any, tuple[Limit, ...]] | None = None
    if hint is not None:
        try:
            where, at, found = _locate(where, value, hint)
            located = (at, found)
        except (LookupError, TypeError, AttributeError, StopIteration, ValueError):  # keep msgspec's path
            pass
    path = base + where
    if message.startswith(("Object missing required field `", "Object contains unknown field `")):
        name = message.split("`", 1)[1][:-1]
        return SchemaError(f"{path}{path_key(name)}", "missing" if "missing" in message else "unknown key")
    if located is not None and not message.startswith("Object "):
        problem = _bound_problem(*located)
        if problem:
            return SchemaError(path, problem)
    if message.startswith(("Expected `float` >=", "Expected `float` <=")) or message == "Number out of range":
        return SchemaError(path, "expected a finite number")
    if message.startswith("Expected `array` of length "):
        return SchemaError(path, f"expected a list of {message.split()[4].rstrip(',')} values")
    if message.startswith("Expected `") and ", got `" in message:
        wanted, got = message[len("Expected `"):-1].split("`, got `", 1)
        return SchemaError(path, f"expected {_wanted(wanted)}, found {_FOUND.get(got, got)}")
    return SchemaError(path, message[:1].lower() + message[1:])


def _whole_floats_as_ints(value: Any, hint: Any) -> Any:
    """``value`` with integral floats (3.0) where ``hint`` wants an int, as the format allows."""
    if hint is int:
        return int(value) if type(value) is float and value.is_integer() and abs(value) < 1e18 else value
    if isinstance(hint, type) and is_dataclass(hint) or typing.is_typeddict(hint):
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
    """Check parsed JSON ``value`` against the annotation ``hint`` and its bounds (control
    characters included) and build the model's value."""
    kind = decode_type(hint, (), True)
    try:
        try:
            checked = msgspec.convert(value, kind, strict=True)
        except msgspec.ValidationError as exc:
            if "Expected `int`, got `float`" not in str(exc):
                raise
            checked = msgspec.convert(_whole_floats_as_ints(value, hint), kind, strict=True)
    except msgspec.ValidationError as exc:
        raise schema_error(exc, path, value, hint) from None
    except UnicodeEncodeError:  # msgspec meets a lone surrogate where it wants no string
        raise _surrogate_error(value, path) from None
    builder = model_builder(hint)
    return builder(checked) if builder else checked


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_error(value: Any, path: str) -> SchemaError:
    """Where parsed JSON first holds a lone surrogate (in a key or a string), as a SchemaError."""
    stack = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str) and (surrogate := _SURROGATE.search(item)):
            return SchemaError(where, f"holds a lone surrogate (U+{ord(surrogate.group()):04X}): not text")
        if isinstance(item, dict):
            for key, member in reversed(item.items()):
                if _SURROGATE.search(key):
                    return SchemaError(f"{where}{path_key(key)}", "a key that is not text (a lone surrogate)")
                stack.append((f"{where}{path_key(key)}", member))
        elif isinstance(item, list):
            stack.extend((f"{where}[{index}]", member) for index, member in reversed(list(enumerate(item))))
    return SchemaError(path, "holds a lone surrogate: not text")


def build(cls: type, data: Any, path: str) -> Any:
    """Construct ``cls`` from a JSON object at ``path``, rejecting unknown keys and missing ones."""
    return convert(data, cls, path)


# --------------------------------------------------------- model boundary
@cache
def _record_lists(cls: type) -> dict[str, tuple[str, ...]]:
    """Fields of ``cls`` holding lists of records (``PortGroup``) → the records' float keys."""
    found = {}
    for name, hint in _hints(cls).items():
        args = typing.get_args(hint)
        if typing.get_origin(hint) is list and typing.is_typeddict(args[0]):
            found[name] = tuple(key for key, kind in _hints(args[0]).items() if kind is float)
    return found


@cache
def _float_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Fields of ``cls`` annotated ``float`` and those holding lists of float pairs (polygons)."""
    hints = _hints(cls)
    floats = tuple(name for name, hint in hints.items() if hint is float or hint == float | None)
    points = tuple(name for name, hint in hints.items()
                   if typing.get_origin(hint) is list and typing.get_args(hint)[0] == tuple[float, float])
    return floats, points


def as_points(points: Any) -> list[tuple[float, float]]:
    """A polygon as the model holds it: a list of (float, float) tuples."""
    return [(float(x), float(y)) for x, y in points]


def normalise_value(cls: type, name: str, value: Any) -> Any:
    """``value`` as field ``name`` of ``cls`` holds it: a whole number where the model says float
    becomes a float (3 → 3.0), so save → load → save writes the same bytes."""
    floats, points = _float_fields(cls)
    if name in floats and type(value) is not float and isinstance(value, int):
        return float(value)
    if name in points and isinstance(value, list | tuple):
        return as_points(value)
    keys = _record_lists(cls).get(name)
    if keys and isinstance(value, list) and any(
            type(record.get(key)) is int for record in value if isinstance(record, dict) for key in keys):
        return [{**record, **{key: float(record[key]) for key in keys if type(record.get(key)) is int}}
                if isinstance(record, dict) else record for record in value]
    return value


def normalise(obj: Any) -> Any:
    """Make ``obj``'s float fields floats in place (see ``normalise_value``); returns ``obj``."""
    cls: type = type(obj)
    floats, points = _float_fields(cls)
    for name in floats:
        value = getattr(obj, name)
        if type(value) is not float and isinstance(value, int):
            setattr(obj, name, float(value))
    for name in points:
        polygon = getattr(obj, name)
        if not all(type(p) is tuple and type(p[0]) is float and type(p[1]) is float for p in polygon):
            setattr(obj, name, as_points(polygon))
    return obj
