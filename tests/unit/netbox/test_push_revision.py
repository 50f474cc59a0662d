"""A revised plan pushed again: what moved or was rewired is updated in place (the same NetBox
ids), nothing else is written; a second hall goes into the same NetBox beside the first."""

from __future__ import annotations

import copy

import pytest
from netbox_fake import shapes
from test_push_fake import ends_by_name, plan_counts

from planner.export.netbox_twins import cable_of, twin_records
from planner.export.netbox_types import end_types
from planner.model.networks import network_of
from planner.netbox.push import push


@pytest.fixture
def pushed(pod, fake, client):
    push(pod, client)
    return pod


def writes_since(fake, start: int) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in fake.requests[start:] if r.method != "GET"]


def test_a_rack_moved_to_another_row_is_an_update_of_its_location(pushed, fake, client):
    doc = pushed
    rack = max(doc.racks.values(), key=lambda r: r.name)
    number = doc.netbox.ids[rack.id]
    doc.set_fields(rack.id, {"row": "2"})
    start = len(fake.requests)
    report = push(doc, client)
    assert doc.netbox.ids[rack.id] == number
    assert +report.created == {"dcim/locations": 1} and not +report.deleted
    assert report.updated["dcim/racks"] == 1
    location = fake.store.data["dcim/locations"][fake.store.data["dcim/racks"][number]["location"]]
    assert location["name"] == f"{doc.meta.hall} row 2"
    assert fake.store.data["dcim/locations"][location["parent"]]["name"] == doc.meta.hall
    moved = [d for d in fake.store.data["dcim/devices"].values() if d["rack"] == number]
    assert moved and all(d["location"] == location["id"] for d in moved)
    assert ("DELETE", "/api/dcim/racks/") not in writes_since(fake, start)
    assert {path for _method, path in writes_since(fake, start)} <= {"/api/dcim/locations/", "/api/dcim/racks/",
                                                                     "/api/dcim/devices/", "/api/dcim/cables/"}


def compute_links(doc, count: int) -> list:
    links = sorted((link for link in doc.links.values() if network_of(link) == "compute"), key=lambda l: l.id)
    return links[:count]


def free_ports(doc, device_id: str) -> list[str]:
    """The device's data ports no cable of the plan uses."""
    device = doc.devices[device_id]
    used = {link.a_port for link in doc.links.values() if link.a_device == device_id}
    used |= {link.b_port for link in doc.links.values() if link.b_device == device_id}
    ends = end_types(doc, doc.catalog[device.type])
    return sorted(port for port, kind in ends.items() if kind == "dcim.interface" and port not in used)


def fake_ends(fake, doc, link) -> set[tuple[str, str]]:
    return ends_by_name(fake, fake.store.data["dcim/cables"][cable_of(doc.netbox.ids[link.id])])


def test_ten_cables_moved_to_free_ports_are_updated_in_place(pushed, fake, client):
    doc = pushed
    moved = []
    twins = twin_records(doc.netbox.ids)  # moving one port of a twin cable makes another cable (test_push_twins)
    for link in sorted(doc.links.values(), key=lambda l: l.id):
        spare = free_ports(doc, link.b_device) if network_of(link) not in ("power", "coolant") \
            and link.id not in twins else []
        if spare:
            doc.set_fields(link.id, {"b_port": spare[0]})
            moved.append(link)
        if len(moved) == 10:
            break
    assert len(moved) == 10  # some onto the port the one before left: pass by pass
    before = {link.id: doc.netbox.ids[link.id] for link in moved}
    cables = len(fake.store.data["dcim/cables"])
    report = push(doc, client)
    assert {link.id: doc.netbox.ids[link.id] for link in moved} == before
    assert not report.created["dcim/cables"] and not report.deleted["dcim/cables"]
    assert report.updated["dcim/cables"] == 10 and len(fake.store.data["dcim/cables"]) == cables
    for link in moved:
        assert (doc.hostname(doc.devices[link.b_device]), link.b_port) in fake_ends(fake, doc, link)


def swap_five_pairs(doc) -> list:
    """Swap the B ends of five pairs of compute cables (10 rewired cables)."""
    links = compute_links(doc, 10)
    for first, second in zip(links[::2], links[1::2], strict=True):
        a_end, b_end = (first.b_device, first.b_port), (second.b_device, second.b_port)
        doc.set_fields(first.id, {"b_device": b_end[0], "b_port": b_end[1]})
        doc.set_fields(second.id, {"b_device": a_end[0], "b_port": a_end[1]})
    return links


def test_ten_rewired_cables_end_where_the_plan_says_and_nothing_else_changes(pushed, fake, client):
    doc = pushed
    links = swap_five_pairs(doc)
    others = {n: copy.deepcopy(c) for n, c in fake.store.data["dcim/cables"].items()
              if n not in {doc.netbox.ids[link.id] for link in links}}
    report = push(doc, client)
    for link in links:
        assert fake_ends(fake, doc, link) == {(doc.hostname(doc.devices[link.a_device]), link.a_port),
                                              (doc.hostname(doc.devices[link.b_device]), link.b_port)}
    assert len(fake.store.data["dcim/cables"]) == plan_counts(doc)["dcim/cables"]
    assert all(fake.store.data["dcim/cables"][n]["a_terminations"] == c["a_terminations"] and
               fake.store.data["dcim/cables"][n]["b_terminations"] == c["b_terminations"] for n, c in others.items())
    assert report.updated["dcim/cables"] + report.created["dcim/cables"] >= 10


def test_ten_rewired_cables_keep_their_netbox_ids(pushed, fake, client):
    """A swap cannot be PATCHed in place (error.cable-swap.json) nor opened with an empty side
    (cables.patch-empty-side.json): the push parks one end on a free port for a moment."""
    doc = pushed
    links = swap_five_pairs(doc)
    before = {link.id: doc.netbox.ids[link.id] for link in links}
    report = push(doc, client)
    assert {link.id: doc.netbox.ids[link.id] for link in links} == before
    assert not report.created["dcim/cables"] and not report.deleted["dcim/cables"]
    assert report.updated["dcim/cables"] == 10
    assert len(fake.store.data["dcim/cables"]) == plan_counts(doc)["dcim/cables"]
    assert all(r.status < 400 for r in fake.requests)


def test_a_second_hall_shares_what_netbox_holds_and_repeats_the_first_hall_s_hostnames(pushed, fake, client, pod_file):
    from planner.io import load
    first = pushed
    shared = {e: len(fake.store.data[e]) for e in ("extras/tags", "dcim/manufacturers", "dcim/device-roles",
                                                  "dcim/rack-types",
                                                  "dcim/device-types", "dcim/interface-templates")}
    site_one = {n: copy.deepcopy(o) for e in ("dcim/devices", "dcim/racks", "dcim/cables")
                for n, o in fake.store.data[e].items()}
    second = load(pod_file)
    second.meta.project = "Second hall"
    start = len(fake.requests)
    report = push(second, client)
    assert {e: len(fake.store.data[e]) for e in shared} == shared
    assert not any(report.created[e] for e in shared) and report.existing["dcim/device-types"] == shared[
        "dcim/device-types"]
    sites = {s["name"]: s["id"] for s in fake.store.data["dcim/sites"].values()}
    assert set(sites) == {first.meta.project, "Second hall"}
    names = {site: sorted(d["name"] for d in fake.store.data["dcim/devices"].values() if d["site"] == number)
             for site, number in sites.items()}
    assert names["Second hall"] == names[first.meta.project] and len(names["Second hall"]) == len(second.devices) + len(
        second.floor_units)
    for link in second.links.values():  # each cable of the second hall ends in the second hall
        if link.id in second.netbox.ids:
            cable = fake.store.data["dcim/cables"][cable_of(second.netbox.ids[link.id])]
            assert fake.store.site_of("dcim/cables", cable) == {sites["Second hall"]}
    assert all(fake.store.data[e][n] == o for n, o in site_one.items()
               for e in ("dcim/devices", "dcim/racks", "dcim/cables") if n in fake.store.data[e])
    assert not [m for m, _p in writes_since(fake, start) if m in ("PATCH", "DELETE")]
    assert shapes.OBJECT_TYPES  # the fake's shapes are loaded from the recordings
