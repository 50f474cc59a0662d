"""The plans in tests/data: the realistic clean plan has no finding at all, and each of the
others breaks exactly the rule its file name starts with (see tests/data/make_plans.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.io import load
from planner.rules.engine import validate

DATA = Path(__file__).resolve().parents[2] / "data"
BROKEN = sorted(p for p in DATA.glob("*.hall") if p.name[:2] in
                {f"{family}{n}" for family in "fpcs" for n in range(1, 7)})


def test_clean_plan_has_no_findings():
    assert validate(load(DATA / "clean_row_120kw.hall")) == []


def test_every_rule_has_a_plan():
    assert {p.name.split("_")[0].upper() for p in BROKEN} == {
        "F1", "F2", "F3", "P1", "P2", "P3", "P4", "P5", "C1", "C2", "C3", "C4", "C5", "C6", "S1", "S2", "S3", "S4"}


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_plan_breaks_exactly_one_rule(path):
    findings = validate(load(path))
    assert findings, "the plan should break its rule"
    assert {f.rule for f in findings} == {path.name.split("_")[0].upper()}
