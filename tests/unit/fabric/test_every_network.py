"""Issue 21's must-show, on the plans users make: `planner fabric --json` reports every network's
switches and cables, and they agree with counts worked here from the catalogue and the basis;
every node's PSUs are on both sides' PDUs, every liquid-cooled node has its two hoses, and
regenerating the whole hall (Plan ▸ Generate fabric, `fabric -o`) changes no cable of any network.
"""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest

from planner.cli import main
from planner.commands.base import History
from planner.fabric.hall import cable_hall, summary
from planner.fabric.placement import row_key
from planner.fabric.sizing import default_switch, node_devices
from planner.io import save
from planner.layout.templates import build_template
from planner.model.catalog import NODE, RACK_MANIFOLD, RACK_PDU, STORAGE
from planner.model.networks import ROLE_INBAND_ACCESS, ROLE_OOB_ACCESS, network_of
from planner.model.ports import COOLANT, INBAND, OOB, POWER, STORAGE_NET


def _fabric_json(doc, tmp_path) -> dict:
    path = tmp_path / "plan.hall"
    save(doc, path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["fabric", str(path), "--json"]) == 0
    return json.loads(out.getvalue())["networks"]


def _ports(doc, devices, network) -> int:
    return sum(len(doc.catalog[d.type].port_names(network)) for d in devices)


def _hand_counts(doc) -> dict[str, dict[str, int]]:
    """Each network's cables as the catalogue and the basis say they must be, counted from the
    plan's devices without the generators: every storage, in-band, OOB port, PSU and QD once."""
    devices = list(doc.devices.values())
    kind = {d.id: doc.catalog[d.type].kind for d in devices}
    nodes = [d for d in devices if kind[d.id] == NODE]
    stores = [d for d in devices if kind[d.id] == STORAGE]
    oob_access = [d for d in devices if d.role == ROLE_OOB_ACCESS]
    inband_access = [d for d in devices if d.role == ROLE_INBAND_ACCESS]
    # OOB: every device's OOB port but the OOB switches' own (reached over their uplinks)
    managed = [d for d in devices if not d.role.startswith("oob-")]
    liquid = [d for d in devices if doc.catalog[d.type].coolant_ports and kind[d.id] == NODE]
    corded = [d for d in devices if doc.catalog[d.type].psu_count]
    return {
        "storage-access": _ports(doc, nodes, STORAGE_NET) + _ports(doc, stores, STORAGE_NET),
        "inband-access": _ports(doc, nodes, INBAND),
        "inband-uplink": 2 * len(inband_access),  # one to each switch of the aggregation pair
        "oob-access": _ports(doc, managed, OOB),
        "oob-uplink": 2 * len(oob_access),
        "power-cord": sum(doc.catalog[d.type].psu_count for d in corded),
        "coolant-hose": 2 * len(liquid),
    }


@pytest.fixture(scope="module")
def pod():
    return build_template("pod")


@pytest.fixture(scope="module")
def hall():
    return build_template("hall", nodes=1024)


def test_the_pods_networks_agree_with_the_catalogue_and_the_basis(pod, tmp_path):
    networks = _fabric_json(pod, tmp_path)
    links = {tier: n for held in networks.values() for tier, n in held["links"].items()}
    assert {tier: links[tier] for tier in _hand_counts(pod)} == _hand_counts(pod)
    # Worked by hand: 32 nodes x 8 GPUs x 0.488 GB/s x 8 = 999.4 Gb/s of reads; a storage node
    # serves 2 x 400 Gb/s, so 2 of them. 32 x 2 (S1, S2) + 2 x 2 = 68 storage ports > 64 on one
    # switch: leaves of k - u ports, u = 2 uplinks (each leaf's 32 GPU ports take half the reads,
    # 499.7 Gb/s = 2 x 400 G), 2 leaves, 4 uplinks on 1 spine.
    read = 32 * 8 * pod.basis.storage_read_gbps_per_gpu * 8
    stores = math.ceil(read / 800)
    assert stores == 2 and sum(1 for d in pod.devices.values() if pod.catalog[d.type].kind == STORAGE) == 2
    uplinks = math.ceil(read / 2 / 400)
    leaves = math.ceil((32 * 2 + stores * 2) / (64 - uplinks))
    assert networks["storage"]["switches"] == {"storage-leaf": leaves, "storage-spine": 1}
    assert networks["storage"]["links"] == {"storage-access": 68, "storage-uplink": leaves * uplinks}
    # In-band per row (one row): 64 E ports on 64-port switches keeping 2 for uplinks -> 2, and the pair.
    assert networks["inband"]["switches"] == {"inband-access": math.ceil(64 / 62), "inband-agg": 2}
    # OOB per rack: one access switch in each of the 9 racks, the pair in the network rack.
    assert networks["oob"]["switches"] == {"oob-access": len(pod.racks), "oob-agg": 2}
    nodes_psus = 32 * pod.catalog["node-8gpu-liquid-4u"].psu_count  # 10 each: 5+5
    assert links["power-cord"] > nodes_psus == 320  # and every switch's, storage node's and CDU's
    assert links["coolant-hose"] == 32 * 2


def test_a_1024_node_halls_networks_agree_with_the_catalogue_and_the_basis(hall, tmp_path):
    networks = _fabric_json(hall, tmp_path)
    links = {tier: n for held in networks.values() for tier, n in held["links"].items()}
    assert {tier: links[tier] for tier in _hand_counts(hall)} == _hand_counts(hall)
    read = 1024 * 8 * hall.basis.storage_read_gbps_per_gpu * 8  # 31,981 Gb/s
    stores = sum(1 for d in hall.devices.values() if hall.catalog[d.type].kind == STORAGE)
    assert stores == math.ceil(read / 800) == 40
    # Every storage leaf's uplinks carry its share of the reads: leaves x uplinks x 400 G >= reads.
    storage = networks["storage"]
    assert storage["links"]["storage-uplink"] * 400 >= read
    assert storage["links"]["storage-access"] == 1024 * 2 + 40 * 2
    per_leaf_up = storage["links"]["storage-uplink"] // storage["switches"]["storage-leaf"]
    assert storage["switches"]["storage-leaf"] == math.ceil((1024 * 2 + 80) / (64 - per_leaf_up))
    # OOB per rack: ⌈the rack's OOB ports / 48⌉ access switches (a network rack of 20 switches and
    # its PDUs has more than 48); in-band per row: ⌈the row's E ports / (64 − 2 uplinks)⌉.
    oob_ports: dict[str, int] = {}
    inband_ports: dict[str, int] = {}
    for device in hall.devices.values():
        if not device.role.startswith("oob-"):
            oob_ports[device.rack] = oob_ports.get(device.rack, 0) + _ports(hall, [device], OOB)
        if hall.catalog[device.type].kind == NODE:  # the nodes' E1, E2
            row = row_key(hall.racks[device.rack])
            inband_ports[row] = inband_ports.get(row, 0) + _ports(hall, [device], INBAND)
    assert networks["oob"]["switches"]["oob-access"] == sum(math.ceil(n / 48) for n in oob_ports.values())
    assert networks["inband"]["switches"]["inband-access"] == sum(math.ceil(n / 62) for n in inband_ports.values() if n)


@pytest.mark.parametrize("plan", ["pod", "hall"])
def test_every_node_is_corded_to_both_sides_and_hosed(plan, request):
    doc = request.getfixturevalue(plan)
    kind = {d.id: doc.catalog[d.type].kind for d in doc.devices.values()}
    for node in node_devices(doc):
        item = doc.catalog[node.type]
        cords = [link for link in doc.links_of(node.id) if network_of(link) == POWER]
        pdus = [doc.devices[link.b_device] for link in cords]
        assert sorted(link.a_port for link in cords) == sorted(item.port_names(POWER)), node.name
        assert all(kind[p.id] == RACK_PDU and p.rack == node.rack for p in pdus)
        sides = [p.name[len("PDU-")] for p in pdus]
        assert sides.count("A") == sides.count("B") == item.psu_count // 2, node.name
        hoses = [link for link in doc.links_of(node.id) if network_of(link) == COOLANT]
        assert sorted(link.a_port for link in hoses) == ["RET1", "SUP1"], node.name
        manifold = {link.b_device for link in hoses}
        assert len(manifold) == 1 and kind[manifold.pop()] == RACK_MANIFOLD


def test_regenerating_the_whole_pod_keeps_every_cable_of_every_network(tmp_path):
    doc = build_template("pod")
    before = {link.id: (link.a_device, link.a_port, link.b_device, link.b_port, link.state)
              for link in doc.links.values()}
    command = cable_hall(doc, default_switch(doc), doc.basis.oversubscription)
    History(doc).push(command)
    assert command.changes_nothing, summary(command)
    after = {link.id: (link.a_device, link.a_port, link.b_device, link.b_port, link.state)
             for link in doc.links.values()}
    assert after == before
    lines = summary(command)
    assert lines[0].startswith("cables: kept 512,") and len(lines) == 6
