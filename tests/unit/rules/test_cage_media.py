"""Twin-port cages: one plug for both ports (N16, the generators' one media per cage, the BOM's
transceivers counted per plug)."""

from __future__ import annotations

import copy

import pytest

from planner.commands.base import SetFields
from planner.export.bom import build_bom
from planner.fabric.cage_media import held_ends, one_media_per_cage
from planner.fabric.relength import recompute_lengths
from planner.fabric.routing import Router
from planner.layout.templates import build_template
from planner.model.cages import cage_of, plugs
from planner.model.labels import cable_label
from planner.model.networks import DATA_NETWORKS, network_of
from planner.rules.engine import Validator, validate


@pytest.fixture
def pod(pod16):
    return pod16


def _cage_cables(doc, device_name: str, cage: int):
    device = next(d for d in doc.devices.values() if d.name == device_name)
    item = doc.catalog[device.type]
    return device, sorted((link for link in doc.links_of(device.id)
                           if cage_of(item, link.a_port if link.a_device == device.id else link.b_port) == cage),
                          key=lambda link: link.b_port if link.b_device == device.id else link.a_port)


def test_cage_of_names_a_twin_port_cage_only(pod):
    leaf = next(d for d in pod.devices.values() if d.role == "leaf")
    node = next(d for d in pod.devices.values() if d.role == "")
    switch, gpu = pod.catalog[leaf.type], pod.catalog[node.type]
    assert (switch.port_cages, switch.ports_per_cage) == (32, 2)
    assert [cage_of(switch, p) for p in ("1/1", "1/2", "32/2", "33/1", "1/3", "7", "mgmt0")] == [1, 1, 32, 0, 0, 0, 0]
    assert cage_of(gpu, "P1") == 0  # a rail NIC has its own OSFP


def test_a_cage_on_two_media_is_an_error_with_its_cables_and_lengths(pod):
    leaf, (first, second) = _cage_cables(pod, "L1", 1)
    assert first.media == second.media == "sr4"
    assert [f for f in validate(pod) if f.rule == "N16"] == []
    SetFields({second.id: {"media": "dac", "stock_m": 3.0}}).apply(pod)
    found = [f for f in validate(pod) if f.rule == "N16"]
    assert len(found) == 1 and found[0].severity == "error"
    assert set(found[0].subjects) == {leaf.id, first.id, second.id}
    message = found[0].message
    assert message.startswith(f"{pod.racks[leaf.rack].name}/L1 cage 1 takes one plug for both its ports, but its "
                              f"cables are SR4 (1/1, {cable_label(pod, first)}, {first.length_m:.2f} m) and DAC (1/2, ")
    assert f"{second.length_m:.2f} m)" in message
    assert message.endswith("put them on one media, SR4 (Multimode SR4 fibre, MPO-12 (OM4)) reaching the longer")
    SetFields({second.id: {"media": "sr4", "stock_m": first.stock_m}}).apply(pod)
    assert [f for f in validate(pod) if f.rule == "N16"] == []


def test_incremental_n16_equals_a_full_run(pod):
    _leaf, (first, _second) = _cage_cables(pod, "L2", 1)
    engine = Validator(pod)
    assert [f for f in engine.findings if f.rule == "N16"] == []
    command = SetFields({first.id: {"media": "dac"}})
    engine.update(command.apply(pod))
    live = sorted(f.message for f in engine.findings if f.rule == "N16")
    assert live == sorted(f.message for f in validate(pod) if f.rule == "N16") and len(live) == 1
    engine.update(command.revert(pod))
    assert [f for f in engine.findings if f.rule == "N16"] == []


def test_bom_counts_one_transceiver_per_plug_worked_by_hand(pod):
    """A leaf's twin-port cage with two SR4 fibres to two GPU nodes is one twin-port transceiver at
    the leaf and one single-port transceiver in each node: three, not the four two-per-cable gave."""
    optical = [link for link in pod.links.values() if network_of(link) in DATA_NETWORKS
               and pod.catalog.media[link.media].transceivers_per_link]
    twin = {(d, p.split("/")[0]) for link in optical
            for d, p in ((link.a_device, link.a_port), (link.b_device, link.b_port)) if "/" in p}
    single = sum(1 for link in optical for p in (link.a_port, link.b_port) if "/" not in p)
    rows = build_bom(pod)["transceivers"]
    assert sum(r["quantity"] for r in rows if r["form"] == "twin-port") == len(twin) == 80
    assert sum(r["quantity"] for r in rows if r["form"] == "single-port") == single
    osfp = next(r for r in rows if r["form"] == "twin-port")
    assert osfp["name"] == "SR4 transceiver, OSFP twin-port, 2 × 400G" and osfp["connector"] == "OSFP"
    # a cage on two media needs a plug of each until N16 is answered: never fewer than its cables' media
    _, (_first, second) = _cage_cables(pod, "L1", 1)
    SetFields({second.id: {"media": "dac"}}).apply(pod)
    after = build_bom(pod)["transceivers"]
    assert sum(r["quantity"] for r in after if r["form"] == "twin-port") == 80  # still one SR4 plug in L1 cage 1
    assert sum(r["quantity"] for r in after if r["form"] == "single-port") == single - 1  # the node's end is copper


def test_one_media_per_cage_takes_the_longer_reaching_and_restocks(pod):
    router = Router(pod)
    _, (first, second) = _cage_cables(pod, "L3", 1)
    a, b = copy.copy(first), copy.copy(second)
    b.media, b.stock_m, b.length_m = "dac", 1.0, 0.9  # as if the second node stood next to the leaf
    assert one_media_per_cage(router, [a, b]) == 1
    assert (a.media, b.media, b.stock_m) == ("sr4", "sr4", 3.0)  # SR4's shortest stock length
    # a cable the hall already has keeps its media while its length stands; N16 then reports the cage
    c, d = copy.copy(first), copy.copy(second)
    d.media, d.stock_m, d.length_m, d.state = "dac", 1.0, 0.9, "verified"
    held = copy.copy(d)
    assert one_media_per_cage(router, [c, d], held_ends([held])) == 0
    assert (c.media, d.media) == ("sr4", "dac")


def test_a_move_restocks_the_cage_partner(pod):
    """Re-routing one cable of a cage onto copper (its node moved beside the leaf) keeps the cage on
    the partner's fibre: the command sets no media the partner cannot share."""
    _, (first, second) = _cage_cables(pod, "L4", 1)
    SetFields({second.id: {"media": "dac", "stock_m": 1.0}}).apply(pod)
    command = recompute_lengths(pod, [second.id])
    command.apply(pod)
    assert pod.links[second.id].media == pod.links[first.id].media == "sr4"


def test_the_generated_hall_has_one_media_per_cage():
    """The 1,000-node hall: the storage leaves' cages mixed ACC and SR4 before the generators gave
    each cage one media (19 cages at 1,024 nodes)."""
    doc = build_template("hall", 1000)
    media_by_cage: dict[tuple[str, int], set[str]] = {}
    for plug in plugs(doc):
        if plug.cage:
            media_by_cage.setdefault((plug.device, plug.cage), set()).add(plug.media)
    assert media_by_cage and all(len(media) == 1 for media in media_by_cage.values())
    assert [f for f in validate(doc) if f.rule == "N16"] == []


def test_a_cable_by_hand_takes_its_cage_partner_s_media_where_that_reaches_further(pod):
    """A leaf's cage holds a DR4 fibre on 1/1: the cable cabled by hand on 1/2 is DR4 too, not the
    SR4 its length alone would take; with the partner on copper it keeps its own fibre."""
    from planner.commands.base import RemoveObjects
    from planner.fabric.hand import hand_cable

    leaf, (first, second) = _cage_cables(pod, "L5", 1)
    node_end = (second.a_device, second.a_port) if second.b_device == leaf.id else (second.b_device, second.b_port)
    RemoveObjects([second.id]).apply(pod)
    SetFields({first.id: {"media": "dr4"}}).apply(pod)
    made = hand_cable(pod, *node_end, leaf.id, "1/2")
    assert made.media == "dr4" and made.stock_m >= made.length_m
    SetFields({first.id: {"media": "dac"}}).apply(pod)
    assert hand_cable(pod, *node_end, leaf.id, "1/2").media == "sr4"
