"""Coolant-hose rules (issue 21 part 4): every liquid-cooled device hosed to a manifold in its
rack, supply to supply and return to return, no quick-disconnect twice (C10), and each rack
manifold's flow within its rating (C11).

C11's flow is the cooling rules' V̇ = 60 · P[kW] / (ρ · c_p · ΔT) (DESIGN §5 Cooling,
``planner.rules.figures.flow_lpm``) over the liquid heat of the devices hosed to the manifold:
each device's draw on the design basis's ``load_basis`` times its ``liquid_fraction``, shared
over its QD pairs by the pairs on that manifold. Both rules are about the whole hall (a hose's
edit touches no rack or device the engine would re-check); as the power-cord rules do, they keep
what they found while the hoses, devices, catalogue and basis figures they read stay the same,
and only word it again with the names of now. Working it out, they test every hose at once on
the pass's columns (``hose_columns``) and run their own code below only for the devices and
manifolds the test leaves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from planner.fabric.hoses import CDU_SECONDARY_PAIR, is_liquid
from planner.model.catalog import RACK_MANIFOLD
from planner.model.cords import draw_w
from planner.model.document import Document
from planner.model.ports import COOLANT, RETURN_STEM, SUPPLY_STEM, coolant_names
from planner.rules.columns import cable_columns, device_columns
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.figures import flow_lpm, kw
from planner.rules.finding import ERROR, INFO, Finding
from planner.rules.held import Record, held_findings
from planner.rules.hose_columns import End, HoseIndex, hose_columns, liquid_heat_bound, stem
from planner.rules.scopes import HALL

_READS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.tier",
          "dev.type", "dev.rack", "dev.name", "dev.hostname", "rack.name"}
_SOURCE_C10 = ("Direct-to-chip liquid cooling: each cold-plate loop's supply and return QD on the rack manifold's "
               "supply and return headers, one plug per socket (OCP UQD specification)")
_SOURCE_C11 = "Rack manifold datasheet (catalogue): rated flow; V̇ = 60 · P / (ρ · c_p · ΔT) (DESIGN §5 Cooling)"


def _name(doc: Document, object_id: str) -> str:
    """A device's hostname or a rack's name, as now (the id when it is gone)."""
    device = doc.devices.get(object_id)
    if device is not None:
        return doc.hostname(device)
    rack = doc.racks.get(object_id)
    return rack.name if rack is not None else object_id


def _pair_problems(doc: Document, index: HoseIndex, device_id: str, pair: int) -> Iterator[Record]:
    """What is wrong with one QD pair of a device, as records."""
    device = doc.devices[device_id]
    mates: list[End] = []
    for stem_now, words in ((SUPPLY_STEM, "supply"), (RETURN_STEM, "return")):
        port = f"{stem_now}{pair}"
        hoses = index.by_end.get((device_id, port), [])
        if not hoses:
            yield (ERROR, (device_id,), f"{{0}} {port} ({words}): no hose to a manifold in {{1}}",
                   (device_id, device.rack))
            continue
        if len(hoses) > 1:
            yield (ERROR, (device_id, *hoses), f"{{0}} {port}: {len(hoses)} hoses on one QD ({', '.join(hoses)})",
                   (device_id,))
        mate = index.other_end(doc, hoses[0], (device_id, port))
        mates.append(mate)
        target = doc.devices.get(mate[0])
        where, named = f"{{0}} {port} on {{1}} {mate[1]} ({hoses[0]})", (device_id, mate[0], device.rack)
        if target is None or doc.catalog[target.type].kind != RACK_MANIFOLD:
            yield ERROR, (device_id, hoses[0]), f"{where}: not a rack manifold", named
        elif target.rack != device.rack:
            yield ERROR, (device_id, hoses[0]), f"{where}: the manifold is in another rack, not {{2}}", named
        elif stem(mate[1]) != stem_now:
            other = "supply" if stem_now == RETURN_STEM else "return"
            yield ERROR, (device_id, hoses[0]), f"{where}: {words} on the manifold's {other}", named
    split = len(mates) == 2 and mates[0][1][len(SUPPLY_STEM):] != mates[1][1][len(RETURN_STEM):]
    if len(mates) == 2 and (mates[0][0] != mates[1][0] or split):
        yield (ERROR, (device_id,), (f"{{0}} pair {pair}: supply on {{1}} {mates[0][1]}, return on {{2}} "
                                     f"{mates[1][1]} (one manifold pair for a device's pair)"),
               (device_id, mates[0][0], mates[1][0]))


def _c10(ctx: Context) -> Iterator[Record]:
    doc = ctx.doc
    cols = hose_columns(ctx)
    ids = cols.devices.ids
    if not cols.cables.ids and len(cols.liquid):  # hoses not planned yet: one line that says so (as P10)
        yield (INFO, tuple(ids[row] for row in cols.liquid.tolist()),
               (f"No coolant hoses: {len(cols.liquid):,} liquid-cooled devices are on no rack manifold (not planned "
                f"yet; Plan ▸ Generate fabric…, or planner fabric, hoses them)"), ())
        return
    # the devices with a pair not soundly hosed, the CDUs, the manifolds with a QD hosed twice
    liquid = cols.liquid[~cols.sound_pairs()[cols.liquid]].tolist()
    slots = cols.on[:cols.devices.missing * cols.slots].reshape(cols.devices.missing, cols.slots)[cols.manifolds]
    expected = np.arange(cols.slots) < 2 * cols.pairs[cols.devices.type_of[cols.manifolds]][:, None]
    manifolds = cols.manifolds[(expected & (slots > 1)).any(axis=1)].tolist()
    index = cols.index([*liquid, *cols.cdus.tolist(), *manifolds])
    for device_id in (ids[row] for row in liquid):
        for pair in range(1, (doc.catalog[doc.devices[device_id].type].coolant_ports or 0) + 1):
            yield from _pair_problems(doc, index, device_id, pair)
    racks_with_manifold = {cols.devices.racks[m] for m in cols.manifolds.tolist()}
    for cdu_id in (ids[row] for row in cols.cdus.tolist()):
        if doc.devices[cdu_id].rack in racks_with_manifold:
            for severity, subjects, template, named in _pair_problems(doc, index, cdu_id, CDU_SECONDARY_PAIR):
                loop = template.replace("no hose to a manifold", "the loop is not hosed to a manifold")
                yield severity, subjects, loop, named
    for manifold_id in (ids[row] for row in manifolds):
        for port in coolant_names(doc.catalog[doc.devices[manifold_id].type].coolant_ports):
            hoses = index.by_end.get((manifold_id, port), [])
            if len(hoses) > 1:
                yield (ERROR, (manifold_id, *hoses), f"{{0}} {port}: {len(hoses)} hoses on one QD ({', '.join(hoses)})",
                       (manifold_id,))


def manifold_flow(ctx: Context, index: HoseIndex, manifold_id: str) -> tuple[float, float, int]:
    """(liquid heat W, flow L/min, devices) of what is hosed to a manifold's supply QDs (``index``
    holds the manifold's hoses)."""
    doc = ctx.doc
    pairs: dict[str, int] = {}
    for port in coolant_names(doc.catalog[doc.devices[manifold_id].type].coolant_ports):
        if not port.startswith(SUPPLY_STEM):
            continue
        for link_id in index.by_end.get((manifold_id, port), []):
            device_id, _port = index.other_end(doc, link_id, (manifold_id, port))
            device = doc.devices.get(device_id)
            if device is not None and is_liquid(doc.catalog[device.type]):
                pairs[device_id] = pairs.get(device_id, 0) + 1
    heat = 0.0
    for device_id, hosed_pairs in pairs.items():
        item = doc.catalog[doc.devices[device_id].type]
        heat += draw_w(doc, item) * item.liquid_fraction * min(hosed_pairs / (item.coolant_ports or 1), 1.0)
    return heat, flow_lpm(heat, doc.basis), len(pairs)


def _c11(ctx: Context) -> Iterator[Record]:
    doc = ctx.doc
    basis = doc.basis
    props = basis.fluid_properties
    cols = hose_columns(ctx)
    rows = cols.manifolds
    rated = np.array([doc.catalog[key].rated_flow_lpm for key in cols.devices.type_keys] + [0.0],
                     float)[cols.devices.type_of[rows]]
    # the manifolds whose flow could reach their rating: the flow of a bound on their heat, a margin more
    if len(rows):
        per_w = flow_lpm(1.0, basis)
        bound = liquid_heat_bound(ctx, cols)[rows]
        if per_w > 0 and (bound >= 0).all():
            rows = rows[bound * per_w * (1 + 1e-9) + 1e-9 > rated]
    index = cols.index(rows.tolist())
    for manifold_id in (cols.devices.ids[row] for row in rows.tolist()):
        rated_now = doc.catalog[doc.devices[manifold_id].type].rated_flow_lpm
        heat, flow, devices = manifold_flow(ctx, index, manifold_id)
        if flow > rated_now:
            yield (ERROR, (manifold_id,),
                   (f"{{0}}: {devices:,} devices, {kw(heat)} liquid heat needs 60 × {heat / 1000:,.1f} / "
                    f"({props['density_kg_per_l']:g} × {props['cp_kj_per_kg_k']:g} × {basis.delta_t_k:g} K) = "
                    f"{flow:,.1f} L/min of {basis.fluid}, rated {rated_now:,.1f} L/min"), (manifold_id,))


_BASIS_FIELDS = ("fluid", "delta_t_k", "load_basis")


def _signature(ctx: Context) -> tuple:
    """Everything the records read: the hoses' ids and ends, each device's type and rack, the
    catalogue's coolant and power figures and the basis's fluid, ΔT and load basis. Cheap beside
    the records (the pass's columns as tuples), so an edit that changes none of them (a rack
    renamed, a data cable by hand) only words them."""
    doc = ctx.doc
    devices = device_columns(ctx)
    return (cable_columns(ctx, COOLANT).ends(), devices.ids, devices.types, devices.racks,
            tuple((key, i.kind, i.coolant_ports, i.liquid_fraction, i.power_w, i.power_peak_w, i.rated_flow_lpm)
                  for key, i in doc.catalog.items.items()),
            tuple(getattr(doc.basis, name) for name in _BASIS_FIELDS))


def _held(ctx: Context, r: Rule, check: Callable[[Context], Iterator[Record]]) -> list[Finding]:
    return held_findings(ctx, r, check, _signature, _name, COOLANT)


@rule("C10", scope=HALL, reads=_READS, source=_SOURCE_C10, title="Liquid-cooled device hosed to its rack manifold")
def hosed(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    yield from _held(ctx, r, _c10)


@rule("C11", scope=HALL, reads=_READS, basis=_BASIS_FIELDS, source=_SOURCE_C11,
      title="Rack manifold flow within its rating")
def manifold_rating(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    yield from _held(ctx, r, _c11)
