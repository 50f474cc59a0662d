"""The column filters of P10–P13 and C10–C11 (``cord_columns``, ``hose_columns``) on the pod's
corners the generated plans never have: cords and hoses drawn from the PDU or manifold end, PDUs
whose names say no side, a cord to a device not in the plan, a hose looped on one device, and a
manifold whose bound on its heat passes a rating the heat itself does not."""

from __future__ import annotations

import pytest

from planner.commands.base import History, SetFields
from planner.fabric.hoses import plan_hoses
from planner.fabric.power_cords import plan_power_cords
from planner.layout.templates import build_template
from planner.model.catalog import RACK_MANIFOLD, RACK_PDU
from planner.model.cords import rack_pdu_sides
from planner.model.ports import COOLANT, POWER
from planner.rules.engine import validate

CORD_RULES = ("P10", "P11", "P12", "P13")
HOSE_RULES = ("C10", "C11")


@pytest.fixture
def pod():
    doc = build_template("pod")
    History(doc).push(plan_power_cords(doc))
    History(doc).push(plan_hoses(doc))
    return doc


def _found(doc, rules):
    return sorted((f.rule, f.severity, f.subjects, f.message) for f in validate(doc) if f.rule in rules)


def _swapped(doc, network, keep=lambda link: True):
    return SetFields({link.id: {"a_device": link.b_device, "a_port": link.b_port, "b_device": link.a_device,
                                "b_port": link.a_port} for link in doc.links_in(network).values() if keep(link)})


def _rack(doc, name):
    return next(r.id for r in doc.racks.values() if r.name == name)


def test_cords_and_hoses_drawn_from_the_other_end_read_the_same(pod):
    node = next(d for d in pod.devices_in(_rack(pod, "R01")) if d.name == "N1")
    cord = next(c for c in pod.links_in(POWER).values() if c.a_device == node.id)
    History(pod).push(SetFields({cord.id: {"b_port": "O1"}}))  # a C13 outlet: a P10 error
    before = _found(pod, CORD_RULES + HOSE_RULES)
    assert any(rule == "P10" for rule, *_rest in before)
    History(pod).push(_swapped(pod, POWER, lambda link: link.id != cord.id))
    History(pod).push(_swapped(pod, COOLANT))
    assert _found(pod, CORD_RULES + HOSE_RULES) == before


def test_pdus_named_without_a_side_take_the_sides_pdu_sides_gives(pod):
    rack_id = _rack(pod, "R01")
    side_b = [d for d in pod.devices_in(rack_id) if pod.catalog[d.type].kind == RACK_PDU and d.name.startswith("PDU-B")]
    assert len(side_b) == 4
    History(pod).push(SetFields({d.id: {"name": f"PDU{i + 1}"} for i, d in enumerate(side_b)}))
    sides = rack_pdu_sides(pod, rack_id)
    assert [sides[d.id] for d in side_b] == ["A", "B", "A", "B"]  # the unnamed ones alternate
    unnamed = _found(pod, ("P11",))
    assert unnamed and all("with side A out" in m for *_rest, m in unnamed)  # half of side B is on A now
    History(pod).push(SetFields({d.id: {"name": f"PDU-{sides[d.id]}{5 + i}"} for i, d in enumerate(side_b)}))
    assert _found(pod, ("P11",)) == unnamed


def test_a_cord_to_a_device_not_in_the_plan_is_a_stray(pod):
    cord = next(iter(pod.links_in(POWER).values()))
    History(pod).push(SetFields({cord.id: {"b_device": "dev-gone"}}))
    host = pod.hostname(pod.devices[cord.a_device])
    messages = [m for rule, _s, _subjects, m in _found(pod, ("P10",))]
    assert f"{cord.id}: a power cord from {host} {cord.a_port} to dev-gone {cord.b_port} joins no PSU to a rack PDU" in messages
    assert f"{host} {cord.a_port}: no power cord (wants a C19 outlet of a rack PDU in its rack)" in messages


def test_a_hose_looped_on_one_qd_is_two_hoses_on_it(pod):
    hose = next(h for h in pod.links_in(COOLANT).values() if h.a_port == "SUP1")
    History(pod).push(SetFields({hose.id: {"b_device": hose.a_device, "b_port": hose.a_port}}))
    host = pod.hostname(pod.devices[hose.a_device])
    messages = [m for _rule, _s, _subjects, m in _found(pod, ("C10",))]
    assert f"{host} SUP1: 2 hoses on one QD ({hose.id}, {hose.id})" in messages


def test_c11_counts_a_device_hosed_twice_at_its_pairs(pod):
    manifold = next(d for d in pod.devices.values() if pod.catalog[d.type].kind == RACK_MANIFOLD)
    hoses = [h for h in pod.links_in(COOLANT).values() if h.b_device == manifold.id and h.b_port.startswith("SUP")]
    assert len(hoses) == 4
    # the second node's supply hose moved onto the first node's SUP1: the first node has one pair, so
    # its heat counts once, and the manifold carries three nodes (the column bound counts four shares)
    first, second = hoses[0], hoses[1]
    History(pod).push(SetFields({second.id: {"a_device": first.a_device, "a_port": first.a_port}}))
    basis, item = pod.basis, pod.catalog[manifold.type]
    node = pod.catalog[pod.devices[first.a_device].type]
    assert node.coolant_ports == 1
    per_node = (node.power_peak_w or node.power_w) * node.liquid_fraction
    props = basis.fluid_properties
    three = 60 * (3 * per_node / 1000) / (props["density_kg_per_l"] * props["cp_kj_per_kg_k"] * basis.delta_t_k)
    item.rated_flow_lpm = three * 1.01
    assert [f for f in validate(pod) if f.rule == "C11" and f.subjects == (manifold.id,)] == []
    item.rated_flow_lpm = three * 0.99
    found = [f for f in validate(pod) if f.rule == "C11" and f.subjects == (manifold.id,)]
    assert len(found) == 1 and ": 3 devices, " in found[0].message
