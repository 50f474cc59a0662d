"""NetBox's own names for what the planner writes and reads back: bulk-import columns, choice slugs,
device roles and how a catalogue type is named as a NetBox device type.

One table shared by the writer (``planner.export.netbox``) and the reader (``planner.io.netbox``),
so that what is written is what is read. Everything here is taken from the sources, not guessed:

- Columns: ``netbox/dcim/forms/bulk_import.py`` (NetBox 4.6.8, commit 43fe81f9e8), the ``Meta.fields``
  of SiteImportForm, LocationImportForm, ManufacturerImportForm, DeviceRoleImportForm,
  RackImportForm, DeviceImportForm, CableImportForm, PowerPanelImportForm and PowerFeedImportForm.
  NetBox refuses a file with a header it does not know ("Unexpected column header",
  ``utilities/forms/utils.py`` ``validate_csv``), so only columns that every release from v4.0.0 to
  v4.6.0 accepts are used: racks without ``form_factor`` (4.0 called it ``type``), cables without
  ``side_a_site`` (4.4 and later).
- Slugs: ``netbox/dcim/choices.py`` InterfaceTypeChoices (``infiniband-ndr``, ``400gbase-x-osfp`` …),
  CableTypeChoices (``dac-passive``, ``dac-active``, ``mmf-om4``, ``smf-os2``), LinkStatusChoices,
  CableLengthUnitChoices, PowerPortTypeChoices and the PowerFeed status/type/supply/phase choices;
  ``netbox/netbox/choices.py`` WeightUnitChoices (``kg``).
- Lengths: ``netbox/dcim/models`` (Device.name 64 characters; rack, site, location, manufacturer,
  role, device-type model, power panel and feed names and cable labels 100; descriptions 200).
- Device types: the devicetype-library schema (``schema/devicetype.json``, ``components.json``):
  manufacturer, model, slug (``^[-a-z0-9_]+$``, at most 100), u_height, is_full_depth, weight with
  weight_unit, interfaces and power-ports each with a name and a type.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from planner.io.cells import FORMULA_STARTS, unneutralise  # noqa: F401 (the cell rule, re-exported for readers)
from planner.model.catalog import NODE, RACK_CDU, RACK_PDU, STORAGE, SWITCH, CatalogItem

#: The manufacturer NetBox files a catalogue type under when its entry names none: the built-in
#: racks, PDUs, CDUs and storage are classes of equipment, not one vendor's product.
DEFAULT_MANUFACTURER = "Generic"

SITE_COLUMNS = ("name", "slug", "status", "description")
LOCATION_COLUMNS = ("site", "parent", "name", "slug", "status", "description")
MANUFACTURER_COLUMNS = ("name", "slug", "description")
ROLE_COLUMNS = ("name", "slug", "color", "description")
RACK_COLUMNS = ("site", "location", "name", "status", "width", "u_height", "outer_width", "outer_depth",
                "outer_unit", "weight", "max_weight", "weight_unit", "description")
DEVICE_COLUMNS = ("name", "role", "manufacturer", "device_type", "status", "site", "location", "rack",
                  "position", "face")
CABLE_COLUMNS = ("side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
                 "type", "status", "label", "length", "length_unit", "description")
POWER_PANEL_COLUMNS = ("site", "location", "name", "description")
POWER_FEED_COLUMNS = ("site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase",
                      "voltage", "amperage", "max_utilization", "description")

#: Cable ends that are device interfaces (CableImportForm side_a_type: app_label.model).
INTERFACE_END = "dcim.interface"

#: NetBox's maximum lengths (dcim/models: ``max_length``) of the names the set writes.
DEVICE_NAME_MAX = 64
NAME_MAX = 100
DESCRIPTION_MAX = 200

#: Interface type by port speed (Gb/s): InfiniBand (EDR, HDR, NDR, XDR) and Ethernet (the pluggable
#: form factor of each speed's cages in the catalogue: QSFP28, QSFP56, OSFP).
_IB_TYPES = {100: "infiniband-edr", 200: "infiniband-hdr", 400: "infiniband-ndr", 800: "infiniband-xdr"}
_ETH_TYPES = {100: "100gbase-x-qsfp28", 200: "200gbase-x-qsfp56", 400: "400gbase-x-osfp", 800: "800gbase-x-osfp"}
OTHER = "other"

#: Cable type by media key (resources/catalog/media.json): 400G SR4 runs on OM4 multimode, DR4 and
#: FR4 on OS2 single-mode.
CABLE_TYPES = {"dac": "dac-passive", "acc": "dac-active", "sr4": "mmf-om4", "dr4": "smf-os2", "fr4": "smf-os2"}

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
    (SWITCH, ""): Role("Switch", "switch", "607d8b", "Switch outside the generated fabric"),
    (STORAGE, ""): Role("Storage", "storage", "ff9800", "Storage node"),
    (RACK_PDU, ""): Role("PDU", "pdu", "f44336", "0U rack power distribution unit"),
    (RACK_CDU, ""): Role("CDU", "cdu", "00bcd4", "In-rack coolant distribution unit"),
}


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
             ("storage", STORAGE), ("pdu", RACK_PDU), ("power", RACK_PDU), ("cdu", RACK_CDU), ("cool", RACK_CDU))
    return next(((kind, "") for word, kind in words if word in text), None)


def interface_type(speed_gbps: float, infiniband: bool) -> str:
    """NetBox interface type slug of a port at this speed on this fabric kind (``other`` if none)."""
    table = _IB_TYPES if infiniband else _ETH_TYPES
    return table.get(int(speed_gbps), OTHER) if float(speed_gbps).is_integer() else OTHER


def interface_speed(slug: str) -> tuple[float, bool] | None:
    """(Gb/s, is InfiniBand) of an interface type slug the set writes, None for any other."""
    for table, infiniband in ((_IB_TYPES, True), (_ETH_TYPES, False)):
        for speed, known in table.items():
            if known == slug:
                return float(speed), infiniband
    return None


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
    """Catalogue key → NetBox model name: the entry's name, made unique per manufacturer (NetBox
    requires it) by the key in brackets, and cut to NetBox's 100 characters."""
    models: dict[str, str] = {}
    taken: set[tuple[str, str]] = set()
    for item in sorted(items, key=lambda i: i.key):
        model = item.name[:NAME_MAX]
        if (manufacturer_of(item), model.casefold()) in taken:
            suffix = f" [{item.key}]"
            model = (item.name[:max(0, NAME_MAX - len(suffix))] + suffix)[:NAME_MAX]
        taken.add((manufacturer_of(item), model.casefold()))
        models[item.key] = model
    return models
