"""The findings dock: every finding with its severity, rule, subject and numbers, filtered by
severity and rule family. Clicking a finding selects its subjects and centres the plan on them; a
finding that names cables alone selects them in the Cables dock (which shows the route).

A tray-fill finding (N9) names a cable tray ("tray:row:x:5400"), not an object of the plan: the
dock shows the tray's description ("Row 2 tray (y 5.40 m)") and centres the plan on the tray's
busiest stretch, taken from the live validator's tray loads.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from planner.fabric.trays import Tray, TrayLoads
from planner.model.document import Document, prefix_of
from planner.model.labels import cable_label
from planner.model.objects import Link
from planner.rules.finding import ERROR, INFO, WARNING, Finding, cables_named
from planner.ui.session import DocumentSession
from planner.ui.validation.live import FindingsUpdate, LiveValidator

#: Rule families by id prefix, as offered in the filter.
FAMILIES = {"F": "Floor", "P": "Power", "C": "Cooling", "S": "Space", "N": "Network", "H": "Hostnames"}
COLUMNS = ("", "Rule", "Subject", "Finding")
_ICONS = {ERROR: QStyle.StandardPixmap.SP_MessageBoxCritical, WARNING: QStyle.StandardPixmap.SP_MessageBoxWarning,
          INFO: QStyle.StandardPixmap.SP_MessageBoxInformation}
#: Kinds of object a click can select on the plan (zones and links are not selectable there).
SELECTABLE = ("rack", "fu", "bus", "dev", "obs")
#: How a tray id starts (``planner.fabric.trays.Tray.id``).
TRAY_PREFIX = "tray:"


def is_tray(subject: str) -> bool:
    return subject.startswith(TRAY_PREFIX)


def subject_name(doc: Document, obj_id: str, loads: TrayLoads | None = None) -> str:
    """A subject as people call it: "R01/N1", "Busbar A1", "Row 2 tray (y 5.40 m)", a cable's label."""
    if is_tray(obj_id):
        try:
            tray = Tray.parse(obj_id)
        except ValueError:
            return obj_id
        return tray.describe(loads.row_of(obj_id) if loads is not None else "")
    obj = doc.find(obj_id)
    if obj is None:
        return obj_id
    if prefix_of(obj_id) == "dev" and obj.rack in doc.racks:
        return f"{doc.racks[obj.rack].name}/{obj.name}"
    if isinstance(obj, Link):
        return cable_label(doc, obj)
    return getattr(obj, "name", "") or getattr(obj, "label", "") or obj_id


class FindingsModel(QAbstractTableModel):
    """Findings as table rows in ``sort_findings`` order, kept in step by difference.

    A small update removes and inserts just its rows (through the filter proxy too), so the
    table keeps its scroll position and selection and nothing re-reads thousands of rows after
    an edit; a full run, or an update touching more than RESET_ABOVE rows, resets the model.
    """

    #: Changed rows above which one reset is cheaper than many row signals.
    RESET_ABOVE = 300

    def __init__(self, session: DocumentSession, live: LiveValidator | None = None) -> None:
        super().__init__()
        self.session = session
        self.live = live
        self.findings: list[Finding] = []
        self._keys: list[tuple] = []  # Finding.sort_key() of each row, for bisecting
        self._icons: dict[str, QIcon] = {}

    def set_findings(self, findings: list[Finding]) -> None:
        """Show ``findings`` (in any order) from scratch."""
        keys = [f.sort_key() for f in findings]
        order = sorted(range(len(findings)), key=keys.__getitem__)
        self.beginResetModel()
        self.findings = [findings[i] for i in order]
        self._keys = [keys[i] for i in order]
        self.endResetModel()

    def apply_update(self, update: FindingsUpdate) -> None:
        """Apply a LiveValidator update: ``removed`` rows out, ``added`` rows in, in order."""
        if update.full:
            self.set_findings(update.added)
            return
        rows = self._rows_of(update.removed)
        if len(rows) + len(update.added) > self.RESET_ABOVE:
            self.beginResetModel()
            self._splice(rows, update.added, signal=False)
            self.endResetModel()
        else:
            self._splice(rows, update.added, signal=True)

    def _rows_of(self, findings: list[Finding]) -> list[int]:
        """The row of each finding (a repeated finding takes the next equal row), descending."""
        taken: set[int] = set()
        for finding in findings:
            row = bisect_left(self._keys, finding.sort_key())
            while row < len(self.findings) and (row in taken or self.findings[row] != finding):
                row += 1
            if row == len(self.findings):
                raise LookupError(f"finding not shown, cannot remove it: {finding}")
            taken.add(row)
        return sorted(taken, reverse=True)

    def _splice(self, rows: list[int], added: list[Finding], signal: bool) -> None:
        """Remove ``rows`` (descending) and insert ``added`` (sorted), announcing each run of
        neighbouring rows once when ``signal``."""
        root = QModelIndex()
        k = 0
        while k < len(rows):
            high = rows[k]
            while k + 1 < len(rows) and rows[k + 1] == rows[k] - 1:
                k += 1
            low = rows[k]
            k += 1
            if signal:
                self.beginRemoveRows(root, low, high)
            del self.findings[low:high + 1], self._keys[low:high + 1]
            if signal:
                self.endRemoveRows()
        keys = [f.sort_key() for f in added]
        k = 0
        while k < len(added):
            row = bisect_right(self._keys, keys[k])
            end = k + 1  # the next ones go in the same gap while they sort before the row there
            while end < len(added) and (row == len(self._keys) or keys[end] < self._keys[row]):
                end += 1
            if signal:
                self.beginInsertRows(root, row, row + end - k - 1)
            self.findings[row:row] = added[k:end]
            self._keys[row:row] = keys[k:end]
            if signal:
                self.endInsertRows()
            k = end

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return 0 if parent.isValid() else len(self.findings)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        finding = self.findings[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            severity = finding.severity if finding.severity in _ICONS else INFO
            if severity not in self._icons:
                self._icons[severity] = QApplication.style().standardIcon(_ICONS[severity])
            return self._icons[severity]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 1:
                return finding.rule
            if column == 2:
                if not finding.subjects:
                    return ""
                subject = finding.subjects[0]
                if cables := cables_named(finding):
                    return cables
                loads = self.live.context.tray_loads() if self.live is not None and is_tray(subject) else None
                return subject_name(self.session.doc, subject, loads)
            if column == 3:
                return finding.message
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{finding.severity.capitalize()} {finding.rule}: {finding.message}\nSource: {finding.source}"
        if role == Qt.ItemDataRole.AccessibleTextRole and column == 0:
            return finding.severity
        return None


class FindingsFilter(QSortFilterProxyModel):
    """Shows the severities and rule families ticked in the dock."""

    def __init__(self, model: FindingsModel) -> None:
        super().__init__()
        self.setSourceModel(model)
        self.findings_model = model
        self.severities = {ERROR, WARNING, INFO}
        self.family = ""

    def set_filter(self, severities: set[str], family: str) -> None:
        self.beginFilterChange()
        self.severities, self.family = set(severities), family
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex | QPersistentModelIndex) -> bool:
        finding = self.findings_model.findings[row]
        return finding.severity in self.severities and (not self.family or finding.family == self.family)


def show_count(label: QLabel, text: str) -> None:
    """Show a findings count; the label keeps the widest width it has had. A count one digit
    longer widened the dock's minimum and, with the docks at theirs, laid the whole window out
    again (40–60 ms on an edit at 32k GPUs), and back and forth as a nudge and its undo change
    the count: now the window is laid out once, when a count is wider than any before."""
    label.setText(text)
    width = label.sizeHint().width()
    if width > label.minimumWidth():
        label.setMinimumWidth(width)


class FindingsDock(QDockWidget):
    """Lists the live findings; a click selects the subjects and asks the plan to centre on them."""

    #: Emitted with the ids to centre the plan on when a finding is activated.
    centre_requested = Signal(object)
    #: Emitted with a plan rectangle (x0, y0, x1, y1 in metres) to centre on: a tray finding's
    #: busiest stretch.
    centre_rect_requested = Signal(float, float, float, float)
    #: Emitted with the tray id when a tray finding is activated (the window shows the tray overlay).
    tray_requested = Signal(str)
    #: Emitted with the cable ids of a finding that names cables and nothing to centre on (N8's
    #: stale cables of a rack pair): the Cables dock selects them and the plan shows the route.
    cables_requested = Signal(list)

    def __init__(self, session: DocumentSession, live: LiveValidator, parent: QWidget | None = None) -> None:
        super().__init__("Findings", parent)
        self.setObjectName("findings_dock")
        self.session = session
        self.live = live
        self.model = FindingsModel(session, live)
        self.proxy = FindingsFilter(self.model)

        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.severity_boxes: dict[str, QCheckBox] = {}
        for severity, label in ((ERROR, "Errors"), (WARNING, "Warnings"), (INFO, "Info")):
            box = QCheckBox(label)
            box.setChecked(True)
            box.toggled.connect(self._refilter)
            self.severity_boxes[severity] = box
            bar.addWidget(box)
        self.family_box = QComboBox()
        self.family_box.addItem("All rules", "")
        for letter, name in FAMILIES.items():
            self.family_box.addItem(f"{name} ({letter})", letter)
        self.family_box.currentIndexChanged.connect(self._refilter)
        bar.addWidget(self.family_box)
        bar.addStretch(1)
        self.count_label = QLabel()
        bar.addWidget(self.count_label)
        layout.addLayout(bar)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(0, 28)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        # fit the rule and subject columns to the rows on screen, not to a thousand rows after
        # every update (that cost 20k data() calls per edit); re-fitted after each update below
        header.setResizeContentsPrecision(0)
        header.setStretchLastSection(True)
        self.table.clicked.connect(self._activate)
        self.table.activated.connect(self._activate)
        layout.addWidget(self.table)
        self.setWidget(body)

        live.updated.connect(self._on_update)
        live.checking.connect(lambda _progress: show_count(self.count_label, live.summary()))
        self.model.set_findings(live.findings)
        show_count(self.count_label, live.summary())

    def _on_update(self, update: FindingsUpdate) -> None:
        self.model.apply_update(update)
        if update.added and not update.full:  # a reset re-fits the columns by itself
            for column in (1, 2):
                self.table.resizeColumnToContents(column)
        show_count(self.count_label, self.live.summary())

    def _refilter(self) -> None:
        severities = {s for s, box in self.severity_boxes.items() if box.isChecked()}
        self.proxy.set_filter(severities, self.family_box.currentData() or "")

    def visible_findings(self) -> list[Finding]:
        """The findings the filters let through, in display order."""
        return [self.model.findings[self.proxy.mapToSource(self.proxy.index(row, 0)).row()]
                for row in range(self.proxy.rowCount())]

    def _activate(self, index: QModelIndex) -> None:
        finding = self.model.findings[self.proxy.mapToSource(index).row()]
        self.activate(finding)

    def activate(self, finding: Finding) -> None:
        """Select a finding's subjects on the plan and centre the view on them."""
        doc = self.session.doc
        ids = [s for s in finding.subjects if s in doc and prefix_of(s) in SELECTABLE]
        if ids:
            self.session.select(ids)
        centre = [s for s in finding.subjects if s in doc and prefix_of(s) != "link"]
        if centre:
            self.centre_requested.emit(centre)
            return
        tray_id = next((s for s in finding.subjects if is_tray(s)), "")
        if tray_id:
            self.centre_on_tray(tray_id)
            return
        cables = [s for s in finding.subjects if prefix_of(s) == "link" and s in doc.links]
        if cables:
            self.cables_requested.emit(cables)

    def centre_on_tray(self, tray_id: str) -> None:
        """Ask the plan to centre on the busiest stretch of a tray (nothing when it carries no cable now)."""
        loads = self.live.context.tray_loads()
        if not loads.carries(tray_id):
            return
        tray, peak = Tray.parse(tray_id), loads.peak(tray_id)
        (x0, y0), (x1, y1) = tray.point(peak.start_mm), tray.point(peak.end_mm)
        self.tray_requested.emit(tray_id)
        self.centre_rect_requested.emit(x0, y0, x1, y1)
