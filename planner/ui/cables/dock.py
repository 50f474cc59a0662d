"""The cable list: every link of the plan in a sortable, filterable table.

At 32k GPUs the plan has 98k cables, so nothing here is per row (issue 9). ``CableTableModel``
presents a permutation of slots of a ``CableIndex`` (``planner.ui.cables.index``): ``visible``
is the current sort order with the filter applied, as a numpy array, and ``data()`` derives a
cell's text from the document only when the table paints it. Filtering runs over the index's
precomputed search texts and sorting takes the index's cached order per column, each then
shown with one layout change — no QSortFilterProxyModel asking Python about 98k rows. The
index's search texts and label keys are built in idle time once the dock is shown.

An edit elsewhere in the plan touches only its rows: removed or inserted rows get their own
signals when few (one layout change when many), changed rows a dataChanged; a row whose sort
key changed stays where it is until the next sort, as a user expects while editing. A row
selected highlights its route on the plan (``PlanView.show_route``), redrawn as its ends change.

State (issue 13) and network (issue 21): columns and filters (masks over the index's codes, with
the words' mask); "Set state" on the selected rows — row ranges, so a select-all of 98k rows is
one slice — as one ``set_state_command``. By hand (issue 18): rewire an end of the selected
cable, delete the selected cables (Delete); the selected rows' edits are ``cables.actions``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from planner.fabric.routing import route
from planner.model.change import Change
from planner.ui.cables.actions import CableActions
from planner.ui.cables.filters import NETWORK_FILTERS, STATE_FILTERS, filter_combo, near_link
from planner.ui.cables.index import COLUMNS, NUMERIC, PLAN_ORDER, STATE, CableIndex, Update
from planner.ui.fit import columns_width, dock_chrome, fit_columns
from planner.ui.session import DocumentSession

_ROOT = QModelIndex()
# Roles as plain ints: Qt asks data() for ~10 roles per painted cell, and looking up
# ``Qt.DisplayRole`` costs 3 µs a time in PySide6 (most of a repaint's Python time).
_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole.value)
_USER = int(Qt.ItemDataRole.UserRole.value)
_TIP = int(Qt.ItemDataRole.ToolTipRole.value)
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
_FOCUS_IN = QEvent.Type.FocusIn
#: Up to this many separate row ranges an edit removes or inserts with their own signals (the
#: view keeps its place exactly); beyond, one layout change is cheaper than thousands of them.
_SIGNAL_LIMIT = 32
#: Beyond this many rows to show after an edit, the filtered sort order is taken afresh (O(n) in
#: numpy) rather than each row placed by a binary search over sort keys (~20 µs a row).
_BULK = 2000
#: Search texts (or label keys) built per idle tick before the first filter or sort (~5 ms).
_CHUNK = 4096
#: Rows read to size the columns (not 98k), and a cell per column as wide as a hall's (a cord's label).
FIT_ROWS = 200
TYPICAL = ("R101-U09-N3-PSU10 ↔ R101-U00-PDU-B4-O42", "R101 U42 L1 32/1", "R105 U42 S1 64/2", "compute", "storage-uplink",
           "8", "sr4", "123.45", "100.00", "labelled")


class CableTableModel(QAbstractTableModel):
    """The plan's links as rows: a filtered, sorted view of slots of a ``CableIndex``."""

    def __init__(self, session: DocumentSession, parent: Any = None) -> None:
        super().__init__(parent)
        self.session = session
        self.cables = CableIndex(session.doc)
        self.visible: np.ndarray = self.cables.order(PLAN_ORDER)
        self._sort: tuple[int, Qt.SortOrder] = (PLAN_ORDER, Qt.SortOrder.AscendingOrder)
        self._words: list[str] = []
        self._states: tuple[str, ...] = ()
        self._networks: tuple[str, ...] = ()
        #: Slots matching the filter words, in the chosen states, on the chosen networks, and all
        #: of them (None: no such filter).
        self._text_mask: np.ndarray | None = None
        self._state_mask: np.ndarray | None = None
        self._network_mask: np.ndarray | None = None
        self._mask: np.ndarray | None = None
        self._rows: np.ndarray | None = None
        self._prepared = False
        # one chunk per single shot, re-armed until done: idle work that yields to every event
        self._builder = QTimer(self)
        self._builder.setSingleShot(True)
        self._builder.setInterval(0)
        self._builder.timeout.connect(self._build_some)
        session.changed.connect(self.on_change)
        session.reset.connect(self.rebuild)

    # ----------------------------------------------------------------- model
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.visible)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY:
            if index.isValid():
                return self.cables.display(int(self.visible[index.row()]), index.column())
        elif role == _ALIGN:
            if index.column() in NUMERIC:
                return _RIGHT
        elif role == _USER and index.isValid():
            return self.cables.ids[int(self.visible[index.row()])]
        elif role == _TIP and index.isValid() and index.column() == STATE:
            link = self.cables.link(int(self.visible[index.row()]))
            return link.state_note or None if link is not None else None
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = _DISPLAY) -> Any:
        if role == _DISPLAY and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort by a column (ties by label); column < 0 is plan order (link number)."""
        self._sort = (column, order)
        self._relayout(self._arranged())

    # ------------------------------------------------------------- filtering
    def set_filter_text(self, text: str) -> None:
        """Show the rows whose text contains every word (case-insensitive)."""
        words = text.lower().split()
        if words == self._words:
            return
        # every old word inside a new one (typing on): only the rows shown now can still match
        narrower = all(any(old in new for new in words) for old in self._words)
        within = np.flatnonzero(self._text_mask) if self._text_mask is not None and narrower else None
        self._words = words
        self._text_mask = self.cables.matches(words, within) if words else None
        self._refilter()

    def set_state_filter(self, states: tuple[str, ...] | list[str]) -> None:
        """Show only cables in one of ``states`` (empty: every state), with the other filters."""
        if tuple(states) != self._states:
            self._states = tuple(states)
            self._state_mask = self.cables.state_mask(self._states) if self._states else None
            self._refilter()

    def set_network_filter(self, networks: tuple[str, ...] | list[str]) -> None:
        """Show only cables on one of ``networks`` (empty: every network), with the other filters."""
        if tuple(networks) != self._networks:
            self._networks = tuple(networks)
            self._network_mask = self.cables.network_mask(self._networks) if self._networks else None
            self._refilter()

    def _refilter(self) -> None:
        self._combine()
        self._relayout(self._arranged())

    def _combine(self) -> None:
        masks = [m for m in (self._text_mask, self._state_mask, self._network_mask) if m is not None]
        self._mask = np.logical_and.reduce(masks) if len(masks) > 1 else masks[0] if masks else None

    def slots_of_rows(self, ranges: list[tuple[int, int]]) -> np.ndarray:
        """Slots shown in row ranges (first, last inclusive): a selection without an index per row."""
        parts = [self.visible[first:last + 1] for first, last in ranges]
        return np.concatenate(parts) if parts else np.empty(0, dtype=np.intp)

    def total(self) -> int:
        """Cables in the plan, shown or not."""
        return self.cables.count

    def prepare(self, now: bool = False) -> None:
        """Build the search texts in idle time (or now), so the first keystroke finds them ready;
        the label sort keys follow in idle time."""
        self._prepared = True
        if now:
            self.cables.build_texts()
        if not self._builder.isActive():
            self._builder.start()

    def _build_some(self) -> None:
        if not self.cables.prepare(_CHUNK):
            self._builder.start()

    # ------------------------------------------------------------------ rows
    def row_of(self, link_id: str) -> int:
        """The row showing a link, or -1 (not in the plan, or hidden by the filter)."""
        slot = self.cables.slot_of.get(link_id)
        return -1 if slot is None else int(self._row_map()[slot])

    def _row_map(self) -> np.ndarray:
        """Row of every slot (-1 when not shown), rebuilt after the rows change."""
        if self._rows is None or len(self._rows) != len(self.cables.ids):
            rows = np.full(len(self.cables.ids), -1, dtype=np.intp)
            rows[self.visible] = np.arange(len(self.visible))
            self._rows = rows
        return self._rows

    def _arranged(self) -> np.ndarray:
        """The slots to show: the sort column's cached order, reversed if descending, filtered."""
        column, order = self._sort
        slots = self.cables.order(column)
        if order == Qt.SortOrder.DescendingOrder:
            slots = slots[::-1]
        return slots[self._mask[slots]] if self._mask is not None else slots

    def _relayout(self, visible: np.ndarray) -> None:
        """Show other rows in one layout change, keeping the selection on the same cables."""
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        slots = [int(self.visible[index.row()]) for index in old]
        self._set_visible(visible)
        rows = self._row_map()
        new = [self.index(int(rows[slot]), index.column()) if rows[slot] >= 0 else QModelIndex()
               for slot, index in zip(slots, old, strict=True)]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def _set_visible(self, visible: np.ndarray) -> None:
        self.visible = visible
        self._rows = None

    # --------------------------------------------------------------- updates
    def rebuild(self) -> None:
        """A new index over the session's document, keeping the sort and the filter."""
        self.beginResetModel()
        self._builder.stop()
        self.cables = CableIndex(self.session.doc)
        self._text_mask = self.cables.matches(self._words) if self._words else None
        self._state_mask = self.cables.state_mask(self._states) if self._states else None
        self._network_mask = self.cables.network_mask(self._networks) if self._networks else None
        self._combine()
        self._set_visible(self._arranged())
        self.endResetModel()
        if self._prepared:  # a new plan in a dock already shown: index it in idle time again
            self.prepare()

    def on_change(self, change: Change) -> None:
        update = self.cables.apply(change)
        if update is None:
            self.rebuild()
            return
        if not (update.removed or update.added or update.changed):
            return
        hide, show = list(update.removed), list(update.added)
        changed = update.changed
        if self._mask is not None:
            self._retest(update)
            show = [slot for slot in show if self._mask[slot]]
            rows = self._row_map()[changed] if changed else np.empty(0, dtype=np.intp)
            flipped = np.asarray(changed, dtype=np.intp)[self._mask[changed] != (rows >= 0)] \
                if changed else np.empty(0, dtype=np.intp)
            hide += flipped[~self._mask[flipped]].tolist()
            show += flipped[self._mask[flipped]].tolist()
        self._remove_slots(hide)
        if len(show) > _BULK:  # e.g. undoing "mark every cable verified" under "not verified"
            self._relayout(self._arranged())
        else:
            self._insert_slots(show)
        rows = self._row_map()[changed] if changed else np.empty(0, dtype=np.intp)
        rows = rows[rows >= 0]
        if rows.size:
            self.dataChanged.emit(self.index(int(rows.min()), 0), self.index(int(rows.max()), len(COLUMNS) - 1))

    def _retest(self, update: Update) -> None:
        """Re-test the slots an edit added or changed against the filters: the words only where
        the search text changed, the states with one vectorised look-up."""
        grow = np.zeros(len(update.added), dtype=bool)
        if self._text_mask is not None:
            self._text_mask = np.concatenate([self._text_mask, grow])
            for slot in (*update.added, *update.retexted):
                self._text_mask[slot] = self.cables.matches_slot(self._words, slot)
        slots = update.added + update.changed
        if self._state_mask is not None:
            self._state_mask = np.concatenate([self._state_mask, grow])
            self._state_mask[slots] = self.cables.state_mask(self._states, slots)
        if self._network_mask is not None:
            self._network_mask = np.concatenate([self._network_mask, grow])
            self._network_mask[slots] = self.cables.network_mask(self._networks, slots)
        self._combine()

    def _remove_slots(self, slots: list[int]) -> None:
        rows = self._row_map()[slots] if slots else np.empty(0, dtype=np.intp)
        rows = np.unique(rows[rows >= 0])
        if not rows.size:
            return
        breaks = np.flatnonzero(np.diff(rows) > 1)
        if len(breaks) >= _SIGNAL_LIMIT:
            self._relayout(np.delete(self.visible, rows))
            return
        firsts = np.concatenate([rows[:1], rows[breaks + 1]])
        lasts = np.concatenate([rows[breaks], rows[-1:]])
        for first, last in zip(firsts[::-1].tolist(), lasts[::-1].tolist(), strict=True):
            self.beginRemoveRows(_ROOT, first, last)
            self._set_visible(np.delete(self.visible, np.s_[first:last + 1]))
            self.endRemoveRows()

    def _insert_slots(self, slots: list[int]) -> None:
        """Insert rows where the current sort puts them (the rows shown may be out of order after
        edits; a binary search still finds a sensible place)."""
        if not slots:
            return
        column, order = self._sort
        descending = order == Qt.SortOrder.DescendingOrder
        key = self.cables.sort_key
        slots = sorted(slots, key=lambda slot: key(column, slot), reverse=descending)
        placed = sorted(((self._position(key(column, slot), column, descending), slot) for slot in slots),
                        key=lambda pair: pair[0])
        if len(placed) > _SIGNAL_LIMIT:
            self._relayout(np.insert(self.visible, [p for p, _ in placed], [s for _, s in placed]))
            return
        for shift, (position, slot) in enumerate(placed):
            row = position + shift
            self.beginInsertRows(_ROOT, row, row)
            self._set_visible(np.insert(self.visible, row, slot))
            self.endInsertRows()

    def _position(self, wanted: Any, column: int, descending: bool) -> int:
        """Row before which a slot with sort key ``wanted`` belongs (after its equals)."""
        low, high = 0, len(self.visible)
        visible, key = self.visible, self.cables.sort_key
        while low < high:
            middle = (low + high) // 2
            here = key(column, int(visible[middle]))
            if (here < wanted) if descending else (wanted < here):
                high = middle
            else:
                low = middle + 1
        return low


class CableDock(QDockWidget):
    """Dock with the cable table, a filter box, a state filter and a count; a selected row shows
    its route, and the selected rows' installation state is set from a menu as one undo step."""

    #: A refused edit's reason or what an edit did, for the status bar.
    status_message = Signal(str)

    def __init__(self, session: DocumentSession, plan_view: Any = None, parent: QWidget | None = None) -> None:
        super().__init__("Cables", parent)
        self.setObjectName("cable_dock")
        self.session = session
        self.plan_view = plan_view
        self.model = CableTableModel(session, self)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter: words from label, ends, network, tier, media (e.g. R05 leaf-spine sr4)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter_changed)
        self.filter.installEventFilter(self)
        self.state_filter = filter_combo(STATE_FILTERS, "Show only cables in this installation state", "state_filter")
        self.state_filter.currentIndexChanged.connect(self._choice_changed)
        self.network_filter = filter_combo(NETWORK_FILTERS, "Show only cables of this network", "network_filter", compact=True)
        self.network_filter.currentIndexChanged.connect(self._choice_changed)
        self.count = QLabel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.cable_actions = CableActions(self)  # set state, rewire, delete: menus, buttons, Delete key
        self.state_menu, self.state_button = self.cable_actions.state_menu, self.cable_actions.state_button
        self.table.customContextMenuRequested.connect(self.cable_actions.context_menu)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setWordWrap(False)
        self.table.setTabKeyNavigation(False)  # Tab leaves the table for the filters and buttons
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.verticalHeader().setResizeContentsPrecision(FIT_ROWS)  # the first rows size the columns
        self._fitted: bool | None = None  # never: _update_count below fits the columns once
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()  # the filter box shrinks first: the bottom row sets the dock's minimum width
        top.addWidget(self.filter, 1)
        top.addWidget(self.network_filter)
        top.addWidget(self.cable_actions.edit_button)
        layout.addLayout(top)
        layout.addWidget(self.table)
        bottom = QHBoxLayout()
        bottom.addWidget(self.count, 1)
        bottom.addWidget(self.state_filter)
        bottom.addWidget(self.state_button)
        layout.addLayout(bottom)
        self.setWidget(body)
        for signal in (self.model.modelReset, self.model.layoutChanged, self.model.rowsInserted,
                       self.model.rowsRemoved):
            signal.connect(self._update_count)
        session.changed.connect(self._plan_changed)
        session.selection_changed.connect(self._selection_changed)
        self._update_count()

    def wanted_width(self) -> int:
        """Dock width that shows every column whole beside a vertical scroll bar."""
        return columns_width(self.table) + dock_chrome(self)

    def showEvent(self, event: QShowEvent) -> None:
        """Start building the search texts once the dock is on screen (not while the plan opens)."""
        super().showEvent(event)
        self.model.prepare()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.filter and event.type() == _FOCUS_IN:
            self.model.prepare(now=True)  # the user is about to type
        return super().eventFilter(watched, event)

    def _filter_changed(self, text: str) -> None:
        self.model.set_filter_text(text)
        self._update_count()

    def _update_count(self, *args: object) -> None:
        total, shown = self.model.total(), self.model.rowCount()
        if not self._fitted and (shown or self._fitted is None):  # at first, and at the first rows
            self._fitted = bool(shown)  # fitted to cells too, or only to the headers and TYPICAL
            fit_columns(self.table, TYPICAL)
        self.count.setText(f"{total:,} cables" if shown == total else f"{shown:,} of {total:,} cables")

    def _choice_changed(self, _index: int) -> None:
        self.model.set_state_filter(self.state_filter.currentData() or ())
        self.model.set_network_filter(self.network_filter.currentData() or ())
        self._update_count()

    def selected_link(self) -> str | None:
        index = self.table.currentIndex()
        return self.model.data(index, _USER) if index.isValid() else None

    def selected_links(self) -> list[str]:
        """Ids of the selected rows' cables, in row order, without an index object per row (a
        select-all of 98k rows is one range)."""
        selection = self.table.selectionModel().selection()
        ranges = sorted((r.top(), r.bottom()) for r in (selection.at(i) for i in range(selection.count())))
        ids = self.model.cables.ids
        return list(dict.fromkeys(ids[slot] for slot in self.model.slots_of_rows(ranges).tolist()))

    def set_state(self, state: str, note: str | None = None) -> None:
        """Mark the selected cables ``state`` as one undo step (``CableActions.set_state``)."""
        self.cable_actions.set_state(state, note)

    def select_link(self, link_id: str) -> None:
        """Select a link's row (clearing the filter if it hides it)."""
        if link_id not in self.model.cables.slot_of:
            return
        row = self.model.row_of(link_id)
        if row < 0:
            self.filter.clear()
            row = self.model.row_of(link_id)
        index = self.model.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_route(self.model.data(current, _USER) if current.isValid() else None, focus=True)

    def _plan_changed(self, change: Change) -> None:
        """Redraw the highlighted route when its cable, its devices or their racks changed."""
        link_id = self.selected_link()
        link = self.session.doc.links.get(link_id) if link_id else None
        if self.plan_view is None:
            return
        if link is None:  # the cable it showed is gone (deleted, or undone): so is its route
            self.plan_view.clear_route()
            return
        if near_link(self.session.doc, link) & change.touched or change.basis or change.outline:
            self._show_route(link.id)

    def _selection_changed(self, selected: set[str]) -> None:
        """The route leaves with the selection: picking anything but the cable or its ends on the
        plan clears the highlight (and the dock's row, so a click on it shows the route again)."""
        link_id = self.selected_link()
        link = self.session.doc.links.get(link_id) if link_id else None
        if link is None or self.plan_view is None:
            return
        if set(selected) - near_link(self.session.doc, link):
            self.table.setCurrentIndex(QModelIndex())
            self.plan_view.clear_route()

    def _show_route(self, link_id: str | None, focus: bool = False) -> None:
        if self.plan_view is None:
            return
        if link_id is None or link_id not in self.session.doc.links:
            self.plan_view.clear_route()
            return
        link = self.session.doc.links[link_id]
        result = route(self.session.doc, link)
        self.plan_view.show_route(result.polyline, (link.a_device, link.b_device), focus=focus)
