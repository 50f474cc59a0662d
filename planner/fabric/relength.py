"""Data cables re-routed after their racks moved: length, stock length and media from the router,
one media per twin-port cage with the cables beside them (``planner.fabric.cage_media``), so a
move that turns one cable of a leaf's cage from a DAC into a fibre turns its cage partner too.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from planner.commands.base import SetFields
from planner.fabric.cage_media import held_ends, one_media_per_cage
from planner.fabric.routing import Router, link_values
from planner.model.cages import CageLookup
from planner.model.copper import plugs_attached
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import Link

_FIELDS = ("length_m", "stock_m", "media")


def recompute_lengths(doc: Document, link_ids: Iterable[str]) -> SetFields:
    """A command setting length, stock length and media of data cables whose racks moved (cords
    and hoses stay in their rack), and the media of their cage partners where a cage's cables
    would otherwise differ."""
    router = Router(doc)
    routed: dict[str, Link] = {}
    for link_id in link_ids:
        link = doc.links[link_id]
        if network_of(link) not in DATA_NETWORKS:
            continue
        result = router.route(link.a_device, link.b_device, link.tier, link.a_port, link.b_port)
        routed[link_id] = copy.copy(link)
        for field, value in link_values(result).items():
            setattr(routed[link_id], field, value)
    for partner in _cage_partners(doc, routed):
        routed[partner.id] = copy.copy(partner)
    one_media_per_cage(router, list(routed.values()), held_ends(routed.values()))
    values: dict[str, dict[str, object]] = {}
    for link_id, new in routed.items():
        old = doc.links[link_id]
        if any(getattr(old, k) != getattr(new, k) for k in _FIELDS):
            values[link_id] = {k: getattr(new, k) for k in _FIELDS}
    return SetFields(values, text=f"Recompute {len(values)} cable length{'s' if len(values) != 1 else ''}")


def _cage_partners(doc: Document, routed: dict[str, Link]) -> list[Link]:
    """The data cables not in ``routed`` that share a twin-port cage with one of them, and on
    copper the whole group their cages join (``planner.model.copper``: the generators' copper
    check needs every cable of a group to see it)."""
    lookup = CageLookup(doc.catalog, doc.devices)
    media = doc.catalog.media
    cages = {cage for link in routed.values() for cage in lookup.cages_of(link)}
    partners: dict[str, Link] = {}
    fresh = set(cages)
    while fresh:
        more: set[tuple[str, int]] = set()
        for device_id in {device_id for device_id, _ in fresh}:  # each device's cables once (a spine: 128)
            for link in doc.links_of(device_id):
                port = link.a_port if link.a_device == device_id else link.b_port
                if link.id in routed or link.id in partners or (device_id, lookup.cage(device_id, port)) not in fresh:
                    continue
                partners[link.id] = link
                if plugs_attached(media.get(link.media)):
                    more.update(cage for cage in lookup.cages_of(link) if cage not in cages)
        cages |= more
        fresh = more
    return list(partners.values())
