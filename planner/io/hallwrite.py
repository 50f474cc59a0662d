"""The .hall text of a plan, from a snapshot, in pieces: what lets the GUI save without freezing.

A ``PlanSnapshot`` copies the plan's content into plain records (one dict per object, copied:
``Document.set_fields`` edits objects in place, so a list of the objects would be no snapshot).
At 131,072 GPUs the copy is about 0.1 s in one go, so it can also be taken in slices
(``step``) between event-loop iterations; whoever steps it must restart it when the plan changes
meanwhile (``planner.ui.writer`` does, on the session's ``changed``). The text is then made from
the records alone (``pieces``), by any thread, in pieces of ``TEXT_SLICE`` objects, so that no
single call holds the interpreter for long and a writer can stream the pieces to disk.

The bytes are those ``dumps`` has always written: keys sorted, collections in id order, one
object a line; save → load → save is byte-identical. ``planner.io.hallfile`` builds its
``dumps`` and ``save`` on these (and says the format and version).
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import fields
from functools import cache
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any

import msgspec

from planner.io.atomic import write_atomic
from planner.model.document import Document, id_numbers, natural_key
from planner.model.objects import COLLECTIONS
from planner.model.typed import normalise_value

#: Objects copied per ``PlanSnapshot.step`` (about 10 ms).
SNAPSHOT_SLICE = 40_000
#: Objects per piece of text (about 5 MB of links).
TEXT_SLICE = 20_000

_ENCODER = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": "))
#: The C encoder ``JSONEncoder.encode`` makes anew on every call, made once (a third of a save's
#: time at 192k cables went to making it), with the same settings, so the bytes are the same.
#: No circular-reference check: a record is plain values. Where the C accelerator is missing,
#: ``encode`` itself.
_ITERENCODE = None if c_make_encoder is None else c_make_encoder(
    None, _ENCODER.default, encode_basestring, None, _ENCODER.key_separator, _ENCODER.item_separator,
    True, False, True)


def _line(value: Any) -> str:
    """One value as the .hall writes it: keys sorted, ", " and ": " between items."""
    if _ITERENCODE is None or isinstance(value, str):
        return _ENCODER.encode(value)
    return "".join(_ITERENCODE(value, 0))


#: msgspec's encoder (five times the C json encoder's speed on a plan's cables), compact.
_COMPACT = msgspec.json.Encoder(order="sorted")
#: Digits as "0", to find where msgspec may write a number otherwise than ``repr`` (``1e-07`` vs
#: ``1e-7``, ``1e-05`` vs ``0.00001``, ``1e+16`` vs ``1e16``) with plain finds, 40 times a
#: regular expression's speed; a string that merely looks so only costs the slow way.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def _maybe_other_float(blob: bytes) -> bool:
    digits = blob.translate(_DIGITS_AS_ZERO)
    return b"0e" in digits or b"0E" in digits or b"0.0000" in blob


def _spaced_lines(records: list[dict[str, Any]]) -> str | None:
    """``_line`` of each record joined by ",\\n  ", at msgspec's speed, or None where it could differ.

    The compact text becomes the .hall's spaced one by putting a space after every "," and ":",
    which is right only when each is a separator: the counts prove it, as a flat record of k
    fields has exactly k − 1 separating commas and k colons, and a comma or colon inside a string
    or a nested list would add to them.
    """
    try:
        blob = _COMPACT.encode_lines(records)
        fields = sum(map(len, records))
    except (TypeError, OverflowError, msgspec.EncodeError):
        return None
    if blob.count(b",") != fields - len(records) or blob.count(b":") != fields or _maybe_other_float(blob):
        return None
    return blob[:-1].replace(b",", b", ").replace(b":", b": ").replace(b"\n", b",\n  ").decode("utf-8")


def _joined(records: list[dict[str, Any]]) -> str:
    """The records' lines, ",\\n  " between them."""
    fast = _spaced_lines(records) if records else None
    return fast if fast is not None else ",\n  ".join(map(_line, records))


def _float_record(obj: Any) -> dict[str, Any]:
    """The object's fields with whole numbers in float fields written as floats (3 → 3.0), as a
    load gives them back: the design basis and custom types can be set field by field in code,
    and save → load → save must still write the same bytes."""
    return {name: normalise_value(type(obj), name, value) for name, value in vars(obj).items()}


#: An object's fields as its record: ``vars`` of an instance (its ``__dict__``); typed so, as
#: mypy would otherwise pick ``vars``'s overload for classes when it is passed to ``map``.
_record_of: Callable[[Any], dict[str, Any]] = vars


@cache
def _list_fields(cls: type) -> tuple[str, ...]:
    """Fields of ``cls`` holding lists (polygons): copied with the record, not shared."""
    return tuple(f.name for f in fields(cls) if "list" in str(f.type))


@cache
def _prefix_of_attr(attr: str) -> str:
    return next(prefix for prefix, (name, _cls) in COLLECTIONS.items() if name == attr)


class PlanSnapshot:
    """The plan's content as records that later edits do not reach (see the module's note)."""

    def __init__(self, doc: Document, header: dict[str, Any], copy_records: bool = True) -> None:
        self.doc = doc
        self.header = header  # "format" and "version", from ``planner.io.hallfile``
        self._copy = copy_records
        self.restart()

    def restart(self) -> None:
        """Start again from the plan as it is now (it changed while the snapshot was stepped)."""
        self.head: dict[str, Any] | None = None
        self.collections: dict[str, list[dict[str, Any]]] = {}
        self._todo = list(COLLECTIONS.values())
        self._values: list[Any] | None = None
        self._position = 0
        self.restarts = getattr(self, "restarts", -1) + 1

    @property
    def done(self) -> bool:
        return self.head is not None

    def take(self) -> PlanSnapshot:
        """Copy whatever is left, now."""
        while not self.step(1 << 62):
            pass
        return self

    def step(self, limit: int | None = None) -> bool:
        """Copy up to ``limit`` (``SNAPSHOT_SLICE``) more objects; True when it is complete."""
        budget = SNAPSHOT_SLICE if limit is None else limit
        while self._todo and budget > 0:
            attr, cls = self._todo[0]
            if self._values is None:
                self._values, self._position = list(getattr(self.doc, attr).values()), 0
                self.collections[attr] = []
            part = self._values[self._position:self._position + budget]
            records = list(map(dict.copy, map(_record_of, part))) if self._copy else list(map(_record_of, part))
            names = _list_fields(cls)
            if names and self._copy:
                for record in records:
                    for name in names:
                        record[name] = list(record[name])
            self.collections[attr].extend(records)
            self._position += len(part)
            budget -= len(part)
            if self._position >= len(self._values):
                self._todo.pop(0)
                self._values = None
        if self._todo:
            return False
        doc = self.doc
        head = {
            **self.header,
            "meta": dict(vars(doc.meta)),
            "basis": _float_record(doc.basis),
            "outline": [list(p) for p in doc.outline],
            "catalog": [_float_record(i) for i in sorted(doc.catalog.custom_items(), key=lambda i: i.key)],
        }
        if doc.netbox:  # written only once the plan has met NetBox: other files stay as they were
            head["netbox"] = {"ids": dict(doc.netbox.ids),
                              "site": doc.netbox.site, "url": doc.netbox.url}
        self.head = copy.deepcopy(head) if self._copy else head  # small: the basis's sources, HCA lists
        return True


def _in_id_order(attr: str, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records sorted by ``natural_key`` of their ids; by number alone when every id is
    ``<prefix>-<digits>`` (the same order, without splitting 100k ids with a regex)."""
    ids = [record["id"] for record in records]
    numbers = id_numbers(_prefix_of_attr(attr), ids)
    if numbers is None:
        return [records[i] for i in sorted(range(len(ids)), key=lambda i: natural_key(ids[i]))]
    return [records[i] for i in sorted(range(len(ids)), key=numbers.__getitem__)]


def pieces(snapshot: PlanSnapshot) -> Iterator[str]:
    """The .hall text of a complete snapshot, in pieces (joined, they are ``dumps``)."""
    if snapshot.head is None:
        raise ValueError("the snapshot is not complete")
    top: dict[str, Any] = dict(snapshot.head)
    top.update(snapshot.collections)
    keys = sorted(top)
    yield "{\n"
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = top[key]
        if isinstance(value, list) and value and isinstance(value[0], dict):
            records = _in_id_order(key, value) if key in snapshot.collections else value
            yield f" {_line(key)}: [\n"
            for start in range(0, len(records), TEXT_SLICE):
                yield ("  " if start == 0 else ",\n  ") + _joined(records[start:start + TEXT_SLICE])
            yield f"\n ]{comma}\n"
        else:
            yield f" {_line(key)}: {_line(value)}{comma}\n"
    yield "}\n"


def encoded(texts: Iterable[str]) -> Iterator[bytes]:
    """The pieces as UTF-8."""
    for text in texts:
        yield text.encode("utf-8")


def save_snapshot(snapshot: PlanSnapshot, path: str | os.PathLike[str]) -> None:
    """``save`` of a snapshot: any thread may run it (it reads the records alone)."""
    write_atomic(path, encoded(pieces(snapshot)))
