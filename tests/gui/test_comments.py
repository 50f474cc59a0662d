"""Review comments in the window, driven with real mouse events: place a pin by clicking the plan,
reply, resolve, filter, drag and double-click a pin, delete; every step one undo step, and the
pins drawn numbered, open and resolved apart, following the rack they are on."""

from __future__ import annotations

import pytest
from pypdf import PdfReader
from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog

from planner.commands.comments import pin_position, threads, top_level
from planner.commands.edits import move_objects
from planner.io import dumps, save
from planner.ui.jobs.export_dialog import ExportDialog
from planner.ui.plan.units import to_scene
from planner.ui.review import comments_attach, comments_dock
from planner.ui.review.comments_dock import AUTHOR_KEY, CommentDialog, ask_comment
from planner.ui.review.pins import HEAD_RADIUS, OPEN_FILL, TIP


@pytest.fixture
def window(make_window, core_doc, monkeypatch):
    """The main window over core_hall (R01…R09 in row 1), with dialogs answered by ``answers``."""
    win = make_window(core_doc)
    win.answers = []
    for module in (comments_attach, comments_dock):
        monkeypatch.setattr(module, "ask_comment", lambda *_a, **_k: win.answers.pop(0))
    return win


def at(window, x_m: float, y_m: float) -> QPoint:
    return window.plan_view.mapFromScene(to_scene(x_m, y_m))


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def near(a, b, cm: float = 3.0) -> bool:
    """Two scene points within ``cm`` (a click lands on a whole pixel)."""
    return abs(a.x() - b.x()) < cm and abs(a.y() - b.y()) < cm


def settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def place(window, x_m, y_m, text="Check the floor here", author="Ana") -> str:
    """Edit ▸ Add comment, then a click on the plan at (x, y): the new comment's id."""
    window.answers.append((text, author))
    window.comment_tool.action.trigger()
    QTest.mouseClick(window.plan_view.viewport(), Qt.LeftButton, Qt.NoModifier, at(window, x_m, y_m))
    return max(window.session.doc.comments, key=lambda i: int(i.split("-")[1]))


def pin_head(window, comment_id) -> QPoint:
    """Where a pin's head (its number) is in the viewport."""
    pin = window.comment_pins.pins[comment_id]
    tip = window.plan_view.mapFromScene(pin.pos())
    return tip + QPoint(0, -int(TIP))


def test_a_click_places_a_comment_pinned_to_the_rack_and_the_pin_follows_it(window):
    doc, stack = window.session.doc, window.session.undo_stack
    r03 = rack(doc, "R03")
    before = dumps(doc)
    comment_id = place(window, r03.x + 0.1, r03.y)
    comment = doc.comments[comment_id]
    assert (comment.text, comment.author, comment.target, comment.status) == ("Check the floor here", "Ana",
                                                                            r03.id, "open")
    assert stack.undoText() == "Add comment 1 on R03"
    assert not window.comment_tool.action.isChecked()  # one comment per Add comment
    pin = window.comment_pins.pins[comment_id]
    assert pin.number == 1 and near(pin.pos(), to_scene(r03.x + 0.1, r03.y))  # where clicked, to the pixel
    assert window.comments_dock.current_id() == comment_id
    window.session.push(move_objects(doc, [r03.id], 0.6, 1.2))
    assert near(pin.pos(), to_scene(r03.x + 0.1, r03.y))  # on the rack, where it went
    stack.undo()
    stack.undo()
    assert dumps(doc) == before and not window.comment_pins.pins
    assert window.comments_dock.tree.topLevelItemCount() == 0


def test_a_click_on_the_floor_pins_to_the_point_and_esc_cancels_the_tool(window):
    doc = window.session.doc
    comment_id = place(window, 2.0, 1.0, "Door swing?")
    assert doc.comments[comment_id].target == ""
    assert near(to_scene(*pin_position(doc, doc.comments[comment_id])), to_scene(2.0, 1.0))
    window.plan_view.setFocus()
    QTest.keyClick(window.plan_view, Qt.Key_M, Qt.ControlModifier | Qt.AltModifier)  # Edit ▸ Add comment
    assert window.comment_tool.action.isChecked()
    QTest.keyClick(window.plan_view, Qt.Key_Escape)
    assert not window.comment_tool.action.isChecked()
    count = len(doc.comments)
    QTest.mouseClick(window.plan_view.viewport(), Qt.LeftButton, Qt.NoModifier, at(window, 3.0, 1.0))
    assert len(doc.comments) == count  # a plain click again, no comment


def test_reply_resolve_filter_and_undo_through_the_dock(window):
    doc, stack, dock = window.session.doc, window.session.undo_stack, window.comments_dock
    r05 = rack(doc, "R05")
    first = place(window, r05.x, r05.y, "Move R05 east?")
    second = place(window, 2.0, 1.0, "Door swing?")
    before = dumps(doc)
    dock.show_comment(first)
    window.answers.append(("Yes, one tile", "Ben"))
    dock.reply_button.click()
    assert stack.undoText() == "Reply to comment 1"
    assert [r.text for r in threads(doc)[first]] == ["Yes, one tile"]
    assert dock.tree.topLevelItem(0).childCount() == 1
    assert "↳ Ben" in dock.detail.toPlainText() and "Yes, one tile" in dock.detail.toPlainText()
    dock.show_comment(first)
    dock.status_button.click()
    assert doc.comments[first].status == "resolved" and stack.undoText() == "Resolve comment 1"
    # the Open filter now lists comment 2 only, and hides comment 1's pin
    assert dock.filter == "open"
    rows = [dock.tree.topLevelItem(i).text(0) for i in range(dock.tree.topLevelItemCount())]
    assert rows == ["2"] and set(window.comment_pins.pins) == {second}
    dock.set_filter("resolved")
    assert [dock.tree.topLevelItem(i).text(0) for i in range(dock.tree.topLevelItemCount())] == ["1 ✓"]
    assert set(window.comment_pins.pins) == {first}
    dock.set_filter("all")
    assert dock.count_label.text() == "1 open · 1 resolved"
    dock.show_comment(first)
    assert dock.status_button.text() == "Reopen"
    stack.undo()
    stack.undo()
    assert dumps(doc) == before
    stack.redo()
    stack.redo()
    assert doc.comments[first].status == "resolved" and len(threads(doc)[first]) == 1


def test_clicking_a_comment_centres_the_plan_on_its_pin_and_selects_its_rack(window):
    doc, dock, view = window.session.doc, window.comments_dock, window.plan_view
    r09 = rack(doc, "R09")
    place(window, r09.x, r09.y, "Far end")
    view.fit_to_hall()
    for _ in range(6):
        view.zoom_in()
    view.centerOn(to_scene(0.0, 0.0))
    dock.raise_()
    settle()
    item = dock.tree.topLevelItem(0)
    rect = dock.tree.visualItemRect(item)
    QTest.mouseClick(dock.tree.viewport(), Qt.LeftButton, Qt.NoModifier, QPoint(rect.left() + 40, rect.center().y()))
    centre = view.mapToScene(view.viewport().rect().center())
    assert abs(centre.x() - to_scene(r09.x, r09.y).x()) < 30 and abs(centre.y() - to_scene(r09.x, r09.y).y()) < 30
    assert window.session.selection == {r09.id}


def test_double_click_opens_a_pin_in_the_dock_and_a_drag_moves_it_in_one_step(window):
    doc, stack, dock = window.session.doc, window.session.undo_stack, window.comments_dock
    r02 = rack(doc, "R02")
    first = place(window, r02.x, r02.y, "On R02")
    second = place(window, 2.0, 1.0, "On the floor")
    dock.show_comment(second)
    viewport = window.plan_view.viewport()
    QTest.mouseDClick(viewport, Qt.LeftButton, Qt.NoModifier, pin_head(window, first))
    assert dock.current_id() == first and "On R02" in dock.detail.toPlainText()
    assert len(doc.comments) == 2 and window.session.selection == {r02.id}
    # drag comment 2's pin by its head until its tip is on R07: it is pinned to R07 there
    r07 = rack(doc, "R07")
    start = pin_head(window, second)
    end = start + at(window, r07.x, r07.y) - window.plan_view.mapFromScene(window.comment_pins.pins[second].pos())
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, start)
    for k in range(1, 6):
        QTest.mouseMove(viewport, start + (end - start) * (k / 5))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, end)
    comment = doc.comments[second]
    assert stack.undoText() == "Move the pin of comment 2" and comment.target == r07.id
    assert near(to_scene(*pin_position(doc, comment)), to_scene(r07.x, r07.y))
    stack.undo()
    assert near(to_scene(*pin_position(doc, comment)), to_scene(2.0, 1.0)) and comment.target == ""
    assert near(window.comment_pins.pins[second].pos(), to_scene(2.0, 1.0))


def test_delete_takes_the_replies_and_undo_brings_them_back(window):
    doc, stack, dock = window.session.doc, window.session.undo_stack, window.comments_dock
    first = place(window, 2.0, 1.0, "Door swing?")
    dock.show_comment(first)
    window.answers += [("Checked", "Ben"), ("Agreed", "Cy")]
    dock.reply()
    dock.show_comment(first)
    dock.reply()
    before = dumps(doc)
    dock.show_comment(first)
    dock.delete_button.click()
    assert stack.undoText() == "Delete comment 1 (2 replies)" and not doc.comments
    assert dock.tree.topLevelItemCount() == 0 and not window.comment_pins.pins
    stack.undo()
    assert dumps(doc) == before and dock.tree.topLevelItem(0).childCount() == 2


def test_context_menu_offers_a_comment_on_the_rack_under_the_mouse(window):
    doc = window.session.doc
    r04 = rack(doc, "R04")
    menu = window.comment_tool.context_menu(at(window, r04.x, r04.y))
    assert [a.text() for a in menu.actions()] == ["Comment on R04…"]
    window.answers.append(("From the menu", "Ana"))
    menu.actions()[0].trigger()
    comment = top_level(doc)[0]
    assert (comment.text, comment.target) == ("From the menu", r04.id)
    menu = window.comment_tool.context_menu(pin_head(window, comment.id))
    assert [a.text() for a in menu.actions()] == ["Open in the Comments dock", "Reply…", "Resolve", "Delete comment"]
    menu.actions()[2].trigger()
    assert comment.status == "resolved"
    assert [a.text() for a in window.comment_tool.context_menu(at(window, 1.0, 1.0)).actions()] == \
        ["Add comment here…"]


def test_the_author_is_remembered_and_empty_text_is_refused(qtbot, monkeypatch):
    dialog = CommentDialog(None, "Add comment", "   ", "Dana")
    qtbot.addWidget(dialog)
    dialog.accept()
    assert dialog.result() != QDialog.DialogCode.Accepted and "Type the comment" in dialog.note.text()
    monkeypatch.setattr(CommentDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    monkeypatch.setattr(CommentDialog, "__init__", _filled(CommentDialog.__init__, "A note", "Dana"))
    assert ask_comment(None, "Add comment", author="someone") == ("A note", "Dana")
    assert QSettings().value(AUTHOR_KEY) == "Dana" and comments_dock.default_author() == "Dana"


def _filled(init, text, author):
    def fill(self, parent, title, _text="", _author=None):
        init(self, parent, title, text, author)
    return fill


def test_pins_are_drawn_numbered_and_open_reads_apart_from_resolved(window, count_colour, tmp_path):
    doc, dock = window.session.doc, window.comments_dock
    r03 = rack(doc, "R03")
    first = place(window, r03.x, r03.y, "Open one")
    second = place(window, 3.0, 1.0, "Resolved one")
    dock.set_filter("all")
    dock.show_comment(second)
    dock.status_button.click()
    dock.show_comment(first)
    dock.raise_()
    settle()
    image = window.plan_view.viewport().grab().toImage()
    radius = int(HEAD_RADIUS) - 3
    for comment_id, yellow in ((first, True), (second, False)):
        head = pin_head(window, comment_id)
        box = QRect(head.x() - radius, head.y() - radius, 2 * radius, 2 * radius)
        assert (count_colour(image, box, QColor(OPEN_FILL)) > 20) is yellow, comment_id
    assert window.grab().save(str(tmp_path / "comments-window.png"))  # for a look by eye


def test_the_export_dialog_writes_a_review_against_an_earlier_file(window, qtbot, tmp_path):
    doc = window.session.doc
    old = tmp_path / "old.hall"
    save(doc, old)
    r02 = rack(doc, "R02")
    window.session.push(move_objects(doc, [r02.id], 0.0, 1.2))
    place(window, r02.x, r02.y, "Why south?")
    dialog = ExportDialog(window, "review-pdf")
    qtbot.addWidget(dialog)
    target = tmp_path / "review.pdf"
    dialog.path_edit.setText(str(target))
    dialog.against_edit.setText(str(old))
    dialog.start_export()
    qtbot.waitUntil(lambda: dialog.written is not None, timeout=20000)
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(target).pages)
    assert "Changes since old.hall" in text and "moved rack R02" in text and "Why south?" in text
    failing = ExportDialog(window, "review-pdf")
    qtbot.addWidget(failing)
    failing.path_edit.setText(str(tmp_path / "other.pdf"))
    failing.against_edit.setText(str(tmp_path / "missing.hall"))
    failing.start_export()
    qtbot.waitUntil(lambda: "Export failed" in failing.status.text(), timeout=20000)
    assert "missing.hall" in failing.status.text() and not (tmp_path / "other.pdf").exists()
