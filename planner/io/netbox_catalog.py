"""NetBox device types and racks read back as catalogue types (``planner import --from netbox``).

A device-type YAML (devicetype-library schema) maps to the catalogue entry whose slug the export
gives (``netbox_names.type_slug``: manufacturer and catalogue key), else to the entry of that
manufacturer and model name. Anything else becomes a custom catalogue entry, saved with the plan
as a user's own types are, built from what the YAML says: U height, weight, the fabric ports
(the interfaces of a type the set writes, ``infiniband-ndr``, ``400gbase-x-osfp`` …; all of them
when none is), their speed, and the steady and peak draw summed over the power ports. Its kind
comes from the NetBox role of the devices of that type (``netbox_names.kind_from_role``). A custom
type's ports take the planner's names (``P1`` … for a GPU node, ``1`` … or ``1/1`` … for others;
its management-only interfaces an out-of-band group, ``BMC`` or ``mgmt0``; its power ports PSUs
``PSU1`` …, with their inlet when it is C14 or C20) and the YAML's components map onto them in
order, so cables and power cords land on the same ports; its console port takes the connector of
the first console port of a type the planner knows (RJ45, USB Mini-B, USB-C, DE-9). A custom PDU
gets no outlets (the plan's outlet groups need a breaker and phase per group, which the YAML does
not say).

A rack maps to the catalogue rack named in its description, else to one of its U height and
outer size; else it becomes a custom rack of that size.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from planner.io.netbox_names import (
    CONSOLE_TYPES,
    DEFAULT_MANUFACTURER,
    INLET_TYPES,
    interface_speed,
    kind_from_role,
    manufacturer_of,
    slugify,
    type_slug,
)
from planner.model.catalog import (
    NODE,
    RACK,
    RACK_PDU,
    STORAGE,
    SWITCH,
    Catalog,
    CatalogItem,
    default_stem,
)
from planner.model.ports import OOB, group_names, port_group, psu_names

#: Kilograms per NetBox weight unit (WeightUnitChoices).
WEIGHT_UNITS_KG = {"kg": 1.0, "g": 0.001, "lb": 0.45359237, "oz": 0.028349523125}
#: Millimetres per NetBox rack dimension unit (RackDimensionUnitChoices).
DIMENSION_UNITS_MM = {"mm": 1.0, "in": 25.4}
#: A PSU's inlet by its NetBox power port type (C14, C20).
_INLETS = {slug: inlet for inlet, slug in INLET_TYPES.items()}
#: A console port's connector by its NetBox type (RJ45, USB Mini-B …).
_CONSOLES = {slug: connector for connector, slug in CONSOLE_TYPES.items()}
_TWIN = re.compile(r"^(\d+)/(\d+)$")
#: A custom type's source note keeps this much of the YAML's comments (the format allows 10,000).
SOURCE_MAX = 2_000
#: A device-type YAML larger than this is refused before it is parsed. The largest in
#: netbox-community/devicetype-library are modular chassis with about a thousand interfaces and
#: console and power ports, about 150 KB; 4 MB is over 25 times that (and parses in well under a
#: second with libyaml, where 300 MB took minutes and 800 MB of memory).
MAX_YAML_BYTES = 4 << 20
#: Lists and mappings nest two deep in the schema (``interfaces: [{name: …}]``); past this it is
#: not a device type, and PyYAML's composer (Python or libyaml's, which does not check its depth
#: at all) would recurse once per level. Counted on the event stream, which does not recurse.
MAX_YAML_DEPTH = 32
#: Keys whose value must be a list of mappings (devicetype-library schema, components).
_LIST_KEYS = ("interfaces", "power-ports", "console-ports", "console-server-ports", "power-outlets",
              "front-ports", "rear-ports", "module-bays", "device-bays", "inventory-items")


class DeviceTypeError(ValueError):
    """A device-type document that cannot be used: the message says which key and why."""


@dataclass
class NetBoxType:
    """One device-type YAML as read: its NetBox names, its interfaces in order, and (once mapped)
    the catalogue key and the plan port name of each interface."""

    manufacturer: str
    model: str
    slug: str
    u_height: float
    weight_kg: float
    interfaces: list[tuple[str, str, bool]]
    steady_w: float
    peak_w: float
    source: str
    #: Its power ports (PSUs, a PDU's inlet) and power outlets in order, each (name, NetBox type).
    power_ports: list[tuple[str, str]] = field(default_factory=list)
    outlets: list[tuple[str, str]] = field(default_factory=list)
    #: Its console ports in order, each (name, NetBox type).
    console_ports: list[tuple[str, str]] = field(default_factory=list)
    key: str = ""
    ports: dict[str, str] = field(default_factory=dict)

    def fabric_interfaces(self) -> list[str]:
        """Names of the interfaces that are fabric ports: those of a type the set writes, all when none is."""
        known = [name for name, kind, mgmt in self.interfaces if interface_speed(kind) and not mgmt]
        return known or [name for name, _kind, mgmt in self.interfaces if not mgmt]


def _number(data: dict, key: str, default: float = 0.0) -> float:
    """A number of the YAML; absent or ``null`` (NetBox's own export writes an unset nullable
    field, a port's ``maximum_draw`` or a type's ``weight``, as null) is ``default``."""
    value = data.get(key)
    value = default if value is None else value
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e9:
        raise DeviceTypeError(f"{key}: {value!r} is not a number from 0 up")
    return float(value)


def _text(data: dict, key: str, required: bool = True) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise DeviceTypeError(f"{key}: {'missing' if key not in data else 'not text'}")
    return value.strip()


def load_device_types(path: Path) -> list[NetBoxType]:
    """Every device type in one YAML file; DeviceTypeError (one line, the key or line) for a file
    too large, nested too deep, not YAML or not shaped like a device type."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    size = path.stat().st_size
    if size > MAX_YAML_BYTES:
        raise DeviceTypeError(f"{size / (1 << 20):,.0f} MB is too large for a device-type YAML (at most "
                              f"{MAX_YAML_BYTES >> 20} MB; the largest in devicetype-library is about 150 KB)")
    text = path.read_text(encoding="utf-8")
    depth = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                line = event.start_mark.line + 1 if event.start_mark else 0
                raise DeviceTypeError(f"line {line}: nested deeper than {MAX_YAML_DEPTH} levels (a device type "
                                      "nests two)")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return [parse_device_type(d) for d in yaml.load_all(text, Loader=loader) if d is not None]  # a safe loader


def _list_of_mappings(data: dict, key: str) -> list[dict]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise DeviceTypeError(f"{key}: {type(value).__name__} {str(value)[:40]!r}, expected a list of mappings")
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise DeviceTypeError(f"{key}[{index}]: not a mapping")
    return value


def parse_device_type(data: object) -> NetBoxType:
    """A device-type document (the parsed YAML) as a NetBoxType; DeviceTypeError names what is wrong."""
    if not isinstance(data, dict):
        raise DeviceTypeError("not a device type (a YAML mapping with manufacturer, model, slug …)")
    for key in _LIST_KEYS:
        _list_of_mappings(data, key)
    interfaces = []
    for index, entry in enumerate(data.get("interfaces") or []):
        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            raise DeviceTypeError(f"interfaces[{index}]: needs a name")
        if not isinstance(entry.get("type", ""), str):
            raise DeviceTypeError(f"interfaces[{index}].type: not text")
        interfaces.append((entry["name"].strip(), entry.get("type", ""), entry.get("mgmt_only") is True))
    power_ports, outlets = _components(data, "power-ports"), _components(data, "power-outlets")
    steady = peak = 0.0
    for index, entry in enumerate(data.get("power-ports") or []):
        try:
            drawn = _number(entry, "allocated_draw")
            steady += drawn
            peak += _number(entry, "maximum_draw", drawn)
        except DeviceTypeError as exc:
            raise DeviceTypeError(f"power-ports[{index}].{exc}") from None
    unit = data.get("weight_unit", "kg")
    if not isinstance(unit, str) or unit not in WEIGHT_UNITS_KG:
        raise DeviceTypeError(f"weight_unit: {unit!r} is not one of {', '.join(WEIGHT_UNITS_KG)}")
    return NetBoxType(manufacturer=_text(data, "manufacturer"), model=_text(data, "model"),
                      slug=_text(data, "slug", required=False), u_height=_number(data, "u_height"),
                      weight_kg=_number(data, "weight") * WEIGHT_UNITS_KG[unit], interfaces=interfaces,
                      steady_w=steady, peak_w=peak, source=_text(data, "comments", required=False),
                      power_ports=power_ports, outlets=outlets, console_ports=_components(data, "console-ports"))


def _components(data: dict, key: str) -> list[tuple[str, str]]:
    """(name, type) of each entry of a component list (power ports, outlets, console ports): each needs a name."""
    found = []
    for index, entry in enumerate(data.get(key) or []):
        if not isinstance(entry.get("name"), str) or not entry["name"].strip():
            raise DeviceTypeError(f"{key}[{index}]: needs a name")
        kind = entry.get("type", "")
        found.append((entry["name"].strip(), kind if isinstance(kind, str) else ""))
    return found


def match_catalogue(catalog: Catalog, types: list[NetBoxType]) -> None:
    """Set ``key`` and ``ports`` of every type the catalogue has (by slug, then manufacturer and model)."""
    by_slug = {type_slug(item): item for item in catalog.items.values()}
    by_model = {(manufacturer_of(item).casefold(), item.name.casefold()): item for item in catalog.items.values()}
    for netbox_type in types:
        item = by_slug.get(netbox_type.slug) or by_model.get(
            (netbox_type.manufacturer.casefold(), netbox_type.model.casefold()))
        if item is not None and item.kind != RACK:
            netbox_type.key = item.key
            _map_ports(netbox_type, item)


def _map_ports(netbox_type: NetBoxType, item: CatalogItem) -> None:
    """Component name → plan port: every interface, power port and outlet by the same name when
    the catalogue type has them all (the set's own types: ports of every network), else in order:
    the fabric interfaces onto the rails, the management-only ones onto the type's own management
    ports, the power ports onto its PSUs and the outlets onto its outlets."""
    every = set(item.all_port_names())
    interfaces = [name for name, _kind, _mgmt in netbox_type.interfaces]
    power = [name for name, _kind in netbox_type.power_ports]
    outlets = [name for name, _kind in netbox_type.outlets]
    if {*interfaces, *power, *outlets} <= every:
        netbox_type.ports = {name: name for name in (*interfaces, *power, *outlets)}
        return
    mgmt = [name for name, _kind, is_mgmt in netbox_type.interfaces if is_mgmt]
    own = [name for group in item.port_groups if group["network"] == OOB and group["count"] == 1
           for name in group_names(group)]
    netbox_type.ports = (dict(zip(netbox_type.fabric_interfaces(), item.port_names(), strict=False))
                         | dict(zip(mgmt, own, strict=False))
                         | dict(zip(power, psu_names(item.psu_count), strict=False))
                         | dict(zip(outlets, item.outlet_names(), strict=False)))


def custom_type(catalog: Catalog, netbox_type: NetBoxType, roles: Counter[str]) -> CatalogItem:
    """A custom catalogue entry for a type the catalogue lacks; adds it and maps the ports.

    ``roles`` counts the NetBox roles of the devices of this type: the commonest that says a
    kind decides it; else a 0U type with no fabric ports is a rack PDU and anything else storage
    (equipment that draws power and may be cabled, outside the GPU fabric).
    """
    kinds = [kind_from_role(role) for role, _n in roles.most_common()]
    kind = next((k[0] for k in kinds if k is not None), "")
    interfaces = netbox_type.fabric_interfaces()
    if not kind:
        kind = RACK_PDU if netbox_type.u_height == 0 and not interfaces else STORAGE
    speeds = Counter(s[0] for _n, t, _m in netbox_type.interfaces if (s := interface_speed(t)))
    cages, per_cage = len(interfaces), 1
    matches = [_TWIN.match(name) for name in interfaces]
    lanes = {int(m.group(2)) for m in matches if m}
    if kind == SWITCH and interfaces and all(matches) and lanes == set(range(1, len(lanes) + 1)) \
            and len(interfaces) % len(lanes) == 0:
        per_cage, cages = len(lanes), len(interfaces) // len(lanes)  # twin-port cages: 1/1, 1/2 …
    psus = [kind for _name, kind in netbox_type.power_ports] if kind != RACK_PDU else []
    inlets = {_INLETS.get(kind, "") for kind in psus}
    mgmt = sum(1 for _name, _kind, is_mgmt in netbox_type.interfaces if is_mgmt)
    stem = slugify(f"{netbox_type.manufacturer}-{netbox_type.model}", 200) or "type"
    key, number = f"custom-{stem}", 2
    while key in catalog:
        key, number = f"custom-{stem}-{number}", number + 1
    item = CatalogItem(
        key=key, kind=kind, name=netbox_type.model[:200], custom=True,
        source=(f"NetBox device type {netbox_type.slug or netbox_type.model}" +
                (f": {netbox_type.source}" if netbox_type.source else ""))[:SOURCE_MAX],
        height_u=math.ceil(netbox_type.u_height), weight_kg=netbox_type.weight_kg,
        power_w=netbox_type.steady_w, power_peak_w=netbox_type.peak_w or netbox_type.steady_w,
        gpus=len(interfaces) if kind == NODE else 0, port_cages=cages, ports_per_cage=per_cage,
        port_speed_gbps=speeds.most_common(1)[0][0] if speeds else 0.0,
        manufacturer="" if netbox_type.manufacturer == DEFAULT_MANUFACTURER else netbox_type.manufacturer[:200],
        psu_count=len(psus) or None, psu_inlet=inlets.pop() if len(inlets) == 1 else "",
        console_port=next((_CONSOLES[t] for _name, t in netbox_type.console_ports if t in _CONSOLES), ""))
    if mgmt:  # its own management ports: an out-of-band group of the kind's name (BMC, mgmt0)
        group_stem, first = default_stem(kind, OOB)
        item.port_groups = [port_group(OOB, "RJ45", mgmt, 1.0, group_stem, first if mgmt == 1 else first or 1)]
    catalog.add(item)
    netbox_type.key = key
    _map_ports(netbox_type, item)
    return item


@dataclass(frozen=True)
class RackShape:
    """What racks.csv says of a rack's type."""

    description: str
    u_height: int
    width_mm: float
    depth_mm: float
    weight_kg: float
    max_weight_kg: float


def rack_type(catalog: Catalog, shape: RackShape) -> tuple[str, bool]:
    """The catalogue rack for a racks.csv row, and whether it had to be made (a custom rack)."""
    racks = catalog.of_kind(RACK)
    named = next((r for r in racks if r.name == shape.description), None)
    if named is not None:
        return named.key, False
    sized = next((r for r in racks if r.rack_units == shape.u_height and abs(r.width_m * 1000 - shape.width_mm) < 1
                  and abs(r.depth_m * 1000 - shape.depth_mm) < 1), None)
    if sized is not None:
        return sized.key, False
    default = catalog.default_rack()
    width = shape.width_mm / 1000 or default.width_m
    depth = shape.depth_mm / 1000 or default.depth_m
    units = shape.u_height or default.rack_units
    key = f"custom-rack-{round(width * 1000)}x{round(depth * 1000)}-{units}u"
    if key not in catalog:
        catalog.add(CatalogItem(
            key=key, kind=RACK, name=f"Rack {width * 1000:.0f} × {depth * 1000:.0f} mm, {units}U", custom=True,
            source="NetBox racks.csv (size and U height); weight, maximum load and power limit where it gives "
                   f"none from the catalogue's {default.name}",
            width_m=width, depth_m=depth, rack_units=units, weight_kg=shape.weight_kg or default.weight_kg,
            max_load_kg=shape.max_weight_kg or default.max_load_kg, max_power_kw=default.max_power_kw))
    return key, True
