"""Verify of the in-band management network from its Cumulus switches' LLDP files (issue 21).

The pod's in-band cables (each GPU node's E1 and E2 to an access switch cage, as the in-band
generator plans them, or drawn by hand here where the plan has none) are printed as lldpd prints
them on a Cumulus switch (``lldpcli -f json show neighbors``: the shape of
tests/data/discovery/lldp/, interfaces ``swp5``, a host neighbour's MAC as port id and its
interface name as description) and on the two hosts whose cables are swapped at the switch.
Verify reports exactly that pair, with the fix it gives a compute pair swapped at a leaf, and
leaves the compute cables and the power cords out of the verdict."""

from __future__ import annotations

import json
import zlib

import pytest

from planner.asbuilt.simulate import Faults, as_built, write_lldp
from planner.asbuilt.verify import read_discovery, update_command, verify
from planner.cli import main
from planner.commands.base import AddObjects, History
from planner.fabric.hand import hand_cable
from planner.io import save
from planner.io.discovery.naming import cumulus_name
from planner.layout.templates import build_template
from planner.model.catalog import NODE
from planner.model.networks import (
    NETWORK_OF_ROLE,
    ROLE_INBAND_ACCESS,
    TIER_INBAND_ACCESS,
    network_of,
)
from planner.model.objects import Device
from planner.model.ports import COMPUTE, INBAND, OOB

CUMULUS_DESCR = "Cumulus Linux version 5.9.1 running on Mellanox Technologies Ltd. MSN4600C"
HOST_DESCR = "Ubuntu 22.04.4 LTS Linux 5.15.0-105-generic #115-Ubuntu SMP x86_64"


def _cabled_by_hand(doc) -> None:
    """Two in-band access switches; node *i*'s E1 on the first's cage *i*+1, E2 on the second's."""
    item = doc.catalog.management_switch(INBAND)
    rack = next(r for r in sorted(doc.racks.values(), key=lambda r: r.name)
                if doc.lowest_free_u(r.id, item.height_u * 2) is not None)
    switches = []
    for name in ("IB1", "IB2"):
        device = Device(id=doc.new_id("dev"), type=item.key, name=name, rack=rack.id,
                        u=doc.lowest_free_u(rack.id, item.height_u), role=ROLE_INBAND_ACCESS)
        History(doc).push(AddObjects([device]))
        switches.append(device.id)
    nodes = sorted((d for d in doc.devices.values() if doc.catalog[d.type].kind == NODE), key=lambda d: d.id)
    cables = [hand_cable(doc, node.id, port, switch, str(index + 1))
              for index, node in enumerate(nodes) for port, switch in zip(("E1", "E2"), switches)]
    History(doc).push(AddObjects(cables))


@pytest.fixture(scope="module")
def pod():
    doc = build_template("pod")
    if not doc.links_in(INBAND):  # until the in-band generator cables the pod
        _cabled_by_hand(doc)
    return doc


def _mac(text: str) -> str:
    number = zlib.crc32(text.encode())
    return f"0c:42:a1:{number & 0xFF:02x}:{(number >> 8) & 0xFF:02x}:{(number >> 16) & 0xFF:02x}"


def _name(doc, end) -> str:
    """A port as its device's LLDP names it: a Cumulus cage ``swp<c>``, a host interface by its port."""
    device = doc.devices[end[0]]
    item = doc.catalog[device.type]
    cages = item.port_names()
    if item.lldp_naming == "cumulus" and end[1] in cages:
        return cumulus_name(item, cages.index(end[1]) + 1, 1)
    return end[1]


def _neighbour(doc, rid: int, there) -> dict:
    """One neighbour as lldpd's JSON writer prints it (see tests/data/discovery/lldp/)."""
    device = doc.devices[there[0]]
    switch = device.role in NETWORK_OF_ROLE
    host = doc.hostname(device)
    chassis = {"id": {"type": "mac", "value": _mac(host)}, "descr": CUMULUS_DESCR if switch else HOST_DESCR,
               "mgmt-ip": f"10.30.0.{rid}",
               "capability": [{"type": "Bridge", "enabled": switch}, {"type": "Router", "enabled": switch}]}
    if switch:
        port = {"id": {"type": "ifname", "value": _name(doc, there)}, "descr": "", "ttl": "120"}
    else:  # lldpd on Linux: the MAC as port id, the interface name as description
        port = {"id": {"type": "mac", "value": _mac(f"{host} {there[1]}")}, "descr": there[1], "ttl": "120"}
    return {"via": "LLDP", "rid": str(rid), "age": "0 day, 02:41:07", "chassis": {host: chassis}, "port": port}


def _write(doc, cabled: list[tuple[tuple[str, str], tuple[str, str]]], folder, hosts: set[str]) -> None:
    """``<hostname>.json`` of every switch, and of ``hosts``, for the cables as installed."""
    seen: dict[str, list[tuple[str, tuple[str, str]]]] = {}
    for a, b in cabled:
        for here, there in ((a, b), (b, a)):
            if doc.devices[here[0]].role in NETWORK_OF_ROLE or here[0] in hosts:
                seen.setdefault(here[0], []).append((_name(doc, here), there))
    for device_id, entries in seen.items():
        entries.sort(key=lambda e: (len(e[0]), e[0]))
        interface: object = [{local: _neighbour(doc, rid, there)} for rid, (local, there) in enumerate(entries, 1)]
        if len(entries) == 1:  # one neighbour: lldpd prints the object, not a list
            interface = {entries[0][0]: _neighbour(doc, 1, entries[0][1])}
        text = json.dumps({"lldp": {"interface": interface}}, indent=2)
        (folder / f"{doc.hostname(doc.devices[device_id])}.json").write_text(text + "\n", encoding="utf-8")


def test_a_pair_swapped_at_an_inband_switch_is_that_pair_with_the_compute_fix(pod, tmp_path):
    inband = list(pod.links_in(INBAND).values())
    access = [link for link in inband if link.tier == TIER_INBAND_ACCESS]
    assert len(access) >= 64  # every node's E1 and E2
    # two cables on neighbouring cages of one access switch, their node ends crossed at the switch
    by_switch: dict[str, list] = {}
    for link in access:
        by_switch.setdefault(link.b_device, []).append(link)
    switch, cables = next(iter(sorted(by_switch.items())))
    first, second = sorted(cables, key=lambda link: int(link.b_port))[4:6]
    assert pod.links[first.id].a_port in ("E1", "E2")
    installed = []
    for link in inband:
        a, b = (link.a_device, link.a_port), (link.b_device, link.b_port)
        if link.id == first.id:
            b = (second.b_device, second.b_port)
        elif link.id == second.id:
            b = (first.b_device, first.b_port)
        installed.append((a, b))
    _write(pod, installed, tmp_path, {first.a_device, second.a_device})

    result = verify(pod, read_discovery(pod, lldp=[tmp_path]))
    assert result.networks == [INBAND]
    assert {cable.link_id for cable in result.cables} == {link.id for link in inband}
    assert not any(network_of(pod.links[c.link_id]) != INBAND for c in result.cables)
    assert result.summary == {"planned": len(inband), "ok": len(inband) - 2, "miswired": 2, "missing": 0,
                              "unexpected": 0}
    assert not result.unknown_names and not result.conflicts
    wrong = {cable.link_id: cable for cable in result.cables if cable.status != "ok"}
    assert set(wrong) == {first.id, second.id}
    device = pod.devices[switch]
    where = f"{pod.racks[device.rack].name} {device.name}"
    low, high = sorted((first.b_port, second.b_port), key=int)
    fix = f"{where}: swap the cables in {low} and {high}"  # as a compute pair at a leaf: "R05 L1: swap … 1/1 and 1/2"
    assert wrong[first.id].fix == wrong[second.id].fix == fix
    assert [f.text for f in result.fixes()] == [fix]
    node = pod.devices[first.a_device]
    assert wrong[first.id].found.startswith(f"{pod.racks[node.rack].name} {node.name} {first.a_port} → {where} ")
    # recorded in the plan: the two faulty with the fix as note, the rest verified, compute untouched
    command = update_command(pod, result)
    change = command.apply(pod)
    try:
        assert {pod.links[i].state for i in (first.id, second.id)} == {"faulty"}
        assert pod.links[first.id].state_note == fix
        assert set(change.modified) == {link.id for link in inband}
        assert all(link.state == "planned" for link in pod.links_in("compute").values())
    finally:
        command.revert(pod)


def test_the_simulated_inband_hall_names_cumulus_ports_and_finds_its_swap(pod, tmp_path):
    built = as_built(pod, Faults(swaps=1, seed=3), networks=(INBAND,))
    assert len(built.expected["swaps"]) == 2
    files = write_lldp(pod, built.cables, tmp_path)
    text = "".join(path.read_text(encoding="utf-8") for path in files)
    assert '"swp5"' in text and '"Ethernet' not in text  # Cumulus names, not SONiC's
    result = verify(pod, read_discovery(pod, lldp=[tmp_path]))
    assert result.networks == [INBAND]
    assert {c.link_id for c in result.cables if c.status != "ok"} == built.expected["swaps"]
    assert result.summary["missing"] == result.summary["unexpected"] == 0
    assert len(result.fixes()) == 1 and ": swap the cables in " in result.fixes()[0].text


def test_the_out_of_band_network_verifies_from_its_switches_files_alike(pod, tmp_path):
    """BMCs, switch management ports and the access switches' uplinks, from the OOB switches'
    files: a swap at an access switch, a cable moved to another port and one missing, each with
    the fix a compute cable gets."""
    if not pod.links_in(OOB):
        pytest.skip("the plan has no out-of-band cables yet")
    built = as_built(pod, Faults(swaps=1, wrong_port=1, missing=1, seed=5), networks=(OOB,))
    result = verify(pod, read_discovery(pod, lldp=[*write_lldp(pod, built.cables, tmp_path)]))
    assert result.networks == [OOB]
    assert result.summary["planned"] == len(pod.links_in(OOB))
    faulty = set().union(*built.expected.values())
    assert {c.link_id for c in result.cables if c.status != "ok"} == faulty
    texts = [fix.text for fix in result.fixes()]
    assert sum(": swap the cables in " in t for t in texts) == 1
    assert sum(": move the cable in " in t for t in texts) == 1
    assert sum(t.endswith(")") and ": cable missing (" in t for t in texts) == 1


def test_the_command_line_checks_the_network_named(pod, tmp_path, capsys):
    """``planner verify --network``: the in-band files against the compute network find every
    compute cable missing; by default the in-band network is what they reach."""
    plan = tmp_path / "pod.hall"
    save(pod, plan)
    files = tmp_path / "lldp"
    write_lldp(pod, as_built(pod, networks=(INBAND,)).cables, files)
    assert main(["verify", str(plan), "--lldp", str(files), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["planned"] == len(pod.links_in(INBAND))
    assert main(["verify", str(plan), "--lldp", str(files), "--network", "compute", "--json"]) == 1
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert summary["planned"] == summary["missing"] == len(pod.links_in(COMPUTE))
