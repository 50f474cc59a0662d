"""NetBox's own exports read as the import set's files, so ``planner import --from netbox`` takes a
folder of what a DCIM team downloads from NetBox's web UI, not only the set the planner writes.

A list's Export ▸ All Data writes ``netbox_racks.csv``, ``netbox_devices.csv``,
``netbox_cables.csv``, ``netbox_power panels.csv``, ``netbox_power feeds.csv``,
``netbox_locations.csv`` (NetBox 4.6 ``netbox/views/generic/bulk_views.py`` ObjectListView.export_table:
``netbox_{verbose_name_plural}.csv``) and the device-type list ``netbox_device types.yaml``
(devicetype-library documents, ``null`` for unset numbers). The CSVs carry the table's column
headings ("Name", "Height", "Termination A") and values as the table shows them: "52U",
"800 mm", "190.00 kg", "10 m", "Planned", "Multimode Fiber (OM4)", tags by name, a cable end by
its component's name only. Recorded from NetBox 4.6.8 in ``tests/data/netbox_export/``.
Export ▸ Current View holds only the columns shown and lacks what the plan needs (a device's
position, a cable's devices): the reader names the missing heading.
"""

from __future__ import annotations

import re

from planner.io.netbox_catalog import NetBoxType
from planner.io.netbox_names import (
    INTERFACE_END,
    NETWORK_TAGS,
    POWER_OUTLET_END,
    POWER_PORT_END,
    TIER_TAGS,
)

#: The import set's file → the file NetBox's Export ▸ All Data downloads.
EXPORT_FILES = {"racks.csv": "netbox_racks.csv", "devices.csv": "netbox_devices.csv",
                "cables.csv": "netbox_cables.csv", "power-panels.csv": "netbox_power panels.csv",
                "power-feeds.csv": "netbox_power feeds.csv", "locations.csv": "netbox_locations.csv"}
#: The device-type list's export (DeviceType.to_yaml of every type, ``---`` between them).
EXPORT_DEVICE_TYPES = "netbox_device types.yaml"

#: Each set column read from a heading of NetBox's tables (``dcim/tables/*.py``: verbose names).
_HEADINGS = {
    "racks.csv": {"ID": "id", "Name": "name", "Site": "site", "Location": "location", "Height": "u_height",
                  "Outer Width": "outer_width", "Outer Depth": "outer_depth", "Weight": "weight",
                  "Max Weight": "max_weight", "Description": "description"},
    "devices.csv": {"ID": "id", "Name": "name", "Site": "site", "Location": "location", "Rack": "rack",
                    "Role": "role", "Manufacturer": "manufacturer", "Type": "device_type", "Position": "position",
                    "Rack face": "face"},
    "cables.csv": {"ID": "id", "Label": "label", "Status": "status", "Type": "type", "Device A": "side_a_device",
                   "Device B": "side_b_device", "Termination A": "side_a_name", "Termination B": "side_b_name",
                   "Length": "length", "Description": "description", "Tags": "tags"},
    "power-panels.csv": {"ID": "id", "Name": "name", "Site": "site", "Location": "location",
                         "Description": "description"},
    "power-feeds.csv": {"ID": "id", "Name": "name", "Power Panel": "power_panel", "Rack": "rack", "Type": "type",
                        "Status": "status", "Amperage": "amperage"},
    "locations.csv": {"ID": "id", "Name": "name", "Site": "site", "Parent": "parent", "Slug": "slug",
                      "Description": "description"},
}
#: CableTypeChoices labels (NetBox 4.6 ``dcim/choices.py``) of the types the planner writes and reads.
CABLE_TYPE_OF_LABEL = {"CAT6a": "cat6a", "Direct Attach Copper (Active)": "dac-active",
                       "Direct Attach Copper (Passive)": "dac-passive", "Multimode Fiber": "mmf",
                       "Multimode Fiber (OM3)": "mmf-om3", "Multimode Fiber (OM4)": "mmf-om4",
                       "Multimode Fiber (OM5)": "mmf-om5", "Single-mode Fiber": "smf",
                       "Single-mode Fiber (OS1)": "smf-os1", "Single-mode Fiber (OS2)": "smf-os2",
                       "Active Optical Cabling (AOC)": "aoc", "Power": "power"}
_TAG_SLUGS = {tag.name: tag.slug for tag in [*NETWORK_TAGS.values(), *TIER_TAGS.values()]}
_WITH_UNIT = re.compile(r"^\s*([0-9.]+)\s*([A-Za-z]*)\s*$")
#: What a table shows for a field that is not set.
_UNSET = ("", "None", "—")
#: The side type of a cable end with several terminations (NetBox's "Input,Input,Input"): the plan
#: holds a cable between two ports, so the reader leaves it out with the others it cannot hold.
SEVERAL_ENDS = "several"


def is_ui_export(header: list[str]) -> bool:
    """Whether a CSV header is NetBox's UI export's (its headings) rather than the import set's."""
    return "Name" in header or ("ID" in header and "Termination A" in header)


def set_columns(name: str, header: list[str]) -> list[str]:
    """The set's column names a UI export of ``name`` gives (for the reader's required columns)."""
    headings = _HEADINGS.get(name, {})
    found = [headings[h] for h in header if h in headings]
    if name == "cables.csv" and "side_a_name" in found:
        found += ["side_a_type", "side_b_type"]  # from the ends' device types (``end_type``)
    return found


def heading_of(name: str, column: str) -> str:
    """The UI export's heading of a set column (for a message naming what is missing)."""
    return next((h for h, c in _HEADINGS.get(name, {}).items() if c == column), column)


def _split_unit(text: str) -> tuple[str, str]:
    """ "800 mm" → ("800", "mm"); "52U" → ("52", "U"); "" → ("", "")."""
    found = _WITH_UNIT.match(text)
    return (found.group(1), found.group(2)) if found else (text, "")


def from_ui_export(name: str, values: dict[str, str]) -> dict[str, str] | None:
    """A row of NetBox's UI export of ``name`` as the set's row; None for one the plan holds
    otherwise (a power cable from a feed: the rack's feeds say that). A cable of another type
    with an end on no device (a circuit, a cut-off last row) goes on, for the reader to refuse."""
    headings = _HEADINGS.get(name, {})
    row = {column: ("" if values.get(h, "") in _UNSET else values.get(h, "")) for h, column in headings.items()}
    if name == "racks.csv":
        row["u_height"] = _split_unit(row["u_height"])[0]
        for column in ("outer_width", "outer_depth"):
            row[column], unit = _split_unit(row[column])
            row["outer_unit"] = unit or row.get("outer_unit", "")
        for column in ("weight", "max_weight"):
            row[column], unit = _split_unit(row[column])
            row["weight_unit"] = unit or row.get("weight_unit", "")
    elif name == "power-feeds.csv":
        row["type"], row["status"] = row["type"].lower(), row["status"].lower()
    elif name == "cables.csv":
        if (not row["side_a_device"] or not row["side_b_device"]) and row["type"] == "Power":
            return None  # a feed's cable to the PDU inlets; any other end without a device is refused
        row["length"], row["length_unit"] = _split_unit(row["length"])
        row["status"] = row["status"].lower()
        row["type"] = CABLE_TYPE_OF_LABEL.get(row["type"], row["type"].lower())
        row["tags"] = ",".join(_TAG_SLUGS.get(tag.strip(), tag.strip()) for tag in row["tags"].split(","))
        for side in "ab":
            several = "," in row[f"side_{side}_name"] or "," in row[f"side_{side}_device"]
            row[f"side_{side}_type"] = SEVERAL_ENDS if several else ""
    return row


def end_type(netbox_type: NetBoxType, component: str) -> str:
    """The kind of component a UI export's cable end names (it gives only the name): an interface,
    a power port or a power outlet of the device's type; "" when the type has no such component."""
    if any(name == component for name, _kind, _mgmt in netbox_type.interfaces):
        return INTERFACE_END
    if any(name == component for name, _kind in netbox_type.power_ports):
        return POWER_PORT_END
    if any(name == component for name, _kind in netbox_type.outlets):
        return POWER_OUTLET_END
    return ""
