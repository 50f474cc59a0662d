"""Power rules (DESIGN §5 Power): continuous load on busbars and tap-offs (P1), 2N failover (P2),
phase balance (P3), the rack's own power limits and its way in through rack PDUs (P4), the
reach of a busbar's tap-off to the racks it feeds (P5) and a run's own length (P9). A rating the
catalogue does not give (None) is an info finding that says which check did not run.
Currents are I = P / (√3 · V · PF)."""

from __future__ import annotations

from collections.abc import Iterator

from planner.model.cords import phase_imbalance
from planner.model.document import natural_key
from planner.model.physical import busbar_problem
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.figures import (
    amps,
    carrying_pdus,
    feed_figures,
    kw,
    phase_currents_a,
    rack_feeds,
    run_extent_text,
    tapoff_reach,
)
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.rules.scopes import BUSBAR, RACK

_LOAD_READS = {"rack.feed_a", "rack.feed_b", "rack.phases", "dev.type", "dev.rack"}
_PDU_SOURCE = "Rack PDU and rack vendor power ratings (catalogue)"


def _derated_text(rating: float, derating: float) -> str:
    return f"{amps(rating)} × {derating:g} = {amps(rating * derating)}"


@rule("P1", scope=BUSBAR, reads={"bus.type", *_LOAD_READS},
      basis=("derating", "power_warn_fraction", "voltage_v", "power_factor", "load_basis"),
      source_field="derating", title="Busbar continuous load")
def busbar_load(ctx: Context, bus_id: str, r: Rule) -> Iterator[Finding]:
    doc, basis = ctx.doc, ctx.doc.basis
    bus = doc.busbars[bus_id]
    feed = feed_figures(ctx, bus_id)
    if feed.tapoff_a is None and feed.racks:
        yield r.finding(ctx, INFO, (bus_id,), f"Busbar {bus.name}: type {doc.catalog[bus.type].name} gives no "
                                              f"tap-off rating; its {feed.racks} tap-off{'s' if feed.racks != 1 else ''} "
                                              f"are not checked (P1, P2)")
    text = (f"Busbar {bus.name}: {amps(feed.normal_a)} normal load from {feed.racks} rack"
            f"{'s' if feed.racks != 1 else ''}, derated rating {_derated_text(feed.rating_a, basis.derating)}")
    if feed.normal_a > feed.derated_a:
        yield r.finding(ctx, ERROR, (bus_id,), text)
    elif feed.normal_a > basis.power_warn_fraction * feed.derated_a:
        yield r.finding(ctx, WARNING, (bus_id,), f"{text}: above {basis.power_warn_fraction:.0%}")


def _rack_current(ctx: Context, rack_id: str, share: float) -> float:
    basis = ctx.doc.basis
    power = ctx.rack(rack_id).power_w(basis) * share
    return max(phase_currents_a(power, ctx.doc.racks[rack_id].phases, basis.voltage_v, basis.power_factor).values())


@rule("P1", scope=RACK, reads={"bus.type", *_LOAD_READS},
      basis=("derating", "power_warn_fraction", "voltage_v", "power_factor", "load_basis"),
      source_field="derating", title="Tap-off continuous load")
def tapoff_load(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc, basis = ctx.doc, ctx.doc.basis
    feeds = rack_feeds(doc, rack_id)
    if not feeds:
        return
    current = _rack_current(ctx, rack_id, 1.0 / len(feeds))
    for bus_id in feeds:
        bus = doc.busbars[bus_id]
        rating = doc.catalog[bus.type].tapoff_rating_a
        if rating is None:  # reported once on the busbar (P1 above)
            continue
        derated = rating * basis.derating
        text = (f"{doc.racks[rack_id].name}: tap-off on {bus.name} carries {amps(current)}, "
                f"rated {_derated_text(rating, basis.derating)}")
        if current > derated:
            yield r.finding(ctx, ERROR, (rack_id, bus_id), text)
        elif current > basis.power_warn_fraction * derated:
            yield r.finding(ctx, WARNING, (rack_id, bus_id), f"{text}: above {basis.power_warn_fraction:.0%}")


@rule("P2", scope=BUSBAR, reads={"bus.type", "bus.name", *_LOAD_READS},
      basis=("redundancy", "derating", "voltage_v", "power_factor", "load_basis"),
      source="2N A/B feeds: each side carries the whole load when its partner fails", title="Busbar 2N failover")
def busbar_failover(ctx: Context, bus_id: str, r: Rule) -> Iterator[Finding]:
    doc, basis = ctx.doc, ctx.doc.basis
    if basis.redundancy != "2N":
        return
    feed = feed_figures(ctx, bus_id)
    if feed.derated_a <= 0 or feed.failover_a <= feed.derated_a:
        return
    bus = doc.busbars[bus_id]
    partners = sorted({f for rack_id in ctx.racks_on_feed(bus_id) for f in rack_feeds(doc, rack_id) if f != bus_id},
                      key=natural_key)
    failed = ", ".join(doc.busbars[p].name for p in partners) or "its partner"
    yield r.finding(ctx, ERROR, (bus_id, *partners),
                    f"Busbar {bus.name}: {amps(feed.failover_a)} under failure of {failed}, "
                    f"derated rating {_derated_text(feed.rating_a, basis.derating)}")


@rule("P2", scope=RACK, reads={"bus.type", *_LOAD_READS},
      basis=("redundancy", "derating", "voltage_v", "power_factor", "load_basis"),
      source="2N A/B feeds: every rack on one feed from each side", title="Rack feeds and tap-off failover")
def rack_feeds_2n(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc, basis = ctx.doc, ctx.doc.basis
    rack = doc.racks[rack_id]
    power = ctx.rack(rack_id).power_w(basis)
    if power <= 0:
        return
    feeds = rack_feeds(doc, rack_id)
    if not feeds:
        yield r.finding(ctx, ERROR, (rack_id,), f"{rack.name}: draws {kw(power)} but has no feed assigned")
        return
    if basis.redundancy != "2N":
        return
    missing = [side for side, bus in (("A", rack.feed_a), ("B", rack.feed_b)) if bus not in feeds]
    if missing:
        yield r.finding(ctx, ERROR, (rack_id,), f"{rack.name}: 2N needs a feed on side A and on side B; "
                                                f"side {' and '.join(missing)} missing")
        return
    current = _rack_current(ctx, rack_id, 1.0)
    for bus_id in feeds:
        bus = doc.busbars[bus_id]
        rating = doc.catalog[bus.type].tapoff_rating_a
        if rating is not None and current > rating * basis.derating:
            yield r.finding(ctx, ERROR, (rack_id, bus_id),
                            f"{rack.name}: tap-off on {bus.name} carries {amps(current)} when the other side fails, "
                            f"rated {_derated_text(rating, basis.derating)}")


@rule("P3", scope=BUSBAR, reads={"bus.type", *_LOAD_READS},
      basis=("phase_imbalance_warn", "phase_imbalance_error"), source_field="phase_imbalance_error",
      title="Phase balance on a busbar")
def phase_balance(ctx: Context, bus_id: str, r: Rule) -> Iterator[Finding]:
    basis = ctx.doc.basis
    feed = feed_figures(ctx, bus_id)
    imbalance = phase_imbalance(feed.normal)
    if imbalance <= basis.phase_imbalance_warn:
        return
    severity = ERROR if imbalance > basis.phase_imbalance_error else WARNING
    limit = basis.phase_imbalance_error if severity == ERROR else basis.phase_imbalance_warn
    currents = " / ".join(f"{p} {amps(i)}" for p, i in feed.normal.items())
    yield r.finding(ctx, severity, (bus_id,),
                    f"Busbar {ctx.doc.busbars[bus_id].name}: phases {currents}, imbalance {imbalance:.0%} "
                    f"(max |I − I_avg| / I_avg), limit {limit:.0%}")


@rule("P4", scope=RACK, reads={"rack.type", "dev.type", "dev.rack"},
      basis=("load_basis", "derating", "redundancy", "voltage_v", "power_factor"), source=_PDU_SOURCE,
      title="Rack power within the rack and PDU limits")
def rack_power(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    """The rack's rating, then its way in: a rack that draws power needs rack PDUs, and the PDUs
    left after the failure the plan's redundancy rides through (a whole side under 2N, one PDU
    under N+1) must carry it at the continuous-load derating."""
    doc, basis = ctx.doc, ctx.doc.basis
    figs = ctx.rack(rack_id)
    power = figs.power_w(basis)
    name = doc.racks[rack_id].name
    if figs.max_power_w is None:
        if power > 0:
            yield r.finding(ctx, INFO, (rack_id,), f"{name}: draws {kw(power)} {basis.load_basis}; rack type "
                                                   f"{doc.catalog[doc.racks[rack_id].type].name} is not rated for "
                                                   f"power, so the rack rating is not checked")
    elif power > figs.max_power_w:
        yield r.finding(ctx, ERROR, (rack_id,),
                        f"{name}: {kw(power)} {basis.load_basis}, rack rated {kw(figs.max_power_w)}")
    count = len(figs.pdus)
    if power <= 0:
        return
    if count == 0:
        yield r.finding(ctx, ERROR, (rack_id,), f"{name}: draws {kw(power)} but holds no rack PDU")
        return
    carrying = carrying_pdus(count, basis.redundancy)
    plural = "s" if count != 1 else ""
    if carrying == 0:
        need = ("a rack PDU on each side (A and B)" if basis.redundancy == "2N"
                else "a spare rack PDU")
        yield r.finding(ctx, ERROR, (rack_id, *figs.pdus),
                        f"{name}: draws {kw(power)}; {basis.redundancy} needs {need}, it holds {count} rack PDU{plural}")
        return
    capacity = figs.pdu_total_w / count * carrying * basis.derating
    if power > capacity:
        if basis.redundancy == "2N":
            how = f"{carrying} of {count} rack PDUs per side (2N)"
        elif basis.redundancy == "N+1":
            how = f"{carrying} of {count} rack PDUs with one failed (N+1)"
        else:
            how = f"{count} rack PDU{plural}"
        yield r.finding(ctx, ERROR, (rack_id, *figs.pdus),
                        f"{name}: {kw(power)} {basis.load_basis} > {kw(capacity)} from {how} "
                        f"at {basis.derating:g} derating")


_REACH_READS = {"rack.x", "rack.y", "rack.rotation", "rack.type", "rack.feed_a", "rack.feed_b",
                "bus.x1", "bus.y1", "bus.x2", "bus.y2", "bus.type"}


@rule("P5", scope=RACK, reads=_REACH_READS, title="Tap-off reach from the busbar to the rack",
      source="Busbar type's tap-off whip length and its source (catalogue)")
def tapoff_reach_rule(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    """Each busbar a rack is fed from must reach it: the tap-off plugs in anywhere between the
    run's ends and its whip (cord drop) must span the plan distance to the rack's roof. The
    whip length and its source are the busbar type's (catalogue); a type that gives none is
    reported once on the busbar (below) instead."""
    doc = ctx.doc
    rack = doc.racks[rack_id]
    for bus_id in rack_feeds(doc, rack_id):
        reach = tapoff_reach(doc, bus_id, rack_id)
        if reach.reaches:
            continue
        bus = doc.busbars[bus_id]
        item = doc.catalog[bus.type]
        yield Finding(rule=r.id, severity=ERROR, subjects=(rack_id, bus_id),
                      message=(f"{rack.name}: {reach.gap_m:.2f} m from busbar {bus.name} "
                               f"({run_extent_text(doc, bus_id)}; {reach.along_m:.2f} m beyond its end, "
                               f"{reach.across_m:.2f} m across), tap-off whip reaches {reach.whip_m:g} m"),
                      source=f"{item.name} (catalogue)" + (f": {item.source}" if item.source else ""))


@rule("P5", scope=BUSBAR, reads={"bus.type"}, title="Tap-off whip length known",
      source="Catalogue: busbar tap-off whip length (tapoff_whip_m)")
def tapoff_whip_known(ctx: Context, bus_id: str, r: Rule) -> Iterator[Finding]:
    """A busbar type without a whip length (a custom entry from before the field existed) cannot
    be checked for reach; say so once per run rather than pass its racks silently."""
    doc = ctx.doc
    bus = doc.busbars[bus_id]
    item = doc.catalog[bus.type]
    if item.tapoff_whip_m is None:
        yield r.finding(ctx, INFO, (bus_id,),
                        f"Busbar {bus.name}: type {item.name} gives no tap-off whip length; "
                        f"rack reach is not checked")


@rule("P9", scope=BUSBAR, reads={"bus.x1", "bus.y1", "bus.x2", "bus.y2"}, title="Busbar run of a real length",
      source="Busway practice: a run holds at least one tap-off box and lies within one hall")
def busbar_length(ctx: Context, bus_id: str, r: Rule) -> Iterator[Finding]:
    """A run dragged to nothing, or drawn in the wrong unit, feeds racks it cannot reach; say so
    with its length (the loader keeps it: an edit in progress may pass through 0 m)."""
    bus = ctx.doc.busbars[bus_id]
    problem = busbar_problem(bus)
    if problem:
        yield r.finding(ctx, ERROR, (bus_id,), f"Busbar {bus.name}: {problem}")
