"""Power cords on the pod: every PSU on an outlet of its rack's PDUs, half on each side, outlet
types that mate, no outlet twice, lengths from the rack, and a regeneration that changes nothing."""

from __future__ import annotations

import math

import pytest

from planner.commands.base import History, RemoveObjects
from planner.fabric.placement import pdus_per_side, rack_pdus
from planner.fabric.power_cords import plan_power_cords
from planner.layout.templates import build_template
from planner.model.catalog import NODE, RACK_PDU, SWITCH
from planner.model.cords import (
    cord_types,
    cords_per_side,
    largest_cord_w,
    psu_side,
    rack_pdu_sides,
    side_in_name,
)
from planner.model.geometry import RACK_UNIT_M
from planner.model.networks import TIER_POWER_CORD
from planner.model.ports import POWER, PSU_INLETS, psu_names
from planner.rules.engine import validate


@pytest.fixture
def pod():
    doc = build_template("pod")
    History(doc).push(plan_power_cords(doc))
    return doc


def _cords_of(doc, device_id):
    return {link.a_port: link for link in doc.links_in(POWER).values() if link.a_device == device_id}


def _rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def test_every_node_psu_is_corded_half_on_each_side_to_a_mating_outlet(pod):
    nodes = [d for d in pod.devices.values() if pod.catalog[d.type].kind == NODE]
    assert len(nodes) == 32
    for node in nodes:
        item = pod.catalog[node.type]
        cords = _cords_of(pod, node.id)
        assert sorted(cords) == sorted(psu_names(item.psu_count)) == sorted(f"PSU{i}" for i in range(1, 11))
        sides = rack_pdu_sides(pod, node.rack)
        on = {psu: sides[cord.b_device] for psu, cord in cords.items()}
        assert [on[f"PSU{i}"] for i in range(1, 11)] == ["A"] * 5 + ["B"] * 5  # 5+5
        for cord in cords.values():
            pdu = pod.devices[cord.b_device]
            assert pdu.rack == node.rack and pod.catalog[pdu.type].kind == RACK_PDU
            assert pod.catalog[pdu.type].outlet(cord.b_port).outlet == PSU_INLETS[item.psu_inlet] == "C19"
            assert cord.tier == TIER_POWER_CORD


def test_no_outlet_is_used_twice_and_switches_take_c13(pod):
    outlets = [(link.b_device, link.b_port) for link in pod.links_in(POWER).values()]
    assert len(outlets) == len(set(outlets))
    switches = [d for d in pod.devices.values() if pod.catalog[d.type].kind == SWITCH]
    assert switches
    for switch in switches:
        cords = _cords_of(pod, switch.id)
        assert sorted(cords) == ["PSU1", "PSU2"]  # 1+1, inlet not given: a C13 each
        sides = rack_pdu_sides(pod, switch.rack)
        assert {sides[c.b_device] for c in cords.values()} == {"A", "B"}
        for cord in cords.values():
            assert pod.catalog[pod.devices[cord.b_device].type].outlet(cord.b_port).outlet == "C13"


def test_an_800g_switch_of_no_given_inlet_is_corded_to_c19s_and_its_cords_are_within_their_rating():
    doc = build_template("pod", switch_type="sw-64x800g-2u-eth")
    item = doc.catalog["sw-64x800g-2u-eth"]
    failover_a = item.power_peak_w / (415 / math.sqrt(3) * doc.basis.power_factor)  # 1+1: one PSU carries it
    assert failover_a > 10  # a C13–C14 cord's rating (IEC 60320)
    switches = [d for d in doc.devices.values() if d.type == item.key]
    assert switches
    for switch in switches:
        cords = _cords_of(doc, switch.id)
        assert sorted(cords) == ["PSU1", "PSU2"]
        assert {doc.catalog[doc.devices[c.b_device].type].outlet(c.b_port).outlet for c in cords.values()} == {"C19"}
    assert [f.message for f in validate(doc) if f.rule in ("P10", "P14")] == []


def test_regenerating_changes_nothing_and_keeps_every_cord(pod):
    before = {i: (l.a_device, l.a_port, l.b_device, l.b_port, l.length_m, l.stock_m)
              for i, l in pod.links_in(POWER).items()}
    again = plan_power_cords(pod)
    assert again.changes_nothing and again.network == POWER
    History(pod).push(again)
    assert {i: (l.a_device, l.a_port, l.b_device, l.b_port, l.length_m, l.stock_m)
            for i, l in pod.links_in(POWER).items()} == before


def test_a_removed_cord_comes_back_and_the_others_keep_their_ids(pod):
    node = next(d for d in pod.devices_in(_rack(pod, "R01").id) if d.name == "N1")
    gone = _cords_of(pod, node.id)["PSU3"]
    History(pod).push(RemoveObjects([gone.id]))
    kept = set(pod.links_in(POWER))
    generation = plan_power_cords(pod)
    assert generation.cables.kept == len(kept) and len(generation.cables.added) == 1
    History(pod).push(generation)
    back = _cords_of(pod, node.id)["PSU3"]
    assert (back.b_device, back.b_port) == (gone.b_device, gone.b_port) and back.id != gone.id
    assert kept <= set(pod.links_in(POWER))


def test_cord_length_is_the_vertical_run_with_slack_and_the_next_stock_length(pod):
    rack = _rack(pod, "R01")
    node = next(d for d in pod.devices_in(rack.id) if d.name == "N1")
    item = pod.catalog[node.type]
    rack_units = pod.catalog[rack.type].rack_units
    for cord in _cords_of(pod, node.id).values():
        pdu = pod.catalog[pod.devices[cord.b_device].type]
        index = pdu.outlet_names().index(cord.b_port)
        outlet_h = (index + 0.5) / len(pdu.outlet_names()) * rack_units * RACK_UNIT_M
        psu_h = (node.u - 1 + item.height_u / 2) * RACK_UNIT_M
        run = abs(outlet_h - psu_h)
        basis = pod.basis
        assert cord.length_m == pytest.approx(run + max(run * basis.cable_slack_fraction, basis.cable_slack_min_m),
                                              abs=0.006)
        stock = cord_types()["C19"].stock_lengths_m
        assert cord.stock_m == min(x for x in stock if x >= cord.length_m)


def test_a_side_short_of_outlets_cords_what_fits_and_adds_no_pdu(pod):
    rack = _rack(pod, "R02")
    side_a = [d for d in pod.devices_in(rack.id) if d.name.startswith("PDU-A")]
    assert len(side_a) >= 2
    history = History(pod)
    history.push(RemoveObjects([side_a[-1].id, *pod.link_ids_of(side_a[-1].id)]))
    pdus = sum(1 for d in pod.devices.values() if pod.catalog[d.type].kind == RACK_PDU)
    history.push(plan_power_cords(pod))
    assert sum(1 for d in pod.devices.values() if pod.catalog[d.type].kind == RACK_PDU) == pdus
    sides = rack_pdu_sides(pod, rack.id)
    nodes = [d for d in pod.devices_in(rack.id) if pod.catalog[d.type].kind == NODE]
    on_a = [c for n in nodes for c in _cords_of(pod, n.id).values() if sides[c.b_device] == "A"]
    on_b = [c for n in nodes for c in _cords_of(pod, n.id).values() if sides[c.b_device] == "B"]
    c19 = len(pod.catalog[side_a[0].type].outlets_of_type("C19"))
    assert len(on_b) == 5 * len(nodes)  # side B untouched: PSU6..PSU10 of every node
    assert len(on_a) == min(5 * len(nodes), c19 * (len(side_a) - 1)) < 5 * len(nodes)  # what fits; the rest left


def test_pdu_sides_from_names_else_alternating():
    assert side_in_name("PDU-A1") == "A" and side_in_name("pdu_b2") == "B" and side_in_name("PDU7") == ""
    assert [psu_side(i, 6) for i in range(1, 7)] == ["A"] * 3 + ["B"] * 3
    assert [psu_side(i, 5) for i in range(1, 6)] == ["A"] * 3 + ["B"] * 2  # the odd one on A
    doc = build_template("pod")
    rack = _rack(doc, "R01")
    pdus = [d for d in doc.devices_in(rack.id) if doc.catalog[d.type].kind == RACK_PDU]
    for device in pdus:
        device.name = device.name.replace("PDU-A", "PDUX").replace("PDU-B", "PDUY")
    sides = rack_pdu_sides(doc, rack.id)
    assert sorted(sides.values()) == ["A"] * (len(pdus) // 2) + ["B"] * (len(pdus) // 2)


def test_pdus_per_side_counts_the_cords_of_each_outlet_type():
    doc = build_template("pod")
    node = "node-8gpu-liquid-4u"
    pdu = doc.catalog["pdu-rack-3ph-63a"]
    c19 = len(pdu.outlets_of_type("C19"))
    assert c19 == 6
    cords = cords_per_side(doc, [node] * 4)
    assert cords == {"C19": 20}  # 4 nodes × 10 PSUs, half a side
    basis = doc.basis
    each_pdu_w = math.sqrt(3) * 415 * 63 * basis.derating * basis.power_warn_fraction * basis.power_factor
    by_power = math.ceil(48_000 / each_pdu_w)
    assert pdus_per_side(doc, 48_000) == by_power == 2  # power alone: 48 kW over PDUs of ~31 kW each
    assert pdus_per_side(doc, 48_000, cords, largest_cord_w(doc, [node] * 4)) == math.ceil(20 / c19) == 4
    for rack in doc.racks.values():  # the template gave each compute rack what its nodes' cords need
        kinds = [doc.catalog[d.type].kind for d in doc.devices_in(rack.id)]
        if NODE in kinds:
            nodes = kinds.count(NODE)
            assert kinds.count(RACK_PDU) == 2 * max(by_power, math.ceil(5 * nodes / c19))  # 5 cords a side per node
            weight = sum(doc.catalog[d.type].weight_kg for d in doc.devices_in(rack.id))
            assert weight + doc.catalog[rack.type].weight_kg <= doc.catalog[rack.type].max_load_kg
            held = sum(doc.catalog[d.type].height_u for d in doc.devices_in(rack.id))
            assert held <= doc.catalog[rack.type].rack_units
    rack = _rack(doc, "R01")
    have = sum(1 for d in doc.devices_in(rack.id) if doc.catalog[d.type].kind == RACK_PDU) // 2
    assert rack_pdus(doc, rack.id, 48_000, have_per_side=have) == []  # it holds enough already


def test_switch_cords_one_per_breaker_group_sizes_the_network_rack():
    doc = build_template("pod")
    switch = "sw-64x400g-1u"
    item = doc.catalog[switch]
    per_cord = (item.power_peak_w or item.power_w) / (item.psu_count // 2)
    amps = per_cord / (415 / math.sqrt(3) * doc.basis.power_factor)  # one switch on its side's one PSU
    assert 16 * doc.basis.derating * doc.basis.power_warn_fraction // amps == 1  # one such cord per C13 group
    groups = sum(1 for g in doc.catalog["pdu-rack-3ph-63a"].outlet_groups if g["outlet"] == "C13")
    assert pdus_per_side(doc, 1, {"C13": 14}, {"C13": per_cord}) == math.ceil(14 / groups) == 3


def test_the_elevation_tooltip_lists_the_outlet_of_each_psu(pod):
    from planner.ui.elevation.ports import power_cord_lines

    node = next(d for d in pod.devices_in(_rack(pod, "R01").id) if d.name == "N1")
    cords = _cords_of(pod, node.id)
    assert power_cord_lines(pod, node.id) == [
        f"PSU{i} → {pod.devices[cords[f'PSU{i}'].b_device].name} {cords[f'PSU{i}'].b_port}" for i in range(1, 11)]
    assert power_cord_lines(pod, node.id)[0].startswith("PSU1 → PDU-A")
    History(pod).push(RemoveObjects([cords["PSU10"].id]))
    assert power_cord_lines(pod, node.id)[-1] == "PSU10: no cord"
