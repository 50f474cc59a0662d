"""Lengths as the plan's display preference asks (DESIGN §2: SI inside, imperial only at display).

The design basis field ``units`` ("metric" or "imperial") picks metres or feet for the
status bar and the properties dock; values are converted at the edge and stored in metres.
"""

from __future__ import annotations

from planner.model.document import Document

#: Metres in one international foot (exact by definition).
M_PER_FT = 0.3048


def imperial(doc: Document) -> bool:
    return doc.basis.units == "imperial"


def length_unit(doc: Document) -> str:
    return "ft" if imperial(doc) else "m"


def to_display(doc: Document, metres: float) -> float:
    return metres / M_PER_FT if imperial(doc) else metres


def from_display(doc: Document, value: float) -> float:
    """A length typed in display units, in metres (rounded to the millimetre)."""
    return round(value * M_PER_FT, 3) if imperial(doc) else value
