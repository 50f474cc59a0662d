"""A NetBox import set read into a plan with its cables routed on the laid-out floor: the step
``planner import --from netbox`` and File ▸ Import from NetBox… share (the reader itself, which
knows no routing, is ``planner.io.netbox``)."""

from __future__ import annotations

from planner.fabric.routing import Router
from planner.io.netbox import NetBoxImport, read_netbox


def import_netbox(folder: str) -> NetBoxImport:
    """The plan of a NetBox set with its cables routed on the laid-out floor: ``length_m`` is the
    route there (what N7 reach and N8 stale lengths check), ``stock_m`` and the media stay the
    cable NetBox records. NetBoxReadError when the set cannot be read."""
    result = read_netbox(folder)
    doc = result.doc
    router = Router(doc)
    for link in doc.links.values():
        link.length_m = router.length(link.a_device, link.b_device)
    short = sum(1 for link in doc.links.values() if link.stock_m and link.length_m > link.stock_m + 1e-9)
    if short:
        result.notes.append(f"{short} cable(s) are shorter than their route on this layout (NetBox length "
                            "kept as the stock length)")
    return result
