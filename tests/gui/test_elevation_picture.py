"""The rack elevation keeps its painted front between edits of the rack shown
(``planner.ui.elevation.front``): a repaint for anything else copies the picture, and what it
shows is what painting afresh shows."""

from __future__ import annotations

import pytest

from planner.commands import SetFields
from planner.commands.edits import move_objects
from planner.ui.elevation import front
from planner.ui.elevation.dock import ElevationDock, ElevationWidget


@pytest.fixture
def session(shell_session):
    return shell_session


@pytest.fixture
def elevation(shell_elevation):
    return shell_elevation.elevation


@pytest.fixture
def paints(monkeypatch):
    """The racks the front was painted for, one entry per painting."""
    painted: list[str | None] = []
    real = front.paint_front

    def paint(widget, painter, area):
        painted.append(widget.rack_id)
        real(widget, painter, area)

    monkeypatch.setattr(front, "paint_front", paint)
    return painted


def _shown(widget):
    return widget.grab().toImage()


def _afresh(widget):
    widget.front.forget()
    return _shown(widget)


def test_edits_elsewhere_reuse_the_front_and_edits_of_the_rack_paint_it_again(session, elevation, paints):
    session.select({"rack-1"})
    picture = _shown(elevation)
    assert paints[-1] == "rack-1"
    paints.clear()
    session.push(move_objects(session.doc, ["rack-1"], 0.6, 0.0))  # moving it leaves its front as it is
    session.push(move_objects(session.doc, ["rack-2"], 0.6, 0.0))
    device = session.doc.devices_in("rack-2")[0]
    session.push(SetFields({device.id: {"name": "elsewhere"}}, text="Rename"))
    elevation.repaint()
    assert _shown(elevation) == picture and paints == []
    mine = session.doc.devices_in("rack-1")[0]
    session.push(SetFields({mine.id: {"name": "mine"}}, text="Rename"))
    renamed = _shown(elevation)
    assert paints == ["rack-1"] and renamed != picture
    assert renamed == _afresh(elevation)
    session.undo_stack.undo()
    assert _shown(elevation) == picture


def test_selection_pick_and_drag_paint_the_front_for_what_they_show(session, elevation, paints):
    session.select({"rack-1"})
    plain = _shown(elevation)
    device = next(d for d in session.doc.devices_in("rack-1") if session.doc.catalog[d.type].port_names())
    session.select({device.id})  # outlined: painted for the new selection
    selected = _shown(elevation)
    assert selected != plain and selected == _afresh(elevation)
    port = session.doc.catalog[device.type].port_names()[0]
    elevation.pick((device.id, port))
    picked = _shown(elevation)
    assert picked != selected and picked == _afresh(elevation)
    elevation.pick(None)
    assert _shown(elevation) == selected
    count = len(paints)
    elevation._drag, elevation._ghost, elevation._ghost_ok = (device.id, 0), (30, 4), False
    dragging = _shown(elevation)  # the device darker, the ghost drawn over the front
    assert dragging == _afresh(elevation) and len(paints) == count + 2
    elevation._ghost = (34, 4)  # the ghost follows the mouse over the same front
    assert _shown(elevation) != dragging and len(paints) == count + 2
    elevation._drag = elevation._ghost = None
    assert _shown(elevation) == selected


def test_a_narrower_widget_keeps_the_front_a_different_height_paints_it_again(session, qtbot, paints):
    elevation = ElevationWidget(session)
    qtbot.addWidget(elevation)
    elevation.show()
    qtbot.waitExposed(elevation)
    elevation.set_rack("rack-2")  # which sizes a window of its own to fit the rack
    elevation.resize(340, 800)
    _shown(elevation)
    paints.clear()
    elevation.resize(320, 800)
    narrower = _shown(elevation)
    assert paints == []
    assert narrower == _afresh(elevation)  # now painted SPARE_WIDTH wider than 320
    paints.clear()
    elevation.resize(320 + front.SPARE_WIDTH, 800)
    assert _shown(elevation) is not None and paints == []
    elevation.resize(320 + front.SPARE_WIDTH + 1, 800)  # wider than the picture: painted again
    wider = _shown(elevation)
    assert paints == ["rack-2"] and wider == _afresh(elevation)
    paints.clear()
    elevation.resize(320, 700)
    shorter = _shown(elevation)
    assert paints == ["rack-2"] and shorter == _afresh(elevation)


def test_without_a_rack_the_hint_follows_the_width(session, elevation):
    session.select(set())
    elevation.set_rack(None)
    elevation.resize(300, 400)
    wide = _shown(elevation)
    elevation.resize(150, 400)
    assert _shown(elevation) == _afresh(elevation)
    elevation.resize(300, 400)
    assert _shown(elevation) == wide


def test_the_hint_wraps_to_the_part_of_the_widget_in_view(shell_session, qtbot):
    """In a dock narrower than a rack's front the widget scrolls; the hint is worded within the
    part in view, not cut at the dock's edge."""
    dock = ElevationDock(shell_session)
    qtbot.addWidget(dock)
    dock.resize(200, 600)
    dock.show()
    qtbot.waitExposed(dock)
    widget = dock.elevation
    shown = widget.visibleRegion().boundingRect()
    assert 0 < shown.width() < widget.width()
    image = widget.grab().toImage()
    base = widget.palette().base().color().rgb()
    assert {image.pixel(x, y) for x in range(shown.right() + 1, image.width()) for y in range(80)} == {base}
    assert len({image.pixel(x, y) for x in range(shown.right() + 1) for y in range(80)}) > 2  # the hint is there
