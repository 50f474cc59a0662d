"""Coolant hoses: every liquid-cooled device's quick-disconnects to its rack's manifold, and the
rack CDU's secondary side to the manifold (issue 21 part 4, DESIGN §3 Networks), as the coolant
network's generation step.

- **Which devices.** A device whose type has a liquid-cooled share (``liquid_fraction`` > 0) and
  coolant quick-disconnects (``coolant_ports``), rack CDUs and manifolds aside.
- **The manifold.** The rack's first manifold by name; a rack holding liquid-cooled devices and
  none gets one: "MAN1", 0U at the rear (``u`` 0, like a 0U PDU), of the catalogue's manifold
  type with the fewest pairs that still hoses every device and the CDU, else the most pairs.
- **Pairs.** Device k's ``SUPk``/``RETk`` go to manifold ``SUPj``/``RETj`` (supply to supply,
  return to return, one j per pair), j counting up the devices in U order from the bottom; a
  rack CDU's secondary side (``SUP2``/``RET2``, ``resources/catalog/cooling.json``) takes the
  manifold's top pair, the loop's feed. Too few pairs: the devices at the top are left unhosed
  and C10 names them. A pair already hosed keeps its manifold pair on regeneration; only new
  QDs take the free pairs, lowest first.
- **Length.** The vertical run from the device's QDs (the middle of its height; the catalogue
  gives no QD positions) to the manifold pair, the pairs spread evenly up the 0U manifold (pair
  1 at the bottom), as the power cords' outlets are, plus the design basis's cable slack
  (``cable_slack_fraction``, at least ``cable_slack_min_m``); the stock length is the next of
  the hose stock list (``resources/catalog/manifolds.json``), 0 when longer than every one.

Regenerating keeps every hose's identity (``reconcile`` over ``doc.links_in(COOLANT)``).
"""

from __future__ import annotations

import json
from functools import cache

from planner.commands.base import AddObjects, Command
from planner.fabric.power_cords import cord_length_m, outlet_height_m, psu_height_m
from planner.fabric.reconcile import keep_or_deal, reconcile
from planner.fabric.stages import NetworkGeneration
from planner.model.catalog import RACK_CDU, RACK_MANIFOLD, CatalogItem
from planner.model.document import Document, natural_key
from planner.model.networks import TIER_HOSE
from planner.model.objects import Device, Link
from planner.model.ports import COOLANT, RETURN_STEM, SUPPLY_STEM
from planner.resources_access import resource

#: The name a manifold this step adds takes (one per rack; hostnames add the rack's name).
MANIFOLD_NAME = "MAN1"
#: The rack CDU's pair that feeds the rack manifold (its secondary side; SUP1/RET1 are the facility's).
CDU_SECONDARY_PAIR = 2


@cache
def hose_stock_lengths_m() -> tuple[float, ...]:
    """The hose stock lengths, shortest first (``manifolds.json`` "hoses", with its source)."""
    data = json.loads(resource("catalog", "manifolds.json").read_text(encoding="utf-8"))
    return tuple(sorted(float(x) for x in data["hoses"]["stock_lengths_m"]))


def hose_stock_m(length_m: float) -> float:
    """The next stock hose at least ``length_m`` long; 0 when none is that long."""
    return next((x for x in hose_stock_lengths_m() if x >= length_m - 1e-9), 0.0)


def is_liquid(item: CatalogItem) -> bool:
    """Whether a type is a liquid-cooled device that a hose connects to a manifold."""
    return item.kind not in (RACK_CDU, RACK_MANIFOLD) and item.liquid_fraction > 0 and bool(item.coolant_ports)


def liquid_devices(doc: Document, rack_id: str) -> list[Device]:
    """A rack's liquid-cooled devices, bottom U first (then by name)."""
    found = [d for d in doc.devices_in(rack_id) if is_liquid(doc.catalog[d.type])]
    return sorted(found, key=lambda d: (d.u, natural_key(d.name)))


def rack_manifold(doc: Document, rack_id: str) -> Device | None:
    """The rack's manifold (its first by name), or None."""
    found = [d for d in doc.devices_in(rack_id) if doc.catalog[d.type].kind == RACK_MANIFOLD]
    return min(found, key=lambda d: natural_key(d.name)) if found else None


def rack_cdu(doc: Document, rack_id: str) -> Device | None:
    """The rack's in-rack CDU with a secondary pair (its first by name), or None."""
    found = [d for d in doc.devices_in(rack_id) if doc.catalog[d.type].kind == RACK_CDU
             and (doc.catalog[d.type].coolant_ports or 0) >= CDU_SECONDARY_PAIR]
    return min(found, key=lambda d: natural_key(d.name)) if found else None


def manifold_type(doc: Document, pairs: int) -> str | None:
    """The catalogue manifold a new one takes: the fewest pairs of at least ``pairs``, else the most."""
    types = doc.catalog.of_kind(RACK_MANIFOLD)
    if not types:
        return None
    enough = [item for item in types if (item.coolant_ports or 0) >= pairs]
    if enough:
        return min(enough, key=lambda item: (item.coolant_ports or 0, item.key)).key
    return max(types, key=lambda item: (item.coolant_ports or 0, item.key)).key


def _hose_pair(doc: Document, device: Device, pair: int, manifold: Device, j: int, rack_units: int) -> list[Link]:
    pairs = doc.catalog[manifold.type].coolant_ports or 0
    run = abs(outlet_height_m(j - 1, pairs, rack_units) - psu_height_m(device, doc.catalog[device.type]))
    length = cord_length_m(doc, run)
    return [Link(id="", a_device=device.id, a_port=f"{stem}{pair}", b_device=manifold.id, b_port=f"{stem}{j}",
                 tier=TIER_HOSE, media="", length_m=length, stock_m=hose_stock_m(length))
            for stem in (SUPPLY_STEM, RETURN_STEM)]


def _held_pairs(doc: Document, manifold: Device) -> dict[tuple[str, int], int]:
    """Which manifold pair each device's QD pair is hosed to now: (device id, pair) → j."""
    held: dict[tuple[str, int], int] = {}
    for link in doc.links_of(manifold.id):
        ends = {link.a_device: link.a_port, link.b_device: link.b_port}
        device = link.b_device if link.a_device == manifold.id else link.a_device
        mine, theirs = ends.get(manifold.id, ""), ends.get(device, "")
        if link.tier == TIER_HOSE and mine.startswith(SUPPLY_STEM) and theirs.startswith(SUPPLY_STEM):
            pair, j = theirs[len(SUPPLY_STEM):], mine[len(SUPPLY_STEM):]
            if pair.isdigit() and j.isdigit():
                held[(device, int(pair))] = int(j)
    return held


def rack_hoses(doc: Document, rack_id: str, manifold: Device) -> list[Link]:
    """The hoses a rack should have to ``manifold`` (module docstring); what does not fit is left
    out. A QD pair hosed to a device pair of the manifold keeps it (``keep_or_deal``), so a
    device added or taken away moves no other device's hoses."""
    pairs = doc.catalog[manifold.type].coolant_ports or 0
    rack_units = doc.catalog[doc.racks[rack_id].type].rack_units
    cdu = rack_cdu(doc, rack_id)
    free = pairs - (1 if cdu is not None and pairs else 0)
    ends = [(device, pair) for device in liquid_devices(doc, rack_id)
            for pair in range(1, (doc.catalog[device.type].coolant_ports or 0) + 1)]
    slots = keep_or_deal([(d.id, pair) for d, pair in ends], list(range(1, free + 1)), _held_pairs(doc, manifold))
    hoses: list[Link] = []
    for (device, pair), j in zip(ends, slots):
        if j is not None:
            hoses += _hose_pair(doc, device, pair, manifold, j, rack_units)
    if cdu is not None and pairs:
        hoses += _hose_pair(doc, cdu, CDU_SECONDARY_PAIR, manifold, pairs, rack_units)
    return hoses


def plan_hoses(doc: Document) -> NetworkGeneration:
    """The coolant network's step: a manifold for every rack of liquid-cooled devices that has
    none, then every rack's hoses (``rack_hoses``), reconciled with the plan's."""
    new: list[Device] = []
    wanted: list[Link] = []
    liquid: set[str] = set()
    qds = 0
    for rack_id in doc.racks:
        devices = liquid_devices(doc, rack_id)
        if not devices:
            continue
        liquid.update(d.id for d in devices)
        qds += sum(doc.catalog[d.type].coolant_ports or 0 for d in devices)
        manifold = rack_manifold(doc, rack_id)
        if manifold is None:
            needed = sum(doc.catalog[d.type].coolant_ports or 0 for d in devices) + (rack_cdu(doc, rack_id) is not None)
            key = manifold_type(doc, needed)
            if key is None:
                continue  # no manifold in the catalogue: C10 reports every device
            manifold = Device(id=doc.new_id("dev"), type=key, name=MANIFOLD_NAME, rack=rack_id, u=0)
            new.append(manifold)
        wanted += rack_hoses(doc, rack_id, manifold)
    cables = reconcile(doc, wanted, scope=list(doc.links_in(COOLANT)))
    children: list[Command] = [c for c in (cables.remove_command(),) if c is not None]
    if new:
        children.append(AddObjects(new, text="Place rack manifolds"))
    children += [c for c in (cables.update_command(), cables.add_command()) if c is not None]
    left = qds - sum(1 for link in wanted if link.a_device in liquid and link.a_port.startswith(SUPPLY_STEM))
    text = (f"Coolant hoses ({len(wanted):,} hoses, {len(new):,} manifolds added"
            + (f", {left:,} of {qds:,} QD pairs without a manifold pair" if left else "") + f"): {cables.summary()}")
    return NetworkGeneration(COOLANT, children, text, cables=cables)
