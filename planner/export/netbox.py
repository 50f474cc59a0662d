"""The plan as a NetBox 4.x import set: a folder of bulk-import CSVs and device-type YAMLs, with a
README.txt giving the order to import them in (``planner export PLAN --to netbox -o DIR``).

Column names and slugs are NetBox's own (``planner.io.netbox_names`` cites the source files); the
set is written so that every reference resolves: every device's rack is in racks.csv, its type a
YAML in device-types/, its role in device-roles.csv, and every cable end names an interface the
device type defines. Names NetBox would refuse (too long, or two devices whose names differ only in
case, which NetBox's unique-per-site rule counts as one) stop the export with the reason
(``ValueError``) rather than leaving a set that fails half-way through an import.

How the plan maps onto NetBox:

- site and location: ``--site``/``--location``, else the title block's project and hall; each
  row of racks is a location inside it (``<hall> row <row>``), so the import can stand them in rows;
- rack: name, 19-inch rails, U height, outer size in mm, weight and maximum load in kg, and the
  catalogue type's name as description;
- device: name = hostname (``Document.hostname``), role by kind and switch role, position = its
  lowest U on the front face; 0U rack PDUs are in their rack with no position and no face (NetBox
  refuses a position for a 0U type, ``dcim/models/devices.py`` Device.clean);
- cable: every cable of every network but the coolant hoses (NetBox has no model for a hose):
  a data cable's ends as ``dcim.interface``, a power cord's as ``dcim.powerport`` (the PSU) and
  ``dcim.poweroutlet`` (the rack PDU outlet); NetBox cable type by media (``power`` for a cord),
  the label, the stock length bought in metres, status ``planned`` until the cable is run and
  ``connected`` after, the media's name as description (NetBox has one slug for DR4 and FR4
  single-mode: the description tells them apart), and the tags of its network and tier
  (``tags.csv``: CableImportForm takes tag slugs, of tags that exist);
- busbar run → power panel (the origin of the feeds it gives, named as the run); each rack's feed
  A and feed B tap-off → one power feed ``<rack>-A`` / ``<rack>-B`` on that panel: primary for A,
  redundant for B, AC, three-phase, the busbar type's voltage, the tap-off's rating as amperage
  and the design basis's continuous-load derating as max_utilization (80 % NEC, 100 % IEC).

Every text cell goes through ``sheet_text`` because people open these files in a spreadsheet: a
name beginning with ``= + - @`` gets a leading ``'``. NetBox strips only spaces, so it stores that
name with the apostrophe; every file writes it the same way (references still resolve), README.txt
lists each such name, and ``planner import --from netbox`` reads it back as typed.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import yaml

from planner.export.netbox_types import device_type, end_types
from planner.export.options import ExportOptions
from planner.export.sheet_text import clean_text, sheet_text, starts_like_formula
from planner.io.netbox_names import (
    CABLE_COLUMNS,
    CABLE_TYPES,
    DESCRIPTION_MAX,
    DEVICE_COLUMNS,
    DEVICE_NAME_MAX,
    LOCATION_COLUMNS,
    MANUFACTURER_COLUMNS,
    NAME_MAX,
    NETWORK_TAGS,
    POWER_CABLE,
    POWER_FEED_COLUMNS,
    POWER_PANEL_COLUMNS,
    RACK_COLUMNS,
    ROLE_COLUMNS,
    SITE_COLUMNS,
    TAG_COLUMNS,
    TIER_TAGS,
    Tag,
    cable_status,
    device_type_models,
    manufacturer_of,
    role_for,
    row_location,
    slugify,
    type_slug,
)
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import NETWORK_WORDS, network_of
from planner.model.objects import Device, Rack
from planner.model.ports import COOLANT, NETWORKS, POWER

#: Rail-to-rail width of every catalogue rack, inches (RackWidthChoices): EIA-310 19-inch IT racks.
RACK_WIDTH_IN = 19
STATUS = "planned"
#: How many refused names the error message quotes.
QUOTED = 3


class _Names:
    """Every name the set writes, checked once against NetBox's limits; collects the problems."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.neutralised: set[str] = set()

    def cell(self, text: str) -> str:
        value = str(sheet_text(text))
        if value != text and starts_like_formula(text):
            self.neutralised.add(text)
        return value

    def check(self, what: str, text: str, limit: int) -> str:
        if len(text) > limit:
            self.problems.append(f"{what} {text[:40]}… has {len(text)} characters, NetBox allows {limit}")
        return self.cell(text)

    def unique(self, what: str, names: Iterable[str]) -> None:
        seen: dict[str, str] = {}
        for name in names:
            key = name.strip().casefold()
            if key in seen:
                case = f" (NetBox ignores case: {seen[key]!r})" if seen[key] != name else ""
                self.problems.append(f"two {what}s are both called {name!r}{case}")
            seen[key] = name


def write_netbox(doc: Document, folder: Path, options: ExportOptions) -> None:
    """Fill ``folder`` (empty) with the NetBox import set of ``doc``; ValueError if NetBox would
    refuse a name (nothing is written then: the registry writes the folder whole or not at all)."""
    names = _Names()
    site = names.check("site", options.site or doc.meta.project, NAME_MAX)
    location = names.check("location", options.location or doc.meta.hall, NAME_MAX)
    racks = sorted(doc.racks.values(), key=lambda r: natural_key(r.name))
    devices = [d for rack in racks for d in doc.devices_in(rack.id)]
    hostnames = {d.id: doc.hostname(d) for d in devices}
    names.unique("rack", (r.name for r in racks))
    names.unique("device", hostnames.values())
    rack_names = {r.id: names.check("rack", r.name, NAME_MAX) for r in racks}
    rows = sorted({r.row for r in racks if r.row}, key=natural_key)
    row_locations = {row: names.check("location", row_location(location, row), NAME_MAX) for row in rows}
    rack_locations = {r.id: row_locations.get(r.row, location) for r in racks}
    device_names = {d: names.check("device", h, DEVICE_NAME_MAX) for d, h in hostnames.items()}
    used = {d.type: doc.catalog[d.type] for d in devices}
    models = device_type_models(used.values())
    ends = {key: end_types(doc, item) for key, item in used.items()}
    cable_rows = _cables(doc, device_names, ends, names)
    options.report(0.5)
    for model in models.values():
        names.check("device type", model, NAME_MAX)
    names.unique("device-type slug", (type_slug(item) for item in used.values()))
    if names.problems:
        more = f" (and {len(names.problems) - QUOTED} more)" if len(names.problems) > QUOTED else ""
        raise ValueError("NetBox would refuse this plan: " + "; ".join(names.problems[:QUOTED]) + more)

    types_dir = folder / "device-types"
    types_dir.mkdir()
    for key, item in sorted(used.items()):
        text = yaml.safe_dump(device_type(doc, item, models[key]), sort_keys=False, allow_unicode=True,
                              explicit_start=True)
        (types_dir / f"{type_slug(item)}.yaml").write_text(text, encoding="utf-8")
    manufacturers = sorted({manufacturer_of(item) for item in used.values()})
    _write(folder / "manufacturers.csv", MANUFACTURER_COLUMNS,
           [(names.cell(m), slugify(m) or "manufacturer", "") for m in manufacturers])
    roles = {role_for(doc.catalog[d.type].kind, d.role) for d in devices}
    _write(folder / "device-roles.csv", ROLE_COLUMNS,
           [(r.name, r.slug, r.color, r.description) for r in sorted(roles, key=lambda r: r.slug)])
    _write(folder / "sites.csv", SITE_COLUMNS, [(site, slugify(site) or "site", STATUS, "")])
    _write(folder / "locations.csv", LOCATION_COLUMNS,
           [(site, "", location, slugify(location) or "location", STATUS, "")]
           + [(site, location, row_locations[row], slugify(row_locations[row]) or "row", STATUS, f"Row {row} of racks")
              for row in rows])
    _write(folder / "racks.csv", RACK_COLUMNS,
           [_rack_row(doc, r, site, rack_locations[r.id], rack_names) for r in racks])
    _write(folder / "devices.csv", DEVICE_COLUMNS,
           [_device_row(doc, d, site, rack_locations[d.rack], rack_names, device_names, models, names)
            for d in devices])
    _write(folder / "tags.csv", TAG_COLUMNS, [(t.name, t.slug, t.color, t.description) for t in _tags()])
    _write(folder / "cables.csv", CABLE_COLUMNS, cable_rows)
    options.report(0.8)
    panels, feeds = _power(doc, racks, site, location, rack_locations, rack_names, names)
    _write(folder / "power-panels.csv", POWER_PANEL_COLUMNS, panels)
    _write(folder / "power-feeds.csv", POWER_FEED_COLUMNS, feeds)
    (folder / "README.txt").write_text(_readme(doc, site, location, len(used), names.neutralised), encoding="utf-8")
    options.report(1.0)


def _write(path: Path, columns: tuple[str, ...], rows: Iterable[tuple]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        writer.writerows(rows)


def _number(value: float) -> str:
    """A decimal NetBox stores with two places (weights, lengths), without trailing zeros."""
    return f"{round(value, 2):g}"


def _rack_row(doc: Document, rack: Rack, site: str, location: str, rack_names: dict[str, str]) -> tuple:
    item = doc.catalog[rack.type]
    return (site, location, rack_names[rack.id], STATUS, RACK_WIDTH_IN, item.rack_units,
            round(item.width_m * 1000), round(item.depth_m * 1000), "mm", _number(item.weight_kg),
            "" if item.max_load_kg is None else round(item.max_load_kg), "kg", sheet_text(item.name[:DESCRIPTION_MAX]))


def _device_row(doc: Document, device: Device, site: str, location: str, rack_names: dict[str, str],
                device_names: dict[str, str], models: dict[str, str], names: _Names) -> tuple:
    item = doc.catalog[device.type]
    role = role_for(item.kind, device.role)
    racked = item.height_u > 0
    return (device_names[device.id], role.name, names.cell(manufacturer_of(item)), names.cell(models[device.type]),
            STATUS, site, location, rack_names[device.rack], device.u if racked else "", "front" if racked else "")


def _cables(doc: Document, device_names: dict[str, str], ends: dict[str, dict[str, str]],
            names: _Names) -> list[tuple]:
    """cables.csv rows of every network but the coolant hoses (NetBox has no model for a hose); a
    cable whose end NetBox could not find (a port its type lacks, a device outside any rack) or
    that shares a port with another is a problem: NetBox imports a file whole or not at all, and
    one such row would stop it."""
    rows: list[tuple] = []
    used: set[tuple[str, str]] = set()
    media_names = {key: media.name for key, media in doc.catalog.media.items()}
    for link in sorted(doc.links.values(), key=lambda l: natural_key(l.id)):
        network = network_of(link)
        if network == COOLANT:
            continue
        name = cable_label(doc, link)
        kinds = []
        for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            device = doc.devices.get(device_id)
            kind = ends[device.type].get(port, "") if device is not None and device_id in device_names else ""
            if not kind:
                names.problems.append(f"cable {name}: {device_id} {port} is not a port of a racked device")
            elif (device_id, port) in used:
                names.problems.append(f"cable {name}: {device_names[device_id]} {port} has two cables")
            used.add((device_id, port))
            kinds.append(kind)
        tags = [NETWORK_TAGS[network].slug] + ([TIER_TAGS[link.tier].slug] if link.tier in TIER_TAGS else [])
        rows.append((device_names.get(link.a_device, ""), kinds[0], link.a_port,
                     device_names.get(link.b_device, ""), kinds[1], link.b_port,
                     POWER_CABLE if network == POWER else CABLE_TYPES.get(link.media, ""), cable_status(link.state),
                     names.check("cable label", name, NAME_MAX),
                     _number(link.stock_m) if link.stock_m else "", "m" if link.stock_m else "",
                     media_names.get(link.media, "")[:DESCRIPTION_MAX], ",".join(tags)))
    return rows


def _tags() -> list[Tag]:
    """tags.csv: the tag of every network and tier the cables carry (all of them, so the set's tags
    are the same whatever the plan holds, and a second import finds them there)."""
    return [*NETWORK_TAGS.values(), *TIER_TAGS.values()]


def _power(doc: Document, racks: list[Rack], site: str, location: str, rack_locations: dict[str, str],
           rack_names: dict[str, str], names: _Names) -> tuple[list[tuple], list[tuple]]:
    """power-panels.csv rows (one per busbar run) and power-feeds.csv rows (one per rack feed)."""
    busbars = sorted(doc.busbars.values(), key=lambda b: natural_key(b.name))
    names.unique("busbar", (b.name for b in busbars))
    panels = [(site, location, names.check("power panel", b.name, NAME_MAX),
               sheet_text(f"Busbar run, side {b.side}: {doc.catalog[b.type].name}"[:DESCRIPTION_MAX]))
              for b in busbars]
    feeds = []
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
            feeds.append((site, names.cell(busbar.name), rack_locations[rack.id], rack_names[rack.id],
                          names.check("power feed", f"{rack.name}-{side}", NAME_MAX), STATUS, kind, "ac", phase,
                          round(item.voltage_v or doc.basis.voltage_v), amperage, max(1, min(100, derating)),
                          sheet_text(f"Tap-off of {busbar.name} to {rack.name}"[:DESCRIPTION_MAX])))
    return panels, feeds


def _readme(doc: Document, site: str, location: str, types: int, neutralised: set[str]) -> str:
    out = io.StringIO()
    meta = doc.meta
    project, hall, revision = clean_text(meta.project), clean_text(meta.hall), clean_text(meta.revision)
    counts = Counter(network_of(link) for link in doc.links.values())
    cables = sum(n for network, n in counts.items() if network != COOLANT)
    by_network = ", ".join(f"{counts[n]} {NETWORK_WORDS[n]}" for n in NETWORKS if n != COOLANT and counts[n])
    out.write(f"""NetBox import set for {project} / {hall}, revision {revision}
Written by Hall Planner (planner export --to netbox) for NetBox 4.x. Site {site!r}, location {location!r}.

Import in this order (each CSV: <object list> > Import, upload the file, format CSV;
each YAML: Devices > Device Types > Import, format YAML):

 1. sites.csv          the site (skip it if the site exists already: every file names it)
 2. locations.csv      the location (the hall) inside the site, and one location in it
                       per row of racks ("<hall> row <row>"): NetBox has no rows
 3. manufacturers.csv  manufacturers of the device types ("Generic" for catalogue classes)
 4. device-roles.csv   device roles: GPU node, compute, storage and management switches,
                       storage, PDU, CDU, coolant manifold
 5. device-types/      {types} device type(s), devicetype-library schema: interfaces of every
                       network (BMC, mgmt0 and eth0 mgmt-only), PSU power ports with their
                       draw, rack PDU inlets and outlets (C13/C19, feed leg by phase)
 6. racks.csv          {len(doc.racks)} racks
 7. devices.csv        devices by hostname with rack, position (lowest U) and face;
                       0U rack PDUs have no position (NetBox keeps them beside the rails)
 8. tags.csv           Customization > Tags > Import: a tag per network and per cable tier
 9. cables.csv         {cables} cables:
                       {by_network or "none"};
                       data cables between interfaces (type by media, label, stock length
                       in m, the media's name as description), power cords from a PSU's
                       power port to a PDU outlet; each tagged with its network and tier
10. power-panels.csv   one power panel per busbar run
11. power-feeds.csv    one power feed per rack and side: <rack>-A (primary) on the rack's
                       feed A busbar, <rack>-B (redundant) on feed B; amperage = tap-off rating,
                       max_utilization = the plan's continuous-load derating

Racks have no place on the floor in NetBox: the plan file keeps the layout.
""")
    if counts[COOLANT]:
        out.write(f"\n{counts[COOLANT]} coolant hose(s) are not in the set: NetBox has no model for a hose or a\n"
                  "manifold's quick-disconnects (the plan's cabling plan and commissioning list have them).\n")
    if neutralised:
        out.write("\nThese names begin with a character a spreadsheet reads as a formula; they are written\n"
                  "with a leading apostrophe, and NetBox will store them so. Rename them in the plan to\n"
                  "avoid that:\n")
        for name in sorted(neutralised):
            out.write(f"  {name}\n")
    return out.getvalue()
