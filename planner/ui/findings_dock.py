"""The findings dock: every finding with its severity, rule, subject and numbers, filtered by
severity and rule family. Clicking a finding selects its subjects and centres the plan on them.

A tray-fill finding (N9) names a cable tray ("tray:row:x:5400"), not an object of the plan: the
dock shows the tray's description ("Row 2 tray (y 5.40 m)") and centres the plan on the tray's
busiest stretch, taken from the live validator's tray loads.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
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
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.ui.session import DocumentSession
from planner.ui.validation import LiveValidator

#: Rule families by id prefix, as offered in the filter.
FAMILIES = {"F": "Floor", "P": "Power", "C": "Cooling", "S": "Space", "N": "Network"}
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
    """A subject as people call it: "R01/N1", "Busbar A1", "Row 2 tray (y 5.40 m)"."""
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
    return getattr(obj, "name", "") or getattr(obj, "label", "") or obj_id


class FindingsModel(QAbstractTableModel):
    """Findings as table rows; reset wholesale on each update (cheap, and order stays stable)."""

    def __init__(self, session: DocumentSession, live: LiveValidator | None = None) -> None:
        super().__init__()
        self.session = session
        self.live = live
        self.findings: list[Finding] = []

    def set_findings(self, findings: list[Finding]) -> None:
        self.beginResetModel()
        self.findings = list(findings)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return 0 if parent.isValid() else len(self.findings)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: B008 (Qt API)
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        finding = self.findings[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DecorationRole and column == 0:
            from PySide6.QtWidgets import QApplication

            return QApplication.style().standardIcon(_ICONS.get(finding.severity, _ICONS[INFO]))
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 1:
                return finding.rule
            if column == 2:
                if not finding.subjects:
                    return ""
                subject = finding.subjects[0]
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

    def __init__(self) -> None:
        super().__init__()
        self.severities = {ERROR, WARNING, INFO}
        self.family = ""

    def set_filter(self, severities: set[str], family: str) -> None:
        self.beginFilterChange()
        self.severities, self.family = set(severities), family
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:
        finding = self.sourceModel().findings[row]
        return finding.severity in self.severities and (not self.family or finding.family == self.family)


class FindingsDock(QDockWidget):
    """Lists the live findings; a click selects the subjects and asks the plan to centre on them."""

    #: Emitted with the ids to centre the plan on when a finding is activated.
    centre_requested = Signal(object)
    #: Emitted with a plan rectangle (x0, y0, x1, y1 in metres) to centre on: a tray finding's
    #: busiest stretch.
    centre_rect_requested = Signal(float, float, float, float)
    #: Emitted with the tray id when a tray finding is activated (the window shows the tray overlay).
    tray_requested = Signal(str)

    def __init__(self, session: DocumentSession, live: LiveValidator, parent: QWidget | None = None) -> None:
        super().__init__("Findings", parent)
        self.setObjectName("findings_dock")
        self.session = session
        self.live = live
        self.model = FindingsModel(session, live)
        self.proxy = FindingsFilter()
        self.proxy.setSourceModel(self.model)

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
        header.setStretchLastSection(True)
        self.table.clicked.connect(self._activate)
        self.table.activated.connect(self._activate)
        layout.addWidget(self.table)
        self.setWidget(body)

        live.updated.connect(self._show)
        self._show(live.findings)

    def _show(self, findings: list[Finding]) -> None:
        self.model.set_findings(findings)
        self.count_label.setText(self.live.summary())

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

    def centre_on_tray(self, tray_id: str) -> None:
        """Ask the plan to centre on the busiest stretch of a tray (nothing when it carries no cable now)."""
        loads = self.live.context.tray_loads()
        if not loads.carries(tray_id):
            return
        tray, peak = Tray.parse(tray_id), loads.peak(tray_id)
        (x0, y0), (x1, y1) = tray.point(peak.start_mm), tray.point(peak.end_mm)
        self.tray_requested.emit(tray_id)
        self.centre_rect_requested.emit(x0, y0, x1, y1)
