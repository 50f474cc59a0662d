"""Jobs for tests/gui/test_jobs.py, in a Qt-free module a spawned worker can import by name
(the test puts this folder on sys.path; the worker gets the parent's sys.path)."""

from __future__ import annotations

import os
import time

from planner.jobs.worker import Report


def slow(payload: dict, report: Report) -> str:
    """Report ``steps`` times ``pause`` seconds apart, writing a marker file first if asked."""
    if payload.get("marker"):
        with open(payload["marker"], "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))
    for step in range(payload["steps"]):
        report(step / payload["steps"], f"step {step}")
        time.sleep(payload["pause"])
    return f"done after {payload['steps']} steps"


def failing(payload: dict, report: Report) -> None:
    report(0.5, "about to fail")
    raise RuntimeError("the disk\nis full")


def echo_pid(payload: dict, report: Report) -> dict:
    return {"pid": os.getpid(), "payload": payload}


#: How long ``template_held`` holds the worker: far past any test's patience, so a Cancel that
#: does not stop the worker shows as a build that finishes (and a test that takes this long).
HOLD_S = 60.0


def template_held(job, report: Report) -> str:
    """``run_template`` whose worker stops right after its first progress message and stays there
    for ``HOLD_S``: a test that cancels on that message cancels mid-build, whatever the speed."""
    from planner.jobs.worker import run_template

    held = []

    def report_then_hold(fraction: float, text: str) -> None:
        report(fraction, text)
        if not held:
            held.append(text)
            time.sleep(HOLD_S)

    return run_template(job, report_then_hold)
