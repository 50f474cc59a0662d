"""The Changes dock: every difference of the comparison (File ▸ Compare with…) as a list grouped
like ``planner diff`` prints it (added, removed, moved, changed, cables, findings new and
resolved, figures), with the plan's colour legend. Clicking a line asks the window to centre the
plan on it; Esc or Stop comparing ends the comparison.

The lines come from ``planner.review.text.sections``, so the dock, the command line and git say
the same thing in the same words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QIcon,
    QKeySequence,
    QPainter,
    QPen,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.review.diff import PlanDiff
from planner.review.text import Line, sections
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
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), body)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self.stop_requested)

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
                    item = QTreeWidgetItem([line.text])
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

    def clear(self) -> None:
        self.tree.clear()
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


def _identity(line: Line) -> tuple:
    """What a line is about, across a refresh: its status and the entry's id (or text)."""
    return line.status, line.entry.get("id") or line.text
