"""Floor rules (DESIGN §5 Floor): distributed load against the zone (F1), tile point and rolling
loads on raised floor (F2), and the rack's own static load rating (F3)."""

from __future__ import annotations

from collections.abc import Iterator

from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.figures import GRAVITY, floor_load_kpa
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.rules.scopes import FLOOR_UNIT, RACK, ZONE

_F1_BASIS = ("floor_method", "floor_warn_fraction", "ibm_service_load_kpa", "ibm_raised_floor_load_kpa",
             "ibm_service_depth_m")
_F1_SOURCE = "TIA-942 computer rooms: 7.2 kPa minimum, 12 kPa recommended; zone rating from the survey"
_F2_SOURCE = "Raised-floor tile concentrated and rolling load ratings (CISCA); rack on four feet"
_PLACED_READS = {"type", "x", "y"}


def _weight_of(ctx: Context, obj_id: str) -> tuple[str, float, float, float]:
    """Name, weight (kg), width and depth (m) of a rack (with its devices) or a floor unit."""
    doc = ctx.doc
    if obj_id in doc.racks:
        figs = ctx.rack(obj_id)
        return doc.racks[obj_id].name, figs.weight_kg, figs.width_m, figs.depth_m
    unit = doc.floor_units[obj_id]
    item = doc.catalog[unit.type]
    return unit.name, item.weight_kg, item.width_m, item.depth_m


def _zone_load(ctx: Context, obj_id: str, r: Rule) -> Iterator[Finding]:
    zone = ctx.zone_of(obj_id)
    name, weight, width, depth = _weight_of(ctx, obj_id)
    if zone is None or weight <= 0:
        return
    basis = ctx.doc.basis
    kpa, area = floor_load_kpa(weight, width, depth, basis)
    method = " (IBM spread)" if basis.floor_method == "ibm" else ""
    text = f"{name}: {weight:,.0f} kg on {area:.2f} m²{method} = {kpa:.1f} kPa, zone {zone.name} rated {zone.rating_kpa:.1f} kPa"
    if kpa > zone.rating_kpa:
        yield r.finding(ctx, ERROR, (obj_id, zone.id), text)
    elif kpa > basis.floor_warn_fraction * zone.rating_kpa:
        yield r.finding(ctx, WARNING, (obj_id, zone.id),
                        f"{text}: above {basis.floor_warn_fraction:.0%} ({basis.floor_warn_fraction * zone.rating_kpa:.1f} kPa)")


@rule("F1", scope=RACK, reads={*(f"rack.{n}" for n in _PLACED_READS), "dev.type", "dev.rack", "zone.*"},
      basis=_F1_BASIS, source=_F1_SOURCE, title="Rack floor load within the zone rating")
def rack_zone_load(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    yield from _zone_load(ctx, rack_id, r)


@rule("F1", scope=FLOOR_UNIT, reads={*(f"fu.{n}" for n in _PLACED_READS), "zone.*"},
      basis=_F1_BASIS, source=_F1_SOURCE, title="Floor unit load within the zone rating")
def unit_zone_load(ctx: Context, unit_id: str, r: Rule) -> Iterator[Finding]:
    yield from _zone_load(ctx, unit_id, r)


def _tile_load(ctx: Context, obj_id: str, r: Rule) -> Iterator[Finding]:
    zone = ctx.zone_of(obj_id)
    if zone is None or zone.tile_rating_kn is None:  # not a raised floor (``Zone.raised``): no tiles
        return
    name, weight, _w, _d = _weight_of(ctx, obj_id)
    feet = max(1, ctx.doc.basis.rack_feet)
    weight_kn = weight * GRAVITY / 1000.0
    per_foot = weight_kn / feet
    if per_foot > zone.tile_rating_kn:
        yield r.finding(ctx, ERROR, (obj_id, zone.id),
                        f"{name}: {weight:,.0f} kg = {weight_kn:.2f} kN on {feet} feet = {per_foot:.2f} kN per foot, "
                        f"zone {zone.name} tile rated {zone.tile_rating_kn:.2f} kN")
    rolling = weight_kn / 2.0
    if zone.rolling_rating_kn is not None and rolling > zone.rolling_rating_kn:
        yield r.finding(ctx, WARNING, (obj_id, zone.id),
                        f"{name}: moving it puts ½ × {weight_kn:.2f} kN = {rolling:.2f} kN on one caster, "
                        f"zone {zone.name} rolling load rated {zone.rolling_rating_kn:.2f} kN")


@rule("F2", scope=RACK, reads={*(f"rack.{n}" for n in _PLACED_READS), "dev.type", "dev.rack", "zone.*"},
      basis=("rack_feet",), source=_F2_SOURCE, title="Tile point and rolling load on raised floor")
def rack_tile_load(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    yield from _tile_load(ctx, rack_id, r)


@rule("F2", scope=FLOOR_UNIT, reads={*(f"fu.{n}" for n in _PLACED_READS), "zone.*"},
      basis=("rack_feet",), source=_F2_SOURCE, title="Floor unit tile point and rolling load")
def unit_tile_load(ctx: Context, unit_id: str, r: Rule) -> Iterator[Finding]:
    yield from _tile_load(ctx, unit_id, r)


@rule("F3", scope=RACK, reads={"rack.type", "dev.type", "dev.rack"},
      source="Rack vendor static load rating (catalogue max_load_kg)", title="Rack static load rating")
def rack_static_load(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    figs = ctx.rack(rack_id)
    name = ctx.doc.racks[rack_id].name
    if figs.max_load_kg is None:
        rack_type = ctx.doc.catalog[ctx.doc.racks[rack_id].type].name
        yield r.finding(ctx, INFO, (rack_id,), f"{name}: rack type {rack_type} is not rated for static load, so "
                                               f"its {figs.weight_kg:,.0f} kg is not checked")
    elif figs.weight_kg > figs.max_load_kg:
        yield r.finding(ctx, ERROR, (rack_id,),
                        f"{name}: rack and devices weigh {figs.weight_kg:,.0f} kg, rack rated {figs.max_load_kg:,.0f} kg")


@rule("F2", scope=ZONE, reads={"zone.*"}, source=_F2_SOURCE, title="Raised floor rolling load rating known")
def rolling_rating_known(ctx: Context, zone_id: str, r: Rule) -> Iterator[Finding]:
    """A raised-floor zone without a rolling-load rating cannot be checked for racks rolled in on
    their casters; say so once per zone rather than pass every rack silently."""
    zone = ctx.doc.zones[zone_id]
    if zone.raised and zone.rolling_rating_kn is None:
        yield r.finding(ctx, INFO, (zone_id,), f"Zone {zone.name}: raised floor with no rolling-load rating; "
                                               f"rolling loads are not checked")
