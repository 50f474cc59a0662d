"""Power cords from PSUs to rack PDU outlets: the figures the cord planner, the PDU count and the
power-cord rules (P10–P13) share, so the three read a cord the same way.

- Which side a rack PDU is on (``rack_pdu_sides``): its name first ("PDU-A1", "PDU-B2", as
  ``planner.fabric.placement.rack_pdus`` names them). The model gives a PDU no feed of its own
  (a rack's ``feed_a``/``feed_b`` say which busbars feed the rack, not which PDU hangs on which),
  so a PDU whose name says no side takes one by its order in the rack: the unnamed ones
  alternate A, B, so a hand-placed "PDU1"/"PDU2" pair still makes two sides.
- Which PSUs go to which side (``psu_side``): PSU1 … ⌈n/2⌉ on A, the rest on B, so half the PSUs
  survive either side failing (an odd count has its extra PSU on A).
- Which outlet a PSU takes (``outlet_for_inlet``): the one mating its inlet (``PSU_INLETS``). A
  PSU whose inlet the catalogue does not give (switches, storage, CDUs) is taken to have the C14
  inlet such 1–2 kW supplies have, unless its cord with the other side out would carry more than
  a C13–C14 cord is rated for (IEC 60320, ``cords.json``): then a C20 (``psu_inlet``). A 2.7 kW
  switch on 1+1 PSUs draws 11.9 A through one cord in failover, above the C14's 10 A.
- A cord's current: I = P / (V · PF), V the outlet's voltage: a three-phase PDU's outlet on one
  phase is line to neutral (415 V / √3 ≈ 240 V), on a phase pair ("L1-L2") line to line; a
  single-phase PDU's outlets are at its own voltage. V is the PDU's ``voltage_v``, else the
  design basis's; PF the basis's ``power_factor``.
- Stock lengths: ``resources/catalog/cords.json`` (with its source), by outlet type.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from planner.model.catalog import RACK_PDU, CatalogItem
from planner.model.document import Document, natural_key
from planner.model.objects import Device
from planner.model.ports import PSU_INLETS, psu_names
from planner.resources_access import resource

SIDES = ("A", "B")
#: The inlet a PSU whose inlet is not given is taken to have, and the one it has where a C14's
#: cord would be over its rating (``psu_inlet``).
DEFAULT_INLET = "C14"
HIGH_CURRENT_INLET = "C20"
_SIDE_IN_NAME = re.compile(r"PDU[-_ ]?([AB])(?:\d|\b)", re.IGNORECASE)


@dataclass(frozen=True)
class CordType:
    """A power cord family: the PDU outlet it plugs into, its stock lengths (m) and source."""

    key: str
    name: str
    outlet: str
    rating_a: float
    stock_lengths_m: tuple[float, ...]
    source: str


@cache
def cord_types() -> dict[str, CordType]:
    """The bundled cords by outlet type ("C13", "C19"), read once."""
    data = json.loads(resource("catalog", "cords.json").read_text(encoding="utf-8"))
    return {entry["outlet"]: CordType(entry["key"], entry["name"], entry["outlet"], float(entry["rating_a"]),
                                      tuple(sorted(float(x) for x in entry["stock_lengths_m"])), entry["source"])
            for entry in data["cords"]}


def cord_stock_m(outlet: str, length_m: float) -> float:
    """The next stock length of the cord for ``outlet`` at least ``length_m`` long; 0 when no stock
    cord is that long (N12 does not judge a 0 stock; the length says what to make)."""
    cord = cord_types().get(outlet)
    lengths = cord.stock_lengths_m if cord else ()
    return next((x for x in lengths if x >= length_m - 1e-9), 0.0)


def side_in_name(name: str) -> str:
    """"A" or "B" when a PDU's name says its side ("PDU-A1", "pdu_b2"), else ""."""
    match = _SIDE_IN_NAME.search(name)
    return match.group(1).upper() if match else ""


def rack_pdu_sides(doc: Document, rack_id: str) -> dict[str, str]:
    """Each rack PDU of a rack → its side, by name, else alternating A, B over the unnamed ones
    in name order (module docstring)."""
    return pdu_sides([d for d in doc.devices_in(rack_id, ordered=False) if doc.catalog[d.type].kind == RACK_PDU])


def pdu_sides(rack_pdus: list[Device]) -> dict[str, str]:
    """``rack_pdu_sides`` of one rack's PDUs, listed as ``devices_in(rack, ordered=False)`` lists
    them (a caller that knows the PDUs already saves the catalogue lookups)."""
    pdus = sorted(rack_pdus, key=lambda d: natural_key(d.name))
    sides = {d.id: side_in_name(d.name) for d in pdus}
    unnamed = [d.id for d in pdus if not sides[d.id]]
    sides.update({pdu_id: SIDES[i % 2] for i, pdu_id in enumerate(unnamed)})
    return sides


def phase_imbalance(currents: dict[str, float]) -> float:
    """max |I_ph − I_avg| / I_avg (0 when nothing flows): P3 on a busbar's feed, P13 on a rack
    PDU, and the power-cord step when it weighs keeping a rack's cords."""
    avg = sum(currents.values()) / len(currents)
    if avg <= 0:
        return 0.0
    return max(abs(i - avg) for i in currents.values()) / avg


def psu_side(index: int, count: int) -> str:
    """The side of PSU ``index`` (1-based) of ``count``: the first ⌈count/2⌉ on A."""
    return "A" if index <= (count + 1) // 2 else "B"


def failover_cord_w(doc: Document, item: CatalogItem) -> float:
    """What one cord of a device carries with the other side out: its draw over the PSUs of the
    smaller side."""
    return draw_w(doc, item) / max((item.psu_count or 0) // 2, 1)


def psu_inlet(doc: Document, item: CatalogItem) -> str:
    """A device's PSU inlet: the catalogue's, else a C14 while one cord's current with the other
    side out is within the C13–C14 cord's rating on a single-phase outlet of the basis's supply
    (line to neutral, V / √3), else a C20 (module docstring)."""
    if item.psu_inlet:
        return item.psu_inlet
    basis = doc.basis
    amps = failover_cord_w(doc, item) / (basis.voltage_v / math.sqrt(3) * basis.power_factor)
    rating = cord_types()[PSU_INLETS[DEFAULT_INLET]].rating_a
    return DEFAULT_INLET if amps <= rating + 1e-9 else HIGH_CURRENT_INLET


def outlet_for_inlet(doc: Document, item: CatalogItem) -> str:
    """The PDU outlet type a device's PSUs take: the mate of their inlet (``psu_inlet``)."""
    return PSU_INLETS.get(psu_inlet(doc, item), PSU_INLETS[DEFAULT_INLET])


def draw_w(doc: Document, item: CatalogItem) -> float:
    """A device's draw on the design basis's load basis (peak, or steady)."""
    return (item.power_peak_w or item.power_w) if doc.basis.load_basis == "peak" else item.power_w


def outlet_voltage_v(doc: Document, pdu: CatalogItem, phase: str) -> float:
    """The voltage across an outlet: line to line for a phase pair, else line to neutral of a
    three-phase PDU (V / √3), a single-phase PDU's own voltage."""
    volts = pdu.voltage_v or doc.basis.voltage_v
    if pdu.phases == 3 and "-" not in phase:
        return volts / math.sqrt(3)
    return volts


def cord_current_a(doc: Document, pdu: CatalogItem, phase: str, watts: float) -> float:
    """I = P / (V · PF) of a cord carrying ``watts`` from an outlet on ``phase``."""
    return watts / (outlet_voltage_v(doc, pdu, phase) * doc.basis.power_factor)


def cords_per_side(doc: Document, type_keys: Iterable[str]) -> dict[str, int]:
    """Cords each side needs by outlet type for devices of ``type_keys`` (side A, which has the
    extra PSU of an odd count): what a side's PDUs must have outlets for."""
    found: dict[str, int] = {}
    for key in type_keys:
        item = doc.catalog[key]
        if item.psu_count and item.kind != RACK_PDU:
            outlet = outlet_for_inlet(doc, item)
            found[outlet] = found.get(outlet, 0) + (item.psu_count + 1) // 2
    return found


def largest_cord_w(doc: Document, type_keys: Iterable[str]) -> dict[str, float]:
    """The most one cord of each outlet type carries with the other side out (the device's draw
    over its PSUs on the smaller side): how many cords one breaker group can take."""
    found: dict[str, float] = {}
    for key in set(type_keys):
        item = doc.catalog[key]
        if item.psu_count and item.kind != RACK_PDU:
            outlet = outlet_for_inlet(doc, item)
            found[outlet] = max(found.get(outlet, 0.0), failover_cord_w(doc, item))
    return found


def psu_devices(doc: Document, rack_id: str) -> list[Device]:
    """The devices of a rack that have PSUs to cord (bottom U first)."""
    return [d for d in doc.devices_in(rack_id) if psu_names(doc.catalog[d.type].psu_count)
            and doc.catalog[d.type].kind != RACK_PDU]
