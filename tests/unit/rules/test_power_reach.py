"""P5 tap-off reach: at, just under and just over the whip length, worked by hand.

Every plan here has one busbar run from (0, 1) to (10, 1) (along x at y 1.0 m) of a custom type
whose tap-off whip reaches 1.5 m, and 1 × 1 m racks (``rack-1x1``): a rack centred at (x, y)
covers x − 0.5 … x + 0.5 and y − 0.5 … y + 0.5. The reach measured is the plan distance from the
run to the nearest point of the rack's footprint (its roof, where the cord drop lands).
"""

from __future__ import annotations

import pytest

from planner.model.geometry import segment_box_gap
from planner.model.objects import BusbarRun
from planner.rules.figures import tapoff_reach

WHIP_M = 1.5


def _bus(plan, side="A", whip_m=WHIP_M, x1=0.0, y1=1.0, x2=10.0, y2=1.0):
    key = plan.type(f"bus-whip-{whip_m}", "busbar", rating_a=1000.0, voltage_v=400.0, phases=3,
                    tapoff_rating_a=None, tapoff_whip_m=whip_m, source=f"Test busway: {whip_m} m whip")
    bus = BusbarRun(id=plan.doc.new_id("bus"), type=key, name=f"BB-{side}{len(plan.doc.busbars) + 1}",
                    x1=x1, y1=y1, x2=x2, y2=y2, side=side)
    plan.doc.add(bus)
    return bus.id


def _p5(rule_findings, doc):
    return [f for f in rule_findings(doc, "P5") if f.severity != "info"]


@pytest.mark.parametrize("y, expected", [
    (2.99, []),        # near edge at 2.49 m: 1.49 m across < 1.5 m
    (3.0, []),         # near edge at 2.50 m: 1.50 m across, exactly the whip: reaches
    (3.01, ["error"]),  # near edge at 2.51 m: 1.51 m across > 1.5 m
])
def test_p5_across_the_run(plan, rule_findings, y, expected):
    plan.doc.basis.redundancy = "none"
    bus = _bus(plan)
    rack = plan.rack(x=5.0, y=y, feed_a=bus)
    found = _p5(rule_findings, plan.doc)
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects == (rack, bus)
        assert found[0].message == ("R01: 1.51 m from busbar BB-A1 (x 0.0–10.0 m at y 1.0 m; 0.00 m beyond its end, "
                                    "1.51 m across), tap-off whip reaches 1.5 m")
        assert found[0].source.startswith("bus-whip-1.5 (catalogue): Test busway: 1.5 m whip")


@pytest.mark.parametrize("x, expected", [
    (11.99, []),        # west edge at 11.49 m: 1.49 m beyond the run's end at x 10.0 m
    (12.0, []),         # 1.50 m beyond: reaches
    (12.01, ["error"]),  # 1.51 m beyond
])
def test_p5_along_the_run(plan, rule_findings, x, expected):
    # the rack straddles the run's line (y 0.5–1.5 m): 0 across, all of the gap is along
    plan.doc.basis.redundancy = "none"
    bus = _bus(plan)
    plan.rack(x=x, y=1.0, feed_a=bus)
    found = _p5(rule_findings, plan.doc)
    assert [f.severity for f in found] == expected
    if expected:
        assert "1.51 m from busbar BB-A1 (x 0.0–10.0 m at y 1.0 m; 1.51 m beyond its end, 0.00 m across)" \
            in found[0].message


@pytest.mark.parametrize("dx, dy, expected", [
    (0.9, 1.2, []),          # √(0.9² + 1.2²) = √2.25 = 1.5 m: at the whip
    (0.9, 1.19, []),         # √(0.81 + 1.4161) = 1.492 m
    (0.9, 1.21, ["error"]),  # √(0.81 + 1.4641) = 1.508 m
])
def test_p5_beyond_the_end_and_across_is_a_straight_line(plan, rule_findings, dx, dy, expected):
    # the rack's north-west corner lies dx beyond the end (10, 1) and dy across: the whip hangs
    # straight from the last plug-in point, so 0.9 and 1.2 (each within 1.5 m) need 1.5 m together
    plan.doc.basis.redundancy = "none"
    bus = _bus(plan)
    plan.rack(x=10.0 + dx + 0.5, y=1.0 + dy + 0.5, feed_a=bus)
    assert [f.severity for f in _p5(rule_findings, plan.doc)] == expected


def test_p5_checks_each_feed_of_the_rack(plan, rule_findings):
    # 2N: feed A over the rack's north edge, feed B 3.0 m south of its south edge (1.5 m too far)
    a = _bus(plan, "A")
    b = _bus(plan, "B", y1=8.0, y2=8.0)
    rack = plan.rack(x=5.0, y=1.5, feed_a=a, feed_b=b)  # y 1.0–2.0 m: 0 m from A, 6.0 m from B
    found = _p5(rule_findings, plan.doc)
    assert [(f.subjects, f.message) for f in found] == [
        ((rack, b), ("R01: 6.00 m from busbar BB-B2 (x 0.0–10.0 m at y 8.0 m; 0.00 m beyond its end, "
                     "6.00 m across), tap-off whip reaches 1.5 m"))]


def test_p5_turned_rack_and_run_along_y(plan, rule_findings):
    # a 0.6 × 1.2 m rack turned 90° spans 1.2 m along x; the run goes along y at x 2.0 m
    plan.doc.basis.redundancy = "none"
    plan.type("rack-600x1200", "rack", width_m=0.6, depth_m=1.2, rack_units=48)
    bus = _bus(plan, x1=2.0, y1=0.0, x2=2.0, y2=10.0)
    near = plan.rack(x=4.1, y=5.0, rotation=90, type_key="rack-600x1200", feed_a=bus)  # west edge 3.5: 1.5 m
    far = plan.rack(x=4.1, y=5.0, rotation=0, type_key="rack-600x1200", feed_a=bus)    # west edge 3.8: 1.8 m
    found = _p5(rule_findings, plan.doc)
    assert [f.subjects for f in found] == [(far, bus)]
    assert "(y 0.0–10.0 m at x 2.0 m; 0.00 m beyond its end, 1.80 m across)" in found[0].message
    assert tapoff_reach(plan.doc, bus, near).reaches


def test_p5_type_without_whip_is_unchecked_and_said_once(plan, rule_findings):
    plan.doc.basis.redundancy = "none"
    bus = _bus(plan, whip_m=None)
    plan.rack(x=5.0, y=15.0, feed_a=bus)  # 13.5 m away, but the type gives no whip
    plan.rack(x=7.0, y=15.0, feed_a=bus)
    found = rule_findings(plan.doc, "P5", info=True)
    assert [(f.severity, f.subjects, f.message) for f in found] == [
        ("info", (bus,), "Busbar BB-A1: type bus-whip-None gives no tap-off whip length; rack reach is not checked")]


def test_builtin_busbars_give_a_whip_with_its_source():
    from planner.model.catalog import BUSBAR, builtin_catalog

    for item in builtin_catalog().of_kind(BUSBAR):
        assert item.tapoff_whip_m == 1.8
        assert "368.56" in item.source and "1.8 m" in item.source


def test_segment_box_gap():
    box = (4.0, 3.0, 5.0, 4.0)
    assert segment_box_gap(0.0, 1.0, 10.0, 1.0, box) == (2.0, 0.0, 2.0)        # beside the run
    gap, along, across = segment_box_gap(0.0, 1.0, 1.0, 1.0, box)             # beyond its end
    assert (round(gap, 9), round(along, 9), round(across, 9)) == (round(13 ** 0.5, 9), 3.0, 2.0)
    assert segment_box_gap(0.0, 3.5, 10.0, 3.5, box) == (0.0, 0.0, 0.0)      # crossing the box
    assert segment_box_gap(4.5, 3.5, 4.5, 3.5, box) == (0.0, 0.0, 0.0)      # a point inside
    gap, along, across = segment_box_gap(0.0, 0.0, 2.0, 2.0, box)            # diagonal run
    assert round(gap, 9) == round(((4 - 2) ** 2 + (3 - 2) ** 2) ** 0.5, 9)
    assert round(along ** 2 + across ** 2, 9) == round(gap ** 2, 9)
