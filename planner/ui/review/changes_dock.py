"""The Changes dock: every difference of the comparison (File ▸ Compare with…) as a list grouped
like ``planner diff`` prints it (added, removed, moved, changed, cables, findings new and
resolved, figures), with the plan's colour legend. Clicking a line asks the window to centre the
plan on it; Esc or Stop comparing ends the comparison.

The lines come from ``planner.review.text.sections``, so the dock, the command line and git say
the same thing in the same words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QFont,
    QFontMetrics,
    QIcon,
    QKeySequence,
    QPainter,
    QPen,
    QPixmap,
    QShortcut,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.review.diff import PlanDiff
from planner.review.text import Line, sections
from planner.ui.fit import dock_chrome, scroll_bar_extent
from planner.ui.plan.items import SEVERITY_COLOURS
from planner.ui.review.compare_layer import ADDED, CHANGED, COLOURS, LEGEND, MOVED, REMOVED
from planner.ui.trees import children, top_items

_LINE = Qt.ItemDataRole.UserRole
#: Icon colour of each line by how it differs (findings by severity; resolved ones grey).
_STATUS_COLOURS = {"added": COLOURS[ADDED], "removed": COLOURS[REMOVED], "moved": COLOURS[MOVED],
                   "changed": COLOURS[CHANGED], "rewired": COLOURS[CHANGED], "figure": COLOURS[CHANGED],
                   "resolved": QColor(150, 150, 150)}
_TIPS = {"added": "In this plan, not in the other revision", "removed": "In the other revision, not in this plan "
         "(drawn as a ghost where it was)", "moved": "Moved: dashed where it was, an arrow to where it is",
         "changed": "Fields changed (outlined on the plan)", "rewired": "An end moved to another port",
         "new": "A finding this plan has and the other revision had not",
         "resolved": "A finding the other revision had and this plan has not",
         "figure": "A design figure that moved (the other revision → this plan)"}
SWATCH_PX = 12
#: Lines of each group read to find the width they need (a hall's diff may hold 98k cables).
FIT_LINES = 200
#: The dock widens to show its lines whole, up to this share of the window's width.
MAX_SHARE = 0.4
#: How narrow the other side column may get while comparing (the palette and elevation, which
#: elide their names in the middle; ``clear`` gives the width back).
SIDE_KEEP = 200
_BOTTOM = Qt.DockWidgetArea.BottomDockWidgetArea
_OTHER_SIDE = {Qt.DockWidgetArea.RightDockWidgetArea: Qt.DockWidgetArea.LeftDockWidgetArea,
               Qt.DockWidgetArea.LeftDockWidgetArea: Qt.DockWidgetArea.RightDockWidgetArea}


def swatch(colour: QColor, hollow: bool = False) -> QIcon:
    """A small square of a colour (hollow: its outline) for the legend and the lines."""
    pixmap = QPixmap(SWATCH_PX, SWATCH_PX)
    pixmap.fill(Qt.GlobalColor.transparent if hollow else colour)
    if hollow:
        painter = QPainter(pixmap)
        painter.setPen(QPen(colour, 3))
        painter.drawRect(1, 1, SWATCH_PX - 3, SWATCH_PX - 3)
        painter.end()
    return QIcon(pixmap)


def _status_icon(line: Line) -> QIcon:
    if line.status == "new":
        return swatch(SEVERITY_COLOURS.get(line.entry["severity"], QColor(120, 120, 120)))
    return swatch(_STATUS_COLOURS[line.status], hollow=line.status in ("changed", "rewired", "moved"))


class ChangesDock(QDockWidget):
    """Lists a PlanDiff; ``line_activated`` carries the Line a click picked."""

    line_activated = Signal(object)
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Changes", parent)
        self.setObjectName("changes_dock")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 6)
        self.header = QLabel("Not comparing")
        self.header.setWordWrap(True)
        self.header.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.header)
        legend = QGridLayout()
        legend.setHorizontalSpacing(12)
        legend.setVerticalSpacing(2)
        for index, change in enumerate((ADDED, REMOVED, MOVED, CHANGED)):
            icon = QLabel()
            icon.setPixmap(swatch(COLOURS[change], hollow=change in (MOVED, CHANGED)).pixmap(SWATCH_PX, SWATCH_PX))
            text = QLabel(change)
            text.setToolTip(LEGEND[change])
            icon.setToolTip(LEGEND[change])
            cell = QHBoxLayout()
            cell.setSpacing(4)
            cell.addWidget(icon)
            cell.addWidget(text)
            cell.addStretch(1)
            legend.addLayout(cell, 0, index)
        layout.addLayout(legend)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setRootIsDecorated(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.itemActivated.connect(self._activated)
        self.tree.itemClicked.connect(self._activated)
        layout.addWidget(self.tree, 1)
        bottom = QHBoxLayout()
        self.summary = QLabel("")
        bottom.addWidget(self.summary, 1)
        self.stop_button = QPushButton("Stop comparing")
        self.stop_button.setToolTip("Hide the other revision (Esc); the plan stays as it is")
        self.stop_button.clicked.connect(self.stop_requested)
        bottom.addWidget(self.stop_button)
        layout.addLayout(bottom)
        self.setWidget(body)
        self._wanted = 0
        self._restore: dict[QDockWidget, int] = {}  # widths before the dock widened its column
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), body)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self.stop_requested)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self.fit_width)  # once the window has placed it (tabbed, laid out)

    def wanted_width(self) -> int:
        """Dock width that shows every line whole (of each group the first FIT_LINES)."""
        tree = self.tree
        metrics, bold = tree.fontMetrics(), QFontMetrics(_bold(tree.font()))
        lines = max((metrics.horizontalAdvance(row.text(0)) for group in top_items(tree)
                     for row in children(group)[:FIT_LINES]), default=0)
        titles = max((bold.horizontalAdvance(group.text(0)) for group in top_items(tree)), default=0)
        padding = 2 * (tree.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, tree) + 1) + 4
        rows = max(titles + tree.indentation(), lines + 2 * tree.indentation() + tree.iconSize().width() + 4)
        return rows + padding + scroll_bar_extent(tree) + 2 * tree.frameWidth() + dock_chrome(self)

    def fit_width(self) -> None:
        """Widen the dock's column (up to MAX_SHARE of the window) so the lines show whole, taking
        the width from the other side column (down to SIDE_KEEP px) before the strip under the
        plan, whose docks keep their columns whole where they can; ``clear`` gives it back."""
        window = self.parentWidget()
        if not isinstance(window, QMainWindow) or self.isFloating() or not self.isVisible():
            return
        grow = min(self._wanted, round(window.width() * MAX_SHARE)) - self.width()
        if grow <= 0:
            return
        docks = [d for d in window.findChildren(QDockWidget) if d.isVisible() and not d.isFloating()]
        spare = min((d.width() - d.wanted_width() for d in docks  # the Cables dock's own measure
                     if window.dockWidgetArea(d) == _BOTTOM and hasattr(d, "wanted_width")), default=grow)
        side = [d for d in docks if window.dockWidgetArea(d) == _OTHER_SIDE.get(window.dockWidgetArea(self))]
        take = min(grow - spare, min((d.width() for d in side), default=0) - SIDE_KEEP)
        sizes: dict[QDockWidget, int] = {self: self.width() + grow}
        if take > 0:
            sizes[side[0]] = side[0].width() - take
        for dock in sizes:
            self._restore.setdefault(dock, dock.width())
        window.resizeDocks(list(sizes), list(sizes.values()), Qt.Orientation.Horizontal)

    def closeEvent(self, event: QCloseEvent) -> None:
        """Closing the dock ends the comparison."""
        super().closeEvent(event)
        self.stop_requested.emit()

    def show_diff(self, diff: PlanDiff, header: str) -> None:
        """List ``diff`` under ``header``, keeping the line that was current where it still is."""
        current = self.tree.currentItem()
        kept = _identity(current.data(0, _LINE)) if current is not None and current.data(0, _LINE) else None
        self.header.setText(header)
        self.tree.setUpdatesEnabled(False)
        try:
            self.tree.clear()
            restore = None
            for title, lines in sections(diff):
                group = QTreeWidgetItem([title])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                children = []
                for line in lines:
                    item = QTreeWidgetItem([" ".join(line.text.split())])  # the CLI's column padding
                    # aligns nothing in a proportional font, and a line at 1920 has no width to spare
                    item.setData(0, _LINE, line)
                    item.setIcon(0, _status_icon(line))
                    item.setToolTip(0, f"{line.text}\n{_TIPS[line.status]}")
                    children.append(item)
                    if kept is not None and restore is None and _identity(line) == kept:
                        restore = item
                group.addChildren(children)
                self.tree.addTopLevelItem(group)
                group.setExpanded(True)
            if restore is not None:
                self.tree.setCurrentItem(restore)
        finally:
            self.tree.setUpdatesEnabled(True)
        self.summary.setText("No differences" if diff.is_empty else f"{self.count():,} changes")
        self._wanted = self.wanted_width()
        self.fit_width()

    def clear(self) -> None:
        self.tree.clear()
        window = self.parentWidget()
        if self._restore and isinstance(window, QMainWindow) and not self.isFloating():
            window.resizeDocks(list(self._restore), list(self._restore.values()), Qt.Orientation.Horizontal)
        self._restore = {}
        self.header.setText("Not comparing")
        self.summary.setText("")

    def count(self) -> int:
        return sum(group.childCount() for group in top_items(self.tree))

    def lines(self) -> list[Line]:
        """Every line listed, in order."""
        return [row.data(0, _LINE) for group in top_items(self.tree) for row in children(group)]

    def item_of(self, line: Line) -> QTreeWidgetItem | None:
        for group in top_items(self.tree):
            for row in children(group):
                if row.data(0, _LINE) == line:
                    return row
        return None

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        line = item.data(0, _LINE)
        if line is not None:
            self.line_activated.emit(line)


def _bold(font: QFont) -> QFont:
    font = QFont(font)
    font.setBold(True)
    return font


def _identity(line: Line) -> tuple:
    """What a line is about, across a refresh: its status and the entry's id (or text)."""
    return line.status, line.entry.get("id") or line.text
