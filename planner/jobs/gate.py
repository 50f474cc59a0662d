"""The refusal a new or regenerated plan gets before it is written: it must pass every rule.

``planner new``, ``planner fabric -o`` and the window's template job all refuse the same way, with
the first error as the reason, so the message is written once, here.
"""

from __future__ import annotations

from planner.model.document import Document
from planner.rules.engine import validate
from planner.rules.finding import ERROR


def would_have_errors(doc: Document) -> str:
    """"" when ``doc`` has no rule error; else "the plan would have errors: FIRST (and N more errors)"."""
    errors = [f for f in validate(doc) if f.severity == ERROR]
    if not errors:
        return ""
    more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
    return f"the plan would have errors: {errors[0].message}{more}"
