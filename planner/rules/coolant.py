"""What each CDU hands to the facility water and how it rides through a pump failure (DESIGN §5
wave 3, C8/C9): heat to water, flow, supply and return temperatures, pump power, and the rating
left with one pump out.

Pump redundancy: the catalogue rates a CDU's capacity and flow with its redundant pumps out
(``pumps`` − ``redundant_pumps`` duty pumps running, as C1 and C2 read it). With one pump failed
``pumps`` − 1 run; the assumption here is that capacity and flow scale linearly with the pumps
running (identical pumps in parallel at the loop's head), up to the full rating: an N+1 unit
keeps its rating, an N unit of three pumps keeps two thirds of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.model.basis import ASHRAE_CLASSES
from planner.rules.context import Context
from planner.rules.figures import cdu_figures
from planner.rules.ppue import pump_power_w


@dataclass(frozen=True)
class PumpFailure:
    """A CDU's rating with one pump out: ``factor`` of the catalogue's capacity and flow."""

    pumps: int
    duty: int
    running: int
    factor: float
    capacity_w: float
    flow_lpm: float


def pump_failure(ctx: Context, cdu_id: str) -> PumpFailure | None:
    """The rating left with one pump failed; None when the catalogue gives no pump count."""
    item = ctx.doc.catalog[ctx.doc.get(cdu_id).type]
    if item.pumps <= 0:
        return None
    duty = max(item.pumps - item.redundant_pumps, 1)
    running = item.pumps - 1
    factor = min(1.0, running / duty)
    return PumpFailure(pumps=item.pumps, duty=duty, running=running, factor=factor,
                       capacity_w=item.capacity_kw * 1000.0 * factor, flow_lpm=item.rated_flow_lpm * factor)


def class_limit_c(class_name: str) -> float | None:
    """The maximum facility supply of an ASHRAE liquid-cooling class (None: W+, no upper limit)."""
    return ASHRAE_CLASSES[class_name]


@dataclass(frozen=True)
class CduHandoff:
    """One CDU's figures for the facilities team (the plan's load basis)."""

    name: str
    racks: int
    heat_w: float
    pump_w: float
    flow_lpm: float
    supply_c: float
    return_c: float
    facility_supply_c: float
    approach_k: float
    capacity_w: float
    flow_rated_lpm: float
    failed: PumpFailure | None

    @property
    def heat_to_facility_w(self) -> float:
        """Heat the facility water takes away: the racks' liquid heat plus the pumps' work."""
        return self.heat_w + self.pump_w


def cdu_handoff(ctx: Context, cdu_id: str) -> CduHandoff:
    basis = ctx.doc.basis
    cdu = cdu_figures(ctx, cdu_id)
    return CduHandoff(name=cdu.name, racks=cdu.racks, heat_w=cdu.liquid_w,
                      pump_w=pump_power_w(cdu.flow_required_lpm, basis), flow_lpm=cdu.flow_required_lpm,
                      supply_c=cdu.supply_c, return_c=cdu.supply_c + basis.delta_t_k,
                      facility_supply_c=basis.facility_supply_c, approach_k=cdu.supply_c - basis.facility_supply_c,
                      capacity_w=cdu.capacity_w, flow_rated_lpm=cdu.flow_rated_lpm, failed=pump_failure(ctx, cdu_id))
