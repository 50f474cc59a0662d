"""Properties and rack-elevation docks: edits are single undoable commands, refusals explained."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from planner.ui.elevation.dock import MIME_TYPE
from planner.ui.properties_dock import SEVERAL, PropertiesDock


@pytest.fixture
def session(shell_session):
    """The test hall: R01–R03, each N1–N4 at U1, U5, U9, U13 and a 0U PDU; BB-A01, BB-B01, CDU-01."""
    return shell_session


@pytest.fixture
def props(session, qtbot):
    dock = PropertiesDock(session)
    qtbot.addWidget(dock)
    dock.show()
    return dock


@pytest.fixture
def elevation(shell_elevation):
    return shell_elevation


def _type_into(qtbot, editor, text):
    editor.setFocus()
    editor.selectAll()
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)


# ----------------------------------------------------------------- properties
def test_rename_is_one_undoable_command(session, props, qtbot):
    session.select({"rack-3"})
    assert props.heading.text() == "R03 — rack"
    _type_into(qtbot, props.editors["name"], "R99")
    assert session.doc.racks["rack-3"].name == "R99"
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert session.doc.racks["rack-3"].name == "R03"
    assert props.editors["name"].text() == "R03"  # refreshed from the change


def test_several_selected_racks_share_an_edit(session, props, qtbot):
    session.select({"rack-1", "rack-2"})
    assert props.heading.text() == "2 racks selected"
    x_edit, y_edit = props.editors["x"], props.editors["y"]
    assert x_edit.text() == "" and x_edit.placeholderText() == SEVERAL
    assert y_edit.text() == "4.8"
    assert not props.form.isRowVisible(props.editors["name"])
    assert not props.form.isRowVisible(props.editors["u"])
    _type_into(qtbot, y_edit, "7.2")
    assert [session.doc.racks[r].y for r in ("rack-1", "rack-2", "rack-3")] == [7.2, 7.2, 4.8]
    assert session.undo_stack.count() == 1
    session.undo_stack.undo()
    assert session.doc.racks["rack-1"].y == 4.8 and session.doc.racks["rack-2"].y == 4.8


def test_feed_combos_offer_only_their_side_and_assign(session, props):
    session.select({"rack-1"})
    feed_a = props.editors["feed_a"]
    names = [feed_a.itemText(i) for i in range(feed_a.count())]
    assert names == ["(none)", "BB-A01"]
    feed_a.setCurrentIndex(0)
    feed_a.activated.emit(0)
    assert session.doc.racks["rack-1"].feed_a is None
    session.undo_stack.undo()
    assert session.doc.racks["rack-1"].feed_a == "bus-1"
    cdu = props.editors["cdu"]
    assert [cdu.itemText(i) for i in range(cdu.count())] == ["(none)", "CDU-01"]


def test_u_position_edit_moves_the_device_or_explains_why_not(session, props, qtbot):
    messages = []
    props.status_message.connect(messages.append)
    session.select({"dev-1"})
    assert props.form.isRowVisible(props.editors["u"])
    _type_into(qtbot, props.editors["u"], "30")
    assert session.doc.devices["dev-1"].u == 30
    _type_into(qtbot, props.editors["u"], "5")  # dev-2 occupies U5–U8
    assert session.doc.devices["dev-1"].u == 30
    assert messages and "does not fit" in messages[-1]
    assert session.undo_stack.count() == 1


def test_figures_provider_fills_a_read_only_section(session, props):
    props.set_figures_provider(lambda doc, obj_id: [("Weight", f"{len(obj_id)} kg")])
    assert props.figures_box.isHidden()  # nothing selected
    session.select({"rack-3"})
    assert not props.figures_box.isHidden()
    assert props.figures_form.rowCount() == 1
    label = props.figures_form.itemAt(0, props.figures_form.ItemRole.FieldRole).widget()
    assert label.text() == "6 kg"


def test_figures_keep_their_rows_when_only_the_values_change(session, props):
    rows = {"rack-1": [("Weight", "1 kg"), ("", "no label"), ("Power", "2 kW")],
            "rack-2": [("Weight", "3 kg"), ("", "none either"), ("Power", "4 kW")],
            "rack-3": [("Weight", "5 kg"), ("Heat", "6 kW")]}
    props.set_figures_provider(lambda doc, obj_id: rows[obj_id])
    form, roles = props.figures_form, props.figures_form.ItemRole

    def shown():
        return [(form.itemAt(row, roles.LabelRole).widget().text() if form.itemAt(row, roles.LabelRole) else "",
                 form.itemAt(row, roles.FieldRole).widget().text()) for row in range(form.rowCount())]

    session.select({"rack-1"})
    assert shown() == rows["rack-1"]
    fields = [form.itemAt(row, roles.FieldRole).widget() for row in range(form.rowCount())]
    session.select({"rack-2"})  # the same rows: new texts in the labels shown
    assert shown() == rows["rack-2"]
    assert [form.itemAt(row, roles.FieldRole).widget() for row in range(form.rowCount())] == fields
    assert all(label.wordWrap() for label in fields)
    session.select({"rack-3"})  # other rows: made again
    assert shown() == rows["rack-3"]
    rows["rack-1"] = [("Weight", "7 kg"), ("Heat", "")]
    rows["rack-2"] = [("", "7 kg"), ("Heat", "8 kW")]  # a label where there was none: made again
    session.select({"rack-1"})
    assert shown() == rows["rack-1"]
    session.select({"rack-2"})
    assert shown() == rows["rack-2"]
    session.select(set())
    assert form.rowCount() == 0 and props.figures_box.isHidden()


# ------------------------------------------------------------------ elevation
def _u_point(widget, u, x=100):
    return widget.u_rect(u, 1).center().toPoint() + QPoint(x - 100, 0)


def test_elevation_follows_the_selected_rack_or_device(session, elevation):
    session.select({"dev-12"})
    assert elevation.elevation.rack_id == "rack-3"
    session.select({"rack-2"})
    assert elevation.elevation.rack_id == "rack-2"
    assert elevation.elevation.rack_units() == 52


def test_dragging_a_device_moves_it_in_one_step(session, elevation, qtbot):
    widget = elevation.elevation
    session.select({"rack-1"})
    qtbot.waitExposed(widget)
    # grab N1 (U1–U4) at its top unit, drop that unit on U24: the device then sits at U21–U24
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=_u_point(widget, 4))
    qtbot.mouseMove(widget, _u_point(widget, 15))
    qtbot.mouseMove(widget, _u_point(widget, 24))
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=_u_point(widget, 24))
    assert session.doc.devices["dev-1"].u == 21
    assert session.undo_stack.count() == 1
    assert session.selection == {"dev-1"}
    session.undo_stack.undo()
    assert session.doc.devices["dev-1"].u == 1


def test_dragging_onto_another_device_is_refused_with_a_message(session, elevation, qtbot):
    widget = elevation.elevation
    messages = []
    elevation.status_message.connect(messages.append)
    session.select({"rack-1"})
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=_u_point(widget, 1))
    qtbot.mouseMove(widget, _u_point(widget, 6))
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=_u_point(widget, 6))
    assert session.doc.devices["dev-1"].u == 1 and session.undo_stack.count() == 0
    assert messages and "does not fit in R01 at U6" in messages[-1]


def _drop(widget, key, u):
    """A palette drag entering the elevation, moving to U ``u`` and dropping there."""
    mime = QMimeData()
    mime.setData(MIME_TYPE, key.encode("utf-8"))
    pos = QPointF(widget.u_rect(u, 1).center())
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    enter = QDragEnterEvent(pos.toPoint(), *args)  # enter/move take QPoint, drop QPointF
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(widget, QDragMoveEvent(pos.toPoint(), *args))
    assert widget._ghost is not None
    QApplication.sendEvent(widget, QDropEvent(pos, *args))


def test_dropping_a_palette_type_onto_a_u_mounts_it_there(session, elevation):
    widget = elevation.elevation
    session.select({"rack-2"})
    before = set(session.doc.devices)
    _drop(widget, "sw-64x400g-1u", 40)
    (new_id,) = set(session.doc.devices) - before
    device = session.doc.devices[new_id]
    assert (device.rack, device.u, device.name) == ("rack-2", 40, "SW1")
    session.undo_stack.undo()
    assert new_id not in session.doc.devices


def test_dropping_where_it_does_not_fit_is_refused(session, elevation):
    messages = []
    elevation.status_message.connect(messages.append)
    session.select({"rack-2"})
    before = len(session.doc.devices)
    _drop(elevation.elevation, "node-8gpu-liquid-4u", 3)  # U3–U6 overlaps N1 (U1–U4)
    assert len(session.doc.devices) == before
    assert messages and "does not fit" in messages[-1]


def test_clicking_a_0u_device_in_the_side_channel_selects_it(session, elevation, qtbot):
    widget = elevation.elevation
    session.select({"rack-1"})
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.channel_rect(0, 1).center().toPoint())
    assert session.selection == {"dev-5"}  # PDU1, 0U
    assert session.undo_stack.count() == 0


def test_switch_role_is_offered_for_switches_only(session, props):
    from planner.commands.edits import place_device

    session.push(place_device(session.doc, "sw-64x400g-1u", "rack-1", 40))
    switch_id = next(d.id for d in session.doc.devices.values() if d.u == 40)
    session.select({"dev-1"})
    assert not props.form.isRowVisible(props.editors["role"])
    session.select({switch_id})
    role = props.editors["role"]
    assert props.form.isRowVisible(role)
    assert [role.itemText(i) for i in range(role.count())] == ["(none)", "leaf", "spine", "core"]
    role.setCurrentIndex(2)
    role.activated.emit(2)
    assert session.doc.devices[switch_id].role == "spine"
    session.undo_stack.undo()
    assert session.doc.devices[switch_id].role == ""


def test_imperial_display_converts_at_the_edge_only(session, props, qtbot):
    from planner.commands import SetAttributes

    session.select({"rack-1"})
    assert props.form.labelForField(props.editors["x"]).text() == "Position x (m)"
    session.push(SetAttributes("basis", {"units": "imperial"}, text="Imperial"))
    assert props.form.labelForField(props.editors["x"]).text() == "Position x (ft)"
    assert props.editors["y"].text() == "15.748"  # 4.8 m / 0.3048
    _type_into(qtbot, props.editors["y"], "10")
    assert session.doc.racks["rack-1"].y == 3.048  # stored in metres


def test_numbers_and_text_outside_the_format_are_refused_with_a_message(session, props):
    messages: list[str] = []
    props.status_message.connect(messages.append)
    session.select({"rack-3"})
    before = session.doc.racks["rack-3"].x
    assert props.editors["name"].maxLength() == 200  # the .hall format's limit for names
    x = props.editors["x"]
    for text in ("abc", "1e400", "9" * 5000):  # not a number; infinite; beyond float
        x.setText(text)
        x.setModified(True)  # as if typed past the validator (a paste, another locale)
        props._line_edited("x")
        assert messages, text
        messages.clear()
    assert session.undo_stack.count() == 0 and session.doc.racks["rack-3"].x == before
    assert x.text() != "abc"  # refreshed from the plan
