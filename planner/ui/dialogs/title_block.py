"""Plan ▸ Title block…: project, hall, revision, author and notes that every export prints.

OK pushes one SetAttributes("meta", …) command holding only the fields that changed, so a
revision bump is one undo step and shows in the undo history. Each entry's length and the
characters it may hold come from the format's bounds table; OK refuses anything else with one
message and the dialog stays open.
"""

from __future__ import annotations

from dataclasses import fields

from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from planner.commands import Command, SetAttributes
from planner.model.objects import Meta
from planner.ui.dialogs.parts import bounded_line, ok_cancel, text_problem_for

_LABELS = {"project": "Project", "hall": "Hall", "revision": "Revision", "author": "Author", "notes": "Notes"}


class TitleBlockDialog(QDialog):
    """Edits the plan's title-block facts (``Document.meta``)."""

    def __init__(self, meta: Meta, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Title block")
        self.meta = meta
        self.edits: dict[str, QLineEdit | QPlainTextEdit] = {}
        form = QFormLayout()
        for field in fields(Meta):
            value = getattr(meta, field.name)
            if field.name == "notes":
                edit: QLineEdit | QPlainTextEdit = QPlainTextEdit(value)
                edit.setFixedHeight(80)
            else:
                edit = bounded_line("Meta", field.name, value)
            self.edits[field.name] = edit
            form.addRow(_LABELS.get(field.name, field.name.capitalize()), edit)
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)

    def problem(self) -> str | None:
        """Why the entries cannot be the title block (too long, a control character), or None."""
        for name, text in self.values().items():
            problem = text_problem_for(_LABELS.get(name, name.capitalize()), "Meta", name, text)
            if problem:
                return problem
        return None

    def accept(self) -> None:
        problem = self.problem()
        if problem:
            QMessageBox.warning(self, "Title block", problem)
            return
        super().accept()

    def values(self) -> dict[str, str]:
        result = {}
        for name, edit in self.edits.items():
            text = edit.toPlainText() if isinstance(edit, QPlainTextEdit) else edit.text()
            result[name] = text.strip()
        return result

    def command(self) -> Command | None:
        """The changed fields as one command, or None when nothing changed."""
        changed = {k: v for k, v in self.values().items() if v != getattr(self.meta, k)}
        if not changed or self.problem():
            return None
        return SetAttributes("meta", changed, text="Edit title block")
