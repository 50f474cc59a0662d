"""Selecting many cables in the Cables dock at once: a finding that names cables (N8 names a rack
pair's stale cables) selects their rows, the first current, so the plan shows its route."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel

from planner.ui.cables.dock import CableDock


def select_cables(dock: CableDock, link_ids: list[str]) -> None:
    """Select the rows of ``link_ids`` (clearing the filter text when it hides one), the first
    cable's row current and scrolled to; cables not in the plan are left out."""
    model = dock.model
    known = [i for i in link_ids if i in model.cables.slot_of]
    if not known:
        return
    if any(model.row_of(i) < 0 for i in known):
        dock.filter.clear()
    rows = sorted({row for row in map(model.row_of, known) if row >= 0})
    if not rows:
        return  # hidden by the state or network filter, which the user chose
    first = model.row_of(known[0])
    current = model.index(first if first >= 0 else rows[0], 0)
    dock.table.setCurrentIndex(current)
    selection = QItemSelection()
    last_column = model.columnCount() - 1
    start = rows[0]
    for previous, row in zip(rows, [*rows[1:], None]):
        if row != previous + 1:  # the end of a run of neighbouring rows
            selection.select(model.index(start, 0), model.index(previous, last_column))
            if row is not None:
                start = row
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    dock.table.selectionModel().select(selection, flags)
    dock.table.scrollTo(current)
    dock.show()
    dock.raise_()
