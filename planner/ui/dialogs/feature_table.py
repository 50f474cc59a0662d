"""An editable table of hall features (one row per zone, column, door or outline corner).

Each row remembers the id of the object it shows (None for a new row) and, for polygons that
are not axis-aligned rectangles, the original polygon: those rows show their bounds read-only
so a rectangle edit cannot silently flatten a drawn shape. A column may name the model field
it edits (``limit``): its cells are then checked against the format's bounds table, so a
table never hands the plan a value its file would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.model.bounds import field_problem
from planner.model.geometry import bounds_of
from planner.model.objects import Point
from planner.ui.fit import scroll_bar_extent

ID_ROLE = Qt.ItemDataRole.UserRole
POLYGON_ROLE = Qt.ItemDataRole.UserRole + 1
#: The widest number a cell is made room for before it is typed (a coordinate, a rating).
TYPICAL_NUMBER = "−1234.56"


@dataclass
class Column:
    """One table column: header, kind ("text" or "number"), the value a new row starts with and
    the (class name, field) of the bounds table its cells must fit; an ``optional`` number may be
    left blank, read as None ("not given": a rating the survey does not state)."""

    header: str
    kind: str = "number"
    default: Any = 0.0
    limit: tuple[str, str] | None = None
    optional: bool = False


class InvalidCell(ValueError):
    """A cell that does not hold a valid value; the message names the row and column."""


def is_rectangle(polygon: list[Point]) -> bool:
    return len(polygon) == 4 and len({p[0] for p in polygon}) == 2 and len({p[1] for p in polygon}) == 2


def rectangle(x0: float, y0: float, x1: float, y1: float) -> list[Point]:
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _format(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


class FeatureTable(QWidget):
    """A QTableWidget with Add/Remove buttons and typed reading of its rows."""

    def __init__(self, columns: list[Column], add_text: str, rect_columns: tuple[int, int] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns = columns
        self.rect_columns = rect_columns
        self.table = QTableWidget(0, len(columns))
        self.table.setHorizontalHeaderLabels([c.header for c in columns])
        # every column as wide as its header and cells; what is left goes to the name, so no
        # coordinate column takes the table and squeezes the next (the outline's x and y)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(self.fontMetrics().horizontalAdvance(TYPICAL_NUMBER) + 16)  # room to type
        stretch = self.stretch_column()
        if stretch is not None:
            header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        add = QPushButton(add_text)
        add.clicked.connect(lambda: self.add_row(None, [c.default for c in columns]))
        remove = QPushButton("Remove selected")
        remove.clicked.connect(self.remove_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(buttons)

    def stretch_column(self) -> int | None:
        """The column given the table's spare width: the name, if the table has one."""
        return next((i for i, c in enumerate(self.columns) if c.header == "Name"), None)

    def wanted_width(self) -> int:
        """Width of the table (frame and scroll bar included) with every column as wide as its
        header and cells: the name's too, which otherwise gets only what is left."""
        table, header = self.table, self.table.horizontalHeader()
        columns = sum(max(header.sectionSizeHint(c), table.sizeHintForColumn(c), header.minimumSectionSize())
                      for c in range(table.columnCount()))
        return columns + scroll_bar_extent(table) + 2 * table.frameWidth()

    def add_row(self, obj_id: str | None, values: list[Any], polygon: list[Point] | None = None) -> int:
        """Append a row; ``polygon`` marks a non-rectangular shape whose bounds are read-only."""
        row = self.table.rowCount()
        self.table.insertRow(row)
        for col, value in enumerate(values):
            item = QTableWidgetItem(_format(value))
            if self.columns[col].kind == "number":
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if self.columns[col].optional:
                item.setToolTip("Leave blank when not given (the check that needs it says it did not run)")
            if polygon is not None and self.rect_columns and self.rect_columns[0] <= col < self.rect_columns[1]:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(f"A polygon with {len(polygon)} corners: its bounds are shown, "
                                "its shape is kept")
            self.table.setItem(row, col, item)
        first = self.first_cell(row)
        first.setData(ID_ROLE, obj_id)
        first.setData(POLYGON_ROLE, polygon)
        return row

    def first_cell(self, row: int) -> QTableWidgetItem:
        """The cell holding a row's id (and a polygon's corners): every row has one."""
        cell = self.table.item(row, 0)
        assert cell is not None, f"row {row} has no first cell"
        return cell

    def add_polygon_row(self, obj_id: str, before: list[Any], polygon: list[Point], after: list[Any]) -> None:
        """A row whose rectangle columns come from a polygon (editable only if it is a rectangle)."""
        x0, y0, x1, y1 = bounds_of(polygon)
        self.add_row(obj_id, [*before, x0, y0, x1, y1, *after], None if is_rectangle(polygon) else polygon)

    def remove_selected(self) -> None:
        for row in sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(row)

    def rows(self) -> list[tuple[str | None, list[Any], list[Point] | None]]:
        """(id, typed values, kept polygon) per row. Raises InvalidCell on a bad number or empty name."""
        result = []
        for row in range(self.table.rowCount()):
            values: list[Any] = []
            for col, column in enumerate(self.columns):
                item = self.table.item(row, col)
                text = item.text().strip() if item is not None else ""
                value: Any = text
                if column.optional and not text:
                    value = None
                elif column.kind == "number":
                    try:
                        value = float(text.replace(",", "."))
                    except ValueError:
                        raise InvalidCell(f"row {row + 1}, {column.header}: {text[:40]!r} is not a number") from None
                elif col == 0 and not text:
                    raise InvalidCell(f"row {row + 1}: {column.header} is empty")
                problem = field_problem(*column.limit, value) if column.limit else None
                if problem:
                    raise InvalidCell(f"row {row + 1}, {column.header}: {problem}")
                values.append(value)
            first = self.first_cell(row)
            kept = first.data(POLYGON_ROLE)
            polygon = [(float(x), float(y)) for x, y in kept] if kept else None
            result.append((first.data(ID_ROLE), values, polygon))
        return result
