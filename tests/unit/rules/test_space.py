"""S1–S4: placement, aisles, working space and rack units, at and around each threshold.

Racks are 1.0 × 1.0 m; rotation 0 faces north (−y), so a rack at y = 5.0 has its front at
y = 4.5 and its rear at y = 5.5. Default aisles: front 1.2 m recommended / 0.9 m vendor
minimum, rear 0.9 m / 0.6 m.
"""

from __future__ import annotations

import pytest


def test_s1_outside_the_hall(plan, rule_findings):
    rack = plan.rack(x=39.75, y=10.0)  # spans x 39.25–40.25: 0.25 m² outside the 40 m wall
    found = rule_findings(plan.doc, "S1")
    assert [(f.subjects, f.message) for f in found] == [((rack,), "R01: 0.25 m² outside the hall outline")]


def test_s1_on_a_column(plan, rule_findings):
    rack = plan.rack(x=5.0, y=5.0)
    column = plan.obstacle(5.3, 5.3, 5.9, 5.9)  # overlaps 0.2 × 0.2 m
    found = rule_findings(plan.doc, "S1")
    assert [(f.subjects, f.message) for f in found] == [((rack, column), "R01 stands on column C1 (0.04 m²)")]


def test_s1_overlap_reported_once_and_touching_is_fine(plan, rule_findings):
    a = plan.rack(x=5.0, y=5.0)
    b = plan.rack(x=5.9, y=5.0)   # overlaps a by 0.1 × 1.0 m
    plan.rack(x=6.9, y=5.0)       # touches b edge to edge
    unit = plan.unit(kind="cabinet", x=4.5, y=5.5)  # overlaps a by 0.5 × 0.5 m, clear of b
    found = rule_findings(plan.doc, "S1")
    assert sorted((f.subjects, f.message) for f in found) == [
        ((a, unit), "R01 overlaps U1 (0.25 m²)"), ((a, b), "R01 overlaps R02 (0.10 m²)")]


def _facing(plan, gap, rotation_b=180):
    """Rack A faces north at y = 5; rack B stands ``gap`` m in front of it (its rear toward A)."""
    a = plan.rack(x=5.0, y=5.0)
    b = plan.rack(x=5.0, y=5.0 - 1.0 - gap, rotation=rotation_b)
    return a, b


@pytest.mark.parametrize("gap, expected", [
    (1.2, []),            # at the recommended 1.2 m
    (1.19, ["warning"]),  # just under the recommended width
    (0.9, ["warning"]),   # at the vendor minimum: not below it
    (0.89, ["error"]),    # below the vendor minimum
])
def test_s2_front_aisle(plan, rule_findings, gap, expected):
    a, b = _facing(plan, gap)  # B faces south, so the aisle is the front of both racks
    found = [f for f in rule_findings(plan.doc, "S2") if f.subjects[0] == a]
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects == (a, b)
        assert found[0].message.startswith(f"R01: front (cold) aisle {gap:.2f} m to R02")


@pytest.mark.parametrize("gap, expected", [(0.9, []), (0.89, ["warning"]), (0.6, ["warning"]), (0.59, ["error"])])
def test_s2_rear_aisle(plan, rule_findings, gap, expected):
    a = plan.rack(x=5.0, y=5.0)                           # rear at y = 5.5
    column = plan.obstacle(4.0, 5.5 + gap, 6.0, 8.0)
    found = rule_findings(plan.doc, "S2")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects == (a, column) and "rear (hot) aisle" in found[0].message
        assert "hot aisle" in found[0].source or "rear clearance" in found[0].source


def test_s2_wall_and_row_neighbours(plan, rule_findings):
    a = plan.rack(x=5.0, y=1.0)   # front at y = 0.5, 0.5 m from the north wall
    plan.rack(x=6.0, y=1.0)       # side by side in the row: not an aisle obstruction
    found = [f for f in rule_findings(plan.doc, "S2") if f.subjects[0] == a]
    assert [(f.severity, f.subjects, f.message) for f in found] == [
        ("error", (a,), "R01: front (cold) aisle 0.50 m to the hall wall, vendor minimum 0.90 m")]


def test_s2_rotated_rack(plan, rule_findings):
    a = plan.rack(x=5.0, y=5.0, rotation=90)   # faces east: front at x = 5.5
    plan.obstacle(6.5, 4.0, 7.0, 6.0)          # 1.0 m in front
    found = rule_findings(plan.doc, "S2")
    assert [(f.severity, f.subjects[0]) for f in found] == [("warning", a)]


@pytest.mark.parametrize("gap, expected", [(1.2, []), (1.19, ["error"])])
def test_s3_working_space(plan, rule_findings, gap, expected):
    unit = plan.unit(kind="cabinet", x=10.0, y=10.0)   # 1 × 1 m, front at y = 9.5
    plan.obstacle(9.0, 9.5 - gap - 0.5, 11.0, 9.5 - gap)
    found = rule_findings(plan.doc, "S3")
    assert [f.severity for f in found] == expected
    if expected:
        assert found[0].subjects[0] == unit and "NEC 110.26" in found[0].source


def test_s3_only_cabinets(plan, rule_findings):
    plan.unit(kind="row_cdu", x=10.0, y=10.0)
    plan.obstacle(9.0, 9.0, 11.0, 9.4)
    assert rule_findings(plan.doc, "S3") == []


def test_s4_devices_fit_and_do_not_overlap(plan, rule_findings):
    rack = plan.rack()
    plan.load(rack, u=1, height_u=4)
    second = plan.load(rack, u=4, height_u=2)    # U4–U5 overlaps U1–U4
    top = plan.load(rack, u=47, height_u=2)      # U47–U48: fits exactly
    over = plan.load(rack, u=48, height_u=2)     # U48–U49: beyond 48U, and over `top`
    found = rule_findings(plan.doc, "S4")
    assert sorted(f.message for f in found) == sorted([
        "R01: D2 (U4–U5) overlaps D1",
        "R01: D4 at U48–U49 is outside the rack's 48U",
        "R01: D4 (U48–U49) overlaps D3",
    ])
    assert {f.subjects[-1] for f in found} == {second, over} and top
