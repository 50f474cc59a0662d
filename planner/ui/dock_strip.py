"""The strip under the plan: the findings and the cables side by side, or one over the other when
the window is too narrow for both to show their columns (issue 20).

At 1400 × 900 they share the strip as ever (the findings FINDINGS_SHARE of it). Where the strip
is wide enough for every column of the cables beside the findings' own minimum, the cables take
their width and the findings the rest. A 1920 × 1080 window is not (the side columns take 700 px
and the findings need 460): there, when the window is tall enough, the cables go under the
findings, each the strip's whole width, so no column of either is cut.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QStyle

#: The findings' share of the strip when neither whole columns nor stacking fit.
FINDINGS_SHARE = 0.58
#: A window at least this tall (px) stacks the two rather than cut the cables' columns.
STACK_MIN_HEIGHT = 960


def separator(window: QMainWindow) -> int:
    return window.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, window)


def arrange_strip(window: QMainWindow, findings: QDockWidget, cables: QDockWidget, width: int,
                  cables_width: int, height: int) -> None:
    """Size (and if need be stack) ``findings`` and ``cables`` in a strip ``width`` px wide, the
    findings ``height`` px tall; ``cables_width`` shows every column of the cables."""
    free = width - cables_width - separator(window)
    if free >= findings.minimumSizeHint().width():
        window.resizeDocks([findings, cables], [free, cables_width], Qt.Orientation.Horizontal)
    elif window.height() >= STACK_MIN_HEIGHT:
        stack(window, findings, cables)
        window.resizeDocks([findings, cables], [height, height], Qt.Orientation.Vertical)
    else:
        window.resizeDocks([findings, cables], [round(width * FINDINGS_SHARE), round(width * (1 - FINDINGS_SHARE))],
                           Qt.Orientation.Horizontal)


def stack(window: QMainWindow, upper: QDockWidget, lower: QDockWidget) -> None:
    """Put ``lower`` under ``upper`` with the docks tabbed behind it, and keep it in front."""
    if window.dockWidgetArea(lower) != window.dockWidgetArea(upper) or lower.isFloating():
        return
    behind = [dock for dock in window.tabifiedDockWidgets(lower) if dock is not upper]
    window.splitDockWidget(upper, lower, Qt.Orientation.Vertical)
    for dock in behind:
        window.tabifyDockWidget(lower, dock)
    lower.raise_()
