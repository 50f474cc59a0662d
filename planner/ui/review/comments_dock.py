"""The Comments dock: the plan's review comments by number, filtered open / resolved / all, each
with its replies under it; Reply, Resolve or Reopen, Edit and Delete act on the chosen one.

Choosing a comment (or a reply) shows its thread in full, centres the plan on its pin, haloes
the pin and selects the object it is on, so the properties and elevation docks show that object.
Every button pushes one command (``planner.commands.comments``) on the window's undo stack, and
the list follows the model through the session's changes, undo and redo included.

Text is typed in ``CommentDialog``; the author is remembered in QSettings (``review/author``, at
first the login name), so a reviewer types their name once.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.commands import Command, Refusal
from planner.commands.comments import (
    OPEN,
    RESOLVED,
    delete_comment,
    edit_text,
    pin_position,
    reply,
    root_of,
    set_status,
    threads,
    top_level,
    where,
)
from planner.model.bounds import Text, limits
from planner.model.objects import Comment
from planner.ui.plan.view import PlanView
from planner.ui.review.pins import CommentPins
from planner.ui.session import DocumentSession
from planner.ui.trees import children, top_items

AUTHOR_KEY = "review/author"
FILTERS = (("Open", "open"), ("Resolved", "resolved"), ("All", "all"))
COLUMNS = ("#", "Comment", "By", "On")
#: How much of the plan to show around a pin when a comment is chosen (m either side).
FOCUS_M = 2.0
MAX_TEXT = next(limit.max_chars for limit in limits("Comment", "text") if isinstance(limit, Text))
C = TypeVar("C", bound=Command)


def default_author() -> str:
    """The author last used on this machine, else the login name."""
    name = QSettings().value(AUTHOR_KEY, "")
    if name:
        return str(name)
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container without a passwd entry)
        return ""


class CommentDialog(QDialog):
    """A comment's or reply's text (several lines), and its author unless only the text changes."""

    def __init__(self, parent: QWidget | None, title: str, text: str = "", author: str | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(420)
        self.text_edit = QPlainTextEdit(text)
        self.text_edit.setPlaceholderText("What should the next revision change, or why?")
        self.author_edit = QLineEdit(author or "")
        self.author_edit.setMaxLength(200)
        form = QFormLayout()
        form.addRow("Comment", self.text_edit)
        if author is not None:
            form.addRow("Author", self.author_edit)
        self.note = QLabel("")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(buttons)

    def accept(self) -> None:
        text = self.text_edit.toPlainText()
        if not text.strip():
            self.note.setText("Type the comment first.")
            return
        if len(text) > MAX_TEXT:
            self.note.setText(f"A comment holds at most {MAX_TEXT:,} characters; this one has {len(text):,}.")
            return
        super().accept()


def ask_comment(parent: QWidget | None, title: str, text: str = "", author: str | None = None) -> \
        tuple[str, str] | None:
    """(text, author) typed in a CommentDialog, or None when cancelled. With ``author`` None only the
    text is asked for. The author given is remembered for the next comment."""
    dialog = CommentDialog(parent, title, text, author)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    name = dialog.author_edit.text().strip()
    if author is not None and name:
        QSettings().setValue(AUTHOR_KEY, name)
    return dialog.text_edit.toPlainText(), name


def _tool_button(text: str) -> QToolButton:
    button = QToolButton()
    button.setText(text)
    return button


def _byline(comment: Comment) -> str:
    return " · ".join(part for part in (comment.author or "no author", comment.date) if part)


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


class CommentsDock(QDockWidget):
    """Lists the comments; a chosen comment is centred on the plan and acted on by the buttons."""

    status_message = Signal(str)

    def __init__(self, session: DocumentSession, view: PlanView, pins: CommentPins,
                 parent: QWidget | None = None) -> None:
        super().__init__("Comments", parent)
        self.setObjectName("comments_dock")
        self.session, self.view, self.pins = session, view, pins
        self.filter_combo = QComboBox()
        for title, key in FILTERS:
            self.filter_combo.addItem(title, key)
        self.filter_combo.currentIndexChanged.connect(self._filter_changed)
        self.count_label = QLabel("")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(list(COLUMNS))
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setColumnWidth(0, 48)
        self.tree.setColumnWidth(1, 200)
        self.tree.currentItemChanged.connect(lambda *_: self._chosen())
        self.tree.itemClicked.connect(lambda *_: self._chosen(focus=True))
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText("Choose a comment to read it whole. Add one with Edit ▸ Add comment "
                                       "(Ctrl+Alt+M), then a click on the plan.")
        # tool buttons, not push buttons: the dock shares the strip under the plan, and four push
        # buttons' margins alone would widen the window at its default size
        self.reply_button, self.status_button, self.edit_button, self.delete_button = (
            _tool_button(text) for text in ("Reply…", "Resolve", "Edit…", "Delete"))
        self.reply_button.clicked.connect(lambda: self.reply())
        self.status_button.clicked.connect(lambda: self.toggle_status())
        self.edit_button.clicked.connect(lambda: self.edit())
        self.delete_button.clicked.connect(lambda: self.delete())

        top = QHBoxLayout()
        top.addWidget(QLabel("Show"))
        top.addWidget(self.filter_combo)
        top.addStretch(1)
        top.addWidget(self.count_label)
        buttons = QHBoxLayout()
        for button in (self.reply_button, self.status_button, self.edit_button, self.delete_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([600, 400])  # scaled to the dock's width: the list gets three fifths
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self.setWidget(body)
        session.changed.connect(self._on_change)
        session.reset.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------- reading
    @property
    def filter(self) -> str:
        return str(self.filter_combo.currentData())

    def set_filter(self, key: str) -> None:
        self.filter_combo.setCurrentIndex(next(i for i, (_t, k) in enumerate(FILTERS) if k == key))

    def current_id(self) -> str:
        """The comment or reply chosen in the list ("" for none)."""
        item = self.tree.currentItem()
        return str(item.data(0, Qt.ItemDataRole.UserRole)) if item is not None else ""

    def thread_id(self) -> str:
        """The top-level comment of the chosen row's thread ("" for none)."""
        comment = self.session.doc.comments.get(self.current_id())
        return root_of(self.session.doc, comment).id if comment is not None else ""

    def _on_change(self, change) -> None:
        if self.session.doc.comments or self.tree.topLevelItemCount():
            self.refresh()

    def _filter_changed(self) -> None:
        self.pins.set_filter(self.filter)
        self.refresh()

    def refresh(self) -> None:
        """Rebuild the list from the model, keeping the chosen row where it still shows."""
        doc = self.session.doc
        keep = self.current_id()
        replies = threads(doc)
        tops = top_level(doc)
        shown = (OPEN, RESOLVED) if self.filter == "all" else (self.filter,)
        self.tree.blockSignals(True)
        self.tree.clear()
        chosen = None
        for number, comment in enumerate(tops, start=1):
            if comment.status not in shown:
                continue
            mark = f"{number}" if comment.status == OPEN else f"{number} ✓"
            item = QTreeWidgetItem([mark, _first_line(comment.text), comment.author, where(doc, comment)])
            item.setData(0, Qt.ItemDataRole.UserRole, comment.id)
            item.setToolTip(1, comment.text[:1000])
            if comment.status == RESOLVED:
                font = item.font(1)
                font.setItalic(True)
                for column in range(len(COLUMNS)):
                    item.setFont(column, font)
            for answer in replies[comment.id]:
                child = QTreeWidgetItem(["", f"↳ {_first_line(answer.text)}", answer.author, answer.date])
                child.setData(0, Qt.ItemDataRole.UserRole, answer.id)
                child.setToolTip(1, answer.text[:1000])
                item.addChild(child)
                chosen = child if answer.id == keep else chosen
            self.tree.addTopLevelItem(item)
            item.setExpanded(True)
            chosen = item if comment.id == keep else chosen
        if chosen is not None:
            self.tree.setCurrentItem(chosen)
        self.tree.blockSignals(False)
        open_count = sum(c.status == OPEN for c in tops)
        self.count_label.setText(f"{open_count} open · {len(tops) - open_count} resolved")
        self._show_detail()

    def _show_detail(self) -> None:
        doc = self.session.doc
        root_id = self.thread_id()
        self.pins.set_current(root_id)
        chosen = bool(root_id)
        for button in (self.reply_button, self.status_button, self.edit_button, self.delete_button):
            button.setEnabled(chosen)
        if not chosen:
            self.detail.setPlainText("")
            self.status_button.setText("Resolve")
            return
        root = doc.comments[root_id]
        number = next(n for n, c in enumerate(top_level(doc), start=1) if c.id == root_id)
        lines = [f"{number} · {root.status} · {where(doc, root)}", _byline(root), "", root.text]
        for answer in threads(doc)[root_id]:
            lines += ["", f"↳ {_byline(answer)}", answer.text]
        self.detail.setPlainText("\n".join(lines))
        self.status_button.setText("Reopen" if root.status == RESOLVED else "Resolve")

    def _chosen(self, focus: bool = False) -> None:
        self._show_detail()
        if focus:
            self.focus_plan()

    def focus_plan(self) -> None:
        """Centre the plan on the chosen comment's pin and select the object it is on."""
        doc = self.session.doc
        root_id = self.thread_id()
        if not root_id:
            return
        comment = doc.comments[root_id]
        place = pin_position(doc, comment)
        if place is not None:
            x, y = place
            self.view.centre_on_rect(x - FOCUS_M, y - FOCUS_M, x + FOCUS_M, y + FOCUS_M)
        if comment.target in doc:
            self.session.select({comment.target})

    def show_comment(self, comment_id: str) -> None:
        """Choose a comment in the list (switching the filter to All if it is hidden) and show it."""
        comment = self.session.doc.comments.get(comment_id)
        if comment is None:
            return
        status = root_of(self.session.doc, comment).status
        if self.filter not in ("all", status):
            self.set_filter("all")
        for item in top_items(self.tree):
            for row in [item, *children(item)]:
                if row.data(0, Qt.ItemDataRole.UserRole) == comment_id:
                    self.tree.setCurrentItem(row)
                    self.tree.scrollToItem(row)
        self.show()
        self.raise_()

    # ------------------------------------------------------------- editing
    def _push(self, command: Command | None, message: str = "") -> bool:
        if command is None:
            return False
        self.session.push(command)
        if message:
            self.status_message.emit(message)
        return True

    def _build(self, make: Callable[[], C]) -> C | None:
        try:
            return make()
        except Refusal as exc:
            self.status_message.emit(f"Not changed: {exc}")
            return None

    def reply(self, text: str | None = None, author: str | None = None) -> None:
        """Reply in the chosen thread (asks for the text unless given)."""
        root_id = self.thread_id()
        if not root_id:
            return
        if text is None:
            answer = ask_comment(self, "Reply", author=default_author())
            if answer is None:
                return
            text, author = answer
        doc = self.session.doc
        command = self._build(lambda: reply(doc, root_id, text, author if author is not None else default_author()))
        if command is not None and self._push(command):
            self.show_comment(command.objects[0].id)

    def toggle_status(self) -> None:
        """Resolve the chosen thread, or reopen it when it is resolved (under the Open filter a
        resolved comment leaves the list: that is what resolving it means)."""
        root_id = self.thread_id()
        if root_id:
            doc = self.session.doc
            status = OPEN if doc.comments[root_id].status == RESOLVED else RESOLVED
            self._push(self._build(lambda: set_status(doc, root_id, status)))

    def edit(self, text: str | None = None) -> None:
        """New text for the chosen comment or reply (asks for it unless given)."""
        comment_id = self.current_id()
        if not comment_id:
            return
        doc = self.session.doc
        if text is None:
            answer = ask_comment(self, "Edit comment", doc.comments[comment_id].text)
            if answer is None:
                return
            text = answer[0]
        self._push(self._build(lambda: edit_text(doc, comment_id, text)))

    def delete(self) -> None:
        """Delete the chosen comment with its replies, or the chosen reply (undo brings it back)."""
        comment_id = self.current_id()
        if comment_id:
            doc = self.session.doc
            command = self._build(lambda: delete_comment(doc, comment_id))
            self._push(command, f"{command.text}: Ctrl+Z brings it back" if command else "")
