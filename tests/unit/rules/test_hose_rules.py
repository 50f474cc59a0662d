"""C10 and C11 on the pod: a hosed pod is clean; a removed hose, a supply on a return and a QD
used twice are C10 errors naming the device and QD; a manifold rated below its devices' flow is
a C11 error with the flow worked here from the catalogue and the basis."""

from __future__ import annotations

import pytest

from planner.commands.base import History, RemoveObjects, SetFields
from planner.fabric.hoses import plan_hoses
from planner.layout.templates import build_template
from planner.model.catalog import RACK_MANIFOLD
from planner.model.ports import COOLANT
from planner.rules.engine import Validator, validate
from planner.rules.finding import INFO


@pytest.fixture
def pod():
    doc = build_template("pod")
    History(doc).push(plan_hoses(doc))
    return doc


def _of(findings, rule_id):
    return [f for f in findings if f.rule == rule_id]


def _hose(doc, port="SUP1"):
    return next(link for link in doc.links_in(COOLANT).values() if link.a_port == port)


def test_the_hosed_pod_has_no_hose_findings(pod):
    assert not _of(validate(pod), "C10") and not _of(validate(pod), "C11")


def test_a_removed_hose_is_named_by_c10(pod):
    hose = _hose(pod)
    host = pod.hostname(pod.devices[hose.a_device])
    History(pod).push(RemoveObjects([hose.id]))
    found = _of(validate(pod), "C10")
    assert any(f.message.startswith(f"{host} SUP1 (supply): no hose to a manifold") for f in found), found
    assert all(f.severity == "error" for f in found)


def test_incremental_validation_sees_the_removed_hose(pod):
    validator = Validator(pod)
    hose = _hose(pod)
    change = RemoveObjects([hose.id]).apply(pod)
    validator.update(change)
    assert any(hose.a_device in f.subjects for f in _of(validator.findings, "C10"))


def test_supply_on_a_return_and_a_qd_twice_are_c10_errors(pod):
    first, second = list(pod.links_in(COOLANT).values())[:2]  # SUP1 and RET1 of the same node
    History(pod).push(SetFields({first.id: {"b_port": second.b_port}}))
    messages = [f.message for f in _of(validate(pod), "C10")]
    manifold = pod.hostname(pod.devices[first.b_device])
    assert any("supply on the manifold's return" in m for m in messages), messages
    assert any(m.startswith(f"{manifold} {second.b_port}: 2 hoses on one QD") for m in messages), messages


def test_a_plan_with_no_hoses_gets_one_line(pod):
    History(pod).push(RemoveObjects(list(pod.links_in(COOLANT))))
    found = _of(validate(pod), "C10")
    assert len(found) == 1 and found[0].message.startswith("No coolant hoses: 32 liquid-cooled devices")
    assert found[0].severity == INFO and "not planned yet" in found[0].message


def test_a_manifold_rated_below_its_flow_is_c11_with_the_numbers(pod):
    manifold = next(d for d in pod.devices.values() if pod.catalog[d.type].kind == RACK_MANIFOLD)
    hosed = {link.a_device for link in pod.links_in(COOLANT).values() if link.b_device == manifold.id}
    basis = pod.basis
    props = basis.fluid_properties
    heat = 0.0
    for device_id in hosed:
        item = pod.catalog[pod.devices[device_id].type]
        power = (item.power_peak_w or item.power_w) if basis.load_basis == "peak" else item.power_w
        heat += power * item.liquid_fraction
    flow = 60 * heat / 1000 / (props["density_kg_per_l"] * props["cp_kj_per_kg_k"] * basis.delta_t_k)
    assert len(hosed) == 4 and flow > 20  # four 4U liquid nodes, ~9 kW of liquid heat each
    pod.catalog[manifold.type].rated_flow_lpm = 20.0
    found = _of(validate(pod), "C11")
    assert len(found) == 8  # every rack's manifold is of the one type
    mine = next(f for f in found if f.subjects == (manifold.id,))
    assert f"= {flow:,.1f} L/min of {basis.fluid}, rated 20.0 L/min" in mine.message
    assert f"{heat / 1000:,.1f} kW liquid heat" in mine.message and mine.severity == "error"


def test_a_renamed_rack_rewords_the_finding_incrementally(pod):
    hose = _hose(pod)
    device = pod.devices[hose.a_device]
    validator = Validator(pod)
    validator.update(RemoveObjects([hose.id]).apply(pod))
    validator.update(SetFields({device.rack: {"name": "RX9"}}).apply(pod))
    found = [f.message for f in _of(validator.findings, "C10")]
    assert found == [f"RX9-{device.name} SUP1 (supply): no hose to a manifold in RX9"]
    assert found == [f.message for f in _of(validate(pod), "C10")]
