"""Network rules (DESIGN §4 "Validate", §5 Cables): rails, ports, speeds, leaf spreading,
oversubscription, reachability, media reach, cable lengths gone stale after racks moved, and
tray fill.

Per-cable checks (N1 rail, N3 speed, N7 reach) are LINK-scoped. Checks that look at a
switch's or the whole fabric's cables (N2 ports used once, N4 even spreading, N5 uplink
bandwidth, N6 reachability) are HALL-scoped: the engine does not mark a device dirty when
one of its cables changes, and one pass over the links answers them all. N8 (LINK) re-routes
the cables of a moved rack (and those of the rack pairs whose route a shifted cross-aisle tray
changed) and reports each cable whose stored length no longer matches: an error where the new length exceeds the stock length
bought, a warning otherwise. N9 (TRAY) checks the busiest stretch of each tray from the loads
the Context keeps up to date (``planner.fabric.trays``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import fields

from planner.fabric.trays import ROW, Tray, capacity_mm2
from planner.model.catalog import NODE
from planner.model.document import natural_key
from planner.model.objects import RECORD_FIELDS, TIER_LEAF_SPINE, TIER_NODE_LEAF, TIERS, Link
from planner.rules.context import Context
from planner.rules.engine import HALL, HALL_SUBJECT, LINK, TRAY, Rule, rule
from planner.rules.finding import ERROR, WARNING, Finding

#: Every field of a cable but what installers record on it (its state and note: no rule reads
#: them, so marking 98k cables verified re-checks nothing).
_CABLE_FIELDS = {f"link.{f.name}" for f in fields(Link) if f.name not in RECORD_FIELDS}
_LINK_READS = {*_CABLE_FIELDS, "dev.type", "dev.role", "dev.rail", "dev.name", "dev.rack"}
_ENDS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.tier"}
_FABRIC_READS = {*_ENDS, "dev.type", "dev.role", "dev.name", "dev.rack", "rack.name"}
_FABRIC_SOURCE = "DESIGN §4: rail-optimised fat-tree rules"


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


@rule("N1", scope=LINK, reads=_LINK_READS, source=_FABRIC_SOURCE, title="GPU port on its rail's leaf")
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
                        f"{link.label or link_id}: GPU {rail} ({_end_name(ctx, node_id, port)}) lands on "
                        f"rail-{leaf.rail} leaf {leaf.name}")


@rule("N3", scope=LINK, reads=_LINK_READS, source="IBTA / IEEE 802.3: both ends at one speed",
      title="Port speeds match")
def speeds_match(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    link = doc.links[link_id]
    if link.a_device not in doc.devices or link.b_device not in doc.devices:
        return
    a = doc.catalog[doc.devices[link.a_device].type].port_speed_gbps
    b = doc.catalog[doc.devices[link.b_device].type].port_speed_gbps
    if a and b and a != b:
        yield r.finding(ctx, ERROR, (link_id,), f"{link.label or link_id}: {a:g} Gb/s port cabled to a {b:g} Gb/s port")


@rule("N7", scope=LINK, reads=_LINK_READS, source="Catalogue media reach at 400G (DESIGN §5 Cables)",
      title="Cable within its media's reach")
def media_reach(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    link = doc.links[link_id]
    if not link.media:
        yield r.finding(ctx, ERROR, (link_id,),
                        f"{link.label or link_id}: no media in the catalogue reaches {link.length_m:.2f} m")
        return
    media = doc.catalog.media.get(link.media)
    if media is None:
        yield r.finding(ctx, ERROR, (link_id,), f"{link.label or link_id}: unknown media {link.media!r}")
        return
    a, b = doc.devices.get(link.a_device), doc.devices.get(link.b_device)
    s2s = link.tier != TIER_NODE_LEAF and a is not None and b is not None and bool(a.role and b.role)
    reach = media.reach_for(s2s, doc.basis.fabric_kind != "infiniband")
    if link.length_m > reach + 1e-9:
        yield r.finding(ctx, ERROR, (link_id,),
                        f"{link.label or link_id}: {link.length_m:.2f} m exceeds {media.name} reach {reach:g} m")


def _port_problems(ctx: Context) -> list[tuple[str, str, tuple[str, ...]]]:
    """(device, port, links) of every port used by more than one cable or not on its device."""
    doc = ctx.doc
    ends = [end for link in doc.links.values() for end in ((link.a_device, link.a_port), (link.b_device, link.b_port))]
    used = set(ends)
    shared = set()
    if len(used) < len(ends):  # some port is used twice: name its cables
        counts = Counter(ends)
        shared = {end for end, n in counts.items() if n > 1}
    names: dict[str, set[str]] = {}
    problems: dict[tuple[str, str], list[str]] = {}
    for end in used:
        device = doc.devices.get(end[0])
        if device is None:
            continue
        if device.type not in names:
            names[device.type] = set(doc.catalog[device.type].port_names())
        if end in shared or end[1] not in names[device.type]:
            problems[end] = []
    if problems:
        for link in doc.links.values():
            for end in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
                if end in problems:
                    problems[end].append(link.id)
    return sorted(((d, p, tuple(ids)) for (d, p), ids in problems.items()), key=lambda p: (natural_key(p[0]), p[1]))


@rule("N2", scope=HALL, reads=_FABRIC_READS, source=_FABRIC_SOURCE, title="Each port used once")
def ports_once(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    for device_id, port, link_ids in ctx.fabric_memo("N2 ports", lambda: _port_problems(ctx)):
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
        doc = ctx.doc
        spread: dict[str, Counter] = defaultdict(Counter)
        for link in doc.links.values():
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
        down: Counter[str] = Counter()
        for link in ctx.doc.links.values():
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


def _find(parent: dict[str, str], x: str) -> str:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _cut_off(ctx: Context) -> tuple[list[str], int]:
    """GPU nodes outside the largest connected part of the fabric, and how many nodes there are."""
    doc = ctx.doc
    fabric = [link for link in doc.links.values() if link.tier in TIERS]
    if not fabric:
        return [], 0
    nodes = sorted((d.id for d in doc.devices.values() if doc.catalog[d.type].kind == NODE), key=natural_key)
    parent = {d: d for d in doc.devices}
    for link in fabric:
        if link.a_device in parent and link.b_device in parent:
            ra, rb = _find(parent, link.a_device), _find(parent, link.b_device)
            if ra != rb:
                parent[ra] = rb
    groups = Counter(_find(parent, n) for n in nodes)
    if len(groups) <= 1:
        return [], len(nodes)
    main = groups.most_common(1)[0][0]
    return [n for n in nodes if _find(parent, n) != main], len(nodes)


@rule("N6", scope=HALL, reads=_FABRIC_READS, source=_FABRIC_SOURCE, title="Every GPU reaches every other")
def reachability(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    cut_off, nodes = ctx.fabric_memo("N6 cut off", lambda: _cut_off(ctx))
    if not cut_off:
        return
    shown = ", ".join(f"{doc.racks[doc.devices[n].rack].name}/{doc.devices[n].name}" for n in cut_off[:5])
    more = f" and {len(cut_off) - 5} more" if len(cut_off) > 5 else ""
    yield r.finding(ctx, ERROR, (HALL_SUBJECT, *cut_off),
                    f"{len(cut_off)} of {nodes} GPU nodes cannot reach the rest of the fabric: {shown}{more}")


_ROUTE_READS = {*_ENDS, "link.length_m", "link.media", "dev.rack", "dev.u", "dev.type",
                "rack.x", "rack.y", "rack.rotation", "rack.row", "rack.type", "rack.name"}


@rule("N8", scope=LINK, reads=_ROUTE_READS, basis=("cable_slack_fraction", "cable_slack_min_m", "tray_height_m"),
      source="DESIGN §5 Cables: routed length with slack", title="Cable lengths match their routes",
      follows_routes=True)
def length_current(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    """After racks move, a stored length goes stale: an error where the cable bought is now too short."""
    doc = ctx.doc
    link = doc.links[link_id]
    if link.tier not in TIERS or link.length_m <= 0 or link.a_device not in doc.devices \
            or link.b_device not in doc.devices:
        return
    now = ctx.router().length(link.a_device, link.b_device)
    if abs(now - link.length_m) <= 0.005:
        return
    name = link.label or link.id
    if link.stock_m and now > link.stock_m + 1e-9:
        yield r.finding(ctx, ERROR, (link_id,),
                        f"{name}: route now {now:.2f} m, longer than its {link.stock_m:g} m stock cable "
                        f"(stored {link.length_m:.2f} m); Plan ▸ Recompute cable lengths")
    else:
        yield r.finding(ctx, WARNING, (link_id,),
                        f"{name}: stored length {link.length_m:.2f} m no longer matches its route "
                        f"({now:.2f} m); Plan ▸ Recompute cable lengths")


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
