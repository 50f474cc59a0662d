"""Pieces every dialog of the planner is built from, so they look and behave alike.

Number and text inputs take their limits from the format's bounds table
(``planner.model.bounds``): a spin box cannot go past a field's physical range, a line edit
stops at the field's length, and ``text_problem_for`` refuses control characters with the same
words the loader uses, so a dialog can never put into a plan what its file would refuse.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QLabel, QLineEdit, QSpinBox

from planner.model.bounds import Range, Text, field_problem, limit_of


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


def field_range(cls_name: str, field: str, scale: float = 1.0) -> tuple[float, float]:
    """A field's range from the bounds table as a dialog shows it (shown value = SI value / scale)."""
    bound = limit_of(cls_name, field, Range)
    if not isinstance(bound, Range):
        raise KeyError(f"no range for {cls_name}.{field} in planner.model.bounds")
    low, high = bound.low / scale, bound.high / scale
    return min(low, high), max(low, high)


def bounded_spin(cls_name: str, field: str, value: float, suffix: str, decimals: int = 2,
                 scale: float = 1.0, minimum: float | None = None) -> QDoubleSpinBox:
    """A spin box over the field's range in the bounds table (``minimum`` may raise its floor:
    a hall's width starts at 1 m though coordinates may be 0)."""
    low, high = field_range(cls_name, field, scale)
    box = QDoubleSpinBox()
    box.setDecimals(decimals)
    box.setRange(low if minimum is None else max(low, minimum), high)
    box.setValue(value)
    box.setSuffix(f" {suffix}" if suffix else "")
    box.setMinimumWidth(110)
    return box


def bounded_int_spin(cls_name: str, field: str, value: int, suffix: str = "") -> QSpinBox:
    """An integer spin box over the field's range in the bounds table."""
    low, high = field_range(cls_name, field)
    box = QSpinBox()
    box.setRange(int(low), int(high))
    box.setValue(int(value))
    box.setSuffix(f" {suffix}" if suffix else "")
    return box


def bounded_line(cls_name: str, field: str, text: str = "") -> QLineEdit:
    """A line edit that stops at the field's length in the bounds table."""
    edit = QLineEdit(text)
    limit = limit_of(cls_name, field, Text)
    if isinstance(limit, Text):
        edit.setMaxLength(limit.max_chars)
    return edit


def text_problem_for(label: str, cls_name: str, field: str, text: str) -> str | None:
    """Why ``text`` cannot be the field (too long, a control character), as "Label: why", or None."""
    problem = field_problem(cls_name, field, text)
    return f"{label}: {problem}" if problem else None
