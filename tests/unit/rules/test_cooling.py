"""C1–C6 at, just under and just over their thresholds, arithmetic by hand.

Water (ρ 0.997 kg/L, c_p 4.18 kJ/kg·K) at ΔT 10 K: V̇ = 60 × P[kW] / (0.997 × 4.18 × 10)
= 1.43970 L/min per kW; 100 kW needs 143.97 L/min.
"""

from __future__ import annotations

import pytest

from planner.model.objects import Device
from planner.rules.figures import flow_lpm


def _cdu(plan, capacity_kw=1000.0, flow=10_000.0, approach=3.0, reach=50.0, x=20.0, y=5.0):
    return plan.unit(kind="row_cdu", capacity_kw=capacity_kw, rated_flow_lpm=flow, approach_k=approach,
                     reach_m=reach, x=x, y=y)


def _liquid_rack(plan, cdu, liquid_kw, x=5.0, y=5.0):
    rack = plan.rack(x=x, y=y, cdu=cdu)
    plan.load(rack, power_w=liquid_kw * 1000.0, liquid_fraction=1.0)
    return rack


def test_flow_formula():
    from planner.model.basis import DesignBasis

    basis = DesignBasis()
    assert flow_lpm(1000.0, basis) == pytest.approx(60 / (0.997 * 4.18 * 10))  # 1.4397 L/min per kW
    basis.fluid = "pg25"
    assert flow_lpm(1000.0, basis) == pytest.approx(60 / (1.02 * 3.92 * 10))   # 1.5006 L/min per kW


@pytest.mark.parametrize("liquid_kw, expected", [(99.9, []), (100.0, []), (100.1, ["error"])])
def test_c1_capacity(plan, rule_findings, liquid_kw, expected):
    cdu = _cdu(plan, capacity_kw=100.0)
    _liquid_rack(plan, cdu, liquid_kw)
    found = rule_findings(plan.doc, "C1")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].message == "U1: 100.1 kW liquid heat from 1 rack, capacity 100.0 kW (N+1)"


@pytest.mark.parametrize("rated, expected", [(143.9, ["error"]), (60 * 100 / (0.997 * 4.18 * 10), []), (144.0, [])])
def test_c2_flow(plan, rule_findings, rated, expected):
    cdu = _cdu(plan, flow=rated)
    _liquid_rack(plan, cdu, 100.0)  # needs 143.97 L/min
    found = rule_findings(plan.doc, "C2")
    assert [f.severity for f in found] == expected
    if expected:
        assert "= 144 L/min of water, rated 144 L/min" in found[0].message


def test_c2_counts_only_the_liquid_fraction(plan, rule_findings):
    cdu = _cdu(plan, flow=143.9)
    rack = plan.rack(cdu=cdu)
    plan.load(rack, power_w=125_000.0, liquid_fraction=0.8)  # 100 kW to liquid, 25 kW to air
    assert [f.severity for f in rule_findings(plan.doc, "C2")] == ["error"]


@pytest.mark.parametrize("max_supply, expected", [(34.9, ["error"]), (35.0, []), (35.1, [])])
def test_c3_supply_temperature(plan, rule_findings, max_supply, expected):
    plan.doc.basis.max_supply_c = max_supply
    _cdu(plan, approach=3.0)  # 32 °C facility + 3 K approach = 35 °C
    found = rule_findings(plan.doc, "C3")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].message == "U1: supply 32.0 °C facility + 3.0 K approach = 35.0 °C, cold-plate maximum 34.9 °C"


@pytest.mark.parametrize("facility, expected", [(13.9, ["warning"]), (14.0, []), (14.1, [])])
def test_c3_dew_point(plan, rule_findings, facility, expected):
    # dew point 15 °C + 2 K margin = 17 °C; supply = facility + 3 K
    plan.doc.basis.facility_supply_c = facility
    _cdu(plan, approach=3.0)
    assert [f.severity for f in rule_findings(plan.doc, "C3")] == expected


def test_c4_liquid_rack_needs_a_loop(plan, rule_findings):
    wet = _liquid_rack(plan, None, 10.0)
    dry = plan.rack(x=8.0)
    plan.load(dry, power_w=10_000.0, liquid_fraction=0.0)
    found = rule_findings(plan.doc, "C4")
    assert [(f.subjects, f.message) for f in found] == [((wet,), "R01: 10.0 kW liquid heat but on no CDU loop")]


@pytest.mark.parametrize("x, expected", [(25.9, []), (26.0, []), (26.1, ["error"])])
def test_c5_pipe_reach(plan, rule_findings, x, expected):
    # CDU at (20, 5), reach 10 m: rack at (x, 1) runs |x − 20| + 4 m
    cdu = _cdu(plan, reach=10.0)
    rack = _liquid_rack(plan, cdu, 1.0, x=x, y=1.0)
    found = rule_findings(plan.doc, "C5")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects == (rack, cdu) and "10.1 m (|Δx| + |Δy|), reach 10.0 m" in found[0].message


def test_c5_rack_cdu_measured_from_its_rack(plan, rule_findings):
    host = plan.rack(x=5.0, y=5.0)
    cdu_type = plan.type("cdu-in-rack", "rack_cdu", height_u=4, capacity_kw=100.0, rated_flow_lpm=500.0,
                         approach_k=3.0, reach_m=3.0)
    plan.doc.add(Device(id="dev-90", type=cdu_type, name="CDU1", rack=host, u=40))
    near = _liquid_rack(plan, "dev-90", 1.0, x=8.0, y=5.0)   # 3.0 m
    far = _liquid_rack(plan, "dev-90", 1.0, x=8.1, y=5.0)    # 3.1 m
    found = rule_findings(plan.doc, "C5")
    assert [f.subjects[0] for f in found] == [far] and near != far
    assert "from R01/CDU1" in found[0].message


@pytest.mark.parametrize("air_kw, expected", [(9.9, []), (10.0, []), (10.1, ["warning"])])
def test_c6_zone_air_heat(plan, rule_findings, air_kw, expected):
    zone = plan.zone(air_capacity_kw=10.0)
    cdu = _cdu(plan)
    rack = plan.rack(cdu=cdu)
    # 50 % liquid: half of 2 × air_kw goes to the air
    plan.load(rack, power_w=2 * air_kw * 1000.0, liquid_fraction=0.5)
    found = rule_findings(plan.doc, "C6")
    assert [(f.severity, f.subjects) for f in found] == [(s, (zone,)) for s in expected]


def test_c6_zone_sums_kept_between_edits_follow_a_rack_across_zones_and_a_changed_load(plan):
    """The zone sums are kept between edits (``Context.zone_air``); a rack moved from one zone to
    the other, and a load changed in place, give what a full run gives."""
    from planner.commands.base import SetFields
    from planner.rules.engine import Validator, validate

    west = plan.zone(air_capacity_kw=10.0, polygon=[(0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)])
    east = plan.zone(air_capacity_kw=10.0, polygon=[(20.0, 0.0), (40.0, 0.0), (40.0, 20.0), (20.0, 20.0)])
    cdu = _cdu(plan)
    racks = [plan.rack(x=2.0 + 2 * i, y=5.0, cdu=cdu) for i in range(3)]
    for rack in racks:
        plan.load(rack, power_w=8000.0, liquid_fraction=0.5)  # 4 kW to the air each: west 12 kW > 10
    doc = plan.doc
    engine = Validator(doc)

    def c6(findings):
        return sorted((f.subjects, f.message) for f in findings if f.rule == "C6")

    assert [s for s, _ in c6(engine.findings)] == [(west,)]
    engine.update(SetFields({racks[0]: {"x": 30.0}}).apply(doc))  # west 8 kW, east 4 kW: both within
    assert c6(engine.findings) == c6(validate(doc)) == []
    device = next(d for d in doc.devices.values() if d.rack == racks[1])
    heavier = plan.type("heavy", "node", height_u=1, power_w=16000.0, liquid_fraction=0.5)
    engine.update(SetFields({device.id: {"type": heavier}}).apply(doc))  # west 4 + 8 = 12 kW again
    assert c6(engine.findings) == c6(validate(doc)) and [s for s, _ in c6(engine.findings)] == [(west,)]
    assert "12.0 kW residual air heat from 2 racks" in c6(engine.findings)[0][1] and east
    from planner.commands.edits import delete_objects, place_rack
    for command in (delete_objects(doc, [racks[2]]), place_rack(doc, doc.racks[racks[1]].type, 32.0, 5.0),
                    SetFields({racks[0]: {"x": 4.0}}), SetFields({east: {"air_capacity_kw": 1.0}})):
        engine.update(command.apply(doc))  # a rack gone, one added and one back west; then a zone edit
        assert c6(engine.findings) == c6(validate(doc))
    assert [s for s, _ in c6(engine.findings)] == [(west,)]
