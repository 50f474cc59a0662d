"""P10–P14 on the pod with its power cords: a cord removed, a 4+2 node split 3/3, an outlet group
over its breaker, a PDU's phases out of balance and a cord over its connector's rating, each a
finding with its numbers."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from planner.commands.base import History, RemoveObjects, SetFields
from planner.fabric.power_cords import plan_power_cords
from planner.layout.templates import build_template
from planner.model.cords import outlet_for_inlet, psu_inlet
from planner.model.ports import POWER
from planner.rules.engine import Validator, all_rules, validate
from planner.rules.finding import ERROR, INFO

CORD_RULES = ("P10", "P11", "P12", "P13", "P14")


@pytest.fixture
def pod():
    doc = build_template("pod")
    History(doc).push(plan_power_cords(doc))
    return doc


def _found(doc, rule_id):
    return [f for f in validate(doc) if f.rule == rule_id]


def _device(doc, rack, name):
    rack_id = next(r.id for r in doc.racks.values() if r.name == rack)
    return next(d for d in doc.devices_in(rack_id) if d.name == name)


def _cord(doc, device_id, port):
    return next(link for link in doc.links_in(POWER).values() if (link.a_device, link.a_port) == (device_id, port))


def _volts_ln():
    return 415 / math.sqrt(3)  # the bundled PDU: 415 V three-phase, its outlets line to neutral


def test_the_rules_are_in_the_catalogue_with_their_sources():
    rules = {r.id: r for r in all_rules() if r.id in CORD_RULES}
    assert sorted(rules) == list(CORD_RULES)
    assert all(r.title and (r.source or r.source_field) for r in rules.values())


def test_the_pod_cords_pass_p10_p11_p13_p14(pod):
    assert [f.message for f in validate(pod) if f.rule in ("P10", "P11", "P13", "P14")] == []


def test_a_removed_cord_is_named_by_p10_in_a_full_run_and_after_the_edit(pod):
    node = _device(pod, "R01", "N1")
    validator = Validator(pod)
    change = History(pod).push(RemoveObjects([_cord(pod, node.id, "PSU3").id]))
    validator.update(change)
    expected = "R01-N1 PSU3: no power cord (wants a C19 outlet of a rack PDU in its rack)"
    assert [f.message for f in validator.findings if f.rule == "P10"] == [expected]
    assert [(f.message, f.severity) for f in _found(pod, "P10")] == [(expected, ERROR)]


def test_p10_names_an_outlet_used_twice_and_an_outlet_of_the_wrong_type(pod):
    node = _device(pod, "R01", "N1")
    first, second = _cord(pod, node.id, "PSU1"), _cord(pod, node.id, "PSU2")
    pdu = pod.devices[first.b_device]
    History(pod).push(SetFields({second.id: {"b_device": first.b_device, "b_port": first.b_port}}))
    messages = [f.message for f in _found(pod, "P10")]
    assert f"R01-{pdu.name} {first.b_port}: 2 cords on one outlet ({first.id}, {second.id})" in messages
    History(pod).push(SetFields({second.id: {"b_port": "O1"}}))  # a C13 outlet
    assert [f.message for f in _found(pod, "P10")] == [
        f"R01-N1 PSU2 on R01-{pdu.name} O1: a C13 outlet; the PSU inlet C20 takes a C19"]


def test_p11_a_4_plus_2_air_node_split_3_3_is_short_with_either_side_out(pod):
    rack_id = next(r.id for r in pod.racks.values() if r.name == "R01")
    node = max((d for d in pod.devices_in(rack_id) if d.type == "node-8gpu-liquid-4u"), key=lambda d: d.u)
    air = pod.catalog["node-8gpu-air-8u"]
    assert (air.psu_count, air.psu_redundancy) == (6, "4+2")
    assert pod.fits_at(rack_id, air.height_u, node.u, ignore=node.id)  # the top node: the 8U air node fits
    History(pod).push(SetFields({node.id: {"type": air.key}}))
    History(pod).push(plan_power_cords(pod))
    left = 3 * air.psu_rating_w
    peak = air.power_peak_w
    assert left < peak  # 3 × 3,300 W = 9,900 W < 10,200 W: 4+2 needs four PSUs on a side
    assert sorted(f.message for f in _found(pod, "P11")) == [
        f"R01-{node.name}: with side {side} out 3 PSUs × {air.psu_rating_w:,.0f} W = {left:,.0f} W < "
        f"{peak:,.0f} W peak" for side in ("A", "B")]


def test_p12_an_outlet_group_over_its_derated_breaker_in_failover(pod):
    node = _device(pod, "R01", "N1")
    item = pod.catalog[node.type]
    assert (item.psu_count, item.psu_redundancy) == (10, "5+5")
    five = item.power_peak_w / 5 / (_volts_ln() * pod.basis.power_factor)  # B out: 5 A-side PSUs carry it
    assert round(five, 1) == 10.5 and pod.basis.derating == 0.8 and five < 16 * 0.8
    assert _found(pod, "P12") == []  # NEC continuous load: each cord within its 12.8 A group
    side_a = [link for link in pod.links_in(POWER).values()
              if link.a_device == node.id and pod.devices[link.b_device].name.startswith("PDU-A")]
    assert len(side_a) == 5
    History(pod).push(RemoveObjects([side_a[-1].id]))  # one A-side cord left out: four carry the node
    four = item.power_peak_w / 4 / (_volts_ln() * pod.basis.power_factor)
    assert round(four, 1) == 13.2
    groups = []
    for link in side_a[:-1]:
        outlet = pod.catalog[pod.devices[link.b_device].type].outlet(link.b_port)
        groups.append(f"R01-{pod.devices[link.b_device].name} group {outlet.group + 1} ({link.b_port}, "
                      f"C19, {outlet.phase}): {four:.1f} A on 1 cord with the other side out, "
                      f"breaker 16 A × 0.8 = 12.8 A")
    assert sorted(f.message for f in _found(pod, "P12")) == sorted(groups)
    assert all(f.severity == ERROR for f in _found(pod, "P12"))
    pod.basis.derating = 1.0  # IEC practice: 13.2 A fits a 16 A group
    assert _found(pod, "P12") == []


def test_p12_two_switch_cords_on_one_c13_group(pod):
    pod.basis.derating = 1.0
    rack_id = next(d.rack for d in pod.devices.values() if d.name == "L1" and d.role == "leaf")
    leaves = [d for d in pod.devices_in(rack_id) if d.name in ("L1", "L2", "L3")]
    rack = pod.racks[rack_id].name
    cords = [_cord(pod, leaf.id, "PSU1") for leaf in leaves]
    pdu = cords[0].b_device
    History(pod).push(SetFields({c.id: {"b_device": pdu, "b_port": f"O{i + 1}"} for i, c in enumerate(cords)}))
    item = pod.catalog[leaves[0].type]
    each = item.power_peak_w / 1 / (_volts_ln() * pod.basis.power_factor)  # 1+1: one PSU on the side left
    found = [f for f in _found(pod, "P12") if "group 1 " in f.message and pod.devices[pdu].name in f.message]
    assert [f.message for f in found] == [
        (f"{rack}-{pod.devices[pdu].name} group 1 (O1–O6, C13, L1): {3 * each:.1f} A on 3 cords with the other "
         f"side out, breaker 16 A × 1 = 16.0 A")]
    assert found[0].severity == ERROR and 3 * each > 16


def _line_currents(doc, pdu_id):
    """Each line's current with both sides up, worked from the cords: a device's draw over its
    corded PSUs, at 240 V line to neutral and the basis's power factor."""
    cords = doc.links_in(POWER).values()
    outlets = doc.catalog[doc.devices[pdu_id].type]
    lines = {"L1": 0.0, "L2": 0.0, "L3": 0.0}
    for link in cords:
        if link.b_device == pdu_id:
            item = doc.catalog[doc.devices[link.a_device].type]
            corded = sum(1 for other in cords if other.a_device == link.a_device)
            lines[outlets.outlet(link.b_port).phase] += (item.power_peak_w / corded
                                                         / (_volts_ln() * doc.basis.power_factor))
    return lines


def test_p13_a_pdu_with_a_phase_left_empty(pod):
    assert _found(pod, "P13") == []  # the generated spread: as even as its cords allow
    rack_id = next(r.id for r in pod.racks.values() if r.name == "R01")
    pdu = next(d for d in pod.devices_in(rack_id) if d.name == "PDU-A1")
    item = pod.catalog[pdu.type]
    on_l3 = [link.id for link in pod.links_in(POWER).values() if link.b_device == pdu.id
             and item.outlet(link.b_port).outlet == "C19" and item.outlet(link.b_port).phase == "L3"]
    assert on_l3
    History(pod).push(RemoveObjects(on_l3))  # its node cords on L3 gone: L1 and L2 carry the nodes
    lines = _line_currents(pod, pdu.id)
    average = sum(lines.values()) / 3
    imbalance = max(abs(i - average) for i in lines.values()) / average
    assert imbalance > pod.basis.phase_imbalance_error
    found = [f for f in _found(pod, "P13") if f.message.startswith("R01-PDU-A1:")]
    assert len(found) == 1 and found[0].severity == ERROR
    assert found[0].message.startswith(
        f"R01-PDU-A1: phases L1 {lines['L1']:.1f} A / L2 {lines['L2']:.1f} A / L3 {lines['L3']:.1f} A, "
        f"imbalance {imbalance:.0%} (max |I − I_avg| / I_avg), limit 20%; the cord of R01-")
    assert found[0].message.endswith("(L3)")  # a free outlet on the light phase is named


def test_after_edits_the_kept_findings_match_a_full_run(pod):
    validator = Validator(pod)
    history = History(pod)
    rack_id = next(r.id for r in pod.racks.values() if r.name == "R01")
    pdu_a1 = next(d for d in pod.devices_in(rack_id) if d.name == "PDU-A1")
    edits = (lambda: history.push(SetFields({pdu_a1.id: {"name": "PDU-B9"}})),  # its cords now on side B
             lambda: history.push(SetFields({rack_id: {"name": "R99"}})),  # worded with the new name
             history.undo, history.undo)
    for edit in edits:
        validator.update(edit())
        kept = sorted((f.rule, f.message) for f in validator.findings if f.rule in CORD_RULES)
        assert kept == sorted((f.rule, f.message) for f in validate(pod) if f.rule in CORD_RULES)
        if edit is edits[0]:
            p11 = [m for rule, m in kept if rule == "P11"]
            assert p11 and all(re.fullmatch(r"R01-N\d: with side B out [0-3] PSUs? × 3,300 W = [0-9,]+ W < "
                                            r"12,000 W peak", m) for m in p11), p11
    assert not [f for f in validator.findings if f.rule in CORD_RULES and f.rule != "P12"]


def test_a_plan_without_any_cords_gets_one_p10_line(pod):
    History(pod).push(RemoveObjects(list(pod.links_in(POWER))))
    devices = [d for d in pod.devices.values() if pod.catalog[d.type].psu_count and pod.catalog[d.type].kind != "rack_pdu"]
    psus = sum(pod.catalog[d.type].psu_count for d in devices)
    assert [(f.message, f.severity) for f in _found(pod, "P10")] == [
        ((f"No power cords: {psus:,} PSUs of {len(devices):,} devices are on no outlet (not planned yet; Plan ▸ "
          f"Generate fabric…, or planner fabric, cords them)"), INFO)]
    assert _found(pod, "P11") == _found(pod, "P12") == _found(pod, "P13") == []


def test_a_psu_of_no_given_inlet_is_a_c14_unless_its_failover_current_is_over_the_c14s_10_a(pod):
    catalog, volts = pod.catalog, _volts_ln() * pod.basis.power_factor
    big = catalog["sw-64x800g-2u-eth"]
    leaf = next(catalog[d.type] for d in pod.devices.values() if d.role == "leaf")
    assert not big.psu_inlet and big.psu_count == 2  # 2.7 kW peak on 1+1: one cord carries it all
    assert round(big.power_peak_w / volts, 2) == 11.86 and big.power_peak_w / volts > 10  # IEC 60320: C14 10 A
    assert (psu_inlet(pod, big), outlet_for_inlet(pod, big)) == ("C20", "C19")
    assert not leaf.psu_inlet and leaf.power_peak_w / max(leaf.psu_count // 2, 1) / volts <= 10
    assert (psu_inlet(pod, leaf), outlet_for_inlet(pod, leaf)) == ("C14", "C13")
    pod.basis.load_basis = "steady"  # 1.4 kW typical: 6.2 A, a C14 carries it
    assert round(big.power_w / volts, 1) == 6.2 and psu_inlet(pod, big) == "C14"


def test_p14_a_cord_over_its_connectors_rating_with_one_side_out(pod):
    leaf = next(d for d in pod.devices.values() if d.role == "leaf" and d.name == "L1")
    on_c14 = dataclasses.replace(pod.catalog["sw-64x800g-2u-eth"], key="sw-800g-c14", psu_inlet="C14", custom=True,
                                 port_cages=pod.catalog[leaf.type].port_cages)
    pod.catalog.add(on_c14)
    assert _found(pod, "P14") == []
    History(pod).push(SetFields({leaf.id: {"type": on_c14.key}}))  # its cords stay on their C13 outlets
    amps = on_c14.power_peak_w / (_volts_ln() * pod.basis.power_factor)  # B out: PSU1 alone carries 2.7 kW
    rack = pod.racks[leaf.rack].name
    expected = []
    for psu in ("PSU1", "PSU2"):
        cord = _cord(pod, leaf.id, psu)
        assert pod.catalog[pod.devices[cord.b_device].type].outlet(cord.b_port).outlet == "C13"
        expected.append(f"{rack}-L1 {psu} on {rack}-{pod.devices[cord.b_device].name} {cord.b_port}: {amps:.1f} A "
                        f"with the other side out, above the C13–C14 cord's 10 A (IEC 60320); it wants a C20 inlet "
                        f"on a C19 outlet")
    found = _found(pod, "P14")
    assert sorted(f.message for f in found) == sorted(expected) and {f.severity for f in found} == {ERROR}
    assert round(amps, 1) == 11.9
    pod.basis.load_basis = "steady"  # 1.4 kW typical: 6.2 A on each cord in failover, within 10 A
    assert _found(pod, "P14") == []


def test_a_rename_words_again_only_the_held_findings_that_name_what_it_touched(pod):
    first, second = _device(pod, "R01", "N1"), _device(pod, "R02", "N1")
    History(pod).push(RemoveObjects([_cord(pod, first.id, "PSU3").id, _cord(pod, second.id, "PSU3").id]))
    validator = Validator(pod)
    before = {f.message: f for f in validator.findings if f.rule == "P10"}
    assert sorted(before) == [f"R0{i}-N1 PSU3: no power cord (wants a C19 outlet of a rack PDU in its rack)"
                              for i in (1, 2)]
    rack_id = first.rack
    validator.update(History(pod).push(SetFields({rack_id: {"name": "RX1"}})))
    after = {f.message: f for f in validator.findings if f.rule == "P10"}
    assert sorted(after) == ["R02-N1 PSU3: no power cord (wants a C19 outlet of a rack PDU in its rack)",
                             "RX1-N1 PSU3: no power cord (wants a C19 outlet of a rack PDU in its rack)"]
    kept = "R02-N1 PSU3: no power cord (wants a C19 outlet of a rack PDU in its rack)"
    assert after[kept] is before[kept]  # not worded again: it names nothing the rename touched
    assert sorted(after) == sorted(f.message for f in validate(pod) if f.rule == "P10")
    other = next(r.id for r in pod.racks.values() if r.name == "R03")  # named by no record: none worded
    validator.update(History(pod).push(SetFields({other: {"name": "RX3"}})))
    assert all(f is after[f.message] for f in validator.findings if f.rule == "P10")
