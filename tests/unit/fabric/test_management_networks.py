"""The in-band and out-of-band management networks (issue 21): counted by hand from the catalogue
and the design basis on the pod and a 1,024-node hall, every management port cabled, copper for
RJ45 ends only, regeneration changing nothing."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from planner.commands.base import History, SetFields
from planner.fabric.management import access_ports, management_ports, plan_inband, plan_oob
from planner.fabric.media import choose_media, media_order
from planner.fabric.placement import row_key
from planner.fabric.storage_fabric import plan_storage
from planner.layout.templates import build_template
from planner.model.catalog import NODE, builtin_catalog
from planner.model.networks import (
    ROLE_INBAND_ACCESS,
    ROLE_INBAND_AGG,
    ROLE_OOB_ACCESS,
    ROLE_OOB_AGG,
    TIER_INBAND_ACCESS,
    TIER_INBAND_UPLINK,
    TIER_OOB_ACCESS,
    TIER_OOB_UPLINK,
)
from planner.model.ports import INBAND, OOB, STORAGE_NET

ORDER = media_order(builtin_catalog().media)
#: sw-48x1g-oob-1u (SN2201 class): 48 × 1 GbE RJ45 access ports, uplinks swp49/swp50 at 100 GbE;
#: sw-64x100g-2u-mgmt (SN4600C class): 64 × 100 GbE, 62 access ports and 2 uplinks as an access
#: switch, all 64 cages as an aggregation switch.
OOB_ACCESS, INBAND_ACCESS, AGG_PORTS = 48, 62, 64


@pytest.fixture(scope="module")
def pod():
    return build_template("pod")


@pytest.fixture(scope="module")
def hall():
    return build_template("hall", nodes=1024)


def _count(doc, role):
    return sum(1 for d in doc.devices.values() if d.role == role)


def _tiers(doc, network):
    return Counter(link.tier for link in doc.links_in(network).values())


def _oob_ports(doc):
    """OOB ports per rack, by hand: a BMC per GPU and storage node, mgmt0 per fabric switch, PDU and
    rack CDU, eth0 per in-band switch; none of the OOB network's own switches."""
    per_rack: Counter[str] = Counter()
    for device in doc.devices.values():
        item = doc.catalog[device.type]
        if device.role in (ROLE_OOB_ACCESS, ROLE_OOB_AGG):
            continue
        per_rack[device.rack] += sum(1 for p in item.ports() if p.network == OOB and p.name not in
                                     (item.port_names() if item.network else ()))
    return per_rack


def _check_counts(doc):
    # in-band, a switch per row: ⌈in-band ports of the row / 62⌉; one pair per 64 access switches
    inband_per_row: Counter[str] = Counter()
    for device in doc.devices.values():
        if doc.catalog[device.type].kind == NODE:
            inband_per_row[row_key(doc.racks[device.rack])] += 2  # E1, E2
    inband = sum(math.ceil(n / INBAND_ACCESS) for n in inband_per_row.values())
    assert _count(doc, ROLE_INBAND_ACCESS) == inband
    assert _count(doc, ROLE_INBAND_AGG) == 2 * math.ceil(inband / AGG_PORTS)
    assert _tiers(doc, INBAND) == {TIER_INBAND_ACCESS: sum(inband_per_row.values()), TIER_INBAND_UPLINK: 2 * inband}
    # out-of-band, a switch per rack: ⌈OOB ports of the rack / 48⌉
    per_rack = _oob_ports(doc)
    oob = sum(math.ceil(n / OOB_ACCESS) for n in per_rack.values())
    assert _count(doc, ROLE_OOB_ACCESS) == oob
    assert _count(doc, ROLE_OOB_AGG) == 2 * math.ceil(oob / AGG_PORTS)
    assert _tiers(doc, OOB) == {TIER_OOB_ACCESS: sum(per_rack.values()), TIER_OOB_UPLINK: 2 * oob}
    return inband, oob


def test_access_and_uplink_ports_from_the_catalogue():
    catalog = builtin_catalog()
    down, up = access_ports(catalog.management_switch(OOB), OOB)
    assert (len(down), up) == (OOB_ACCESS, ["swp49", "swp50"])
    down, up = access_ports(catalog.management_switch(INBAND), INBAND)
    assert (len(down), up) == (INBAND_ACCESS, ["63", "64"])


def test_pod_counts_by_hand(pod):
    # 32 nodes × E1, E2 = 64 in-band ports in one row: ⌈64/62⌉ = 2 switches, 1 pair, 64 + 2 × 2 cables.
    # OOB: 32 + 2 BMCs (GPU and storage nodes), mgmt0 of 8 + 4 compute and 2 + 1 storage switches,
    # eth0 of 4 in-band switches, mgmt0 of every rack PDU; each rack under 48 ports: a switch per
    # rack (9), 1 pair, 2 uplinks each.
    assert _check_counts(pod) == (2, 9)
    pdus = sum(1 for d in pod.devices.values() if pod.catalog[d.type].kind == "rack_pdu")
    assert len(pod.links_in(INBAND)) == 68
    assert len(pod.links_in(OOB)) == 32 + 2 + 12 + 3 + 4 + pdus + 9 * 2


def test_every_node_port_cabled(pod):
    ends = Counter((end_device, end_port) for network in (STORAGE_NET, INBAND, OOB)
                   for link in pod.links_in(network).values()
                   for end_device, end_port in ((link.a_device, link.a_port), (link.b_device, link.b_port)))
    for device in pod.devices.values():
        if pod.catalog[device.type].kind == NODE:
            assert [ends[(device.id, p)] for p in ("S1", "S2", "E1", "E2", "BMC")] == [1] * 5, device.name
    for device in pod.devices.values():  # every switch's management port, PDUs' too
        for port in management_ports(pod, device, OOB):
            assert ends[(device.id, port)] == 1, (device.name, port)


def test_oob_access_switch_at_the_top_of_each_rack(pod):
    for device in pod.devices.values():
        if device.role == ROLE_OOB_ACCESS:
            rack = pod.racks[device.rack]
            assert device.u == pod.catalog[rack.type].rack_units  # 1U at the highest U
            assert {pod.devices[link.a_device].rack for link in pod.links_in(OOB).values()
                    if link.tier == TIER_OOB_ACCESS and link.b_device == device.id} == {device.rack}


def test_copper_only_for_rj45(pod):
    for link in pod.links_in(OOB).values():
        assert (link.media == "cat6a") == (link.tier == TIER_OOB_ACCESS), link
    assert all(link.media != "cat6a" for network in (INBAND, STORAGE_NET) for link in pod.links_in(network).values())


def test_media_choice_by_connector():
    assert choose_media(ORDER, 12.0, False, True, "RJ45").media == "cat6a"
    assert choose_media(ORDER, 0.4, True, True, "RJ45").media == "cat6a"
    assert choose_media(ORDER, 100.01, False, True, "RJ45").media == ""  # beyond the 100 m channel
    assert choose_media(ORDER, 0.4, False, True).media == "dac"  # a cage never takes a patch cord
    assert choose_media(ORDER, 12.0, False, True, "QSFP28").media == "sr4"


def test_regeneration_changes_nothing(pod):
    history = History(pod)
    before = {network: dict(pod.links_in(network)) for network in (STORAGE_NET, INBAND, OOB)}
    for step in (plan_storage, plan_inband, plan_oob):
        generation = step(pod)
        assert generation.changes_nothing, generation.text
        history.push(generation)
    assert {network: dict(pod.links_in(network)) for network in before} == before


def test_a_renumbered_access_switch_keeps_its_rack_and_cables():
    doc = build_template("pod")
    one, seven = (next(d for d in doc.devices.values() if d.role == ROLE_OOB_ACCESS and d.name == n) for n in ("MO1", "MO7"))
    History(doc).push(SetFields({one.id: {"name": "MO7"}, seven.id: {"name": "MO1"}}))  # as if a rack grew a switch
    generation = plan_oob(doc)
    assert generation.cables.summary() == f"kept {len(doc.links_in(OOB)):,}, rewired 0, removed 0, added 0"
    History(doc).push(generation)
    assert (doc.devices[one.id].name, doc.devices[seven.id].name) == ("MO1", "MO7")
    assert plan_oob(doc).changes_nothing


def test_hall_of_1024_nodes_by_hand(hall):
    inband, oob = _check_counts(hall)
    assert (inband, oob) == (40, 287)
    assert (_count(hall, ROLE_INBAND_AGG), _count(hall, ROLE_OOB_AGG)) == (2, 10)  # ⌈287/64⌉ = 5 pairs
    for step in (plan_inband, plan_oob):
        assert step(hall).changes_nothing
