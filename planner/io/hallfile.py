"""Read and write .hall files.

The format is JSON, UTF-8, with keys sorted and every collection sorted by id, one object a
line, so that two revisions of a plan diff readably in git and save → load → save is
byte-identical. Loading checks everything before it returns: a malformed, truncated, hostile
or newer file raises one ``HallFileError`` that names the JSON path, and nothing half-loads.
Saving is atomic (write beside, fsync, replace) and keeps the previous file as ``<name>.bak``.
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
from planner.model.document import Document, natural_key, prefix_of
from planner.model.objects import COLLECTIONS, ROTATIONS, SIDES, Meta
from planner.model.typed import SchemaError, build, convert

FORMAT_NAME = "hall"
FORMAT_VERSION = 1

#: version N → function turning a version-N document dict into version N+1.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

_TOP_KEYS = {"format", "version", "meta", "basis", "outline", "catalog", *[c for c, _ in COLLECTIONS.values()]}


class HallFileError(Exception):
    """The file cannot be read as a plan. ``path`` is the JSON path of the problem ("$" for the whole)."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(message)
        self.path = path


# ----------------------------------------------------------------------- save
def _line(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _record(obj: Any) -> dict[str, Any]:
    return dict(vars(obj))


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
        objects = getattr(doc, attr)
        top[attr] = [_record(objects[k]) for k in sorted(objects, key=natural_key)]
    parts = ["{"]
    keys = sorted(top)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = top[key]
        if isinstance(value, list) and value and isinstance(value[0], dict):
            parts.append(f" {_line(key)}: [")
            parts.append(",\n".join(f"  {_line(v)}" for v in value))
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
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HallFileError(f"not UTF-8 text (byte {exc.start})") from exc
    return loads(text)


def loads(text: str) -> Document:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HallFileError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except RecursionError as exc:
        raise HallFileError("not valid JSON: nested too deeply") from exc
    try:
        return _from_dict(data)
    except SchemaError as exc:
        raise HallFileError(str(exc), exc.path) from exc
    except RecursionError as exc:
        raise HallFileError("nested too deeply") from exc


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


def _from_dict(data: Any) -> Document:
    _require(isinstance(data, dict), "$", "expected a JSON object")
    _require(data.get("format") == FORMAT_NAME, "$.format", f'expected "{FORMAT_NAME}"')
    data = _migrate(data)
    for key in data:
        _require(key in _TOP_KEYS, f"$.{key}", "unknown key")

    catalog = builtin_catalog()
    custom_entries = data.get("catalog", [])
    _require(isinstance(custom_entries, list), "$.catalog", "expected a list")
    for index, entry in enumerate(custom_entries):
        path = f"$.catalog[{index}]"
        item: CatalogItem = build(CatalogItem, entry, path)
        _require(item.kind in ALL_KINDS, f"{path}.kind", f"unknown kind {item.kind!r}")
        _require(item.key not in catalog or catalog[item.key].custom, f"{path}.key", "clashes with a built-in type")
        item.custom = True
        catalog.add(item)

    doc = Document(catalog)
    if "meta" in data:
        doc.meta = build(Meta, data["meta"], "$.meta")
    if "basis" in data:
        doc.basis = build(DesignBasis, data["basis"], "$.basis")
        _check_basis(doc.basis)
    if "outline" in data:
        doc.outline = build_outline(data["outline"])

    for attr, cls in COLLECTIONS.values():
        items = data.get(attr, [])
        _require(isinstance(items, list), f"$.{attr}", "expected a list")
        expected_prefix = prefix_of_attr(attr)
        for index, entry in enumerate(items):
            path = f"$.{attr}[{index}]"
            obj = build(cls, entry, path)
            _require(prefix_of(obj.id) == expected_prefix and obj.id[len(expected_prefix) + 1 :].isdigit(),
                     f"{path}.id", f"expected an id like {expected_prefix}-1")
            _require(obj.id not in getattr(doc, attr), f"{path}.id", f"duplicate id {obj.id}")
            doc.add(obj)
    _check_references(doc)
    return doc


def prefix_of_attr(attr: str) -> str:
    return next(prefix for prefix, (name, _cls) in COLLECTIONS.items() if name == attr)


def build_outline(value: Any) -> list[tuple[float, float]]:
    points = convert(value, list[tuple[float, float]], "$.outline")
    _require(len(points) == 0 or len(points) >= 3, "$.outline", "an outline needs at least 3 points")
    return points


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


def _check_references(doc: Document) -> None:
    typed = (("racks", ("rack",)), ("devices", ("node", "switch", "storage", "rack_pdu", "rack_cdu")),
             ("floor_units", ("row_cdu", "cabinet")), ("busbars", ("busbar",)))
    for attr, kinds in typed:
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
