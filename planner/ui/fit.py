"""Sizing views to what they show (issue 20): a column as wide as its header and its widest cell,
a dock as wide as its columns, a text elided in the middle when it still does not fit.

Content widths come from the view's own size hints (``sizeHintForColumn`` reads the rows in view
and, up to the vertical header's ``resizeContentsPrecision``, the rows around them), so a table
of 98k cables is not read whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QHeaderView, QStyle, QTableView


def cell_padding(view: QAbstractItemView) -> int:
    """What a cell adds around its text (the focus frame's margins both sides, and a pixel)."""
    return 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1) + 2


def column_need(view: QTableView, column: int, typical: str | None = None) -> int:
    """Width (px) that shows a column's header (with room for the sort mark), its widest cell
    among the first rows and ``typical`` (a cell the first rows may lack, or all of them) whole."""
    need = view.horizontalHeader().sectionSizeHint(column)
    model = view.model()
    if model is not None and model.rowCount():
        need = max(need, view.sizeHintForColumn(column))
    if typical:
        need = max(need, view.fontMetrics().horizontalAdvance(typical) + cell_padding(view))
    return need


def fit_columns(view: QTableView, typical: Sequence[str] = ()) -> None:
    """Set every column to its need (``column_need``); the user may resize them after."""
    model = view.model()
    for column in range(model.columnCount() if model is not None else 0):
        view.setColumnWidth(column, column_need(view, column, typical[column] if column < len(typical) else None))


def scroll_bar_extent(view: QAbstractItemView) -> int:
    return view.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, view.verticalScrollBar())


def columns_width(view: QTableView) -> int:
    """The columns' widths summed, with the frame and a vertical scroll bar beside them."""
    header: QHeaderView = view.horizontalHeader()
    return header.length() + scroll_bar_extent(view) + 2 * view.frameWidth()


def dock_chrome(dock: QDockWidget) -> int:
    """Width a dock adds around the view in its widget: the dock's frame and its layout's margins."""
    frame = 2 * dock.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetFrameWidth, None, dock)
    widget = dock.widget()
    layout = widget.layout() if widget is not None else None
    margins = 0
    if layout is not None:
        inner = layout.contentsMargins()
        margins = inner.left() + inner.right()
    return frame + margins + 2
