"""Rules of the storage and management networks (N13–N15) on the generated pod, each broken on
purpose; and N3 covering the port groups beyond the rails."""

from __future__ import annotations

import pytest

from planner.commands.base import History, RemoveObjects, SetFields
from planner.layout.templates import build_template
from planner.model.labels import cable_label
from planner.model.networks import ROLE_OOB_ACCESS, TIER_OOB_ACCESS
from planner.model.ports import COMPUTE, INBAND, OOB, STORAGE_NET
from planner.rules.engine import Validator, validate


@pytest.fixture(scope="module")
def pod_text():
    from planner.io import dumps

    return dumps(build_template("pod"))


@pytest.fixture
def pod(pod_text):
    from planner.io import loads

    return loads(pod_text)


def _found(findings, *rules):
    return [(f.rule, f.severity, f.message) for f in findings if f.rule in rules]


def test_clean(pod):
    assert _found(validate(pod), "N3", "N13", "N14", "N15") == []


def test_n13_basis_above_what_the_plan_gives(pod):
    # 2 storage nodes × 2 cages × 400 Gb/s = 1,600 Gb/s for 256 GPUs: 6.25 Gb/s = 0.781 GB/s per GPU
    # (each storage leaf's 2 × 400 Gb/s uplinks for its 128 GPUs give the same); the basis asks 1 GB/s.
    pod.basis.storage_read_gbps_per_gpu = 1.0
    assert _found(validate(pod), "N13") == [
        ("N13", "warning", ("storage read 0.781 GB/s per GPU < 1 GB/s basis (limited by storage nodes' ports "
                           "1,600 Gb/s; 256 GPUs)"))]


def test_n13_a_storage_node_unplugged(pod):
    # ST2's two cables gone: 800 Gb/s / 256 GPUs = 3.125 Gb/s = 0.391 GB/s < 0.488 GB/s.
    validator = Validator(pod)
    st2 = next(d.id for d in pod.devices.values() if d.name == "ST2")
    cables = [link.id for link in pod.links_in(STORAGE_NET).values() if st2 in (link.a_device, link.b_device)]
    assert len(cables) == 2
    validator.update(History(pod).push(RemoveObjects(cables)))
    assert ("N13", "warning", ("storage read 0.391 GB/s per GPU < 0.488 GB/s basis (limited by storage nodes' "
                              "ports 800 Gb/s; 256 GPUs)")) in _found(validator.findings, "N13")
    assert _found(validator.findings, "N14")[0][2].startswith("2 ports not cabled on the storage network: ")


def test_n14_unconnected_ports_named(pod):
    validator = Validator(pod)
    bmc = next(link for link in pod.links_in(OOB).values() if link.a_port == "BMC")
    e2 = next(link for link in pod.links_in(INBAND).values() if link.a_port == "E2")
    node = pod.devices[bmc.a_device]
    where = f"{pod.racks[node.rack].name}/{node.name}"
    validator.update(History(pod).push(RemoveObjects([bmc.id, e2.id])))
    node2 = pod.devices[e2.a_device]
    assert sorted(_found(validator.findings, "N14")) == sorted([
        ("N14", "warning", f"1 port not cabled on the out-of-band management network: {where} BMC"),
        ("N14", "warning", (f"1 port not cabled on the in-band management network: "
                           f"{pod.racks[node2.rack].name}/{node2.name} E2"))])


def _overfill_mo1(pod):
    """MO1, the out-of-band switch, and the edit that puts 49 access cables on its 48 access ports:
    its 10 own, 38 moved onto its free ports 11 … 48 and one onto its spare uplink swp51."""
    switch = next(d for d in pod.devices.values() if d.role == ROLE_OOB_ACCESS and d.name == "MO1")
    own = {link.b_port for link in pod.links_in(OOB).values() if link.b_device == switch.id}
    free = [str(n) for n in range(1, 49) if str(n) not in own] + ["swp51"]
    assert len(own) + len(free) == 49
    others = [link for link in pod.links_in(OOB).values()
              if link.tier == TIER_OOB_ACCESS and link.b_device != switch.id][:len(free)]
    return switch, SetFields({link.id: {"b_device": switch.id, "b_port": port} for link, port in zip(others, free)})


def test_n14_access_switch_over_its_ports(pod):
    switch, overfill = _overfill_mo1(pod)
    History(pod).push(overfill)
    assert ("N14", "error", (f"{pod.racks[switch.rack].name}/MO1: 49 out-of-band management access cables on a "
                            f"{pod.catalog[switch.type].name} of 48 access ports")) in _found(validate(pod), "N14")


def test_n14_overfull_switch_follows_each_edit_as_a_full_run_does(pod):
    """Kept through an edit of another network's cables (a compute cable gone), worded again on a
    rename of its rack, gone with the undo: incremental findings equal a full run's each time."""
    validator = Validator(pod)
    history = History(pod)
    switch, overfill = _overfill_mo1(pod)
    steps = [overfill, RemoveObjects([next(iter(pod.links_in(COMPUTE)))]), SetFields({switch.rack: {"name": "RX9"}})]
    for step in steps:
        validator.update(history.push(step))
        assert _found(validator.findings, "N14") == _found(validate(pod), "N14")
    assert ("N14", "error", (f"RX9/MO1: 49 out-of-band management access cables on a "
                            f"{pod.catalog[switch.type].name} of 48 access ports")) in _found(validator.findings, "N14")
    for _step in steps:
        validator.update(history.undo())
        assert _found(validator.findings, "N14") == _found(validate(pod), "N14")
    assert _found(validator.findings, "N14") == []


def test_n15_media_and_connectors(pod):
    history = History(pod)
    bmc = next(link for link in pod.links_in(OOB).values() if link.a_port == "BMC")
    history.push(SetFields({bmc.id: {"media": "dac"}}))
    assert _found(validate(pod), "N15") == [
        ("N15", "error", f"{cable_label(pod, bmc)}: Passive copper DAC does not plug into RJ45 ports")]
    history.undo()
    e1 = next(link for link in pod.links_in(INBAND).values() if link.a_port == "E1")
    history.push(SetFields({e1.id: {"a_port": "BMC"}, bmc.id: {"a_port": "E1"}}))  # swapped on the node
    found = _found(validate(pod), "N15")
    assert ("N15", "error", f"{cable_label(pod, pod.links[e1.id])}: RJ45 port cabled to QSFP28 port") in found
    assert ("N15", "error", f"{cable_label(pod, pod.links[bmc.id])}: QSFP112 port cabled to RJ45 port") in found


def test_n3_checks_group_port_speeds(pod):
    # N3 reads every port through CatalogItem.ports(): an in-band E1 (100 Gb/s) on a storage leaf
    # (400 Gb/s) is a speed mismatch on the storage network, no N15 needed for speeds.
    history = History(pod)
    link = next(link for link in pod.links_in(STORAGE_NET).values() if link.a_port == "S1")
    history.push(SetFields({link.id: {"a_port": "E1"}}))
    assert ("N3", "error", f"{cable_label(pod, pod.links[link.id])}: 100 Gb/s port cabled to a 400 Gb/s port") \
        in _found(validate(pod), "N3")
