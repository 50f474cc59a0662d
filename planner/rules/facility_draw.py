"""The draw facilities plan for (DESIGN §5 wave 3): per busbar feed, power cabinet and the hall, the
nameplate, steady and peak draw and the step when the whole cluster starts a job at once.

- Nameplate: each device's maximum system power from the catalogue (``power_peak_w``, else
  ``power_w``): the figure on the vendor's label, which the PSUs are sized for. The catalogue
  holds no separate PSU rating, so with today's entries nameplate and peak coincide.
- Steady: every device at ``power_w``. Peak: every device at its maximum.
- Step: every GPU node goes from idle (``idle_power_fraction`` × its maximum) to its maximum
  together while everything else stays at steady draw; "after" is the load once the step is taken.

A feed carries each rack shared over its feeds (normal) and the whole rack when its partner fails
(2N failover). A cabinet feeds the busbars of its row (the plan holds no busbar-to-cabinet link;
several cabinets on a row share it equally). Currents per phase as the rules compute them.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.model.catalog import CABINET, NODE
from planner.model.document import natural_key
from planner.rules.context import Context
from planner.rules.figures import PHASES, phase_currents_a, rack_feeds

#: The load cases every table reports, in order.
CASES = ("nameplate", "steady", "idle", "after_step")


@dataclass(frozen=True)
class RackDraw:
    """One rack's power in each load case, W."""

    nameplate_w: float
    steady_w: float
    idle_w: float
    after_step_w: float


def rack_draw(ctx: Context, rack_id: str) -> RackDraw:
    doc, fraction = ctx.doc, ctx.doc.basis.idle_power_fraction
    nameplate = steady = idle = after = 0.0
    for device in doc.devices_in(rack_id):
        item = doc.catalog[device.type]
        peak = item.power_peak_w or item.power_w
        nameplate += peak
        steady += item.power_w
        if item.kind == NODE:
            idle += fraction * peak
            after += peak
        else:
            idle += item.power_w
            after += item.power_w
    return RackDraw(nameplate, steady, idle, after)


@dataclass
class Draw:
    """Power (W) and the largest phase current (A) of each case on a feed, cabinet or the hall;
    ``failover_a`` is the current with the partner feed failed (whole racks), per case."""

    power_w: dict[str, float]
    current_a: dict[str, float]
    failover_a: dict[str, float]
    racks: int

    @property
    def step_w(self) -> float:
        return self.power_w["after_step"] - self.power_w["idle"]

    @property
    def step_a(self) -> float:
        return self.current_a["after_step"] - self.current_a["idle"]


def _draw(ctx: Context, shares: list[tuple[str, float]]) -> Draw:
    """Sum racks, each at ``share`` of its power (1/feeds on a feed, 1 for the hall)."""
    basis = ctx.doc.basis
    power = dict.fromkeys(CASES, 0.0)
    phases = {case: dict.fromkeys(PHASES, 0.0) for case in CASES}
    failover = {case: dict.fromkeys(PHASES, 0.0) for case in CASES}
    for rack_id, share in shares:
        draw = rack_draw(ctx, rack_id)
        wiring = ctx.doc.racks[rack_id].phases
        for case in CASES:
            watts = getattr(draw, f"{case}_w")
            power[case] += watts * share
            for p, i in phase_currents_a(watts * share, wiring, basis.voltage_v, basis.power_factor).items():
                phases[case][p] += i
            for p, i in phase_currents_a(watts, wiring, basis.voltage_v, basis.power_factor).items():
                failover[case][p] += i
    return Draw(power_w=power, current_a={c: max(phases[c].values()) for c in CASES},
                failover_a={c: max(failover[c].values()) for c in CASES}, racks=len(shares))


def feed_draw(ctx: Context, bus_id: str) -> Draw:
    """A busbar's racks, each shared over its feeds (failover: the whole rack)."""
    doc = ctx.doc
    return _draw(ctx, [(r, 1.0 / len(rack_feeds(doc, r))) for r in ctx.racks_on_feed(bus_id)])


def hall_draw(ctx: Context) -> Draw:
    """Every rack, whole (the hall's hand-off sees each rack once, whichever side feeds it)."""
    return _draw(ctx, [(r, 1.0) for r in sorted(ctx.doc.racks, key=natural_key)])


@dataclass
class CabinetDraw:
    """A power cabinet and the busbars of its row it is taken to feed."""

    cabinet_id: str
    busbars: list[str]
    share: float
    draw: Draw


def cabinet_draws(ctx: Context) -> list[CabinetDraw]:
    """Each power cabinet with its row's busbars (shared equally by the row's cabinets)."""
    doc = ctx.doc
    cabinets = sorted((u for u in doc.floor_units.values() if doc.catalog[u.type].kind == CABINET),
                      key=lambda u: natural_key(u.name))
    per_row: dict[str, int] = {}
    for unit in cabinets:
        per_row[unit.row] = per_row.get(unit.row, 0) + 1
    result = []
    for unit in cabinets:
        buses = sorted((b.id for b in doc.busbars.values() if b.row == unit.row), key=natural_key)
        share = 1.0 / per_row[unit.row]
        shares = [(r, share / len(rack_feeds(doc, r))) for b in buses for r in ctx.racks_on_feed(b)]
        result.append(CabinetDraw(unit.id, buses, share, _draw(ctx, shares)))
    return result
