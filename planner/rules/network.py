"""Network rules (DESIGN §4 "Validate", §5 Cables): rails, ports, speeds, leaf spreading,
oversubscription, reachability, media reach, cable lengths gone stale after racks moved, and
tray fill.

Which cables each rule reads (issue 21, ``planner.model.networks``): N1, N4, N5 and N6 the
compute fabric's only (``doc.links_in(COMPUTE)``); N2 every network's (a port used twice is wrong
on any network), N3 every port with a speed (power and coolant ports have none); N7 and N8 the
data networks' (power cords and hoses have no media and stay in their rack).

Per-cable checks (N1 rail, N3 speed, N7 reach) are LINK-scoped. Checks that look at a
switch's or the whole fabric's cables (N2 ports used once, N4 even spreading, N5 uplink
bandwidth, N6 reachability) are HALL-scoped: the engine does not mark a device dirty when
one of its cables changes, and one pass over the links answers them all. N8 (PAIR) re-routes
the cables of a moved rack (and those of the rack pairs whose route a shifted cross-aisle tray
changed) and reports, per rack pair, the cables whose stored lengths no longer match: an error
naming those whose new length exceeds the stock length bought, a warning naming the others. N9 (TRAY) checks the busiest stretch of each tray from the loads
the Context keeps up to date (``planner.fabric.trays``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import fields
from itertools import repeat
from operator import attrgetter

import numpy as np

from planner.fabric.trays import ROW, Tray, capacity_mm2
from planner.model.catalog import NODE
from planner.model.document import Document, id_numbers, natural_key
from planner.model.labels import cable_label
from planner.model.networks import DATA_NETWORKS, INBAND, OOB, TIERS_OF, network_of_tier
from planner.model.objects import (
    RECORD_FIELDS,
    TIER_LEAF_SPINE,
    TIER_NODE_LEAF,
    TIERS,
    Device,
    Link,
)
from planner.model.ports import COMPUTE
from planner.rules.context import CUT_OFF, Context
from planner.rules.end_codes import end_codes
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, WARNING, Finding
from planner.rules.ports_used import port_problems
from planner.rules.route_findings import stale_candidates, stale_judged, stale_judgement
from planner.rules.route_lengths import ROUTED_TIERS
from planner.rules.scopes import HALL, HALL_SUBJECT, LINK, PAIR, TRAY

#: Every field of a cable but what installers record on it (its state and note: no rule reads
#: them, so marking 98k cables verified re-checks nothing).
_CABLE_FIELDS = {f"link.{f.name}" for f in fields(Link) if f.name not in RECORD_FIELDS}
#: Findings name a cable by its label, derived from its ends' rack names, U and device names.
_LINK_READS = {*_CABLE_FIELDS, "dev.type", "dev.role", "dev.rail", "dev.name", "dev.rack", "dev.u", "rack.name"}
_ENDS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.tier"}
_FABRIC_READS = {*_ENDS, "dev.type", "dev.role", "dev.name", "dev.rack", "rack.name"}
_FABRIC_SOURCE = "DESIGN §4: rail-optimised fat-tree rules"
_A_DEVICE, _A_PORT, _B_DEVICE, _B_PORT, _LENGTH = map(
    attrgetter, ("a_device", "a_port", "b_device", "b_port", "length_m"))
#: Tiers of the data networks' cables, which run along the trays and are routed (N8): power cords
#: and hoses stay in their rack, their lengths from its geometry.
_ROUTED_TIERS = ROUTED_TIERS
#: The management networks' tiers: Ethernet whatever the compute fabric speaks.
_MANAGEMENT_TIERS = frozenset(TIERS_OF[INBAND] + TIERS_OF[OOB])


def _end_name(ctx: Context, device_id: str, port: str) -> str:
    doc = ctx.doc
    device = doc.devices.get(device_id)
    if device is None:
        return f"{device_id} {port}"
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack else device.rack}/{device.name} {port}"


def _rails(ctx: Context, node_type: str) -> dict[str, int]:
    """Rail number per port of a GPU node type (P1 → 1 …), made once per validation pass."""
    per_type = ctx.memo("rails", dict)
    if node_type not in per_type:
        per_type[node_type] = {name: i + 1 for i, name in enumerate(ctx.doc.catalog[node_type].port_names())}
    return per_type[node_type]


def _kinds(ctx: Context) -> dict[str, str]:
    """Catalogue kind per device type in the plan, made once per validation pass."""
    def make() -> dict[str, str]:
        catalog = ctx.doc.catalog
        return {key: catalog[key].kind for key in {d.type for d in ctx.doc.devices.values()}}
    return ctx.memo("kinds", make)


def _rail_leaf_candidates(ctx: Context) -> list[str]:
    """Cables N1 may report (one loop over the cables with the lookups hoisted out of it)."""
    devices, kinds, found = ctx.doc.devices, _kinds(ctx), []
    for link in ctx.doc.links_in(COMPUTE).values():
        if link.tier != TIER_NODE_LEAF:
            continue
        a, b = devices.get(link.a_device), devices.get(link.b_device)
        if a is None or b is None:
            continue
        ka, kb = kinds[a.type], kinds[b.type]
        if ka == kb:
            continue
        if ka == NODE:
            node, port, leaf = a, link.a_port, b
        elif kb == NODE:
            node, port, leaf = b, link.b_port, a
        else:
            continue
        if leaf.role == "leaf" and leaf.rail and leaf.rail != _rails(ctx, node.type).get(port, 0):
            found.append(link.id)
    return found


@rule("N1", scope=LINK, reads=_LINK_READS, source=_FABRIC_SOURCE, title="GPU port on its rail's leaf",
      candidates=_rail_leaf_candidates)
def rail_leaf(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    link = doc.links[link_id]
    if link.tier != TIER_NODE_LEAF:
        return
    ends = {doc.catalog[doc.devices[d].type].kind: (d, p) for d, p in
            ((link.a_device, link.a_port), (link.b_device, link.b_port)) if d in doc.devices}
    if NODE not in ends or len(ends) != 2:
        return
    node_id, port = ends[NODE]
    leaf_id = link.b_device if node_id == link.a_device else link.a_device
    leaf = doc.devices[leaf_id]
    rail = _rails(ctx, doc.devices[node_id].type).get(port, 0)
    if leaf.role == "leaf" and leaf.rail and rail and leaf.rail != rail:
        yield r.finding(ctx, ERROR, (link_id, node_id, leaf_id),
                        f"{cable_label(doc, link)}: GPU {rail} ({_end_name(ctx, node_id, port)}) lands on "
                        f"rail-{leaf.rail} leaf {leaf.name}")


def _speeds(ctx: Context) -> dict[str, dict[str, float]]:
    """Speed per port of each device type in the plan (a GPU node's rails at 400 Gb/s, its
    in-band ports at 100 Gb/s, its BMC at 1 Gb/s; power and coolant ports 0: no speed), made
    once per validation pass."""
    def make() -> dict[str, dict[str, float]]:
        catalog = ctx.doc.catalog
        return {key: {port.name: port.speed_gbps for port in catalog[key].ports()} for key in _kinds(ctx)}
    return ctx.memo("speeds", make)


def _port_speed(speeds: dict[str, dict[str, float]], devices: dict[str, Device], device_id: str, port: str) -> float:
    """A cable end's port speed; 0 where the device or port is not in the plan (N2 reports those)."""
    device = devices.get(device_id)
    return speeds[device.type].get(port, 0.0) if device is not None else 0.0


def _speed_candidates(ctx: Context) -> list[str]:
    """Cables N3 may report: both ends' ports have a speed and they differ (on the ends' codes)."""
    speeds = _speeds(ctx)
    if len({v for ports in speeds.values() for v in ports.values() if v}) <= 1:
        return []  # every port at one speed: no cable joins two speeds
    codes = end_codes(ctx)
    a_speed, b_speed = codes.at_ends(codes.table(speeds))
    links = codes.links
    return [links[i].id for i in np.flatnonzero((a_speed > 0) & (b_speed > 0) & (a_speed != b_speed)).tolist()]


@rule("N3", scope=LINK, reads=_LINK_READS, source="IBTA / IEEE 802.3: both ends at one speed",
      title="Port speeds match", candidates=_speed_candidates)
def speeds_match(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    link = doc.links[link_id]
    speeds = _speeds(ctx)
    a = _port_speed(speeds, doc.devices, link.a_device, link.a_port)
    b = _port_speed(speeds, doc.devices, link.b_device, link.b_port)
    if a and b and a != b:
        yield r.finding(ctx, ERROR, (link_id,), f"{cable_label(doc, link)}: {a:g} Gb/s port cabled to a {b:g} Gb/s port")


def _ethernet(doc: Document, link: Link) -> bool:
    """Whether a data cable runs Ethernet: the management networks always do (RA-11333-001
    "Network Fabrics"), the compute and storage fabrics as the basis's ``fabric_kind`` says."""
    return link.tier in _MANAGEMENT_TIERS or doc.basis.fabric_kind != "infiniband"


def _reach_candidates(ctx: Context) -> list[str]:
    """Data cables N7 may report: no media, unknown media, or longer than the media's reach
    (for its use: switch to switch where both ends have a role and the tier is above the nodes,
    Ethernet on the management networks or an Ethernet fabric), on the cables' codes. Power
    cords and hoses have no media: reach does not apply to them, nor to a tier of no data
    network."""
    doc = ctx.doc
    codes = end_codes(ctx)
    tier_of, tiers = codes.tiers
    media_of, media = codes.media
    ethernet_fabric = doc.basis.fabric_kind != "infiniband"  # as ``_ethernet``
    checked = np.array([network_of_tier(t) in DATA_NETWORKS and (not t or t in _ROUTED_TIERS) for t in tiers],
                       dtype=bool)
    above_nodes = np.array([t != TIER_NODE_LEAF for t in tiers], dtype=bool)
    ethernet = np.array([ethernet_fabric or t in _MANAGEMENT_TIERS for t in tiers], dtype=bool)
    catalog = doc.catalog.media
    known = np.array([bool(m) and m in catalog for m in media], dtype=bool)
    reach = np.full((len(media), 2, 2), np.inf)
    for code, key in enumerate(media):
        if known[code]:
            for s2s in (0, 1):
                for eth in (0, 1):
                    reach[code, s2s, eth] = catalog[key].reach_for(bool(s2s), bool(eth))
    roled = np.array([bool(d.role) for d in doc.devices.values()] + [False], dtype=bool)
    s2s = above_nodes[tier_of] & roled[codes.device[0]] & roled[codes.device[1]]
    limit = reach[media_of, s2s.astype(np.int64), ethernet[tier_of].astype(np.int64)]
    found = checked[tier_of] & (~known[media_of] | (codes.lengths > limit + 1e-9))
    links = codes.links
    return [links[i].id for i in np.flatnonzero(found).tolist()]


@rule("N7", scope=LINK, reads=_LINK_READS, source="Catalogue media reach at 400G (DESIGN §5 Cables)",
      title="Cable within its media's reach", candidates=_reach_candidates)
def media_reach(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    link = doc.links[link_id]
    if link.tier and link.tier not in _ROUTED_TIERS:
        return
    if not link.media:
        yield r.finding(ctx, ERROR, (link_id,),
                        f"{cable_label(doc, link)}: no media in the catalogue reaches {link.length_m:.2f} m")
        return
    media = doc.catalog.media.get(link.media)
    if media is None:
        yield r.finding(ctx, ERROR, (link_id,), f"{cable_label(doc, link)}: unknown media {link.media!r}")
        return
    a, b = doc.devices.get(link.a_device), doc.devices.get(link.b_device)
    s2s = link.tier != TIER_NODE_LEAF and a is not None and b is not None and bool(a.role and b.role)
    reach = media.reach_for(s2s, _ethernet(doc, link))
    if link.length_m > reach + 1e-9:
        yield r.finding(ctx, ERROR, (link_id,),
                        f"{cable_label(doc, link)}: {link.length_m:.2f} m exceeds {media.name} reach {reach:g} m")


@rule("N2", scope=HALL, reads=_FABRIC_READS, source=_FABRIC_SOURCE, title="Each port used once")
def ports_once(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    for device_id, port, link_ids in ctx.fabric_memo("N2 ports", lambda: port_problems(ctx)):
        if len(link_ids) > 1:
            yield r.finding(ctx, ERROR, (device_id, *link_ids),
                            f"{_end_name(ctx, device_id, port)} is used by {len(link_ids)} cables")
        else:
            yield r.finding(ctx, ERROR, (device_id, *link_ids),
                            f"{_end_name(ctx, device_id, port)}: {doc.catalog[doc.devices[device_id].type].name} "
                            f"has no port {port}")


def _uplinks(ctx: Context) -> dict[str, Counter]:
    """Leaf → uplink count per spine, in leaf order; kept while the fabric's structure stands."""
    def count() -> dict[str, Counter]:
        if (index := ctx.fabric_index()) is not None:
            return index.uplinks_by_leaf()
        doc = ctx.doc
        spread: dict[str, Counter] = defaultdict(Counter)
        for link in doc.links_in(COMPUTE).values():
            if link.tier != TIER_LEAF_SPINE:
                continue
            a, b = doc.devices.get(link.a_device), doc.devices.get(link.b_device)
            if a is None or b is None:
                continue
            leaf, spine = (a, b) if a.role == "leaf" else (b, a)
            spread[leaf.id][spine.id] += 1
        return dict(sorted(spread.items(), key=lambda kv: natural_key(kv[0])))

    return ctx.fabric_memo("uplinks", count)


@rule("N4", scope=HALL, reads=_FABRIC_READS, source=_FABRIC_SOURCE, title="Leaf uplinks spread evenly")
def even_spread(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    for leaf_id, counts in _uplinks(ctx).items():
        if len(set(counts.values())) > 1:
            detail = ", ".join(f"{doc.devices[s].name} {n}" for s, n in sorted(counts.items(), key=lambda kv: natural_key(kv[0])))
            yield r.finding(ctx, ERROR, (leaf_id,),
                            f"Leaf {doc.devices[leaf_id].name}: uplinks not spread evenly over its spines ({detail})")


def _downlinks(ctx: Context) -> dict[str, int]:
    """Node-facing cables per leaf."""
    def count() -> dict[str, int]:
        if (index := ctx.fabric_index()) is not None:
            return index.downlinks(_uplinks(ctx))
        down: Counter[str] = Counter()
        for link in ctx.doc.links_in(COMPUTE).values():
            if link.tier == TIER_NODE_LEAF:
                down[link.a_device] += 1
                down[link.b_device] += 1
        return {leaf_id: down[leaf_id] for leaf_id in _uplinks(ctx)}

    return ctx.fabric_memo("downlinks", count)


@rule("N5", scope=HALL, reads=_FABRIC_READS, basis=("oversubscription",), source_field="oversubscription",
      title="Leaf uplink bandwidth")
def uplink_bandwidth(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    ratio = doc.basis.oversubscription
    downlinks = _downlinks(ctx)
    for leaf_id, counts in _uplinks(ctx).items():
        up = sum(counts.values())
        down = downlinks[leaf_id]
        if down > up * ratio + 1e-9:
            yield r.finding(ctx, ERROR, (leaf_id,),
                            f"Leaf {doc.devices[leaf_id].name}: {down} downlinks on {up} uplinks = "
                            f"{down / up:.2f}:1, allowed {ratio:g}:1")


def _components(size: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A label per vertex ``0 … size-1``, one label per connected part of the graph of edges
    ``a[i]–b[i]``: each vertex takes the lowest label among its edges' ends, then its label's
    label (pointer jumping), until nothing changes; a few numpy passes over 393k cables."""
    label = np.arange(size)
    while True:
        low = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        new = new[new]
        if np.array_equal(new, label):
            return label
        label = new


def _sorted_ids(prefix: str, ids: list[str]) -> list[str]:
    """Ids in name order: by number where all are ``<prefix>-<digits>`` (the same order, faster)."""
    numbers = id_numbers(prefix, ids)
    if numbers is None:
        return sorted(ids, key=natural_key)
    return [ids[i] for i in sorted(range(len(ids)), key=numbers.__getitem__)]


def _cut_off(ctx: Context) -> tuple[list[str], int]:
    """GPU nodes outside the largest connected part of the fabric, and how many nodes there are."""
    doc = ctx.doc
    fabric = [link for link in doc.links_in(COMPUTE).values() if link.tier in TIERS]
    if not fabric:
        return [], 0
    kinds = _kinds(ctx)
    nodes = _sorted_ids("dev", [d.id for d in doc.devices.values() if kinds[d.type] == NODE])
    index = {d: i for i, d in enumerate(doc.devices)}
    ends = np.fromiter(map(index.get, map(_A_DEVICE, fabric), repeat(-1)), np.int64, len(fabric)), \
        np.fromiter(map(index.get, map(_B_DEVICE, fabric), repeat(-1)), np.int64, len(fabric))
    both = (ends[0] >= 0) & (ends[1] >= 0)
    label = _components(len(index), ends[0][both], ends[1][both]).tolist()
    part = {n: label[index[n]] for n in nodes}
    groups = Counter(part.values())
    if len(groups) <= 1:
        return [], len(nodes)
    main = groups.most_common(1)[0][0]
    return [n for n in nodes if part[n] != main], len(nodes)


@rule("N6", scope=HALL, reads=_FABRIC_READS, source=_FABRIC_SOURCE, title="Every GPU reaches every other")
def reachability(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    cut_off, nodes = ctx.fabric_memo(CUT_OFF, lambda: ctx.kept_cut_off() or _cut_off(ctx))
    if not cut_off:
        return
    shown = ", ".join(f"{doc.racks[doc.devices[n].rack].name}/{doc.devices[n].name}" for n in cut_off[:5])
    more = f" and {len(cut_off) - 5} more" if len(cut_off) > 5 else ""
    yield r.finding(ctx, ERROR, (HALL_SUBJECT, *cut_off),
                    f"{len(cut_off)} of {nodes} GPU nodes cannot reach the rest of the fabric: {shown}{more}")


_ROUTE_READS = {*_ENDS, "link.length_m", "link.stock_m", "link.media", "link.label", "dev.rack", "dev.u", "dev.type", "dev.name",
                "rack.x", "rack.y", "rack.rotation", "rack.row", "rack.type", "rack.name"}


@rule("N8", scope=PAIR, reads=_ROUTE_READS, basis=("cable_slack_fraction", "cable_slack_min_m", "tray_height_m"),
      source="DESIGN §5 Cables: routed length with slack", title="Cable lengths match their routes",
      follows_routes=True, candidates=stale_candidates, judged=stale_judged)
def length_current(ctx: Context, pair: str, r: Rule) -> Iterator[Finding]:
    """After racks move, stored lengths go stale: per rack pair, an error naming the cables bought
    now too short, a warning naming the others (``planner.rules.route_findings``)."""
    for severity, subjects, message in stale_judgement(ctx, pair):
        yield r.finding(ctx, severity, subjects, message)


_TRAY_READS = {*_CABLE_FIELDS, "dev.rack", "dev.type", "rack.x", "rack.y", "rack.rotation", "rack.row", "rack.type"}
_TRAY_BASIS = ("row_tray_width_m", "row_tray_depth_m", "row_tray_levels", "cross_tray_width_m",
               "cross_tray_depth_m", "cross_tray_levels", "tray_fill_warn", "tray_fill_error")


def _tray_size(ctx: Context, kind: str) -> str:
    """"2 × 600 × 100 mm" as the basis sizes the tray."""
    b = ctx.doc.basis
    width, depth, levels = ((b.row_tray_width_m, b.row_tray_depth_m, b.row_tray_levels) if kind == ROW else
                            (b.cross_tray_width_m, b.cross_tray_depth_m, b.cross_tray_levels))
    size = f"{width * 1000:.0f} × {depth * 1000:.0f} mm"
    return f"{levels} × {size}" if levels != 1 else size


@rule("N9", scope=TRAY, reads=_TRAY_READS, basis=_TRAY_BASIS, source_field="tray_fill_error", title="Tray fill")
def tray_fill(ctx: Context, tray_id: str, r: Rule) -> Iterator[Finding]:
    """Cable cross-section over the tray's usable cross-section, at its busiest stretch."""
    basis = ctx.doc.basis
    loads = ctx.tray_loads()
    tray = Tray.parse(tray_id)
    peak = loads.peak(tray_id)
    capacity = capacity_mm2(basis, tray.kind)
    fill = peak.area_mm2 / capacity if capacity > 0 else float("inf")
    if fill > basis.tray_fill_error:
        severity, limit, cited = ERROR, basis.tray_fill_error, "tray_fill_error"
    elif fill > basis.tray_fill_warn:
        severity, limit, cited = WARNING, basis.tray_fill_warn, "tray_fill_warn"
    else:
        return
    axis = tray.axis
    where = f"{axis} {peak.start_mm / 1000:.2f}–{peak.end_mm / 1000:.2f} m"
    yield r.finding(ctx, severity, (tray_id,),
                    f"{tray.describe(loads.row_of(tray_id))}: {peak.cables:,} cable{'s' if peak.cables != 1 else ''}, "
                    f"{peak.area_mm2:,.0f} mm² = "
                    f"{fill:.0%} of {capacity:,.0f} mm² ({_tray_size(ctx, tray.kind)}) at {where}; "
                    f"{'limit' if severity == ERROR else 'warning above'} {limit:.0%}",
                    source_field=cited)
