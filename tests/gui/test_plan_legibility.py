"""The picked cable's route, columns under racks and colliding labels on the plan."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRectF
from PySide6.QtGui import QColor

from planner.fabric.routing import Router, route
from planner.model.objects import Obstacle
from planner.ui.app import load_example
from planner.ui.cables.layer import CORE_COLOUR, RAIL_COLOURS
from planner.ui.plan.items import _ASSIGN_COLOURS, SELECTION_COLOUR, SEVERITY_COLOURS
from planner.ui.plan.route import ROUTE_COLOUR, ROUTE_OFFSET_M, route_on_tray
from planner.ui.plan.units import m


def _other_colours() -> list[QColor]:
    from planner.ui.validation.overlays import BANDS

    return [*(QColor(c) for c in RAIL_COLOURS), QColor(CORE_COLOUR), *_ASSIGN_COLOURS, SELECTION_COLOUR,
            *SEVERITY_COLOURS.values(), *(colour for _limit, colour, _text in BANDS)]


def test_route_colour_is_reserved():
    for colour in _other_colours():
        distance = sum(abs(a - b) for a, b in zip(colour.getRgb()[:3], ROUTE_COLOUR.getRgb()[:3], strict=True))
        assert distance > 120, colour.name()


def test_route_lies_on_the_tray_bundle():
    points = [(4.0, 3.0), (10.0, 3.0), (10.0, 6.0), (6.0, 6.0)]
    s = ROUTE_OFFSET_M
    assert route_on_tray(points) == [(4.0, 3.0 + s), (10.0 + s, 3.0 + s), (10.0 + s, 6.0 + s), (6.0, 6.0 + s)]
    assert route_on_tray([(1.0, 2.0)]) == [(1.0, 2.0)]


def test_picking_a_cable_draws_fits_and_highlights_its_route(make_window):
    window = make_window(load_example())
    doc, view = window.session.doc, window.plan_view
    link = next(iter(doc.links.values()))
    a, b = doc.devices[link.a_device], doc.devices[link.b_device]
    assert a.rack != b.rack
    window.cable_dock.select_link(link.id)
    item = view._route
    assert item is not None
    _length, tray = Router(doc).tray_path(a.rack, b.rack)
    assert tray == route(doc, link).polyline
    expected = route_on_tray(tray)
    path = item.path()
    assert [(round(path.elementAt(k).x / 100, 4), round(path.elementAt(k).y / 100, 4))
            for k in range(path.elementCount())] == [(round(x, 4), round(y, 4)) for x, y in expected]
    assert item.pen().color() == ROUTE_COLOUR
    centre = view.mapToScene(view.viewport().rect().center())
    assert item.route_rect().contains(centre)
    assert set(view.route_ends()) == {a.rack, b.rack}
    assert len(item.end_racks) == 2
    for rack_id, rect in zip((a.rack, b.rack), item.end_racks, strict=True):
        assert rect == view.plan_scene.item_for(rack_id).footprint()[0]
    assert window.session.selection == {a.id}  # the elevation dock shows end A's rack
    assert window.elevation_dock.elevation.rack_id == a.rack
    assert view.pixels_per_m() <= 90.0 + 1e-6
    # the outline of end B's rack is drawn in the route colour
    image = view.viewport().grab().toImage()
    rect = view.mapFromScene(item.end_racks[1]).boundingRect()
    edge = [image.pixelColor(QPoint(rect.left() + 1, y)) for y in range(rect.top() + 5, rect.bottom() - 5)]
    assert any(c.red() > 230 and c.green() < 40 and c.blue() > 230 for c in edge)


def test_a_column_under_a_rack_shows(make_view):
    doc = load_example()
    rack = next(r for r in doc.racks.values() if r.name == "R03")
    x, y = rack.x + 0.1, rack.y - 0.2
    doc.obstacles["obs-col"] = Obstacle("obs-col", "C1", "column", [(x, y), (x + 0.4, y), (x + 0.4, y + 0.4), (x, y + 0.4)])
    view = make_view(doc)
    image = view.viewport().grab().toImage()
    footprint = view.mapFromScene(view.plan_scene.item_for(rack.id).sceneBoundingRect()).boundingRect()
    column = view.mapFromScene(QRectF(m(x), m(y), m(0.4), m(0.4))).boundingRect()
    inside = column.intersected(footprint.adjusted(3, 3, -3, -3))
    assert not inside.isEmpty()
    dark = [image.pixelColor(QPoint(px, py)) for px in range(inside.left(), inside.right())
            for py in range(inside.top(), inside.bottom())]
    assert sum(c.lightness() < 110 for c in dark) > len(dark) / 2


@pytest.mark.parametrize("zoom_steps", [0, 3])
def test_a_racks_error_badge_keeps_off_its_name(make_view, zoom_steps):
    view = make_view(load_example())
    for _ in range(zoom_steps):
        view.zoom_in()
    scene = view.plan_scene
    lod = view.transform().m11()
    for rack_id in scene.session.doc.racks:
        item = scene.item_for(rack_id)
        item.set_severity("error")
        assert not item.badge_rect(lod).intersects(item.name_rect(lod)), scene.session.doc.racks[rack_id].name


def test_busbar_labels_keep_off_the_tray_bundle(make_view):
    view = make_view(load_example())
    scene, doc = view.plan_scene, view.session.doc
    for bus in doc.busbars.values():
        label = scene.item_for(bus.id).label_rect()
        rack_ys = [r.y for r in doc.racks.values()]
        bundle_top, bundle_bottom = m(min(rack_ys) + 0.22), m(max(rack_ys) + 0.6)
        assert label.bottom() <= bundle_top or label.top() >= bundle_bottom, bus.name


def test_hand_off_names_keep_off_the_next_disc(make_view):
    view = make_view(load_example())
    items = [view.plan_scene.item_for(i) for i in view.session.doc.handoffs]
    for item in items:
        label = item.label_rect().translated(item.pos())
        for other in items:
            disc = other.shape().boundingRect().translated(other.pos())
            assert not label.intersects(disc)
