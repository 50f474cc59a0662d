"""File ▸ Compare with: the other revision drawn on the plan, the Changes dock, going to a change,
live refresh while editing, and stopping, which leaves the plan and its undo history untouched.

The plan is the 16-node pod (R01–R05 in a row at y 3.0 m, R03 at x 5.6 m); the other revision is
the pod as generated, saved to a file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor

from planner.commands.base import SetFields
from planner.commands.edits import delete_objects, move_objects, place_rack
from planner.io import dumps, load, save
from planner.layout.templates import build_template
from planner.ui.plan.units import to_scene
from planner.ui.review.compare_layer import ADDED, CHANGED, COLOURS, MOVED, REMOVED


@pytest.fixture(scope="module")
def pod_text():
    return dumps(build_template("pod", nodes=16))


@pytest.fixture
def other_file(tmp_path, pod_text):
    path = tmp_path / "before.hall"
    path.write_text(pod_text)
    return path


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


@pytest.fixture
def edited(make_window, other_file):
    """A window on the pod after five edits: R03 moved 1.8 m south, R02 renamed R02b, R05 deleted
    (with its 14 devices and 112 cables), a rack added at (8.4, 5.4), one cable rewired."""
    window = make_window(load(other_file))
    session, doc = window.session, window.session.doc
    session.push(move_objects(doc, [rack(doc, "R03").id], 0.0, 1.8))
    session.push(SetFields({rack(doc, "R02").id: {"name": "R02b"}}, "Rename R02"))
    session.push(delete_objects(doc, [rack(doc, "R05").id]))
    session.push(place_rack(doc, "rack-800x1200-52u", 8.4, 5.4))
    link = min(doc.links.values(), key=lambda link: link.label)
    session.push(SetFields({link.id: {"b_port": "32/2"}}, "Rewire"))
    return window


def lines_of(window):
    return [line.text for line in window.compare.dock.lines()]


def test_menu_sits_before_save(edited):
    titles = [a.text() for a in edited.menu("&File").actions()]
    assert titles.index("Compare &with") < titles.index("&Save")
    submenu = next(a.menu() for a in edited.menu("&File").actions() if a.text() == "Compare &with")
    assert [a.text() for a in submenu.actions() if a.text()] == ["&Another plan…", "&Last saved version",
                                                                 "&Show comparison"]


def test_compare_lists_every_change_and_draws_it(edited, other_file, qtbot, tmp_path, count_colour):
    window = edited
    doc = window.session.doc
    assert window.compare.compare_with_file(other_file)
    dock = window.compare.dock
    assert dock.isVisible()
    lines = lines_of(window)
    r05 = next(e for e in window.compare.diff.removed if e["name"] == "R05")
    assert "moved R03 from (5.6, 3.0) to (5.6, 4.8)" in lines
    assert "renamed R02 → R02b" in lines
    assert "R05" in lines and lines.count("R05") == 1 and r05["x"] == pytest.approx(7.2)
    added = next(r for r in doc.racks.values() if r.x == 8.4)
    assert f"{added.name} at (8.4, 5.4)" in lines
    # R05's cables, every network: 32 compute (4 nodes × 8 rails), 42 power cords (8 PDUs), 14 out-of-band,
    # 8 storage, 8 in-band, 8 coolant hoses
    assert sum(line.startswith("removed ") for line in lines) == 112
    assert sum(line.startswith("rewired ") for line in lines) == 1
    assert any(line.startswith("new      error   N2") for line in lines)  # the rewired port is taken
    assert dock.summary.text() == f"{dock.count():,} changes"
    assert window.statusBar().currentMessage() == f"Comparing with before.hall: {dock.count():,} changes"

    # the plan: every kind of mark, each in its own colour, where it belongs
    marks = window.compare.layer.marks_by_key
    assert {(ADDED, "place"), (REMOVED, "place"), (MOVED, "old"), (MOVED, "place"), (MOVED, "arrow"),
            (CHANGED, "place"), (REMOVED, "cable"), (CHANGED, "cable")} <= set(marks)
    view = window.plan_view
    view.centre_on_rect(3.0, 1.5, 9.5, 6.5)
    qtbot.wait(50)
    image = view.viewport().grab().toImage()
    image.save(str(tmp_path / "compare-plan.png"))

    def around(x, y, half=40):
        point = view.mapFromScene(to_scene(x, y))
        return QRect(point - QPoint(half, half), point + QPoint(half, half))

    r03 = rack(doc, "R03")
    assert count_colour(image, around(added.x, added.y), COLOURS[ADDED], 30) > 20
    assert count_colour(image, around(7.2, 3.0), COLOURS[REMOVED], 30) > 20  # R05's ghost, where it stood
    assert count_colour(image, around(r03.x, r03.y), COLOURS[MOVED], 30) > 20
    assert count_colour(image, around(rack(doc, "R02b").x, 3.0), COLOURS[CHANGED], 30) > 20
    assert count_colour(image, around(added.x, added.y), COLOURS[REMOVED], 30) == 0
    window.grab().save(str(tmp_path / "compare-window.png"))


def test_clicking_a_line_centres_and_selects(edited, other_file, qtbot):
    window = edited
    doc = window.session.doc
    window.compare.compare_with_file(other_file)
    dock, view = window.compare.dock, window.plan_view
    view.fit_to_hall()
    view.scale(4, 4)  # zoomed in, so centring shows
    moved = next(line for line in dock.lines() if line.text.startswith("moved R03"))
    dock.tree.scrollToItem(dock.item_of(moved))
    rect = dock.tree.visualItemRect(dock.item_of(moved))
    qtbot.mouseClick(dock.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    r03 = rack(doc, "R03")
    assert window.session.selection == {r03.id}
    centre = view.mapToScene(view.viewport().rect().center())
    assert centre.x() == pytest.approx(to_scene(r03.x, r03.y).x(), abs=60)
    assert centre.y() == pytest.approx(to_scene(r03.x, r03.y).y(), abs=60)

    # a removed rack is not in the plan: nothing selected, the view centred on where it stood
    removed = next(line for line in dock.lines() if line.text == "R05")
    dock.line_activated.emit(removed)
    assert window.session.selection == set()
    centre = view.mapToScene(view.viewport().rect().center())
    assert centre.x() == pytest.approx(to_scene(7.2, 3.0).x(), abs=60)

    # a new finding selects what it is about
    finding = next(line for line in dock.lines() if line.status == "new" and line.entry["rule"] == "N2")
    dock.line_activated.emit(finding)
    assert window.session.selection == set(finding.entry["objects"]) and finding.entry["objects"]


@pytest.mark.parametrize("how", ["button", "escape in the dock", "escape on the plan", "menu", "close dock"])
def test_stopping_leaves_plan_and_undo_untouched(edited, other_file, qtbot, how):
    window = edited
    stack = window.session.undo_stack
    before = (dumps(window.session.doc), stack.count(), stack.index(), stack.isClean())
    window.compare.compare_with_file(other_file)
    assert window.compare.active and all(item.isVisible() for item in window.compare.layer.items())
    if how == "button":
        qtbot.mouseClick(window.compare.dock.stop_button, Qt.MouseButton.LeftButton)
    elif how == "escape in the dock":
        window.compare.dock.tree.setFocus()
        qtbot.keyClick(window.compare.dock.tree, Qt.Key.Key_Escape)
    elif how == "escape on the plan":
        window.plan_view.setFocus()
        qtbot.keyClick(window.plan_view, Qt.Key.Key_Escape)
    elif how == "menu":
        window.compare.toggle_action.trigger()
    else:
        window.compare.dock.close()
    assert not window.compare.active
    assert not window.compare.dock.isVisible()
    assert not any(item.isVisible() for item in window.compare.layer.items())
    assert not window.compare.toggle_action.isChecked()
    assert (dumps(window.session.doc), stack.count(), stack.index(), stack.isClean()) == before
    # the toggle shows the same comparison again
    window.compare.toggle_action.trigger()
    assert window.compare.active and "renamed R02 → R02b" in lines_of(window)


def test_edits_while_comparing_update_the_comparison(edited, other_file, qtbot):
    window = edited
    session, doc = window.session, window.session.doc
    window.compare.compare_with_file(other_file)
    r01 = rack(doc, "R01")
    session.push(SetFields({r01.id: {"name": "R01x"}}, "Rename R01"))
    qtbot.waitUntil(lambda: "renamed R01 → R01x" in lines_of(window), timeout=3000)
    session.undo_stack.undo()  # the rename
    qtbot.waitUntil(lambda: "renamed R01 → R01x" not in lines_of(window), timeout=3000)
    for _ in range(5):  # back to the revision compared with
        session.undo_stack.undo()
    qtbot.waitUntil(lambda: window.compare.dock.count() == 0, timeout=3000)
    assert window.compare.diff.is_empty
    assert window.compare.dock.summary.text() == "No differences"
    assert window.compare.layer.marks_by_key == {}


def test_last_saved_version(qtbot, tmp_path, pod_text):
    from planner.ui.main_window import MainWindow
    from planner.ui.session import DocumentSession

    path = tmp_path / "plan.hall"
    path.write_text(pod_text)
    window = MainWindow(DocumentSession(load(path)), path)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.undo_stack.setClean())
    window.show()
    doc = window.session.doc
    window.session.push(SetFields({rack(doc, "R04").id: {"notes": "check the floor tile"}}, "Note"))
    assert window.compare.compare_with_saved()
    assert lines_of(window) == ["R04: notes (none) → check the floor tile"]
    assert "the last saved version of plan.hall" in window.compare.dock.header.text()
    save(doc, path)
    window.compare.compare_with_saved()
    assert window.compare.dock.count() == 0


def test_unsaved_plan_has_no_saved_version(edited):
    assert not edited.compare.compare_with_saved()
    assert "not been saved" in edited.statusBar().currentMessage()
    assert not edited.compare.active


def test_opening_another_plan_stops_comparing(edited, other_file):
    edited.compare.compare_with_file(other_file)
    edited.files.set_document(load(other_file), None)
    assert not edited.compare.active and not edited.compare.dock.isVisible()


def test_unreadable_file_is_refused(edited, tmp_path, no_blocking_prompts):
    bad = tmp_path / "bad.hall"
    bad.write_text("{not json")
    assert not edited.compare.compare_with_file(bad)
    assert not edited.compare.active
    assert no_blocking_prompts and "bad.hall cannot be compared" in no_blocking_prompts[-1][1]


def test_colours_are_distinct():
    colours = [COLOURS[k] for k in (ADDED, REMOVED, MOVED, CHANGED)]
    for i, a in enumerate(colours):
        for b in colours[i + 1:]:
            assert abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) > 100
    assert QColor(COLOURS[ADDED]).isValid()
