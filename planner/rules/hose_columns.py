"""The coolant hoses of a pass as columns (``columns``) for C10 and C11 (``hoses``): each hose's
two ends, each end's QD as a slot of its device (``SUP1``, ``RET1``, ``SUP2`` … as
``coolant_names`` lists them), how many hoses each QD has, and for every end whether it is a
sound half of a device's pair, for every hose at once.

The rules use them as filters, as the power-cord rules use ``cord_columns``: C10 words only the
liquid-cooled devices whose pairs are not each hosed once, supply to supply and return to
return, to one manifold pair in their rack, and the manifolds with a QD hosed twice; C11 works
out the flow only of the manifolds whose flow could reach their rating (a bound from above: each
hose's share of its device's liquid heat, summed without the cap at the device's pairs, and a
margin), each with the rules' own per-object code (``HoseIndex``: the hoses of those devices
alone by end, as the rules read them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from planner.fabric.hoses import CDU_SECONDARY_PAIR, is_liquid
from planner.model.catalog import RACK_CDU, RACK_MANIFOLD
from planner.model.cords import draw_w
from planner.model.document import Document
from planner.model.ports import COOLANT, RETURN_STEM, SUPPLY_STEM, coolant_names
from planner.rules.columns import CableColumns, DeviceColumns, cable_columns, codes, device_columns
from planner.rules.context import Context

End = tuple[str, str]


def stem(port: str) -> str:
    return port.rstrip("0123456789")


@dataclass
class HoseIndex:
    """The hoses by end (device, QD), in order, of the devices asked for."""

    by_end: dict[End, list[str]] = field(default_factory=dict)

    def other_end(self, doc: Document, link_id: str, end: End) -> End:
        link = doc.links[link_id]
        return (link.b_device, link.b_port) if (link.a_device, link.a_port) == end else (link.a_device, link.a_port)


@dataclass
class HoseColumns:
    """The hoses (``cables``) and devices (``devices``' rows), and:

    - per end (hose i's end A at 2i, end B at 2i + 1): its device's row (``own``), the other
      end's (``mate``), its QD's slot on its device (−1 for a name not of a QD pair) and the
      key row · ``slots`` + slot of that QD; the other end's stem (``mate_stem``: 0 supply, 1
      return, −1 neither) and the pair number its name gives after the stem of this end's slot
      (``suffix``, a code); ``on``: the hoses on each key;
    - the rows of the liquid-cooled devices, the manifolds and the rack CDUs (C10's kinds), in
      plan order, and each type's QD pairs (``pairs``, by type code).
    """

    cables: CableColumns
    devices: DeviceColumns
    own: np.ndarray
    mate: np.ndarray
    slot: np.ndarray
    key: np.ndarray
    slots: int
    on: np.ndarray
    mate_stem: np.ndarray
    suffix: np.ndarray
    liquid: np.ndarray
    manifolds: np.ndarray
    cdus: np.ndarray
    pairs: np.ndarray
    is_manifold: np.ndarray
    is_liquid: np.ndarray
    ports: list[str]

    def index(self, rows: list[int]) -> HoseIndex:
        """The hoses on the QDs of the devices ``rows``, by end as C10 and C11 read them."""
        ids, device_ids = self.cables.ids, self.devices.ids
        found = HoseIndex()
        for e in np.flatnonzero(np.isin(self.own, rows)).tolist():
            found.by_end.setdefault((device_ids[self.own[e]], self.ports[e]), []).append(ids[e >> 1])
        return found

    def sound_pairs(self) -> np.ndarray:
        """Per device row: every QD pair of its type hosed once each, to one manifold pair in its
        rack (supply to supply, return to return, the same pair number): C10 has nothing to say."""
        devices = self.devices
        size = devices.missing + 1
        width = self.slots // 2
        end = (self.slot >= 0) & (self.on[self.key] == 1)
        mate = self.mate
        end &= (mate < devices.missing) & self.is_manifold[mate] & (devices.rack_of[mate] == devices.rack_of[self.own])
        end &= self.mate_stem == (self.slot & 1)  # supply on a supply QD, return on a return
        good = np.zeros(size * self.slots, bool)
        good[self.key[end]] = True
        mate_at = np.full(size * self.slots, -1, np.intp)
        mate_at[self.key[end]] = mate[end]
        suffix_at = np.full(size * self.slots, -1, np.intp)
        suffix_at[self.key[end]] = self.suffix[end]
        good3, mate3, suffix3 = (a.reshape(size, width, 2) for a in (good, mate_at, suffix_at))
        pair_ok = (good3[..., 0] & good3[..., 1] & (mate3[..., 0] == mate3[..., 1])
                   & (suffix3[..., 0] == suffix3[..., 1]))
        expected = np.arange(width) < self.pairs[devices.type_of][:, None]
        return (pair_ok | ~expected).all(axis=1)


def hose_columns(ctx: Context) -> HoseColumns:
    """The hoses' columns, once per pass."""
    def build() -> HoseColumns:
        doc = ctx.doc
        devices, cables = device_columns(ctx), cable_columns(ctx, COOLANT)
        items = [doc.catalog[key] for key in devices.type_keys]
        pairs = np.array([item.coolant_ports or 0 for item in items] + [0], np.intp)
        width = max(1, int(pairs.max()))
        n = len(cables.ids)
        own, mate = np.empty(2 * n, np.intp), np.empty(2 * n, np.intp)
        own[0::2], own[1::2] = cables.a_row, cables.b_row
        mate[0::2], mate[1::2] = cables.b_row, cables.a_row
        ports: list[str] = [""] * (2 * n)
        ports[0::2], ports[1::2] = cables.a_port, cables.b_port
        port_code, names = codes(ports)
        slot_of = {name: i for i, name in enumerate(coolant_names(width))}
        slot = np.array([slot_of.get(name, -1) for name in names] + [-1], np.intp)[port_code]
        stem_code = {SUPPLY_STEM: 0, RETURN_STEM: 1}
        stem_of = np.array([stem_code.get(stem(name), -1) for name in names] + [-1], np.intp)
        # the pair number a mate's name gives, as C10 reads it: after the supply or the return stem
        suffix_code, _suffixes = codes([name[len(stem_now):] for stem_now in (SUPPLY_STEM, RETURN_STEM)
                                        for name in names])
        suffix_of = np.append(suffix_code.reshape(2, len(names)), [[-1], [-1]], axis=1)
        # the other end's port, by the end's place: hose i's ends swap (2i ↔ 2i + 1)
        other = port_code[np.arange(2 * n) ^ 1]
        key = np.where(slot >= 0, own * 2 * width + slot, 0)
        size = devices.missing + 1
        on = np.bincount(key[slot >= 0], minlength=size * 2 * width)
        liquid = np.array([is_liquid(item) for item in items] + [False])
        manifold = np.array([item.kind == RACK_MANIFOLD for item in items] + [False])
        cdu = np.array([item.kind == RACK_CDU and (item.coolant_ports or 0) >= CDU_SECONDARY_PAIR
                        for item in items] + [False])
        type_of = devices.type_of[:devices.missing]
        return HoseColumns(cables, devices, own, mate, slot, key, 2 * width, on, stem_of[other],
                           suffix_of[slot & 1, other], np.flatnonzero(liquid[type_of]),
                           np.flatnonzero(manifold[type_of]), np.flatnonzero(cdu[type_of]), pairs,
                           manifold[devices.type_of], liquid[devices.type_of], ports)
    return ctx.memo("coolant hose columns", build)


def liquid_heat_bound(ctx: Context, cols: HoseColumns) -> np.ndarray:
    """Per device row, at least the liquid heat C11 finds hosed to it as a manifold: each hose on
    a supply QD of a manifold from a liquid-cooled device adds that device's liquid heat over its
    pairs (the heat of ``manifold_flow`` without its cap at a device's pairs)."""
    doc = ctx.doc
    devices = cols.devices
    items = [doc.catalog[key] for key in devices.type_keys]
    share = np.array([draw_w(doc, item) * item.liquid_fraction / (item.coolant_ports or 1) for item in items] + [0.0],
                     float)[devices.type_of]
    mate = cols.mate
    end = ((cols.slot >= 0) & ((cols.slot & 1) == 0) & cols.is_manifold[cols.own]
           & (cols.slot < 2 * cols.pairs[devices.type_of[cols.own]]) & (mate < devices.missing) & cols.is_liquid[mate])
    return np.bincount(cols.own[end], weights=share[mate[end]], minlength=devices.missing + 1)
