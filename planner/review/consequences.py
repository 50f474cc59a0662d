"""What a change does to the plan's checks and design figures: the findings a revision adds and
resolves, and the figures that moved (per feed normal and failover current, per CDU heat and
flow, per zone floor load), worked out by the same code as validation and ``planner report``.

Findings are matched, not compared as text: a finding whose numbers changed (the same rule about
the same objects, "R07: 1,420 kg … 19.3 kPa" now "… 19.8 kPa") is the same problem, not one new
and one resolved. Two findings match when rule, severity and objects are the same and, among
several such, first by the exact message, then by the message with its numbers blanked, then
in order (the wording changed, e.g. a rename in the message). A finding whose severity changed
is new at the new severity and resolved at the old one: that is news to a reviewer.

Figures are compared before rounding and reported when they moved by at least half the step the
report prints them in (0.1 A, 0.001 kW, 0.1 L/min, 0.01 kPa), so float noise is never a change.
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from planner.commands.base import AddObjects, Command, Compound, RemoveObjects, SetFields
from planner.model.document import Document, natural_key
from planner.model.objects import COLLECTIONS
from planner.rules.context import Context
from planner.rules.engine import Validator
from planner.rules.figures import cdu_figures, feed_figures, floor_load_kpa
from planner.rules.finding import Finding, sort_findings
from planner.rules.scopes import CDU, subjects

FIGURE_KINDS = ("feed", "cdu", "zone")
_FIGURE_ORDER = ("normal current", "failover current", "heat", "flow", "peak floor load")
_NUMBER = re.compile(r"\d[\d,.]*")


@dataclass(frozen=True)
class Figure:
    """One design figure of one feed, CDU or zone, with the step it is printed to."""

    kind: str
    name: str
    figure: str
    unit: str
    value: float
    step: float

    def rounded(self) -> float:
        digits = max(0, round(-math.log10(self.step)))
        return round(self.value, digits)


@dataclass
class PlanState:
    """One revision's findings and design figures (figures keyed by (kind, object id, figure))."""

    findings: list[Finding]
    figures: dict[tuple[str, str, str], Figure]


def plan_state(doc: Document, validator: Validator | None = None) -> PlanState:
    """The findings and figures of a plan; ``validator`` is one already in step with ``doc``."""
    validator = validator if validator is not None else Validator(doc)
    return PlanState(list(validator.findings), design_figures(validator.ctx))


def design_figures(ctx: Context) -> dict[tuple[str, str, str], Figure]:
    """Per feed normal and failover current (A), per CDU heat (kW) and flow (L/min), per zone the
    highest rack floor load on it (kPa): the figures ``planner report`` prints."""
    doc, basis = ctx.doc, ctx.doc.basis
    figures: dict[tuple[str, str, str], Figure] = {}

    def add(kind: str, obj_id: str, name: str, figure: str, unit: str, value: float, step: float) -> None:
        figures[(kind, obj_id, figure)] = Figure(kind, name, figure, unit, value, step)

    for bus in doc.busbars.values():
        feed = feed_figures(ctx, bus.id)
        add("feed", bus.id, bus.name, "normal current", "A", feed.normal_a, 0.1)
        add("feed", bus.id, bus.name, "failover current", "A", feed.failover_a, 0.1)
    for cdu_id in subjects(doc, CDU):
        cdu = cdu_figures(ctx, cdu_id)
        add("cdu", cdu_id, cdu.name, "heat", "kW", cdu.liquid_w / 1000.0, 0.001)
        add("cdu", cdu_id, cdu.name, "flow", "L/min", cdu.flow_required_lpm, 0.1)
    peak: dict[str, float] = dict.fromkeys(doc.zones, 0.0)
    for rack_id in doc.racks:
        zone = ctx.zone_of(rack_id)
        if zone is not None:
            figs = ctx.rack(rack_id)
            kpa, _area = floor_load_kpa(figs.weight_kg, figs.width_m, figs.depth_m, basis)
            peak[zone.id] = max(peak[zone.id], kpa)
    for zone_id, kpa in peak.items():
        add("zone", zone_id, doc.zones[zone_id].name, "peak floor load", "kPa", kpa, 0.01)
    return figures


# ------------------------------------------------------------------------------ figures
def figures_delta(before: dict[tuple[str, str, str], Figure],
                  after: dict[tuple[str, str, str], Figure]) -> list[dict[str, Any]]:
    """The figures that moved: both there and apart by at least half a step, or there on one side
    only and not zero (a new busbar with racks on it; a removed CDU that carried heat)."""
    entries: list[dict[str, Any]] = []
    for key in before.keys() | after.keys():
        was, now = before.get(key), after.get(key)
        shown = now if now is not None else was
        assert shown is not None
        if was is not None and now is not None:
            if abs(now.value - was.value) < now.step / 2:
                continue
        elif shown.rounded() == 0:
            continue
        entries.append({"kind": shown.kind, "name": shown.name, "figure": shown.figure, "unit": shown.unit,
                        "old": was.rounded() if was else None, "new": now.rounded() if now else None})
    entries.sort(key=lambda e: (FIGURE_KINDS.index(e["kind"]), natural_key(e["name"]),
                                _FIGURE_ORDER.index(e["figure"])))
    return entries


# ----------------------------------------------------------------------------- findings
def finding_entry(finding: Finding) -> dict[str, Any]:
    """A finding as the diff lists it: rule, severity, message and the ids of its objects."""
    return {"rule": finding.rule, "severity": finding.severity, "message": finding.message,
            "objects": list(finding.subjects)}


def _pair(olds: list[Finding], news: list[Finding], key: Any) -> tuple[list[Finding], list[Finding]]:
    """Drop the pairs whose ``key`` agrees; what is left on each side, in order."""
    waiting: dict[Any, list[Finding]] = {}
    for finding in olds:
        waiting.setdefault(key(finding), []).append(finding)
    unmatched_new = []
    for finding in news:
        bucket = waiting.get(key(finding))
        if bucket:
            bucket.pop(0)
        else:
            unmatched_new.append(finding)
    return [f for bucket in waiting.values() for f in bucket], unmatched_new


def findings_delta(before: Iterable[Finding], after: Iterable[Finding]) -> dict[str, list[dict[str, Any]]]:
    """{"new": [...], "resolved": [...]}, matched as the module docstring says."""
    groups: dict[tuple, tuple[list[Finding], list[Finding]]] = {}
    for side, findings in ((0, before), (1, after)):
        for finding in findings:
            groups.setdefault((finding.rule, finding.severity, finding.subjects), ([], []))[side].append(finding)
    new: list[Finding] = []
    resolved: list[Finding] = []
    for olds, news in groups.values():
        if olds == news:
            continue
        olds, news = _pair(olds, news, lambda f: f.message)
        olds, news = _pair(olds, news, lambda f: _NUMBER.sub("#", f.message))
        matched = min(len(olds), len(news))
        resolved.extend(olds[matched:])
        new.extend(news[matched:])
    return {"new": [finding_entry(f) for f in sort_findings(new)],
            "resolved": [finding_entry(f) for f in sort_findings(resolved)]}


# ------------------------------------------------------------------------- both revisions
def plan_states(old: Document, new: Document, old_state: PlanState | None = None,
                new_state: PlanState | None = None, differing: set[str] | None = None) -> tuple[PlanState, PlanState]:
    """The states of both revisions, working out those not given.

    When neither is given and the two plans share their design basis, outline and catalogue,
    the new one is found incrementally: ``old`` is validated in full, turned into ``new`` by one
    command (objects added, removed and changed), re-validated for what that touched (the
    engine's incremental result equals a full run), then the command is reverted, leaving
    ``old`` as it was (its id counter aside: ids are never reused, so it may skip a few). At 32k
    GPUs that costs one full run, not two. ``differing`` are the ids of the objects that differ,
    when the caller knows them (else every object is compared).
    """
    if old_state is not None and new_state is not None:
        return old_state, new_state
    if old_state is None and new_state is None and _same_setting(old, new):
        validator = Validator(old)
        before = plan_state(old, validator)
        transition = transition_command(old, new, differing)
        change = transition.apply(old)
        try:
            validator.update(change)
            after = plan_state(old, validator)
        finally:
            transition.revert(old)
        return before, after
    return old_state or plan_state(old), new_state or plan_state(new)


def _same_setting(old: Document, new: Document) -> bool:
    """Whether the plans share what every rule reads as a whole (any change there re-runs all)."""
    return (old.basis == new.basis and old.outline == new.outline
            and old.catalog.custom_items() == new.catalog.custom_items())


def transition_command(old: Document, new: Document, differing: set[str] | None = None) -> Command:
    """One command that turns ``old`` into ``new`` object by object (copies of ``new``'s objects
    are added, so applying it never shares an object between the two plans): additions parents
    first, then field changes, then removals dependents first. ``differing``: the ids to look
    at (None: all)."""
    adds: list[Any] = []
    removes: list[str] = []
    values: dict[str, dict[str, Any]] = {}
    ids = differing if differing is not None else {i for attr, _cls in COLLECTIONS.values()
                                                   for doc in (old, new) for i in getattr(doc, attr)}
    for obj_id in ids:
        was, now = old.find(obj_id), new.find(obj_id)
        if was is None and now is not None:
            adds.append(copy.deepcopy(now))
        elif now is None and was is not None:
            removes.append(obj_id)
        elif was is not None and now != was:
            values[obj_id] = {name: copy.deepcopy(value) for name, value in vars(now).items()
                              if name != "id" and getattr(was, name) != value}
    order = {prefix: index for index, prefix in enumerate(COLLECTIONS)}
    adds.sort(key=lambda o: (order[o.id.split("-", 1)[0]], natural_key(o.id)))
    removes.sort(key=lambda i: (-order[i.split("-", 1)[0]], natural_key(i)))
    return Compound([AddObjects(adds, "Add"), SetFields(values, "Change"), RemoveObjects(removes, "Remove")],
                    "Turn one revision into the other")
