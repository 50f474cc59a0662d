"""Hall features as commands (planner.commands.features): shapes drawn, moved and reshaped by a
handle, each one undo step, and shapes without an area refused."""

from __future__ import annotations

import math

import pytest

from planner.commands import History, Refusal
from planner.commands import features as f
from planner.io.dxf import CIRCLE_SIDES
from planner.model.document import Document
from planner.model.geometry import bounds_of, polygon_area
from planner.model.objects import Obstacle


def test_a_diagonal_wall_is_its_centre_line_widened_and_a_zone_vertex_moves_alone():
    doc = Document()
    history = History(doc)
    history.push(f.add_wall(doc, 0.0, 0.0, 3.0, 4.0))
    (wall,) = doc.obstacles.values()
    assert wall.kind == f.WALL and polygon_area(wall.polygon) == pytest.approx(5.0 * f.WALL_THICKNESS_M)
    history.push(f.add_zone(doc, [(0, 0), (6, 0), (3, 4)]))
    (zone,) = doc.zones.values()
    assert f.handles(zone) == [(0, 0), (6, 0), (3, 4)]
    history.push(f.reshape(doc, zone.id, 2, 3.0, 6.0))
    assert doc.zones[zone.id].polygon == [(0, 0), (6, 0), (3, 6)]
    history.undo()
    assert doc.zones[zone.id].polygon == [(0, 0), (6, 0), (3, 4)]


def test_a_round_column_from_a_drawing_is_reshaped_by_its_radius():
    doc = Document()
    step = 2 * math.pi / CIRCLE_SIDES
    rim = [(5 + 0.3 * math.cos(k * step), 5 + 0.3 * math.sin(k * step)) for k in range(CIRCLE_SIDES)]
    doc.add(Obstacle(id="obs-1", name="C01", kind="column", polygon=rim))
    assert f.handles(doc.obstacles["obs-1"]) == [pytest.approx((5.3, 5.0))]
    History(doc).push(f.reshape(doc, "obs-1", 0, 5.0, 5.6))
    assert f.round_column(doc.obstacles["obs-1"].polygon) == pytest.approx((5.0, 5.0, 0.6))
    square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert f.round_column(square) is None


def test_moves_and_door_ends_and_refusals():
    doc = Document()
    history = History(doc)
    history.push(f.add_column(doc, 1.0, 1.0, 1.6, 1.6))
    history.push(f.add_door(doc, 0.0, 2.0, 0.0, 3.2))
    history.push(f.add_handoff(doc, "power", 4.0, 4.0))
    ids = [*doc.obstacles, *doc.doors, *doc.handoffs]
    command = f.move_features(doc, ids, 0.6, -0.6)
    assert command.text == "Move Power 1, C01 and Door 1"
    history.push(command)
    assert bounds_of(doc.obstacles[ids[0]].polygon) == pytest.approx((1.6, 0.4, 2.2, 1.0))
    assert (doc.handoffs[ids[2]].x, doc.handoffs[ids[2]].y) == (4.6, 3.4)
    history.push(f.reshape(doc, ids[1], 1, 0.6, 3.0))
    door = doc.doors[ids[1]]
    assert (door.x1, door.y1, door.x2, door.y2) == (0.6, 1.4, 0.6, 3.0)
    for build in (lambda: f.add_column(doc, 1, 1, 1, 2), lambda: f.add_round_column(doc, 1, 1, 0),
                  lambda: f.add_zone(doc, [(0, 0), (1, 1), (2, 2)]), lambda: f.add_door(doc, 1, 1, 1, 1),
                  lambda: f.add_handoff(doc, "steam", 1, 1), lambda: f.reshape(doc, ids[1], 0, 0.6, 3.0)):
        with pytest.raises(Refusal):
            build()
