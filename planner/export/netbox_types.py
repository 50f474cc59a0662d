"""NetBox device types in the community devicetype-library schema: one YAML document per catalogue
type a plan uses (``device-types/<slug>.yaml``).

Each holds what ``schema/devicetype.json`` requires (manufacturer, model, slug, u_height,
is_full_depth) and what the plan knows: weight in kg, the figures' source as comments, and every
port of every network under the name ``CatalogItem.ports()`` gives (the names ``cables.csv`` uses):

- interfaces: the compute rails typed by speed and the plan's fabric kind (``infiniband-ndr`` on
  an InfiniBand fabric, ``400gbase-x-osfp`` on Ethernet); storage, in-band and out-of-band ports
  by connector and speed (``400gbase-x-qsfp112``, ``100gbase-x-qsfp28``, ``1000base-t``, …,
  ``netbox_names.port_interface_type``). A device's own management port (the one-port
  out-of-band group: ``BMC``, ``mgmt0``, ``eth0``) is ``mgmt_only``; an OOB switch's cages and
  uplinks carry the others' and are not.
- power-ports: the catalogue's PSUs ``PSU1`` … with their inlet (C14/C20; a PSU whose inlet the
  catalogue does not give takes the one the cord planner assumes, ``planner.model.cords.psu_inlet``), each
  drawing its share of the type's peak (``maximum_draw``) and steady draw (``allocated_draw``)
  with the load spread over all PSUs, so NetBox sums them to the device's figures. A custom type
  without a PSU count gets enough C20 inlets (16 A, IEC 60320-1) at the basis's phase voltage to
  carry its peak on one side, doubled for 2N or one spare for N+1.
- console-ports: the catalogue's serial console port (``console``, of its connector's type: ``rj-45``
  …, ``netbox_names.CONSOLE_TYPES``), where the type has one.
- a floor-standing unit of no PSU count (a row CDU, a power cabinet) is hard-wired: one power port
  ``Input`` of type ``hardwired`` carrying its whole draw (none when it draws nothing).
- a rack PDU: its inlet as the power port ``Input`` (the catalogue's ``pdu_inlet`` read as a
  PowerPortTypeChoices slug: "IEC 60309 3P+N+E 63 A 6h" → ``iec-60309-3p-n-e-6h``; the phase count's
  plug when it gives none) and its outlets ``O1`` … as power-outlets (C13/C19) on that port, each
  on the feed leg of its group's phase (L1/L2/L3 → A/B/C; a line-to-line group has no leg).

A rack side with several rack PDUs gets a busbar tap-off box between its power feed and the
PDUs (``tap_off_type``: 0U, a hardwired ``Input`` on the busbar, one outlet ``O1`` … per PDU of
the PDUs' plug type), since NetBox connects a feed to one cable end (``dcim/models/cables.py``
CableTermination.clean: "Duplicate termination") and the import form gives a cable end one
termination; NetBox 4.6 sums the draw through it (``dcim/models/device_components.py``
PowerPort.get_power_draw recurses through downstream power ports).

Manufacturer and model names are written as the CSV files write them (``sheet_text``), since
``devices.csv`` and ``manufacturers.csv`` refer to them by name.
"""

from __future__ import annotations

import math
import re

from planner.export.netbox_modules import module_bays
from planner.export.sheet_text import sheet_text
from planner.io.netbox_names import (
    CONSOLE_TYPES,
    DEFAULT_MANUFACTURER,
    FEED_LEGS,
    INLET_TYPES,
    INTERFACE_END,
    OTHER,
    OUTLET_TYPES,
    POWER_OUTLET_END,
    POWER_PORT_END,
    manufacturer_of,
    port_interface_type,
    type_slug,
)
from planner.model.catalog import FLOOR_KINDS, RACK_PDU, CatalogItem
from planner.model.cords import psu_inlet
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS
from planner.model.ports import CONSOLE_PORT, OOB, group_names, psu_names

#: IEC 60320-1: C19/C20 couplers are rated 16 A.
C20_AMPS = 16.0
C20 = "iec-60320-c20"
#: IEC 60309 plugs come in 16, 32, 63 and 125 A.
IEC_60309_MAX_A = 125.0
PDU_PLUG = {3: "iec-60309-3p-n-e-6h", 1: "iec-60309-p-n-e-6h"}
#: PowerPortTypeChoices TYPE_HARDWIRED: an input wired in, not plugged.
HARDWIRED = "hardwired"
#: The name of a rack PDU's inlet, the power port its outlets hang on.
PDU_INPUT = "Input"
_IEC_60309 = re.compile(r"60309\D.*?\b(3P\+N\+E|3P\+E|2P\+E|P\+N\+E)\b.*?\b([469])\s*h\b", re.IGNORECASE)


def power_inlets(doc: Document, item: CatalogItem) -> int:
    """How many C20 inlets a custom type of no PSU count gets (module docstring); 0 when it draws nothing."""
    if item.power_peak_w <= 0:
        return 0
    basis = doc.basis
    phase_v = basis.voltage_v / math.sqrt(3) if basis.voltage_v > 0 else 230.0
    per_side = max(1, math.ceil(item.power_peak_w / (C20_AMPS * phase_v) - 1e-9))
    return {"2N": 2 * per_side, "N+1": per_side + 1}.get(basis.redundancy, per_side)


def pdu_plug(item: CatalogItem) -> str:
    """The PowerPortTypeChoices slug of a rack PDU's inlet (module docstring)."""
    text = item.pdu_inlet.strip()
    if text.casefold() == HARDWIRED:
        return HARDWIRED
    found = _IEC_60309.search(text)
    if found:
        return f"iec-60309-{found.group(1).lower().replace('+', '-')}-{found.group(2)}h"
    return PDU_PLUG.get(item.phases or 3, OTHER) if item.rating_a <= IEC_60309_MAX_A else OTHER


def _power_ports(doc: Document, item: CatalogItem) -> list[dict]:
    if item.kind == RACK_PDU:
        return [{"name": PDU_INPUT, "type": pdu_plug(item)}]
    if item.kind in FLOOR_KINDS and not item.psu_count:  # hard-wired (a row CDU's pumps), one input
        names, kind = ([PDU_INPUT] if item.power_peak_w > 0 or item.power_w > 0 else []), HARDWIRED
    elif item.psu_count:
        names, kind = psu_names(item.psu_count), INLET_TYPES[psu_inlet(doc, item)]
    else:
        names, kind = psu_names(power_inlets(doc, item)), C20
    ports = []
    for name in names:
        port: dict = {"name": name, "type": kind}
        if item.power_peak_w > 0:
            port["maximum_draw"] = max(1, math.ceil(item.power_peak_w / len(names)))
        if item.power_w > 0:
            port["allocated_draw"] = max(1, math.ceil(item.power_w / len(names)))
        ports.append(port)
    return ports


def _outlets(item: CatalogItem) -> list[dict]:
    outlets = []
    for outlet in item.outlets():
        entry = {"name": outlet.name, "type": OUTLET_TYPES.get(outlet.outlet, OTHER), "power_port": PDU_INPUT}
        if outlet.phase in FEED_LEGS:
            entry["feed_leg"] = FEED_LEGS[outlet.phase]
        outlets.append(entry)
    return outlets


def management_ports(item: CatalogItem) -> set[str]:
    """A type's own management ports: its one-port out-of-band groups (``BMC``, ``mgmt0``, ``eth0``)."""
    return {name for group in item.port_groups if group["network"] == OOB and group["count"] == 1
            for name in group_names(group)}


def device_type(doc: Document, item: CatalogItem, model: str) -> dict:
    """The devicetype-library document of one catalogue type (keys in the library's order)."""
    infiniband = doc.basis.fabric_kind == "infiniband"
    data: dict = {
        "manufacturer": sheet_text(manufacturer_of(item)),
        "model": sheet_text(model),
        "slug": type_slug(item),
        "u_height": item.height_u,
        "is_full_depth": item.height_u > 0,
    }
    if item.weight_kg > 0:
        data["weight"] = round(item.weight_kg, 2)
        data["weight_unit"] = "kg"
    if item.source:
        data["comments"] = item.source
    mgmt = management_ports(item)
    interfaces = []
    for port in item.ports():
        if port.network in DATA_NETWORKS:
            interface: dict = {"name": port.name, "type": port_interface_type(port, infiniband)}
            if port.name in mgmt:
                interface["mgmt_only"] = True
            interfaces.append(interface)
    if interfaces:
        data["interfaces"] = interfaces
    if item.console_port:
        data["console-ports"] = [{"name": CONSOLE_PORT, "type": CONSOLE_TYPES[item.console_port]}]
    ports = _power_ports(doc, item)
    if ports:
        data["power-ports"] = ports
    outlets = _outlets(item)
    if outlets:
        data["power-outlets"] = outlets
    bays = module_bays(item)
    if bays:
        data["module-bays"] = bays
    return data


def end_types(doc: Document, item: CatalogItem) -> dict[str, str]:
    """Port name → the NetBox component a cable ends on (``dcim.interface``, ``dcim.powerport``,
    ``dcim.poweroutlet``), for every component ``device_type`` writes."""
    ends = {port.name: INTERFACE_END for port in item.ports() if port.network in DATA_NETWORKS}
    ends.update({port["name"]: POWER_PORT_END for port in _power_ports(doc, item)})
    ends.update({outlet.name: POWER_OUTLET_END for outlet in item.outlets()})
    return ends


#: A busbar tap-off box's power port on the busbar.
TAP_OFF_INPUT_TYPE = HARDWIRED


def tap_off_slug(plug: str, outlets: int) -> str:
    """The device-type slug of a tap-off box with ``outlets`` outlets of the PDUs' ``plug``."""
    return f"{DEFAULT_MANUFACTURER.lower()}-busbar-tap-off-{outlets}x-{plug}"


def tap_off_type(plug: str, outlets: int) -> dict:
    """The devicetype-library document of a busbar tap-off box (module docstring): one type per
    plug and outlet count, the same in every plan."""
    return {"manufacturer": DEFAULT_MANUFACTURER, "model": f"Busbar tap-off, {outlets} x {plug}",
            "slug": tap_off_slug(plug, outlets), "u_height": 0, "is_full_depth": False,
            "comments": "Hall Planner: the tap-off of one rack side's power feed to its rack PDUs",
            "power-ports": [{"name": PDU_INPUT, "type": TAP_OFF_INPUT_TYPE}],
            "power-outlets": [{"name": f"O{k}", "type": plug, "power_port": PDU_INPUT} for k in range(1, outlets + 1)]}
