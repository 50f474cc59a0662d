"""The validation engine: a catalogue of small rules, run in full on load and incrementally after
every edit (DESIGN §2, §5).

Adding rules (e.g. network rules in ``planner/rules/network.py``)
------------------------------------------------------------------
Write a module with functions decorated by ``@rule`` and add its name to ``RULE_MODULES``::

    from planner.rules.engine import rule
    from planner.rules.finding import ERROR
    from planner.rules.scopes import LINK

    @rule("N3", scope=LINK, reads={"link.*", "dev.rack", "rack.x", "rack.y"},
          basis=("fabric_kind",), source="IEEE 802.3 / IBTA reach tables")
    def media_reach(ctx, link_id, r):
        ...
        yield r.finding(ctx, ERROR, (link_id,), "link-7: 6.2 m exceeds DAC reach 3 m")

- ``scope`` says what one check is about: one rack, floor unit, busbar, CDU, zone, device,
  link, pair of racks the routed cables join (PAIR, subjects ``bundles.pair_subject``; such a
  rule is ``judged``, below), cable tray (TRAY, subjects are the ids of
  ``planner.fabric.trays``: the trays the routed cables load), or the whole hall (HALL,
  subject ``"hall"``). The function gets the
  Context, one subject id and the Rule, and yields Findings (make them with ``r.finding``).
- ``reads`` names the inputs as ``"prefix.field"`` (``"rack.x"``) or ``"prefix.*"`` (any field,
  or objects added/removed). After an edit a rule runs only if the edit touched something it
  reads (a rename counts as touching every field), and only for the subjects of its scope
  the edit can affect: the objects changed, their racks and devices, the trays their cables
  ran and run in, their spatial neighbours (STRtree over footprints, within the largest
  clearance in the design basis), the busbars and CDUs they are assigned to (old and new),
  and the racks on a changed busbar or CDU. A rule must read nothing else: its result for a
  subject may depend only on what these neighbourhoods cover.
- Values that depend only on the fabric's structure (which ports the cables join, device
  types and roles) can be kept across edits with ``ctx.fabric_memo(key, factory)``: the
  engine forgets them when an edit adds, removes or changes a cable or a device beyond its
  name and place (N2, N4, N5, N6 use it, so renaming a rack does not re-walk 98k cables).
- ``follows_routes`` (LINK rules that read a cable's routed length, N8): the rule also re-runs
  for every cable whose route an edit changed beyond its own racks' cables: when a move shifts
  a cross-aisle tray, the router re-routes the rack pairs it kept and the bundles name the
  cables of the pairs whose length changed (``Context.update_routes``), not all 98k cables.
  Values that one pass needs more than once are kept with ``ctx.memo(key, factory)``.
- ``candidates`` (optional, for rules over many subjects such as LINK rules): a function
  ``(ctx) -> iterable of subjects`` that a full run calls once instead of calling the check for
  every subject. It returns, in any order, every subject the check may report (more is fine:
  the check still decides each one), from one loop with the lookups it needs hoisted out of
  it; at 393k cables a call per cable is most of a full run. The incremental path ignores it,
  unless the rule also has ``narrowed``: ``(ctx, subjects) -> iterable of subjects``, the same
  promise for the subjects an edit re-checks (a moved rack's neighbours for S1, S2).
- ``judged`` (optional, instead of ``narrowed``): ``(ctx, cables, held, rule) -> {subject:
  findings}`` re-judges in one call what an edit can affect, for a rule whose findings each name
  many subjects: N8's scope PAIR, one finding per rack pair naming its stale cables. ``cables`` are
  those the edit touched or re-routed (a PAIR rule's targets are cables: a pair changes through
  them), ``held`` the subjects whose findings named any of them; it returns every subject it
  judged (``held`` among them), each with its findings now (none: an empty list).
- ``basis`` lists the design-basis fields it uses as thresholds; ``source`` is the standard or
  datasheet behind the limit, ``source_field`` a basis field whose ``DesignBasis.source()``
  is cited instead (a plan can annotate its own sources).

Any change to the design basis, the catalogue or the hall outline re-runs everything.
The incremental result always equals a full run (tests/property/test_incremental_*.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Generator, Iterable
from dataclasses import dataclass, field

from planner.model.change import Change
from planner.model.document import Document, prefix_of
from planner.model.long_lived import long_lived_objects
from planner.model.objects import RECORD_FIELDS
from planner.rules.affected import Affected
from planner.rules.context import Context
from planner.rules.edit_kinds import cables_only, changed_keys, changes_fabric
from planner.rules.finding import Finding, sort_findings
from planner.rules.scopes import LINK, PAIR, SCOPES, TRAY, existing, subjects

#: Modules whose ``@rule`` functions make up the catalogue, imported on first use.
RULE_MODULES: list[str] = [
    "planner.rules.floor",
    "planner.rules.power",
    "planner.rules.cooling",
    "planner.rules.space",
    "planner.rules.network",
    "planner.rules.networks",
    "planner.rules.references",
    "planner.rules.hostnames",
    "planner.rules.protocol",
    "planner.rules.labels",
    "planner.rules.cable_stock",
    "planner.rules.efficiency", "planner.rules.step_load", "planner.rules.cooling_redundancy",
    "planner.rules.power_cords",
    "planner.rules.hoses",
    "planner.rules.cage_media",
]

Check = Callable[[Context, str, "Rule"], Iterable[Finding]]
Candidates = Callable[[Context], Iterable[str]]
Narrowed = Callable[[Context, Collection[str]], Iterable[str]]
Judged = Callable[[Context, Collection[str], Collection[str], "Rule"], dict[str, list[Finding]]]


@dataclass(frozen=True)
class Rule:
    """One check of the catalogue, with what it reads and where its limit comes from."""

    id: str
    title: str
    scope: str
    reads: frozenset[str]
    check: Check
    basis: tuple[str, ...] = ()
    source: str = ""
    source_field: str | None = None
    follows_routes: bool = False
    candidates: Candidates | None = None
    narrowed: Narrowed | None = None
    judged: Judged | None = None

    @property
    def key(self) -> str:
        return f"{self.id}:{self.scope}"

    @property
    def family(self) -> str:
        return self.id.rstrip("0123456789")

    def reads_any(self, keys: set[str]) -> bool:
        for key in keys:
            prefix, name = key.split(".", 1)
            for read in self.reads:
                r_prefix, r_name = read.split(".", 1)
                if r_prefix == prefix and (name == "*" or r_name in ("*", name)):
                    return True
        return False

    def finding(self, ctx: Context, severity: str, subjects: Iterable[str], message: str,
                source_field: str | None = None) -> Finding:
        """A Finding of this rule citing its source (or the design-basis field ``source_field``)."""
        return Finding(rule=self.id, severity=severity, subjects=tuple(subjects), message=message,
                       source=self.cited(ctx, source_field))

    def cited(self, ctx: Context, source_field: str | None = None) -> str:
        """The source a finding cites: the design basis's for ``source_field`` (or the rule's own
        field), else the rule's."""
        cited = source_field or self.source_field
        return ctx.doc.basis.source(cited) if cited else self.source


class Catalogue:
    """The rules: each rule module's ``@rule`` adds its checks when the module is imported, and
    ``rules()`` imports every module of ``modules`` the first time it is asked, so a caller never
    sees half the catalogue. One per process (``CATALOGUE``); a test can make its own."""

    def __init__(self, modules: Iterable[str]) -> None:
        self.modules = tuple(modules)
        self.by_key: dict[str, Rule] = {}
        self.complete = False

    def add(self, new: Rule) -> None:
        self.by_key[new.key] = new

    def rules(self) -> list[Rule]:
        if not self.complete:
            for name in self.modules:
                importlib.import_module(name)
            self.complete = True
        return sorted(self.by_key.values(), key=lambda r: (r.family, int(r.id[len(r.family):] or 0), r.scope))


CATALOGUE = Catalogue(RULE_MODULES)


def rule(rule_id: str, *, scope: str, reads: Iterable[str], title: str = "", basis: Iterable[str] = (),
         source: str = "", source_field: str | None = None,
         follows_routes: bool = False, candidates: Candidates | None = None,
         narrowed: Narrowed | None = None, judged: Judged | None = None) -> Callable[[Check], Check]:
    """Register a check in the catalogue (see the module docstring)."""
    if scope not in SCOPES:
        raise ValueError(f"unknown scope {scope!r}")
    if (scope == PAIR) != (judged is not None):
        raise ValueError(f"{rule_id}: a rule of scope {PAIR} is judged, and only such a rule")

    def register(fn: Check) -> Check:
        new = Rule(id=rule_id, title=title or (fn.__doc__ or fn.__name__).strip().splitlines()[0], scope=scope,
                   reads=frozenset(reads), check=fn, basis=tuple(basis), source=source, source_field=source_field,
                   follows_routes=follows_routes, candidates=candidates, narrowed=narrowed,
                   judged=judged)
        CATALOGUE.add(new)
        return fn

    return register


def all_rules() -> list[Rule]:
    """Every rule of the catalogue (``Catalogue.rules``)."""
    return CATALOGUE.rules()


@dataclass
class Delta:
    """What an incremental update changed in the findings."""

    added: list[Finding] = field(default_factory=list)
    removed: list[Finding] = field(default_factory=list)
    full: bool = False

    def __bool__(self) -> bool:
        return self.full or bool(self.added or self.removed)


def run_through(steps: Generator[str, None, Delta]) -> Delta:
    """Every step of a ``full_run_steps``, and its Delta."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Validator:
    """Live findings of one document: a full run on creation, then ``update(change)`` per edit.

    Keeps findings per (rule, subject) so an edit replaces exactly the results it can affect,
    and remembers the old device → rack placements and footprints so it knows what an edit
    moved away from.
    """

    def __init__(self, doc: Document, rules: Iterable[Rule] | None = None, run: bool = True) -> None:
        """``run`` false: no findings yet; the caller runs ``full_run_steps(forget=False)`` (the
        context is new) before the first ``update``."""
        self.doc = doc
        self.rules = list(rules) if rules is not None else all_rules()
        self.ctx = Context(doc)
        self._results: dict[tuple[str, str], list[Finding]] = {}
        #: subjects with results, per rule with ``narrowed``: an edit re-checks only these and
        #: the narrowed ones (not each of a moved network rack's 4.7k cables)
        self._reported: dict[str, set[str]] = {}
        #: per rule with ``judged``: each subject its findings name → the subject they are of
        self._held_by: dict[str, dict[str, str]] = {}
        #: where the devices and footprints were, to know what an edit moved away from
        self.affected = Affected(doc, self.ctx)
        self._sorted: list[Finding] | None = None
        #: the rules of ``_readers_of`` (``rules`` when asked) reading each set of inputs an edit
        #: has touched (a drag touches the same few)
        self._readers: dict[frozenset[str], list[Rule]] = {}
        self._readers_of = self.rules
        if run:
            with long_lived_objects():
                run_through(self.full_run_steps(forget=False))

    @property
    def findings(self) -> list[Finding]:
        if self._sorted is None:
            self._sorted = sort_findings([f for group in self._results.values() for f in group])
        return self._sorted

    def full_run(self) -> Delta:
        """Validate everything (on load, and after design-basis, catalogue or outline changes)."""
        with long_lived_objects():
            return run_through(self.full_run_steps())

    def full_run_steps(self, forget: bool = True) -> Generator[str, None, Delta]:
        """``full_run`` a rule at a time: yields before the indices are made and before each
        rule (its key), and returns the Delta. A caller may pause between steps (the GUI paints
        a hall before checking it), but the document must not change meanwhile: after an edit,
        start again. ``forget`` false skips dropping the context's caches (a new context)."""
        before = self.findings if self._results else []
        doc = self.doc
        yield "indices"
        if forget:
            self.ctx.forget_all()
        self.ctx.changed_keys = None
        self.ctx.changed_ids = None
        self.ctx.index()
        self._results = {}
        self._reported = {r.key: set() for r in self.rules if r.narrowed is not None}
        self._held_by = {r.key: {} for r in self.rules if r.judged is not None}
        self._sorted = None
        self.affected.reset()
        if any(r.follows_routes for r in self.rules):
            self.ctx.cable_bundles()  # so that edits learn which cables they re-route
        ctx, results = self.ctx, self._results
        for r in self.rules:  # a plain loop: 400k checks at 32k GPUs
            yield r.key
            check, key = r.check, r.key
            chosen = r.candidates(ctx) if r.candidates is not None else subjects(doc, r.scope, ctx)
            reported, held_by = self._reported.get(key), self._held_by.get(key)
            for subject in chosen:
                found = [*check(ctx, subject, r)]
                if found:
                    results[(key, subject)] = found
                    if reported is not None:
                        reported.add(subject)
                    if held_by is not None:
                        _hold(held_by, subject, found)
        self.ctx.end_pass()
        return Delta(added=self.findings, removed=before, full=True)

    def update(self, change: Change) -> Delta:
        """Re-run the rules an edit can affect, for the subjects it can affect."""
        if change.basis or change.catalog or change.outline:
            return self.full_run()
        if not change.touched:
            return Delta()
        self.ctx.changed_networks = None  # known only for an edit of cables alone (``cables_changed``)
        if changes_fabric(change):
            cables = cables_only(change)
            if cables is None:
                self.ctx.forget_fabric()
            else:
                self.ctx.cables_changed(cables)
        keys = changed_keys(change)
        rules = self._reading(keys)
        self.ctx.changed_keys = keys
        self.ctx.changed_ids = change.touched
        dirty = self.affected.of(change)
        dirty[TRAY], rerouted = self.ctx.update_routes(self._rebundled(change))
        delta = Delta()
        ctx, results = self.ctx, self._results
        for r in rules:  # a plain loop: a network rack's move re-checks 2k cables
            scoped = dirty[LINK if r.scope == PAIR else r.scope]
            targets = scoped | rerouted if r.follows_routes else scoped
            if r.judged is not None:
                self._judged_update(r, targets, delta)
                continue
            if r.narrowed is not None:
                self._narrowed_update(r, targets, delta)
                continue
            key, check, exists = r.key, r.check, existing(ctx, r.scope)
            for subject in targets:
                old = results.pop((key, subject), [])
                new = [*check(ctx, subject, r)] if exists(subject) else []
                if new:
                    results[(key, subject)] = new
                if old != new:
                    delta.removed.extend(old)
                    delta.added.extend(new)
        self.ctx.end_pass()
        if delta:
            self._sorted = None
        return delta

    def _narrowed_update(self, r: Rule, targets: set[str], delta: Delta) -> None:
        """Re-check a rule with ``narrowed`` for an edit's targets: the subjects it narrows them
        to are checked, the targets that had results and are not among them lose those, and
        the rest had none and still have none."""
        ctx, results, key, check = self.ctx, self._results, r.key, r.check
        assert r.narrowed is not None
        exists = existing(ctx, r.scope)
        maybe = set(r.narrowed(ctx, targets))
        reported = self._reported[key]
        for subject in maybe | (reported & targets):
            old = results.pop((key, subject), [])
            new = [*check(ctx, subject, r)] if subject in maybe and exists(subject) else []
            if new:
                results[(key, subject)] = new
                reported.add(subject)
            else:
                reported.discard(subject)
            if old != new:
                delta.removed.extend(old)
                delta.added.extend(new)

    def _reading(self, keys: set[str]) -> list[Rule]:
        """The rules that read any of ``keys``, in catalogue order."""
        if self._readers_of is not self.rules:  # a caller chose other rules (``merge_errors``)
            self._readers, self._readers_of = {}, self.rules
        frozen = frozenset(keys)
        rules = self._readers.get(frozen)
        if rules is None:
            rules = self._readers[frozen] = [r for r in self.rules if r.reads_any(keys)]
        return rules

    def _judged_update(self, r: Rule, targets: set[str], delta: Delta) -> None:
        """Re-judge a rule with ``judged`` for an edit's targets: each subject it judged takes
        its findings now."""
        results, key = self._results, r.key
        assert r.judged is not None
        held_by = self._held_by[key]
        held = {held_by[i] for i in targets & held_by.keys()}
        for subject, new in r.judged(self.ctx, targets, held, r).items():
            old = results.pop((key, subject), [])
            if old == new:
                if new:
                    results[(key, subject)] = new
                continue
            for finding in old:
                for named in finding.subjects:
                    if held_by.get(named) == subject:
                        del held_by[named]
            if new:
                results[(key, subject)] = new
                _hold(held_by, subject, new)
            delta.removed.extend(old)
            delta.added.extend(new)

    def _rebundled(self, change: Change) -> set[str]:
        """Cables whose bundle an edit may have changed: cables added, removed or edited, and the
        cables of devices added, removed or moved to another rack. (Cables of a moved rack keep
        their bundle; the router re-lays its rack pairs. A cable's installation state is no part
        of its bundle.)"""
        links = {i for i in change.added | change.removed if prefix_of(i) == "link"}
        links.update(i for i, names in change.modified.items() if prefix_of(i) == "link" and names - RECORD_FIELDS)
        for obj_id in change.touched:
            if prefix_of(obj_id) == "dev" and (obj_id not in change.modified or "rack" in change.modified[obj_id]):
                links |= self.doc.link_ids_of(obj_id)
        return links

def _hold(held_by: dict[str, str], subject: str, findings: list[Finding]) -> None:
    """Note that ``subject``'s findings name each of their subjects."""
    for finding in findings:
        held_by.update(dict.fromkeys(finding.subjects, subject))


def validate(doc: Document) -> list[Finding]:
    """Every finding of the plan (a full run), errors first."""
    return Validator(doc).findings
