"""The design figures the rules check and the report prints: weight, floor load, power, current,
heat and coolant flow (DESIGN §5). One place computes each number, so a finding, the properties
dock and the commissioning report can never disagree.

Units are SI inside (kg, m, W, A, °C, L/min); kPa and kW only where a figure is named so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from planner.model.basis import DesignBasis
from planner.model.catalog import RACK_CDU, RACK_PDU, ROW_CDU
from planner.model.document import Document, prefix_of
from planner.model.geometry import segment_box_gap

if TYPE_CHECKING:
    from planner.rules.context import Context

#: Standard gravity, m/s² (kg → N).
GRAVITY = 9.80665
SQRT3 = math.sqrt(3.0)
PHASES = ("L1", "L2", "L3")


# ----------------------------------------------------------------------------- formulas
def line_current_a(power_w: float, voltage_v: float, power_factor: float) -> float:
    """Balanced 3-phase line current: I = P / (√3 · V_LL · PF)."""
    return power_w / (SQRT3 * voltage_v * power_factor)


def phase_currents_a(power_w: float, phases: str, voltage_v: float, power_factor: float) -> dict[str, float]:
    """Current on each phase when ``power_w`` is spread evenly over the phases named in ``phases``.

    Each phase carries P_ph / (V_LN · PF) with V_LN = V_LL / √3; a load on all three phases gives
    the balanced line current on each.
    """
    lines = [p for p in PHASES if p in phases] or list(PHASES)
    per_phase = power_w / len(lines) / (voltage_v / SQRT3 * power_factor)
    return {p: (per_phase if p in lines else 0.0) for p in PHASES}


def flow_lpm(liquid_w: float, basis: DesignBasis) -> float:
    """Coolant flow V̇ = 60 · P[kW] / (ρ · c_p · ΔT) in L/min for the plan's fluid and ΔT."""
    props = basis.fluid_properties
    return 60.0 * (liquid_w / 1000.0) / (props["density_kg_per_l"] * props["cp_kj_per_kg_k"] * basis.delta_t_k)


def floor_load_kpa(weight_kg: float, width_m: float, depth_m: float, basis: DesignBasis) -> tuple[float, float]:
    """Distributed floor load (kPa) and the area it is spread over (m²).

    "footprint": q = W / A. "ibm" (IBM spread method): the front and rear service areas within
    ``ibm_service_depth_m`` count half, A_tot = A + ½·A_svc, and the service live load and the
    raised-floor/cable load are added: q = (W + 0.72·½A_svc + 0.48·A_tot) / A_tot.
    """
    area = width_m * depth_m
    weight_kn = weight_kg * GRAVITY / 1000.0
    if area <= 0:  # a footprint the loader and editors refuse, built in code: no load is carried
        return math.inf, area
    if basis.floor_method != "ibm":
        return weight_kn / area, area
    service = 2.0 * width_m * basis.ibm_service_depth_m
    total = area + service / 2.0
    load = weight_kn + basis.ibm_service_load_kpa * service / 2.0 + basis.ibm_raised_floor_load_kpa * total
    return load / total, total


def supply_temperature_c(approach_k: float, basis: DesignBasis) -> float:
    """CDU secondary supply = facility supply + the CDU's approach."""
    return basis.facility_supply_c + approach_k


def carrying_pdus(pdu_count: int, redundancy: str) -> int:
    """Rack PDUs left to carry the whole rack after the failure the plan's redundancy rides through.

    2N: a whole side (feed A or B) fails and the PDUs are split over the two sides, so the
    smaller side, ⌊n/2⌋, carries the rack: one PDU, or all on one side, leaves none. N+1: any one
    PDU fails, n − 1 carry. None: all n. 0 means the PDUs cannot carry the rack at all.
    """
    if redundancy == "2N":
        return pdu_count // 2
    if redundancy == "N+1":
        return max(pdu_count - 1, 0)
    return pdu_count


# ------------------------------------------------------------------------ per-object figures
@dataclass
class RackFigures:
    """What a rack weighs and draws, from its type and the devices in it."""

    weight_kg: float
    width_m: float
    depth_m: float
    #: None: the rack type is not rated (F3 and P4 say they did not check).
    max_load_kg: float | None
    max_power_w: float | None
    rack_units: int
    power_steady_w: float
    power_peak_w: float
    liquid_steady_w: float
    liquid_peak_w: float
    gpus: int
    pdus: list[str] = field(default_factory=list)
    pdu_total_w: float = 0.0

    @property
    def footprint_m2(self) -> float:
        return self.width_m * self.depth_m

    def power_w(self, basis: DesignBasis) -> float:
        return self.power_peak_w if basis.load_basis == "peak" else self.power_steady_w

    def liquid_w(self, basis: DesignBasis) -> float:
        return self.liquid_peak_w if basis.load_basis == "peak" else self.liquid_steady_w

    def air_w(self, basis: DesignBasis) -> float:
        return self.power_w(basis) - self.liquid_w(basis)


def rack_figures(doc: Document, rack_id: str) -> RackFigures:
    rack = doc.racks[rack_id]
    item = doc.catalog[rack.type]
    figs = RackFigures(weight_kg=item.weight_kg, width_m=item.width_m, depth_m=item.depth_m,
                       max_load_kg=item.max_load_kg,
                       max_power_w=None if item.max_power_kw is None else item.max_power_kw * 1000.0,
                       rack_units=item.rack_units, power_steady_w=0.0, power_peak_w=0.0,
                       liquid_steady_w=0.0, liquid_peak_w=0.0, gpus=0)
    for device in doc.devices_in(rack_id):
        dev = doc.catalog[device.type]
        figs.weight_kg += dev.weight_kg
        figs.power_steady_w += dev.power_w
        figs.power_peak_w += dev.power_peak_w or dev.power_w
        figs.liquid_steady_w += dev.power_w * dev.liquid_fraction
        figs.liquid_peak_w += (dev.power_peak_w or dev.power_w) * dev.liquid_fraction
        figs.gpus += dev.gpus
        if dev.kind == RACK_PDU:
            figs.pdus.append(device.id)
            figs.pdu_total_w += SQRT3 * (dev.voltage_v or doc.basis.voltage_v) * dev.rating_a * doc.basis.power_factor
    return figs


def rack_feeds(doc: Document, rack_id: str) -> list[str]:
    """The busbars that exist among a rack's A and B feeds."""
    rack = doc.racks[rack_id]
    return [f for f in (rack.feed_a, rack.feed_b) if f is not None and f in doc.busbars]


@dataclass(frozen=True)
class TapoffReach:
    """How far a rack lies from a busbar run it is fed from, against the tap-off whip (P5).

    ``gap_m`` is the plan distance from the run to the nearest point of the rack's footprint
    (its roof, where the cord drop lands), split into ``along_m`` beyond the run's nearer end and
    ``across_m`` from the run's line; ``whip_m`` is the busbar type's tap-off whip (None = not given).
    """

    gap_m: float
    along_m: float
    across_m: float
    whip_m: float | None

    @property
    def checked(self) -> bool:
        return self.whip_m is not None

    @property
    def reaches(self) -> bool:
        """Within the whip (at exactly the whip length it still reaches); unchecked counts as reaching."""
        return self.whip_m is None or self.gap_m <= self.whip_m + 1e-9


def tapoff_reach(doc: Document, bus_id: str, rack_id: str) -> TapoffReach:
    """The reach from busbar ``bus_id`` to rack ``rack_id`` (the rule and the assign gesture use this)."""
    bus = doc.busbars[bus_id]
    gap, along, across = segment_box_gap(bus.x1, bus.y1, bus.x2, bus.y2, doc.rack_bounds(doc.racks[rack_id]))
    return TapoffReach(gap_m=gap, along_m=along, across_m=across, whip_m=doc.catalog[bus.type].tapoff_whip_m)


def run_extent_text(doc: Document, bus_id: str) -> str:
    """Where a busbar run lies, for messages: "x 12.6–19.8 m at y 3.0 m" for a run along x."""
    bus = doc.busbars[bus_id]
    if abs(bus.y1 - bus.y2) < 1e-9:
        lo, hi = sorted((bus.x1, bus.x2))
        return f"x {lo:.1f}–{hi:.1f} m at y {bus.y1:.1f} m"
    if abs(bus.x1 - bus.x2) < 1e-9:
        lo, hi = sorted((bus.y1, bus.y2))
        return f"y {lo:.1f}–{hi:.1f} m at x {bus.x1:.1f} m"
    return f"({bus.x1:.1f}, {bus.y1:.1f})–({bus.x2:.1f}, {bus.y2:.1f}) m"


@dataclass
class FeedFigures:
    """Currents on one busbar run: normal (each rack shared over its feeds) and with its partner failed."""

    rating_a: float
    derated_a: float
    #: None: the busbar type does not rate its tap-offs.
    tapoff_a: float | None
    normal: dict[str, float]
    failover: dict[str, float]
    racks: int

    @property
    def normal_a(self) -> float:
        return max(self.normal.values())

    @property
    def failover_a(self) -> float:
        return max(self.failover.values())


def feed_figures(ctx: Context, bus_id: str) -> FeedFigures:
    doc, basis = ctx.doc, ctx.doc.basis
    item = doc.catalog[doc.busbars[bus_id].type]
    normal = dict.fromkeys(PHASES, 0.0)
    failover = dict.fromkeys(PHASES, 0.0)
    rack_ids = ctx.racks_on_feed(bus_id)
    for rack_id in rack_ids:
        power = ctx.rack(rack_id).power_w(basis)
        share = 1.0 / len(rack_feeds(doc, rack_id))
        phases = doc.racks[rack_id].phases
        for p, i in phase_currents_a(power * share, phases, basis.voltage_v, basis.power_factor).items():
            normal[p] += i
        for p, i in phase_currents_a(power, phases, basis.voltage_v, basis.power_factor).items():
            failover[p] += i
    return FeedFigures(rating_a=item.rating_a, derated_a=item.rating_a * basis.derating,
                       tapoff_a=item.tapoff_rating_a, normal=normal, failover=failover, racks=len(rack_ids))


@dataclass
class CduFigures:
    """Heat and flow on one CDU loop against the unit's ratings."""

    name: str
    liquid_w: float
    capacity_w: float
    flow_required_lpm: float
    flow_rated_lpm: float
    supply_c: float
    reach_m: float
    racks: int


def is_cdu(doc: Document, obj_id: str) -> bool:
    """A row CDU on the floor or an in-rack CDU device."""
    obj = doc.find(obj_id)
    if obj is None or prefix_of(obj_id) not in ("fu", "dev"):
        return False
    return doc.catalog[obj.type].kind in (ROW_CDU, RACK_CDU)


def cdu_name(doc: Document, cdu_id: str) -> str:
    """A row CDU's name, or rack/name for an in-rack CDU."""
    unit = doc.get(cdu_id)
    return unit.name if prefix_of(cdu_id) == "fu" else f"{doc.racks[unit.rack].name}/{unit.name}"


def cdu_figures(ctx: Context, cdu_id: str) -> CduFigures:
    doc, basis = ctx.doc, ctx.doc.basis
    unit = doc.get(cdu_id)
    item = doc.catalog[unit.type]
    rack_ids = ctx.racks_on_cdu(cdu_id)
    liquid = sum(ctx.rack(r).liquid_w(basis) for r in rack_ids)
    return CduFigures(name=cdu_name(doc, cdu_id),
                      liquid_w=liquid, capacity_w=item.capacity_kw * 1000.0,
                      flow_required_lpm=flow_lpm(liquid, basis), flow_rated_lpm=item.rated_flow_lpm,
                      supply_c=supply_temperature_c(item.approach_k, basis), reach_m=item.reach_m,
                      racks=len(rack_ids))


def cdu_position(doc: Document, cdu_id: str) -> tuple[float, float]:
    """Where a CDU's pipework starts: the floor unit's centre, or the centre of the rack holding it."""
    unit = doc.get(cdu_id)
    if prefix_of(cdu_id) == "dev":
        rack = doc.racks[unit.rack]
        return rack.x, rack.y
    return unit.x, unit.y


def pipe_run_m(doc: Document, cdu_id: str, rack_id: str) -> float:
    """Pipe or hose run from a CDU to a rack, along the row and across (|Δx| + |Δy|)."""
    x, y = cdu_position(doc, cdu_id)
    rack = doc.racks[rack_id]
    return abs(rack.x - x) + abs(rack.y - y)


# --------------------------------------------------------------------------- text helpers
def kw(watts: float) -> str:
    return f"{watts / 1000.0:,.1f} kW"


def amps(current: float) -> str:
    return f"{current:,.0f} A"


#: Display conversions for the imperial unit system (figures stay SI inside).
LB_PER_KG = 2.20462
PSF_PER_KPA = 20.8854
GPM_PER_LPM = 0.264172


def mass_text(kg: float, basis: DesignBasis) -> str:
    return f"{kg * LB_PER_KG:,.0f} lb" if basis.units == "imperial" else f"{kg:,.0f} kg"


def pressure_text(kpa: float, basis: DesignBasis) -> str:
    return f"{kpa * PSF_PER_KPA:,.0f} psf" if basis.units == "imperial" else f"{kpa:.1f} kPa"


def flow_text(lpm: float, basis: DesignBasis, digits: int = 0) -> str:
    if basis.units == "imperial":
        return f"{lpm * GPM_PER_LPM:,.{digits}f} gpm"
    return f"{lpm:,.{digits}f} L/min"


def temperature_text(celsius: float, basis: DesignBasis) -> str:
    return f"{celsius * 9 / 5 + 32:.1f} °F" if basis.units == "imperial" else f"{celsius:.1f} °C"
