"""A filled tick sheet read back into the plan: the installer's paper ticks as cable states.

The sheet is the cable schedule CSV (``planner export --to cables-csv``) with three more columns,
``run``, ``labelled`` and ``tested`` (``TICK_COLUMNS``; ``planner.export.schedule.write_tick_csv``
prints them, pre-ticked from each cable's state): one row per connection of every network (data
cables, power cords, coolant hoses; printed network by network, the ``network`` column saying
which), found by its ``label``. Other columns are read past, so a sheet sorted, filtered or
annotated in a spreadsheet still reads. The change says how many moved on per network when
more than one did.

A cell is ticked when it holds one of ``TICKED`` (``x``, ``✓``, ``yes``, ``1`` …) and empty or one
of ``UNTICKED`` (``no``, ``0``, ``-`` …) otherwise; anything else is refused with its line, so a
typo never marks a cable. A row's state is its furthest tick (tested > labelled > run). Ticks
only move a cable forward (planned → run → labelled → tested): a sheet printed before a cable
was verified, or found faulty, does not undo that (verification and the Cables dock set those).
"""

from __future__ import annotations

import csv
import io
import os
from collections import Counter

from planner.asbuilt.states import set_states_command
from planner.commands.base import SetFields
from planner.commands.checks import Refusal
from planner.io.cells import unneutralise
from planner.io.discovery.records import read_text
from planner.model.document import Document
from planner.model.labels import cable_label
from planner.model.networks import network_of
from planner.model.ports import NETWORKS
from planner.text import plural

#: The tick columns, in the order work reaches them (each a state of ``CABLE_STATES``).
TICK_COLUMNS = ("run", "labelled", "tested")
#: Cell values read as a tick and as no tick (compared without case and surrounding space).
TICKED = frozenset({"x", "✓", "✔", "☑", "y", "yes", "1", "true", "done", "ok"})
UNTICKED = frozenset({"", "-", "–", "n", "no", "0", "false", "☐"})
#: Cables in these states keep them whatever the sheet says.
KEPT_STATES = ("verified", "faulty")
_ORDER = {"planned": 0, "run": 1, "labelled": 2, "tested": 3}


class TickSheetError(Refusal):
    """A tick sheet that cannot be read; the message names the file and line."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        self.path, self.line, self.problem = path, line, problem
        super().__init__(f"{path}:{line}: {problem}" if line else f"{path}: {problem}")


class TickSheetCommand(SetFields):
    """The states a sheet sets, as one undo step, with what the import could not use."""

    def __init__(self, values: dict[str, dict[str, str]], text: str, unknown_labels: list[str],
                 unchanged: int, kept: int) -> None:
        super().__init__(values, text)
        #: Labels on the sheet that no cable in the plan has.
        self.unknown_labels = unknown_labels
        #: Rows whose ticks the cable had reached already, and cables verified or faulty left so.
        self.unchanged, self.kept = unchanged, kept


def ticks_of_state(state: str) -> tuple[bool, ...]:
    """The ticks a cable in ``state`` has earned, per TICK_COLUMNS (verified: all three; faulty:
    none, it is to be done again)."""
    reached = 3 if state == "verified" else _ORDER.get(state, 0)
    return tuple(_ORDER[column] <= reached for column in TICK_COLUMNS)


def tick_sheet_command(doc: Document, path: str | os.PathLike[str]) -> TickSheetCommand:
    """The sheet at ``path`` as one undoable step. TickSheetError (file, line) for a sheet that
    cannot be read: not CSV, no ``label`` or tick column, a cell that is neither tick nor blank,
    one label on two rows."""
    name, text = read_text(path, TickSheetError, kind="tick sheet")
    return ticks_command(doc, read_ticks(text, name))


def read_ticks(text: str, name: str = "<tick sheet>") -> dict[str, tuple[str, int]]:
    """label → (furthest ticked state or "planned", line) for every row of a sheet."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    rows: dict[str, tuple[str, int]] = {}
    try:
        for row in reader:
            line = reader.line_num
            if header is None:
                header = [cell.strip().lower() for cell in row]
                if "label" not in header or not set(TICK_COLUMNS) & set(header):
                    raise TickSheetError(name, line, f"the first row must name the columns: label and "
                                         f"{', '.join(TICK_COLUMNS)}")
                label_at = header.index("label")
                ticks_at = [(state, header.index(state)) for state in TICK_COLUMNS if state in header]
                continue
            if not any(cell.strip() for cell in row):
                continue
            if len(row) <= label_at or not row[label_at].strip():
                raise TickSheetError(name, line, "no label in this row")
            label = row[label_at].strip()
            state = "planned"
            for column, index in ticks_at:
                cell = row[index].strip().lower() if index < len(row) else ""
                if cell in TICKED:
                    state = column if _ORDER[column] > _ORDER[state] else state
                elif cell not in UNTICKED:
                    raise TickSheetError(name, line, f"{column}: {row[index].strip()[:40]!r} is neither a tick "
                                         f"(x, ✓, yes, 1) nor blank")
            if label in rows:
                raise TickSheetError(name, line, f"label {label[:80]!r} is on line {rows[label][1]} too")
            rows[label] = (state, line)
    except csv.Error as exc:
        raise TickSheetError(name, reader.line_num, f"not CSV: {exc}") from None
    if header is None:
        raise TickSheetError(name, 0, "empty: no header row")
    return rows


def ticks_command(doc: Document, rows: dict[str, tuple[str, int]]) -> TickSheetCommand:
    """The cable states the ticks move forward (see the module docstring)."""
    by_label: dict[str, list[str]] = {}
    for link in doc.links.values():
        by_label.setdefault(cable_label(doc, link), []).append(link.id)
    states: dict[str, tuple[str, str]] = {}
    unknown: list[str] = []
    unchanged = kept = 0
    for label, (state, _line) in rows.items():
        link_ids = by_label.get(label)
        if link_ids is None and unneutralise(label) != label:  # a cell sheet_text neutralised
            link_ids = by_label.get(label[1:])
        if link_ids is None:
            unknown.append(label)
            continue
        for link_id in link_ids:
            current = doc.links[link_id].state
            if current in KEPT_STATES:
                kept += 1
            elif _ORDER[state] > _ORDER.get(current, 0):
                states[link_id] = (state, "")
            else:
                unchanged += 1
    text = f"Import tick sheet: {plural(len(states), 'cable')} moved on"
    networks = Counter(network_of(doc.links[link_id]) for link_id in states)
    if len(networks) > 1:
        text += " (" + ", ".join(f"{count:,} {network}" for network, count in sorted(
            networks.items(), key=lambda item: NETWORKS.index(item[0]))) + ")"
    command = set_states_command(doc, states, text)
    return TickSheetCommand(command.values, command.text, unknown, unchanged, kept)
