"""Cabling by hand (issue 18): connect, rewire and delete as undoable commands, checked live by the
N-rules like a generated cable."""

from __future__ import annotations

import pytest

from planner.commands import History, Refusal
from planner.commands.edits import place_device
from planner.fabric.hand_commands import (
    cabled_ports,
    connect_command,
    delete_cables_command,
    free_ports,
    past_planned,
    rewire_command,
)
from planner.fabric.routing import Router, route
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.labels import cable_label
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF
from planner.rules.engine import Validator


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod", 12))


@pytest.fixture
def pod(pod_text):
    """A clean 12-node pod with a new node N5 in R01 (U17), all its ports free."""
    doc = loads(pod_text)
    place_device(doc, "node-8gpu-liquid-4u", "rack-1", 17).apply(doc)
    return doc


def named(doc, rack_name: str, device_name: str) -> str:
    rack = next(r for r in doc.racks.values() if r.name == rack_name)
    return next(d.id for d in doc.devices_in(rack.id) if d.name == device_name)


def round_trip(doc, command) -> None:
    before = dumps(doc)
    command.apply(doc)
    after = dumps(doc)
    assert after != before
    command.revert(doc)
    assert dumps(doc) == before
    command.apply(doc)
    assert dumps(doc) == after


def test_connect_routes_labels_and_orients_a_new_cable(pod):
    node, leaf = named(pod, "R01", "N5"), named(pod, "R02", "L1")
    port = free_ports(pod, leaf)[0]
    command = connect_command(pod, leaf, port, node, "P1")  # picked from the leaf: still node first
    assert command.text == f"Connect R02 L1 {port} to R01 N5 P1"
    change = command.apply(pod)
    (link_id,) = change.added
    link = pod.links[link_id]
    assert (link.a_device, link.a_port, link.b_device, link.b_port) == (node, "P1", leaf, port)
    assert (link.tier, link.rail, link.label, link.state) == (TIER_NODE_LEAF, 1, "", "planned")
    expected = route(pod, link)
    assert (link.media, link.length_m, link.stock_m) == (expected.media, expected.length_m, expected.stock_m)
    assert link.media and link.stock_m >= link.length_m > 0
    assert cable_label(pod, link) == f"R01-U17-N5-P1 ↔ R02-U01-L1-{port}"
    assert cabled_ports(pod, node) == {"P1": link_id}
    assert "P1" not in free_ports(pod, node)


def test_connect_round_trips_and_uses_a_given_router(pod):
    node, leaf = named(pod, "R01", "N5"), named(pod, "R02", "L1")
    round_trip(pod, connect_command(pod, node, "P1", leaf, free_ports(pod, leaf)[0], router=Router(pod)))


def test_connect_refuses_used_missing_and_self_ports(pod):
    node, leaf, old = named(pod, "R01", "N5"), named(pod, "R02", "L1"), named(pod, "R01", "N1")
    used = next(p for p in cabled_ports(pod, leaf))
    with pytest.raises(Refusal, match=r"R02 L1 .* is already cabled to"):
        connect_command(pod, node, "P1", leaf, used)
    with pytest.raises(Refusal, match="R01 N1 P1 is already cabled"):
        connect_command(pod, old, "P1", leaf, free_ports(pod, leaf)[0])
    with pytest.raises(Refusal, match=r"has no port 'P9': its ports are P1 … P8"):
        connect_command(pod, node, "P9", leaf, free_ports(pod, leaf)[0])
    with pytest.raises(Refusal, match="has no port '65/1'"):
        connect_command(pod, node, "P1", leaf, "65/1")
    with pytest.raises(Refusal, match="both ends are on R01 N5"):
        connect_command(pod, node, "P1", node, "P2")
    pdu = named(pod, "R01", "PDU-A1")
    with pytest.raises(Refusal, match="has no port '1': its ports are mgmt0, O1 … O42"):  # every network's
        connect_command(pod, node, "P1", pdu, "1")
    with pytest.raises(Refusal, match="no device"):
        connect_command(pod, node, "P1", "dev-999", "1/1")


def _rules(validator) -> list[str]:
    """The compute fabric's rules (N1–N9) with errors or warnings: the node added bare has no
    cords, hoses or management cables, which the other networks' rules report."""
    return [f.rule for f in validator.findings if f.severity != "info" and f.rule in {f"N{n}" for n in range(1, 10)}]


def test_a_wrong_rail_cable_is_an_n1_error_until_rewired_and_undo_restores(pod):
    history = History(pod)
    validator = Validator(pod)
    start, at_start = dumps(pod), _rules(validator)
    assert at_start == ["N6"]  # the new node reaches nothing yet
    node, leaf1, leaf2 = named(pod, "R01", "N5"), named(pod, "R02", "L1"), named(pod, "R02", "L2")
    wrong = free_ports(pod, leaf2)[0]
    router = validator.ctx.router()
    change = history.push(connect_command(pod, node, "P1", leaf2, wrong, router=router))
    validator.update(change)
    (link_id,) = change.added
    n1 = [f for f in validator.findings if f.rule == "N1"]
    assert _rules(validator) == ["N1"] and len(n1) == 1 and link_id in n1[0].subjects
    assert f"R01-U17-N5-P1 ↔ R02-U02-L2-{wrong}: GPU 1" in n1[0].message and "rail-2 leaf L2" in n1[0].message

    right = free_ports(pod, leaf1)[0]
    command = rewire_command(pod, link_id, "b", leaf1, right, router=router)
    assert command.text == f"Rewire R01 N5 P1 from R02 L2 {wrong} to R02 L1 {right}"
    validator.update(history.push(command))
    assert not _rules(validator)
    link = pod.links[link_id]
    assert (link.b_device, link.b_port, link.rail, link.label) == (leaf1, right, 1, "")
    assert cable_label(pod, link).endswith(f"R02-U01-L1-{right}")
    assert wrong in free_ports(pod, leaf2) and right not in free_ports(pod, leaf1)

    validator.update(history.undo())
    assert _rules(validator) == ["N1"]
    validator.update(history.undo())
    assert _rules(validator) == at_start
    assert dumps(pod) == start


def test_rewire_keeps_id_and_typed_label_and_resets_the_state(pod):
    leaf, spine = named(pod, "R02", "L1"), named(pod, "R02", "S1")
    link = next(lk for lk in pod.links.values() if lk.tier == TIER_LEAF_SPINE and lk.a_device == leaf)
    pod.set_fields(link.id, {"label": "C-00042", "state": "tested", "state_note": "flaky"})
    before = dumps(pod)
    # end A (the leaf) to a free port of another leaf: still leaf-spine, on that leaf's rail
    leaf3 = named(pod, "R02", "L3")
    port = [p for p in free_ports(pod, leaf3) if p[0].isdigit()][-1]  # a cage, not mgmt0 or a PSU
    command = rewire_command(pod, link.id, "a", leaf3, port)
    command.apply(pod)
    moved = pod.links[link.id]
    assert (moved.a_device, moved.a_port, moved.b_device) == (leaf3, port, spine if moved.b_device == spine
                                                                else moved.b_device)
    assert (moved.tier, moved.rail, moved.label, moved.state, moved.state_note) == \
        (TIER_LEAF_SPINE, 3, "C-00042", "planned", "")
    command.revert(pod)
    assert dumps(pod) == before


def test_rewire_refuses_a_used_port_the_same_end_and_its_own_device(pod):
    node, leaf = named(pod, "R01", "N1"), named(pod, "R02", "L1")
    link = pod.links[cabled_ports(pod, node)["P1"]]
    with pytest.raises(Refusal, match="already ends at"):
        rewire_command(pod, link.id, "b", link.b_device, link.b_port)
    other = next(p for p, i in cabled_ports(pod, leaf).items() if i != link.id)
    with pytest.raises(Refusal, match="is already cabled"):
        rewire_command(pod, link.id, "b", leaf, other)
    with pytest.raises(Refusal, match="both ends are on R01 N1"):
        rewire_command(pod, link.id, "b", node, "P1")
    with pytest.raises(Refusal, match="no cable"):
        rewire_command(pod, "link-99999", "b", leaf, "7/1")
    # moving an end to another port of the same device is a rewire like any other
    spare = free_ports(pod, leaf)[0]
    assert rewire_command(pod, link.id, "b", leaf, spare).text.endswith(f"to R02 L1 {spare}")


def test_delete_cables_is_one_step_with_a_count_or_a_label(pod):
    ids = sorted(pod.links)[:3]
    command = delete_cables_command(pod, ids)
    assert command.text == "Delete 3 cables"
    round_trip(pod, command)
    one = delete_cables_command(pod, ["link-5"]) if "link-5" in pod.links else None
    assert one is not None and one.text.startswith("Delete cable R01-U")
    with pytest.raises(Refusal, match="select the cables"):
        delete_cables_command(pod, [])
    with pytest.raises(Refusal, match="no cable"):
        delete_cables_command(pod, ["link-99999"])


def test_past_planned_names_cables_an_installer_has_touched(pod):
    ids = sorted(pod.links)[:4]
    pod.set_fields(ids[1], {"state": "verified"})
    pod.set_fields(ids[3], {"state": "faulty"})
    assert past_planned(pod, ids) == [ids[1], ids[3]]
