"""``planner netbox pull``: a NetBox site read over the REST API into a plan.

The site's racks, devices, cables (data cables and power cords), power panels and feeds, and the
device types its devices use with their component templates, are read and handed to the import
set's reader (``planner.io.netbox``) in the rows its files would hold, so a site reads the same
whether it came as a folder or from the server. Every object keeps its NetBox id: in
``Document.netbox.ids``, and in the plan's own ids, which are the NetBox ids (``rack-17`` is
NetBox rack 17) so two pulls of one site match object by object in ``planner diff``. With
``onto`` (``planner.netbox.onto``) the plan that was pushed gives back what NetBox does not hold
and its own ids.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from planner.export.netbox_twins import LABEL_JOIN, TWIN_PROFILE, TWIN_STRIDE, port_number
from planner.io.netbox import NetBoxImport, NetBoxReadError, _Reader
from planner.io.netbox_catalog import DeviceTypeError, match_catalogue, parse_device_type
from planner.io.netbox_names import slugify
from planner.model.document import Document
from planner.model.objects import COLLECTIONS, NetBoxRecord
from planner.model.references import reference_names
from planner.netbox.client import NetBoxClient, NetBoxError
from planner.netbox.wanted import (
    CABLES,
    DEVICE_TYPES,
    DEVICES,
    FEEDS,
    LOCATIONS,
    PANELS,
    RACKS,
    SITES,
    TEMPLATES,
)

#: The template list of a device type under its devicetype-library key, and the fields kept.
_TEMPLATE_FIELDS = {"interfaces": ("name", "type", "mgmt_only"),
                    "power-ports": ("name", "type", "maximum_draw", "allocated_draw"),
                    "power-outlets": ("name", "type", "power_port", "feed_leg"),
                    "console-ports": ("name", "type")}


def _text(value: Any) -> str:
    """A read value as a CSV cell holds it: a choice by its value, a related object by its name."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return _text(value.get("value", value.get("name", value.get("model", ""))))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def find_site(client: NetBoxClient, site: str) -> dict[str, Any]:
    """The NetBox site named (or slugged) ``site``; NetBoxError when there is none."""
    for query in ({"slug": slugify(site)}, {"name": site}):
        found = client.get_all(SITES, fields=("id", "name", "slug"), **query)
        if found:
            return found[0]
    raise NetBoxError(f"{client.url} has no site {site!r}")


class _ApiReader(_Reader):
    """The import set's reader, its files replaced by the API's lists (``_csv``, ``_read_types``)."""

    def __init__(self, client: NetBoxClient, site: dict[str, Any]) -> None:
        super().__init__(Path(client.url), origin=f"NetBox {client.url}, site {site['name']}")
        self.client, self.site = client, site
        self.rows = self._fetch()

    def _fetch(self) -> dict[str, list[dict[str, str]]]:
        client, site_id = self.client, self.site["id"]
        racks = client.get_all(RACKS, site_id=site_id)
        devices = client.get_all(DEVICES, site_id=site_id)
        self.device_types = self._device_types({d["device_type"]["id"] for d in devices if d.get("device_type")})
        models = {t["id"]: t for t in self.device_types}
        rows = {
            "locations.csv": [{"id": _text(o["id"]), "name": o["name"], "parent": _text(o.get("parent")),
                               "site": self.site["name"]} for o in client.get_all(LOCATIONS, site_id=site_id)],
            "racks.csv": [{"id": _text(o["id"]), "name": o["name"], "site": self.site["name"],
                           "location": _text(o.get("location")), "u_height": _text(o.get("u_height")),
                           "outer_width": _text(o.get("outer_width")), "outer_depth": _text(o.get("outer_depth")),
                           "outer_unit": _text(o.get("outer_unit")), "weight": _text(o.get("weight")),
                           "weight_unit": _text(o.get("weight_unit")), "max_weight": _text(o.get("max_weight")),
                           "description": o.get("description", "")} for o in racks],
            "devices.csv": [{"id": _text(o["id"]), "name": o.get("name") or "", "rack": _text(o.get("rack")),
                             "device_type": models[o["device_type"]["id"]]["model"],
                             "manufacturer": _text(models[o["device_type"]["id"]]["manufacturer"]),
                             "position": _text(o.get("position")), "role": _text(o.get("role")),
                             "location": _text(o.get("location"))} for o in devices],
            "power-panels.csv": [{"id": _text(o["id"]), "name": o["name"], "description": o.get("description", "")}
                                 for o in client.get_all(PANELS, site_id=site_id)],
            "power-feeds.csv": [{"id": _text(o["id"]), "name": o["name"], "power_panel": _text(o.get("power_panel")),
                                 "rack": _text(o.get("rack")), "amperage": _text(o.get("amperage")),
                                 "type": _text(o.get("type"))} for o in client.get_all(FEEDS, site_id=site_id)],
            "cables.csv": [row for o in client.get_all(CABLES, site_id=site_id) for row in _cable_rows(o)],
        }
        return rows

    def _device_types(self, ids: set[int]) -> list[dict[str, Any]]:
        if not ids:
            return []
        types = self.client.get_all(DEVICE_TYPES, id=sorted(ids))
        by_id = {t["id"]: {**t, **{name: [] for name in _TEMPLATE_FIELDS}} for t in types}
        for endpoint, name in TEMPLATES.items():
            if name not in _TEMPLATE_FIELDS:  # module bays: the plan works its transceivers out
                continue
            for template in self.client.get_all(endpoint, device_type_id=sorted(ids)):
                owner = by_id.get((template.get("device_type") or {}).get("id"))
                if owner is not None:
                    owner[name].append({key: _text(template.get(key)) if key in ("type", "power_port", "feed_leg")
                                        else template.get(key) for key in _TEMPLATE_FIELDS[name]})
        return list(by_id.values())

    # The reader's two ways in: rows by file name, and the device types.
    def _csv(self, name: str, required: tuple[str, ...], optional: bool = False,
             updates: bool = True) -> list[tuple[str, dict[str, str]]]:
        endpoint = name.removesuffix(".csv")
        return [(f"NetBox {endpoint} {row.get('id', '')}", row) for row in self.rows.get(name, [])]

    def _read_types(self) -> None:
        parsed = []
        for data in self.device_types:
            document = {"manufacturer": _text(data.get("manufacturer")), "model": data.get("model", ""),
                        "slug": data.get("slug", ""), "u_height": data.get("u_height") or 0,
                        "weight": data.get("weight") or 0, "weight_unit": _text(data.get("weight_unit")) or "kg",
                        "comments": data.get("comments") or "",
                        **{name: [{k: v for k, v in entry.items() if v is not None} for entry in data[name]]
                           for name in _TEMPLATE_FIELDS}}
            try:
                parsed.append(parse_device_type(document))
            except DeviceTypeError as exc:
                raise NetBoxReadError(f"NetBox device type {data.get('id')} {data.get('model', '')!r}", str(exc)) from None
        match_catalogue(self.catalog, parsed)
        for netbox_type in parsed:
            self.types[(netbox_type.manufacturer.casefold(), netbox_type.model.casefold())] = netbox_type


def _cable_rows(cable: dict[str, Any]) -> list[dict[str, str]]:
    """A cable as cables.csv rows: one, or one per pair of a twin cable's ends (``netbox_twins``:
    a profiled cable's ends pair by their place, each row's id its port-cable's record); none
    for one the plan holds otherwise (a PDU inlet to its power feed: the rack's feeds say that)
    or with several ends a side that no profile pairs."""
    number = cable["id"]
    if isinstance(number, int) and number >= TWIN_STRIDE:  # a server's ids NetBox's never reach
        raise NetBoxReadError(f"NetBox cable {number}", f"an id of {TWIN_STRIDE:,} or more: the plan records a "
                              f"twin cable's second port-cable as {TWIN_STRIDE:,} plus the cable's id")
    a_ends, b_ends = cable.get("a_terminations") or [], cable.get("b_terminations") or []
    paired = _text(cable.get("profile")) == TWIN_PROFILE
    if len(a_ends) != len(b_ends) or not a_ends or (len(a_ends) > 1 and not paired):
        return []
    labels = (cable.get("label") or "").split(LABEL_JOIN)
    if len(labels) != len(a_ends):
        labels = [cable.get("label") or ""] + [""] * (len(a_ends) - 1)
    rows = []
    for place, (a_end, b_end) in enumerate(zip(a_ends, b_ends, strict=True)):
        row = {"id": _text(port_number(number, place)), "type": cable.get("type") or "",
               "status": _text(cable.get("status")), "label": labels[place], "length": _text(cable.get("length")),
               "length_unit": _text(cable.get("length_unit")), "description": cable.get("description") or "",
               "tags": ",".join(t.get("slug", "") for t in cable.get("tags") or [])}
        for side, term in zip("ab", (a_end, b_end), strict=True):
            component = term.get("object") or {}
            row[f"side_{side}_type"] = term.get("object_type", "")
            row[f"side_{side}_device"] = _text(component.get("device"))
            row[f"side_{side}_name"] = component.get("name", "")
        if "dcim.powerfeed" in (row["side_a_type"], row["side_b_type"]):
            return []
        rows.append(row)
    return rows


def renumbered(result: NetBoxImport, ids_of: dict[str, str]) -> Document:
    """The read plan with each object's id ``ids_of[old]`` and every reference following."""
    doc = result.doc
    collections: dict[str, list[Any]] = {}
    for attr, cls in COLLECTIONS.values():
        refs = reference_names(cls)
        moved = []
        for obj in getattr(doc, attr).values():
            values = {name: ids_of[value] for name in refs if (value := getattr(obj, name)) in ids_of}
            if obj.id in ids_of:
                values["id"] = ids_of[obj.id]
            moved.append(replace(obj, **values) if values else obj)
        collections[attr] = moved
    out = Document.from_collections(collections, doc.catalog)
    out.meta, out.basis, out.outline = doc.meta, doc.basis, doc.outline
    return out


def pull(client: NetBoxClient, site: str) -> tuple[Document, list[str]]:
    """The plan of NetBox site ``site`` (module docstring), and what the reader assumed."""
    found = find_site(client, site)
    result = _ApiReader(client, found).read()
    ids_of = {old: f"{old.split('-', 1)[0]}-{number}" for old, number in result.netbox_ids.items() if "/" not in old}
    doc = renumbered(result, ids_of)
    doc.netbox = NetBoxRecord(client.url, found["name"], {
        ids_of.get(owner, owner) + (f"/{part}" if part else ""): number
        for key, number in result.netbox_ids.items() for owner, _slash, part in (key.partition("/"),)})
    return doc, result.notes


__all__ = ["NetBoxError", "NetBoxReadError", "find_site", "pull", "renumbered"]
