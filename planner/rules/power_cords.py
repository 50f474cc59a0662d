"""Power-cord rules (issue 21 part 3): every PSU on an outlet of its rack's PDUs (P10), the PSUs
left with one side out carrying the device (P11), each outlet group within its breaker in
failover (P12), each PDU's phases balanced (P13) and each cord within its connector's rating in
failover (P14).

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

Working the records out, each rule first tests every cord at once on the pass's columns
(``cord_columns``: 49k cords at 4,096 nodes) and runs its own code below only for the devices or
PDUs the test leaves (a PSU not on one sound cord, a device short with a side out, a group or a
PDU's phases near the warning); most racks are sound, and say nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import compress

import numpy as np

from planner.fabric.power_cords import PHASE_LINES, lines_of
from planner.model.basis import DesignBasis
from planner.model.catalog import RACK_PDU
from planner.model.cords import (
    SIDES,
    CordType,
    cord_types,
    draw_w,
    outlet_for_inlet,
    phase_imbalance,
    psu_inlet,
)
from planner.model.document import Document
from planner.model.objects import Device
from planner.model.ports import POWER, PSU_INLETS, Outlet
from planner.rules.columns import cable_columns, device_columns
from planner.rules.context import Context
from planner.rules.cord_columns import CordColumns, Load, cord_columns, cord_loads
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.rules.held import Record, held_findings
from planner.rules.scopes import HALL

#: Cable ends and tier, and a device's type, place and names (an added or removed object too).
_READS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.tier",
          "dev.type", "dev.rack", "dev.name", "dev.hostname", "rack.name"}
_SOURCE_P10 = "IEC 60320: a C20 inlet takes a C19 cord and outlet, a C14 a C13; one plug per outlet"


def _amps(current: float) -> str:
    return f"{current:,.1f} A"


def _host(doc: Document, device_id: str) -> str:
    device = doc.devices.get(device_id)
    return doc.hostname(device) if device is not None else device_id


#: How far below a limit the column filters still pass a PDU or device to the rules' own code.
_MARGIN = 1e-9


_BASIS_FIELDS = ("derating", "power_warn_fraction", "voltage_v", "power_factor", "load_basis", "redundancy",
                 "phase_imbalance_warn", "phase_imbalance_error")


def _signature(ctx: Context) -> tuple:
    """Everything the records read: the cords' ids and ends, each device's type and rack, each
    rack PDU's name (its side), the catalogue's power figures and the design basis's. Cheap beside
    the records (the pass's columns as tuples), so an edit that changes none of them (a compute
    cable connected by hand, a rack renamed) only words the records again."""
    doc = ctx.doc
    catalog = doc.catalog.items
    devices = device_columns(ctx)
    pdu = {key: catalog[key].kind == RACK_PDU for key in dict.fromkeys(devices.types)}
    is_pdu = list(map(pdu.__getitem__, devices.types))
    return (cable_columns(ctx, POWER).ends(), devices.ids, devices.types, devices.racks,
            list(compress(devices.ids, is_pdu)), list(compress(devices.names, is_pdu)),
            tuple((key, i.kind, i.psu_count, i.psu_inlet, i.psu_rating_w, i.power_w, i.power_peak_w, i.voltage_v,
                   i.phases, tuple(tuple(g.values()) for g in i.outlet_groups)) for key, i in catalog.items()),
            tuple(getattr(doc.basis, name) for name in _BASIS_FIELDS))


def _held(ctx: Context, r: Rule, check: Callable[[Context], Iterator[Record]]) -> list[Finding]:
    return held_findings(ctx, r, check, _signature, _host, POWER)


# --------------------------------------------------------------------------- P10
def _p10(ctx: Context) -> Iterator[Record]:
    doc = ctx.doc
    cords = cord_columns(ctx)
    devices, ids = cords.devices, cords.cables.ids
    psus_of = [cords.psus[t] for t in devices.type_of[cords.psu_rows].tolist()]
    if not ids and psus_of:
        # cords not planned yet (a plan from before cords, or a layout not yet cabled): one line that
        # says so, as an uncabled compute fabric is not an error either; P10 checks every PSU once
        # the plan has cords
        count = sum(len(psus) for psus in psus_of)
        yield (INFO, tuple(devices.ids[row] for row in cords.psu_rows.tolist()),
               (f"No power cords: {count:,} PSUs of {len(psus_of):,} devices are on no outlet "
               f"(not planned yet; Plan ▸ Generate fabric…, or planner fabric, cords them)"), ())
        return
    # the devices with a PSU not on exactly one cord, or with a cord not sound: the rest say nothing
    rows, width, good = cords.psu_rows, cords.width, cords.good
    on = cords.cords_on[:devices.missing * width].reshape(devices.missing, width)[rows]
    expected = np.arange(width) < cords.psu_count[devices.type_of[rows]][:, None]
    suspect = set(rows[(expected & (on != 1)).any(axis=1)].tolist())
    suspect.update(cords.psu_row[good[~cords.sound[good]]].tolist())
    by_psu = cords.by_psu(suspect)
    wanted_of: dict[str, str] = {}
    for row in sorted(suspect):
        device = doc.devices[devices.ids[row]]
        if device.type not in wanted_of:
            wanted_of[device.type] = outlet_for_inlet(doc, doc.catalog[device.type])
        yield from _psu_problems(ctx, cords, device, cords.psus[devices.type_of[row]], by_psu, wanted_of[device.type])
    key = cords.pdu_row[good] * max(1, cords.port_count) + cords.port_code[good]
    twice = np.bincount(key)[key] > 1
    by_outlet: dict[int, list[int]] = {}
    for outlet, i in zip(key[twice].tolist(), good[twice].tolist(), strict=True):
        by_outlet.setdefault(outlet, []).append(i)
    for at in by_outlet.values():
        pdu_id, outlet_name = cords.pdu_of(at[0])
        named = [ids[i] for i in at]
        yield (ERROR, (pdu_id, *named), f"{{0}} {outlet_name}: {len(named)} cords on one outlet ({', '.join(named)})",
               (pdu_id,))
    for i in cords.stray.tolist():
        link_id = ids[i]
        link = doc.links[link_id]
        ends = (link.a_device, link.a_port, link.b_device, link.b_port)
        yield (ERROR, (link_id,), (f"{link_id}: a power cord from {{0}} {ends[1]} to {{1}} {ends[3]} joins no PSU to "
                                  f"a rack PDU"), (ends[0], ends[2]))


def _psu_problems(ctx: Context, cords: CordColumns, device: Device, psus: list[str],
                  by_psu: dict[tuple[str, str], list[int]], wanted: str) -> Iterator[Record]:
    """What P10 says of one device's PSUs and their cords."""
    devices, ids = ctx.doc.devices, cords.cables.ids
    device_id = device.id
    for psu in psus:
        at = by_psu.get((device_id, psu), [])
        if not at:
            yield (ERROR, (device_id,), (f"{{0}} {psu}: no power cord (wants a {wanted} outlet of a rack PDU "
                                        f"in its rack)"), (device_id,))
        elif len(at) > 1:
            named = [ids[i] for i in at]
            yield (ERROR, (device_id, *named), f"{{0}} {psu}: {len(named)} power cords ({', '.join(named)})",
                   (device_id,))
        for i in at:
            pdu_id, port = cords.pdu_of(i)
            pdu = devices[pdu_id]
            on = cords.outlets_by_type[pdu.type].get(port)
            if pdu.rack != device.rack or on is None or on.outlet != wanted:  # else sound
                yield from _cord_problems(ctx, cords, ids[i], pdu_id, device_id, psu, wanted)


def _cord_problems(ctx: Context, cords: CordColumns, link_id: str, pdu_id: str, device_id: str, psu: str,
                   wanted: str) -> Iterator[Record]:
    doc = ctx.doc
    link = doc.links[link_id]
    port = link.b_port if link.b_device == pdu_id else link.a_port
    pdu = doc.devices[pdu_id]
    where, named = f"{{0}} {psu} on {{1}} {port}", (device_id, pdu_id)
    if pdu.rack != doc.devices[device_id].rack:
        yield ERROR, (device_id, link_id), f"{where}: the PDU is in another rack", named
    outlet = cords.outlets_by_type[pdu.type].get(port)
    if outlet is None:
        yield ERROR, (device_id, link_id), f"{where}: the PDU has no outlet {port}", named
    elif outlet.outlet != wanted:
        item = doc.catalog[doc.devices[device_id].type]
        inlet = item.psu_inlet or f"not given (taken as {psu_inlet(doc, item)})"
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
    loads = cord_loads(ctx)
    rows = loads.cords.psu_rows
    types = loads.cords.devices.type_of[rows]
    items = [doc.catalog[key] for key in loads.cords.devices.type_keys]
    rating = np.array([item.psu_rating_w or 0.0 for item in items] + [0.0], float)[types]
    corded, draw = loads.corded[rows], loads.draw[rows]
    # a device whose PSUs carry it on either side says nothing (the same sums as below, a margin more)
    short = np.zeros(len(rows), bool)
    for on_side in loads.on_side:
        short |= (corded - on_side[rows]) * rating < draw + 1e-3
    suspect = rows[(corded > 0) & (rating != 0) & short].tolist()
    for row, found in loads.corded_of(suspect).items():
        device_id = loads.cords.devices.ids[row]
        item = doc.catalog[doc.devices[device_id].type]
        if not found or not item.psu_rating_w:
            continue  # P10 says a device has no cords; a PSU without a rating cannot be checked
        draw_now = draw_w(doc, item)
        watts = item.psu_rating_w
        for out in SIDES:
            left = sum(1 for _psu, pdu, _o in found if _side(loads.cords, pdu) != out)
            if left * watts < draw_now - 1e-6:
                yield (ERROR, (device_id,), (f"{{0}}: with side {out} out {left} PSU{'s' if left != 1 else ''} × "
                                            f"{watts:,.0f} W = {left * watts:,.0f} W < {draw_now:,.0f} W "
                                            f"{basis.load_basis}"), (device_id,))


def _side(cords: CordColumns, pdu_id: str) -> str | None:
    """A PDU's side, as ``pdu_sides`` gives it."""
    code = int(cords.side[cords.devices.row[pdu_id]])
    return SIDES[code] if code >= 0 else None


@rule("P11", scope=HALL, reads=_READS, basis=("redundancy", "load_basis"), title="PSUs carry the device with one side out",
      source="2N A/B feeds: the PSUs on the side that remains carry the device (catalogue PSU rating)")
def side_out(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p11)


# --------------------------------------------------------------------------- P12, P13
def _p12(ctx: Context) -> Iterator[Record]:
    basis = ctx.doc.basis
    loads = cord_loads(ctx)
    cords = loads.cords
    # the PDUs with a group near its warning (the groups' sums as _group_problems adds them)
    outlets = cords.outlet[loads.at]
    group = np.array([o.group for o in cords.outlets] + [0], np.intp)[outlets]
    limit = np.array([basis.power_warn_fraction * (o.breaker_a * basis.derating) for o in cords.outlets] + [0.0],
                     float)[outlets]
    key = cords.pdu_row[loads.at] * (int(group.max(initial=0)) + 1) + group
    current = np.bincount(key, weights=loads.failover)[key]
    near = cords.pdu_row[loads.at][current > limit - _MARGIN * (np.abs(limit) + 1)]
    # As P13: a PDU's groups follow from its type and its cords' outlets and currents in order.
    alike: dict[tuple, list[tuple[str, str, list[int]]]] = {}
    at, outlet, _normal, failover, _starts = loads.sequence
    ids = cords.cables.ids
    for row, start, end in loads.runs(np.unique(near)):
        pdu_type = cords.devices.types[row]
        kind = (pdu_type, tuple(outlet[start:end]), tuple(failover[start:end]))
        known = alike.get(kind)
        if known is None:
            known = alike[kind] = list(_group_problems(basis, cords.outlets_by_type[pdu_type],
                                                       loads.loads_at(start, end)))
        pdu_id = cords.devices.ids[row]
        for severity, text, members in known:
            yield severity, (pdu_id, *(ids[at[start + i]] for i in members)), "{0} " + text, (pdu_id,)


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
        span = names[0] if names[0] == names[-1] else f"{names[0]}–{names[-1]}"
        text = (f"group {number + 1} ({span}, {outlet.outlet}, {outlet.phase}): {_amps(current)} "
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
    loads = cord_loads(ctx)
    cords = loads.cords
    # the three-phase PDUs near the warning (their lines as _lines adds them, as phase_imbalance)
    rows = loads.pdu_rows
    three = np.array([doc.catalog[key].phases == 3 for key in cords.devices.type_keys] + [False])
    rows = rows[three[cords.devices.type_of[rows]]]
    lines = loads.lines()[rows]
    average = lines.sum(axis=1) / len(PHASE_LINES)
    spread = np.abs(lines - average[:, None]).max(axis=1, initial=0.0)
    warn = basis.phase_imbalance_warn
    if warn > _MARGIN:
        rows = rows[(average > 0) & (spread > (warn - _MARGIN * (warn + 1)) * average)]
    # A PDU's figures and move follow from its type and its cords' outlets and currents in order:
    # the PDUs of a hall's racks are a few alike kinds, each worked out once.
    alike: dict[tuple, tuple[dict[str, float], float, tuple[int, Outlet] | None]] = {}
    positions, outlet, normal, _failover, _starts = loads.sequence
    for row, start, end in loads.runs(rows):
        pdu_type = cords.devices.types[row]
        kind = (pdu_type, tuple(outlet[start:end]), tuple(normal[start:end]))
        known = alike.get(kind)
        if known is None:
            found = loads.loads_at(start, end)
            lines_now = _lines(found)
            imbalance = phase_imbalance(lines_now)
            move = better_move(cords.outlets_by_type[pdu_type], found) if imbalance > basis.phase_imbalance_warn else None
            at = None if move is None else ([cord[0] for cord in found].index(move[0]), move[1])
            known = alike[kind] = lines_now, imbalance, at
        lines_now, imbalance, at = known
        if imbalance <= basis.phase_imbalance_warn or at is None:
            continue
        pdu_id = cords.devices.ids[row]
        moved = cords.cables.ids[positions[start + at[0]]], at[1]
        severity = ERROR if imbalance > basis.phase_imbalance_error else WARNING
        limit = basis.phase_imbalance_error if severity == ERROR else basis.phase_imbalance_warn
        currents = " / ".join(f"{line} {_amps(i)}" for line, i in lines_now.items())
        figures = f"phases {currents}, imbalance {imbalance:.0%} (max |I − I_avg| / I_avg), limit {limit:.0%}"
        link = doc.links[moved[0]]
        device, psu = (link.a_device, link.a_port) if link.b_device == pdu_id else (link.b_device, link.b_port)
        yield (severity, (pdu_id, moved[0]), (f"{{0}}: {figures}; the cord of {{1}} {psu} could move to {moved[1].name} "
                                             f"({moved[1].phase})"), (pdu_id, device))


@rule("P13", scope=HALL, reads=_READS, basis=("phase_imbalance_warn", "phase_imbalance_error", "voltage_v",
                                              "power_factor", "load_basis"),
      source_field="phase_imbalance_error", title="Phase balance on a rack PDU")
def pdu_phase_balance(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p13)


# --------------------------------------------------------------------------- P14
def _p14(ctx: Context) -> Iterator[Record]:
    """Each corded PSU's cord with the other side out against its connector's rating (the cord
    that mates the outlet: C13–C14 10 A, C19–C20 16 A). A breaker protects the group (P12); the
    coupler itself is rated for its current alone (IEC 60320), so a 2.7 kW PSU on a C13 is an
    error even on a group of its own."""
    loads = cord_loads(ctx)
    cords = loads.cords
    types = cord_types()
    rating = np.array([types[o.outlet].rating_a if o.outlet in types else np.inf for o in cords.outlets] + [np.inf],
                      float)
    over = np.flatnonzero(loads.failover > rating[cords.outlet[loads.at]] + _MARGIN)
    ids = cords.cables.ids
    for k in over.tolist():
        i = int(loads.at[k])
        pdu_id, port = cords.pdu_of(i)
        device_id = cords.devices.ids[cords.psu_row[i]]
        cord = types[cords.outlets[cords.outlet[i]].outlet]
        yield (ERROR, (device_id, ids[i], pdu_id),
               (f"{{0}} {cords.psu_port[i]} on {{1}} {port}: {_amps(float(loads.failover[k]))} with the other side "
                f"out, above the {cord.name[len('Power cord '):].replace(' to ', '–')} cord's {cord.rating_a:g} A "
                f"(IEC 60320); {_stronger(types, float(loads.failover[k]))}"), (device_id, pdu_id))


def _stronger(types: dict[str, CordType], amps: float) -> str:
    """What would carry ``amps``: the inlet and outlet of the least cord rated for it, else none."""
    fitting = sorted((cord.rating_a, outlet) for outlet, cord in types.items() if cord.rating_a + _MARGIN >= amps)
    if not fitting:
        return "no bundled cord is rated for it: more PSUs share the device"
    inlet = next(inlet for inlet, outlet in PSU_INLETS.items() if outlet == fitting[0][1])
    return f"it wants a {inlet} inlet on a {fitting[0][1]} outlet"


@rule("P14", scope=HALL, reads=_READS, basis=("voltage_v", "power_factor", "load_basis"),
      source="IEC 60320: a C13–C14 coupler is rated 10 A, a C19–C20 16 A (resources/catalog/cords.json)",
      title="Each power cord within its connector's rating with one side out")
def cord_rating(ctx: Context, subject: str, r: Rule) -> list[Finding]:
    return _held(ctx, r, _p14)
