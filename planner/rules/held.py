"""Findings held between edits for the hall-scope rules that walk every cord or hose (P10–P13,
C10–C11): their records are worked out once and worded again after each edit, and worked out
anew only when something they read changed.

Two checks, cheapest first: an edit that touched no cable and no device (a rack renamed or
moved, a busbar edited), or only cables of other networks, cannot change a record, so the held
ones are worded again at once;
otherwise the records are kept while the rule family's signature (a tuple over its cables,
devices, catalogue figures and basis) is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from weakref import WeakKeyDictionary

from planner.model.document import Document
from planner.rules.context import Context
from planner.rules.engine import Rule
from planner.rules.finding import Finding

#: What a rule found: severity, subjects, and its message as a template whose {0}, {1} … are the
#: names of the object ids that follow, worded from the plan as it is now.
Record = tuple[str, tuple[str, ...], str, tuple[str, ...]]
#: The kinds of object whose edits can change a record (a record reads cables and devices).
_RECORD_INPUTS = ("link.", "dev.")
#: Each validator's context → each rule's records and the signature they were found on.
_HELD: WeakKeyDictionary[Context, dict[str, tuple[tuple, list[Record]]]] = WeakKeyDictionary()


def held_findings(ctx: Context, r: Rule, check: Callable[[Context], Iterator[Record]],
                  signature: Callable[[Context], tuple], name: Callable[[Document, str], str],
                  network: str) -> list[Finding]:
    """``r``'s findings: ``check``'s records, kept while nothing they read changed, worded now
    with ``name`` for each object id a record names. The records read the cables of ``network``
    alone, so an edit of other networks' cables only keeps them too. ``signature(ctx)`` is made
    once per pass for a module's rules (it may hold the pass's column lists, ``columns``)."""
    held = _HELD.setdefault(ctx, {})
    changed = ctx.changed_keys
    kept = held.get(r.id)
    others_only = ctx.changed_networks is not None and network not in ctx.changed_networks
    if kept is None or changed is None or (any(key.startswith(_RECORD_INPUTS) for key in changed)
                                           and not others_only):
        now = ctx.memo(f"signature of {signature.__module__}", lambda: signature(ctx))
        if kept is None or kept[0] != now:
            kept = held[r.id] = (now, list(check(ctx)))
    doc = ctx.doc
    return [r.finding(ctx, severity, subjects, template.format(*(name(doc, i) for i in named)))
            for severity, subjects, template, named in kept[1]]
