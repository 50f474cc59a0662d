"""An edit's work must not grow with the plan (issue 9), checked by counting work, not by timing it.

Why counts: a wall-clock threshold fails whenever the machine is busy (CI runners and the shared
development machine are), and a time ratio between two plan sizes is still at the mercy of
whatever else runs during one of them. How much work an edit does is the same on any machine.
So the same gesture — nudge one compute rack one tile, undo, redo — goes through the real main
window on a 256-node and a 1,024-node template hall (four times the racks, six times the
cables), and the work it causes is counted:

- cable routing: calls into ``planner.fabric.routing`` (the Router's methods and the helpers);
- the Cables dock: calls into ``planner.ui.cables.dock`` and ``planner.ui.cables.index``;
- rule checks (each rule's ``check``, and any other function it carries);
- plan items painted (``paint`` of every item class on the scene, layers included);
- Python lines executed on the whole edit path: the catch-all for any loop over the plan,
  whatever it is called, in the model, rules or GUI.

All are counted by one ``sys.settrace`` function (calls per function, lines per function), so
nothing is patched, and the named counters take whole modules or live objects rather than
function names, so they follow renamed helpers.

Work that does not depend on the plan's size gives about the same counts at both sizes; work
proportional to the plan gives about four times as much. The test allows twice as much (plus a
small slack), so it fails exactly when an edit has become proportional to the plan. The same
rule holds for each function's own line count: at 1,024 nodes a loop over the plan can still be
a minority of an edit's work and hide in the total, yet it is what dominates at 4,096 nodes. A
function fails only if its growth is also material (``MATERIAL`` of all lines at 1,024 nodes),
so a loop over a handful of items does not.

Deferred work is counted without waiting: ``QTimer.start`` is wrapped so short single-shot timers
(a layer rebuilding 150 ms after an edit) are fired at once by the test, deterministically, and
the event loop is run until nothing more is pending. Both windows have the same size and zoom
(60 px/m, names shown) centred on the rack, so the same floor area is repainted.
"""

from __future__ import annotations

import inspect
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from planner.layout.templates import build_template
from planner.model.networks import in_compute_fabric
from planner.ui.plan.units import to_scene

SMALL, LARGE = 256, 1024
#: Allowed growth from SMALL to LARGE: 4× the plan, at most 2× the work.
FACTOR = 2.0
#: Absolute slack per counter: a repaint pass more or less, a rule subject on a row boundary.
SLACK = 20
#: Screen pixels per metre (scene units are centimetres): rack names visible.
PIXELS_PER_CM = 0.6
SHORT_TIMER_MS = 1000
#: A function's growth in lines counts when it exceeds this share of all lines at LARGE.
MATERIAL = 0.02


class TimerLog:
    """Timers the application starts from Python, so short single-shot ones can be fired at once."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.timers: list[QTimer] = []
        original_start = QTimer.start
        original_single_shot = QTimer.singleShot

        def start(timer: QTimer, *args: Any) -> None:
            if not any(t is timer for t in self.timers):
                self.timers.append(timer)
            original_start(timer, *args)

        def single_shot(msec: int, *args: Any) -> None:
            original_single_shot(0 if isinstance(msec, int) and msec <= SHORT_TIMER_MS else msec, *args)

        monkeypatch.setattr(QTimer, "start", start)
        monkeypatch.setattr(QTimer, "singleShot", staticmethod(single_shot))

    def settle(self) -> None:
        """Run the event loop until no short single-shot timer is pending (no wall clock involved)."""
        import shiboken6

        for _ in range(100):
            QApplication.processEvents()
            fired = 0
            for timer in [t for t in self.timers if shiboken6.isValid(t)]:
                if timer.isActive() and timer.isSingleShot() and timer.interval() <= SHORT_TIMER_MS:
                    timer.stop()
                    timer.timeout.emit()
                    fired += 1
            if not fired:
                break
        for _ in range(3):  # queued scene updates, then the repaint they request
            QApplication.processEvents()


def _functions(owner: Any) -> set[Any]:
    """The code of the functions an object or class holds (methods, a rule's check …)."""
    codes = set()
    for value in vars(owner).values():
        value = getattr(value, "__func__", value)  # staticmethod, classmethod
        if inspect.isfunction(value):
            codes.add(value.__code__)
    return codes


def _module_code(*names: str) -> set[Any]:
    """The code of every function and method defined in the modules that exist among ``names``."""
    codes: set[Any] = set()
    for name in names:
        module = sys.modules.get(name)
        if module is None:
            continue
        codes |= _functions(module)
        codes |= {c for value in vars(module).values() if inspect.isclass(value)
                  and value.__module__ == name for c in _functions(value)}
    return codes


def named_code(window: Any) -> dict[str, set[Any]]:
    """Counter name → the code objects whose calls it counts, taken from whole modules and live
    objects (the rules the validator runs, the classes of the items on the scene)."""
    from planner.rules.engine import all_rules

    paints = {vars(cls)["paint"].__code__ for item in window.plan_view.plan_scene.items()
              for cls in type(item).__mro__ if inspect.isfunction(vars(cls).get("paint"))}
    return {
        "cable routing (planner.fabric.routing)": _module_code("planner.fabric.routing"),
        "Cables dock (cable_dock, cable_index)":
            _module_code("planner.ui.cables.dock", "planner.ui.cables.index"),
        "rule checks": {code for rule in all_rules() for code in _functions(rule)},
        "plan items painted": paints,
    }


@contextmanager
def counting(window: Any) -> Iterator[tuple[Counter, Counter]]:
    """Count the edit path's work: (totals per counter, Python lines per function).

    One trace function sees every Python frame (Qt calls into Python included): calls are
    counted per function for the named counters, lines per function for the catch-all.
    """
    named = named_code(window)
    calls: Counter = Counter()
    lines: Counter = Counter()
    here = __file__

    def trace(frame: Any, _event: str, _arg: Any) -> Any:
        code = frame.f_code
        if code.co_filename == here:
            return None
        calls[code] += 1
        return local

    def local(frame: Any, event: str, _arg: Any) -> Any:
        if event == "line":
            lines[frame.f_code] += 1
        return local

    counts: Counter = Counter()
    sys.settrace(trace)
    try:
        yield counts, lines
    finally:
        sys.settrace(None)
        for name, codes in named.items():
            counts[name] = sum(calls[code] for code in codes)
        counts["Python lines executed"] = sum(lines.values())


def probe_rack(doc: Any) -> str:
    """The third compute rack of the middle row: clear of network racks and of the hall's ends.
    The network racks are those of the compute fabric's switches (a compute rack holds an
    out-of-band access switch of its own)."""
    network = {d.rack for d in doc.devices.values()
               if doc.catalog[d.type].kind == "switch" and in_compute_fabric(d.role)}
    rows: dict[str, list[Any]] = {}
    for rack in doc.racks.values():
        rows.setdefault(rack.row, []).append(rack)
    row = sorted(rows, key=lambda r: (len(r), r))[len(rows) // 2]
    compute = [r for r in sorted(rows[row], key=lambda r: (r.x, r.y)) if r.id not in network]
    return compute[2].id


def zoom_to(view: Any, scale: float) -> None:
    """A fixed zoom. A wheel notch first: a fitted view re-fits on every resize (a dock growing)
    until the user zooms, and a re-fit would change how much of the plan each repaint covers."""
    centre = QPointF(view.viewport().rect().center())
    QApplication.sendEvent(view.viewport(), QWheelEvent(
        centre, QPointF(view.viewport().mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, 120),
        Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False))
    factor = scale / view.transform().m11()
    view.scale(factor, factor)


def edit_work(make_window: Callable, timers: TimerLog, nodes: int) -> tuple[Counter, Counter]:
    """Counts for nudge, undo and redo of one compute rack in a window on a template hall."""
    doc = build_template("hall", nodes)
    window = make_window(doc)
    view, session = window.plan_view, window.session
    rack_id = probe_rack(doc)
    rack = doc.racks[rack_id]
    zoom_to(view, PIXELS_PER_CM)
    view.centerOn(to_scene(rack.x, rack.y))
    session.select({rack_id})
    timers.settle()
    start_y, start_index = rack.y, session.undo_stack.index()
    with counting(window) as (counts, lines):
        view.editor.nudge(0, 1)
        timers.settle()
        moved_y = doc.racks[rack_id].y
        window.undo_action.trigger()
        timers.settle()
        window.redo_action.trigger()
        timers.settle()
    assert moved_y > start_y, "the nudge did not move the rack"
    assert view.transform().m11() == pytest.approx(PIXELS_PER_CM), "the view did not stay at the set zoom"
    assert session.undo_stack.index() == start_index + 1
    assert counts["Python lines executed"] > 0, "tracing saw nothing"
    return counts, lines


def _where(code: Any) -> str:
    return f"{code.co_name} ({code.co_filename.rsplit('/planner/', 1)[-1]}:{code.co_firstlineno})"


def test_edit_work_does_not_grow_with_the_plan(make_window, monkeypatch):
    timers = TimerLog(monkeypatch)
    small, small_lines = edit_work(make_window, timers, SMALL)
    large, large_lines = edit_work(make_window, timers, LARGE)
    report = [f"{name}: {small[name]:,} at {SMALL} nodes, {large[name]:,} at {LARGE} nodes"
              for name in sorted(set(small) | set(large))]
    failing = [name for name in sorted(set(small) | set(large))
               if large[name] > FACTOR * small[name] + SLACK]
    material = max(SLACK, MATERIAL * large["Python lines executed"])
    growth = sorted(large_lines, key=lambda c: large_lines[c] - FACTOR * small_lines[c], reverse=True)
    hot = [c for c in growth if large_lines[c] > FACTOR * small_lines[c] + material]
    failing += [f"lines of {_where(c)}" for c in hot]
    grown = [f"  {_where(c)}: {small_lines[c]:,} → {large_lines[c]:,} lines" for c in growth[:10]]
    assert not failing, (
        f"an edit's work grows with the plan ({SMALL} → {LARGE} nodes, allowed ×{FACTOR:g} + {SLACK}, "
        f"per function + {material:,.0f} lines); over the limit:\n  " + "\n  ".join(failing) + "\n"
        + "\n".join(report) + "\nfunctions whose work grew most:\n" + "\n".join(grown))
