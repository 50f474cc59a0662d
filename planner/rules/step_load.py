"""Step load (DESIGN §5 wave 3, P7, P8): nothing trips when the whole cluster steps into a run at once.

P1 and P2 check a busbar at the plan's load basis. With a steady basis they pass a feed whose
GPU nodes, all stepping from idle to peak together when a job starts, take it over its derated
rating; the job then runs at that load for hours, a continuous load (the derating applies). P7
catches that feed: steady within the rating, the step above it, normally or (2N) with the
partner feed failed. With a peak basis P1/P2 already check every device at its maximum, which
is at least the load after the step, so P7 has nothing to add and stays quiet.

P8 holds each power cabinet to its rating for the busbars of its row (``planner.rules.facility_draw``
says how a cabinet is tied to its busbars): at the plan's load basis and, on a steady basis, after
the step. It is a HALL rule because a cabinet's load changes with any rack of its row, which the
engine's per-object neighbourhoods do not reach."""

from __future__ import annotations

from collections.abc import Iterator

from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.facility_draw import cabinet_draws, feed_draw
from planner.rules.figures import amps
from planner.rules.finding import ERROR, Finding
from planner.rules.scopes import BUSBAR, HALL

_READS = {"bus.type", "rack.feed_a", "rack.feed_b", "rack.phases", "dev.type", "dev.rack"}


@rule("P7", scope=BUSBAR, reads=_READS,
      basis=("idle_power_fraction", "derating", "redundancy", "voltage_v", "power_factor", "load_basis"),
      source_field="idle_power_fraction", title="Busbar holds the simultaneous idle-to-peak step")
def simultaneous_step(ctx: Context, bus_id: str, r: Rule) -> Iterator[Finding]:
    doc, basis = ctx.doc, ctx.doc.basis
    if basis.load_basis == "peak" or not ctx.racks_on_feed(bus_id):
        return
    bus = doc.busbars[bus_id]
    item = doc.catalog[bus.type]
    derated = item.rating_a * basis.derating
    draw = feed_draw(ctx, bus_id)
    cases = [("", draw.current_a)]
    if basis.redundancy == "2N":
        cases.append((" with its partner failed", draw.failover_a))
    for when, current in cases:
        if current["steady"] <= derated < current["after_step"]:
            yield r.finding(ctx, ERROR, (bus_id,),
                            f"Busbar {bus.name}{when}: steady {amps(current['steady'])} fits the derated "
                            f"{amps(item.rating_a)} × {basis.derating:g} = {amps(derated)}, but when every node "
                            f"steps from idle ({basis.idle_power_fraction:.0%} of peak: {amps(current['idle'])}) "
                            f"to peak at once it carries {amps(current['after_step'])} "
                            f"(step +{amps(current['after_step'] - current['idle'])})")
            return


@rule("P8", scope=HALL, reads={"fu.*", "bus.*", *_READS},
      basis=("idle_power_fraction", "derating", "voltage_v", "power_factor", "load_basis"), source_field="derating",
      title="Power cabinet carries the busbars of its row")
def cabinet_load(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    doc, basis = ctx.doc, ctx.doc.basis
    for cab in cabinet_draws(ctx):
        unit = doc.floor_units[cab.cabinet_id]
        rating = doc.catalog[unit.type].rating_a
        derated = rating * basis.derating
        current = cab.draw.current_a
        load_case = "nameplate" if basis.load_basis == "peak" else "steady"
        buses = ", ".join(doc.busbars[b].name for b in cab.busbars)
        shared = f" (shared by {round(1 / cab.share)} cabinets)" if cab.share < 1 else ""
        text = f"Cabinet {unit.name}: busbars {buses} of row {unit.row or '—'}{shared}"
        rated = f"derated {amps(rating)} × {basis.derating:g} = {amps(derated)}"
        if current[load_case] > derated:
            yield r.finding(ctx, ERROR, (unit.id, *cab.busbars),
                            f"{text} draw {amps(current[load_case])} {basis.load_basis}, {rated}")
        elif basis.load_basis == "steady" and current["after_step"] > derated:
            yield r.finding(ctx, ERROR, (unit.id, *cab.busbars),
                            f"{text}: steady {amps(current['steady'])} fits, but when every node steps from idle to "
                            f"peak at once they draw {amps(current['after_step'])}, {rated}")
