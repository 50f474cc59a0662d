"""The cables of the NetBox set: ``cables.csv`` (every data cable and power cord of the plan) and
``power-feed-cables.csv`` (each rack PDU's inlet to its power feed), with the busbar tap-off boxes
a side of several PDUs needs (``tap-offs.csv``).

Columns are CableImportForm's (``netbox/dcim/forms/bulk_import.py``, NetBox 4.6.8):

- each end names its site (``side_a_site``, ``side_b_site``, 4.4 and later): the form limits the
  end's device (and power panel) to that site, so a hostname another hall uses too resolves;
- ``color``: six hex digits, lower case, no ``#`` (``_clean_color``; ``utilities/fields.py``
  ColorField): a compute cable's rail colour, the cabling PDF's (``cabling_pdf.RAIL_STYLES``), so the
  cable in NetBox is the colour on the plan; other cables none;
- ``tags``: the cable's network, tier and rail (``netbox_names.rail_tag``: ``rail-1`` …), slugs of
  tags in ``tags.csv``;
- a power feed end is ``side_b_type`` ``dcim.powerfeed`` with ``side_b_power_panel`` and the feed's
  name in ``side_b_name``, no device (``_clean_side``: a feed is looked up by panel and name; the
  panel column is 4.6.0's, so that file alone needs NetBox 4.6).

The power chain is what NetBox's rack power utilisation reads (``dcim/models/racks.py``
Rack.get_power_utilization: the feeds of the rack, the power ports at their far end, each port's
allocated draw summed down through its outlets to the PSUs' ports). NetBox connects a power feed to
one cable end and the import form gives an end one termination, so a rack side with one PDU has a
cable from the PDU's ``Input`` to the feed, and a side with several a busbar tap-off box
(``netbox_types.tap_off_type``) on the feed with a cable from each outlet to one PDU's inlet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from planner.export.cabling_pdf import RAIL_STYLES
from planner.export.netbox_checks import Names
from planner.export.netbox_types import PDU_INPUT, pdu_plug, tap_off_slug, tap_off_type
from planner.io.netbox_names import (
    CABLE_TYPES,
    DEFAULT_MANUFACTURER,
    DESCRIPTION_MAX,
    DEVICE_NAME_MAX,
    NAME_MAX,
    NETWORK_TAGS,
    POWER_CABLE,
    POWER_FEED_END,
    POWER_OUTLET_END,
    POWER_PORT_END,
    RAIL_TAGS,
    TAP_OFF_ROLE,
    TIER_TAGS,
    Tag,
    cable_status,
    inlet_cable_key,
    rail_tag,
    tap_off_cable_key,
    tap_off_key,
)
from planner.model.catalog import RACK_PDU
from planner.model.cords import rack_pdu_sides
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import network_of
from planner.model.objects import Link, Rack
from planner.model.ports import COOLANT, POWER

STATUS = "planned"
#: A row of a set file with the plan key it is written for (``Document.netbox.ids``).
Keyed = tuple[str, tuple]


def cable_color(link: Link) -> str:
    """The NetBox colour of a cable: its rail's in the cabling PDF (six hex digits, lower case),
    "" for a cable on no rail or a rail the PDF draws without a colour."""
    style = RAIL_STYLES.get(link.rail)
    return style[0].lstrip("#").lower() if style else ""


def rail_tags(rails: Iterable[int] = ()) -> list[Tag]:
    """The rail tags of tags.csv: ``RAIL_TAGS``, and the tag of any further rail used."""
    return [rail_tag(rail) for rail in sorted({*RAIL_TAGS, *(r for r in rails if r > 0)})]


def cable_tags(link: Link) -> list[str]:
    """Tag slugs of a cable: its network, its tier, its rail."""
    network = network_of(link)
    return ([NETWORK_TAGS[network].slug] + ([TIER_TAGS[link.tier].slug] if link.tier in TIER_TAGS else [])
            + ([rail_tag(link.rail).slug] if link.rail > 0 else []))


def cable_rows(doc: Document, site: str, device_names: dict[str, str], ends: dict[str, dict[str, str]],
               names: Names) -> list[Keyed]:
    """cables.csv rows of every network but the coolant hoses (NetBox has no model for a hose); a
    cable whose end NetBox could not find (a port its type lacks, a device outside any rack) or
    that shares a port with another is a problem: NetBox imports a file whole or not at all, and
    one such row would stop it."""
    rows: list[Keyed] = []
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
        rows.append((link.id, (site, device_names.get(link.a_device, ""), kinds[0], link.a_port,
                               site, device_names.get(link.b_device, ""), kinds[1], link.b_port,
                               POWER_CABLE if network == POWER else CABLE_TYPES.get(link.media, ""),
                               cable_status(link.state), names.check("cable label", name, NAME_MAX), cable_color(link),
                               f"{round(link.stock_m, 2):g}" if link.stock_m else "", "m" if link.stock_m else "",
                               media_names.get(link.media, "")[:DESCRIPTION_MAX], ",".join(cable_tags(link)))))
    return rows


@dataclass
class FeedRows:
    """What connects the rack PDUs to their feeds: tap-off devices (devices.csv columns), their
    device types by slug, the cables (``FEED_CABLE_COLUMNS``), and the PDUs on a side without a feed."""

    tap_offs: list[Keyed] = field(default_factory=list)
    types: dict[str, dict] = field(default_factory=dict)
    cables: list[Keyed] = field(default_factory=list)
    unfed: list[str] = field(default_factory=list)
    tap_names: list[str] = field(default_factory=list)


def feed_rows(doc: Document, racks: list[Rack], site: str, rack_cells: dict[str, tuple[str, str]],
              device_names: dict[str, str], feeds: dict[tuple[str, str], tuple[str, str]],
              tap_off_name: Callable[[Rack, str], str], names: Names) -> FeedRows:
    """The rows of the power chain (module docstring). ``rack_cells``: rack id → (location, name)
    as written; ``feeds``: (rack id, side) → (power panel, feed name) of the feeds written."""
    out = FeedRows()
    for rack in racks:
        pdus = [d for d in doc.devices_in(rack.id) if doc.catalog[d.type].kind == RACK_PDU and d.id in device_names]
        sides = rack_pdu_sides(doc, rack.id)
        for side in ("A", "B"):
            mine = sorted((d for d in pdus if sides.get(d.id) == side), key=lambda d: natural_key(d.name))
            if not mine:
                continue
            if (rack.id, side) not in feeds:
                out.unfed += [device_names[d.id] for d in mine]
                continue
            panel, feed = feeds[(rack.id, side)]
            if len(mine) == 1:
                host = device_names[mine[0].id]
                out.cables.append(_to_feed(inlet_cable_key(mine[0].id), site, host, panel, feed, names))
                continue
            plug = pdu_plug(doc.catalog[mine[0].type])
            kind = tap_off_type(plug, len(mine))
            out.types[tap_off_slug(plug, len(mine))] = kind
            raw = tap_off_name(rack, side)
            out.tap_names.append(raw)
            tap = names.check("device", raw, DEVICE_NAME_MAX)
            location, rack_name = rack_cells[rack.id]
            out.tap_offs.append((tap_off_key(rack.id, side),
                                 (tap, TAP_OFF_ROLE.name, DEFAULT_MANUFACTURER, kind["model"], STATUS, site, location,
                                  rack_name, "", "")))
            out.cables.append(_to_feed(tap_off_cable_key(rack.id, side), site, tap, panel, feed, names, "Tap-off box"))
            for k, pdu in enumerate(mine, start=1):
                host = device_names[pdu.id]
                label = names.check("cable label", f"{host}-{PDU_INPUT} → {tap}-O{k}", NAME_MAX)
                out.cables.append((inlet_cable_key(pdu.id),
                                   (site, tap, POWER_OUTLET_END, f"O{k}", site, host, "", POWER_PORT_END, PDU_INPUT,
                                    POWER_CABLE, STATUS, label, "Tap-off outlet to its rack PDU inlet",
                                    NETWORK_TAGS[POWER].slug)))
    return out


def _to_feed(key: str, site: str, device: str, panel: str, feed: str, names: Names, what: str = "Rack PDU") -> Keyed:
    """A cable from a device's ``Input`` power port to a power feed (FEED_CABLE_COLUMNS), labelled
    as ``planner netbox push`` labels it."""
    label = names.check("cable label", f"{device}-{PDU_INPUT} → {feed}", NAME_MAX)
    return (key, (site, device, POWER_PORT_END, PDU_INPUT, site, "", panel, POWER_FEED_END, feed, POWER_CABLE, STATUS,
                  label, f"{what} inlet to its power feed", NETWORK_TAGS[POWER].slug))
