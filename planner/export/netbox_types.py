"""NetBox device types in the community devicetype-library schema: one YAML document per catalogue
type a plan uses (``device-types/<slug>.yaml``).

Each holds what ``schema/devicetype.json`` requires (manufacturer, model, slug, u_height,
is_full_depth) and what the plan knows: weight in kg, the figures' source as comments, one
interface per catalogue port under the name ``CatalogItem.port_names()`` gives (the names
``cables.csv`` uses), typed by speed and the plan's fabric kind (``infiniband-ndr`` on an InfiniBand
fabric, ``400gbase-x-osfp`` on Ethernet), and power ports:

- a device that draws power gets enough IEC 60320 C20 inlets (16 A, IEC 60320-1) at the design
  basis's phase voltage (415 V between phases: 240 V) to carry its peak on one feed side, times two
  sides for 2N or one spare for N+1 (a 10.2 kW node: 3 per side, 6 in all, as the DGX H100 has).
  Each inlet's ``maximum_draw`` and ``allocated_draw`` are its share of the peak and steady draw
  with the load spread over all inlets, so NetBox sums them to the device's figures.
- a rack PDU gets one ``Input`` on an IEC 60309 3P+N+E 6h plug (the 380–415 V three-phase plug
  of the 16–125 A family; single-phase P+N+E for one phase). It gets no outlets: the catalogue does
  not say how many or of what kind, and the plan does not cable device inlets to PDU outlets.

Manufacturer and model names are written as the CSV files write them (``sheet_text``), since
``devices.csv`` and ``manufacturers.csv`` refer to them by name.
"""

from __future__ import annotations

import math

from planner.export.sheet_text import sheet_text
from planner.io.netbox_names import OTHER, interface_type, manufacturer_of, type_slug
from planner.model.catalog import RACK_PDU, CatalogItem
from planner.model.document import Document

#: IEC 60320-1: C19/C20 couplers are rated 16 A.
C20_AMPS = 16.0
C20 = "iec-60320-c20"
#: IEC 60309 plugs come in 16, 32, 63 and 125 A.
IEC_60309_MAX_A = 125.0
PDU_PLUG = {3: "iec-60309-3p-n-e-6h", 1: "iec-60309-p-n-e-6h"}


def power_inlets(doc: Document, item: CatalogItem) -> int:
    """How many C20 inlets a device type gets (module docstring); 0 when it draws nothing."""
    if item.power_peak_w <= 0:
        return 0
    basis = doc.basis
    phase_v = basis.voltage_v / math.sqrt(3) if basis.voltage_v > 0 else 230.0
    per_side = max(1, math.ceil(item.power_peak_w / (C20_AMPS * phase_v) - 1e-9))
    return {"2N": 2 * per_side, "N+1": per_side + 1}.get(basis.redundancy, per_side)


def _power_ports(doc: Document, item: CatalogItem) -> list[dict]:
    if item.kind == RACK_PDU:
        plug = PDU_PLUG.get(item.phases or 3, OTHER) if item.rating_a <= IEC_60309_MAX_A else OTHER
        return [{"name": "Input", "type": plug}]
    inlets = power_inlets(doc, item)
    ports = []
    for number in range(1, inlets + 1):
        port: dict = {"name": f"PSU{number}", "type": C20}
        if item.power_peak_w > 0:
            port["maximum_draw"] = max(1, math.ceil(item.power_peak_w / inlets))
        if item.power_w > 0:
            port["allocated_draw"] = max(1, math.ceil(item.power_w / inlets))
        ports.append(port)
    return ports


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
    if item.port_count:
        kind = interface_type(item.port_speed_gbps, infiniband)
        data["interfaces"] = [{"name": name, "type": kind} for name in item.port_names()]
    ports = _power_ports(doc, item)
    if ports:
        data["power-ports"] = ports
    return data
