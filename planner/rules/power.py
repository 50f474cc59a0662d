"""Power rules (DESIGN §5 Power): continuous load on busbars and tap-offs (P1), 2N failover (P2),
phase balance (P3) and the rack's own power limits (P4). Currents are I = P / (√3 · V · PF)."""

from __future__ import annotations

from collections.abc import Iterator

from planner.model.document import natural_key
from planner.rules.context import Context
from planner.rules.engine import BUSBAR, RACK, Rule, rule
from planner.rules.figures import (
    amps,
    feed_figures,
    kw,
    per_side_pdus,
    phase_currents_a,
    phase_imbalance,
    rack_feeds,
)
from planner.rules.finding import ERROR, WARNING, Finding

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
    if feed.derated_a <= 0:
        return
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
        if rating <= 0:
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
        if rating > 0 and current > rating * basis.derating:
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
    doc, basis = ctx.doc, ctx.doc.basis
    figs = ctx.rack(rack_id)
    power = figs.power_w(basis)
    name = doc.racks[rack_id].name
    if figs.max_power_w > 0 and power > figs.max_power_w:
        yield r.finding(ctx, ERROR, (rack_id,),
                        f"{name}: {kw(power)} {basis.load_basis}, rack rated {kw(figs.max_power_w)}")
    count = len(figs.pdus)
    if count == 0:
        return
    carrying = per_side_pdus(count, basis.redundancy)
    capacity = figs.pdu_total_w / count * carrying * basis.derating
    if power > capacity:
        how = f"{carrying} of {count} rack PDUs per side (2N)" if carrying != count else f"{count} rack PDU{'s' if count != 1 else ''}"
        yield r.finding(ctx, ERROR, (rack_id, *figs.pdus),
                        f"{name}: {kw(power)} {basis.load_basis} > {kw(capacity)} from {how} "
                        f"at {basis.derating:g} derating")
