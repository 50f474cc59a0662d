"""`push` of the 32-node pod into the fake NetBox: everything the plan holds is there, in the
numbers the plan gives, at the ends the plan gives; the plan records every NetBox id; a second
push of the unchanged plan only reads."""

from __future__ import annotations

import math

import pytest
from netbox_fake import shapes

from planner.export.netbox_twins import TWIN_STRIDE, cable_of
from planner.model.copper import SINGLE, copper_assemblies
from planner.model.networks import network_of
from planner.model.ports import COOLANT
from planner.netbox.push import PushError, push


def plan_counts(doc) -> dict[str, int]:
    """What NetBox should hold for ``doc``, worked out from the plan itself."""
    feeds = sum(1 for rack in doc.racks.values() for busbar in (rack.feed_a, rack.feed_b) if busbar)
    cables = sum(1 for link in doc.links.values() if network_of(link) != COOLANT) - twin_cables(doc)
    return {"dcim/racks": len(doc.racks), "dcim/devices": len(doc.devices) + len(doc.floor_units), "dcim/power-panels": len(doc.busbars),
            "dcim/power-feeds": feeds, "dcim/cables": cables + feeds,  # + each feed's cable from its PDU
            "dcim/modules": optical_plugs(doc)}


def twin_cables(doc) -> int:
    """Copper cables of two port-cables (the BOM's straight twin cables and splitters) with one
    side on one device, each one NetBox cable of two."""
    return sum(1 for a in copper_assemblies(doc) if a.shape != SINGLE
               and len({a.links[0].a_device, a.links[1].a_device}) * len({a.links[0].b_device, a.links[1].b_device}) < 4)


def pair_ends(fake, cable: dict, place: int) -> set[tuple[str, str]]:
    """The two ends at ``place`` of a fake cable's sides (a twin cable's pair), by name."""
    return ends_by_name(fake, {"a_terminations": cable["a_terminations"][place:place + 1],
                               "b_terminations": cable["b_terminations"][place:place + 1]})


def optical_plugs(doc) -> int:
    """Transceivers worked out by hand: one per twin-port switch cage (``n/1``, ``n/2``) and one per
    other cable end that has an optic, on the ports whose connector takes one."""
    connectors = {(key, port.name): port.connector for key in {d.type for d in doc.devices.values()}
                  for port in doc.catalog[key].ports()}
    plugs = set()
    for link in doc.links.values():
        if link.media not in doc.catalog.media or not doc.catalog.media[link.media].transceivers_per_link:
            continue
        for device, port in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            if connectors[(doc.devices[device].type, port)] not in ("", "RJ45"):
                plugs.add((device, port.split("/")[0] if "/" in port else port))
    return len(plugs)


def ends_by_name(fake, cable: dict) -> set[tuple[str, str]]:
    """A fake cable's two ends as (device name, port name); a power feed as (panel, feed)."""
    found = set()
    for kind, number in (*cable["a_terminations"], *cable["b_terminations"]):
        end = fake.store.data[shapes.OBJECT_TYPES[kind]][number]
        owner = fake.store.data["dcim/devices"].get(end.get("device")) or \
            fake.store.data["dcim/power-panels"][end.get("power_panel")]
        found.add((owner["name"], end["name"]))
    return found


@pytest.fixture
def pushed(pod, fake, client):
    report = push(pod, client)
    return pod, report


def test_every_rack_device_cable_panel_and_feed_of_the_plan_is_in_netbox(pushed, fake):
    doc, report = pushed
    counts = plan_counts(doc)
    for endpoint, number in counts.items():
        assert len(fake.store.data[endpoint]) == number, endpoint
        assert report.created[endpoint] == number, endpoint
    assert all(device.rack in doc.racks for device in doc.devices.values())
    assert {d["name"] for d in fake.store.data["dcim/devices"].values()} == {doc.hostname(d) for d in
                                                                              doc.devices.values()} | {
        unit.name for unit in doc.floor_units.values()}
    assert {r["name"] for r in fake.store.data["dcim/racks"].values()} == {r.name for r in doc.racks.values()}
    assert all(feed.get("cable") for feed in fake.store.data["dcim/power-feeds"].values())
    psus = sum(1 for link in doc.links.values() if network_of(link) == "power")
    assert sum(1 for o in fake.store.data["dcim/power-outlets"].values() if o.get("cable")) == psus
    assert len(fake.store.data["dcim/sites"]) == 1 and len(fake.store.data["dcim/locations"]) == 1 + len(
        {r.row for r in doc.racks.values()})


def test_every_switch_has_its_serial_console_port_from_its_type_s_template(pushed, fake):
    doc, report = pushed
    switches = {doc.hostname(d) for d in doc.devices.values() if doc.catalog[d.type].console_port}
    assert switches and all(doc.catalog[d.type].kind == "switch" for d in doc.devices.values()
                            if doc.hostname(d) in switches)
    templates = fake.store.data["dcim/console-port-templates"].values()
    typed = {fake.store.data["dcim/device-types"][t["device_type"]]["slug"] for t in templates}
    assert typed == {f"nvidia-{d.type}" for d in doc.devices.values() if doc.catalog[d.type].console_port}
    assert report.created["dcim/console-port-templates"] == len(typed)
    devices = fake.store.data["dcim/devices"]
    ports = {(devices[p["device"]]["name"], p["name"], p["type"]) for p in fake.store.data["dcim/console-ports"].values()}
    assert ports == {(name, "console", "rj-45") for name in switches}


def test_a_row_cdu_is_a_device_in_no_rack_in_its_row_s_location_with_its_hardwired_input(pushed, fake):
    doc, _report = pushed
    [unit] = doc.floor_units.values()
    device = fake.store.data["dcim/devices"][doc.netbox.ids[unit.id]]
    assert device["name"] == unit.name and device.get("rack") is None and device.get("position") is None
    racks_there = {r["name"] for r in fake.store.data["dcim/racks"].values() if r["location"] == device["location"]}
    assert racks_there == {r.name for r in doc.racks.values() if r.row == unit.row} != set()
    assert fake.store.data["dcim/device-roles"][device["role"]]["slug"] == "row-cdu"
    item = doc.catalog[unit.type]
    ports = [p for p in fake.store.data["dcim/power-port-templates"].values() if p["device_type"] == device["device_type"]]
    assert [(p["name"], p["type"], p["maximum_draw"]) for p in ports] == [("Input", "hardwired",
                                                                          math.ceil(item.power_peak_w))]


def test_a_floor_unit_named_as_a_device_stops_the_push_before_any_write(pod, fake, client):
    [unit] = pod.floor_units.values()
    pod.set_fields(unit.id, {"name": "r01-n1"})
    with pytest.raises(PushError, match="floor unit r01-n1: a device has that name"):
        push(pod, client)
    assert not [r for r in fake.requests if r.method != "GET"]


def test_the_plan_records_the_netbox_id_of_every_rack_device_and_cable(pushed, fake):
    doc, _report = pushed
    ids = doc.netbox.ids
    assert doc.netbox.url == fake.url and doc.netbox.site == doc.meta.project
    for rack in doc.racks.values():
        assert fake.store.data["dcim/racks"][ids[rack.id]]["name"] == rack.name
    for device in doc.devices.values():
        assert fake.store.data["dcim/devices"][ids[device.id]]["name"] == doc.hostname(device)
    hostnames = {device.id: doc.hostname(device) for device in doc.devices.values()}
    for link in doc.links.values():
        if network_of(link) == COOLANT:
            assert link.id not in ids
            continue
        cable = fake.store.data["dcim/cables"][cable_of(ids[link.id])]
        assert pair_ends(fake, cable, ids[link.id] // TWIN_STRIDE) == {(hostnames[link.a_device], link.a_port),
                                                                       (hostnames[link.b_device], link.b_port)}, link.id
    assert {ids[k] for k in ids if k.endswith("/feed")} | {cable_of(ids[link.id]) for link in doc.links.values()
                                                           if link.id in ids} == set(fake.store.data["dcim/cables"])


def test_a_second_push_of_the_unchanged_plan_only_reads(pushed, fake, client):
    doc, _report = pushed
    before = len(fake.requests)
    again = push(doc, client)
    assert [r.method for r in fake.requests[before:] if r.method != "GET"] == []
    assert not +again.created and not +again.updated and not +again.deleted
    assert again.unchanged == plan_counts(doc) | {"dcim/sites": 1, "dcim/locations": 2}


def test_every_request_of_the_client_reached_the_fake_and_only_its_api(pushed, fake, client):
    assert sum(client.requests.values()) == len(fake.requests)
    assert all(r.path.startswith("/api/") and r.status < 400 for r in fake.requests)
    assert {r.host for r in fake.requests} == {fake.url.removeprefix("http://")}


def test_writes_are_bulk_lists_in_a_few_requests(pushed, fake):
    writes = fake.writes()
    assert writes and all(r.method == "POST" and r.objects for r in writes)  # every write a bulk list
    cables = [r for r in writes if r.path == "/api/dcim/cables/"]
    assert sum(r.objects for r in cables) == len(fake.store.data["dcim/cables"])
    assert len(cables) <= 10  # 1,197 cables in a few requests, not one each


def test_each_rack_is_of_its_catalogue_rack_type_and_takes_its_size_from_it(pushed, fake):
    doc, report = pushed
    kinds = {rack.type for rack in doc.racks.values()}
    types = {t["slug"]: t for t in fake.store.data["dcim/rack-types"].values()}
    assert set(types) == {f"generic-{key}" for key in kinds} and report.created["dcim/rack-types"] == len(kinds)
    for rack in doc.racks.values():
        there = fake.store.data["dcim/racks"][doc.netbox.ids[rack.id]]
        kind = fake.store.data["dcim/rack-types"][there["rack_type"]]
        item = doc.catalog[rack.type]
        assert kind["slug"] == f"generic-{rack.type}" and kind["model"] == item.name
        assert (kind["form_factor"], kind["width"], kind["u_height"], kind["outer_width"], kind["outer_depth"]) == (
            "4-post-cabinet", 19, item.rack_units, round(item.width_m * 1000), round(item.depth_m * 1000))
        assert (kind["weight"], kind["max_weight"], kind["weight_unit"]) == (item.weight_kg, item.max_load_kg, "kg")
        assert all(there[name] == kind[name] for name in ("u_height", "outer_width", "outer_depth", "max_weight"))
        assert there["airflow"] == "front-to-rear"
    maker = fake.store.data["dcim/manufacturers"][next(iter(types.values()))["manufacturer"]]
    assert maker["name"] == "Generic"
