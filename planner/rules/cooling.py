"""Cooling rules (DESIGN §5 Cooling): CDU capacity (C1) and flow (C2), supply temperature (C3),
every liquid-cooled rack on a loop (C4) within the CDU's pipe reach (C5), and the residual air
heat of each zone (C6). Flow V̇ = 60 · P[kW] / (ρ · c_p · ΔT)."""

from __future__ import annotations

from collections.abc import Iterator

from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.figures import cdu_figures, cdu_name, is_cdu, kw, pipe_run_m
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.rules.scopes import CDU, RACK, ZONE

_LOOP_READS = {"rack.cdu", "dev.type", "dev.rack", "fu.type"}
_CDU_SOURCE = "CDU datasheet (catalogue): capacity and rated flow with the redundant pump out (N+1)"


@rule("C1", scope=CDU, reads=_LOOP_READS, basis=("load_basis",), source=_CDU_SOURCE, title="CDU heat capacity")
def cdu_capacity(ctx: Context, cdu_id: str, r: Rule) -> Iterator[Finding]:
    cdu = cdu_figures(ctx, cdu_id)
    if cdu.liquid_w > cdu.capacity_w:
        yield r.finding(ctx, ERROR, (cdu_id,),
                        f"{cdu.name}: {kw(cdu.liquid_w)} liquid heat from {cdu.racks} rack{'s' if cdu.racks != 1 else ''}, "
                        f"capacity {kw(cdu.capacity_w)} (N+1)")


@rule("C2", scope=CDU, reads=_LOOP_READS, basis=("fluid", "delta_t_k", "load_basis"), source=_CDU_SOURCE,
      title="CDU coolant flow")
def cdu_flow(ctx: Context, cdu_id: str, r: Rule) -> Iterator[Finding]:
    basis = ctx.doc.basis
    cdu = cdu_figures(ctx, cdu_id)
    if cdu.flow_required_lpm > cdu.flow_rated_lpm:
        props = basis.fluid_properties
        yield r.finding(ctx, ERROR, (cdu_id,),
                        f"{cdu.name}: {kw(cdu.liquid_w)} needs 60 × {cdu.liquid_w / 1000:,.1f} / "
                        f"({props['density_kg_per_l']:g} × {props['cp_kj_per_kg_k']:g} × {basis.delta_t_k:g} K) = "
                        f"{cdu.flow_required_lpm:,.0f} L/min of {basis.fluid}, rated {cdu.flow_rated_lpm:,.0f} L/min")


@rule("C3", scope=CDU, reads={"fu.type", "dev.type", "rack.name"},
      basis=("facility_supply_c", "max_supply_c", "dew_point_c", "dew_point_margin_k"), source_field="max_supply_c",
      title="CDU supply temperature")
def supply_temperature(ctx: Context, cdu_id: str, r: Rule) -> Iterator[Finding]:
    basis = ctx.doc.basis
    cdu = cdu_figures(ctx, cdu_id)
    approach = cdu.supply_c - basis.facility_supply_c
    text = f"{cdu.name}: supply {basis.facility_supply_c:.1f} °C facility + {approach:.1f} K approach = {cdu.supply_c:.1f} °C"
    if cdu.supply_c > basis.max_supply_c:
        yield r.finding(ctx, ERROR, (cdu_id,), f"{text}, cold-plate maximum {basis.max_supply_c:.1f} °C")
    elif cdu.supply_c < basis.dew_point_c + basis.dew_point_margin_k:
        yield r.finding(ctx, WARNING, (cdu_id,),
                        f"{text}, within {basis.dew_point_margin_k:g} K of the {basis.dew_point_c:.1f} °C dew point")


@rule("C4", scope=RACK, reads=_LOOP_READS, basis=("load_basis",),
      source="Direct-to-chip liquid cooling: every liquid-cooled rack on a CDU loop", title="Liquid-cooled rack on a loop")
def rack_on_loop(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    liquid = ctx.rack(rack_id).liquid_w(doc.basis)
    rack = doc.racks[rack_id]
    if liquid > 0 and (rack.cdu is None or not is_cdu(doc, rack.cdu)):
        yield r.finding(ctx, ERROR, (rack_id,), f"{rack.name}: {kw(liquid)} liquid heat but on no CDU loop")


@rule("C5", scope=RACK, reads={*_LOOP_READS, "rack.x", "rack.y", "fu.x", "fu.y"},
      source="CDU datasheet (catalogue): pipe/hose reach from the unit", title="Pipe run within the CDU's reach")
def pipe_reach(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    rack = doc.racks[rack_id]
    if rack.cdu is None or not is_cdu(doc, rack.cdu):
        return
    reach = doc.catalog[doc.get(rack.cdu).type].reach_m
    run = pipe_run_m(doc, rack.cdu, rack_id)
    if reach > 0 and run > reach:
        yield r.finding(ctx, ERROR, (rack_id, rack.cdu),
                        f"{rack.name}: pipe run from {cdu_name(doc, rack.cdu)} {run:.1f} m (|Δx| + |Δy|), reach {reach:.1f} m")


@rule("C6", scope=ZONE, reads={"rack.x", "rack.y", "dev.type", "dev.rack", "zone.*"}, basis=("load_basis",),
      source="Zone air cooling capacity from the survey (residual heat of liquid-cooled racks)",
      title="Residual air heat per zone")
def zone_air_heat(ctx: Context, zone_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    zone = doc.zones[zone_id]
    air, count = ctx.zone_air(zone_id)
    if zone.air_capacity_kw is None:
        if air > 0:
            yield r.finding(ctx, INFO, (zone_id,), f"Zone {zone.name}: {kw(air)} residual air heat from "
                                                   f"{count} racks; the zone's air cooling is not rated, so "
                                                   f"it is not checked")
    elif air > zone.air_capacity_kw * 1000.0:
        yield r.finding(ctx, WARNING, (zone_id,),
                        f"Zone {zone.name}: {kw(air)} residual air heat from {count} racks "
                        f"(1 − liquid fraction), air cooling {zone.air_capacity_kw:,.1f} kW")

