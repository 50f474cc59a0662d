"""The facility figures of ``planner report --json`` (keys ``ppue``, ``draw`` and the CDU hand-off
keys), built once here so the report, the commissioning document and the facility hand-off export
print the same numbers. Keys are a contract: add, never rename."""

from __future__ import annotations

from typing import Any

from planner.model.basis import ASHRAE_CLASSES
from planner.model.document import natural_key
from planner.rules.context import Context
from planner.rules.coolant import cdu_handoff, class_limit_c
from planner.rules.facility_draw import CASES, Draw, cabinet_draws, feed_draw, hall_draw
from planner.rules.ppue import BOUNDARY, Ppue, by_row, hall_ppue, rack_ppue

#: The design-basis entries behind these figures, printed with them.
FACILITY_BASIS_KEYS = ("loop_pressure_drop_kpa", "pump_efficiency", "air_cooling_cop", "busbar_efficiency",
                       "rack_pdu_efficiency", "ppue_target", "idle_power_fraction", "ashrae_class")


def _r(value: float | None, digits: int = 3) -> float | None:
    return None if value is None else round(float(value), digits)


def ppue_row(figure: Ppue) -> dict[str, Any]:
    return {"it_kw": _r(figure.it_w / 1000), "pump_kw": _r(figure.pump_w / 1000), "air_kw": _r(figure.air_w / 1000),
            "loss_kw": _r(figure.loss_w / 1000), "ppue": _r(figure.ppue, 4)}


def rack_ppue_value(ctx: Context, rack_id: str) -> float | None:
    """A rack's pPUE as the report's rack row carries it."""
    return _r(rack_ppue(ctx, rack_id).ppue, 4)


def _draw_row(draw: Draw, rating_a: float, derating: float, failover: bool) -> dict[str, Any]:
    row: dict[str, Any] = {f"{case}_kw": _r(draw.power_w[case] / 1000) for case in CASES}
    row |= {f"{case}_a": _r(draw.current_a[case], 1) for case in CASES}
    row |= {"step_kw": _r(draw.step_w / 1000), "step_a": _r(draw.step_a, 1), "rating_a": rating_a,
            "derated_a": _r(rating_a * derating, 1), "racks": draw.racks}
    if failover:
        row |= {"failover_after_step_a": _r(draw.failover_a["after_step"], 1)}
    return row


def _draw(ctx: Context) -> dict[str, Any]:
    doc, basis = ctx.doc, ctx.doc.basis
    feeds = []
    for bus in sorted(doc.busbars.values(), key=lambda b: (natural_key(b.name), natural_key(b.id))):
        feeds.append({"id": bus.id, "name": bus.name, "side": bus.side, "row": bus.row,
                      **_draw_row(feed_draw(ctx, bus.id), doc.catalog[bus.type].rating_a, basis.derating, True)})
    cabinets = []
    for cab in cabinet_draws(ctx):
        unit = doc.floor_units[cab.cabinet_id]
        cabinets.append({"id": unit.id, "name": unit.name, "row": unit.row,
                         "busbars": [doc.busbars[b].name for b in cab.busbars], "share": _r(cab.share, 4),
                         **_draw_row(cab.draw, doc.catalog[unit.type].rating_a, basis.derating, False)})
    hall = hall_draw(ctx)
    return {"feeds": feeds, "cabinets": cabinets,
            "hall": {f"{case}_kw": _r(hall.power_w[case] / 1000) for case in CASES} |
                    {"step_kw": _r(hall.step_w / 1000), "racks": hall.racks}}


def cdu_extra(ctx: Context, cdu_id: str) -> dict[str, Any]:
    """The hand-off keys added to a report's CDU row."""
    basis = ctx.doc.basis
    cdu = cdu_handoff(ctx, cdu_id)
    failed = cdu.failed
    limit = class_limit_c(basis.ashrae_class) if basis.ashrae_class in ASHRAE_CLASSES else None
    return {
        "return_c": _r(cdu.return_c, 2), "approach_k": _r(cdu.approach_k, 2), "pump_kw": _r(cdu.pump_w / 1000),
        "heat_to_facility_kw": _r(cdu.heat_to_facility_w / 1000), "facility_supply_c": cdu.facility_supply_c,
        "supply_at_class_limit_c": None if limit is None else _r(limit + cdu.approach_k, 2),
        "pumps": None if failed is None else failed.pumps,
        "capacity_one_pump_failed_kw": None if failed is None else _r(failed.capacity_w / 1000),
        "flow_one_pump_failed_lpm": None if failed is None else _r(failed.flow_lpm, 1),
    }


def facility_report(ctx: Context) -> dict[str, Any]:
    """{"ppue": {boundary, target, hall, rows}, "draw": {feeds, cabinets, hall}}."""
    basis = ctx.doc.basis
    return {
        "ppue": {"boundary": BOUNDARY, "target": basis.ppue_target, "hall": ppue_row(hall_ppue(ctx.doc, ctx)),
                 "rows": [{"row": row, **ppue_row(figure)} for row, figure in by_row(ctx).items()]},
        "draw": {"basis": (f"Nameplate: each device's catalogue maximum power (its peak). Idle: GPU nodes at "
                           f"{basis.idle_power_fraction:.0%} of their peak, everything else steady. After the step: "
                           f"every node at its peak together, everything else steady"), **_draw(ctx)},
    }
