"""Findings held between edits for the hall-scope rules that walk every cord or hose (P10–P13,
C10–C11): their records are worked out once and worded again after each edit, and worked out
anew only when something they read changed.

Two checks, cheapest first: an edit that touched no cable and no device (a rack renamed or
moved, a busbar edited), or only cables of other networks, cannot change a record, so the held
ones are worded again at once;
otherwise the records are kept while the rule family's signature (a tuple over its cables,
devices, catalogue figures and basis) is unchanged. Records kept are worded again only where they
name an object the edit touched (or a device of a rack it touched), so renaming a rack of a hall
with 10k held warnings words a handful.
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
#: Each validator's context → each rule's records as last worded, those findings, and every id
#: the records name (an edit naming none of them words nothing again).
_WORDED: WeakKeyDictionary[Context, dict[str, tuple[list[Record], list[Finding], frozenset[str]]]] = \
    WeakKeyDictionary()


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
    records = kept[1]
    worded = _WORDED.setdefault(ctx, {}).get(r.id)
    renamed = _renamed(ctx) if worded is not None and worded[0] is records else None
    if worded is None or renamed is None:
        found = [r.finding(ctx, severity, subjects, template.format(*(name(doc, i) for i in named)))
                 for severity, subjects, template, named in records]
        named_ids = frozenset(i for record in records for i in record[3])
    elif renamed.isdisjoint(named_ids := worded[2]):
        found = worded[1]
    else:  # only the records that name an object the edit touched read their names again
        found = [r.finding(ctx, severity, subjects, template.format(*(name(doc, i) for i in named)))
                 if not renamed.isdisjoint(named) else before
                 for (severity, subjects, template, named), before in zip(records, worded[1], strict=True)]
    _WORDED[ctx][r.id] = (records, found, named_ids)
    return found


def _renamed(ctx: Context) -> set[str] | None:
    """The ids whose names the edit may have changed: the objects it touched and the devices of the
    racks among them (a device's name reads its rack's); None in a full run."""
    changed = ctx.changed_ids
    if changed is None:
        return None
    doc = ctx.doc

    def find() -> set[str]:
        found = set(changed)
        for obj_id in changed:
            if obj_id in doc.racks:
                found.update(device.id for device in doc.devices_in(obj_id, ordered=False))
        return found
    return ctx.memo("held: ids renamed", find)  # once per pass for the rules that hold records
