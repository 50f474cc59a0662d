"""Network racks: filled first, then new racks mid-row (the rest move along) or at the row end."""

from __future__ import annotations

import pytest

from planner.commands.edits import Refusal
from planner.fabric.placement import place_switches
from planner.model.document import Document
from planner.model.objects import Device, Rack

RACK = "rack-800x1200-52u"
SWITCH = "sw-64x400g-1u"  # 1U, 1,720 W peak


def _row(count: int) -> Document:
    doc = Document()
    for k in range(count):
        rack = Rack(id=f"rack-{k + 1}", type=RACK, name=f"R{k + 1:02d}", x=1.0 + 0.8 * k, y=3.0, row="1")
        doc.add(rack)
        doc.add(Device(id=f"dev-{k + 1}", type="node-8gpu-liquid-4u", name="N1", rack=rack.id, u=1))
    return doc


def test_middle_inserts_and_moves_the_east_half():
    doc = _row(4)
    # 10 kW per network rack → 5 switches a rack (5 × 1.72 = 8.6 kW); 12 switches → 3 racks
    where = place_switches(doc, SWITCH, ["1"] * 12, "middle", rack_power_w=10_000)
    assert [r.x for r in where.new_racks] == [2.6, 3.4, 4.2]
    # R03 (x 2.6) and R04 (x 3.4) move east by three rack widths, 2.4 m
    assert where.moves == {"rack-3": {"x": 5.0}, "rack-4": {"x": 5.8}}
    assert [u for _rack, u in where.slots] == [1, 2, 3, 4, 5] * 2 + [1, 2]


def test_end_appends_and_existing_network_rack_fills_first():
    doc = _row(3)
    doc.add(Rack(id="rack-9", type=RACK, name="R09", x=3.4, y=3.0, row="1"))
    doc.add(Device(id="dev-9", type=SWITCH, name="SW1", rack="rack-9", u=1))
    where = place_switches(doc, SWITCH, ["1"] * 3, "end", rack_power_w=4_000)
    # R09 holds one switch already (1.72 kW): one more fits under 4 kW, at U2
    assert where.slots[0] == ("rack-9", 2)
    # the other two go in new racks after R09 (2 per rack under 4 kW → 1 rack)
    assert [r.x for r in where.new_racks] == [4.2] and not where.moves
    assert [s[0] for s in where.slots[1:]] == [where.new_racks[0].id] * 2


def test_refuses_when_one_switch_exceeds_the_rack_budget():
    with pytest.raises(Refusal, match="does not fit"):
        place_switches(_row(2), SWITCH, ["1"], "end", rack_power_w=1_000)
