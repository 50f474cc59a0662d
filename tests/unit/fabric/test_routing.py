"""Routed cable lengths worked by hand for a small hall (DESIGN §5 Cables).

Racks are 800 × 1200 mm, 52U: rack top 52 × 0.04445 = 2.3114 m; tray 0.3 m above it.
"""

from __future__ import annotations

import pytest

from planner.commands.base import History
from planner.fabric.relength import recompute_lengths
from planner.fabric.routing import Router, route
from planner.model.document import Document
from planner.model.objects import Device, Link, Rack

RACK = "rack-800x1200-52u"
NODE = "node-8gpu-liquid-4u"
SWITCH = "sw-64x400g-1u"


@pytest.fixture
def hall() -> Document:
    doc = Document()
    doc.add(Rack(id="rack-1", type=RACK, name="R01", x=1.0, y=2.0, row="1"))
    doc.add(Rack(id="rack-2", type=RACK, name="R02", x=3.4, y=2.0, row="1"))
    doc.add(Rack(id="rack-3", type=RACK, name="R03", x=1.0, y=5.0, rotation=180, row="2"))
    doc.add(Device(id="dev-1", type=NODE, name="N1", rack="rack-1", u=1))
    doc.add(Device(id="dev-2", type=SWITCH, name="L1", rack="rack-2", u=41, role="leaf"))
    doc.add(Device(id="dev-3", type=NODE, name="N1", rack="rack-3", u=1))
    doc.add(Device(id="dev-4", type=SWITCH, name="L2", rack="rack-1", u=41, role="leaf"))
    return doc


def test_same_row(hall):
    # up R01 from U1: 2.3114 + 0.3; along the row 2.4; down R02 to U41: 2.3114 − 40 × 0.04445 + 0.3
    # = 2.6114 + 2.4 + 0.8334 = 5.8448 m; slack 10 % = 0.58448 → 6.43 m → SR4 7 m.
    result = Router(hall).route("dev-1", "dev-2", "node-leaf")
    assert result.run_m == pytest.approx(5.8448)
    assert (result.length_m, result.media, result.stock_m) == (6.43, "sr4", 7.0)


def test_other_row_crosses_on_a_cross_aisle_tray(hall):
    # R03 is in row 2, 3.0 m south. Cross-aisle trays at the row ends (x 1.0, 3.4) and over the
    # network rack R02 (x 3.4); the crossing at x 1.0 adds nothing along the rows:
    # 2.6114 + 3.0 + 2.4 + 0.8334 = 8.8448 m; slack 0.88448 → 9.73 m → SR4 10 m.
    result = Router(hall).route("dev-3", "dev-2", "node-leaf")
    assert result.run_m == pytest.approx(8.8448)
    assert (result.length_m, result.stock_m) == (9.73, 10.0)
    assert result.polyline == [(1.0, 5.0), (1.0, 5.0), (1.0, 2.0), (3.4, 2.0)]


def test_inside_one_rack_and_switch_to_switch_dac_reach(hall):
    # N1 at U1 and L2 at U41 of R01: 40 × 0.04445 = 1.778 m; minimum slack 0.3 → 2.08 m.
    node_leaf = Router(hall).route("dev-1", "dev-4", "node-leaf")
    assert (node_leaf.length_m, node_leaf.media, node_leaf.stock_m) == (2.08, "dac", 2.5)
    # the same 2.08 m between two switches is beyond the 2 m switch-to-switch DAC reach
    hall.add(Device(id="dev-6", type=SWITCH, name="S2", rack="rack-1", u=1, role="spine"))
    s2s = Router(hall).route("dev-6", "dev-4", "leaf-spine")
    assert (s2s.length_m, s2s.media, s2s.stock_m) == (2.08, "acc", 4.0)


def test_recompute_lengths_after_a_move(hall):
    hall.add(Link(id="link-1", a_device="dev-1", a_port="P1", b_device="dev-2", b_port="1/1",
                  tier="node-leaf", rail=1))
    history = History(hall)
    history.push(recompute_lengths(hall, ["link-1"]))
    assert (hall.links["link-1"].length_m, hall.links["link-1"].media) == (6.43, "sr4")
    hall.set_fields("rack-2", {"x": 1.8})  # 0.8 m along the row: 2.6114 + 0.8 + 0.8334 = 4.2448 → 4.67 m
    assert route(hall, hall.links["link-1"]).length_m == 4.67
    change = history.push(recompute_lengths(hall, ["link-1"]))
    assert change.modified == {"link-1": {"length_m", "stock_m", "media"}}
    assert (hall.links["link-1"].media, hall.links["link-1"].stock_m) == ("acc", 5.0)
    history.undo()
    assert hall.links["link-1"].length_m == 6.43
