"""Read and write .hall files.

The format is JSON, UTF-8, with keys sorted and every collection sorted by id, one object a
line, so that two revisions of a plan diff readably in git and save → load → save is
byte-identical. Loading checks everything before it returns, the bounds of every value
included (``planner.model.bounds``): a malformed, truncated, hostile or newer file raises one
``HallFileError`` that names the JSON path, and nothing half-loads. Saving is atomic and the
target exists at every instant (``planner.io.atomic``); the previous file is kept as
``<name>.bak``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import field, fields, make_dataclass
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from planner.io.hallwrite import PlanSnapshot, pieces, save_snapshot
from planner.io.migrations import MIGRATIONS
from planner.model.basis import BASIS_CHOICES, DesignBasis
from planner.model.catalog import ALL_KINDS, PROTOCOLS, CatalogItem, builtin_catalog
from planner.model.document import Document, prefix_of
from planner.model.long_lived import long_lived_objects
from planner.model.networks import ALL_ROLES, ALL_TIERS
from planner.model.objects import (
    CABLE_STATES,
    COLLECTIONS,
    COMMENT_STATUSES,
    NOTE,
    ROTATIONS,
    SIDES,
    UNDERLAY_KINDS,
    Meta,
    NetBoxRecord,
    Point,
)
from planner.model.physical import basis_problem, item_problem, outline_problem, polygon_problem
from planner.model.references import Reference, all_references, in_targets, references_of
from planner.model.typed import (
    Builder,
    SchemaError,
    TooLong,
    convert,
    decode_type,
    model_builder,
    path_key,
    texts_clean,
)

FORMAT_NAME = "hall"
FORMAT_VERSION = 3

#: The file's top level, as a dataclass so that its schema derives from the model like the rest.
HallFileContent = make_dataclass("HallFileContent", [
    ("format", str),
    ("version", int),
    ("meta", Meta, field(default_factory=Meta)),
    ("basis", DesignBasis, field(default_factory=DesignBasis)),
    ("outline", list[Point], field(default_factory=list)),
    ("catalog", list[CatalogItem], field(default_factory=list)),
    ("netbox", NetBoxRecord, field(default_factory=NetBoxRecord)),
    *[(attr, list[cls], field(default_factory=list)) for attr, cls in COLLECTIONS.values()],  # type: ignore[valid-type]
])
_TOP_KEYS = {f.name for f in fields(HallFileContent)}
#: Fields from a closed list that the fast decoder reads as literals (see ``decode_type``); a file
#: with another value takes the checked path, where ``_report_reference`` says what they may be.
_CLOSED = (("Link", "state", CABLE_STATES), ("Link", "tier", ALL_TIERS))
_DECODER = msgspec.json.Decoder(decode_type(HallFileContent, closed=_CLOSED))


def _file_builder() -> Builder:
    builder = model_builder(HallFileContent)
    assert builder is not None  # the file holds dataclasses (Meta, DesignBasis, …), so it has a builder
    return builder


_BUILD_FILE = _file_builder()


class HallFileError(Exception):
    """The file cannot be read as a plan. ``path`` is the JSON path of the problem ("$" for the whole)."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(message)
        self.path = path


# ----------------------------------------------------------------------- save
def snapshot(doc: Document, copy_records: bool = True) -> PlanSnapshot:
    """A snapshot of the plan to be written (``planner.io.hallwrite``): taken now with ``take()``
    or in slices with ``step()``; ``copy_records=False`` when nothing edits the plan meanwhile."""
    return PlanSnapshot(doc, {"format": FORMAT_NAME, "version": FORMAT_VERSION}, copy_records)


def dumps(doc: Document) -> str:
    """The document as .hall text (stable: same document, same bytes)."""
    return "".join(pieces(snapshot(doc, copy_records=False).take()))


def save(doc: Document, path: str | os.PathLike[str]) -> None:
    """Write the plan to ``path`` so that it is never lost (see ``planner.io.atomic``): written
    beside, fsynced, the old file kept as ``<name>.bak``, then swapped in with one rename.

    Raises ``HallSaveError`` (an OSError naming the path and the reason; a directory is refused)
    with the file at ``path`` as it was.
    """
    save_snapshot(snapshot(doc, copy_records=False).take(), path)


# ----------------------------------------------------------------------- load
def load(path: str | os.PathLike[str]) -> Document:
    """Read a .hall file. Raises HallFileError (never anything else for bad content)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise HallFileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    return loads(raw)


def loads(text: str | bytes) -> Document:
    """A document from .hall text (or its UTF-8 bytes). Raises HallFileError for bad content.

    A current-version file that fits the schema is decoded by msgspec straight into typed
    objects, in one pass. Anything else — malformed JSON, a bad value, an older version to
    migrate — takes the checked path: the standard library's parser (its messages name line and
    column), the header and version checks, the migrations, then the same schema on the parsed
    values, so the error names the JSON path.
    """
    with long_lived_objects():
        try:
            decoded = _decode(text)
            return _document(decoded)
        except SchemaError as exc:
            raise HallFileError(str(exc), exc.path) from exc
        except RecursionError as exc:
            raise HallFileError("nested too deeply") from exc


#: Raw text that may hold a character no string of a plan may hold: any escape (\u0007, \n …),
#: DEL or a C1 control (raw C0 controls are no JSON). A plan without any is checked in about a
#: millisecond (single-byte ``in`` runs at memory speed); one with escapes has its strings
#: checked in bulk (``texts_clean``).
_C1_BYTES = re.compile(rb"\xc2[\x80-\x9f]")
_SUSPECT_TEXT = re.compile("[\\\\\x7f-\x9f]")


def _may_hold_bad_text(text: str | bytes) -> bool:
    if isinstance(text, str):
        return _SUSPECT_TEXT.search(text) is not None
    if b"\\" in text or b"\x7f" in text:
        return True
    return b"\xc2" in text and _C1_BYTES.search(text) is not None


def _decode(text: str | bytes) -> Any:
    """The file's content (a ``HallFileContent`` of model objects), the fast way if it can be."""
    try:
        file = _DECODER.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError):  # the checked path says what and where
        pass  # (UnicodeEncodeError: text holding a lone surrogate)
    else:
        if file.format == FORMAT_NAME and file.version == FORMAT_VERSION and (
                not _may_hold_bad_text(text) or texts_clean(file, HallFileContent)):
            return _BUILD_FILE(file)
    return _decode_checked(text)


def _parse_int(digits: str) -> int | TooLong:
    """JSON whole numbers as ints, but one too long for Python to convert (4,300 digits) as its
    length: ``json.loads`` would raise ValueError, and no bound is anywhere near it."""
    return int(digits) if len(digits) <= 4000 else TooLong(len(digits.lstrip("-")))


def _decode_checked(text: str | bytes) -> Any:
    """The file's content the checked way: says what is wrong and where, runs the migrations."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise HallFileError(f"not UTF-8 text (byte {exc.start})") from exc
    try:
        data = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at")  # "Invalid control character at": the place follows
        raise HallFileError(f"not valid JSON: {what} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise HallFileError("not valid JSON: nested too deeply") from exc
    except ValueError as exc:  # a number the parser cannot convert
        raise HallFileError(f"not valid JSON: {exc}") from exc
    _require(isinstance(data, dict), "$", "expected a JSON object")
    _require(data.get("format") == FORMAT_NAME, "$.format", f'expected "{FORMAT_NAME}"')
    data = _migrate(data)
    for key in data:
        _require(key in _TOP_KEYS, f"${path_key(key)}", "unknown key")
    return convert(data, HallFileContent, "$")


def _require(condition: bool, path: str, problem: str) -> None:
    if not condition:
        raise SchemaError(path, problem)


def _migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SchemaError("$.version", "missing or not a whole number")
    _require(
        version <= FORMAT_VERSION,
        "$.version",
        f"file version {version} is newer than this planner reads ({FORMAT_VERSION}); update the planner",
    )
    _require(version >= 1, "$.version", f"unknown version {version}")
    while version < FORMAT_VERSION:
        data = MIGRATIONS[version](data)
        version += 1
        data["version"] = version
    return data


def _document(file: Any) -> Document:
    """The document of a decoded file, after the checks no type can express."""
    catalog = builtin_catalog()
    for index, item in enumerate(file.catalog):
        path = f"$.catalog[{index}]"
        _require(item.kind in ALL_KINDS, f"{path}.kind", f"unknown kind {item.kind!r}")
        _require(item.key not in catalog or catalog[item.key].custom, f"{path}.key", "clashes with a built-in type")
        _require(item.protocol in ("", *PROTOCOLS), f"{path}.protocol",
                 f"unknown protocol {item.protocol!r} (one of {', '.join(PROTOCOLS)})")
        problem = item_problem(item)
        if problem:
            raise SchemaError(f"{path}.{problem[0]}", problem[1])
        item.custom = True
        catalog.add(item)
    _check_basis(file.basis)
    outline_trouble = outline_problem(file.outline)
    _require(outline_trouble is None, "$.outline", outline_trouble or "")
    collections = {attr: getattr(file, attr) for attr, _cls in COLLECTIONS.values()}
    for attr in _SHAPED:
        for index, obj in enumerate(collections[attr]):
            found = polygon_problem(obj.polygon)
            if found:
                raise SchemaError(f"$.{attr}[{index}].polygon", found)
    try:
        doc = Document.from_collections(collections, catalog)
    except (KeyError, ValueError):  # a malformed or duplicate id: say where
        for attr, objects in collections.items():
            _report_ids(attr, objects)
        # Ids in other decimal digits (rack-٣), which the format has always let through.
        doc = Document(catalog)
        for objects in collections.values():
            for obj in objects:
                doc.add(obj)
    doc.meta, doc.basis, doc.outline, doc.netbox = file.meta, file.basis, file.outline, file.netbox
    if not _references_hold(doc):
        _report_reference(doc)
    return doc


@cache
def prefix_of_attr(attr: str) -> str:
    return next(prefix for prefix, (name, _cls) in COLLECTIONS.items() if name == attr)


def _report_ids(attr: str, objects: list[Any]) -> None:
    """Raise SchemaError at the first id that is malformed or taken, in file order."""
    prefix = prefix_of_attr(attr)
    seen: set[str] = set()
    for index, obj in enumerate(objects):
        path = f"$.{attr}[{index}].id"
        _require(prefix_of(obj.id) == prefix and obj.id[len(prefix) + 1:].isdigit(), path,
                 f"expected an id like {prefix}-1")
        _require(obj.id not in seen, path, f"duplicate id {obj.id}")
        seen.add(obj.id)


def _check_basis(basis: DesignBasis) -> None:
    for name, allowed in BASIS_CHOICES.items():
        value = getattr(basis, name)
        _require(value in allowed, f"$.basis.{name}", f"{value!r} is not one of {', '.join(allowed)}")
    _require(basis.voltage_v > 0, "$.basis.voltage_v", "must be above 0")
    _require(0 < basis.power_factor <= 1, "$.basis.power_factor", "must be in (0, 1]")
    _require(0 < basis.derating <= 1, "$.basis.derating", "must be in (0, 1]")
    _require(basis.delta_t_k > 0, "$.basis.delta_t_k", "must be above 0")
    problem = basis_problem(basis)
    if problem:
        raise SchemaError(f"$.basis.{problem[0]}", problem[1])


#: Collections whose objects have an area no single field's range can refuse.
_SHAPED = ("zones", "obstacles")


_TYPED_KINDS = (("racks", ("rack",)),
                ("devices", ("node", "switch", "storage", "rack_pdu", "rack_cdu", "rack_manifold")),
                ("floor_units", ("row_cdu", "cabinet")), ("busbars", ("busbar",)))


def _references_hold(doc: Document) -> bool:
    """Whether every type, choice and reference is valid: one quick pass, no paths.

    Equivalent to ``_report_reference`` finding nothing, which says where when it is not.
    """
    items = doc.catalog.items
    for attr, kinds in _TYPED_KINDS:
        for key in {obj.type for obj in getattr(doc, attr).values()}:
            if key not in items or items[key].kind not in kinds:
                return False
    racks, units, devices = doc.racks.values(), doc.floor_units.values(), doc.devices
    if not ({rack.rotation for rack in racks} | {unit.rotation for unit in units} <= set(ROTATIONS)
            and {bus.side for bus in doc.busbars.values()} <= set(SIDES)
            and all(_targets_hold(doc, reference) for reference in _HELD_BEFORE_PORTS)
            and {device.role for device in devices.values()} <= set(ALL_ROLES)
            and {note.status for note in doc.comments.values()} <= set(COMMENT_STATUSES)
            and {under.kind for under in doc.underlays.values()} <= set(UNDERLAY_KINDS)):
        return False
    ports_of_type = {key: frozenset(items[key].all_port_names()) for key in {d.type for d in devices.values()}}
    ports_of = {device_id: ports_of_type[device.type] for device_id, device in devices.items()}
    states, tiers = frozenset(CABLE_STATES), frozenset(ALL_TIERS)
    try:  # an end naming no device is a KeyError; a cable's state and tier checked in the same pass
        for link in doc.links.values():
            if (link.a_port not in ports_of[link.a_device] or link.b_port not in ports_of[link.b_device]
                    or link.state not in states or link.tier not in tiers):
                return False
    except KeyError:
        return False
    return True


def _report_reference(doc: Document) -> None:
    """Raise SchemaError at the first bad type, choice or reference, in collection order."""
    for attr, kinds in _TYPED_KINDS:
        for index, obj in enumerate(getattr(doc, attr).values()):
            path = f"$.{attr}[{index}].type"
            _require(obj.type in doc.catalog, path, f"unknown equipment type {obj.type!r}")
            kind = doc.catalog[obj.type].kind
            _require(kind in kinds, path, f"{obj.type!r} is a {kind}, not allowed here")
    for index, rack in enumerate(doc.racks.values()):
        path = f"$.racks[{index}]"
        _require(rack.rotation in ROTATIONS, f"{path}.rotation", "must be 0, 90, 180 or 270")
        _require_references(doc, path, rack)
    for index, unit in enumerate(doc.floor_units.values()):
        _require(unit.rotation in ROTATIONS, f"$.floor_units[{index}].rotation", "must be 0, 90, 180 or 270")
    for index, bus in enumerate(doc.busbars.values()):
        _require(bus.side in SIDES, f"$.busbars[{index}].side", "must be A or B")
    for index, device in enumerate(doc.devices.values()):
        _require(device.role in ALL_ROLES, f"$.devices[{index}].role",
                 _ROLE_CHOICES)
        _require_references(doc, f"$.devices[{index}]", device)
    for index, note in enumerate(doc.comments.values()):
        _require(note.status in COMMENT_STATUSES, f"$.comments[{index}].status", "must be open or resolved")
    for index, under in enumerate(doc.underlays.values()):
        _require(under.kind in UNDERLAY_KINDS, f"$.underlays[{index}].kind", "must be dxf, pdf or image")
    ports_of_type: dict[str, set[str]] = {}
    for index, link in enumerate(doc.links.values()):
        _require(link.state in CABLE_STATES, f"$.links[{index}].state",
                 f"must be one of {', '.join(CABLE_STATES)}")
        _require(link.tier in ALL_TIERS, f"$.links[{index}].tier",
                 _TIER_CHOICES)
        _require_references(doc, f"$.links[{index}]", link)
        for end in ("a", "b"):
            device_id = getattr(link, f"{end}_device")
            linked = doc.devices[device_id]
            ports = ports_of_type.get(linked.type)
            if ports is None:
                ports = ports_of_type[linked.type] = set(doc.catalog[linked.type].all_port_names())
            port = getattr(link, f"{end}_port")
            if port not in ports:
                raise SchemaError(f"$.links[{index}].{end}_port", f"{device_id} has no port {port!r}")


#: What a cable's tier and a device's role may be, in words ("" = none: a compute cable, no role).
_TIER_CHOICES = "must be one of " + ", ".join(tier or '""' for tier in ALL_TIERS)
_ROLE_CHOICES = "must be one of " + ", ".join(role or '""' for role in ALL_ROLES)

#: The references a file must hold true: owned and assigned ones (a comment may outlive its object).
_HELD = tuple(r for r in all_references() if r.ref.hold != NOTE)
#: Those ``_references_hold`` checks one by one: a cable's ends are checked by the port check
#: after them (an end naming no device is a KeyError there), which saves two passes over the
#: cables (about 40 ms at 192k cables).
_HELD_BEFORE_PORTS = tuple(r for r in _HELD if (r.attr, r.field) not in (("links", "a_device"), ("links", "b_device")))


def _targets_hold(doc: Document, reference: Reference) -> bool:
    """Whether every id the reference field holds, over its collection, names a possible target."""
    values = {getattr(obj, reference.field) for obj in getattr(doc, reference.attr).values()}
    values.discard(None)
    return all(in_targets(doc, reference, value) for value in values)


def _require_references(doc: Document, path: str, obj: Any) -> None:
    for reference in references_of(type(obj)):
        value = getattr(obj, reference.field)
        if reference.ref.hold != NOTE and value is not None:
            _require(in_targets(doc, reference, value), f"{path}.{reference.field}",
                     _wrong_reference(doc, value, reference.ref.noun))


_KIND_WORDS = {"zone": "a floor zone", "obs": "an obstacle", "door": "a door", "ho": "a hand-off point",
               "rack": "a rack", "dev": "a device", "fu": "a floor unit", "bus": "a busbar", "link": "a cable",
               "cmt": "a comment", "ul": "an underlay"}


def _wrong_reference(doc: Document, ref: str | None, wanted: str) -> str:
    """Why a feed or loop reference cannot stand: it names nothing, or something of another kind.

    References that are right in kind but wrong in detail (feed A on a side-B busbar, a loop on
    a floor unit that is no CDU) load, because an edit can make them (a busbar's side, a unit's
    type changed later); the rules P6 and C7 (``planner.rules.references``) report them.
    """
    if ref is not None and ref in doc:
        return f"{ref} is {_KIND_WORDS.get(prefix_of(ref), 'another object')}, not a {wanted}"
    return f"no {wanted} {ref!r}"
