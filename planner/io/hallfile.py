"""Read and write .hall files.

The format is JSON, UTF-8, with keys sorted and every collection sorted by id, one object a
line, so that two revisions of a plan diff readably in git and save → load → save is
byte-identical. Loading checks everything before it returns: a malformed, truncated, hostile
or newer file raises one ``HallFileError`` that names the JSON path, and nothing half-loads.
Saving is atomic (write beside, fsync, replace) and keeps the previous file as ``<name>.bak``.
"""

from __future__ import annotations

import gc
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import field, make_dataclass
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from planner.model.basis import (
    FLOOR_METHOD_CHOICES,
    FLUID_CHOICES,
    LOAD_BASIS_CHOICES,
    PAPER_CHOICES,
    REDUNDANCY_CHOICES,
    UNIT_CHOICES,
    DesignBasis,
)
from planner.model.catalog import ALL_KINDS, CatalogItem, builtin_catalog
from planner.model.document import Document, id_numbers, natural_key, prefix_of
from planner.model.objects import COLLECTIONS, ROTATIONS, SIDES, Meta, Point
from planner.model.typed import SchemaError, convert, decode_type, model_builder

FORMAT_NAME = "hall"
FORMAT_VERSION = 1

#: version N → function turning a version-N document dict into version N+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

#: The file's top level, as a dataclass so that its schema derives from the model like the rest.
HallFileContent = make_dataclass("HallFileContent", [
    ("format", str),
    ("version", int),
    ("meta", Meta, field(default_factory=Meta)),
    ("basis", DesignBasis, field(default_factory=DesignBasis)),
    ("outline", list[Point], field(default_factory=list)),
    ("catalog", list[CatalogItem], field(default_factory=list)),
    *[(attr, list[cls], field(default_factory=list)) for attr, cls in COLLECTIONS.values()],  # type: ignore[valid-type]
])
_TOP_KEYS = {f for f in HallFileContent.__dataclass_fields__}
_DECODER = msgspec.json.Decoder(decode_type(HallFileContent))
_BUILD_FILE = model_builder(HallFileContent)


class HallFileError(Exception):
    """The file cannot be read as a plan. ``path`` is the JSON path of the problem ("$" for the whole)."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(message)
        self.path = path


# ----------------------------------------------------------------------- save
#: One encoder for every line (json.dumps would build one per call: 100k times on a large plan).
_line = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": ")).encode


def _record(obj: Any) -> dict[str, Any]:
    return vars(obj)


def _in_id_order(objects: dict[str, Any], attr: str) -> list[Any]:
    """The objects sorted by ``natural_key`` of their ids; by number alone when every id is
    ``<prefix>-<digits>`` (the same order, without splitting 100k ids with a regex)."""
    numbers = id_numbers(prefix_of_attr(attr), objects)
    if numbers is None:
        return [objects[k] for k in sorted(objects, key=natural_key)]
    values = list(objects.values())
    return [values[i] for i in sorted(range(len(values)), key=numbers.__getitem__)]


def dumps(doc: Document) -> str:
    """The document as .hall text (stable: same document, same bytes)."""
    top: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "meta": _record(doc.meta),
        "basis": _record(doc.basis),
        "outline": [list(p) for p in doc.outline],
        "catalog": [_record(i) for i in sorted(doc.catalog.custom_items(), key=lambda i: i.key)],
    }
    for attr, _cls in COLLECTIONS.values():
        top[attr] = list(map(_record, _in_id_order(getattr(doc, attr), attr)))
    parts = ["{"]
    keys = sorted(top)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = top[key]
        if isinstance(value, list) and value and isinstance(value[0], dict):
            parts.append(f" {_line(key)}: [")
            parts.append(",\n".join(["  " + line for line in map(_line, value)]))
            parts.append(f" ]{comma}")
        else:
            parts.append(f" {_line(key)}: {_line(value)}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"


def save(doc: Document, path: str | os.PathLike[str]) -> None:
    """Write atomically: a temporary file beside the target, fsync, then replace.

    The file it replaces is kept as ``<name>.bak``.
    """
    target = Path(path)
    text = dumps(doc).encode("utf-8")
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), _file_mode(target))
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if target.exists():
            backup = target.with_name(target.name + ".bak")
            os.replace(target, backup)
        os.replace(tmp_name, target)
    except BaseException:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
        raise
    _fsync_directory(directory)


def _file_mode(target: Path) -> int:
    """The replaced file's permissions, or what a newly created file gets under the umask."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _fsync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
    with _long_lived_objects():
        try:
            decoded = _decode(text)
            return _document(decoded)
        except SchemaError as exc:
            raise HallFileError(str(exc), exc.path) from exc
        except RecursionError as exc:
            raise HallFileError("nested too deeply") from exc


@contextmanager
def _long_lived_objects() -> Iterator[None]:
    """Build a plan's objects straight into the collector's oldest generation.

    A plan's 100k objects live as long as the plan. Left to the cyclic collector, building
    them triggers ~150 young and one or two full collections that scan them and free nothing
    (at 32k GPUs, as long as the rest of the load); merely pausing it leaves one collection
    that scans them all when it resumes (~30 ms). So collection waits while they are built
    (young garbage from before is collected first), then ``freeze``/``unfreeze`` moves every
    tracked object to the oldest generation in constant time. Skipped when someone else has
    frozen objects (unfreezing would undo that) or has turned collection off.
    """
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()


def _decode(text: str | bytes) -> Any:
    """The file's content (a ``HallFileContent`` of model objects), the fast way if it can be."""
    try:
        file = _DECODER.decode(text)
    except (msgspec.DecodeError, UnicodeEncodeError):  # the checked path says what and where
        pass  # (UnicodeEncodeError: text holding a lone surrogate, which json.loads has let through)
    else:
        if file.format == FORMAT_NAME and file.version == FORMAT_VERSION:
            return _BUILD_FILE(file)
    return _decode_checked(text)


def _decode_checked(text: str | bytes) -> Any:
    """The file's content the checked way: says what is wrong and where, runs the migrations."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise HallFileError(f"not UTF-8 text (byte {exc.start})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HallFileError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise HallFileError("not valid JSON: nested too deeply") from exc
    _require(isinstance(data, dict), "$", "expected a JSON object")
    _require(data.get("format") == FORMAT_NAME, "$.format", f'expected "{FORMAT_NAME}"')
    data = _migrate(data)
    for key in data:
        _require(key in _TOP_KEYS, f"$.{key}", "unknown key")
    return convert(data, HallFileContent, "$")


def _require(condition: bool, path: str, problem: str) -> None:
    if not condition:
        raise SchemaError(path, problem)


def _migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = data.get("version")
    _require(isinstance(version, int) and not isinstance(version, bool), "$.version", "missing or not a whole number")
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
        item.custom = True
        catalog.add(item)
    _check_basis(file.basis)
    _require(len(file.outline) == 0 or len(file.outline) >= 3, "$.outline", "an outline needs at least 3 points")
    collections = {attr: getattr(file, attr) for attr, _cls in COLLECTIONS.values()}
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
    doc.meta, doc.basis, doc.outline = file.meta, file.basis, file.outline
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
    choices = {
        "redundancy": REDUNDANCY_CHOICES,
        "load_basis": LOAD_BASIS_CHOICES,
        "fluid": FLUID_CHOICES,
        "floor_method": FLOOR_METHOD_CHOICES,
        "units": UNIT_CHOICES,
        "paper": PAPER_CHOICES,
    }
    for name, allowed in choices.items():
        value = getattr(basis, name)
        _require(value in allowed, f"$.basis.{name}", f"{value!r} is not one of {', '.join(allowed)}")
    _require(basis.voltage_v > 0, "$.basis.voltage_v", "must be above 0")
    _require(0 < basis.power_factor <= 1, "$.basis.power_factor", "must be in (0, 1]")
    _require(0 < basis.derating <= 1, "$.basis.derating", "must be in (0, 1]")
    _require(basis.delta_t_k > 0, "$.basis.delta_t_k", "must be above 0")


_TYPED_KINDS = (("racks", ("rack",)), ("devices", ("node", "switch", "storage", "rack_pdu", "rack_cdu")),
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
    feeds = {rack.feed_a for rack in racks} | {rack.feed_b for rack in racks}
    feeds.discard(None)
    cdus = {rack.cdu for rack in racks}
    cdus.discard(None)
    if not ({rack.rotation for rack in racks} | {unit.rotation for unit in units} <= set(ROTATIONS)
            and {bus.side for bus in doc.busbars.values()} <= set(SIDES)
            and all(feed in doc.busbars for feed in feeds)
            and all(cdu in doc.floor_units or cdu in devices for cdu in cdus)
            and all(rack in doc.racks for rack in {device.rack for device in devices.values()})):
        return False
    ports_of_type = {key: frozenset(items[key].port_names()) for key in {d.type for d in devices.values()}}
    ports_of = {device_id: ports_of_type[device.type] for device_id, device in devices.items()}
    try:  # an end naming no device is a KeyError
        for link in doc.links.values():
            if link.a_port not in ports_of[link.a_device] or link.b_port not in ports_of[link.b_device]:
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
        for name in ("feed_a", "feed_b"):
            ref = getattr(rack, name)
            _require(ref is None or ref in doc.busbars, f"{path}.{name}", f"no busbar {ref!r}")
        _require(rack.cdu is None or rack.cdu in doc.floor_units or rack.cdu in doc.devices,
                 f"{path}.cdu", f"no CDU {rack.cdu!r}")
    for index, unit in enumerate(doc.floor_units.values()):
        _require(unit.rotation in ROTATIONS, f"$.floor_units[{index}].rotation", "must be 0, 90, 180 or 270")
    for index, bus in enumerate(doc.busbars.values()):
        _require(bus.side in SIDES, f"$.busbars[{index}].side", "must be A or B")
    for index, device in enumerate(doc.devices.values()):
        _require(device.rack in doc.racks, f"$.devices[{index}].rack", f"no rack {device.rack!r}")
    ports_of_type: dict[str, set[str]] = {}
    for index, link in enumerate(doc.links.values()):
        for end in ("a", "b"):
            device_id = getattr(link, f"{end}_device")
            device = doc.devices.get(device_id)
            if device is None:
                raise SchemaError(f"$.links[{index}].{end}_device", f"no device {device_id!r}")
            ports = ports_of_type.get(device.type)
            if ports is None:
                ports = ports_of_type[device.type] = set(doc.catalog[device.type].port_names())
            port = getattr(link, f"{end}_port")
            if port not in ports:
                raise SchemaError(f"$.links[{index}].{end}_port", f"{device_id} has no port {port!r}")
