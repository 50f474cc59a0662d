"""P1–P4 at, just under and just over their thresholds, arithmetic by hand.

Plans here run at 400 V, PF 1.0: I = P / (√3 × 400 V × 1.0) = P / 692.82 W/A.
A 100 A busbar derated 0.8 (NEC) allows 80 A = 55,425.6 W; 90 % of that is 72 A = 49,883.1 W.
"""

from __future__ import annotations

import math

import pytest

W_PER_A = math.sqrt(3) * 400.0  # 692.82 W per ampere of line current


def _fed_rack(plan, power_w, feeds, phases="L1L2L3"):
    rack = plan.rack(phases=phases, **feeds)
    plan.load(rack, power_w=power_w)
    return rack


@pytest.mark.parametrize("amps, expected", [
    (71.9, []),            # 71.9 A < 72 A (90 % of 80 A)
    (72.0, []),            # at the warning line: not above
    (72.1, ["warning"]),
    (80.0, ["warning"]),   # at the derated rating: not above
    (80.1, ["error"]),     # 80.1 A > 100 A × 0.8
])
def test_p1_busbar_continuous_load(plan, rule_findings, amps, expected):
    plan.doc.basis.redundancy = "none"
    bus = plan.busbar(100.0, "A")
    _fed_rack(plan, amps * W_PER_A, {"feed_a": bus})
    found = [f for f in rule_findings(plan.doc, "P1") if f.subjects == (bus,)]
    assert [f.severity for f in found] == expected
    if expected:
        assert f"Busbar BB-A1: {amps:.0f} A normal load from 1 rack, derated rating 100 A × 0.8 = 80 A" in found[0].message
        assert "NEC" in found[0].source


def test_p1_iec_derating(plan, rule_findings):
    plan.doc.basis.redundancy = "none"
    plan.doc.basis.derating = 1.0  # IEC: 100 A allowed
    bus = plan.busbar(100.0, "A")
    _fed_rack(plan, 95.0 * W_PER_A, {"feed_a": bus})  # 95 A > 90 % of 100 A, not above 100 A
    assert [f.severity for f in rule_findings(plan.doc, "P1")] == ["warning"]


def test_p1_normal_load_is_shared_over_both_feeds(plan, rule_findings):
    # 2N: 150 A of rack load puts 75 A on each side: above 72 A (warning), not above 80 A
    a, b = plan.busbar(100.0, "A"), plan.busbar(100.0, "B")
    _fed_rack(plan, 150.0 * W_PER_A, {"feed_a": a, "feed_b": b})
    found = [f for f in rule_findings(plan.doc, "P1")]
    assert sorted((f.subjects, f.severity) for f in found) == [((a,), "warning"), ((b,), "warning")]


@pytest.mark.parametrize("amps, expected", [(35.9, []), (36.0, []), (36.1, ["warning"]), (40.0, ["warning"]),
                                            (40.1, ["error"])])
def test_p1_tapoff(plan, rule_findings, amps, expected):
    # tap-off 50 A × 0.8 = 40 A; warning above 90 % = 36 A; the busbar itself is large
    plan.doc.basis.redundancy = "none"
    bus = plan.busbar(1000.0, "A", tapoff_a=50.0)
    rack = _fed_rack(plan, amps * W_PER_A, {"feed_a": bus})
    found = [f for f in rule_findings(plan.doc, "P1") if f.subjects == (rack, bus)]
    assert [f.severity for f in found] == expected


@pytest.mark.parametrize("amps, expected", [(79.9, []), (80.0, []), (80.1, ["error", "error"])])
def test_p2_failover(plan, rule_findings, amps, expected):
    # 2N: with side B failed, side A carries the whole rack: 80 A allowed on a 100 A bus at 0.8
    a, b = plan.busbar(100.0, "A"), plan.busbar(100.0, "B")
    _fed_rack(plan, amps * W_PER_A, {"feed_a": a, "feed_b": b})
    found = [f for f in rule_findings(plan.doc, "P2")]
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects == (a, b)
        assert found[0].message == "Busbar BB-A1: 80 A under failure of BB-B2, derated rating 100 A × 0.8 = 80 A"


def test_p2_only_under_2n(plan, rule_findings):
    plan.doc.basis.redundancy = "N+1"
    a, b = plan.busbar(100.0, "A"), plan.busbar(100.0, "B")
    _fed_rack(plan, 90.0 * W_PER_A, {"feed_a": a, "feed_b": b})
    assert rule_findings(plan.doc, "P2") == []


def test_p2_rack_needs_both_sides(plan, rule_findings):
    a = plan.busbar(100.0, "A")
    rack = _fed_rack(plan, 1000.0, {"feed_a": a})
    found = rule_findings(plan.doc, "P2")
    assert [(f.subjects, f.message) for f in found] == [
        ((rack,), "R01: 2N needs a feed on side A and on side B; side B missing")]


def test_p2_unfed_rack_and_empty_rack(plan, rule_findings):
    plan.doc.basis.redundancy = "none"
    fed = _fed_rack(plan, 1500.0, {})
    plan.rack(x=8.0)  # empty: draws nothing, needs no feed
    found = rule_findings(plan.doc, "P2")
    assert [(f.subjects, f.message) for f in found] == [((fed,), "R01: draws 1.5 kW but has no feed assigned")]


def test_p2_tapoff_failover(plan, rule_findings):
    # each 50 A tap-off (40 A derated) carries the whole 41 A rack when the other side fails
    a, b = plan.busbar(1000.0, "A", tapoff_a=50.0), plan.busbar(1000.0, "B", tapoff_a=50.0)
    rack = _fed_rack(plan, 41.0 * W_PER_A, {"feed_a": a, "feed_b": b})
    found = rule_findings(plan.doc, "P2")
    assert [f.subjects for f in found] == [(rack, a), (rack, b)]


@pytest.mark.parametrize("single_kw, expected", [
    (1.5, []),           # L1 = 10 + 1.5 kW, L2 = L3 = 10 kW: avg 10.5, max dev 1.0 → 9.5 %
    (1.7, ["warning"]),  # avg 10.567, dev 1.133 → 10.7 %
    (3.3, ["warning"]),  # avg 11.1, dev 2.2 → 19.8 %
    (3.4, ["error"]),    # avg 11.133, dev 2.267 → 20.4 %
])
def test_p3_phase_balance(plan, rule_findings, single_kw, expected):
    plan.doc.basis.redundancy = "none"
    bus = plan.busbar(1000.0, "A")
    _fed_rack(plan, 30_000.0, {"feed_a": bus})                        # 10 kW per phase
    _fed_rack(plan, single_kw * 1000.0, {"feed_a": bus}, phases="L1")  # all on L1
    found = rule_findings(plan.doc, "P3")
    assert [f.severity for f in found] == expected


def test_p3_at_threshold(plan, rule_findings):
    # q = 30/19 kW on L1: dev = 2q/3 = 1.0526, avg = 10 + q/3 = 10.526 → exactly 10 %
    plan.doc.basis.redundancy = "none"
    bus = plan.busbar(1000.0, "A")
    _fed_rack(plan, 30_000.0, {"feed_a": bus})
    _fed_rack(plan, 30_000.0 / 19, {"feed_a": bus}, phases="L1")
    plan.doc.basis.phase_imbalance_warn = 0.1 + 1e-9
    assert rule_findings(plan.doc, "P3") == []
    plan.doc.basis.phase_imbalance_warn = 0.1 - 1e-9
    assert [f.severity for f in rule_findings(plan.doc, "P3")] == ["warning"]


@pytest.mark.parametrize("power_kw, expected", [(49.9, []), (50.0, []), (50.1, ["error"])])
def test_p4_rack_power_limit(plan, rule_findings, power_kw, expected):
    plan.type("rack-50kw", "rack", width_m=1.0, depth_m=1.0, rack_units=48, max_power_kw=50.0)
    rack = plan.rack(type_key="rack-50kw")
    plan.load(rack, power_w=power_kw * 1000.0)
    # two 1,000 A PDUs (one a side, 2N): far more than the rack rating, so only the rating bites
    pdu_type = plan.type("pdu-1000a", "rack_pdu", rating_a=1000.0, voltage_v=400.0, phases=3)
    from planner.model.objects import Device

    for n in (1, 2):
        plan.doc.add(Device(id=plan.doc.new_id("dev"), type=pdu_type, name=f"PDU{n}", rack=rack, u=0))
    found = rule_findings(plan.doc, "P4")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].message == "R01: 50.1 kW peak, rack rated 50.0 kW"


@pytest.mark.parametrize("power_kw, expected", [(55.4, []), (55.5, ["error"])])
def test_p4_pdu_capacity_2n(plan, rule_findings, power_kw, expected):
    # a 100 A PDU at 400 V: √3 × 400 × 100 × 1.0 = 69.28 kW, × 0.8 = 55.43 kW.
    # 2N with two PDUs: one per side carries the whole rack.
    rack = plan.rack()
    pdu_type = plan.type("pdu-100a", "rack_pdu", rating_a=100.0, voltage_v=400.0, phases=3)
    from planner.model.objects import Device

    for n in (1, 2):
        plan.doc.add(Device(id=plan.doc.new_id("dev"), type=pdu_type, name=f"PDU{n}", rack=rack, u=0))
    plan.load(rack, power_w=power_kw * 1000.0)
    found = rule_findings(plan.doc, "P4")
    assert [f.severity for f in found] == expected
    if expected:
        assert "from 1 of 2 rack PDUs per side (2N)" in found[0].message
    plan.doc.basis.redundancy = "none"  # both PDUs share: 110.9 kW
    assert rule_findings(plan.doc, "P4") == []
