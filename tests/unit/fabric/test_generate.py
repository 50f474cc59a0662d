"""generate_fabric as a command: idempotent, undoable, and growing without moving switches."""

from __future__ import annotations

from planner.commands.base import History
from planner.fabric import generate_fabric
from planner.layout.templates import build_template
from planner.model.objects import Device
from planner.rules.engine import validate
from planner.rules.finding import ERROR


def _cables(doc):
    return {(link.a_device, link.a_port, link.b_device, link.b_port) for link in doc.links.values()}


def test_regenerating_changes_no_cable():
    doc = build_template("hall", 300)
    before = _cables(doc)
    History(doc).push(generate_fabric(doc, "sw-64x400g-1u"))
    assert _cables(doc) == before


def test_adding_nodes_keeps_switches_in_place_and_undo_restores():
    doc = build_template("pod", 12)  # one SU built whole: room for 32 nodes on the same leaves
    switches = {d.id: (d.rack, d.u, d.name) for d in doc.devices.values() if d.role}
    before = _cables(doc)
    rack = next(r for r in doc.racks.values() if any(d.type.startswith("node") for d in doc.devices_in(r.id)))
    u = doc.lowest_free_u(rack.id, 4)
    doc.add(Device(id=doc.new_id("dev"), type="node-8gpu-liquid-4u", name="N9", rack=rack.id, u=u))
    history = History(doc)
    history.push(generate_fabric(doc, "sw-64x400g-1u"))
    assert {d.id: (d.rack, d.u, d.name) for d in doc.devices.values() if d.role} == switches
    assert len(doc.links) == 13 * 8 + 256
    assert not [f for f in validate(doc) if f.severity == ERROR]
    history.undo()
    assert _cables(doc) == before


def test_switching_type_retires_the_old_switches():
    doc = build_template("pod", 12)
    old = {d.id for d in doc.devices.values() if d.role}
    History(doc).push(generate_fabric(doc, "sw-64x800g-2u-eth"))
    assert all(not doc.devices[i].role and not doc.links_of(i) for i in old)
    # 128 ports: 96 GPU ports fit one switch
    assert [d.type for d in doc.devices.values() if d.role] == ["sw-64x800g-2u-eth"]
    assert not [f for f in validate(doc) if f.severity == ERROR]
    # the new L1 sits beside the retired one in its rack: the retired switch is renamed, so
    # hostnames stay unique (H1)
    new_rack = next(d.rack for d in doc.devices.values() if d.role)
    assert "L1-retired" in {doc.devices[i].name for i in old if doc.devices[i].rack == new_rack}
    hostnames = [doc.hostname(d) for d in doc.devices.values()]
    assert len(set(hostnames)) == len(hostnames)
