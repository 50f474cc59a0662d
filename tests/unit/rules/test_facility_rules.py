"""E1 (a liquid-cooled rack's pPUE against the target), P7 and P8 (the simultaneous step on busbars
and cabinets), C8 (one pump failed) and C9 (ASHRAE class) at, just under and just over their
thresholds, with the arithmetic by hand; and one rack's pPUE worked out in full."""

from __future__ import annotations

import math

import pytest

from planner.model.basis import DesignBasis
from planner.model.objects import Device
from planner.rules.context import Context
from planner.rules.coolant import pump_failure
from planner.rules.ppue import hall_ppue, loss_factor, pump_power_w, rack_ppue

# --------------------------------------------------------------------------- the hand-worked rack
# One rack, one node of 100 kW steady, 80 % liquid-cooled; default basis (water ρ 0.997, c_p 4.18,
# ΔT 10 K; Δp 200 kPa, η_pump 0.65; COP_air 4.0; busbar 99.5 %, rack PDU 99 %):
#   flow   V̇ = 60 × 80 / (0.997 × 4.18 × 10) = 4800 / 41.6746     = 115.1776 L/min
#          Q  = 115.1776 / 60,000                                = 1.919627e-3 m³/s
#   pump   P  = Q · Δp / η = 1.919627e-3 × 200,000 / 0.65          =     590.65 W
#   air    P  = 20,000 W residual heat / 4.0                       =   5,000.00 W
#   losses P  = 100,000 × (1 / (0.995 × 0.99) − 1) = 100,000 × 0.0151769 = 1,517.69 W
#   pPUE      = (100,000 + 590.65 + 5,000 + 1,517.69) / 100,000    = 1.071083
HAND_PUMP_W, HAND_AIR_W, HAND_LOSS_W, HAND_PPUE = 590.65, 5000.0, 1517.69, 1.071083


def _hand_rack(plan):
    rack = plan.rack()
    plan.load(rack, power_w=100_000.0, liquid_fraction=0.8)
    return rack


def test_hand_worked_rack_ppue(plan):
    rack = _hand_rack(plan)
    figure = rack_ppue(Context(plan.doc), rack)
    assert figure.it_w == pytest.approx(100_000.0)
    assert figure.pump_w == pytest.approx(HAND_PUMP_W, abs=0.01)
    assert figure.air_w == pytest.approx(HAND_AIR_W)
    assert figure.loss_w == pytest.approx(HAND_LOSS_W, abs=0.01)
    assert figure.ppue == pytest.approx(HAND_PPUE, abs=1e-6)


def test_formulas():
    basis = DesignBasis()
    assert pump_power_w(60_000.0, basis) == pytest.approx(1.0 * 200_000 / 0.65)  # 1 m³/s over 200 kPa
    assert loss_factor(basis) == pytest.approx(1 / (0.995 * 0.99) - 1)


def test_in_rack_cdu_is_not_it_power(plan):
    """An in-rack CDU's own draw is its pumps: counted by Q·Δp/η, not as IT."""
    rack = _hand_rack(plan)
    key = plan.type("cdu-in-rack", "rack_cdu", height_u=4, power_w=1_200.0, capacity_kw=250, rated_flow_lpm=400,
                    pumps=2, redundant_pumps=1, approach_k=3)
    plan.doc.add(Device(id=plan.doc.new_id("dev"), type=key, name="CDU", rack=rack, u=10))
    assert rack_ppue(Context(plan.doc), rack).ppue == pytest.approx(HAND_PPUE, abs=1e-6)


#: The hand rack's pPUE unrounded, from the sums above.
EXACT_PPUE = (100_000 + 60 * 80 / (0.997 * 4.18 * 10) / 60_000 * 200_000 / 0.65 + 5_000
              + 100_000 * (1 / (0.995 * 0.99) - 1)) / 100_000


@pytest.mark.parametrize("offset, expected", [(1e-4, []), (0.0, []), (-1e-4, ["warning"])])
def test_e1_rack_target(plan, rule_findings, offset, expected):
    _hand_rack(plan)
    plan.doc.basis.ppue_target = EXACT_PPUE + offset  # just over, at, just under the rack's 1.071083
    rack_findings = rule_findings(plan.doc, "E1")
    assert [f.severity for f in rack_findings] == expected
    if expected:
        message = rack_findings[0].message
        assert message.startswith("R01: pPUE (100.00 kW IT + 0.59 kW pumps + 5.00 kW air cooling + 1.52 kW losses)"
                                  " / 100.00 kW = 1.071, target 1.07098")
        assert "Boundary:" in message


def test_e1_an_air_cooled_rack_is_reported_not_warned(plan, rule_findings):
    # 10 kW all air: (10 + 0 + 10 / 4 + 10 × 0.0151769) / 10 = 1.265177, above 1.06 by design
    rack = plan.rack()
    plan.load(rack, power_w=10_000.0)
    assert rack_ppue(Context(plan.doc), rack).ppue == pytest.approx(1 + 0.25 + (1 / (0.995 * 0.99) - 1))
    assert rule_findings(plan.doc, "E1") == []


def test_hall_figure_sums_before_dividing(plan):
    """Hall pPUE = Σ numerators / Σ IT: the hand rack and an all-liquid rack of the same IT."""
    _hand_rack(plan)
    other = plan.rack(x=8.0)
    plan.load(other, power_w=100_000.0, liquid_fraction=1.0)
    # second rack: pump 590.65 × 100/80 = 738.31 W, no air, losses 1,517.69 W
    expected = (200_000 + 590.65 + 738.31 + 5000 + 2 * 1517.69) / 200_000  # 1.046819
    assert hall_ppue(plan.doc).ppue == pytest.approx(expected, abs=1e-6)


# ------------------------------------------------------------------------------------------ P7
# 400 V, PF 1 (the builder's basis): I = P / (√3 × 400) = P / 692.82 W/A. Busbar 100 A × 0.8 = 80 A.
AMPS = math.sqrt(3) * 400.0


def _node(plan, rack, steady_w, peak_w):
    key = plan.type(f"node-{len(plan.doc.catalog.items)}", "node", height_u=4, power_w=steady_w, power_peak_w=peak_w)
    plan.doc.add(Device(id=plan.doc.new_id("dev"), type=key, name=f"N{len(plan.doc.devices) + 1}", rack=rack, u=1))


def _step_plan(plan, peak_w, redundancy="none"):
    plan.doc.basis.load_basis = "steady"
    plan.doc.basis.redundancy = redundancy
    feed_a = plan.busbar(rating_a=100.0, side="A")
    feed_b = plan.busbar(rating_a=100.0, side="B") if redundancy == "2N" else None
    rack = plan.rack(feed_a=feed_a, feed_b=feed_b)
    _node(plan, rack, 40_000.0, peak_w)  # steady 40 kW = 57.74 A; idle 30 % of peak
    return feed_a


@pytest.mark.parametrize("peak_w, expected", [(55_400.0, []), (80.0 * AMPS, []), (60_000.0, ["error"])])
def test_p7_step_over_the_derated_rating(plan, rule_findings, peak_w, expected):
    # 55.4 kW = 79.96 A; 80 A × 692.82 = 55,425.6 W exactly at the rating; 60 kW = 86.60 A
    _step_plan(plan, peak_w)
    found = rule_findings(plan.doc, "P7")
    assert [f.severity for f in found] == expected
    assert rule_findings(plan.doc, "P1") == []  # steady 57.74 A: P1 passes the feed
    if expected:
        assert found[0].message == ("Busbar BB-A1: steady 58 A fits the derated 100 A × 0.8 = 80 A, but when every "
                                    "node steps from idle (30% of peak: 26 A) to peak at once it carries 87 A "
                                    "(step +61 A)")


def test_p7_under_2n_failover(plan, rule_findings):
    # normal: half of 60 kW = 43.3 A after the step; partner failed: 86.6 A > 80 A, steady 57.7 A fits
    _step_plan(plan, 60_000.0, redundancy="2N")
    found = rule_findings(plan.doc, "P7")
    assert len(found) == 2 and all("with its partner failed" in f.message for f in found)
    assert all("carries 87 A" in f.message for f in found)


def test_p7_quiet_on_a_peak_basis(plan, rule_findings):
    """With a peak basis P1 already checks every device at its maximum."""
    _step_plan(plan, 60_000.0)
    plan.doc.basis.load_basis = "peak"
    assert rule_findings(plan.doc, "P7") == []
    assert [f.severity for f in rule_findings(plan.doc, "P1")] == ["error"]


@pytest.mark.parametrize("kw, expected", [(55.4, []), (80.0 * AMPS / 1000, []), (60.0, ["error"])])
def test_p8_cabinet_rating(plan, rule_findings, kw, expected):
    # cabinet 100 A × 0.8 = 80 A for the busbars of its row: 55.4 kW = 79.96 A, 55.43 kW = 80 A, 60 kW = 86.6 A
    cabinet = plan.unit(kind="cabinet", rating_a=100.0, voltage_v=400.0, phases=3)
    feed = plan.busbar(rating_a=1000.0)
    rack = plan.rack(feed_a=feed)
    plan.load(rack, power_w=kw * 1000.0)
    found = rule_findings(plan.doc, "P8")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects == (cabinet, feed)
        assert found[0].message == "Cabinet U1: busbars BB-A1 of row — draw 87 A peak, derated 100 A × 0.8 = 80 A"


def test_p8_cabinet_trips_at_the_step(plan, rule_findings):
    plan.unit(kind="cabinet", rating_a=100.0, voltage_v=400.0, phases=3)
    _step_plan(plan, 60_000.0)  # steady 57.7 A, after the step 86.6 A; busbar 100 A
    found = rule_findings(plan.doc, "P8")
    assert len(found) == 1 and "steady 58 A fits, but when every node steps from idle to peak at once they " \
                                "draw 87 A, derated 100 A × 0.8 = 80 A" in found[0].message


# ------------------------------------------------------------------------------------------ C8
def _cdu(plan, pumps, redundant, capacity_kw=300.0, flow=10_000.0):
    return plan.unit(kind="row_cdu", capacity_kw=capacity_kw, rated_flow_lpm=flow, approach_k=3.0, reach_m=50.0,
                     pumps=pumps, redundant_pumps=redundant)


def _liquid(plan, cdu, kw):
    rack = plan.rack(cdu=cdu)
    plan.load(rack, power_w=kw * 1000.0, liquid_fraction=1.0)


def test_n_plus_1_keeps_its_rating(plan):
    cdu = _cdu(plan, pumps=2, redundant=1)
    failed = pump_failure(Context(plan.doc), cdu)
    assert (failed.running, failed.duty, failed.factor, failed.capacity_w) == (1, 1, 1.0, 300_000.0)


@pytest.mark.parametrize("kw, expected", [(199.9, []), (200.0, []), (200.1, ["error"])])
def test_c8_three_pumps_no_spare(plan, rule_findings, kw, expected):
    # 3 pumps, none redundant: one out leaves 2 of 3, so 300 kW × 2/3 = 200 kW
    cdu = _cdu(plan, pumps=3, redundant=0)
    _liquid(plan, cdu, kw)
    found = rule_findings(plan.doc, "C8")
    assert [f.severity for f in found] == expected
    assert rule_findings(plan.doc, "C1") == []  # the full rating holds the heat
    if expected:
        assert found[0].message == ("U1: one pump failed, 2 of 3 pumps running (3 needed for the rating: 67%): "
                                    "capacity 200.0 kW for 200.1 kW of liquid heat")


@pytest.mark.parametrize("flow, expected", [(432.0, []), (431.0, ["error"])])
def test_c8_flow_with_one_pump_out(plan, rule_findings, flow, expected):
    # 200 kW needs 60 × 200 / 41.6746 = 287.94 L/min; 432 × 2/3 = 288.0 holds it, 431 × 2/3 = 287.33 does not
    cdu = _cdu(plan, pumps=3, redundant=0, flow=flow)
    _liquid(plan, cdu, 200.0)
    assert [f.severity for f in rule_findings(plan.doc, "C8")] == expected


def test_c8_says_when_the_pump_count_is_not_given(plan, rule_findings):
    cdu = _cdu(plan, pumps=0, redundant=0)
    _liquid(plan, cdu, 10.0)
    found = rule_findings(plan.doc, "C8", info=True)
    assert [f.severity for f in found] == ["info"] and "no pump count" in found[0].message


# ------------------------------------------------------------------------------------------ C9
def _class_plan(plan, ashrae_class, facility_c, approach_k):
    plan.doc.basis.ashrae_class = ashrae_class
    plan.doc.basis.facility_supply_c = facility_c
    cdu = plan.unit(kind="row_cdu", capacity_kw=300.0, rated_flow_lpm=1000.0, approach_k=approach_k, reach_m=50.0,
                    pumps=2, redundant_pumps=1)
    _liquid(plan, cdu, 10.0)


@pytest.mark.parametrize("facility_c, expected", [(31.9, []), (32.0, []), (32.1, ["error"])])
def test_c9_facility_water_within_its_class(plan, rule_findings, facility_c, expected):
    _class_plan(plan, "W32", facility_c, 3.0)
    found = [f for f in rule_findings(plan.doc, "C9") if f.subjects == ("hall",)]
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].message == "Design basis: facility supply 32.1 °C is above the W32 class maximum 32 °C"


@pytest.mark.parametrize("approach_k, expected", [(4.9, []), (5.0, ["error"]), (5.1, ["error"])])
def test_c9_class_limit_plus_approach_under_the_cold_plate_maximum(plan, rule_findings, approach_k, expected):
    # W40 water may reach 40 °C: 40 + 4.9 = 44.9 < 45 passes; 40 + 5.0 = 45.0 is not under 45 °C
    _class_plan(plan, "W40", 30.0, approach_k)
    found = [f for f in rule_findings(plan.doc, "C9") if f.subjects != ("hall",)]
    assert [f.severity for f in found] == expected
    if expected == ["error"] and approach_k == 5.0:
        assert found[0].message == ("U1: W40 water up to 40 °C + 5.0 K approach = 45.0 °C at the cold plates, "
                                    "which must stay under 45.0 °C")


def test_c9_leaves_a_supply_already_too_warm_to_c3(plan, rule_findings):
    # W45 at 43 °C: 43 + 3 = 46 °C breaks C3; the class envelope (45 + 3) is not reported again
    _class_plan(plan, "W45", 43.0, 3.0)
    assert [f.rule for f in rule_findings(plan.doc, "C3")] == ["C3"]
    assert rule_findings(plan.doc, "C9") == []


def test_c9_w_plus_and_unknown_classes(plan, rule_findings):
    _class_plan(plan, "W+", 32.0, 3.0)
    found = rule_findings(plan.doc, "C9")
    assert len(found) == 1 and "not above 45 °C" in found[0].message
    plan.doc.basis.facility_supply_c = 46.0
    assert rule_findings(plan.doc, "C9") == []  # W+ sets no upper limit; C3 checks 46 + 3 against 45
    plan.doc.basis.ashrae_class = "W99"
    found = rule_findings(plan.doc, "C9")
    assert len(found) == 1 and "'W99' is not one of W17, W27, W32, W40, W45, W+" in found[0].message
