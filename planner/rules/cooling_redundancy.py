"""Cooling redundancy and class (DESIGN §5 wave 3): each CDU carries its racks with one pump
failed (C8), and the facility water fits the ASHRAE liquid-cooling class the basis names, so that
the class's warmest water plus the CDU's approach still keeps the cold plates under the maximum
supply (C9). The pump assumption is ``planner.rules.coolant``'s; the classes are
``planner.model.basis.ASHRAE_CLASSES`` (ASHRAE TC 9.9)."""

from __future__ import annotations

from collections.abc import Iterator

from planner.model.basis import ASHRAE_CLASSES
from planner.rules.context import Context
from planner.rules.coolant import class_limit_c, pump_failure
from planner.rules.engine import Rule, rule
from planner.rules.figures import cdu_figures, kw
from planner.rules.finding import ERROR, INFO, Finding
from planner.rules.scopes import CDU, HALL, HALL_SUBJECT

_LOOP_READS = {"rack.cdu", "dev.type", "dev.rack", "fu.type", "rack.name"}


@rule("C8", scope=CDU, reads=_LOOP_READS, basis=("load_basis", "fluid", "delta_t_k"),
      source="CDU datasheet (catalogue): pumps and redundant pumps; capacity and flow scale with the pumps running",
      title="CDU carries its racks with one pump failed")
def one_pump_failed(ctx: Context, cdu_id: str, r: Rule) -> Iterator[Finding]:
    cdu = cdu_figures(ctx, cdu_id)
    failed = pump_failure(ctx, cdu_id)
    if failed is None:
        if cdu.racks:
            yield r.finding(ctx, INFO, (cdu_id,), f"{cdu.name}: the CDU type gives no pump count; its ride-through "
                                                  f"of a pump failure is not checked")
        return
    how = (f"{failed.running} of {failed.pumps} pumps running ({failed.duty} needed for the rating: "
           f"{failed.factor:.0%})")
    # Over the full rating C1 / C2 already say so; C8 adds what only the failure shows.
    if failed.capacity_w < cdu.liquid_w <= cdu.capacity_w:
        yield r.finding(ctx, ERROR, (cdu_id,), f"{cdu.name}: one pump failed, {how}: capacity "
                                               f"{kw(failed.capacity_w)} for {kw(cdu.liquid_w)} of liquid heat")
    if failed.flow_lpm < cdu.flow_required_lpm <= cdu.flow_rated_lpm:
        yield r.finding(ctx, ERROR, (cdu_id,), f"{cdu.name}: one pump failed, {how}: flow {failed.flow_lpm:,.0f} "
                                               f"L/min for {cdu.flow_required_lpm:,.0f} L/min required")


def _unknown(name: str) -> str:
    return f"ASHRAE class {name!r} is not one of {', '.join(ASHRAE_CLASSES)}"


@rule("C9", scope=HALL, reads={"fu.type"}, basis=("ashrae_class", "facility_supply_c"), source_field="ashrae_class",
      title="Facility water within its ASHRAE class")
def facility_class(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    basis = ctx.doc.basis
    if basis.ashrae_class not in ASHRAE_CLASSES:
        yield r.finding(ctx, ERROR, (HALL_SUBJECT,), f"Design basis: {_unknown(basis.ashrae_class)}")
        return
    limit = class_limit_c(basis.ashrae_class)
    if limit is None:
        w45 = ASHRAE_CLASSES["W45"]
        assert w45 is not None  # W45 has its limit (45 °C): only W+ has none
        if basis.facility_supply_c <= w45:
            yield r.finding(ctx, ERROR, (HALL_SUBJECT,),
                            f"Design basis: facility supply {basis.facility_supply_c:.1f} °C is not above "
                            f"{w45:.0f} °C, as class W+ names; the plan's water is a lower class")
    elif basis.facility_supply_c > limit:
        yield r.finding(ctx, ERROR, (HALL_SUBJECT,),
                        f"Design basis: facility supply {basis.facility_supply_c:.1f} °C is above the "
                        f"{basis.ashrae_class} class maximum {limit:.0f} °C")


@rule("C9", scope=CDU, reads={"fu.type", "dev.type", "rack.name"},
      basis=("ashrae_class", "facility_supply_c", "max_supply_c"), source_field="ashrae_class",
      title="Cold plates under the maximum supply across the ASHRAE class")
def class_envelope(ctx: Context, cdu_id: str, r: Rule) -> Iterator[Finding]:
    """The facility may deliver any water its class allows: at the class's warmest water the CDU's
    supply (water + approach) must stay under the cold-plate maximum. W+ sets no upper limit, so
    the planned facility supply is what C3 already checks; a CDU whose planned supply already
    breaks C3 is reported there alone."""
    basis = ctx.doc.basis
    if basis.ashrae_class not in ASHRAE_CLASSES:
        return  # reported once for the hall above
    limit = class_limit_c(basis.ashrae_class)
    if limit is None:
        return
    cdu = cdu_figures(ctx, cdu_id)
    approach = cdu.supply_c - basis.facility_supply_c
    if cdu.supply_c <= basis.max_supply_c <= limit + approach:
        yield r.finding(ctx, ERROR, (cdu_id,),
                        f"{cdu.name}: {basis.ashrae_class} water up to {limit:.0f} °C + {approach:.1f} K approach = "
                        f"{limit + approach:.1f} °C at the cold plates, which must stay under "
                        f"{basis.max_supply_c:.1f} °C")
