"""A NetBox import set read into a plan with its cables routed on the laid-out floor (power cords
measured in their rack): the step ``planner import --from netbox`` and File ▸ Import from NetBox…
share (the reader itself, which knows no routing, is ``planner.io.netbox``)."""

from __future__ import annotations

from planner.fabric.power_cords import cord_length_m, outlet_height_m, psu_height_m
from planner.fabric.routing import Router
from planner.io.netbox import NetBoxImport, read_netbox
from planner.model.document import Document
from planner.model.networks import TIER_POWER_CORD
from planner.model.objects import Link


def _cord_m(doc: Document, link: Link) -> float:
    """A power cord's run inside its rack, as the cord planner measures it (PSU height to outlet height)."""
    psu, pdu = doc.devices[link.a_device], doc.devices[link.b_device]
    outlet = link.b_port
    if doc.catalog[psu.type].outlets():
        psu, pdu, outlet = pdu, psu, link.a_port
    names = doc.catalog[pdu.type].outlet_names()
    units = doc.catalog[doc.racks[pdu.rack].type].rack_units
    height = outlet_height_m(names.index(outlet), len(names), units) if outlet in names else 0.0
    return cord_length_m(doc, abs(height - psu_height_m(psu, doc.catalog[psu.type])))


def import_netbox(folder: str) -> NetBoxImport:
    """The plan of a NetBox set with its cables routed on the laid-out floor: ``length_m`` is the
    route there (what N7 reach and N8 stale lengths check), ``stock_m`` and the media stay the
    cable NetBox records. NetBoxReadError when the set cannot be read."""
    result = read_netbox(folder)
    doc = result.doc
    router = Router(doc)
    for link in doc.links.values():
        if link.tier == TIER_POWER_CORD:
            link.length_m = _cord_m(doc, link)
        else:
            link.length_m = router.length(link.a_device, link.b_device)
    short = sum(1 for link in doc.links.values() if link.stock_m and link.length_m > link.stock_m + 1e-9)
    if short:
        result.notes.append(f"{short} cable(s) are shorter than their route on this layout (NetBox length "
                            "kept as the stock length)")
    return result
