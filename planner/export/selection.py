"""Which racks a paper export covers: what an installer asks for, turned into rack ids.

Installers print one row or a few racks at a time (tomorrow's work), so every paper export
takes ``ExportOptions.racks``. On the command line that is ``--racks`` and ``--row``:

- ``--racks R01-R20,R25``: rack names, ranges and comma lists. A range takes every rack whose
  name lies between its two ends in the names' natural order (``R2`` before ``R10``), both ends
  included, whichever is given first; a name that itself holds "-" is taken whole first.
- ``--row 3`` (repeatable, or ``--row 3,4``): every rack of the plan's rows of those names.

Both together cover the racks of either. A name the plan does not have is refused with a
``SelectionError`` naming it, so a typo never prints an empty or a whole-hall sheet by surprise.
``describe`` gives the selection back in the same words for the documents' first page.
"""

from __future__ import annotations

from collections.abc import Iterable

from planner.model.document import Document, natural_key
from planner.model.objects import Rack


class SelectionError(ValueError):
    """A rack or row name in a selection that the plan does not have (the message names it)."""


def _in_order(doc: Document) -> list[Rack]:
    return sorted(doc.racks.values(), key=lambda rack: (natural_key(rack.name), rack.id))


def _items(texts: Iterable[str]) -> list[str]:
    return [item.strip() for text in texts for item in text.split(",") if item.strip()]


def _range(order: list[Rack], index: dict[str, int], item: str) -> list[Rack] | None:
    """The racks of ``FIRST-LAST`` (both names of the plan), or None when no split names two racks."""
    for cut in (i for i, char in enumerate(item) if char == "-"):
        first, last = item[:cut].strip(), item[cut + 1:].strip()
        if first in index and last in index:
            low, high = sorted((index[first], index[last]))
            return order[low:high + 1]
    return None


def racks_named(doc: Document, texts: Iterable[str]) -> set[str]:
    """The ids of the racks ``texts`` name (names, ``FIRST-LAST`` ranges, comma lists)."""
    order = _in_order(doc)
    index = {rack.name: position for position, rack in enumerate(order)}
    chosen: set[str] = set()
    for item in _items(texts):
        if item in index:
            chosen.add(order[index[item]].id)
            continue
        span = _range(order, index, item)
        if span is None:
            raise SelectionError(f"no rack {item!r} in the plan (racks {describe(doc, None)})")
        chosen.update(rack.id for rack in span)
    return chosen


def racks_in_rows(doc: Document, texts: Iterable[str]) -> set[str]:
    """The ids of every rack in the rows ``texts`` name (comma lists allowed)."""
    rows: dict[str, set[str]] = {}
    for rack in doc.racks.values():
        if rack.row:
            rows.setdefault(rack.row, set()).add(rack.id)
    chosen: set[str] = set()
    for item in _items(texts):
        if item not in rows:
            known = ", ".join(sorted(rows, key=natural_key)) or "none"
            raise SelectionError(f"no row {item!r} in the plan (rows: {known})")
        chosen |= rows[item]
    return chosen


def selection(doc: Document, racks: Iterable[str] | None = None,
              rows: Iterable[str] | None = None) -> frozenset[str] | None:
    """``ExportOptions.racks`` for ``--racks`` and ``--row`` (None when neither is given: the whole hall)."""
    racks, rows = list(racks or ()), list(rows or ())
    if not racks and not rows:
        return None
    return frozenset(racks_named(doc, racks) | racks_in_rows(doc, rows))


def describe(doc: Document, racks: frozenset[str] | None) -> str:
    """The racks as runs in name order, ``R01–R04, R09``; every rack of the plan when None."""
    runs: list[list[Rack]] = []
    for rack in _in_order(doc):
        if racks is not None and rack.id not in racks:
            if runs and runs[-1]:
                runs.append([])
            continue
        if not runs:
            runs.append([])
        runs[-1].append(rack)
    parts = [run[0].name if len(run) == 1 else f"{run[0].name}–{run[-1].name}" for run in runs if run]
    return ", ".join(parts) or "none"


def selection_note(doc: Document, racks: frozenset[str]) -> str:
    """One sentence for a document's first page: it covers these racks, not the whole hall."""
    count = len(racks & doc.racks.keys())
    return (f"This document covers a selection: rack{'s' if count != 1 else ''} {describe(doc, racks)} "
            f"({count} of {len(doc.racks)} racks).")
