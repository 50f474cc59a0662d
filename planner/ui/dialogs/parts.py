"""Pieces every dialog of the planner is built from, so they look and behave alike."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel


def ok_cancel(dialog: QDialog, ok_text: str | None = None) -> QDialogButtonBox:
    """OK and Cancel wired to the dialog's accept and reject; ``ok_text`` names the action."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    if ok_text:
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(ok_text)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons


def error_label() -> QLabel:
    """A wrapping label for why the dialog cannot go ahead (dark red, readable in grey too)."""
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet("color: #b00020")
    return label
