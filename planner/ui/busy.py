"""A wait cursor and a status line around work that blocks the window for a moment (opening or
saving a 32k-GPU hall, building a template, generating a fabric, re-routing every cable), so
the user sees that the planner is working rather than hung."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QEventLoop, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QWidget


@contextmanager
def busy(widget: QWidget, message: str) -> Iterator[None]:
    """Show ``message`` in the window's status bar and a wait cursor until the block ends."""
    window = widget.window()
    bar = window.statusBar() if isinstance(window, QMainWindow) else None
    if bar is not None:
        bar.showMessage(message)
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)  # paint the message now
    try:
        yield
    finally:
        QGuiApplication.restoreOverrideCursor()
        if bar is not None and bar.currentMessage() == message:
            bar.clearMessage()
