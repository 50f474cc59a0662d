"""A NetBox import set read back into a plan (``planner import --from netbox DIR -o FILE``, File ▸
Import from NetBox…), so a hall recorded in NetBox can be checked by the planner's rules.

The set is the one ``planner export --to netbox`` writes (column names and slugs in
``planner.io.netbox_names``): ``racks.csv``, ``devices.csv`` and ``device-types/*.yaml`` are needed;
``cables.csv``, ``power-panels.csv`` and ``power-feeds.csv`` are read when present. Cells are read as
NetBox reads them (surrounding spaces stripped) and a cell the export neutralised (``'=x``) as typed.
A folder of NetBox's own web-UI exports reads too (``planner.io.netbox_ui_export``).

What comes back: racks (name, type), devices (rack, U, type, hostname: a hostname
``<rack>-<name>`` gives the device that name and the default hostname, any other is kept as the
device's own hostname and is its name too), the cables of every network (ends, label, media,
NetBox's length as both routed and stock length until the caller routes them on the new floor,
planned or run): data cables between interfaces and power cords from a PSU's power port to a PDU
outlet, each on the network and tier its tags name or its ports and ends' roles say
(``planner.io.netbox_networks``), busbar runs from power panels with each rack's feed A and B, and
the switch roles of every network (compute leaf, spine, core; storage leaf and spine; management
access and aggregation) and the rails the rules need; row CDUs and power cabinets (devices in no
rack) as floor units. What NetBox does not hold is made up and said so in the notes: the floor
(``planner.io.netbox_layout``), the floor rating, coolant loops and hoses (NetBox has no model for a
hose).

References NetBox itself requires (a device's rack and type, a cable's devices, a feed's panel)
must resolve, or the read stops with ``NetBoxReadError`` naming the file and row; things NetBox
allows but the plan cannot hold (an unracked device of a kind that does not stand on the floor, a
cable to a console port or a power feed) are left out and counted in the notes.
"""

from __future__ import annotations

import csv
from collections import Counter, defaultdict
from dataclasses import dataclass, field, fields
from pathlib import Path

import yaml

from planner.io import netbox_ui_export as ui
from planner.io.netbox_catalog import (
    DIMENSION_UNITS_MM,
    WEIGHT_UNITS_KG,
    DeviceTypeError,
    NetBoxType,
    RackShape,
    custom_type,
    load_device_types,
    match_catalogue,
    rack_type,
)
from planner.io.netbox_checks import NetBoxReadError, check_fields, read_number
from planner.io.netbox_layout import (
    hall_outline,
    hang_busbar,
    place_at_lowest_free_u,
    place_floor_units,
    place_rows,
    rows_by_name,
)
from planner.io.netbox_names import (
    CABLE_TYPES,
    FORMER_NAMES,
    INTERFACE_END,
    LENGTH_UNITS_M,
    NETWORK_OF_TAG,
    POWER_OUTLET_END,
    POWER_PORT_END,
    TIER_OF_TAG,
    interface_speed,
    kind_from_role,
    state_from_status,
    unneutralise,
)
from planner.io.netbox_networks import assign_networks
from planner.model.basis import DesignBasis
from planner.model.catalog import (
    BUSBAR,
    ETHERNET,
    FLOOR_KINDS,
    INFINIBAND,
    SWITCH,
    Catalog,
    builtin_catalog,
)
from planner.model.document import Document, natural_key
from planner.model.labels import derived_label
from planner.model.objects import (
    BusbarRun,
    Device,
    FloorUnit,
    Link,
    Rack,
    Zone,
)
from planner.model.ports import COMPUTE

#: The components a plan cable ends on: interfaces (data), PSUs' power ports and PDU outlets (cords).
CABLE_ENDS = (INTERFACE_END, POWER_PORT_END, POWER_OUTLET_END)
Row = tuple[str, dict[str, str]]


#: The largest CSV of a set that is read (refused before reading). The largest is cables.csv:
#: a 131,072-GPU hall has about 393k cables at ~250 bytes a row, about 100 MB.
MAX_CSV_BYTES = 256 << 20


@dataclass
class NetBoxImport:
    """The plan read from a NetBox set, and what the reader had to assume or leave out."""

    doc: Document
    notes: list[str]
    #: The NetBox id of each object read, by plan id (``Document.netbox.ids``' keys), where the
    #: rows carry one (an ``id`` column; the REST API's objects always do).
    netbox_ids: dict[str, int] = field(default_factory=dict)


def read_netbox(folder: str | Path) -> NetBoxImport:
    """Read the NetBox set in ``folder`` into a new plan (module docstring)."""
    if not Path(folder).is_dir():
        raise NetBoxReadError(str(folder), "not a folder (a NetBox set is a folder of CSV and YAML files)")
    return _Reader(Path(folder)).read()


class _Reader:
    """One read of a set: the catalogue it grows (custom types), the notes, the device types by
    (manufacturer, model) as devices.csv names them."""

    def __init__(self, folder: Path, origin: str = "") -> None:
        self.folder = folder
        self.origin = origin or f"the NetBox set {folder.name}"
        self.netbox_ids: dict[str, int] = {}
        self.catalog: Catalog = builtin_catalog()
        self.notes: list[str] = []
        self.types: dict[tuple[str, str], NetBoxType] = {}
        #: devices.csv rows of floor-standing units (in no rack): the floor units of the plan.
        self.floor_rows: list[tuple[str, dict[str, str], NetBoxType]] = []

    def read(self) -> NetBoxImport:
        self._read_types()
        racks, site, locations = self._racks()
        devices, names = self._devices(racks)
        links, tagged = self._cables(names)
        busbars = self._power(racks)
        assign_networks(self.catalog, devices, links, tagged)
        ethernet = self._ethernet()
        for item in self.catalog.custom_items():
            check_fields(item, f"{self.folder / 'device-types'}: {item.name}", tuple(f.name for f in fields(item)))
        rows = rows_by_name(list(racks.values()), locations)
        doc_basis = DesignBasis()
        doc_basis.fabric_kind = ETHERNET if ethernet else INFINIBAND
        for item in self.catalog.custom_items():  # a NetBox type does not say; its interfaces did
            if item.kind == SWITCH and not item.protocol:
                item.protocol = doc_basis.fabric_kind
        far_x, far_y = place_rows(self.catalog, doc_basis, rows)
        units = self._floor_units(names, locations, racks)
        far_x, far_y = place_floor_units(self.catalog, list(racks.values()), units, far_x, far_y)
        fed: dict[str, list[Rack]] = defaultdict(list)
        for rack in racks.values():
            for feed in (rack.feed_a, rack.feed_b):
                if feed:
                    fed[feed].append(rack)
        for busbar in busbars:
            hang_busbar(self.catalog, busbar, fed[busbar.id])
        doc = Document.from_collections({"racks": racks.values(), "devices": devices, "links": links,
                                         "busbars": busbars, "floor_units": units}, self.catalog)
        for link in links:  # the export writes derived labels out: they come back derived
            if link.label == derived_label(doc, link):
                link.label = ""
        doc.basis = doc_basis
        doc.outline = hall_outline(far_x, far_y)
        doc.add(Zone(id="zone-1", name="Floor", polygon=list(doc.outline)))
        doc.meta.project, doc.meta.hall = site or doc.meta.project, self._hall(locations) or doc.meta.hall
        doc.meta.notes = f"Imported from {self.origin}"
        check_fields(doc.meta, "racks.csv", ("project", "hall"))
        self.notes += [
            (f"racks laid out in {len(rows)} row(s) by location and name (NetBox has no floor positions): move them to where "
             "they stand; until then cable routes (N7, N8) and reach (P5, C5) are measured on this layout"),
            (f"one floor zone at {doc.zones['zone-1'].rating_kpa:g} kPa, the TIA-942 recommended rating (NetBox has "
             "no floor ratings): set the survey's"),
            "design basis at its defaults (voltage, derating, redundancy, trays …): NetBox holds none",
            (f"{len(units)} floor unit(s) (row CDUs, power cabinets) stood at the east end of their row; no coolant loops "
             "(NetBox does not record which racks a CDU serves): liquid-cooled racks show C4 until assigned"),
            ("no coolant hoses (NetBox has no model for a hose): liquid-cooled devices show C10 until "
             "planner fabric hoses them"),
        ]
        return NetBoxImport(doc, self.notes, self.netbox_ids)

    def _note_id(self, plan_key: str, values: dict[str, str]) -> None:
        number = values.get("id", "")
        if number.isascii() and number.isdigit() and 0 < int(number) < 10**12:
            self.netbox_ids[plan_key] = int(number)

    # ---------------------------------------------------------------- files
    def _csv(self, name: str, required: tuple[str, ...], optional: bool = False, updates: bool = True) -> list[Row]:
        path = self.folder / name
        for other in (self.folder / "shared" / name, self.folder / ui.EXPORT_FILES.get(name, name)):
            if not path.is_file() and other.is_file():  # the shared step's folder; NetBox's own export
                path = other
        if updates and (self.folder / name.replace(".csv", "-update.csv")).is_file():  # rows NetBox has, by id
            return (self._csv(name, required, True, False) + self._csv(name.replace(".csv", "-update.csv"), required))
        if not path.is_file():
            if optional:
                return []
            raise NetBoxReadError(str(path), "missing (a NetBox set needs racks.csv, devices.csv and device-types/)")
        if path.stat().st_size > MAX_CSV_BYTES:
            raise NetBoxReadError(str(path), f"{path.stat().st_size >> 20:,} MB is too large for a NetBox CSV "
                                  f"(at most {MAX_CSV_BYTES >> 20} MB)")
        try:
            with open(path, encoding="utf-8-sig", newline="") as handle:
                reader = csv.reader(handle)
                header = [column.strip() for column in next(reader, [])]
                exported = ui.is_ui_export(header)  # NetBox's own Export ▸ All Data (planner.io.netbox_ui_export)
                columns = ui.set_columns(name, header) if exported else header
                missing = [ui.heading_of(name, c) if exported else c for c in required if c not in columns]
                if missing:
                    raise NetBoxReadError(str(path), f"no column {', '.join(missing)}" + (
                        " (NetBox's Export ▸ All Data has it; Current View has only the columns shown)" if exported else ""))
                rows = [(f"{path}: row {number}", {column: unneutralise(value.strip())
                                                   for column, value in zip(header, values, strict=False)})
                        for number, values in enumerate(reader, start=1) if any(v.strip() for v in values)]
                return [(w, v) for w, raw in rows if (v := ui.from_ui_export(name, raw) if exported else raw) is not None]
        except UnicodeDecodeError:
            raise NetBoxReadError(str(path), "not UTF-8 text") from None
        except OSError as exc:
            raise NetBoxReadError(str(path), f"cannot read: {exc.strerror or exc}") from None
        except csv.Error as exc:
            raise NetBoxReadError(str(path), f"not CSV ({exc})") from None

    def _read_types(self) -> None:
        folder = self.folder / "device-types"
        if not folder.is_dir() and (self.folder / "shared" / "device-types").is_dir():  # the set's shared step
            folder = self.folder / "shared" / "device-types"
        files = sorted([*folder.glob("*.yaml"), *folder.glob("*.yml")]) if folder.is_dir() else []
        files = files or [p for p in [self.folder / ui.EXPORT_DEVICE_TYPES] if p.is_file()]  # NetBox's own export
        if not files:
            raise NetBoxReadError(str(folder), "no device-type YAML files (devicetype-library schema)")
        parsed = []
        for path in files:
            try:
                parsed += load_device_types(path)
            except OSError as exc:
                raise NetBoxReadError(str(path), f"cannot read: {exc.strerror or exc}") from None
            except DeviceTypeError as exc:
                raise NetBoxReadError(str(path), str(exc)) from None
            except (yaml.YAMLError, ValueError, RecursionError) as exc:  # ValueError: 2024-02-30, a 5,000-digit int
                raise NetBoxReadError(str(path), f"not YAML ({(str(exc) or type(exc).__name__).splitlines()[0]})") from None
        match_catalogue(self.catalog, parsed)
        for netbox_type in parsed:
            self.types[(netbox_type.manufacturer.casefold(), netbox_type.model.casefold())] = netbox_type

    def _type_of(self, values: dict[str, str], where: str) -> NetBoxType:
        model = values.get("device_type", "").casefold()
        found = self.types.get((values.get("manufacturer", "").casefold(), model))
        if found is None:
            same = [t for (_m, name), t in self.types.items() if name == model]
            found = same[0] if len(same) == 1 else None
        if found is None:
            raise NetBoxReadError(where, f"device type {values.get('device_type', '')!r} has no YAML in device-types/")
        return found

    # --------------------------------------------------------------- racks
    def _hall(self, locations: dict[str, str]) -> str:
        """The hall: the top location of locations.csv (rows are locations inside it), else the
        racks' first location."""
        top = [v["name"] for _w, v in self._csv("locations.csv", ("name",), optional=True) if not v.get("parent")]
        return top[0] if top else next(iter(locations.values()), "")

    def _racks(self) -> tuple[dict[str, Rack], str, dict[str, str]]:
        """Racks by name (case-folded), the site, and each rack's location by rack id."""
        racks: dict[str, Rack] = {}
        locations: dict[str, str] = {}
        site = ""
        made = 0
        for where, values in self._csv("racks.csv", ("name",)):
            name = values["name"]
            if not name or name.casefold() in racks:
                raise NetBoxReadError(where, f"rack name {name!r} is {'empty' if not name else 'used twice'}")
            unit = DIMENSION_UNITS_MM.get(values.get("outer_unit", "") or "mm", 1.0)
            weight = WEIGHT_UNITS_KG.get(values.get("weight_unit", "") or "kg", 1.0)
            shape = RackShape(values.get("description", ""), int(read_number(values.get("u_height", ""), where, "u_height")),
                              read_number(values.get("outer_width", ""), where, "outer_width") * unit,
                              read_number(values.get("outer_depth", ""), where, "outer_depth") * unit,
                              read_number(values.get("weight", ""), where, "weight") * weight,
                              read_number(values.get("max_weight", ""), where, "max_weight") * weight)
            key, custom = rack_type(self.catalog, shape)
            made += custom
            rack = Rack(id=f"rack-{len(racks) + 1}", type=key, name=name, x=0.0, y=0.0)
            check_fields(rack, where, ("name",))
            racks[name.casefold()] = rack
            self._note_id(rack.id, values)
            locations[rack.id] = values.get("location", "")
            site = site or values.get("site", "")
        if made:
            self.notes.append(f"{made} rack(s) of a size the catalogue lacks: custom rack types, with the catalogue's "
                              "weight and ratings where racks.csv gives none")
        return racks, site, locations

    # ------------------------------------------------------------- devices
    def _devices(self, racks: dict[str, Rack]) -> tuple[list[Device], dict[str, tuple[Device, NetBoxType]]]:
        rows = self._csv("devices.csv", ("name", "device_type", "rack"))
        typed = [(where, values, self._type_of(values, where)) for where, values in rows]
        roles: dict[int, Counter[str]] = defaultdict(Counter)
        for _where, values, netbox_type in typed:
            roles[id(netbox_type)][values.get("role", "")] += 1
        custom = [custom_type(self.catalog, t, roles[id(t)]) for t in self.types.values() if not t.key and id(t) in roles]
        if custom:
            self.notes.append(f"{len(custom)} device type(s) not in the catalogue became custom types: "
                              + ", ".join(f"{item.name} ({item.kind})" for item in custom[:5])
                              + (" …" if len(custom) > 5 else ""))
        devices: list[Device] = []
        by_name: dict[str, tuple[Device, NetBoxType]] = {}
        unracked = half_u = 0
        unplaced: list[Device] = []
        for where, values, netbox_type in typed:
            rack = racks.get(values["rack"].casefold()) if values["rack"] else None
            if rack is None:
                if values["rack"]:
                    raise NetBoxReadError(where, f"rack {values['rack']!r} is not in racks.csv")
                if self.catalog[netbox_type.key].kind in FLOOR_KINDS:  # a row CDU, a power cabinet
                    self.floor_rows.append((where, values, netbox_type))
                else:
                    unracked += 1
                continue
            item = self.catalog[netbox_type.key]
            position = read_number(values.get("position", ""), where, "position")
            half_u += position != int(position)
            hostname = values["name"] or f"{rack.name}-D{len(devices) + 1}"
            prefix = f"{rack.name}-"
            own = not (hostname.startswith(prefix) and len(hostname) > len(prefix))
            kind = self.catalog[netbox_type.key].kind
            role = kind_role if kind == SWITCH and (kind_role := _switch_role(values.get("role", ""))) else ""
            device = Device(id=f"dev-{len(devices) + 1}", type=item.key, name=hostname if own else hostname[len(prefix):],
                            rack=rack.id, u=int(position) if item.height_u else 0, role=role,
                            hostname=hostname if own else "")
            check_fields(device, where, ("name", "hostname", "u"))
            if item.height_u and not position:
                unplaced.append(device)
            if hostname.casefold() in by_name:
                raise NetBoxReadError(where, f"device name {hostname!r} is used twice")
            by_name[hostname.casefold()] = (device, netbox_type)
            self._note_id(device.id, values)
            devices.append(device)
        if unracked:
            self.notes.append(f"{unracked} device(s) in no rack left out (a plan holds racked equipment)")
        if unplaced:
            place_at_lowest_free_u(self.catalog, devices, unplaced, list(racks.values()))
            self.notes.append(f"{len(unplaced)} device(s) in a rack without a position put at the lowest free U")
        if half_u:
            self.notes.append(f"{half_u} device(s) at a half-U position put at the whole U below")
        return devices, by_name

    def _floor_units(self, names: dict[str, tuple[Device, NetBoxType]], locations: dict[str, str],
                     racks: dict[str, Rack]) -> list[FloorUnit]:
        """The row CDUs and power cabinets (devices in no rack), each in the row of the racks in
        its location (the export writes the row's); unplaced until ``place_floor_units``."""
        row_of = {locations[rack.id].casefold(): rack.row for rack in racks.values() if locations.get(rack.id)}
        units: list[FloorUnit] = []
        for where, values, netbox_type in self.floor_rows:
            name = values["name"] or f"FU{len(units) + 1}"
            if name.casefold() in names or any(u.name.casefold() == name.casefold() for u in units):
                raise NetBoxReadError(where, f"device name {name!r} is used twice")
            unit = FloorUnit(id=f"fu-{len(units) + 1}", type=netbox_type.key, name=name, x=0.0, y=0.0,
                             row=row_of.get(values.get("location", "").casefold(), ""))
            check_fields(unit, where, ("name",))
            self._note_id(unit.id, values)
            units.append(unit)
        return units

    # -------------------------------------------------------------- cables
    def _cables(self, names: dict[str, tuple[Device, NetBoxType]]) -> tuple[list[Link], dict[str, tuple[str, str]]]:
        """The cables, and the (network, tier) their tags name by link id (``netbox_networks``)."""
        required = ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name")
        links: list[Link] = []
        tagged: dict[str, tuple[str, str]] = {}
        other = unmapped = no_media = 0
        for where, values in self._csv("cables.csv", required, optional=True):
            for side in ("a", "b"):  # NetBox's UI export names only the component: its type's ports say which
                if not values[f"side_{side}_type"] and (found := names.get(values[f"side_{side}_device"].casefold())):
                    values[f"side_{side}_type"] = ui.end_type(found[1], values[f"side_{side}_name"])
            if {values["side_a_type"], values["side_b_type"]} - {*CABLE_ENDS, ""}:  # "": no component of that name
                other += 1
                continue
            ends = []
            for side in ("a", "b"):
                found = names.get(values[f"side_{side}_device"].casefold())
                if found is None:
                    raise NetBoxReadError(where, f"device {values[f'side_{side}_device']!r} is not in devices.csv"
                                          if values[f"side_{side}_device"] else f"side {side.upper()} names no device")
                device, netbox_type = found
                ends.append((device, netbox_type.ports.get(values[f"side_{side}_name"])))
            if ends[0][1] is None or ends[1][1] is None:
                unmapped += 1
                continue
            unit = values.get("length_unit", "") or "m"
            if unit not in LENGTH_UNITS_M:
                raise NetBoxReadError(where, f"length_unit: {unit!r} is not one of {', '.join(LENGTH_UNITS_M)}")
            length = round(read_number(values.get("length", ""), where, "length") * LENGTH_UNITS_M[unit], 2)
            power = POWER_PORT_END in (values["side_a_type"], values["side_b_type"])
            media = "" if power else self._media(values.get("type", ""), values.get("description", ""), length)
            no_media += not media and not power
            link = Link(id=f"link-{len(links) + 1}", a_device=ends[0][0].id, a_port=str(ends[0][1]),
                        b_device=ends[1][0].id, b_port=str(ends[1][1]), media=media, length_m=length, stock_m=length,
                        label=values.get("label", ""), state=state_from_status(values.get("status", "")))
            check_fields(link, where, ("label", "length_m"))
            links.append(link)
            self._note_id(link.id, values)
            tags = [tag.strip() for tag in values.get("tags", "").split(",")]
            tagged[link.id] = (next((NETWORK_OF_TAG[t] for t in tags if t in NETWORK_OF_TAG), ""),
                               next((TIER_OF_TAG[t] for t in tags if t in TIER_OF_TAG), ""))
        if other:
            self.notes.append(f"{other} cable(s) not between interfaces, power ports and outlets (console, feed …) "
                              "left out")
        if unmapped:
            self.notes.append(f"{unmapped} cable(s) on a component that is not a port of its type left out")
        if no_media:
            self.notes.append(f"{no_media} cable(s) of a type with no catalogue media: N7 reports them")
        return links, tagged

    def _media(self, slug: str, description: str, length_m: float) -> str:
        """The catalogue media of a cable: by the description the export writes (the media's name),
        else the shortest-reaching media of its NetBox type that reaches its length."""
        media = self.catalog.media
        named = next((key for key, m in media.items() if m.name == description), FORMER_NAMES.get(description, ""))
        if named:
            return named
        family = slug if slug in CABLE_TYPES.values() else {"mmf": "mmf-om4", "smf": "smf-os2"}.get(slug[:3], "")
        keys = [key for key, s in CABLE_TYPES.items() if s == family and key in media]
        fits = [key for key in keys if media[key].reach_m >= length_m]
        return (fits or keys or [""])[0]

    # --------------------------------------------------------------- power
    def _power(self, racks: dict[str, Rack]) -> list[BusbarRun]:
        panels = self._csv("power-panels.csv", ("name",), optional=True)
        feeds = self._csv("power-feeds.csv", ("power_panel", "name"), optional=True)
        busbars: dict[str, BusbarRun] = {}
        descriptions: dict[str, str] = {}
        for where, values in panels:
            busbar = BusbarRun(id=f"bus-{len(busbars) + 1}", type="", name=values["name"], x1=0.0, y1=0.0,
                               x2=0.0, y2=0.0, side="B" if "side B" in values.get("description", "") else "A")
            check_fields(busbar, where, ("name",))
            busbars[values["name"].casefold()] = busbar
            self._note_id(busbar.id, values)
            descriptions[busbar.id] = values.get("description", "")
        per_rack: dict[str, list[tuple[str, str, BusbarRun]]] = defaultdict(list)
        amperes: dict[str, float] = defaultdict(float)
        for where, values in feeds:
            panel = busbars.get(values["power_panel"].casefold())
            if panel is None:
                raise NetBoxReadError(where, f"power panel {values['power_panel']!r} is not in power-panels.csv")
            amperes[panel.id] = max(amperes[panel.id], read_number(values.get("amperage", ""), where, "amperage"))
            rack = racks.get(values.get("rack", "").casefold())
            if rack is not None:
                side = values["name"][-2:].upper()
                side = side[1] if side in ("-A", "-B") else "A" if values.get("type") != "redundant" else "B"
                per_rack[rack.id].append((side, values["name"], panel))
                self._note_id(f"{rack.id}/{side}", values)
        extra = 0
        for rack in racks.values():
            chosen: dict[str, BusbarRun] = {}
            for side, _name, busbar in sorted(per_rack[rack.id], key=lambda f: (f[0], natural_key(f[1]))):
                slot = side if side not in chosen else ("B" if "B" not in chosen else "")
                if slot:
                    chosen[slot] = busbar
                else:
                    extra += 1
            rack.feed_a = chosen["A"].id if "A" in chosen else None
            rack.feed_b = chosen["B"].id if "B" in chosen else None
        for busbar in busbars.values():
            busbar.type = self._busbar_type(descriptions[busbar.id], amperes[busbar.id])
        if extra:
            self.notes.append(f"{extra} power feed(s) beyond a rack's A and B left out")
        if busbars:
            self.notes.append(f"{len(busbars)} power panel(s) read as busbar runs over the racks they feed")
        return list(busbars.values())

    def _busbar_type(self, description: str, amperes: float) -> str:
        """The catalogue busbar named in the panel's description, else the smallest whose tap-off
        carries the feeds' amperage, else the largest."""
        kinds = sorted(self.catalog.of_kind(BUSBAR), key=lambda b: (b.tapoff_rating_a or b.rating_a, b.key))
        named = next((b for b in kinds if description.endswith(f": {b.name}")), None)
        carrying = next((b for b in kinds if (b.tapoff_rating_a or b.rating_a) >= amperes), kinds[-1])
        return (named or carrying).key

    # -------------------------------------------------------------- fabric
    def _ethernet(self) -> bool:
        """Whether the compute fabric is Ethernet: most interfaces on the compute rails of the types
        are of an Ethernet type (the other networks' ports are Ethernet on either fabric)."""
        speeds: Counter[bool] = Counter()
        for netbox_type in self.types.values():
            rails = set(self.catalog[netbox_type.key].port_names(COMPUTE)) if netbox_type.key else set()
            speeds.update(kind[1] for name, slug, _m in netbox_type.interfaces
                          if netbox_type.ports.get(name) in rails and (kind := interface_speed(slug)))
        return bool(speeds) and speeds[False] > speeds[True]


def _switch_role(role: str) -> str:
    """The plan's switch role of a NetBox role (the set's own names exactly, others by their words)."""
    found = kind_from_role(role)
    return found[1] if found is not None and found[0] == SWITCH else ""
