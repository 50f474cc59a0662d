"""The design figures of a plan as one JSON-ready object: ``planner report FILE --json`` and the
source of the commissioning document's numbers (DESIGN §7). Keys are a contract: add, never rename.

Beyond the contract's racks, feeds, CDUs and basis, ``trays`` gives each cable tray's extent and
its busiest stretch against its usable cross-section (rule N9); ``ppue`` (per row and hall, each
rack's in ``racks[].ppue``), ``draw`` (nameplate = catalogue peak, steady, idle and after the
simultaneous step, per feed, cabinet and hall) and the CDU hand-off keys come from
``planner.rules.handoff_figures``."""

from __future__ import annotations

from typing import Any

from planner.fabric.trays import Tray, capacity_mm2
from planner.model.document import Document, natural_key
from planner.rules.context import Context
from planner.rules.figures import cdu_figures, feed_figures, floor_load_kpa
from planner.rules.handoff_figures import (
    FACILITY_BASIS_KEYS,
    cdu_extra,
    facility_report,
    rack_ppue_value,
)
from planner.rules.scopes import CDU, subjects

BASIS_KEYS = ("voltage_v", "power_factor", "derating", "redundancy", "load_basis", "fluid", "delta_t_k",
              "facility_supply_c", "max_supply_c", "floor_method", "units", "row_tray_width_m", "row_tray_depth_m",
              "row_tray_levels", "cross_tray_width_m", "cross_tray_depth_m", "cross_tray_levels", "tray_fill_warn",
              "tray_fill_error")


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
            "ppue": rack_ppue_value(ctx, rack.id),
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
            **cdu_extra(ctx, cdu_id),
        })
    return {"racks": racks, "feeds": feeds, "cdus": cdus, "trays": _trays(ctx), **facility_report(ctx),
            "basis": {key: getattr(basis, key) for key in (*BASIS_KEYS, *FACILITY_BASIS_KEYS)}}


def _trays(ctx: Context) -> list[dict[str, Any]]:
    """Row trays then cross-aisle trays, each along its axis in order of position."""
    loads = ctx.tray_loads()
    basis = ctx.doc.basis
    rows = []
    for tray_id in sorted(loads.trays(), key=lambda i: (Tray.parse(i).kind != "row", Tray.parse(i)[1:])):
        tray = Tray.parse(tray_id)
        spans = list(loads.spans(tray_id))
        peak = loads.peak(tray_id)
        capacity = capacity_mm2(basis, tray.kind)
        rows.append({
            "id": tray_id, "name": tray.describe(loads.row_of(tray_id)), "kind": tray.kind, "axis": tray.axis,
            "position_m": tray.across_mm / 1000, "start_m": spans[0].start_mm / 1000, "end_m": spans[-1].end_mm / 1000,
            "peak_start_m": peak.start_mm / 1000, "peak_end_m": peak.end_mm / 1000, "cables": peak.cables,
            "area_mm2": _round(peak.area_mm2, 1), "capacity_mm2": _round(capacity, 1),
            "fill": _round(peak.area_mm2 / capacity, 4) if capacity > 0 else None,
        })
    return rows
