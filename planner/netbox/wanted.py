"""The plan as the objects NetBox should hold, in the REST API's own fields, for ``planner netbox
push`` to compare with what the server has.

The mapping is the import set's (``planner.export.netbox``: the same names, slugs, device types
and tags, from ``planner.io.netbox_names`` and ``planner.export.netbox_types``), written as the
API takes it (``netbox/dcim/api/serializers_/``): references to other objects are ``Ref``\\ s,
resolved to NetBox ids once the objects they name are there; cable ends are
``{"object_type": "dcim.interface", "object_id": …}`` (GenericObjectSerializer), resolved from the
components NetBox made for each device from its type. Floor units (row CDUs, power cabinets) are
devices in no rack, in their row's location, as in the import set.

Every object has a natural key that finds it again on the server: a slug for what several halls
share (tags, manufacturers, roles, rack and device types: the push never changes or deletes
those), a name within the site for the hall's own (locations, racks, devices, power panels), the
panel and name for a power feed. Cables are matched by the id the plan recorded, else by their ends, else by
label (``planner.netbox.push``). ``plan_key`` is the object's key in ``Document.netbox.ids``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from planner.export.netbox_cables import cable_color, rail_tags
from planner.export.netbox_modules import MODULE_STATUS, module_type, planned_modules
from planner.export.netbox_rack_types import rack_type
from planner.export.netbox_twins import LABEL_JOIN, TWIN_PROFILE, twin_pairs, twin_status
from planner.export.netbox_types import PDU_INPUT, device_type, end_types
from planner.io.netbox_names import (
    CABLE_TYPES,
    DEFAULT_MANUFACTURER,
    DESCRIPTION_MAX,
    INTERFACE_END,
    LOCATION_KEY,
    NAME_MAX,
    NETWORK_TAGS,
    POWER_CABLE,
    POWER_OUTLET_END,
    POWER_PORT_END,
    RACK_AIRFLOW,
    RACK_FORM_FACTOR,
    RACK_WIDTH_IN,
    SITE_KEY,
    TIER_TAGS,
    cable_status,
    device_type_models,
    feed_key,
    manufacturer_of,
    rail_tag,
    role_for,
    row_location,
    row_location_key,
    slugify,
    type_slug,
)
from planner.model.catalog import RACK_PDU
from planner.model.cords import rack_pdu_sides
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import network_of
from planner.model.ports import COOLANT, POWER

POWER_FEED_END = "dcim.powerfeed"
STATUS = "planned"

# The API endpoints, in the order a push writes them (each refers only to those before it).
TAGS = "extras/tags"
MANUFACTURERS = "dcim/manufacturers"
RACK_TYPES = "dcim/rack-types"
ROLES = "dcim/device-roles"
DEVICE_TYPES = "dcim/device-types"
SITES = "dcim/sites"
LOCATIONS = "dcim/locations"
RACKS = "dcim/racks"
DEVICES = "dcim/devices"
PANELS = "dcim/power-panels"
FEEDS = "dcim/power-feeds"
CABLES = "dcim/cables"
MODULE_TYPES = "dcim/module-types"
MODULE_BAYS = "dcim/module-bays"
MODULES = "dcim/modules"
#: Objects every hall shares: created when missing, never changed or deleted by a push.
SHARED = (TAGS, MANUFACTURERS, ROLES, RACK_TYPES, DEVICE_TYPES, MODULE_TYPES)
#: The hall's own objects, in dependency order.
OWN = (SITES, LOCATIONS, RACKS, DEVICES, PANELS, FEEDS)
#: Device-type templates: endpoint → the device type's YAML list of that component.
TEMPLATES = {"dcim/power-port-templates": "power-ports", "dcim/interface-templates": "interfaces",
             "dcim/power-outlet-templates": "power-outlets", "dcim/module-bay-templates": "module-bays",
             "dcim/console-port-templates": "console-ports"}
#: The component endpoint of each cable end type.
COMPONENTS = {INTERFACE_END: "dcim/interfaces", POWER_PORT_END: "dcim/power-ports",
              POWER_OUTLET_END: "dcim/power-outlets"}


@dataclass(frozen=True)
class Ref:
    """Another wanted object, by endpoint and natural key: its NetBox id once it is there."""

    endpoint: str
    key: tuple[str, ...]


@dataclass(frozen=True)
class End:
    """A cable end: a component of a device by its name, or a power feed."""

    kind: str
    device: tuple[str, ...]
    name: str


@dataclass
class Wanted:
    endpoint: str
    key: tuple[str, ...]
    fields: dict[str, Any]
    plan_key: str = ""
    #: A device type's component templates (the YAML lists), a cable's two ends.
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.fields.get("name") or self.fields.get("label") or self.key[-1])


@dataclass
class WantedHall:
    """Every object of the plan for NetBox, by endpoint, and the problems that stop a push."""

    site: str
    objects: dict[str, list[Wanted]]
    problems: list[str]

    def count(self, endpoint: str) -> int:
        return len(self.objects.get(endpoint, []))


def _number(value: float) -> float:
    return round(value, 2)


def wanted_hall(doc: Document, site: str = "", location: str = "", with_modules: bool = True) -> WantedHall:
    """The objects NetBox should hold for ``doc`` in site ``site`` (default: the project's name)
    and location ``location`` (default: the hall's); ``with_modules`` false: no transceivers."""
    site = site or doc.meta.project
    location = location or doc.meta.hall
    site_slug = slugify(site) or "site"
    objects: dict[str, list[Wanted]] = {}
    problems: list[str] = []

    def add(item: Wanted) -> None:
        objects.setdefault(item.endpoint, []).append(item)

    racks = sorted(doc.racks.values(), key=lambda r: natural_key(r.name))
    devices = [d for rack in racks for d in doc.devices_in(rack.id)]
    units = sorted(doc.floor_units.values(), key=lambda u: natural_key(u.name))
    used = {key: doc.catalog[key] for key in [*(d.type for d in devices), *(u.type for u in units)]}
    models = device_type_models(used.values())
    for tag in [*NETWORK_TAGS.values(), *TIER_TAGS.values(), *rail_tags(link.rail for link in doc.links.values())]:
        add(Wanted(TAGS, (tag.slug,), {"name": tag.name, "slug": tag.slug, "color": tag.color,
                                        "description": tag.description}))
    modules, refused = planned_modules(doc) if with_modules else ([], [])
    problems += refused
    rack_items = {key: doc.catalog[key] for key in sorted({r.type for r in racks})}
    makers = {manufacturer_of(item) for item in [*used.values(), *rack_items.values()]} | (
        {DEFAULT_MANUFACTURER} if modules else set())
    for maker in sorted(makers):
        add(Wanted(MANUFACTURERS, (slugify(maker) or "manufacturer",), {"name": maker, "slug": slugify(maker) or "manufacturer"}))
    roles = {role_for(doc.catalog[d.type].kind, d.role) for d in devices} | {role_for(used[u.type].kind) for u in units}
    for role in sorted(roles, key=lambda r: r.slug):
        add(Wanted(ROLES, (role.slug,), {"name": role.name, "slug": role.slug, "color": role.color,
                                         "description": role.description}))
    rack_models = device_type_models(rack_items.values())
    for key, item in rack_items.items():
        data = rack_type(item, rack_models[key])
        made_by = Ref(MANUFACTURERS, (slugify(data["manufacturer"]) or "manufacturer",))
        add(Wanted(RACK_TYPES, (data["slug"],), {**data, "manufacturer": made_by}))
    for key, item in sorted(used.items()):
        add(_device_type(doc, key, item, models[key]))
    for kind in sorted({module.kind for module in modules}):
        data = module_type(kind)
        add(Wanted(MODULE_TYPES, (data["model"],), {**data, "manufacturer": Ref(MANUFACTURERS, (slugify(DEFAULT_MANUFACTURER),))}))
    add(Wanted(SITES, (site_slug,), {"name": site, "slug": site_slug, "status": STATUS}, SITE_KEY))
    hall_slug = slugify(location) or "location"
    add(Wanted(LOCATIONS, (hall_slug,), {"name": location, "slug": hall_slug, "site": Ref(SITES, (site_slug,)),
                                         "status": STATUS}, LOCATION_KEY))
    row_slugs = {}
    for row in sorted({r.row for r in racks if r.row}, key=natural_key):
        name = row_location(location, row)
        row_slugs[row] = slug = slugify(name) or "row"
        add(Wanted(LOCATIONS, (slug,), {"name": name, "slug": slug, "site": Ref(SITES, (site_slug,)),
                                        "parent": Ref(LOCATIONS, (hall_slug,)), "status": STATUS,
                                        "description": f"Row {row} of racks"}, row_location_key(row)))
    site_ref = Ref(SITES, (site_slug,))
    for rack in racks:
        item = doc.catalog[rack.type]
        add(Wanted(RACKS, (rack.name,), {
            "name": rack.name, "site": site_ref, "location": Ref(LOCATIONS, (row_slugs.get(rack.row, hall_slug),)),
            "status": STATUS, "width": RACK_WIDTH_IN, "u_height": item.rack_units,
            "outer_width": round(item.width_m * 1000), "outer_depth": round(item.depth_m * 1000), "outer_unit": "mm",
            "weight": _number(item.weight_kg), "max_weight": None if item.max_load_kg is None else round(item.max_load_kg),
            "weight_unit": "kg", "form_factor": RACK_FORM_FACTOR, "airflow": RACK_AIRFLOW,
            "rack_type": Ref(RACK_TYPES, (type_slug(item),)), "description": item.name[:DESCRIPTION_MAX]}, rack.id))
    hostnames = {d.id: doc.hostname(d) for d in devices}
    for device in devices:  # NetBox gives a device its rack's location (Device.save)
        item = doc.catalog[device.type]
        racked = item.height_u > 0
        rack = doc.racks[device.rack]
        add(Wanted(DEVICES, (hostnames[device.id],), {
            "name": hostnames[device.id], "device_type": Ref(DEVICE_TYPES, (type_slug(item),)),
            "role": Ref(ROLES, (role_for(item.kind, device.role).slug,)), "site": site_ref,
            "rack": Ref(RACKS, (rack.name,)),
            "position": device.u if racked else None, "face": "front" if racked else "", "status": STATUS},
            device.id))
    taken = {name.casefold() for name in hostnames.values()}  # NetBox: a device name once a site, any case
    problems += [f"floor unit {u.name}: a device has that name (NetBox names a device once a site)"
                 for u in units if u.name.casefold() in taken]
    for unit in units:  # a row CDU or power cabinet: in no rack, in its row's location
        item = used[unit.type]
        add(Wanted(DEVICES, (unit.name,), {
            "name": unit.name, "device_type": Ref(DEVICE_TYPES, (type_slug(item),)),
            "role": Ref(ROLES, (role_for(item.kind).slug,)), "site": site_ref,
            "location": Ref(LOCATIONS, (row_slugs.get(unit.row, hall_slug),)), "rack": None, "position": None,
            "face": "", "status": STATUS}, unit.id))
    _power(doc, racks, site_ref, row_slugs, hall_slug, add)
    for module in modules:  # in a bay of the device (its id found by the push: ``push_modules``)
        host = hostnames[module.device]
        add(Wanted(MODULES, (host, module.bay), {"device": Ref(DEVICES, (host,)), "module_type": Ref(
            MODULE_TYPES, (module.model,)), "status": MODULE_STATUS}))
    ends = {key: end_types(doc, item) for key, item in used.items()}
    for wanted in _cables(doc, hostnames, ends, problems):
        add(wanted)
    for wanted in _feed_cables(doc, racks, hostnames):
        add(wanted)
    return WantedHall(site, objects, problems)


def _device_type(doc: Document, key: str, item: Any, model: str) -> Wanted:
    data = device_type(doc, item, model)
    maker = manufacturer_of(item)
    fields = {"manufacturer": Ref(MANUFACTURERS, (slugify(maker) or "manufacturer",)), "model": model,
              "slug": data["slug"], "u_height": data["u_height"], "is_full_depth": data["is_full_depth"],
              "weight": data.get("weight"), "weight_unit": data.get("weight_unit"),
              "comments": data.get("comments", "")}
    return Wanted(DEVICE_TYPES, (data["slug"],), fields,
                  extra={endpoint: data.get(name, []) for endpoint, name in TEMPLATES.items()})


def _power(doc: Document, racks: list, site_ref: Ref, row_slugs: dict[str, str], hall_slug: str, add: Any) -> None:
    """Power panels (one per busbar run) and each rack's feed A and B (as the import set)."""
    busbars = sorted(doc.busbars.values(), key=lambda b: natural_key(b.name))
    for run in busbars:
        add(Wanted(PANELS, (run.name,), {
            "name": run.name, "site": site_ref, "location": Ref(LOCATIONS, (hall_slug,)),
            "description": f"Busbar run, side {run.side}: {doc.catalog[run.type].name}"[:DESCRIPTION_MAX]},
            run.id))
    derating = max(1, min(100, round(doc.basis.derating * 100)))
    for rack in racks:
        for side, busbar_id, kind in (("A", rack.feed_a, "primary"), ("B", rack.feed_b, "redundant")):
            busbar = doc.busbars.get(busbar_id or "")
            if busbar is None:
                continue
            item = doc.catalog[busbar.type]
            amperage = round(item.tapoff_rating_a or item.rating_a)
            if amperage < 1:
                continue
            name = f"{rack.name}-{side}"
            add(Wanted(FEEDS, (busbar.name, name), {
                "name": name, "power_panel": Ref(PANELS, (busbar.name,)), "rack": Ref(RACKS, (rack.name,)),
                "status": STATUS, "type": kind, "supply": "ac",
                "phase": "single-phase" if item.phases == 1 else "three-phase",
                "voltage": round(item.voltage_v or doc.basis.voltage_v), "amperage": amperage,
                "max_utilization": derating,
                "description": f"Tap-off of {busbar.name} to {rack.name}"[:DESCRIPTION_MAX]}, feed_key(rack.id, side)))


def _cables(doc: Document, hostnames: dict[str, str], ends: dict[str, dict[str, str]],
            problems: list[str]) -> Iterator[Wanted]:
    """Every cable but the coolant hoses (NetBox has no model for a hose); a twin-port copper
    cable's two port-cables as one cable (``netbox_twins``), its ends in the order that pairs them."""
    media_names = {key: media.name for key, media in doc.catalog.media.items()}
    twins = twin_pairs(doc)
    seconds = {pair[1].id for pair in twins.values()}
    for link in sorted(doc.links.values(), key=lambda l: natural_key(l.id)):
        network = network_of(link)
        if network == COOLANT or link.id in seconds:
            continue
        pair = twins.get(link.id)
        group = pair or (link,)
        sides = _sides(doc, group, hostnames, ends, problems)
        if sides is None:
            continue
        tags = [Ref(TAGS, (NETWORK_TAGS[network].slug,))]
        if link.tier in TIER_TAGS:
            tags.append(Ref(TAGS, (TIER_TAGS[link.tier].slug,)))
        tags += [Ref(TAGS, (rail_tag(rail).slug,)) for rail in sorted({l.rail for l in group if l.rail > 0})]
        labels = [cable_label(doc, l) for l in group]
        label = LABEL_JOIN.join(labels) if len(LABEL_JOIN.join(labels)) <= NAME_MAX else labels[0]
        stock = max(l.stock_m for l in group)
        fields = {
            "type": POWER_CABLE if network == POWER else CABLE_TYPES.get(link.media, ""),
            "status": twin_status(pair) if pair else cable_status(link.state), "label": label,
            "color": cable_color(link), "length": _number(stock) if stock else None,
            "length_unit": "m" if stock else "", "description": media_names.get(link.media, "")[:DESCRIPTION_MAX],
            "tags": tags}
        if pair:
            fields["profile"] = TWIN_PROFILE
        yield Wanted(CABLES, (label,), fields, link.id,
                     {"a": sides[0], "b": sides[1], "links": tuple(l.id for l in group)})


def _sides(doc: Document, group: tuple[Any, ...], hostnames: dict[str, str], ends: dict[str, dict[str, str]],
           problems: list[str]) -> tuple[tuple[End, ...], tuple[End, ...]] | None:
    """The A and B ends of a cable's port-cables (each side in their order); None, with the
    problem noted, when one is not a port of a racked device."""
    sides: tuple[list[End], list[End]] = ([], [])
    for link in group:
        for side, (device_id, port) in zip(sides, ((link.a_device, link.a_port), (link.b_device, link.b_port))):
            device = doc.devices.get(device_id)
            kind = ends[device.type].get(port, "") if device is not None and device_id in hostnames else ""
            if not kind:
                problems.append(f"cable {cable_label(doc, link)}: {device_id} {port} is not a port of a racked device")
                return None
            side.append(End(kind, (hostnames[device_id],), port))
    return tuple(sides[0]), tuple(sides[1])


def _feed_cables(doc: Document, racks: list, hostnames: dict[str, str]) -> Iterator[Wanted]:
    """A cable from each rack side's PDU inlets to the rack's power feed of that side, so that
    NetBox sums the PSUs' draw on the outlets into the feed (``Rack.get_power_utilization``: the
    feed's link peers). A feed takes one cable, and a cable over the REST API may end on several
    ports of one kind: one cable per feed, on every PDU inlet of its side."""
    for rack in racks:
        sides = rack_pdu_sides(doc, rack.id)
        pdus = sorted((d for d in doc.devices_in(rack.id) if doc.catalog[d.type].kind == RACK_PDU),
                      key=lambda d: natural_key(d.name))
        for side, busbar_id in (("A", rack.feed_a), ("B", rack.feed_b)):
            feeding = doc.busbars.get(busbar_id or "")
            inlets = tuple(End(POWER_PORT_END, (hostnames[d.id],), PDU_INPUT) for d in pdus if sides.get(d.id) == side)
            if feeding is None or not inlets:
                continue
            feed = f"{rack.name}-{side}"
            yield Wanted(CABLES, (f"{feed} inlets",), {
                "type": POWER_CABLE, "status": STATUS, "label": f"{feed} → {len(inlets)} PDU inlet(s)",
                "length": None, "length_unit": "", "description": "Power feed to the rack PDUs of its side",
                "tags": [Ref(TAGS, (NETWORK_TAGS[POWER].slug,))]},
                f"{rack.id}/{side}/feed", {"a": (End(POWER_FEED_END, (feeding.name, feed), feed),), "b": inlets})
