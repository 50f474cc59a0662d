"""Live validation for the GUI: keeps a Validator in step with the session.

Every Change the session emits goes to ``Validator.update`` (only the affected rules and
subjects re-run) and a New/Open runs everything again. ``updated`` then carries a
FindingsUpdate: the findings added and removed, whether it was a full run, and the subjects
whose worst severity changed. At 32k GPUs a plan can hold thousands of findings, and walking
all of them after every edit (to re-sort the dock, re-count the status bar, re-mark the plan)
costs more than the edit itself, so the worst severity per subject and the counts per
severity are kept here by difference and every view applies only what changed.

A hall of more than ``CHECK_AFTER_PAINT_FROM`` cables is painted before its first full run:
the run goes a rule at a time between turns of the event loop (``STEP_S`` at most each), with
its progress in ``checking``, so the window shows the plan and answers while a second of checks
run (4,096 nodes); until they end the views show no findings and the status bar says so. An
edit meanwhile starts the run again (the incremental path needs a complete one); whatever needs
every finding at once (a comparison) calls ``finish``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QTimer, Signal

from planner.model.change import Change
from planner.model.document import prefix_of
from planner.model.long_lived import long_lived_objects, release, settle
from planner.rules.context import Context
from planner.rules.engine import Delta, Validator
from planner.rules.finding import ERROR, SEVERITIES, WARNING, Finding
from planner.ui.session import DocumentSession

#: Severities that mark the plan, and their slot in a subject's tally.
_SLOT = {ERROR: 0, WARNING: 1}
#: Cables from which a plan paints before its first full run (a full run below: about 0.1 s).
CHECK_AFTER_PAINT_FROM = 20_000
#: The longest stretch of a deferred full run between two turns of the event loop (s): one
#: rule is never cut, and the longest (the power cords, 0.15 s at 32k GPUs) can exceed it.
STEP_S = 0.02


@dataclass(frozen=True)
class FindingsUpdate:
    """What one validation pass changed, as the views apply it.

    ``added`` is in ``sort_findings`` order. After a full run (``full``) ``added`` holds every
    finding and ``removed`` is empty: views start over. ``marks`` maps each subject whose worst
    severity changed to the new one ("" when it has no error or warning left).
    """

    added: list[Finding] = field(default_factory=list)
    removed: list[Finding] = field(default_factory=list)
    full: bool = False
    marks: dict[str, str] = field(default_factory=dict)


class LiveValidator(QObject):
    """The session's findings, always current."""

    #: Emitted with a FindingsUpdate after each validation pass that changed the findings.
    updated = Signal(object)
    #: A deferred full run's progress ("Checking the plan: 12 of 58 rules…"), "" when it ends.
    checking = Signal(str)

    def __init__(self, session: DocumentSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._tally: dict[str, list[int]] = {}  # subject → [errors, warnings] naming it
        self._worst: dict[str, str] = {}
        self._counts: Counter[str] = Counter()
        self._steps: Generator[str, None, Delta] | None = None
        self._done = 0
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._step)
        self._start()
        session.changed.connect(self._on_changed)
        session.reset.connect(self.revalidate)

    @property
    def pending(self) -> bool:
        """Whether the first full run of the plan has not ended yet (see the module's note)."""
        return self._steps is not None

    @property
    def findings(self) -> list[Finding]:
        """Every finding, sorted (the engine sorts lazily: views should follow ``updated`` instead);
        none while ``pending``."""
        return [] if self.pending else self.validator.findings

    def _start(self) -> None:
        doc = self.session.doc
        release()  # the plan before, if one was settled, may be collected
        if len(doc.links) < CHECK_AFTER_PAINT_FROM:
            self._steps = None
            self._timer.stop()
            self.validator = Validator(doc)
            self._publish(Delta(full=True))
            return
        self.validator = Validator(doc, run=False)
        self._restart(forget=False)
        self._publish(Delta(full=True))  # nothing yet: views start from no findings

    def _restart(self, forget: bool = True) -> None:
        self._steps = self.validator.full_run_steps(forget=forget)
        self._done = 0
        self._timer.start()
        self.checking.emit(self._progress())

    def _progress(self) -> str:
        return f"Checking the plan: {self._done} of {len(self.validator.rules)} rules…"

    def _step(self, seconds: float = STEP_S) -> None:
        """The next stretch of the deferred full run; its Delta published when it ends."""
        if self._steps is None:
            self._timer.stop()
            return
        deadline = time.perf_counter() + seconds
        with long_lived_objects():
            try:
                while time.perf_counter() < deadline:
                    if next(self._steps) != "indices":
                        self._done += 1
            except StopIteration as done:
                self._steps = None
                self._timer.stop()
                self._publish(done.value)
                self.checking.emit("")
                return
        self.checking.emit(self._progress())

    def _prepare_edits(self) -> None:
        """After a full run: what the first edit would make, and for a hall the collector's
        full pass over the plan done now rather than on an edit (``settle``)."""
        self.validator.ctx.prepare_edits()
        if len(self.session.doc.links) >= CHECK_AFTER_PAINT_FROM:
            settle()

    def finish(self) -> None:
        """End a deferred full run now (for whatever needs every finding at once)."""
        if self._steps is not None:
            self._step(float("inf"))

    @property
    def context(self) -> Context:
        """The validator's cached figures (rack power, feed and CDU indices) for overlays."""
        return self.validator.ctx

    def revalidate(self) -> None:
        """Validate the session's document from scratch (a new document was opened)."""
        self._start()

    def _on_changed(self, change: Change) -> None:
        if self.validator.doc is not self.session.doc:
            self.revalidate()
            return
        if self._steps is not None:
            self._restart()  # the run so far read the plan before the edit
            return
        delta = self.validator.update(change)
        if delta:
            self._publish(delta)

    def _publish(self, delta: Delta) -> None:
        """Fold a validator Delta into the tallies and tell the views (nothing when it nets out:
        the engine reports a re-run rule's old and new findings even where they are equal)."""
        if delta.full:
            if not self.pending:  # once the window is idle, what the first edit would wait for
                QTimer.singleShot(0, self._prepare_edits)
            before = self._worst
            self._tally, self._worst, self._counts = {}, {}, Counter()
            added = list(self.validator.findings)
            touched = self._count(added, 1)
            marks = {s: self._worst.get(s, "") for s in touched | set(before)
                     if self._worst.get(s, "") != before.get(s, "")}
            self.updated.emit(FindingsUpdate(added=added, full=True, marks=marks))
            return
        net = Counter(delta.added)
        net.subtract(delta.removed)
        added = sorted(net.elements(), key=Finding.sort_key)
        removed = list((-net).elements())
        if not added and not removed:
            return
        was: dict[str, str] = {}
        touched = self._count(removed, -1, was) | self._count(added, 1, was)
        marks = {s: self._worst.get(s, "") for s in touched if self._worst.get(s, "") != was[s]}
        self.updated.emit(FindingsUpdate(added=added, removed=removed, marks=marks))

    def _count(self, findings: Iterable[Finding], step: int, before: dict[str, str] | None = None) -> set[str]:
        """Add (step 1) or take away (step -1) findings from the tallies; returns the subjects
        whose tally moved, and records in ``before`` their worst severity before the first move."""
        touched: set[str] = set()
        for finding in findings:
            self._counts[finding.severity] += step
            slot = _SLOT.get(finding.severity)
            if slot is None:
                continue
            for subject in finding.subjects:
                if prefix_of(subject) == "zone":
                    continue  # a zone finding is about the rack on it, not the whole area
                if before is not None and subject not in before:
                    before[subject] = self._worst.get(subject, "")
                tally = self._tally.setdefault(subject, [0, 0])
                tally[slot] += step
                touched.add(subject)
        for subject in touched:
            errors, warnings = self._tally[subject]
            if errors:
                self._worst[subject] = ERROR
            elif warnings:
                self._worst[subject] = WARNING
            else:
                del self._tally[subject]
                self._worst.pop(subject, None)
        return touched

    def counts(self) -> dict[str, int]:
        """Findings per severity (every severity present, zero or not)."""
        tally = {severity: 0 for severity in SEVERITIES}
        tally.update(+self._counts)
        return tally

    def summary(self) -> str:
        """"3 errors, 7 warnings" for the status bar (the progress until a deferred run ends)."""
        if self.pending:
            return self._progress()
        tally = self.counts()
        errors, warnings = tally[ERROR], tally[WARNING]
        return f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"

    def severity(self, obj_id: str) -> str:
        """The worst severity of the findings naming ``obj_id`` ("error", "warning" or "")."""
        return self._worst.get(obj_id, "")

    def severity_by_id(self) -> dict[str, str]:
        """The worst severity per subject id, for the red/amber marks on the plan (a copy)."""
        return dict(self._worst)
