"""P4, the rack's way in: rack PDUs present, and enough of them left after the failure the
plan's redundancy rides through. Numbers by hand.

A 100 A 3-phase PDU at 400 V, PF 1.0: √3 × 400 V × 100 A × 1.0 = 69,282 W, × 0.8 (NEC) = 55,426 W
continuous. 2N: the smaller side, ⌊n/2⌋ PDUs, carries the rack; N+1: n − 1; none: all n.
"""

from __future__ import annotations

import math

import pytest

from planner.model.objects import Device

PDU_W = math.sqrt(3) * 400.0 * 100.0 * 1.0 * 0.8  # 55,425.6 W continuous per PDU


def _rack_with_pdus(plan, count, power_w):
    rack = plan.rack()
    pdu_type = plan.type("pdu-100a", "rack_pdu", rating_a=100.0, voltage_v=400.0, phases=3)
    for n in range(count):
        plan.doc.add(Device(id=plan.doc.new_id("dev"), type=pdu_type, name=f"PDU{n + 1}", rack=rack, u=0))
    if power_w:
        plan.load(rack, power_w=power_w)
    return rack


@pytest.mark.parametrize("redundancy", ["2N", "N+1", "none"])
def test_p4_powered_rack_without_pdu(plan, rule_findings, redundancy):
    plan.doc.basis.redundancy = redundancy
    rack = _rack_with_pdus(plan, 0, 42_000.0)
    found = rule_findings(plan.doc, "P4")
    assert [(f.severity, f.subjects, f.message) for f in found] == [
        ("error", (rack,), "R01: draws 42.0 kW but holds no rack PDU")]


def test_p4_empty_rack_needs_no_pdu(plan, rule_findings):
    _rack_with_pdus(plan, 0, 0.0)
    assert rule_findings(plan.doc, "P4") == []


@pytest.mark.parametrize("redundancy, count, need", [
    ("2N", 1, "2N needs a rack PDU on each side (A and B)"),  # ⌊1/2⌋ = 0 left when a side fails
    ("N+1", 1, "N+1 needs a spare rack PDU"),                 # 1 − 1 = 0 left when it fails
])
def test_p4_pdus_that_cannot_survive_the_failure(plan, rule_findings, redundancy, count, need):
    plan.doc.basis.redundancy = redundancy
    rack = _rack_with_pdus(plan, count, 1_000.0)  # 1 kW: far below one PDU
    found = rule_findings(plan.doc, "P4")
    assert [(f.severity, f.message) for f in found] == [("error", f"R01: draws 1.0 kW; {need}, it holds 1 rack PDU")]
    assert found[0].subjects[0] == rack
    plan.doc.basis.redundancy = "none"  # one PDU is enough without redundancy
    assert rule_findings(plan.doc, "P4") == []


@pytest.mark.parametrize("redundancy, count, carrying, how", [
    ("2N", 3, 1, "1 of 3 rack PDUs per side (2N)"),           # odd count: the side with one PDU
    ("2N", 4, 2, "2 of 4 rack PDUs per side (2N)"),
    ("N+1", 2, 1, "1 of 2 rack PDUs with one failed (N+1)"),
    ("N+1", 3, 2, "2 of 3 rack PDUs with one failed (N+1)"),
    ("none", 1, 1, "1 rack PDU"),
])
@pytest.mark.parametrize("offset_w, error", [(-100.0, False), (0.0, False), (100.0, True)])
def test_p4_pdu_capacity_under_redundancy(plan, rule_findings, redundancy, count, carrying, how, offset_w, error):
    # limit = carrying × 55,425.6 W: 100 W under, exactly at, and 100 W over
    plan.doc.basis.redundancy = redundancy
    limit_w = carrying * PDU_W
    _rack_with_pdus(plan, count, limit_w + offset_w)
    found = rule_findings(plan.doc, "P4")
    assert [f.severity for f in found] == (["error"] if error else [])
    if error:
        assert f"> {limit_w / 1000:,.1f} kW from {how} at 0.8 derating" in found[0].message


def test_templates_place_pdus_for_2n():
    from planner.layout.templates import build_template
    from planner.rules.engine import validate

    for name, nodes in (("starter", 4), ("pod", 32), ("hall", 96)):
        doc = build_template(name, nodes)
        assert not [f for f in validate(doc) if f.rule in ("P4", "P5")], name
