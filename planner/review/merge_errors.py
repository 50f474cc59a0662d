"""The merge's rule check: errors the merged plan has that neither side had (two people each adding
racks to one busbar, now overloaded). ``planner merge`` lists them and ``--strict`` fails on them;
it lives beside the merge, not in the command line, so every face of the merge can ask.
"""

from __future__ import annotations

from planner.model.document import Document
from planner.review.merge import MergeResult, become
from planner.rules.engine import Validator
from planner.rules.finding import ERROR, Finding


def new_errors(result: MergeResult, scratch: Document, ours: Document, theirs: Document) -> list[Finding]:
    """Rule errors of the merged plan that neither ours nor theirs had (by rule and subjects).

    ``scratch`` is the merged plan as loaded back from its text: it is validated in full; only if
    it has errors at all is it turned into ours and into theirs (theirs renumbered as in the
    merge), the validator following incrementally with just the rules that found those errors:
    a few edits' worth of checks instead of two more full runs. ``scratch`` is theirs afterwards."""
    validator = Validator(scratch)
    errors = [f for f in validator.findings if f.severity == ERROR]
    if not errors or result.sides is None:
        return []
    rules = {f.rule for f in errors}
    validator.rules = [r for r in validator.rules if r.id in rules]  # the others' results go stale, unread
    known: set[tuple[str, tuple[str, ...]]] = set()
    for objects, side in ((result.sides.ours, ours), (result.sides.theirs, theirs)):
        validator.update(become(scratch, objects, side, result.sides.touched))
        known |= {(f.rule, f.subjects) for f in validator.findings if f.severity == ERROR}
    return [f for f in errors if (f.rule, f.subjects) not in known]
