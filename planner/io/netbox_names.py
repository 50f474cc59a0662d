"""NetBox's own names for what the planner writes and reads back: bulk-import columns, choice slugs,
device roles and how a catalogue type is named as a NetBox device type.

One table shared by the writer (``planner.export.netbox``) and the reader (``planner.io.netbox``),
so that what is written is what is read. Everything here is taken from the sources, not guessed:

- Columns: ``netbox/dcim/forms/bulk_import.py`` (NetBox tag v4.6.8, commit 3db98de783; the same at
  43fe81f9e8), the ``Meta.fields`` of SiteImportForm, LocationImportForm, ManufacturerImportForm,
  DeviceRoleImportForm, RackImportForm, DeviceImportForm, CableImportForm, PowerPanelImportForm and
  PowerFeedImportForm.
  NetBox refuses a file with a header it does not know ("Unexpected column header",
  ``utilities/forms/utils.py`` ``validate_csv``), so the set uses columns every release from v4.4.0
  to v4.6.8 accepts: racks with ``form_factor`` and ``airflow`` (4.1 and later; 4.0 called the form
  factor ``type``), cables with ``side_a_site``/``side_b_site`` (4.4 and later: CableImportForm
  limits the device of each end to that site, so hostnames that repeat across halls resolve), and
  ``color`` (six hex digits, ``_clean_color``). The power-feed cables alone need 4.6: a feed end
  is named by ``side_b_power_panel`` and the feed's name (``_clean_side``: ``powerfeed`` is looked
  up by panel and name, not by device), a column 4.6.0 added.
- Ids: ``netbox/netbox/views/generic/bulk_views.py`` BulkImportView: a row whose ``id`` cell is set
  updates that object (``_process_import_records``; an empty cell makes a new one), and a file with
  any id needs the ``change`` permission (``create_and_update_objects``); a header ``id`` turns off
  the required-column check (``utilities/forms/utils.py`` ``validate_csv``). The set keeps the two
  apart: the rows whose NetBox id the plan knows (``Document.netbox.ids``) in ``<file>-update.csv``,
  the new ones in ``<file>.csv`` with no id column, imported with the add permission alone and
  with the required-column check on.
- Slugs: ``netbox/dcim/choices.py`` InterfaceTypeChoices (``infiniband-ndr``, ``400gbase-x-osfp``,
  ``400gbase-x-qsfp112``, ``100gbase-x-qsfp28``, ``1000base-t`` …), CableTypeChoices (``dac-passive``,
  ``dac-active``, ``mmf-om4``, ``smf-os2``, ``cat6a``, ``power``), LinkStatusChoices,
  CableLengthUnitChoices, PowerPortTypeChoices, PowerOutletTypeChoices (``iec-60320-c13``/``c19``),
  PowerOutletFeedLegChoices (A, B, C) and the PowerFeed status/type/supply/phase choices, each
  present in v4.0.0 and v4.6.8;
  ``netbox/netbox/choices.py`` WeightUnitChoices (``kg``).
- Lengths: ``netbox/dcim/models`` (Device.name 64 characters; rack, site, location, manufacturer,
  role, device-type model, power panel and feed names and cable labels 100; descriptions 200).
- Device types: the devicetype-library schema (``schema/devicetype.json``, ``components.json``):
  manufacturer, model, slug (``^[-a-z0-9_]+$``, at most 100), u_height, is_full_depth, weight with
  weight_unit, interfaces and power-ports each with a name and a type, power-outlets with a name,
  type, power_port and feed_leg.
- Tags: ``netbox/netbox/forms/bulk_import.py`` NetBoxModelImportForm ``tags`` (tag slugs, comma
  separated, of tags that exist: ``tags.csv``, extras TagImportForm name, slug, color, description).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from planner.io.cells import FORMULA_STARTS, unneutralise  # noqa: F401 (the cell rule, re-exported for readers)
from planner.model.catalog import (
    CABINET,
    NODE,
    RACK_CDU,
    RACK_MANIFOLD,
    RACK_PDU,
    ROW_CDU,
    STORAGE,
    SWITCH,
    CatalogItem,
    builtin_catalog,
)
from planner.model.networks import (
    NETWORK_OF_TIER,
    NETWORK_WORDS,
    ROLE_INBAND_ACCESS,
    ROLE_INBAND_AGG,
    ROLE_OOB_ACCESS,
    ROLE_OOB_AGG,
    ROLE_STORAGE_LEAF,
    ROLE_STORAGE_SPINE,
)
from planner.model.ports import COMPUTE, INBAND, OOB, POWER, STORAGE_NET, Port

#: The manufacturer NetBox files a catalogue type under when its entry names none: the built-in
#: racks, PDUs, CDUs and storage are classes of equipment, not one vendor's product.
DEFAULT_MANUFACTURER = "Generic"

SITE_COLUMNS = ("name", "slug", "status", "description")
LOCATION_COLUMNS = ("site", "parent", "name", "slug", "status", "description")
MANUFACTURER_COLUMNS = ("name", "slug", "description")
ROLE_COLUMNS = ("name", "slug", "color", "description")
RACK_COLUMNS = ("site", "location", "name", "status", "rack_type", "form_factor", "width", "u_height", "outer_width",
                "outer_depth", "outer_unit", "airflow", "weight", "max_weight", "weight_unit", "description")
DEVICE_COLUMNS = ("name", "role", "manufacturer", "device_type", "status", "site", "location", "rack",
                  "position", "face")
CABLE_COLUMNS = ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                 "side_b_type", "side_b_name", "type", "status", "label", "color", "length", "length_unit",
                 "description", "tags")
#: The cables from a rack PDU's inlet to its power feed (and a busbar tap-off's, ``power-feed-cables.csv``):
#: side B names the feed by its site, power panel and name (NetBox 4.6).
FEED_CABLE_COLUMNS = ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                      "side_b_power_panel", "side_b_type", "side_b_name", "type", "status", "label", "description",
                      "tags")
TAG_COLUMNS = ("name", "slug", "color", "description")
#: A transceiver in a device's module bay (ModuleImportForm: device and bay by name, type by model).
MODULE_COLUMNS = ("device", "module_bay", "module_type", "status")
POWER_PANEL_COLUMNS = ("site", "location", "name", "description")
POWER_FEED_COLUMNS = ("site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase",
                      "voltage", "amperage", "max_utilization", "description")

#: Cable ends (CableImportForm side_a_type: app_label.model): a device interface, a PSU's power
#: port, a rack PDU's power outlet.
INTERFACE_END = "dcim.interface"
POWER_PORT_END = "dcim.powerport"
POWER_OUTLET_END = "dcim.poweroutlet"
POWER_FEED_END = "dcim.powerfeed"

#: The column of a row NetBox has (its id): such rows go to ``<file>-update.csv`` (module docstring).
ID_COLUMN = "id"
UPDATE_SUFFIX = "-update"
#: The subfolder of what every hall shares (manufacturers, roles, device types, tags): one step,
#: skipped where NetBox has them from an earlier hall.
SHARED_FOLDER = "shared"

#: Rail-to-rail width of every catalogue rack, inches (RackWidthChoices): EIA-310 19-inch IT racks.
RACK_WIDTH_IN = 19
#: RackFormFactorChoices and RackAirflowChoices (dcim/choices.py): the catalogue's racks are
#: enclosed four-post cabinets, cooled front to rear.
RACK_FORM_FACTOR = "4-post-cabinet"
RACK_AIRFLOW = "front-to-rear"

#: NetBox's maximum lengths (dcim/models: ``max_length``) of the names the set writes.
DEVICE_NAME_MAX = 64
NAME_MAX = 100
DESCRIPTION_MAX = 200

#: Interface type by port speed (Gb/s): InfiniBand (EDR, HDR, NDR, XDR) and Ethernet (the pluggable
#: form factor of each speed's cages in the catalogue: QSFP28, QSFP56, OSFP).
_IB_TYPES = {100: "infiniband-edr", 200: "infiniband-hdr", 400: "infiniband-ndr", 800: "infiniband-xdr"}
_ETH_TYPES = {100: "100gbase-x-qsfp28", 200: "200gbase-x-qsfp56", 400: "400gbase-x-osfp", 800: "800gbase-x-osfp"}
OTHER = "other"
#: Interface type by the port's connector and speed (Gb/s), for ports outside the InfiniBand rails.
#: NetBox has no 100G QSFP112 type: a QSFP112 cage at 100G takes QSFP28 optics, ``100gbase-x-qsfp28``.
_CAGE_TYPES = {
    ("OSFP", 400): "400gbase-x-osfp", ("OSFP", 800): "800gbase-x-osfp",
    ("QSFP112", 400): "400gbase-x-qsfp112", ("QSFP112", 100): "100gbase-x-qsfp28",
    ("QSFP112", 200): "200gbase-x-qsfp56", ("QSFP-DD", 100): "100gbase-x-qsfpdd",
    ("QSFP-DD", 200): "200gbase-x-qsfpdd", ("QSFP-DD", 400): "400gbase-x-qsfpdd",
    ("QSFP-DD", 800): "800gbase-x-qsfpdd", ("QSFP56", 200): "200gbase-x-qsfp56",
    ("QSFP28", 100): "100gbase-x-qsfp28", ("QSFP+", 40): "40gbase-x-qsfpp", ("SFP56", 50): "50gbase-x-sfp56",
    ("SFP28", 25): "25gbase-x-sfp28", ("SFP+", 10): "10gbase-x-sfpp", ("RJ45", 1): "1000base-t",
    ("RJ45", 10): "10gbase-t",
}
#: Power port type by PSU inlet, power outlet type by PDU outlet (IEC 60320).
INLET_TYPES = {"C14": "iec-60320-c14", "C20": "iec-60320-c20"}
#: A console port's connector (``planner.model.ports.CONSOLE_CONNECTORS``) → ConsolePortTypeChoices.
CONSOLE_TYPES = {"RJ45": "rj-45", "USB Mini-B": "usb-mini-b", "USB-C": "usb-c", "DE-9": "de-9"}
OUTLET_TYPES = {"C13": "iec-60320-c13", "C19": "iec-60320-c19"}
#: A PDU outlet group's phase → the outlet's feed leg; a line-to-line group ("L1-L2") has none.
FEED_LEGS = {"L1": "A", "L2": "B", "L3": "C"}
#: Cable type of a power cord (CableTypeChoices TYPE_POWER).
POWER_CABLE = "power"

#: Cable type by media key (resources/catalog/media.json): 400G SR4 runs on OM4 multimode, DR4 and
#: FR4 on OS2 single-mode.
CABLE_TYPES = {"dac": "dac-passive", "acc": "dac-active", "sr4": "mmf-om4", "dr4": "smf-os2", "fr4": "smf-os2",
               "cat6a": "cat6a"}

#: Media by the names cables had in sets written before the transceivers were counted per plug
#: ("+ 2 transceivers"): a NetBox that holds such a set still reads back on the same media.
FORMER_NAMES = {"Multimode SR4 fibre + 2 transceivers": "sr4", "Single-mode DR4 fibre + 2 transceivers": "dr4",
                "Single-mode FR4 fibre + 2 transceivers": "fr4"}

#: Metres per NetBox length unit (CableLengthUnitChoices).
LENGTH_UNITS_M = {"km": 1000.0, "m": 1.0, "cm": 0.01, "mi": 1609.344, "ft": 0.3048, "in": 0.0254}



@dataclass(frozen=True)
class Role:
    """A NetBox device role: name, slug and the colour NetBox draws it in (display only)."""

    name: str
    slug: str
    color: str
    description: str


_ROLES = {
    (NODE, ""): Role("GPU node", "gpu-node", "4caf50", "8-GPU training node"),
    (SWITCH, "leaf"): Role("Leaf switch", "leaf-switch", "2196f3", "Rail leaf of a scalable unit"),
    (SWITCH, "spine"): Role("Spine switch", "spine-switch", "3f51b5", "Spine of the fat-tree"),
    (SWITCH, "core"): Role("Core switch", "core-switch", "673ab7", "Core of a three-tier fat-tree"),
    (SWITCH, ROLE_STORAGE_LEAF): Role("Storage leaf switch", "storage-leaf-switch", "ff5722",
                                      "Leaf of the storage fabric"),
    (SWITCH, ROLE_STORAGE_SPINE): Role("Storage spine switch", "storage-spine-switch", "795548",
                                       "Spine of the storage fabric"),
    (SWITCH, ROLE_INBAND_ACCESS): Role("In-band access switch", "inband-access-switch", "009688",
                                       "In-band management access switch"),
    (SWITCH, ROLE_INBAND_AGG): Role("In-band aggregation switch", "inband-aggregation-switch", "00796b",
                                    "In-band management aggregation pair"),
    (SWITCH, ROLE_OOB_ACCESS): Role("OOB access switch", "oob-access-switch", "9e9e9e",
                                    "Out-of-band management access switch (BMC and mgmt0 ports)"),
    (SWITCH, ROLE_OOB_AGG): Role("OOB aggregation switch", "oob-aggregation-switch", "616161",
                                 "Out-of-band management aggregation pair"),
    (SWITCH, ""): Role("Switch", "switch", "607d8b", "Switch outside the generated fabric"),
    (STORAGE, ""): Role("Storage", "storage", "ff9800", "Storage node"),
    (RACK_PDU, ""): Role("PDU", "pdu", "f44336", "0U rack power distribution unit"),
    (RACK_CDU, ""): Role("CDU", "cdu", "00bcd4", "In-rack coolant distribution unit"),
    (RACK_MANIFOLD, ""): Role("Coolant manifold", "coolant-manifold", "03a9f4",
                              "0U rack manifold: the quick-disconnects of the liquid-cooled units"),
    # Floor-standing units: NetBox 4.6 has no cooling or switchgear models, so they are devices in
    # no rack, in their row's location.
    (ROW_CDU, ""): Role("Row CDU", "row-cdu", "0097a7", "Floor-standing coolant distribution unit of a row"),
    (CABINET, ""): Role("Power cabinet", "power-cabinet", "b71c1c", "Power distribution cabinet on the floor"),
}


#: The role of a busbar tap-off box (not a catalogue kind): where a side's several rack PDUs meet
#: their one power feed (NetBox connects a feed to one cable end, ``dcim/models/cables.py``).
TAP_OFF_ROLE = Role("Busbar tap-off", "busbar-tap-off", "ff9800",
                    "Busbar tap-off box: the power feed of a rack side to its rack PDUs")


def every_role() -> list[Role]:
    """Every role the planner writes, by slug: the same rows for every hall (device-roles.csv)."""
    return sorted({*_ROLES.values(), TAP_OFF_ROLE}, key=lambda r: r.slug)


def role_for(kind: str, switch_role: str = "") -> Role:
    """The NetBox role of a device of this catalogue kind (and switch role)."""
    return _ROLES.get((kind, switch_role if kind == SWITCH else "")) or _ROLES[(STORAGE, "")]


def kind_from_role(role: str) -> tuple[str, str] | None:
    """(catalogue kind, switch role) a NetBox role name or slug stands for, None when it says nothing.

    The set's own roles map back exactly; other NetBox installations' names are read by the words
    in them ("Spine", "GPU server", "Rack PDU" …).
    """
    text = role.casefold()
    for (kind, switch_role), known in _ROLES.items():
        if text in (known.name.casefold(), known.slug):
            return kind, switch_role
    for word in ("leaf", "spine", "core"):
        if word in text:
            return SWITCH, word
    words = (("switch", SWITCH), ("gpu", NODE), ("compute", NODE), ("node", NODE), ("server", NODE),
             ("storage", STORAGE), ("pdu", RACK_PDU), ("power", RACK_PDU), ("manifold", RACK_MANIFOLD), ("cdu", RACK_CDU),
             ("cool", RACK_CDU))
    return next(((kind, "") for word, kind in words if word in text), None)


def interface_type(speed_gbps: float, infiniband: bool) -> str:
    """NetBox interface type slug of a port at this speed on this fabric kind (``other`` if none)."""
    table = _IB_TYPES if infiniband else _ETH_TYPES
    return table.get(int(speed_gbps), OTHER) if float(speed_gbps).is_integer() else OTHER


def port_interface_type(port: Port, infiniband: bool) -> str:
    """NetBox interface type of a data port: the compute rails by the fabric kind and speed (as
    ``interface_type``), every other port by its connector and speed, by speed alone on Ethernet
    when the catalogue gives no connector."""
    if port.network == COMPUTE:
        return interface_type(port.speed_gbps, infiniband)
    speed = port.speed_gbps
    known = _CAGE_TYPES.get((port.connector, int(speed))) if float(speed).is_integer() else None
    return known or interface_type(speed, False)


def interface_speed(slug: str) -> tuple[float, bool] | None:
    """(Gb/s, is InfiniBand) of an interface type slug the set writes, None for any other."""
    for table, infiniband in ((_IB_TYPES, True), (_ETH_TYPES, False)):
        for speed, known in table.items():
            if known == slug:
                return float(speed), infiniband
    return None


@dataclass(frozen=True)
class Tag:
    """A NetBox tag the set puts on its cables: one per network and one per tier."""

    name: str
    slug: str
    color: str
    description: str


#: The tag of each network (its cables'), and the colours NetBox draws them in (display only).
_NETWORK_COLORS = {COMPUTE: "4caf50", STORAGE_NET: "ff9800", INBAND: "2196f3", OOB: "9e9e9e", POWER: "f44336"}
NETWORK_TAGS = {network: Tag(f"Network: {NETWORK_WORDS[network]}", f"net-{network}", color,
                             f"A cable of the {NETWORK_WORDS[network]} network (Hall Planner)")
                for network, color in _NETWORK_COLORS.items()}
#: The tag of each cable tier (``planner.model.networks``), so the reader gets the tier back as written.
TIER_TAGS = {tier: Tag(f"Tier: {tier}", f"tier-{tier}", _NETWORK_COLORS[network],
                       f"A {tier} cable of the {NETWORK_WORDS[network]} network (Hall Planner)")
             for tier, network in NETWORK_OF_TIER.items() if network in _NETWORK_COLORS}


def rail_tag(rail: int) -> Tag:
    """The tag of a compute rail's cables (``rail-3``), in the compute network's colour, as the tier
    tags are in their network's: the cable's own colour is its rail's (``color``: the cabling PDF's
    palette, ``planner.export.netbox_cables.cable_color``)."""
    return Tag(f"Rail: {rail}", f"rail-{rail}", _NETWORK_COLORS[COMPUTE],
               f"A cable of rail {rail} of the compute fabric (Hall Planner)")


#: The rail tags every set writes: the eight rails of the catalogue's 8-GPU nodes (a plan with
#: more rails adds theirs).
RAIL_TAGS = {rail: rail_tag(rail) for rail in range(1, 9)}
TIER_OF_TAG = {tag.slug: tier for tier, tag in TIER_TAGS.items()}
NETWORK_OF_TAG = {tag.slug: network for network, tag in NETWORK_TAGS.items()}


def cable_status(state: str) -> str:
    """NetBox cable status (LinkStatusChoices) of a plan cable's installation state: ``planned``
    until it is run, ``connected`` from then on (NetBox has no state for labelled, tested, faulty)."""
    return "planned" if state == "planned" else "connected"


def state_from_status(status: str) -> str:
    """The plan state a NetBox cable status comes back as: ``connected`` is ``run`` (the least it says)."""
    return "planned" if status in ("", "planned") else "run"


def slugify(text: str, limit: int = NAME_MAX) -> str:
    """A NetBox slug: ASCII letters (lower case), digits, ``-`` and ``_``; accents dropped."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9_]+", "-", ascii_text).strip("-")[:limit].strip("-")


def site_hostname(site: str, hostname: str) -> str:
    """A default hostname with the site in front (``dc-west-R01-N1``: ``--site-in-hostnames``), so
    halls whose rack names repeat keep apart in one NetBox."""
    return f"{slugify(site) or 'site'}-{hostname}"


#: ``Document.netbox.ids`` keys of the site, the hall's location and a row's location (as the push's).
SITE_KEY = "site"
LOCATION_KEY = "location"


def row_location_key(row: str) -> str:
    return f"{LOCATION_KEY}/{row}"


def feed_key(rack_id: str, side: str) -> str:
    """``Document.netbox.ids`` key of a rack's power feed of side A or B (``rack-3/A``)."""
    return f"{rack_id}/{side}"


def inlet_cable_key(pdu_id: str) -> str:
    """Key of the cable at a rack PDU's inlet: to its power feed, or to its side's tap-off."""
    return f"{pdu_id}/feed"


def tap_off_key(rack_id: str, side: str) -> str:
    """Key of the busbar tap-off box of a rack side with several PDUs (a NetBox device)."""
    return f"{rack_id}/{side}/tap-off"


def tap_off_cable_key(rack_id: str, side: str) -> str:
    """Key of the cable from a rack side's power feed to its tap-off box."""
    return f"{rack_id}/{side}/tap-off/feed"


def row_location(hall: str, row: str) -> str:
    """The NetBox location of a row of racks: a child of the hall's location (NetBox has no rows;
    nested locations are how sites record them), named so it is unique in the site."""
    return f"{hall} row {row}" if row else hall


def manufacturer_of(item: CatalogItem) -> str:
    return item.manufacturer or DEFAULT_MANUFACTURER


def type_slug(item: CatalogItem) -> str:
    """The device-type slug of a catalogue entry: manufacturer and catalogue key, as the library
    slugs its types (``nvidia-node-8gpu-air-8u``); the reader maps a slug back to its entry."""
    return slugify(f"{manufacturer_of(item)}-{item.key}")


def device_type_models(items: Iterable[CatalogItem]) -> dict[str, str]:
    """Catalogue key → NetBox model name: the entry's name, cut to NetBox's 100 characters, with the
    key in brackets where another type of the manufacturer has that name (NetBox requires model
    names unique per manufacturer). A built-in type is compared with the built-in catalogue only,
    so its model is the same in every plan that uses it (a second hall finds it in NetBox); a
    custom type with the built-in types and the other custom types given."""
    builtin = builtin_catalog().items
    known = Counter((manufacturer_of(i).casefold(), i.name[:NAME_MAX].casefold()) for i in builtin.values())
    given = list(items)
    custom = [i for i in given if not _is_builtin(i, builtin)]
    mine = Counter((manufacturer_of(i).casefold(), i.name[:NAME_MAX].casefold()) for i in custom)
    models: dict[str, str] = {}
    for item in sorted(given, key=lambda i: i.key):
        name = (manufacturer_of(item).casefold(), item.name[:NAME_MAX].casefold())
        clash = known[name] > 1 if _is_builtin(item, builtin) else known[name] + mine[name] > 1
        suffix = f" [{item.key}]"
        models[item.key] = ((item.name[:max(0, NAME_MAX - len(suffix))] + suffix)[:NAME_MAX] if clash
                            else item.name[:NAME_MAX])
    return models


def _is_builtin(item: CatalogItem, builtin: dict[str, CatalogItem]) -> bool:
    known = builtin.get(item.key)
    return known is not None and (known.name, manufacturer_of(known)) == (item.name, manufacturer_of(item))
