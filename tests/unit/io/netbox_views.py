"""The plan as NetBox holds it, for comparing a plan with what came back from NetBox: racks,
devices and the cables NetBox can hold, each as sorted tuples of what NetBox records."""

from __future__ import annotations

from planner.model.document import Document
from planner.model.labels import cable_label
from planner.model.networks import network_of
from planner.model.ports import COOLANT


def racks_of(doc: Document) -> list[tuple]:
    return sorted((r.name, r.type) for r in doc.racks.values())


def devices_of(doc: Document) -> list[tuple]:
    return sorted((doc.racks[d.rack].name, d.u, d.type, doc.hostname(d), d.name, d.role, d.rail)
                  for d in doc.devices.values())


def cables_of(doc: Document) -> list[tuple]:
    """Every cable NetBox can hold (all but the coolant hoses), end to end, with its network."""
    host = {d.id: doc.hostname(d) for d in doc.devices.values()}
    return sorted((host[link.a_device], link.a_port, host[link.b_device], link.b_port, cable_label(doc, link), link.media,
                   link.stock_m, network_of(link), link.tier, link.rail, link.state)
                  for link in doc.links.values() if network_of(link) != COOLANT)
