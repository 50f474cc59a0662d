"""The design figures of a plan as one JSON-ready object: ``planner report FILE --json`` and the
source of the commissioning document's numbers (DESIGN §7). Keys are a contract: add, never rename."""

from __future__ import annotations

from typing import Any

from planner.model.document import Document, natural_key
from planner.rules.context import Context
from planner.rules.engine import CDU, subjects
from planner.rules.figures import cdu_figures, feed_figures, floor_load_kpa

BASIS_KEYS = ("voltage_v", "power_factor", "derating", "redundancy", "load_basis", "fluid", "delta_t_k",
              "facility_supply_c", "max_supply_c", "floor_method", "units")


def _round(value: float, digits: int = 3) -> float:
    return round(float(value), digits)


def _names(doc: Document) -> dict[str, str]:
    """Display names of feeds and CDUs, as used in feeds[].name and cdus[].name."""
    names = {bus.id: bus.name for bus in doc.busbars.values()}
    ctx = Context(doc)
    for cdu_id in subjects(doc, CDU):
        names[cdu_id] = cdu_figures(ctx, cdu_id).name
    return names


def build_report(doc: Document) -> dict[str, Any]:
    """{"racks": [...], "feeds": [...], "cdus": [...], "basis": {...}} with SI figures."""
    ctx = Context(doc)
    basis = doc.basis
    names = _names(doc)
    racks = []
    for rack in sorted(doc.racks.values(), key=lambda r: (natural_key(r.name), natural_key(r.id))):
        figs = ctx.rack(rack.id)
        kpa, _area = floor_load_kpa(figs.weight_kg, figs.width_m, figs.depth_m, basis)
        zone = ctx.zone_of(rack.id)
        racks.append({
            "id": rack.id, "name": rack.name, "type": rack.type, "row": rack.row,
            "x_m": _round(rack.x), "y_m": _round(rack.y), "rotation_deg": rack.rotation,
            "zone": zone.name if zone else None,
            "weight_kg": _round(figs.weight_kg, 1), "footprint_m2": _round(figs.footprint_m2),
            "floor_kpa": _round(kpa, 2), "power_kw": _round(figs.power_steady_w / 1000),
            "power_peak_kw": _round(figs.power_peak_w / 1000), "liquid_kw": _round(figs.liquid_w(basis) / 1000),
            "air_kw": _round(figs.air_w(basis) / 1000), "gpus": figs.gpus,
            "feed_a": names.get(rack.feed_a) if rack.feed_a else None,
            "feed_b": names.get(rack.feed_b) if rack.feed_b else None,
            "cdu": names.get(rack.cdu) if rack.cdu else None,
        })
    feeds = []
    for bus in sorted(doc.busbars.values(), key=lambda b: (natural_key(b.name), natural_key(b.id))):
        feed = feed_figures(ctx, bus.id)
        feeds.append({
            "id": bus.id, "name": bus.name, "side": bus.side, "row": bus.row, "voltage_v": basis.voltage_v,
            "rating_a": feed.rating_a, "derated_a": _round(feed.derated_a, 1),
            "current_a": _round(feed.normal_a, 1), "current_failover_a": _round(feed.failover_a, 1),
            "phase_currents_a": {p: _round(i, 1) for p, i in feed.normal.items()},
            "utilisation": _round(feed.normal_a / feed.derated_a, 4) if feed.derated_a else None,
            "utilisation_failover": _round(feed.failover_a / feed.derated_a, 4) if feed.derated_a else None,
            "racks": feed.racks,
        })
    cdus = []
    for cdu_id in sorted(subjects(doc, CDU), key=lambda i: natural_key(names[i])):
        cdu = cdu_figures(ctx, cdu_id)
        cdus.append({
            "id": cdu_id, "name": cdu.name, "liquid_kw": _round(cdu.liquid_w / 1000),
            "capacity_kw": _round(cdu.capacity_w / 1000), "flow_required_lpm": _round(cdu.flow_required_lpm, 1),
            "flow_rated_lpm": cdu.flow_rated_lpm, "supply_c": _round(cdu.supply_c, 2), "racks": cdu.racks,
        })
    return {"racks": racks, "feeds": feeds, "cdus": cdus,
            "basis": {key: getattr(basis, key) for key in BASIS_KEYS}}
