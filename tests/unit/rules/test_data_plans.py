"""The plans in tests/data: the realistic clean plan has no finding at all, and each of the
others breaks exactly the rule its file name starts with (see tests/data/make_plans.py).

These plans are hand-made without power cords or coolant hoses, so P10 and C10 each say so in
one hall-wide line (issue 21); everything else must stay quiet."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.io import load
from planner.model.networks import network_of
from planner.model.ports import COOLANT, POWER
from planner.rules.engine import validate
from planner.rules.finding import INFO

DATA = Path(__file__).resolve().parents[2] / "data"
BROKEN = sorted(p for p in DATA.glob("*.hall") if p.name[:2] in
                {f"{family}{n}" for family in "fpcs" for n in range(1, 7)})


def _without_uncorded_lines(doc, findings):
    """Drop the one P10 and one C10 line (info: not planned yet) a plan with no cords and no hoses
    at all gets."""
    assert not any(network_of(link) in (POWER, COOLANT) for link in doc.links.values())
    for rule in ("P10", "C10"):
        lines = [f for f in findings if f.rule == rule]
        assert len(lines) == 1 and lines[0].message.startswith(
            "No power cords:" if rule == "P10" else "No coolant hoses:"), lines
        assert lines[0].severity == INFO and "not planned yet" in lines[0].message
    return [f for f in findings if f.rule not in ("P10", "C10")]


def test_clean_plan_has_no_findings():
    doc = load(DATA / "clean_row_120kw.hall")
    assert _without_uncorded_lines(doc, validate(doc)) == []


def test_every_rule_has_a_plan():
    assert {p.name.split("_")[0].upper() for p in BROKEN} == {
        "F1", "F2", "F3", "P1", "P2", "P3", "P4", "P5", "C1", "C2", "C3", "C4", "C5", "C6", "S1", "S2", "S3", "S4"}


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_plan_breaks_exactly_one_rule(path):
    doc = load(path)
    findings = _without_uncorded_lines(doc, validate(doc))
    assert findings, "the plan should break its rule"
    assert {f.rule for f in findings} == {path.name.split("_")[0].upper()}
