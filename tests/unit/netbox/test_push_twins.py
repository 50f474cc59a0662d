"""A twin-port copper cable (a straight twin DAC, a splitter) pushed as one NetBox cable of two
port-cables with the profile that pairs them (``planner.export.netbox_twins``), as NetBox 4.6.8
took it (tests/data/netbox_api/cables.twin*.json): counted as the BOM counts it, each interface's
link peer its plan partner, kept through a pull, a rewired leg and a re-pairing, and left out of
the CSV update set; a pull refuses a server's twin cables it cannot read, by name."""

from __future__ import annotations

import copy
import csv
import functools
import json
import operator
import random
from pathlib import Path

import pytest
from netbox_fake import shapes
from test_fake_shapes import call
from test_push_fake import ends_by_name, pair_ends, plan_counts, twin_cables

from planner.export.netbox import write_netbox
from planner.export.netbox_twins import TWIN_PROFILE, TWIN_STRIDE, cable_of
from planner.export.options import ExportOptions
from planner.io.netbox import NetBoxReadError
from planner.model.copper import SPLITTER, STRAIGHT, copper_assemblies
from planner.netbox.onto import onto
from planner.netbox.pull import _cable_rows, pull
from planner.netbox.push import push
from planner.review.diff import diff_plans

RECORDED = Path(__file__).resolve().parents[2] / "data" / "netbox_api"


@pytest.fixture
def pushed(pod, fake, client):
    push(pod, client)
    return pod


def cable_of_link(fake, doc, link) -> dict:
    return fake.store.data["dcim/cables"][cable_of(doc.netbox.ids[link.id])]


def assemblies(doc, shape: str) -> list:
    return [a for a in copper_assemblies(doc) if a.shape == shape]


def test_the_pod_s_twin_cables_are_one_netbox_cable_each_as_the_bom_counts_them(pushed, fake):
    doc = pushed
    straight, splitters = assemblies(doc, STRAIGHT), assemblies(doc, SPLITTER)
    assert (len(straight), len(splitters)) == (130, 2)  # the pod's leaf-spine twin DACs, its storage splitters
    profiled = [c for c in fake.store.data["dcim/cables"].values() if c.get("profile") == TWIN_PROFILE]
    assert len(profiled) == twin_cables(doc) == 132
    assert all(len(c["a_terminations"]) == len(c["b_terminations"]) == 2 for c in profiled)
    assert len(fake.store.data["dcim/cables"]) == plan_counts(doc)["dcim/cables"]
    for assembly in straight + splitters:
        first, second = assembly.links
        assert cable_of_link(fake, doc, first) is cable_of_link(fake, doc, second)
        assert {doc.netbox.ids[first.id] // TWIN_STRIDE, doc.netbox.ids[second.id] // TWIN_STRIDE} == {0, 1}


def test_each_port_of_a_twin_cable_has_its_plan_partner_as_its_one_link_peer(pushed, client):
    doc = pushed
    for assembly in [assemblies(doc, STRAIGHT)[0], *assemblies(doc, SPLITTER)]:
        for link in assembly.links:
            a_host, b_host = doc.hostname(doc.devices[link.a_device]), doc.hostname(doc.devices[link.b_device])
            [port] = [i for i in client.get_all("dcim/interfaces", device=a_host) if i["name"] == link.a_port]
            assert [(p["device"]["name"], p["name"]) for p in port["link_peers"]] == [(b_host, link.b_port)]


def test_a_pull_gives_each_port_cable_back_under_its_recorded_number(pushed, client):
    pulled, _notes = pull(client, pushed.meta.project)
    [splitter, _other] = assemblies(pushed, SPLITTER)
    for link in splitter.links:  # the pull's own ids are the recorded numbers
        number = pushed.netbox.ids[link.id]
        back = pulled.links[f"link-{number}"]
        assert (back.a_port, back.b_port) == (link.a_port, link.b_port)
    back, notes = onto(pulled, pushed)
    assert diff_plans(pushed, back).is_empty and notes == []


def test_one_port_cable_of_a_twin_taken_out_leaves_the_other_on_the_same_netbox_cable(pushed, fake, client):
    doc = pushed
    first, second = assemblies(doc, STRAIGHT)[0].links
    number = cable_of(doc.netbox.ids[first.id])
    doc.remove(second.id)
    cables = len(fake.store.data["dcim/cables"])
    report = push(doc, client)
    assert doc.netbox.ids[first.id] == number and second.id not in doc.netbox.ids
    host = doc.hostname
    assert ends_by_name(fake, fake.store.data["dcim/cables"][number]) == {
        (host(doc.devices[first.a_device]), first.a_port), (host(doc.devices[first.b_device]), first.b_port)}
    assert len(fake.store.data["dcim/cables"]) == cables and not report.created["dcim/cables"]
    back, _notes = onto(pull(client, doc.meta.project)[0], doc)
    assert diff_plans(doc, back).is_empty


def test_a_twin_whose_ports_pair_the_other_way_is_made_again(pushed, fake, client):
    doc = pushed
    first, second = assemblies(doc, STRAIGHT)[0].links
    old = cable_of(doc.netbox.ids[first.id])
    a_port, b_port = first.b_port, second.b_port
    doc.set_fields(first.id, {"b_port": b_port})
    doc.set_fields(second.id, {"b_port": a_port})
    start = len(fake.requests)
    report = push(doc, client)
    assert all(r.status < 400 for r in fake.requests[start:])  # no new end on a kept one's connector (a 500)
    assert old not in fake.store.data["dcim/cables"]
    assert any("pair otherwise" in note for note in report.notes)
    host = doc.hostname
    for link in (first, second):
        place = doc.netbox.ids[link.id] // TWIN_STRIDE
        assert pair_ends(fake, cable_of_link(fake, doc, link), place) == {
            (host(doc.devices[link.a_device]), link.a_port), (host(doc.devices[link.b_device]), link.b_port)}
    again = push(doc, client)
    assert not again.updated["dcim/cables"] and not again.created["dcim/cables"]


def test_an_update_set_written_after_a_push_leaves_the_twin_cables_to_the_push(pushed, tmp_path):
    doc = pushed
    write_netbox(doc, tmp_path / "set", ExportOptions())
    with open(tmp_path / "set" / "cables-update.csv", newline="", encoding="utf-8") as handle:
        ids = {int(row["id"]) for row in csv.DictReader(handle)}
    twins = {cable_of(doc.netbox.ids[l.id]) for a in copper_assemblies(doc) if a.shape != "single" for l in a.links}
    assert ids and not ids & twins and all(number < TWIN_STRIDE for number in ids)
    readme = (tmp_path / "set" / "README.txt").read_text(encoding="utf-8")
    assert f"{2 * len(twins)} cable(s) are left out of cables.csv" in readme
    assert "(plan link-" not in readme  # the twins' port-cables are not taken for gone


def test_the_fake_refuses_a_blank_profile_and_a_third_end_as_netbox_did(pushed, fake, client):
    doc = pushed
    first, _second = assemblies(doc, STRAIGHT)[0].links
    cable = cable_of_link(fake, doc, first)
    status, body = call(fake, "PATCH", "/api/dcim/cables/", [{"id": cable["id"], "profile": ""}])
    assert (status, body) == (400, shapes.error("profile-blank"))
    ends = [{"object_type": kind, "object_id": number} for kind, number in cable["b_terminations"]]
    status, body = call(fake, "POST", "/api/dcim/cables/", [{
        "profile": TWIN_PROFILE, "status": "planned", "a_terminations": ends[:1], "b_terminations": ends * 2}])
    assert status == 400 and body[0]["b_terminations"][0].startswith("B side of cable has 4 terminations but only 2")
    assert shapes.error("twin-three")[0]["b_terminations"][0].replace("3", "4", 1) == body[0]["b_terminations"][0]


def test_a_cable_id_at_the_twin_stride_is_refused_by_name(pushed, fake, client):
    """A server whose cable ids reach 10^11 (NetBox's never do) would give a single cable the
    number of a twin's second port-cable: the pull names the cable and why, not a clash of ids."""
    cables = fake.store.data["dcim/cables"]
    twin = next(c for c in cables.values() if c.get("profile") == TWIN_PROFILE)
    single = next(c for c in cables.values() if not c.get("profile"))
    del cables[single["id"]]
    single["id"] = twin["id"] + TWIN_STRIDE
    cables[single["id"]] = single
    with pytest.raises(NetBoxReadError, match=rf"NetBox cable {single['id']}: an id of 100,000,000,000 or more"):
        pull(client, pushed.meta.project)


def test_a_mangled_twin_cable_is_read_or_refused_as_an_answer_not_netbox_s():
    """NetBox 4.6.8's twin cable (recorded) with values swapped for hostile ones at random: each
    is read into rows or fails with an error the CLI reports as "not shaped as NetBox 4.x answers"
    (``planner.cli.netbox``), never another exception."""
    recorded = json.loads((RECORDED / "cables.twin.json").read_text())["response"]["results"][0]

    def places(value, path=()):
        yield path
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in children:
            yield from places(child, (*path, key))

    paths = [p for p in places(recorded) if p]
    hostile = [None, 0, -1, 1e308, float("nan"), "", "x" * 10_000, [], {}, [1], {"a": 1}, True, "=cmd()",
               [None], [{"object": None}], 10**30]
    rng, read = random.Random(3), 0
    for _ in range(3000):
        cable = copy.deepcopy(recorded)
        for _change in range(rng.randint(1, 3)):
            *where, last = rng.choice(paths)
            try:
                functools.reduce(operator.getitem, where, cable)[last] = rng.choice(hostile)
            except (KeyError, IndexError, TypeError):  # a path an earlier change replaced
                pass
        try:
            rows = _cable_rows(cable)
        except (KeyError, TypeError, AttributeError, ValueError):
            continue
        read += 1
        assert all(isinstance(row, dict) and row["id"] for row in rows)
    assert 0 < read < 3000
