"""Tray levels for a generated plan: as many stacked row and cross-aisle trays as keep the
busiest tray of each kind under the fill warning (DESIGN §5 Cables, tray fill).

A designer sizes the containment for the cabling it has to carry; the template does the same
once its fabric is cabled. Width and depth stay as the design basis gives them; only the
number of levels grows, and the basis records why next to the value (``sources``), so the
Design basis dialog shows the reason.
"""

from __future__ import annotations

import math

from planner.fabric.trays import CROSS, ROW, Tray, TrayLoads, capacity_mm2
from planner.model.document import Document

_LEVEL_FIELDS = {ROW: "row_tray_levels", CROSS: "cross_tray_levels"}
_NAMES = {ROW: "row tray", CROSS: "cross-aisle tray"}


def size_tray_levels(doc: Document) -> None:
    """Set ``row_tray_levels`` and ``cross_tray_levels`` for the plan's routed cables."""
    basis = doc.basis
    loads = TrayLoads(doc)
    for kind, field in _LEVEL_FIELDS.items():
        peaks = [loads.peak(t) for t in loads.trays() if Tray.parse(t).kind == kind]
        busiest = max(peaks, key=lambda p: p.area_mm2, default=None)
        if busiest is None:
            continue
        one_level = capacity_mm2(basis, kind) / getattr(basis, field)
        levels = max(1, math.ceil(busiest.area_mm2 / (one_level * basis.tray_fill_warn) - 1e-9))
        if levels == getattr(basis, field):
            continue
        setattr(basis, field, levels)
        basis.sources[field] = (f"Template: {levels} stacked trays keep the busiest {_NAMES[kind]} "
                                f"({busiest.cables:,} cables) under the {basis.tray_fill_warn:.0%} fill warning")
