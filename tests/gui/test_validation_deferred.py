"""A hall paints before its first full validation: the checks run a rule at a time between
turns of the event loop, the status bar says how far they are, an edit meanwhile starts them
again, and the findings at the end are a full run's of the plan as it is then."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtWidgets import QLabel

from planner.commands import edits
from planner.layout.templates import build_template
from planner.model.long_lived import release
from planner.rules.engine import Validator
from planner.ui.validation import live as live_module


def _as_run(findings):
    return [(f.rule, f.severity, f.subjects, f.message) for f in findings]


@pytest.fixture
def deferred(monkeypatch):
    """Every plan with a cable counts as a hall (the pod has 700; a real hall 20k and more); what
    a hall's window settles (``long_lived.settle``) is released after the test."""
    monkeypatch.setattr(live_module, "CHECK_AFTER_PAINT_FROM", 1)
    yield
    release()


def test_the_window_shows_the_plan_first_and_the_findings_when_the_checks_end(qtbot, make_window, deferred):
    doc = build_template("pod", 8)
    rack = next(iter(doc.racks))
    edits.move_objects(doc, [rack], 3.0, 2.0).apply(doc)  # out of its row: findings to wait for
    window = make_window(doc)
    live = window.live_validator
    counts = window.findChild(QLabel, "findings_counts")
    assert live.pending and live.findings == []
    assert counts.text().startswith("Checking the plan: ") and counts.text().endswith(" rules…")
    assert window.findings_dock.count_label.text() == counts.text()
    qtbot.waitUntil(lambda: not live.pending, timeout=20_000)
    expected = _as_run(Validator(doc).findings)
    assert any(f[1] == "error" for f in expected)
    assert _as_run(live.findings) == expected
    assert window.findings_dock.model.rowCount() == len(expected)
    assert counts.text() == live.summary() and "error" in counts.text()
    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0)  # then, idle, the plan is settled


def test_an_edit_during_the_checks_starts_them_again_and_is_in_the_result(qtbot, make_window, deferred):
    doc = build_template("pod", 8)
    window = make_window(doc)
    live = window.live_validator
    assert live.pending
    rack = next(iter(doc.racks))
    window.session.push(edits.move_objects(doc, [rack], 0.0, 0.6))
    assert live.pending
    qtbot.waitUntil(lambda: not live.pending, timeout=20_000)
    assert _as_run(live.findings) == _as_run(Validator(doc).findings)
    window.undo_action.trigger()  # then edits go the incremental way, as on a small plan
    assert not live.pending
    assert _as_run(live.findings) == _as_run(Validator(doc).findings)


def test_finish_ends_the_checks_at_once(qtbot, make_window, deferred):
    window = make_window(build_template("pod", 8))
    live = window.live_validator
    assert live.pending
    live.finish()
    assert not live.pending
    assert _as_run(live.findings) == _as_run(Validator(window.session.doc).findings)
