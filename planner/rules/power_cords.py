"""Power-cord rules (issue 21 part 3): every PSU on an outlet of its rack's PDUs (P10), the PSUs
left with one side out carrying the device (P11), each outlet group within its breaker in
failover (P12) and each PDU's phases balanced (P13).

A cord's current is I = P / (V · PF) at its outlet's voltage (``planner.model.cords``: line to
neutral on a three-phase PDU's single-phase outlet, 415 V / √3 ≈ 240 V; line to line on a phase
pair). A device's draw (the design basis's ``load_basis``) is shared evenly over its PSUs corded
in its rack with both sides up, and over those of the side that remains when the other fails. A
PDU's side is read from its name (``rack_pdu_sides``, ``pdu_sides``).

The four rules are about the whole hall: a cord's edit touches no rack or device the engine
would re-check. What they find is kept as records (ids and figures) across passes while what
they read stays the same (``_signature``: the cords' ends, the devices' types and racks, the PDUs'
names, the power figures of the catalogue and the basis); each pass only words the records with
the names of now, so renaming a rack or cabling a compute port by hand does not walk a hall's
cords again, and a rack nudge does not run them at all (they read no position).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from planner.fabric.power_cords import PHASE_LINES, lines_of
from planner.model.basis import DesignBasis
from planner.model.catalog import RACK_PDU
from planner.model.cords import (
    SIDES,
    cord_current_a,
    draw_w,
    outlet_for_inlet,
    pdu_sides,
    phase_imbalance,
)
from planner.model.document import Document
from planner.model.ports import POWER, Outlet, psu_names
from planner.rules.context import Context
from planner.rules.engine import HALL, Rule, rule
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.rules.held import Record, held_findings

#: Cable ends and tier, and a device's type, place and names (an added or removed object too).
_READS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.tier",
          "dev.type", "dev.rack", "dev.name", "dev.hostname", "rack.name"}
_SOURCE_P10 = "IEC 60320: a C20 inlet takes a C19 cord and outlet, a C14 a C13; one plug per outlet"

#: A cord on a PDU: cord id, outlet, current with both sides up, with the other side out (A).
Load = tuple[str, Outlet, float, float]


def _amps(current: float) -> str:
    return f"{current:,.1f} A"


def _host(doc: Document, device_id: str) -> str:
    device = doc.devices.get(device_id)
    return doc.hostname(device) if device is not None else device_id


@dataclass
class CordIndex:
    """The power cords by PSU and by outlet, the PDU each plugs into and the outlet name on it
    (``ends``), the cords that join no PSU to a PDU (``stray``), each rack PDU's side, each PDU
    type's outlets by name, and the devices with PSUs with their PSU names."""

    by_psu: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    by_outlet: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    pdus: dict[str, str] = field(default_factory=dict)
    ends: dict[str, tuple[str, str]] = field(default_factory=dict)
    stray: list[str] = field(default_factory=list)
    sides: dict[str, str] = field(default_factory=dict)
    outlets: dict[str, dict[str, Outlet]] = field(default_factory=dict)
    psu_devices: list[tuple[str, list[str]]] = field(default_factory=list)
    #: ``corded``'s answer per device: P11 and the cord loads (P12, P13) both ask it of every device.
    _corded: dict[str, list[tuple[str, str, Outlet]]] = field(default_factory=dict)

    def corded(self, doc: Document, device_id: str, psus: list[str]) -> list[tuple[str, str, Outlet]]:
        """(PSU, PDU id, outlet) of a device's PSUs on exactly one cord to an outlet of a PDU in
        its rack (anything else is P10's, and carries nothing here); do not change the list."""
        found = self._corded.get(device_id)
        if found is not None:
            return found
        rack = doc.devices[device_id].rack
        devices = doc.devices
        found = self._corded[device_id] = []
        for psu in psus:
            cords = self.by_psu.get((device_id, psu), [])
            if len(cords) != 1:
                continue
            pdu_id, port = self.ends[cords[0]]
            pdu = devices[pdu_id]
            outlet = self.outlets[pdu.type].get(port)
            if outlet is not None and pdu.rack == rack:
                found.append((psu, pdu_id, outlet))
        return found


def cord_index(ctx: Context) -> CordIndex:
    """The cords indexed once per pass that needs them (a loop over 49k cords at 32k GPUs, each
    device type's figures looked up once)."""
    def build() -> CordIndex:
        doc = ctx.doc
        catalog, devices = doc.catalog, doc.devices
        index = CordIndex()
        kinds = {key: catalog[key].kind for key in {device.type for device in devices.values()}}
        psus: dict[str, list[str]] = {}
        for key, kind in kinds.items():
            item = catalog[key]
            psus[key] = psu_names(item.psu_count) if kind != RACK_PDU else []
            if kind == RACK_PDU:
                index.outlets[key] = {o.name: o for o in item.outlets()}
        index.psu_devices = [(device.id, psus[device.type]) for device in devices.values() if psus[device.type]]
        psu_sets = {key: frozenset(names) for key, names in psus.items()}
        psus_of = {device.id: psu_sets[device.type] for device in devices.values()}  # a device not in the plan has none
        pdu_ids = {device.id for device in devices.values() if kinds[device.type] == RACK_PDU}
        by_psu, by_outlet, pdus, ends, stray = index.by_psu, index.by_outlet, index.pdus, index.ends, index.stray
        none: frozenset[str] = frozenset()
        for link in doc.links_in(POWER).values():
            a_pdu = link.a_device in pdu_ids
            if a_pdu == (link.b_device in pdu_ids):
                stray.append(link.id)
                continue
            if a_pdu:
                psu, pdu = (link.b_device, link.b_port), (link.a_device, link.a_port)
            else:
                psu, pdu = (link.a_device, link.a_port), (link.b_device, link.b_port)
            if psu[1] not in psus_of.get(psu[0], none):
                stray.append(link.id)
                continue
            by_psu.setdefault(psu, []).append(link.id)
            by_outlet.setdefault(pdu, []).append(link.id)
            pdus[link.id] = pdu[0]
            ends[link.id] = pdu
        for rack_id in {devices[pdu_id].rack for pdu_id in set(pdus.values())}:
            index.sides.update(pdu_sides([d for d in doc.devices_in(rack_id, ordered=False) if d.id in pdu_ids]))
        return index
    return ctx.memo("power cords", build)


_BASIS_FIELDS = ("derating", "power_warn_fraction", "voltage_v", "power_factor", "load_basis", "redundancy",
                 "phase_imbalance_warn", "phase_imbalance_error")


def _signature(doc: Document) -> tuple:
    """Everything the records read: the cords' ends, each device's type and rack, each rack PDU's
    name (its side), the catalogue's power figures and the design basis's. Cheap beside the
    records (a tuple per cord and device), so an edit that changes none of them (a compute cable
    connected by hand, a rack renamed) only words the records again."""
    catalog = doc.catalog.items
    kinds = {key: item.kind for key, item in catalog.items()}
    return (tuple((c.a_device, c.a_port, c.b_device, c.b_port) for c in doc.links_in(POWER).values()),
            tuple((d.id, d.type, d.rack) for d in doc.devices.values()),
            tuple((d.id, d.name) for d in doc.devices.values() if kinds[d.type] == RACK_PDU),
            tuple((key, i.kind, i.psu_count, i.psu_inlet, i.psu_rating_w, i.power_w, i.power_peak_w, i.voltage_v,
                   i.phases, tuple(tuple(g.values()) for g in i.outlet_groups)) for key, i in catalog.items()),
            tuple(getattr(doc.basis, name) for name in _BASIS_FIELDS))


def _held(ctx: Context, r: Rule, check: Callable[[Context], Iterator[Record]]) -> list[Finding]:
    return held_findings(ctx, r, check, _signature, _host, POWER)


# --------------------------------------------------------------------------- P10
def _p10(ctx: Context) -> Iterator[Record]:
    doc = ctx.doc
    index = cord_index(ctx)
    if not index.by_psu and not index.stray and index.psu_devices:
        # cords not planned yet (a plan from before cords, or a layout not yet cabled): one line that
        # says so, as an uncabled compute fabric is not an error either; P10 checks every PSU once
        # the plan has cords
        count = sum(len(psus) for _device, psus in index.psu_devices)
        yield (INFO, tuple(device for device, _psus in index.psu_devices),
               (f"No power cords: {count:,} PSUs of {len(index.psu_devices):,} devices are on no outlet "
               f"(not planned yet; Plan ▸ Generate fabric…, or planner fabric, cords them)"), ())
        return
    devices, outlets_of, pdu_ends = doc.devices, index.outlets, index.ends
    wanted_of = {key: outlet_for_inlet(doc.catalog[key]) for key in {devices[d].type for d, _psus in index.psu_devices}}
    for device_id, psus in index.psu_devices:
        device = devices[device_id]
        wanted = wanted_of[device.type]
        for psu in psus:
            cords = index.by_psu.get((device_id, psu), [])
            if not cords:
                yield (ERROR, (device_id,), (f"{{0}} {psu}: no power cord (wants a {wanted} outlet of a rack PDU "
                                            f"in its rack)"), (device_id,))
            elif len(cords) > 1:
                yield (ERROR, (device_id, *cords), f"{{0}} {psu}: {len(cords)} power cords ({', '.join(cords)})",
                       (device_id,))
            for link_id in cords:
                pdu_id, port = pdu_ends[link_id]
                pdu = devices[pdu_id]
                on = outlets_of[pdu.type].get(port)
                if pdu.rack != device.rack or on is None or on.outlet != wanted:  # else sound
                    yield from _cord_problems(ctx, index, link_id, device_id, psu, wanted)
    for (pdu_id, outlet), cords in index.by_outlet.items():
        if len(cords) > 1:
            yield (ERROR, (pdu_id, *cords), f"{{0}} {outlet}: {len(cords)} cords on one outlet ({', '.join(cords)})",
                   (pdu_id,))
    for link_id in index.stray:
        link = doc.links[link_id]
        ends = (link.a_device, link.a_port, link.b_device, link.b_port)
        yield (ERROR, (link_id,), (f"{link_id}: a power cord from {{0}} {ends[1]} to {{1}} {ends[3]} joins no PSU to "
                                  f"a rack PDU"), (ends[0], ends[2]))


def _cord_problems(ctx: Context, index: CordIndex, link_id: str, device_id: str, psu: str,
                   wanted: str) -> Iterator[Record]:
    doc = ctx.doc
    link = doc.links[link_id]
    pdu_id = index.pdus[link_id]
    port = link.b_port if link.b_device == pdu_id else link.a_port
    pdu = doc.devices[pdu_id]
    where, named = f"{{0}} {psu} on {{1}} {port}", (device_id, pdu_id)
    if pdu.rack != doc.devices[device_id].rack:
        yield ERROR, (device_id, link_id), f"{where}: the PDU is in another rack", named
    outlet = index.outlets[pdu.type].get(port)
    if outlet is None:
        yield ERROR, (device_id, link_id), f"{where}: the PDU has no outlet {port}", named
    elif outlet.outlet != wanted:
        inlet = doc.catalog[doc.devices[device_id].type].psu_inlet or "not given (taken as C14)"
        yield (ERROR, (device_id, link_id), f"{where}: a {outlet.outlet} outlet; the PSU inlet {inlet} takes a {wanted}",
               named)


@rule("P10", scope=HALL, reads=_READS, source=_SOURCE_P10, title="Every PSU corded to an outlet of its rack's PDUs")
def psus_corded(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p10)


# --------------------------------------------------------------------------- P11
def _p11(ctx: Context) -> Iterator[Record]:
    doc, basis = ctx.doc, ctx.doc.basis
    if basis.redundancy != "2N":
        return
    index = cord_index(ctx)
    for device_id, psus in index.psu_devices:
        item = doc.catalog[doc.devices[device_id].type]
        corded = index.corded(doc, device_id, psus)
        if not corded or not item.psu_rating_w:
            continue  # P10 says a device has no cords; a PSU without a rating cannot be checked
        draw = draw_w(doc, item)
        rating = item.psu_rating_w
        for out in SIDES:
            left = sum(1 for _psu, pdu, _o in corded if index.sides.get(pdu) != out)
            if left * rating < draw - 1e-6:
                yield (ERROR, (device_id,), (f"{{0}}: with side {out} out {left} PSU{'s' if left != 1 else ''} × "
                                            f"{rating:,.0f} W = {left * rating:,.0f} W < {draw:,.0f} W "
                                            f"{basis.load_basis}"), (device_id,))


@rule("P11", scope=HALL, reads=_READS, basis=("redundancy", "load_basis"), title="PSUs carry the device with one side out",
      source="2N A/B feeds: the PSUs on the side that remains carry the device (catalogue PSU rating)")
def side_out(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p11)


# --------------------------------------------------------------------------- P12, P13
def cord_loads(ctx: Context) -> dict[str, list[Load]]:
    """Each PDU's cords from devices of its rack: (cord id, outlet, current both sides up, with
    the other side out)."""
    def build() -> dict[str, list[Load]]:
        doc = ctx.doc
        catalog, devices = doc.catalog, doc.devices
        index = cord_index(ctx)
        sides = index.sides
        loads: dict[str, list[Load]] = {}
        draws: dict[str, float] = {}  # per device type
        amps: dict[tuple[str, str], float] = {}  # a watt's current per PDU type and outlet phase
        for device_id, psus in index.psu_devices:
            corded = index.corded(doc, device_id, psus)
            if not corded:
                continue
            key = devices[device_id].type
            if key not in draws:
                draws[key] = draw_w(doc, catalog[key])
            draw = draws[key]
            per_side = dict.fromkeys(SIDES, 0)
            for _p, pdu, _o in corded:
                side = sides.get(pdu)
                if side in per_side:
                    per_side[side] += 1
            for psu, pdu_id, outlet in corded:
                phase_key = (devices[pdu_id].type, outlet.phase)
                per_w = amps.get(phase_key)
                if per_w is None:
                    per_w = amps[phase_key] = cord_current_a(doc, catalog[phase_key[0]], outlet.phase, 1.0)
                loads.setdefault(pdu_id, []).append(
                    (index.by_psu[(device_id, psu)][0], outlet, draw / len(corded) * per_w,
                     draw / per_side.get(index.sides.get(pdu_id, ""), len(corded)) * per_w))
        return loads
    return ctx.memo("power cord loads", build)


def _p12(ctx: Context) -> Iterator[Record]:
    doc, basis = ctx.doc, ctx.doc.basis
    index = cord_index(ctx)
    # As P13: a PDU's groups follow from its type and its cords' outlets and currents in order.
    alike: dict[tuple, list[tuple[str, str, list[int]]]] = {}
    for pdu_id, cords in cord_loads(ctx).items():
        pdu_type = doc.devices[pdu_id].type
        kind = (pdu_type, *((outlet.name, failover) for _link, outlet, _normal, failover in cords))
        found = alike.get(kind)
        if found is None:
            found = alike[kind] = list(_group_problems(basis, index.outlets[pdu_type], cords))
        for severity, text, members in found:
            yield severity, (pdu_id, *(cords[i][0] for i in members)), "{0} " + text, (pdu_id,)


def _group_problems(basis: DesignBasis, outlets: dict[str, Outlet],
                    cords: list[Load]) -> Iterator[tuple[str, str, list[int]]]:
    """(severity, text, the cords' places in ``cords``) of each outlet group of a PDU over the warning."""
    groups: dict[int, list[int]] = {}
    for i, cord in enumerate(cords):
        groups.setdefault(cord[1].group, []).append(i)
    for number, at in sorted(groups.items()):
        members = [cords[i] for i in at]
        outlet = members[0][1]
        current = sum(failover for *_rest, failover in members)
        derated = outlet.breaker_a * basis.derating
        if current <= basis.power_warn_fraction * derated:
            continue
        names = [o.name for o in outlets.values() if o.group == number]
        severity = ERROR if current > derated + 1e-9 else WARNING
        above = "" if severity == ERROR else f": above {basis.power_warn_fraction:.0%}"
        text = (f"group {number + 1} ({names[0]}–{names[-1]}, {outlet.outlet}, {outlet.phase}): {_amps(current)} "
                f"on {len(members)} cord{'s' if len(members) != 1 else ''} with the other side out, breaker "
                f"{outlet.breaker_a:g} A × {basis.derating:g} = {_amps(derated)}{above}")
        yield severity, text, at


@rule("P12", scope=HALL, reads=_READS, basis=("derating", "power_warn_fraction", "voltage_v", "power_factor",
                                              "load_basis"),
      source_field="derating", title="Outlet group within its breaker with one side out")
def group_breaker(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p12)


def _lines(cords: list[Load]) -> dict[str, float]:
    lines = dict.fromkeys(PHASE_LINES, 0.0)
    for _link, outlet, normal, _failover in cords:
        for line in lines_of(outlet.phase):
            lines[line] += normal
    return lines


def better_move(outlets: dict[str, Outlet], cords: list[Load]) -> tuple[str, Outlet] | None:
    """A cord and a free outlet of its type on other lines that would make the PDU's phases more
    even, or None when no single move does (the cords' own granularity: 4 cords on 3 phases)."""
    used = {outlet.name for _link, outlet, _n, _f in cords}
    free: dict[tuple[str, str], Outlet] = {}  # the first free outlet of each type and phase
    for candidate in outlets.values():
        if candidate.name not in used:
            free.setdefault((candidate.outlet, candidate.phase), candidate)
    lines = _lines(cords)
    now = phase_imbalance(lines)
    tried = set()
    for link_id, outlet, normal, _failover in cords:
        if (outlet.outlet, outlet.phase, round(normal, 6)) in tried:
            continue  # a cord like one tried already moves the same way
        tried.add((outlet.outlet, outlet.phase, round(normal, 6)))
        for target in free.values():
            if target.outlet != outlet.outlet or lines_of(target.phase) == lines_of(outlet.phase):
                continue
            moved = dict(lines)
            for line in lines_of(outlet.phase):
                moved[line] -= normal
            for line in lines_of(target.phase):
                moved[line] += normal
            if phase_imbalance(moved) < now - 1e-6:
                return link_id, target
    return None


def _p13(ctx: Context) -> Iterator[Record]:
    """As P3 for a busbar: max |I − I_avg| / I_avg over the PDU's lines with both sides up. An
    imbalance no single cord can lessen by moving to a free outlet of its type is what the cords'
    count allows (4 cords on 3 phases) and is not reported."""
    doc, basis = ctx.doc, ctx.doc.basis
    index = cord_index(ctx)
    # A PDU's figures and move follow from its type and its cords' outlets and currents in order:
    # the PDUs of a hall's racks are a few alike kinds, each worked out once.
    alike: dict[tuple, tuple[dict[str, float], float, tuple[int, Outlet] | None]] = {}
    for pdu_id, cords in cord_loads(ctx).items():
        pdu = doc.devices[pdu_id]
        if doc.catalog[pdu.type].phases != 3:
            continue
        kind = (pdu.type, *((outlet.name, normal) for _link, outlet, normal, _failover in cords))
        known = alike.get(kind)
        if known is None:
            lines = _lines(cords)
            imbalance = phase_imbalance(lines)
            found = better_move(index.outlets[pdu.type], cords) if imbalance > basis.phase_imbalance_warn else None
            at = None if found is None else ([cord[0] for cord in cords].index(found[0]), found[1])
            known = alike[kind] = lines, imbalance, at
        lines, imbalance, at = known
        if imbalance <= basis.phase_imbalance_warn or at is None:
            continue
        move = cords[at[0]][0], at[1]
        severity = ERROR if imbalance > basis.phase_imbalance_error else WARNING
        limit = basis.phase_imbalance_error if severity == ERROR else basis.phase_imbalance_warn
        currents = " / ".join(f"{line} {_amps(i)}" for line, i in lines.items())
        figures = f"phases {currents}, imbalance {imbalance:.0%} (max |I − I_avg| / I_avg), limit {limit:.0%}"
        link = doc.links[move[0]]
        device, psu = (link.a_device, link.a_port) if link.b_device == pdu_id else (link.b_device, link.b_port)
        yield (severity, (pdu_id, move[0]), (f"{{0}}: {figures}; the cord of {{1}} {psu} could move to {move[1].name} "
                                            f"({move[1].phase})"), (pdu_id, device))


@rule("P13", scope=HALL, reads=_READS, basis=("phase_imbalance_warn", "phase_imbalance_error", "voltage_v",
                                              "power_factor", "load_basis"),
      source_field="phase_imbalance_error", title="Phase balance on a rack PDU")
def pdu_phase_balance(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p13)
