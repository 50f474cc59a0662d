"""The figures of one object that the properties dock shows (weight, load, currents, flow),
in the plan's unit system, worked from a validation ``Context`` and the figure functions.

Apart from ``planner.rules.figures`` because it needs the context, which needs the figures.
"""

from __future__ import annotations

from planner.model.document import Document, prefix_of
from planner.rules.context import Context
from planner.rules.figures import (
    amps,
    cdu_figures,
    feed_figures,
    floor_load_kpa,
    flow_lpm,
    flow_text,
    is_cdu,
    kw,
    line_current_a,
    mass_text,
    pressure_text,
    rack_feeds,
    temperature_text,
)


def describe(doc: Document, obj_id: str) -> list[tuple[str, str]]:
    """Figures of one object for the properties dock: (label, value with units in the plan's unit system)."""
    ctx = Context(doc)
    basis = doc.basis
    prefix = prefix_of(obj_id)
    rows: list[tuple[str, str]] = []
    if prefix == "rack" and obj_id in doc.racks:
        figs = ctx.rack(obj_id)
        kpa, _area = floor_load_kpa(figs.weight_kg, figs.width_m, figs.depth_m, basis)
        current = line_current_a(figs.power_w(basis), basis.voltage_v, basis.power_factor)
        feeds = rack_feeds(doc, obj_id)
        share = current / len(feeds) if feeds else current
        rated = "not rated" if figs.max_load_kg is None else mass_text(figs.max_load_kg, basis)
        rows += [("Weight", f"{mass_text(figs.weight_kg, basis)} of {rated}"),
                 ("Floor load", f"{pressure_text(kpa, basis)} ({basis.floor_method})"),
                 ("Power steady", kw(figs.power_steady_w)), ("Power peak", kw(figs.power_peak_w)),
                 ("Liquid heat", kw(figs.liquid_w(basis))), ("Air heat", kw(figs.air_w(basis))),
                 ("Feed current normal", f"{amps(share)} per feed ({len(feeds)} feed{'s' if len(feeds) != 1 else ''})"),
                 ("Feed current failover", amps(current))]
        if figs.liquid_w(basis) > 0:
            rows.append(("Coolant flow", flow_text(flow_lpm(figs.liquid_w(basis), basis), basis, 1)))
    elif prefix == "bus" and obj_id in doc.busbars:
        feed = feed_figures(ctx, obj_id)
        derated = f"{amps(feed.rating_a)} × {basis.derating:g} = {amps(feed.derated_a)}"
        rows += [("Racks", str(feed.racks)), ("Current normal", amps(feed.normal_a)),
                 ("Current failover", amps(feed.failover_a)), ("Derated rating", derated),
                 ("Loading", f"{feed.normal_a / feed.derated_a:.0%} normal, "
                             f"{feed.failover_a / feed.derated_a:.0%} failover" if feed.derated_a else "—")]
    elif is_cdu(doc, obj_id):
        cdu = cdu_figures(ctx, obj_id)
        rows += [("Racks", str(cdu.racks)), ("Heat", f"{kw(cdu.liquid_w)} of {kw(cdu.capacity_w)}"),
                 ("Flow required", flow_text(cdu.flow_required_lpm, basis)),
                 ("Flow rated", flow_text(cdu.flow_rated_lpm, basis)),
                 ("Supply temperature", (f"{temperature_text(cdu.supply_c, basis)} "
                                        f"(max {temperature_text(basis.max_supply_c, basis)})"))]
    return rows
