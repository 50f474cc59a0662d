"""Generating the fabric as a command: idempotent, undoable, and growing without moving switches.

Plan ▸ Generate fabric and ``planner fabric -o`` cable the whole hall (``cable_hall``: the compute
fabric, then the storage fabric, both management networks, the hoses and the power cords, issue
21), so these run what they run and check every network; the compute fabric's own counts are
read from its cables (``doc.links_in(COMPUTE)``) and switches (``in_compute_fabric``).
"""

from __future__ import annotations

from collections import Counter

from planner.commands.base import History
from planner.fabric.hall import cable_hall, summary
from planner.fabric.placement import rack_load_w, rack_pdus
from planner.layout.templates import build_template
from planner.model.cords import rack_pdu_sides
from planner.model.networks import in_compute_fabric, is_compute
from planner.model.objects import Device
from planner.model.ports import COMPUTE
from planner.rules.engine import validate
from planner.rules.finding import ERROR


def _cables(doc):
    return {(link.a_device, link.a_port, link.b_device, link.b_port) for link in doc.links.values()}


def _errors(doc) -> list[str]:
    return [f"{f.rule}: {f.message}" for f in validate(doc) if f.severity == ERROR]


def test_regenerating_changes_no_cable():
    doc = build_template("hall", 300)
    before = _cables(doc)
    command = cable_hall(doc, "sw-64x400g-1u", doc.basis.oversubscription)
    History(doc).push(command)
    assert command.changes_nothing, summary(command)
    assert _cables(doc) == before


def test_adding_nodes_keeps_switches_in_place_and_undo_restores():
    doc = build_template("pod", 12)  # one SU built whole: room for 32 nodes on the same leaves
    switches = {d.id: (d.rack, d.u, d.name) for d in doc.devices.values() if d.role}
    before = _cables(doc)
    rack = next(r for r in doc.racks.values() if any(d.type.startswith("node") for d in doc.devices_in(r.id)))
    u = doc.lowest_free_u(rack.id, 4)
    doc.add(Device(id=doc.new_id("dev"), type="node-8gpu-liquid-4u", name="N9", rack=rack.id, u=u))
    # the rack's PDUs were sized for its four nodes: a fifth needs outlets for its ten PSUs (P10)
    per_side = max(Counter(rack_pdu_sides(doc, rack.id).values()).values())
    for pdu in rack_pdus(doc, rack.id, rack_load_w(doc, rack.id), have_per_side=per_side):
        doc.add(pdu)
    history = History(doc)
    history.push(cable_hall(doc, "sw-64x400g-1u"))
    # no switch of any network moves or is renamed
    assert {d.id: (d.rack, d.u, d.name) for d in doc.devices.values() if d.role} == switches
    assert len(doc.links_in(COMPUTE)) == 13 * 8 + 256
    assert not _errors(doc)
    history.undo()
    assert _cables(doc) == before


def _switch_type(doc, switch_type):
    old = {d.id for d in doc.devices.values() if in_compute_fabric(d.role)}
    History(doc).push(cable_hall(doc, switch_type))
    return old


def test_switching_type_retires_the_old_switches():
    doc = build_template("pod", 12)
    old = _switch_type(doc, "sw-64x800g-2u-eth")
    # a retired switch stays in its rack, corded and on the OOB network, but off the compute fabric
    assert all(not doc.devices[i].role and not [l for l in doc.links_of(i) if is_compute(l)] for i in old)
    # 128 ports: 96 GPU ports fit one switch
    assert [d.type for d in doc.devices.values() if in_compute_fabric(d.role)] == ["sw-64x800g-2u-eth"]
    # the new L1 sits beside the retired one in its rack: the retired switch is renamed, so
    # hostnames stay unique (H1)
    new_rack = next(d.rack for d in doc.devices.values() if in_compute_fabric(d.role))
    assert "L1-retired" in {doc.devices[i].name for i in old if doc.devices[i].rack == new_rack}


def test_switching_type_validates_clean():
    doc = build_template("pod", 12)
    _switch_type(doc, "sw-64x800g-2u-eth")
    assert not _errors(doc)
    hostnames = [doc.hostname(d) for d in doc.devices.values()]
    assert len(set(hostnames)) == len(hostnames)
