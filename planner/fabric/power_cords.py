"""Power cords: every PSU of every device in a rack to an outlet of a rack PDU in that rack
(issue 21 part 3, DESIGN §3 Networks), as the power network's generation step.

- **Sides.** PSU1 … ⌈n/2⌉ go to side A's PDUs, the rest to side B's (``planner.model.cords``
  says how a PDU's side is read: its name, "PDU-A1"), so the PSUs a device promises to lose
  are the ones a failed side takes with it where the count allows (P11 checks it).
- **Outlets.** A PSU takes an outlet that mates its inlet (C20 → C19, C14 → C13; no inlet given
  → C13). Each cord goes to the free outlet of its type on its side that keeps the PDUs' phases
  most even (the current on the outlet's lines with both sides up), then its group's breaker
  least loaded in failover (all of a device's draw on the side that remains), then the nearest
  along the strip: round-robin over the groups and phases, one cord per outlet (P10, P12, P13).
- **Short of outlets.** A side without a free outlet of the type leaves the PSU uncorded and P10
  says so; this step adds no PDUs (``planner.fabric.placement.rack_pdus`` sizes them for their
  cords when racks are filled).
- **Length.** The vertical run from the PSUs (the middle of the device's height, U of
  ``RACK_UNIT_M``) to the outlet, the outlets spread evenly up the 0U strip at the rear (O1 at
  the bottom; the catalogue gives no outlet positions), plus the design basis's slack
  (``cable_slack_fraction``, at least ``cable_slack_min_m``; the short reach across the rear to
  the side channel is within it), to the centimetre; the stock length is the next of the cord's
  stock list (``resources/catalog/cords.json``).

Regenerating keeps every cord's identity (``reconcile`` over ``doc.links_in(POWER)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from planner.fabric.reconcile import reconcile
from planner.fabric.stages import NetworkGeneration
from planner.model.catalog import CatalogItem
from planner.model.cords import (
    cord_current_a,
    cord_stock_m,
    draw_w,
    outlet_for_inlet,
    psu_devices,
    psu_side,
    rack_pdu_sides,
)
from planner.model.document import Document, natural_key
from planner.model.geometry import RACK_UNIT_M
from planner.model.networks import TIER_POWER_CORD
from planner.model.objects import Device, Link
from planner.model.ports import POWER, Outlet, psu_names

PHASE_LINES = ("L1", "L2", "L3")


@cache
def lines_of(phase: str) -> tuple[str, ...]:
    """The lines an outlet on ``phase`` draws from: "L1" → (L1,), "L1-L2" → (L1, L2)."""
    return tuple(line for line in phase.split("-") if line in PHASE_LINES) or ("L1",)


@dataclass
class _Strip:
    """One rack PDU while cords are given outlets: its free outlets by type and group, each
    outlet's height and amperes per watt, and the currents so far per line and per group
    (failover). The outlets of a group share its phase and breaker, so a cord weighs the groups
    and takes the nearest free outlet of the one it chose."""

    device: Device
    item: CatalogItem
    order: int
    free: dict[str, dict[int, list[Outlet]]]
    height: dict[str, float]
    amps_per_w: dict[str, float]
    lines: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASE_LINES, 0.0))
    groups: dict[int, float] = field(default_factory=dict)

    def cost(self, outlet: Outlet, normal_a: float, failover_a: float, limit: float) -> tuple:
        group = self.groups.get(outlet.group, 0.0) + failover_a
        phase = max(self.lines[line] + normal_a for line in lines_of(outlet.phase))
        return (group > limit + 1e-9, round(phase, 6), round(group, 6), self.order)

    def take(self, outlet: Outlet, normal_a: float, failover_a: float) -> None:
        group = self.free[outlet.outlet][outlet.group]
        group.remove(outlet)
        if not group:
            del self.free[outlet.outlet][outlet.group]
        for line in lines_of(outlet.phase):
            self.lines[line] += normal_a
        self.groups[outlet.group] = self.groups.get(outlet.group, 0.0) + failover_a


def _strip(doc: Document, device: Device, order: int, rack_units: int) -> _Strip:
    item = doc.catalog[device.type]
    outlets = item.outlets()
    free: dict[str, dict[int, list[Outlet]]] = {}
    for outlet in outlets:
        free.setdefault(outlet.outlet, {}).setdefault(outlet.group, []).append(outlet)
    height = {outlet.name: outlet_height_m(i, len(outlets), rack_units) for i, outlet in enumerate(outlets)}
    amps_per_w = {outlet.name: cord_current_a(doc, item, outlet.phase, 1.0) for outlet in outlets}
    return _Strip(device, item, order, free, height, amps_per_w)


def outlet_height_m(index: int, outlets: int, rack_units: int) -> float:
    """Height of outlet ``index`` (0 = O1) of ``outlets`` above the rack's first U: the outlets
    spread evenly up the strip."""
    return (index + 0.5) / max(outlets, 1) * rack_units * RACK_UNIT_M


def psu_height_m(device: Device, item: CatalogItem) -> float:
    """Height of a device's PSUs above the rack's first U: the middle of its height."""
    return (max(device.u - 1, 0) + item.height_u / 2) * RACK_UNIT_M


def cord_length_m(doc: Document, run_m: float) -> float:
    """A run with the design basis's slack, to the centimetre."""
    basis = doc.basis
    return round(run_m + max(run_m * basis.cable_slack_fraction, basis.cable_slack_min_m), 2)


def rack_cords(doc: Document, rack_id: str) -> list[Link]:
    """The cords a rack's devices should have (module docstring); PSUs without an outlet are left out."""
    sides = rack_pdu_sides(doc, rack_id)
    rack_units = doc.catalog[doc.racks[rack_id].type].rack_units
    strips: dict[str, list[_Strip]] = {"A": [], "B": []}
    for order, pdu_id in enumerate(sorted(sides, key=lambda i: natural_key(doc.devices[i].name))):
        strips[sides[pdu_id]].append(_strip(doc, doc.devices[pdu_id], order, rack_units))
    derating = doc.basis.derating
    cords: list[Link] = []
    # the biggest draws first, so the small ones even out the phases (longest-processing-time order)
    for device in sorted(psu_devices(doc, rack_id), key=lambda d: -draw_w(doc, doc.catalog[d.type])):
        item = doc.catalog[device.type]
        names = psu_names(item.psu_count)
        wanted = outlet_for_inlet(item)
        draw = draw_w(doc, item)
        height = psu_height_m(device, item)
        on_a = sum(1 for k in range(1, len(names) + 1) if psu_side(k, len(names)) == "A")
        for index, psu in enumerate(names, start=1):
            side = psu_side(index, len(names))
            normal_w, failover_w = draw / len(names), draw / (on_a if side == "A" else len(names) - on_a)
            best: tuple[tuple, _Strip, Outlet] | None = None
            for strip in strips[side]:
                for members in strip.free.get(wanted, {}).values():
                    per_w = strip.amps_per_w[members[0].name]
                    cost = strip.cost(members[0], normal_w * per_w, failover_w * per_w,
                                      members[0].breaker_a * derating)
                    heights = strip.height
                    outlet = min(members, key=lambda o: abs(heights[o.name] - height))
                    key = (*cost, round(abs(heights[outlet.name] - height), 4))
                    if best is None or key < best[0]:
                        best = (key, strip, outlet)
            if best is None:
                continue  # no free outlet of the type on this side: P10 reports the PSU
            _key, strip, outlet = best
            per_w = strip.amps_per_w[outlet.name]
            strip.take(outlet, normal_w * per_w, failover_w * per_w)
            length = cord_length_m(doc, abs(strip.height[outlet.name] - height))
            cords.append(Link(id="", a_device=device.id, a_port=psu, b_device=strip.device.id, b_port=outlet.name,
                              tier=TIER_POWER_CORD, media="", length_m=length, stock_m=cord_stock_m(wanted, length)))
    return cords


def plan_power_cords(doc: Document) -> NetworkGeneration:
    """The power network's step: every rack's cords (``rack_cords``), reconciled with the plan's."""
    wanted = [cord for rack_id in doc.racks for cord in rack_cords(doc, rack_id)]
    cables = reconcile(doc, wanted, scope=list(doc.links_in(POWER)))
    psus = sum(len(psu_names(doc.catalog[d.type].psu_count)) for r in doc.racks for d in psu_devices(doc, r))
    left = psus - len(wanted)
    text = (f"Power cords ({len(wanted):,} of {psus:,} PSUs corded"
            + (f", {left:,} without a free outlet" if left else "") + f"): {cables.summary()}")
    return NetworkGeneration(POWER, cables.commands(), text, cables=cables)
