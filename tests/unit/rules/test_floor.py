"""F1–F3 at, just under and just over their thresholds, arithmetic by hand.

One rack of 1.0 × 1.0 m holding 1,000 kg: 1,000 kg × 9.80665 m/s² = 9.80665 kN on 1.0 m²
= 9.80665 kPa.
"""

from __future__ import annotations

import pytest

Q = 9.80665  # kPa of 1,000 kg on 1 m²


def _one_ton(plan, **zone):
    zone_id = plan.zone(**zone)
    rack = plan.rack()
    plan.load(rack, weight_kg=1000.0)
    return rack, zone_id


@pytest.mark.parametrize("rating, expected", [
    (9.80, "error"),      # 9.807 kPa > 9.80: over the rating
    (Q, "warning"),       # at the rating: not above it, but above 80 % (7.85 kPa)
    (9.81, "warning"),    # just under the rating, still above 0.8 × 9.81 = 7.848
    (12.25, "warning"),   # 0.8 × 12.25 = 9.800 < 9.807: just over the warning line
    (Q / 0.8, None),      # 0.8 × 12.2583 = 9.80665: at the warning line, not above
    (12.27, None),        # 0.8 × 12.27 = 9.816 > 9.807: just under the warning line
])
def test_f1_zone_rating(plan, rule_findings, rating, expected):
    rack, zone = _one_ton(plan, rating_kpa=rating)
    found = rule_findings(plan.doc, "F1")
    assert [f.severity for f in found] == ([expected] if expected else [])
    if expected:
        assert found[0].subjects == (rack, zone)
        assert "1,000 kg on 1.00 m² = 9.8 kPa" in found[0].message
        assert "TIA-942" in found[0].source


def test_f1_ibm_spread_method(plan, rule_findings):
    # A_svc = 2 × 1.0 m × 0.76 m = 1.52 m²; A_tot = 1.0 + 0.76 = 1.76 m²
    # q = (9.80665 + 0.72 × 0.76 + 0.48 × 1.76) / 1.76 = (9.80665 + 0.5472 + 0.8448) / 1.76 = 6.3628 kPa
    plan.doc.basis.floor_method = "ibm"
    _one_ton(plan, rating_kpa=6.36)
    found = rule_findings(plan.doc, "F1")
    assert [f.severity for f in found] == ["error"] and "1.76 m² (IBM spread) = 6.4 kPa" in found[0].message
    plan.doc.zones["zone-1"].rating_kpa = 6.37
    assert [f.severity for f in rule_findings(plan.doc, "F1")] == ["warning"]


def test_f1_floor_unit(plan, rule_findings):
    plan.zone(rating_kpa=9.80)
    unit = plan.unit(kind="row_cdu", weight_kg=1000.0)  # 1 m² → 9.807 kPa
    found = rule_findings(plan.doc, "F1")
    assert [(f.severity, f.subjects[0]) for f in found] == [("error", unit)]


@pytest.mark.parametrize("tile, expected", [
    (2.45, ["error"]),   # 9.80665 kN / 4 feet = 2.4517 kN per foot > 2.45
    (2.46, []),          # just under the tile rating
    (Q / 4, []),         # at the rating: not above
])
def test_f2_tile_point_load(plan, rule_findings, tile, expected):
    _one_ton(plan, tile_rating_kn=tile)
    assert [f.severity for f in rule_findings(plan.doc, "F2")] == expected


@pytest.mark.parametrize("rolling, expected", [
    (4.90, ["warning"]),  # ½ × 9.80665 kN = 4.9033 kN on one caster > 4.90
    (4.91, []),
    (Q / 2, []),
])
def test_f2_rolling_load(plan, rule_findings, rolling, expected):
    _one_ton(plan, tile_rating_kn=10.0, rolling_rating_kn=rolling)
    found = rule_findings(plan.doc, "F2")
    assert [f.severity for f in found] == expected
    if expected:
        assert "4.90 kN on one caster" in found[0].message


def test_f2_only_on_raised_floor(plan, rule_findings):
    _one_ton(plan)  # tile rating 0: slab
    assert rule_findings(plan.doc, "F2") == []


@pytest.mark.parametrize("max_load, expected", [(999.0, ["error"]), (1000.0, []), (1001.0, [])])
def test_f3_rack_static_load(plan, rule_findings, max_load, expected):
    # rack 100 kg + device 900 kg = 1,000 kg
    plan.type("rack-rated", "rack", width_m=1.0, depth_m=1.0, rack_units=48, weight_kg=100.0, max_load_kg=max_load)
    rack = plan.rack(type_key="rack-rated")
    plan.load(rack, weight_kg=900.0)
    found = rule_findings(plan.doc, "F3")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].message == f"R01: rack and devices weigh 1,000 kg, rack rated {max_load:,.0f} kg"
