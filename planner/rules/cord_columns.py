"""The power cords of a pass as columns (``columns``) for P10–P13 (``power_cords``): which cords
join a PSU to a rack PDU (the rest are strays), each such cord's PSU, outlet and whether it is
sound, and each corded PSU's current as the rules work it out, for every cord at once.

The rules use them as filters: P10 words only the devices whose PSUs are not each on one sound
cord, P11 the devices whose figures fall short, P12 and P13 the PDUs whose groups or phases come
near their limits, each with the rules' own per-object code. The figures here are the rules' own
(the same operations in the same order, so the same floats); the filters also leave a margin,
so they can only ever pass an object too many, never one too few.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import repeat

import numpy as np

from planner.fabric.power_cords import PHASE_LINES, lines_of
from planner.model.catalog import RACK_PDU
from planner.model.cords import (
    SIDES,
    cord_current_a,
    draw_w,
    outlet_for_inlet,
    pdu_sides,
    side_in_name,
)
from planner.model.ports import POWER, Outlet, psu_names
from planner.rules.columns import CableColumns, DeviceColumns, cable_columns, codes, device_columns
from planner.rules.context import Context

#: A cord on a PDU: cord id, outlet, current with both sides up, with the other side out (A).
Load = tuple[str, Outlet, float, float]


@dataclass
class CordColumns:
    """The cords (``cables``, in ``links_in`` order) and devices (``devices``' rows), and:

    - ``psus``: each type's PSU names (none for a rack PDU), ``psu_rows`` the rows of the devices
      with PSUs in plan order, ``width`` the most PSUs of a type (each PSU's key is row · width +
      its number − 1);
    - per cord: ``joins`` (a PSU of a device to a rack PDU; the others are ``stray``, in order),
      and for those the PSU's row, key and port, the PDU's row and port, the outlet (an index
      into ``outlets``, −1 when the PDU type has none of that name) and ``same_rack``;
    - ``cords_on``: how many joining cords each PSU key has; ``side``: each PDU row's side
      (0 A, 1 B; ``pdu_sides`` by rack).
    """

    cables: CableColumns
    devices: DeviceColumns
    psus: list[list[str]]
    psu_count: np.ndarray
    psu_rows: np.ndarray
    width: int
    joins: np.ndarray
    stray: np.ndarray
    good: np.ndarray
    psu_row: np.ndarray
    psu_key: np.ndarray
    psu_port: list[str]
    pdu_row: np.ndarray
    pdu_port: list[str]
    port_code: np.ndarray
    port_count: int
    outlet: np.ndarray
    outlets: list[Outlet]
    outlet_types: list[str]
    outlets_by_type: dict[str, dict[str, Outlet]]
    sound: np.ndarray
    same_rack: np.ndarray
    cords_on: np.ndarray
    side: np.ndarray

    def by_psu(self, rows: set[int]) -> dict[tuple[str, str], list[int]]:
        """The positions of the joining cords of the PSUs of the devices ``rows``, by (device id,
        PSU), in order."""
        device_ids = self.devices.ids
        found: dict[tuple[str, str], list[int]] = {}
        at = self.good[np.isin(self.psu_row[self.good], list(rows))]
        for i in at.tolist():
            found.setdefault((device_ids[self.psu_row[i]], self.psu_port[i]), []).append(i)
        return found

    def pdu_of(self, i: int) -> tuple[str, str]:
        """The PDU id and outlet name of the joining cord at ``i``."""
        return self.devices.ids[self.pdu_row[i]], self.pdu_port[i]


def cord_columns(ctx: Context) -> CordColumns:
    """The cords' columns, once per pass."""
    def build() -> CordColumns:
        doc = ctx.doc
        devices, cables = device_columns(ctx), cable_columns(ctx, POWER)
        items = [doc.catalog[key] for key in devices.type_keys]
        pdu_type = np.array([item.kind == RACK_PDU for item in items] + [False])
        psus = [psu_names(item.psu_count) if item.kind != RACK_PDU else [] for item in items] + [[]]
        psu_count = np.array([len(names) for names in psus], np.intp)
        width = max(1, int(psu_count.max()))
        is_pdu = pdu_type[devices.type_of]
        a_row, b_row = cables.a_row, cables.b_row
        a_pdu, b_pdu = is_pdu[a_row], is_pdu[b_row]
        psu_row, pdu_row = np.where(b_pdu, a_row, b_row), np.where(b_pdu, b_row, a_row)
        psu_port, pdu_port = cables.a_port, cables.b_port
        flipped = np.flatnonzero(a_pdu & ~b_pdu)
        if len(flipped):  # a cord drawn from the PDU to the PSU
            psu_port, pdu_port = list(psu_port), list(pdu_port)
            for i in flipped.tolist():
                psu_port[i], pdu_port[i] = cables.b_port[i], cables.a_port[i]
        number = {name: i for i, name in enumerate(psu_names(width))}
        psu_k = np.fromiter(map(number.get, psu_port, repeat(-1)), np.intp, len(psu_port))
        joins = (a_pdu != b_pdu) & (psu_k >= 0) & (psu_k < psu_count[devices.type_of[psu_row]])
        good, stray = np.flatnonzero(joins), np.flatnonzero(~joins)
        psu_key = np.where(joins, psu_row * width + psu_k, 0)
        cords_on = np.bincount(psu_key[good], minlength=(devices.missing + 1) * width)
        # the outlet of each cord: a table of (PDU type, outlet name) → an index into ``outlets``
        port_code, port_names = codes(pdu_port)
        table = np.full((len(items) + 1, max(1, len(port_names))), -1, np.intp)
        outlets: list[Outlet] = []
        outlet_types: list[str] = []
        by_type: dict[str, dict[str, Outlet]] = {}
        name_code = {name: i for i, name in enumerate(port_names)}
        for t, item in enumerate(items):
            if item.kind == RACK_PDU:
                by_name = by_type[devices.type_keys[t]] = {o.name: o for o in item.outlets()}
                for name, one in by_name.items():
                    if name in name_code:
                        table[t, name_code[name]] = len(outlets)
                        outlets.append(one)
                        outlet_types.append(devices.type_keys[t])
        outlet = table[devices.type_of[pdu_row], port_code] if len(port_names) else np.full(len(pdu_port), -1)
        kind_code = {kind: i for i, kind in enumerate(dict.fromkeys(o.outlet for o in outlets))}
        outlet_kind = np.array([kind_code[o.outlet] for o in outlets] + [-1], np.intp)
        wanted = np.array([kind_code.get(outlet_for_inlet(doc, item), -2) for item in items] + [-2], np.intp)
        same_rack = devices.rack_of[psu_row] == devices.rack_of[pdu_row]
        sound = same_rack & (outlet >= 0) & (outlet_kind[outlet] == wanted[devices.type_of[psu_row]])
        psu_rows = np.flatnonzero(psu_count[devices.type_of[:devices.missing]] > 0)
        return CordColumns(cables, devices, psus, psu_count, psu_rows, width, joins, stray, good, psu_row,
                           psu_key, psu_port, pdu_row, pdu_port, port_code, len(port_names), outlet, outlets,
                           outlet_types, by_type, sound, same_rack, cords_on, _sides(ctx, devices, is_pdu))
    return ctx.memo("power cord columns", build)


def _sides(ctx: Context, devices: DeviceColumns, is_pdu: np.ndarray) -> np.ndarray:
    """Each rack PDU's side as ``pdu_sides`` gives it (0 A, 1 B; −1 for other rows): by name, and
    a rack with a PDU whose name says no side by ``pdu_sides`` of the rack's PDUs."""
    side = np.full(devices.missing + 1, -1, np.intp)
    rows = np.flatnonzero(is_pdu[:devices.missing]).tolist()
    names = [devices.names[i] for i in rows]
    by_name = {name: side_in_name(name) for name in dict.fromkeys(names)}
    code = {s: i for i, s in enumerate(SIDES)}
    named = [code.get(by_name[name], -1) for name in names]
    side[rows] = named
    doc = ctx.doc
    for rack_id in dict.fromkeys(devices.racks[row] for row, s in zip(rows, named, strict=True) if s < 0):
        found = pdu_sides([d for d in doc.devices_in(rack_id, ordered=False) if is_pdu[devices.row[d.id]]])
        for pdu_id, s in found.items():
            side[devices.row[pdu_id]] = code.get(s, -1)
    return side


@dataclass
class CordLoads:
    """The corded PSUs (on exactly one joining cord, to an outlet of a PDU in the device's rack)
    as P11 and the cord loads read them: ``at`` the positions of their cords in the order the
    loads list them (device by device in plan order, PSU by PSU), each cord's current with both
    sides up (``normal``) and with the other side out (``failover``), and per device row the
    count of corded PSUs in all and on each side."""

    cords: CordColumns
    at: np.ndarray
    normal: np.ndarray
    failover: np.ndarray
    corded: np.ndarray
    on_side: tuple[np.ndarray, np.ndarray]
    draw: np.ndarray

    def corded_of(self, rows: list[int]) -> dict[int, list[tuple[str, str, Outlet]]]:
        """(PSU, PDU id, outlet) of each corded PSU of the devices ``rows``, PSU by PSU."""
        cords = self.cords
        found: dict[int, list[tuple[str, str, Outlet]]] = {row: [] for row in rows}
        at = self.at[np.isin(cords.psu_row[self.at], rows)]
        for i in at.tolist():
            found[int(cords.psu_row[i])].append((cords.psu_port[i], cords.devices.ids[cords.pdu_row[i]],
                                                 cords.outlets[cords.outlet[i]]))
        return found

    @cached_property
    def pdu_rows(self) -> np.ndarray:
        """The PDU rows with loads, in the order the loads list them (by their first cord)."""
        rows = self.cords.pdu_row[self.at]
        _distinct, first = np.unique(rows, return_index=True)
        return rows[np.sort(first)]

    @cached_property
    def sequence(self) -> tuple[list[int], list[int], list[float], list[float], np.ndarray]:
        """The loads PDU by PDU (each PDU's in order): the cords' positions (in ``cords.cables``),
        outlets (indices into ``cords.outlets``), currents both sides up and with the other side
        out, and where each PDU row's loads start (a row's run ends where the next row's starts)."""
        cords = self.cords
        rows = cords.pdu_row[self.at]
        order = np.argsort(rows, kind="stable")
        starts = np.searchsorted(rows[order], np.arange(cords.devices.missing + 2))
        at = self.at[order]
        return (at.tolist(), cords.outlet[at].tolist(), self.normal[order].tolist(), self.failover[order].tolist(),
                starts)

    def runs(self, rows: np.ndarray) -> list[tuple[int, int, int]]:
        """(PDU row, start, end) in ``sequence`` of the PDUs ``rows`` with loads, in the order the
        loads list the PDUs."""
        wanted = np.zeros(self.cords.devices.missing + 1, bool)
        wanted[rows] = True
        starts = self.sequence[4]
        return [(row, int(starts[row]), int(starts[row + 1])) for row in self.pdu_rows[wanted[self.pdu_rows]].tolist()]

    def loads_at(self, start: int, end: int) -> list[Load]:
        """One PDU's loads in order (a run of ``runs``)."""
        at, outlet, normal, failover, _starts = self.sequence
        outlets, ids = self.cords.outlets, self.cords.cables.ids
        return [(ids[at[i]], outlets[outlet[i]], normal[i], failover[i]) for i in range(start, end)]

    def lines(self) -> np.ndarray:
        """Each PDU row's current per line (``PHASE_LINES``) with both sides up, as ``_lines`` adds
        its cords in order: an array of rows × lines."""
        cords = self.cords
        rows = cords.pdu_row[self.at]
        times = np.array([[lines_of(o.phase).count(line) for line in PHASE_LINES] for o in cords.outlets] +
                         [[0] * len(PHASE_LINES)], float)[cords.outlet[self.at]]
        size = cords.devices.missing + 1
        return np.stack([np.bincount(rows, weights=self.normal * times[:, j], minlength=size)
                         for j in range(len(PHASE_LINES))], axis=1)


def cord_loads(ctx: Context) -> CordLoads:
    """The corded PSUs' cords and currents, once per pass."""
    def build() -> CordLoads:
        doc = ctx.doc
        cords = cord_columns(ctx)
        devices = cords.devices
        items = [doc.catalog[key] for key in devices.type_keys]
        good = cords.good
        corded = good[(cords.cords_on[cords.psu_key[good]] == 1) & cords.same_rack[good] & (cords.outlet[good] >= 0)]
        at = corded[np.argsort(cords.psu_key[corded], kind="stable")]
        rows = cords.psu_row[at]
        size = devices.missing + 1
        count = np.bincount(rows, minlength=size)
        sides = cords.side[cords.pdu_row[at]]
        on_side = (np.bincount(rows[sides == 0], minlength=size), np.bincount(rows[sides == 1], minlength=size))
        draw = np.array([draw_w(doc, item) for item in items] + [0.0], float)[devices.type_of]
        amps: dict[tuple[str, str], float] = {}  # a watt's current per PDU type and outlet phase
        for key, outlet in zip(cords.outlet_types, cords.outlets, strict=True):
            if (key, outlet.phase) not in amps:
                amps[key, outlet.phase] = cord_current_a(doc, doc.catalog[key], outlet.phase, 1.0)
        per_w = np.array([amps[key, o.phase] for key, o in zip(cords.outlet_types, cords.outlets, strict=True)] +
                         [0.0], float)
        cord_w = per_w[cords.outlet[at]]
        share = draw[rows]
        side_count = np.where(sides == 0, on_side[0][rows], np.where(sides == 1, on_side[1][rows], count[rows]))
        return CordLoads(cords, at, share / count[rows] * cord_w, share / side_count * cord_w, count, on_side, draw)
    return ctx.memo("power cord loads", build)

