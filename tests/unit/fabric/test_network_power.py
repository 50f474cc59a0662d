"""The generator powers what it adds (issue 18): network racks stay within their rack, tap-off
and busbar ratings, fuller racks get their PDUs, and feeds that cannot carry the switches are
one line naming the busbars and the kilowatts."""

from __future__ import annotations

import pytest

from planner.commands.base import History
from planner.fabric import FabricError, generate_fabric
from planner.fabric.hall import cable_hall
from planner.fabric.placement import tapoff_limit_w
from planner.layout.templates import build_template
from planner.model.catalog import RACK_PDU
from planner.rules.engine import validate
from planner.rules.finding import ERROR

IB = "sw-64x400g-1u"


@pytest.mark.parametrize("nodes", [416, 1024])
@pytest.mark.parametrize("ratio", [1.5, 4.0])
def test_a_ratio_on_a_non_blocking_hall_writes_a_clean_plan(nodes, ratio):
    # issue 18: these wrote nothing ("Busbar BB-A17: 666 A under failure of BB-B17 …")
    doc = build_template("hall", nodes)
    History(doc).push(cable_hall(doc, IB, ratio))
    assert not [f.message for f in validate(doc) if f.severity == ERROR]


def test_from_4_to_1_the_switches_the_feeds_cannot_carry_are_one_line():
    # the template sizes each busbar section to its racks: 1:1 needs more switches than 4:1 built
    doc = build_template("hall", 416, oversubscription=4.0)
    with pytest.raises(FabricError) as caught:
        generate_fabric(doc, IB, 1.0)
    message = str(caught.value)
    assert "\n" not in message and "kW" in message and "BB-" in message and "add a busbar run" in message


def test_2_to_1_to_1_to_1_stays_within_tapoff_and_pdus():
    doc = build_template("hall", 416, oversubscription=2.0)
    History(doc).push(cable_hall(doc, IB, 1.0))
    assert not [f.message for f in validate(doc) if f.severity == ERROR]
    bus_type = next(iter(doc.busbars.values())).type
    for rack in doc.racks.values():
        devices = list(doc.devices_in(rack.id))
        if any(d.role for d in devices):
            power = sum(doc.catalog[d.type].power_peak_w for d in devices)
            assert power <= tapoff_limit_w(doc, bus_type) + 1e-6
            assert any(doc.catalog[d.type].kind == RACK_PDU for d in devices)
