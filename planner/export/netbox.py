"""The plan as a NetBox 4.4–4.6 import set: a folder of bulk-import CSVs and device-type YAMLs, with a
README.txt giving the order to import them in (``planner export PLAN --to netbox -o DIR``).

Two steps, so that one NetBox holds many halls and takes a revision of one:

- ``shared/``: manufacturers, device roles, tags and device types, the objects every hall shares.
  Each row depends on nothing but what it names: every role and tag the planner writes, the
  built-in catalogue's manufacturers and those of the types used, and a device type by its
  catalogue entry and the fabric kind alone (its model from ``netbox_names.device_type_models``,
  the same in every plan), so a NetBox that has them from an earlier hall skips the step; NetBox's
  form refuses a row that exists, and the whole file with it.
- the hall: site, locations, racks, devices, cables, power panels and feeds, and the power-feed
  cables (``netbox_cables``). Every cable end names its site; ``site_in_hostnames`` puts the site in
  the default hostnames. A row whose NetBox id the plan knows (``Document.netbox.ids``) goes to
  ``<file>-update.csv`` with an ``id`` column (NetBox then updates that object: BulkImportView,
  ``netbox/netbox/views/generic/bulk_views.py``); the others stay in ``<file>.csv``. Ids the plan
  knows of objects it no longer has are listed in README.txt: a CSV import deletes nothing.

Column names and slugs are NetBox's own (``planner.io.netbox_names`` cites the source files); the
set is written so that every reference resolves: every device's rack is in racks.csv, its type a
YAML in shared/device-types/, its role in shared/device-roles.csv, and every cable end names a
component the device type defines. Names NetBox would refuse (too long, or two devices whose names differ only in
case, which NetBox's unique-per-site rule counts as one) stop the export with the reason
(``ValueError``) rather than leaving a set that fails half-way through an import.

How the plan maps onto NetBox:

- site and location: ``--site``/``--location``, else the title block's project and hall; each
  row of racks is a location inside it (``<hall> row <row>``), so the import can stand them in rows;
- rack: name, a four-post cabinet cooled front to rear, 19-inch rails, U height, outer size in mm,
  weight and maximum load in kg, and the catalogue type's name as description;
- device: name = hostname (``Document.hostname``), role by kind and switch role, position = its
  lowest U on the front face; 0U rack PDUs are in their rack with no position and no face (NetBox
  refuses a position for a 0U type, ``dcim/models/devices.py`` Device.clean);
- floor unit (a row CDU, a power cabinet): a device in no rack, in its row's location (the hall's
  when no rack stands in that row), named as the unit; NetBox 4.6 has no cooling models, and its
  devices have no floor position, so the reader stands them beside the racks;
- cable: every cable of every network but the coolant hoses (NetBox has no model for a hose):
  a data cable's ends as ``dcim.interface``, a power cord's as ``dcim.powerport`` (the PSU) and
  ``dcim.poweroutlet`` (the rack PDU outlet); NetBox cable type by media (``power`` for a cord),
  the label, the stock length bought in metres, status ``planned`` until the cable is run and
  ``connected`` after, the media's name as description (NetBox has one slug for DR4 and FR4
  single-mode: the description tells them apart), the rail's colour, and the tags of its network,
  tier and rail (``tags.csv``: CableImportForm takes tag slugs, of tags that exist);
- busbar run → power panel (the origin of the feeds it gives, named as the run); each rack's feed
  A and feed B tap-off → one power feed ``<rack>-A`` / ``<rack>-B`` on that panel: primary for A,
  redundant for B, AC, three-phase, the busbar type's voltage, the tap-off's rating as amperage
  and the design basis's continuous-load derating as max_utilization (80 % NEC, 100 % IEC); each
  rack PDU's inlet cabled to the feed of its side, through a tap-off box where a side has several.

Every text cell goes through ``sheet_text`` because people open these files in a spreadsheet: a
name beginning with ``= + - @`` gets a leading ``'``. NetBox strips only spaces, so it stores that
name with the apostrophe; every file writes it the same way (references still resolve), README.txt
lists each such name, and ``planner import --from netbox`` reads it back as typed.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

import yaml

from planner.export.netbox_cables import Keyed, cable_rows, feed_rows, rail_tags
from planner.export.netbox_checks import Names
from planner.export.netbox_modules import MODULE_STATUS, module_type, planned_modules
from planner.export.netbox_rack_types import RACK_TYPE_COLUMNS, shared_rack_types
from planner.export.netbox_readme import Deleted, readme
from planner.export.netbox_twins import twin_records
from planner.export.netbox_types import device_type, end_types
from planner.export.options import ExportOptions
from planner.export.sheet_text import sheet_text
from planner.io.netbox_names import (
    CABLE_COLUMNS,
    DESCRIPTION_MAX,
    DEVICE_COLUMNS,
    DEVICE_NAME_MAX,
    FEED_CABLE_COLUMNS,
    ID_COLUMN,
    LOCATION_COLUMNS,
    LOCATION_KEY,
    MANUFACTURER_COLUMNS,
    MODULE_COLUMNS,
    NAME_MAX,
    NETWORK_TAGS,
    POWER_FEED_COLUMNS,
    POWER_PANEL_COLUMNS,
    RACK_AIRFLOW,
    RACK_COLUMNS,
    RACK_FORM_FACTOR,
    RACK_WIDTH_IN,
    ROLE_COLUMNS,
    SHARED_FOLDER,
    SITE_COLUMNS,
    SITE_KEY,
    TAG_COLUMNS,
    TIER_TAGS,
    UPDATE_SUFFIX,
    Tag,
    device_type_models,
    every_role,
    feed_key,
    manufacturer_of,
    role_for,
    row_location,
    row_location_key,
    site_hostname,
    slugify,
    type_slug,
)
from planner.model.catalog import builtin_catalog
from planner.model.document import Document, natural_key
from planner.model.objects import Device, FloorUnit, Rack

STATUS = "planned"
#: How many refused names the error message quotes.
QUOTED = 3


def hostnames(doc: Document, devices: Iterable[Device], site: str, site_in_hostnames: bool) -> dict[str, str]:
    """Device id → its NetBox name: the hostname, the site in front of a default one when asked
    (``ExportOptions.site_in_hostnames``); a hostname the user gave is kept as given."""
    return {d.id: site_hostname(site, doc.hostname(d)) if site_in_hostnames and not d.hostname else doc.hostname(d)
            for d in devices}


def write_netbox(doc: Document, folder: Path, options: ExportOptions) -> None:
    """Fill ``folder`` (empty) with the NetBox import set of ``doc``; ValueError if NetBox would
    refuse a name (nothing is written then: the registry writes the folder whole or not at all)."""
    names = Names()
    site_text = options.site or doc.meta.project
    site = names.check("site", site_text, NAME_MAX)
    location = names.check("location", options.location or doc.meta.hall, NAME_MAX)
    racks = sorted(doc.racks.values(), key=lambda r: natural_key(r.name))
    devices = [d for rack in racks for d in doc.devices_in(rack.id)]
    named = hostnames(doc, devices, site_text, options.site_in_hostnames)
    names.unique("rack", (r.name for r in racks))
    rack_names = {r.id: names.check("rack", r.name, NAME_MAX) for r in racks}
    rows = sorted({r.row for r in racks if r.row}, key=natural_key)
    row_locations = {row: names.check("location", row_location(location, row), NAME_MAX) for row in rows}
    rack_locations = {r.id: row_locations.get(r.row, location) for r in racks}
    device_names = {d: names.check("device", h, DEVICE_NAME_MAX) for d, h in named.items()}
    units = sorted(doc.floor_units.values(), key=lambda u: natural_key(u.name))
    unit_names = {key: names.check("device", name, DEVICE_NAME_MAX)
                  for key, name in floor_unit_names(units, site_text, options.site_in_hostnames).items()}
    used = {key: doc.catalog[key] for key in [*(d.type for d in devices), *(u.type for u in units)]}
    models = device_type_models(used.values())
    ends = {key: end_types(doc, item) for key, item in used.items()}
    cables = cable_rows(doc, site, device_names, ends, names)
    options.report(0.5)
    panels, feeds, fed = _power(doc, racks, site, location, rack_locations, rack_names, names)

    def tap_off_name(rack: Rack, side: str) -> str:
        own = f"{rack.name}-TAP-{side}"
        return site_hostname(site_text, own) if options.site_in_hostnames else own

    chain = feed_rows(doc, racks, site, {r.id: (rack_locations[r.id], rack_names[r.id]) for r in racks},
                      device_names, fed, tap_off_name, names)
    names.unique("device", [*named.values(), *chain.tap_names, *unit_names.values()])
    for model in models.values():
        names.check("device type", model, NAME_MAX)
    names.unique("device-type slug", (type_slug(item) for item in used.values()))
    modules, refused = planned_modules(doc)
    names.problems += refused
    if names.problems:
        more = f" (and {len(names.problems) - QUOTED} more)" if len(names.problems) > QUOTED else ""
        raise ValueError("NetBox would refuse this plan: " + "; ".join(names.problems[:QUOTED]) + more)

    shared = folder / SHARED_FOLDER
    types_dir = shared / "device-types"
    types_dir.mkdir(parents=True)
    for key, item in sorted(used.items()):
        _yaml(types_dir / f"{type_slug(item)}.yaml", device_type(doc, item, models[key]))
    for slug, data in sorted(chain.types.items()):
        _yaml(types_dir / f"{slug}.yaml", data)
    rack_types = shared_rack_types(doc.catalog, (r.type for r in racks))
    model_of_slug = {row["slug"]: row["model"] for row in rack_types}
    rack_models = {r.type: names.cell(model_of_slug[type_slug(doc.catalog[r.type])]) for r in racks}
    _write(shared / "rack-types.csv", RACK_TYPE_COLUMNS, [_rack_type_row(row, names) for row in rack_types])
    kinds = sorted({module.kind for module in modules})
    if kinds:
        (shared / "module-types").mkdir()
    for kind in kinds:
        data = module_type(kind)
        _yaml(shared / "module-types" / f"{slugify(data['model'])}.yaml", data)
    makers = {manufacturer_of(item) for item in [*builtin_catalog().items.values(), *used.values()]}
    _write(shared / "manufacturers.csv", MANUFACTURER_COLUMNS,
           [(names.cell(m), slugify(m) or "manufacturer", "") for m in sorted(makers)])
    _write(shared / "device-roles.csv", ROLE_COLUMNS, [(r.name, r.slug, r.color, r.description) for r in every_role()])
    _write(shared / "tags.csv", TAG_COLUMNS, [(t.name, t.slug, t.color, t.description) for t in _tags(doc)])

    ids = doc.netbox.ids
    files = _Files(folder, ids)
    files.write("sites.csv", SITE_COLUMNS, [(SITE_KEY, (site, slugify(site) or "site", STATUS, ""))])
    files.write("locations.csv", LOCATION_COLUMNS,
                [(LOCATION_KEY, (site, "", location, slugify(location) or "location", STATUS, ""))]
                + [(row_location_key(row), (site, location, row_locations[row], slugify(row_locations[row]) or "row",
                                            STATUS, f"Row {row} of racks")) for row in rows])
    files.write("racks.csv", RACK_COLUMNS,
                [(r.id, _rack_row(doc, r, site, rack_locations[r.id], rack_names, rack_models)) for r in racks])
    files.write("devices.csv", DEVICE_COLUMNS,
                [(d.id, _device_row(doc, d, site, rack_locations[d.rack], rack_names, device_names, models, names))
                 for d in devices]
                + [(u.id, _floor_unit_row(doc, u, site, row_locations.get(u.row, location), unit_names, models, names))
                   for u in units])
    every_name = {**device_names, **unit_names}
    files.write("modules.csv", MODULE_COLUMNS,
                [(f"{m.device}/module {m.bay}", (every_name[m.device], m.bay, m.model, MODULE_STATUS)) for m in modules])
    # a twin cable pushed over the API is one NetBox cable of two port-cables: no cables.csv row
    # (one end a side) can update it, and a new row would take its ports (``netbox_twins``)
    twins = twin_records(ids)
    files.keys.update(key for key, _row in cables if key in twins)
    files.write("cables.csv", CABLE_COLUMNS, [(key, row) for key, row in cables if key not in twins])
    options.report(0.8)
    files.write("power-panels.csv", POWER_PANEL_COLUMNS, panels)
    files.write("power-feeds.csv", POWER_FEED_COLUMNS, feeds)
    if chain.tap_offs:
        files.write("tap-offs.csv", DEVICE_COLUMNS, chain.tap_offs)
    if chain.cables:
        files.write("power-feed-cables.csv", FEED_CABLE_COLUMNS, chain.cables)
    deleted = [Deleted(key, number) for key, number in sorted(ids.items(), key=lambda i: natural_key(i[0]))
               if key not in files.keys]
    (folder / "README.txt").write_text(
        readme(doc, site, location, len(used) + len(chain.types), names.neutralised, files.written, deleted,
               chain.unfed, len(kinds), sum(key in twins for key, _row in cables)), encoding="utf-8")
    options.report(1.0)


class _Files:
    """The hall's files: each row with a NetBox id the plan knows goes to ``<name>-update.csv``
    with the ``id`` column, the others to ``<name>.csv`` (written, header only, when no row has
    an id); ``keys`` are the plan keys written, ``written`` the file names in order."""

    def __init__(self, folder: Path, ids: dict[str, int]) -> None:
        self.folder, self.ids = folder, ids
        self.keys: set[str] = set()
        self.written: list[str] = []

    def write(self, name: str, columns: tuple[str, ...], rows: list[Keyed]) -> None:
        self.keys.update(key for key, _row in rows)
        known = [(self.ids[key], *row) for key, row in rows if key in self.ids]
        new = [row for key, row in rows if key not in self.ids]
        if new or not known:
            _write(self.folder / name, columns, new)
            self.written.append(name)
        if known:
            update = f"{name.removesuffix('.csv')}{UPDATE_SUFFIX}.csv"
            _write(self.folder / update, (ID_COLUMN, *columns), known)
            self.written.append(update)


def _yaml(path: Path, data: dict) -> None:
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, explicit_start=True), encoding="utf-8")


def _write(path: Path, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        writer.writerows(rows)


def _number(value: float) -> str:
    """A decimal NetBox stores with two places (weights, lengths), without trailing zeros."""
    return f"{round(value, 2):g}"


def _rack_type_row(row: dict, names: Names) -> tuple:
    """A rack type as a rack-types.csv row: names as cells (``Names.cell``), no rating as blank."""
    return tuple(names.cell(row[c]) if c in ("manufacturer", "model", "description") else "" if row[c] is None
                 else _number(row[c]) if c == "weight" else row[c] for c in RACK_TYPE_COLUMNS)


def _rack_row(doc: Document, rack: Rack, site: str, location: str, rack_names: dict[str, str],
              rack_models: dict[str, str]) -> tuple:
    item = doc.catalog[rack.type]
    return (site, location, rack_names[rack.id], STATUS, rack_models[rack.type], RACK_FORM_FACTOR, RACK_WIDTH_IN, item.rack_units,
            round(item.width_m * 1000), round(item.depth_m * 1000), "mm", RACK_AIRFLOW, _number(item.weight_kg),
            "" if item.max_load_kg is None else round(item.max_load_kg), "kg", sheet_text(item.name[:DESCRIPTION_MAX]))


def _device_row(doc: Document, device: Device, site: str, location: str, rack_names: dict[str, str],
                device_names: dict[str, str], models: dict[str, str], names: Names) -> tuple:
    item = doc.catalog[device.type]
    role = role_for(item.kind, device.role)
    racked = item.height_u > 0
    return (device_names[device.id], role.name, names.cell(manufacturer_of(item)), names.cell(models[device.type]),
            STATUS, site, location, rack_names[device.rack], device.u if racked else "", "front" if racked else "")


def floor_unit_names(units: Iterable[FloorUnit], site: str, site_in_hostnames: bool) -> dict[str, str]:
    """Floor unit id → its NetBox device name: its name, the site in front when asked."""
    return {u.id: site_hostname(site, u.name) if site_in_hostnames else u.name for u in units}


def _floor_unit_row(doc: Document, unit: FloorUnit, site: str, location: str, unit_names: dict[str, str],
                    models: dict[str, str], names: Names) -> tuple:
    """A row CDU or power cabinet: a device in no rack, in its row's location (module docstring)."""
    item = doc.catalog[unit.type]
    return (unit_names[unit.id], role_for(item.kind).name, names.cell(manufacturer_of(item)),
            names.cell(models[unit.type]), STATUS, site, location, "", "", "")


def _tags(doc: Document) -> list[Tag]:
    """tags.csv: the tag of every network, tier and rail the cables may carry (all of them, so the
    file is the same whatever the plan holds, and a second hall finds them in NetBox)."""
    return [*NETWORK_TAGS.values(), *TIER_TAGS.values(), *rail_tags(link.rail for link in doc.links.values())]


def _power(doc: Document, racks: list[Rack], site: str, location: str, rack_locations: dict[str, str],
           rack_names: dict[str, str], names: Names) -> tuple[list[Keyed], list[Keyed], dict[tuple[str, str], tuple[str, str]]]:
    """power-panels.csv rows (one per busbar run), power-feeds.csv rows (one per rack feed), and
    each feed written: (rack id, side) → (power panel, feed name) as written."""
    busbars = sorted(doc.busbars.values(), key=lambda b: natural_key(b.name))
    names.unique("busbar", (b.name for b in busbars))
    panels = [(b.id, (site, location, names.check("power panel", b.name, NAME_MAX),
                      sheet_text(f"Busbar run, side {b.side}: {doc.catalog[b.type].name}"[:DESCRIPTION_MAX])))
              for b in busbars]
    feeds: list[Keyed] = []
    fed: dict[tuple[str, str], tuple[str, str]] = {}
    derating = round(doc.basis.derating * 100)
    for rack in racks:
        for side, busbar_id, kind in (("A", rack.feed_a, "primary"), ("B", rack.feed_b, "redundant")):
            busbar = doc.busbars.get(busbar_id or "")
            if busbar is None:
                continue
            item = doc.catalog[busbar.type]
            amperage = round(item.tapoff_rating_a or item.rating_a)
            if amperage < 1:
                continue
            phase = "single-phase" if item.phases == 1 else "three-phase"
            panel = names.cell(busbar.name)
            name = names.check("power feed", f"{rack.name}-{side}", NAME_MAX)
            fed[(rack.id, side)] = (panel, name)
            feeds.append((feed_key(rack.id, side),
                          (site, panel, rack_locations[rack.id], rack_names[rack.id], name, STATUS, kind, "ac", phase,
                           round(item.voltage_v or doc.basis.voltage_v), amperage, max(1, min(100, derating)),
                           sheet_text(f"Tap-off of {busbar.name} to {rack.name}"[:DESCRIPTION_MAX]))))
    return panels, feeds, fed
