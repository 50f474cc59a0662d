"""The cable list: every link of the plan in a sortable, filterable table.

``CableTableModel`` keeps one plain tuple per link (label, both ends, tier, rail, media,
length, stock) built in one pass over the document, so ``data()`` is an index lookup.
Sorting is done by the model itself (a Python sort of the tuples, milliseconds at 100k
rows) rather than by the proxy comparing cells one Qt call at a time; ``CableFilterProxy``
filters on a precomputed lower-case text per row. Selecting a row highlights the cable's
route on the plan (``PlanView.show_route``).
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from planner.commands.base import Change
from planner.fabric.routing import route
from planner.model.document import Document, prefix_of
from planner.ui.session import DocumentSession

COLUMNS = ("Label", "End A", "End B", "Tier", "Rail", "Media", "Length m", "Stock m")
_NUMERIC = {4, 6, 7}
_ROOT = QModelIndex()
#: Fields of racks and devices that appear in a cable's end text.
_END_FIELDS = {"name", "u", "rack"}
#: Above this many changed cables a full rebuild is cheaper than patching rows one by one.
_PATCH_LIMIT = 5000
#: link id, the eight columns, then the lower-case search text.
Row = tuple[str, str, str, str, str, int, str, float, float, str]
_DIGITS = re.compile(r"\d+")


def text_key(text: str) -> str:
    """Natural-order key that is a plain string (numbers zero-padded), cheap to compare."""
    return _DIGITS.sub(lambda match: match.group().zfill(8), text)


def _link_number(link_id: str) -> int:
    tail = link_id.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _end(doc: Document, device_id: str, port: str) -> str:
    device = doc.devices.get(device_id)
    if device is None:
        return f"{device_id} {port}"
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack else '?'} U{device.u} {device.name} {port}"


def link_row(doc: Document, link_id: str) -> Row:
    link = doc.links[link_id]
    cells = (link.label, _end(doc, link.a_device, link.a_port), _end(doc, link.b_device, link.b_port),
             link.tier, link.rail, link.media, link.length_m, link.stock_m)
    return (link.id, *cells, " ".join(str(c) for c in cells).lower())


class CableTableModel(QAbstractTableModel):
    """The plan's links as rows; rebuilt on a reset, patched row by row on small edits."""

    def __init__(self, session: DocumentSession, parent: Any = None) -> None:
        super().__init__(parent)
        self.session = session
        self.rows: list[Row] = []
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._keys: dict[int, dict[str, Any]] = {}
        self.rebuild()
        session.changed.connect(self.on_change)
        session.reset.connect(self.rebuild)

    # ----------------------------------------------------------------- model
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.DisplayRole) -> Any:
        if not index.isValid():
            return None
        column = index.column()
        if role == Qt.DisplayRole:
            value = self.rows[index.row()][column + 1]
            if column in (6, 7):
                return f"{value:.2f}"
            return str(value) if column == 4 else value
        if role == Qt.TextAlignmentRole and column in _NUMERIC:
            return int(Qt.AlignRight | Qt.AlignVCenter)
        if role == Qt.UserRole:
            return self.rows[index.row()][0]
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.DisplayRole) -> Any:
        if role == Qt.DisplayRole and orientation == Qt.Horizontal:
            return COLUMNS[section]
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.AscendingOrder) -> None:
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        self._apply_sort()
        self.layoutChanged.emit()

    def _apply_sort(self) -> None:
        """Sort rows by the chosen column, ties by label; column < 0 is plan order (link id)."""
        if self._sort is None or self._sort[0] < 0:
            self.rows.sort(key=lambda row: _link_number(row[0]))
            return
        column, order = self._sort
        keys = self._keys.get(column)
        if keys is None:
            if column in _NUMERIC:
                keys = {row[0]: row[column + 1] for row in self.rows}
            else:
                keys = {row[0]: text_key(str(row[column + 1])) for row in self.rows}
            self._keys[column] = keys
        labels = self._keys.get(0)
        if labels is None:
            labels = self._keys[0] = {row[0]: text_key(row[1]) for row in self.rows}
        self.rows.sort(key=lambda row: (keys[row[0]], labels[row[0]]), reverse=order == Qt.DescendingOrder)

    def search_text(self, row: int) -> str:
        return self.rows[row][-1]

    # --------------------------------------------------------------- updates
    def rebuild(self) -> None:
        doc = self.session.doc
        self.beginResetModel()
        self.rows = [link_row(doc, link_id) for link_id in doc.links]
        self._keys = {}
        self._apply_sort()
        self.endResetModel()

    def on_change(self, change: Change) -> None:
        doc = self.session.doc
        links = {i for i in change.touched if prefix_of(i) == "link"}
        if change.added & links or change.removed & links or len(links) > _PATCH_LIMIT:
            self.rebuild()
            return
        # a renamed or re-mounted rack or device changes the end text of its cables only
        for obj_id, fields in change.modified.items():
            if fields & _END_FIELDS and obj_id in doc:
                devices = doc.devices_in(obj_id) if prefix_of(obj_id) == "rack" else [doc.get(obj_id)]
                for device in devices:
                    links.update(doc.link_ids_of(device.id))
        if len(links) > _PATCH_LIMIT:
            self.rebuild()
        elif links:
            self._patch(links)

    def _patch(self, link_ids: set[str]) -> None:
        """Rebuild the rows of some links in place (their sort position is kept until the next sort)."""
        doc = self.session.doc
        position = {row[0]: n for n, row in enumerate(self.rows)}
        self._keys = {}
        for link_id in link_ids:
            n = position.get(link_id)
            if n is not None and link_id in doc.links:
                self.rows[n] = link_row(doc, link_id)
                self.dataChanged.emit(self.index(n, 0), self.index(n, len(COLUMNS) - 1))

    def row_of(self, link_id: str) -> int:
        return next((n for n, row in enumerate(self.rows) if row[0] == link_id), -1)


class CableFilterProxy(QSortFilterProxyModel):
    """Shows the rows whose text contains every word typed; sorting is forwarded to the model."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._words: list[str] = []

    def set_filter_text(self, text: str) -> None:
        self.beginFilterChange()
        self._words = text.lower().split()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self._words:
            return True
        text = self.sourceModel().search_text(source_row)
        return all(word in text for word in self._words)

    def sort(self, column: int, order: Qt.SortOrder = Qt.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)


class CableDock(QDockWidget):
    """Dock with the cable table, a filter box and a count; a selected row shows its route."""

    def __init__(self, session: DocumentSession, plan_view: Any = None, parent: QWidget | None = None) -> None:
        super().__init__("Cables", parent)
        self.setObjectName("cable_dock")
        self.session = session
        self.plan_view = plan_view
        self.model = CableTableModel(session, self)
        self.proxy = CableFilterProxy(self)
        self.proxy.setSourceModel(self.model)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: words from label, ends, tier, media (e.g. R05 leaf-spine sr4)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        self.count = QLabel()
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QTableView.SelectRows)
        self.table.setSelectionMode(QTableView.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.Interactive)
        for column, width in enumerate((250, 150, 150, 80, 40, 50, 70, 65)):
            self.table.setColumnWidth(column, width)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter)
        layout.addWidget(self.table)
        layout.addWidget(self.count)
        self.setWidget(body)
        for signal in (self.model.modelReset, self.model.layoutChanged, self.proxy.rowsInserted,
                       self.proxy.rowsRemoved):
            signal.connect(self._update_count)
        self._update_count()

    def _filter_changed(self, text: str) -> None:
        self.proxy.set_filter_text(text)
        self._update_count()

    def _update_count(self, *args: object) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        self.count.setText(f"{total:,} cables" if shown == total else f"{shown:,} of {total:,} cables")

    def selected_link(self) -> str | None:
        index = self.table.currentIndex()
        return self.proxy.data(index, Qt.UserRole) if index.isValid() else None

    def select_link(self, link_id: str) -> None:
        """Select a link's row (clearing the filter if it hides it)."""
        row = self.model.row_of(link_id)
        if row < 0:
            return
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            self.filter.clear()
            index = self.proxy.mapFromSource(self.model.index(row, 0))
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self.plan_view is None:
            return
        link_id = self.proxy.data(current, Qt.UserRole) if current.isValid() else None
        if link_id is None or link_id not in self.session.doc.links:
            self.plan_view.clear_route()
            return
        result = route(self.session.doc, self.session.doc.links[link_id])
        self.plan_view.show_route(result.polyline)
