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

Regenerating keeps every cord's identity (``reconcile`` over ``doc.links_in(POWER)``), and a cord
still on a right outlet (its side, its type, alone on it) stays there; only the others are placed.
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
    phase_imbalance,
    psu_devices,
    psu_side,
    rack_pdu_sides,
)
from planner.model.document import Document, natural_key
from planner.model.geometry import RACK_UNIT_M
from planner.model.networks import TIER_POWER_CORD
from planner.model.objects import CABLE_STATES, Device, Link
from planner.model.ports import POWER, Outlet, psu_names

PHASE_LINES = ("L1", "L2", "L3")
PLANNED = CABLE_STATES[0]


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


def _kept_outlets(doc: Document, rack_id: str, sides: dict[str, str],
                  installed_only: bool = False) -> dict[tuple[str, str], tuple[str, str]]:
    """(device, PSU) → (PDU, outlet) of the rack's cords that may stay as they are: one cord on the
    PSU, to an outlet of a PDU of the rack on the PSU's side that mates its inlet, no other cord
    on that outlet (``installed_only``: of those, the cords past planned). Regenerating then moves
    no cord that is still right (issue 16)."""
    on_outlet: dict[tuple[str, str], int] = {}
    for pdu_id in sides:
        for link in doc.links_of(pdu_id):
            if link.tier == TIER_POWER_CORD:
                end = (pdu_id, link.a_port if link.a_device == pdu_id else link.b_port)
                on_outlet[end] = on_outlet.get(end, 0) + 1
    by_psu: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for device in psu_devices(doc, rack_id):
        for link in doc.links_of(device.id):
            ends = ((link.a_device, link.a_port), (link.b_device, link.b_port))
            psu_end, pdu_end = ends if link.a_device == device.id else ends[::-1]
            if link.tier == TIER_POWER_CORD and pdu_end[0] in sides and not (installed_only and link.state == PLANNED):
                by_psu.setdefault(psu_end, []).append(pdu_end)
    kept: dict[tuple[str, str], tuple[str, str]] = {}
    for device in psu_devices(doc, rack_id):
        item = doc.catalog[device.type]
        names = psu_names(item.psu_count)
        for index, psu in enumerate(names, start=1):
            pdus = by_psu.get((device.id, psu), [])
            if len(pdus) != 1 or on_outlet[pdus[0]] != 1 or sides[pdus[0][0]] != psu_side(index, len(names)):
                continue
            outlets = {o.name: o for o in doc.catalog[doc.devices[pdus[0][0]].type].outlets()}
            outlet = outlets.get(pdus[0][1])
            if outlet is not None and outlet.outlet == outlet_for_inlet(doc, item):
                kept[device.id, psu] = pdus[0]
    return kept


#: Racks alike (PDUs, devices and their heights, the cords kept, by position) → their cords as
#: positions and the worst phase imbalance: a hall's compute racks are a few kinds.
PlacementMemo = dict[tuple, tuple[list[tuple[int, str, int, str, float, float]], float]]


def rack_cords(doc: Document, rack_id: str, memo: PlacementMemo | None = None) -> list[Link]:
    """The cords a rack's devices should have (module docstring): the cords still right where they
    are, then the others; PSUs without an outlet are left out. Where the cords kept would leave a
    PDU's phases out of balance beyond the basis's warning (P13; the rack's devices changed:
    switches of another type, a node added or taken out), the cords still only planned are placed
    anew around those already in the hall (run, labelled, tested, verified) if that balances it
    better: a cord on paper moves freely. Only when that still leaves a phase beyond the error
    limit are the cords in the hall placed anew too (the dialog asks, the CLI needs ``--force``)."""
    basis = doc.basis
    sides = rack_pdu_sides(doc, rack_id)
    kept = _kept_outlets(doc, rack_id, sides)
    cords, worst = _place_cords(doc, rack_id, kept, memo)
    if not kept or worst <= basis.phase_imbalance_warn:
        return cords
    installed = _kept_outlets(doc, rack_id, sides, installed_only=True)
    if len(installed) < len(kept):
        moved, moved_worst = _place_cords(doc, rack_id, installed, memo)
        if moved_worst < worst:
            cords, worst = moved, moved_worst
    if installed and worst > basis.phase_imbalance_error:
        fresh, fresh_worst = _place_cords(doc, rack_id, {}, memo)
        if fresh_worst < worst:
            return fresh
    return cords


def _place_cords(doc: Document, rack_id: str, kept: dict[tuple[str, str], tuple[str, str]],
                 memo: PlacementMemo | None = None) -> tuple[list[Link], float]:
    """The rack's cords, those in ``kept`` on their outlets first, and the most unbalanced of its
    PDUs' phases (``phase_imbalance`` with both sides up); a rack like one in ``memo`` takes its
    cords from there, what decides them being the same."""
    if memo is None:
        return _placed(doc, rack_id, kept)
    sides = rack_pdu_sides(doc, rack_id)
    pdus = sorted(sides, key=lambda i: natural_key(doc.devices[i].name))
    devices = psu_devices(doc, rack_id)
    pdu_at = {pdu_id: i for i, pdu_id in enumerate(pdus)}
    device_at = {device.id: i for i, device in enumerate(devices)}
    key = (doc.racks[rack_id].type, tuple((doc.devices[p].type, doc.devices[p].name, sides[p]) for p in pdus),
           tuple((d.type, d.u) for d in devices),
           tuple(sorted((device_at[d], psu, pdu_at[p], o) for (d, psu), (p, o) in kept.items())))
    known = memo.get(key)
    if known is None:
        cords, worst = _placed(doc, rack_id, kept)
        memo[key] = ([(device_at[c.a_device], c.a_port, pdu_at[c.b_device], c.b_port, c.length_m, c.stock_m)
                      for c in cords], worst)
        return cords, worst
    pattern, worst = known
    return [Link(id="", a_device=devices[d].id, a_port=psu, b_device=pdus[p], b_port=outlet, tier=TIER_POWER_CORD,
                 media="", length_m=length, stock_m=stock) for d, psu, p, outlet, length, stock in pattern], worst


def _placed(doc: Document, rack_id: str, kept: dict[tuple[str, str], tuple[str, str]]) -> tuple[list[Link], float]:
    sides = rack_pdu_sides(doc, rack_id)
    rack_units = doc.catalog[doc.racks[rack_id].type].rack_units
    strips: dict[str, list[_Strip]] = {"A": [], "B": []}
    by_pdu: dict[str, _Strip] = {}
    for order, pdu_id in enumerate(sorted(sides, key=lambda i: natural_key(doc.devices[i].name))):
        by_pdu[pdu_id] = _strip(doc, doc.devices[pdu_id], order, rack_units)
        strips[sides[pdu_id]].append(by_pdu[pdu_id])
    derating = doc.basis.derating
    placed: dict[tuple[str, str], tuple[_Strip, Outlet]] = {}
    # the biggest draws first, so the small ones even out the phases (longest-processing-time order)
    devices = sorted(psu_devices(doc, rack_id), key=lambda d: -draw_w(doc, doc.catalog[d.type]))
    for keeping in (True, False):
        for device in devices:
            item = doc.catalog[device.type]
            names = psu_names(item.psu_count)
            wanted = outlet_for_inlet(doc, item)
            draw = draw_w(doc, item)
            on_a = sum(1 for k in range(1, len(names) + 1) if psu_side(k, len(names)) == "A")
            for index, psu in enumerate(names, start=1):
                if ((device.id, psu) in kept) != keeping:
                    continue
                side = psu_side(index, len(names))
                normal_w, failover_w = draw / len(names), draw / (on_a if side == "A" else len(names) - on_a)
                if keeping:
                    pdu_id, name = kept[device.id, psu]
                    strip = by_pdu[pdu_id]
                    outlet = next(o for o in strip.item.outlets() if o.name == name)
                else:
                    best = _best_outlet(strips[side], wanted, normal_w, failover_w, derating,
                                        psu_height_m(device, item))
                    if best is None:
                        continue  # no free outlet of the type on this side: P10 reports the PSU
                    strip, outlet = best
                per_w = strip.amps_per_w[outlet.name]
                strip.take(outlet, normal_w * per_w, failover_w * per_w)
                placed[device.id, psu] = (strip, outlet)
    cords: list[Link] = []
    for device in psu_devices(doc, rack_id):
        item = doc.catalog[device.type]
        wanted, height = outlet_for_inlet(doc, item), psu_height_m(device, item)
        for psu in psu_names(item.psu_count):
            if (device.id, psu) not in placed:
                continue
            strip, outlet = placed[device.id, psu]
            length = cord_length_m(doc, abs(strip.height[outlet.name] - height))
            cords.append(Link(id="", a_device=device.id, a_port=psu, b_device=strip.device.id, b_port=outlet.name,
                              tier=TIER_POWER_CORD, media="", length_m=length, stock_m=cord_stock_m(wanted, length)))
    return cords, max((phase_imbalance(strip.lines) for strip in by_pdu.values()), default=0.0)


def _best_outlet(strips: list[_Strip], wanted: str, normal_w: float, failover_w: float, derating: float,
                 height: float) -> tuple[_Strip, Outlet] | None:
    """The free outlet of type ``wanted`` on one side's strips that keeps the phases most even, then
    its group least loaded in failover, then the nearest to the PSUs (module docstring)."""
    best: tuple[tuple, _Strip, Outlet] | None = None
    for strip in strips:
        for members in strip.free.get(wanted, {}).values():
            per_w = strip.amps_per_w[members[0].name]
            cost = strip.cost(members[0], normal_w * per_w, failover_w * per_w, members[0].breaker_a * derating)
            heights = strip.height
            outlet = min(members, key=lambda o: abs(heights[o.name] - height))
            key = (*cost, round(abs(heights[outlet.name] - height), 4))
            if best is None or key < best[0]:
                best = (key, strip, outlet)
    return None if best is None else (best[1], best[2])


def plan_power_cords(doc: Document) -> NetworkGeneration:
    """The power network's step: every rack's cords (``rack_cords``), reconciled with the plan's."""
    memo: PlacementMemo = {}
    wanted = [cord for rack_id in doc.racks for cord in rack_cords(doc, rack_id, memo)]
    cables = reconcile(doc, wanted, scope=list(doc.links_in(POWER)))
    psus = sum(len(psu_names(doc.catalog[d.type].psu_count)) for r in doc.racks for d in psu_devices(doc, r))
    left = psus - len(wanted)
    text = (f"Power cords ({len(wanted):,} of {psus:,} PSUs corded"
            + (f", {left:,} without a free outlet" if left else "") + f"): {cables.summary()}")
    return NetworkGeneration(POWER, cables.commands(), text, cables=cables)
