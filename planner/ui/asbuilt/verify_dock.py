"""The as-built check's result in the window (issue 13): a summary line, the problems with their
fixes in rack walk order, a status filter, and "Mark in plan" to record the result in the cable
states (one undoable step).

The rows are the verification's, frozen when it ran: the plan may change afterwards (a rewired
cable, an undo), so a row names its cable and rack by id and a click on a cable the plan no longer
holds says so instead of failing. What a row shows is plain data made once per verification; a
98k-cable hall with nothing cabled yet gives 98k "missing" rows, so the table is a model over a
list (the filter is an index list), not an item per row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from planner.asbuilt.fixes import MISSING, MISWIRED, OK
from planner.asbuilt.verify import Verification, update_command
from planner.commands import SetFields
from planner.model.document import natural_key
from planner.ui.session import DocumentSession

COLUMNS = ("Rack", "Status", "Fix", "Cable", "Found")
RACK, STATUS, FIX, CABLE, FOUND = range(len(COLUMNS))
UNEXPECTED = "unexpected"
#: A cable found as planned that came up at another speed (status ok, with a fix).
SPEED = "wrong speed"
#: The status filter's choices: (text, the statuses shown).
FILTERS: tuple[tuple[str, frozenset[str]], ...] = (
    ("All problems", frozenset({MISWIRED, MISSING, UNEXPECTED, SPEED})),
    ("Miswired", frozenset({MISWIRED})),
    ("Missing", frozenset({MISSING})),
    ("Unexpected", frozenset({UNEXPECTED})),
    ("Wrong speed", frozenset({SPEED})),
    ("Every cable", frozenset({OK, MISWIRED, MISSING, UNEXPECTED, SPEED})),
)
NO_RESULT = "No verification yet: File ▸ Verify against discovery…"
#: Names that matched nothing in the plan, listed on the dock up to this many (all in the tooltip).
NAMES_SHOWN = 8
_ROOT = QModelIndex()
_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_TIP = int(Qt.ItemDataRole.ToolTipRole.value)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One line of the table: a planned cable's verdict or a cable found that is not in the plan."""

    rack_id: str
    rack: str
    status: str
    label: str
    found: str
    fix: str
    link_id: str = ""

    def text(self, column: int) -> str:
        return (self.rack, self.status, self.fix, self.label, self.found)[column]


def result_rows(result: Verification, racks: dict[str, str], every: bool = False) -> list[ResultRow]:
    """The rows of the problems (``every``: of every cable too) and of the unexpected cables, in
    rack walk order: racks by name (``racks``: id → name), then the fix (a swap's two cables side
    by side), then the label. The verification lists its cables in label order already, so a
    98k-cable hall sorts on a cached key per rack, not a natural key per label."""
    rack_keys: dict[str, tuple] = {}

    def key(rack: str, fix: str, order: int) -> tuple:
        rack_key = rack_keys.get(rack)
        if rack_key is None:
            rack_key = rack_keys[rack] = natural_key(rack)
        return rack_key, natural_key(fix) if fix else (), order

    keyed = [(key(racks.get(c.rack_id, ""), c.fix, n),
              ResultRow(c.rack_id, racks.get(c.rack_id, ""), SPEED if c.status == OK and c.fix else c.status,
                        c.label, c.found, c.fix, c.link_id))
             for n, c in enumerate(result.cables) if every or c.status != OK or c.fix]
    last = len(result.cables)
    for entry, fix in zip(result.unexpected, result.unexpected_fixes, strict=True):
        found = f"{entry['a_device']} {entry['a_port']} ↔ {entry['b_device']} {entry['b_port']}"
        keyed.append((key(fix.rack, fix.text, last), ResultRow(fix.rack_id, fix.rack, UNEXPECTED, "", found, fix.text)))
    keyed.sort(key=lambda pair: pair[0])
    return [row for _key, row in keyed]


def summary_text(result: Verification) -> str:
    """"98,304 planned · 98,200 ok · 40 miswired · 60 missing · 4 unexpected"."""
    summary = result.summary
    text = " · ".join(f"{summary[key]:,} {key}" for key in ("planned", "ok", "miswired", "missing", "unexpected"))
    if result.slow:
        text += f" · {len(result.slow):,} at the wrong speed"
    return text


class ResultModel(QAbstractTableModel):
    """The rows of one verification, filtered by status."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.rows: list[ResultRow] = []
        self.shown: list[int] = []
        self._statuses = FILTERS[0][1]

    def set_rows(self, rows: list[ResultRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.shown = self._filtered()
        self.endResetModel()

    def set_statuses(self, statuses: frozenset[str]) -> None:
        self.beginResetModel()
        self._statuses = statuses
        self.shown = self._filtered()
        self.endResetModel()

    def _filtered(self) -> list[int]:
        statuses = self._statuses
        return [n for n, row in enumerate(self.rows) if row.status in statuses]

    def row(self, index: QModelIndex) -> ResultRow:
        return self.rows[self.shown[index.row()]]

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.shown)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        if (role == _DISPLAY or role == _TIP) and index.isValid():
            return self.rows[self.shown[index.row()]].text(index.column())
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None


class VerifyDock(QDockWidget):
    """The last verification: what to fix where; a row click asks the window to show its rack
    and cable (``rack_requested``, ``cable_requested``)."""

    rack_requested = Signal(str)
    cable_requested = Signal(str)
    #: What "Mark in plan" did, or why a row cannot be shown, for the status bar.
    status_message = Signal(str)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__("Verification", parent)
        self.setObjectName("verify_dock")
        self.session = session
        self.result: Verification | None = None
        self._racks: dict[str, str] = {}  # rack names when the verification ran
        self._every = False  # whether the rows include the cables found as planned
        self.summary = QLabel(NO_RESULT)
        self.summary.setWordWrap(True)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        self.names = QLabel()
        self.names.setWordWrap(True)
        self.names.hide()
        self.status_filter = QComboBox()
        for text, statuses in FILTERS:
            self.status_filter.addItem(text, statuses)
        self.status_filter.currentIndexChanged.connect(self._filter_changed)
        self.mark_button = QPushButton("Mark in plan")
        self.mark_button.setToolTip("Record the result in the cable states, one undo step: found as planned → "
                                    "verified; miswired or at the wrong speed → faulty, with the fix as the note")
        self.mark_button.setEnabled(False)
        self.mark_button.clicked.connect(self.mark_in_plan)
        self.model = ResultModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((50, 80, 380, 250)):
            self.table.setColumnWidth(column, width)
        self.table.selectionModel().currentRowChanged.connect(self._row_chosen)
        self.count = QLabel()
        top = QHBoxLayout()
        top.addWidget(self.status_filter)
        top.addStretch(1)
        top.addWidget(self.mark_button)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.names)
        layout.addLayout(top)
        layout.addWidget(self.table)
        layout.addWidget(self.count)
        self.setWidget(body)
        session.reset.connect(self.clear)  # another plan: the result was about the last one

    def clear(self) -> None:
        self.result = None
        self.summary.setText(NO_RESULT)
        self.names.hide()
        self.model.set_rows([])
        self.mark_button.setEnabled(False)
        self._update_count()

    def show_result(self, result: Verification) -> None:
        """Show a new verification (the filter is kept)."""
        self.result = result
        self.summary.setText(summary_text(result))
        problems = [*(f"name not in the plan: {n}" for n in result.unknown_names), *result.conflicts]
        if problems:
            listed = "; ".join(problems[:NAMES_SHOWN])
            more = f" … and {len(problems) - NAMES_SHOWN:,} more" if len(problems) > NAMES_SHOWN else ""
            self.names.setText(f"{len(problems):,} not matched: {listed}{more}")
            self.names.setToolTip("\n".join(problems))
        self.names.setVisible(bool(problems))
        self._racks = {rack.id: rack.name for rack in self.session.doc.racks.values()}
        self._every = OK in self.status_filter.currentData()
        self.model.set_rows(result_rows(result, self._racks, self._every))
        self.mark_button.setEnabled(True)
        self._update_count()

    def _filter_changed(self, _index: int) -> None:
        statuses = self.status_filter.currentData()
        if self.result is not None and OK in statuses and not self._every:  # the cables found as planned too
            self._every = True
            self.model.set_rows(result_rows(self.result, self._racks, every=True))
        self.model.set_statuses(statuses)
        self._update_count()

    def _update_count(self) -> None:
        if self.result is None:
            self.count.setText("")
            return
        shown = self.model.rowCount()
        self.count.setText(f"{shown:,} row{'s' if shown != 1 else ''} · racks in walk order (by name), then the fix")

    def _row_chosen(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        row = self.model.row(current)
        if row.link_id:
            if row.link_id in self.session.doc.links:
                self.cable_requested.emit(row.link_id)
            else:
                self.status_message.emit(f"{row.label} is no longer in the plan")
        if row.rack_id in self.session.doc.racks:
            self.rack_requested.emit(row.rack_id)

    def mark_in_plan(self) -> None:
        """Record the verification in the cable states (one undo step)."""
        if self.result is None:
            return
        command = update_command(self.session.doc, self.result)
        if isinstance(command, SetFields) and not command.values:
            self.status_message.emit("Nothing to record: the plan's cable states already say so")
            return
        self.session.push(command)
        self.status_message.emit(f"{command.text} (Edit ▸ Undo takes it back)")
