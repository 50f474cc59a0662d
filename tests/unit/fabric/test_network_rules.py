"""Network rules (N1–N7) on a generated pod, each broken on purpose."""

from __future__ import annotations

import pytest

from planner.commands.base import History, RemoveObjects, SetFields
from planner.layout.templates import build_template
from planner.model.labels import cable_label
from planner.rules.engine import Validator, validate


@pytest.fixture(scope="module")
def pod_text():
    from planner.io import dumps

    return dumps(build_template("pod", 12))


@pytest.fixture
def pod(pod_text):
    from planner.io import loads

    return loads(pod_text)


def _network(findings):
    return [(f.rule, f.severity, f.message) for f in findings if f.rule.startswith("N")]


def _node_leaf(doc, rail):
    return next(link for link in doc.links.values() if link.tier == "node-leaf" and link.rail == rail)


def test_clean(pod):
    assert _network(validate(pod)) == []


def test_n1_gpu_on_wrong_rail_leaf(pod):
    link = _node_leaf(pod, 1)
    other = next(d for d in pod.devices.values() if d.role == "leaf" and d.rail == 2)
    pod.set_fields(link.id, {"b_device": other.id, "b_port": "32/2"})
    found = _network(validate(pod))
    assert ("N1", "error") in [(r, s) for r, s, _ in found]
    assert any("GPU 1" in m and "rail-2 leaf" in m for _, _, m in found)


def test_n2_port_used_twice(pod):
    a, b = [link for link in pod.links.values() if link.tier == "node-leaf"][:2]
    pod.set_fields(b.id, {"a_device": a.a_device, "a_port": a.a_port})
    assert any(r == "N2" and "used by 2 cables" in m for r, _, m in _network(validate(pod)))


def test_n4_n5_uneven_and_oversubscribed_leaf(pod):
    leaf = next(d for d in pod.devices.values() if d.role == "leaf")
    ups = [link for link in pod.links_of(leaf.id) if link.tier == "leaf-spine"]
    History(pod).push(RemoveObjects([ups[0].id]))
    found = _network(validate(pod))
    assert any(r == "N4" and "not spread evenly" in m for r, _, m in found)
    # 12 nodes on a full-SU leaf: 12 downlinks on 31 uplinks is fine; drop all but 6 uplinks
    History(pod).push(RemoveObjects([link.id for link in ups[1:26]]))
    found = _network(validate(pod))
    assert any(r == "N5" and "12 downlinks on 6 uplinks = 2.00:1" in m for r, _, m in found)


def test_n4_n5_follow_each_cable_edit_as_a_full_run_does(pod):
    """The live validator's uplinks per leaf (kept between edits in ``FabricIndex``) are counted
    again after an uplink goes, but not after a node's cable goes: each time as a full run says."""
    validator = Validator(pod)
    history = History(pod)
    leaf = next(d for d in pod.devices.values() if d.role == "leaf")
    up = next(link for link in pod.links_of(leaf.id) if link.tier == "leaf-spine")
    node_cable = _node_leaf(pod, 3).id
    for edit in (lambda: history.push(RemoveObjects([node_cable])), lambda: history.push(RemoveObjects([up.id])),
                 history.undo, history.undo):
        validator.update(edit())
        assert _network(validator.findings) == _network(validate(pod))
        assert any(r == "N4" for r, _, _ in _network(validator.findings)) == (up.id not in pod.links)


def test_n6_unreachable_node(pod):
    node = next(d for d in pod.devices.values() if d.type.startswith("node"))
    History(pod).push(RemoveObjects([link.id for link in pod.links_of(node.id)]))
    found = _network(validate(pod))
    assert any(r == "N6" and "1 of 12 GPU nodes cannot reach" in m for r, _, m in found)


def test_n7_reach_and_incremental_update(pod):
    validator = Validator(pod)
    link = _node_leaf(pod, 3)
    change = History(pod).push(SetFields({link.id: {"media": "dac", "length_m": 3.5}}))
    validator.update(change)
    messages = [f.message for f in validator.findings if f.rule == "N7"]
    assert messages == [f"{cable_label(pod, link)}: 3.50 m exceeds Passive copper DAC reach 3 m"]


def test_n3_speed_mismatch(pod):
    node = pod.devices[_node_leaf(pod, 1).a_device]
    custom = pod.catalog[node.type]
    slow = type(custom)(**{**vars(custom), "key": "node-slow", "port_speed_gbps": 200, "custom": True})
    pod.catalog.add(slow)
    pod.set_fields(node.id, {"type": "node-slow"})
    found = _network(validate(pod))
    assert any(r == "N3" and "200 Gb/s port cabled to a 400 Gb/s port" in m for r, _, m in found)


def test_n8_lengths_stale_after_a_rack_moves(pod):
    validator = Validator(pod)
    history = History(pod)
    node_link = _node_leaf(pod, 1)
    rack_id = pod.devices[node_link.a_device].rack
    change = history.push(SetFields({rack_id: {"x": pod.racks[rack_id].x - 0.4}}))
    validator.update(change)
    found = [f for f in validator.findings if f.rule == "N8"]
    assert found and all("Plan ▸ Recompute cable lengths" in f.message for f in found)
    assert node_link.id in {s for f in found for s in f.subjects}
    from planner.fabric.relength import recompute_lengths

    validator.update(history.push(recompute_lengths(pod, list(pod.links))))
    assert not [f for f in validator.findings if f.rule == "N8"]


def test_n8_error_when_a_move_outgrows_the_stock_length(pod):
    link = _node_leaf(pod, 1)
    rack_id = pod.devices[link.a_device].rack
    pod.set_fields(rack_id, {"x": pod.racks[rack_id].x - 6.0})
    [found] = [f for f in validate(pod) if f.rule == "N8" and link.id in f.subjects]
    assert found.severity == "error"
    if len(found.subjects) == 1:
        assert found.message.startswith(cable_label(pod, link)) and "longer than its" in found.message
    else:  # its rack pair's cables outgrown with it, in one finding
        rack, far = (pod.racks[pod.devices[d].rack].name for d in (link.a_device, link.b_device))
        assert found.message.startswith((f"{rack} ↔ {far}: ", f"{far} ↔ {rack}: "))
        assert f"{len(found.subjects)} cables' routes now " in found.message and "stock cables" in found.message

