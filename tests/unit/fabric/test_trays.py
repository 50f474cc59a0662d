"""Tray fill worked by hand for a small hall (DESIGN §5 Cables: warning above 25 %, error above 50 %).

Row 1 (y 2.0 m): R01 (node N1) at x 1.0, R02 (empty) at 1.8, R03 (leaf L1) at 2.6.
Row 2 (y 5.0 m): R04 (node N2) at x 1.0, R05 (empty) at 2.6.
Cross-aisle trays run at the row ends (x 1.0 and 2.6) and over the network rack R03 (x 2.6).

Cables: two from N1 to L1 (SR4 3.0 mm: 7.0686 mm²; DAC 7.9 mm: 49.0167 mm²) along the row-1
tray from x 1.0 to 2.6; one SR4 from N2 up the cross-aisle tray at x 1.0 (y 5.0 → 2.0) and
along the row-1 tray from x 1.0 to 2.6; one SR4 inside R01, which uses no tray.
"""

from __future__ import annotations

import math

import pytest

from planner.commands import edits
from planner.commands.base import History, SetAttributes, SetFields
from planner.fabric.bundles import CableBundles
from planner.fabric.routing import Router
from planner.fabric.trays import CROSS, ROW, Tray, TrayLoads, capacity_mm2, tray_legs
from planner.layout.templates import build_template
from planner.layout.tray_sizing import size_tray_levels
from planner.model.document import Document
from planner.model.objects import Device, Link, Rack
from planner.rules.engine import Validator, all_rules, validate

RACK = "rack-800x1200-52u"
NODE = "node-8gpu-liquid-4u"
SWITCH = "sw-64x400g-1u"
SR4 = math.pi * 3.0 ** 2 / 4
DAC = math.pi * 7.9 ** 2 / 4
ROW1 = "tray:row:x:2000"
CROSS_X1 = "tray:cross:y:1000"


@pytest.fixture
def hall() -> Document:
    doc = Document()
    for rack_id, name, x, y, row in (("rack-1", "R01", 1.0, 2.0, "1"), ("rack-2", "R02", 1.8, 2.0, "1"),
                                      ("rack-3", "R03", 2.6, 2.0, "1"), ("rack-4", "R04", 1.0, 5.0, "2"),
                                      ("rack-5", "R05", 2.6, 5.0, "2")):
        doc.add(Rack(id=rack_id, type=RACK, name=name, x=x, y=y, row=row, rotation=0 if row == "1" else 180))
    doc.add(Device(id="dev-1", type=NODE, name="N1", rack="rack-1", u=1))
    doc.add(Device(id="dev-2", type=SWITCH, name="L1", rack="rack-3", u=41, role="leaf"))
    doc.add(Device(id="dev-3", type=NODE, name="N2", rack="rack-4", u=1))
    doc.add(Device(id="dev-4", type=SWITCH, name="L2", rack="rack-1", u=41, role="leaf"))
    for link_id, a, b, media in (("link-1", "dev-1", "dev-2", "sr4"), ("link-2", "dev-1", "dev-2", "dac"),
                                 ("link-3", "dev-3", "dev-2", "sr4"), ("link-4", "dev-1", "dev-4", "sr4")):
        doc.add(Link(id=link_id, a_device=a, a_port=f"p{link_id}", b_device=b, b_port=f"p{link_id}",
                     tier="node-leaf", media=media))
    return doc


def _tray_findings(doc: Document) -> list:
    return [f for f in validate(doc) if f.rule == "N9"]


def test_legs_of_a_route_across_rows():
    legs = tray_legs([(1.0, 5.0), (1.0, 5.0), (1.0, 2.0), (2.6, 2.0)])  # the first leg has no length
    assert legs == [(Tray(CROSS, "y", 1000), 2000, 5000), (Tray(ROW, "x", 2000), 1000, 2600)]
    assert tray_legs([(3.0, 1.0)]) == []  # inside one rack


def test_loads_by_hand(hall):
    loads = TrayLoads(hall)
    assert sorted(loads.trays()) == [CROSS_X1, ROW1]
    row = loads.peak(ROW1)
    assert (row.cables, row.start_mm, row.end_mm) == (3, 1000, 2600)
    assert row.area_mm2 == pytest.approx(2 * SR4 + DAC)
    assert loads.row_of(ROW1) == "1"
    cross = loads.peak(CROSS_X1)
    assert (cross.cables, cross.start_mm, cross.end_mm, cross.area_mm2) == (1, 2000, 5000, pytest.approx(SR4))
    assert loads.row_of(CROSS_X1) == ""


def test_capacity_is_width_by_depth_by_levels(hall):
    basis = hall.basis
    assert capacity_mm2(basis, ROW) == pytest.approx(600 * 100)
    assert capacity_mm2(basis, CROSS) == pytest.approx(900 * 150)
    basis.cross_tray_levels = 3
    assert capacity_mm2(basis, CROSS) == pytest.approx(3 * 900 * 150)


def test_fill_thresholds(hall):
    # row tray: 63.154 mm² of cable. 20 × 10 mm = 200 mm² → 31.6 % (warning); 12 × 10 mm → 52.6 % (error)
    assert _tray_findings(hall) == []
    hall.basis.row_tray_width_m, hall.basis.row_tray_depth_m = 0.02, 0.01
    [warning] = _tray_findings(hall)
    assert warning.severity == "warning" and warning.subjects == (ROW1,)
    assert "Row 1 tray (y 2.00 m): 3 cables, 63 mm² = 32% of 200 mm² (20 × 10 mm) at x 1.00–2.60 m" in warning.message
    assert warning.source == hall.basis.source("tray_fill_warn")
    hall.basis.row_tray_width_m = 0.012
    [error] = _tray_findings(hall)
    assert error.severity == "error" and "= 53% of 120 mm²" in error.message and "limit 50%" in error.message
    hall.basis.row_tray_levels = 2  # a second tray stacked halves the fill: 26.3 % → warning
    [again] = _tray_findings(hall)
    assert again.severity == "warning" and "(2 × 12 × 10 mm)" in again.message


def test_incremental_update_follows_moves_media_and_deletions(hall):
    hall.basis.row_tray_width_m, hall.basis.row_tray_depth_m = 0.012, 0.01
    hall.basis.cross_tray_width_m, hall.basis.cross_tray_depth_m = 0.01, 0.01
    history = History(hall)
    rules = [r for r in all_rules() if r.id == "N9"]
    validator = Validator(hall, rules)
    assert [f.severity for f in validator.findings] == ["error"]
    steps = [
        lambda: SetFields({"link-2": {"media": "sr4"}}),  # 3 × 7.07 = 21.2 mm² of 120 → 18 %: clean
        lambda: SetFields({"link-3": {"media": "dac"}}),  # cross tray 49 mm² of 100 → error; row 53 % → error
        # N2 moves to x 1.8: along row 2's tray to the crossing over R03's row end at x 2.6
        lambda: edits.move_objects(hall, ["rack-4"], 0.8, 0.0),
        lambda: edits.delete_objects(hall, ["dev-3"]),
        lambda: SetAttributes("basis", {"row_tray_levels": 3}, "basis"),
    ]
    seen = set()
    for make in steps:
        validator.update(history.push(make()))
        assert validator.findings == Validator(hall, rules).findings
        seen.add(tuple(sorted((f.severity, f.subjects) for f in validator.findings)))
    assert len(seen) >= 3  # the steps really change the findings
    while history.can_undo:
        validator.update(history.undo())
        assert validator.findings == Validator(hall, rules).findings


def test_update_reports_only_the_trays_whose_load_changed(hall):
    router = Router(hall)
    bundles = CableBundles(hall, router)
    loads = TrayLoads(hall, bundles)
    history = History(hall)

    def update(link_ids: list[str], racks: tuple[str, ...] = ()) -> set[str]:
        flows, _others = bundles.update(link_ids, router.refresh(racks))
        return loads.apply(flows)

    history.push(SetFields({"link-4": {"media": "dac"}}))  # inside one rack: no tray changes
    assert update(["link-4"]) == set()
    history.push(SetFields({"link-3": {"media": "dac"}}))
    assert update(["link-3"]) == {ROW1, CROSS_X1}
    assert loads.peak(ROW1).area_mm2 == pytest.approx(SR4 + 2 * DAC)
    # R05 (no cables) moves out to x 4.0: a cross-aisle tray moves with the row end, but the
    # router's pairs keep their paths: N2 → L1 (x 1.0 → 2.6) still crosses at x 1.0
    history.push(edits.move_objects(hall, ["rack-5"], 1.4, 0.0))
    assert router.refresh(["rack-5"]) == {}
    assert router.cross_x == [1.0, 2.6, 4.0]
    # R01 moves to x 0.4, the new row end: x 1.0 carries no cross-aisle tray any more, so
    # N2 → L1 runs along row 2 and crosses over R03 at x 2.6 instead: a new path, as long
    history.push(edits.move_objects(hall, ["rack-1"], -0.6, 0.0))
    rerouted = router.refresh(["rack-1"])
    # R01's own pairs are laid again, and the one pair whose path the shifted crossing changed
    assert rerouted == {("rack-1", "rack-3"): True, ("rack-1", "rack-1"): False, ("rack-4", "rack-3"): False}
    flows, others = bundles.update([], rerouted)
    assert others == {"link-1", "link-2"}  # N1 → L1 is 0.6 m longer along row 1
    assert loads.apply(flows) == {ROW1, CROSS_X1, "tray:cross:y:2600", "tray:row:x:5000"}
    fresh = TrayLoads(hall)
    assert {t: loads.peak(t) for t in loads.trays()} == {t: fresh.peak(t) for t in fresh.trays()}


def test_template_stacks_tray_levels_for_its_cabling(hall):
    hall.basis.row_tray_width_m, hall.basis.row_tray_depth_m = 0.012, 0.01  # 53 % on one level
    size_tray_levels(hall)
    # 63.154 mm² under 25 % of 120 mm² per level needs ⌈63.154 / 30⌉ = 3 levels; the cross tray keeps 1
    assert (hall.basis.row_tray_levels, hall.basis.cross_tray_levels) == (3, 1)
    assert "3 stacked trays" in hall.basis.source("row_tray_levels")
    assert _tray_findings(hall) == []


def test_a_network_rack_moved_about_leaves_every_tray_as_a_fresh_build_lays_it():
    """The flows of a move are summed leg by leg before they are laid (the pairs of a moved rack
    share their legs, and a pair's old and new routes share all but the moved end's): what a
    fresh build lays is what is left, stretch by stretch, on every tray."""
    pod = build_template("pod", 16)
    router = Router(pod)
    bundles = CableBundles(pod, router)
    loads = TrayLoads(pod, bundles)
    network = next(r.id for r in pod.racks.values()
                   if any(d.role == "spine" for d in pod.devices_in(r.id)))
    history = History(pod)
    before = {t: list(loads.spans(t)) for t in loads.trays()}
    moves = 0
    for dx, dy in ((0.0, 0.6), (1.2, 0.0), (0.0, -0.6), (-1.2, 0.0)):
        history.push(edits.move_objects(pod, [network], dx, dy))
        flows, _others = bundles.update([], router.refresh([network]))
        changed = loads.apply(flows)
        fresh = TrayLoads(pod)
        after = {t: list(fresh.spans(t)) for t in fresh.trays()}
        assert {t: list(loads.spans(t)) for t in loads.trays()} == after
        moved = {t for t in before.keys() | after.keys() if before.get(t) != after.get(t)}
        assert moved <= changed  # every tray whose load changed is reported
        moves += bool(moved)
        before = after
    assert moves >= 2  # along the row, the moves shift the rack's legs (across it, the leg stays on its line)
