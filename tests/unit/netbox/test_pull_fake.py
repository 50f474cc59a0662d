"""``planner netbox pull`` against the fake NetBox 4.6: a pushed pod pulled back and laid onto its
plan is the plan (``planner diff`` finds nothing); edits made in NetBox (a device moved, a cable
deleted, a cable marked connected, a row CDU renamed) come back as exactly those changes, matched
by NetBox id, not by position; the pull alone holds every object NetBox has, under ids that are
NetBox's."""

from __future__ import annotations

import pytest

from planner.model.networks import network_of
from planner.model.ports import COOLANT
from planner.netbox.onto import onto
from planner.netbox.pull import pull
from planner.netbox.push import push
from planner.review.diff import diff_plans


@pytest.fixture
def pushed(pod, fake, client):
    push(pod, client)
    return pod


def test_a_pull_laid_onto_the_pushed_plan_is_the_plan(pushed, client):
    pulled, _notes = pull(client, pushed.meta.project)
    back, notes = onto(pulled, pushed)
    result = diff_plans(pushed, back)
    assert result.is_empty, result.as_json()
    assert notes == []
    assert back.netbox.ids == pushed.netbox.ids


def test_the_pull_alone_holds_every_object_under_its_netbox_id(pushed, client):
    pulled, notes = pull(client, pushed.meta.project)
    assert sorted(r.name for r in pulled.racks.values()) == sorted(r.name for r in pushed.racks.values())
    assert sorted(pulled.hostname(d) for d in pulled.devices.values()) == sorted(
        pushed.hostname(d) for d in pushed.devices.values())
    assert len(pulled.links) == sum(network_of(link) != COOLANT for link in pushed.links.values())
    [unit] = pushed.floor_units.values()
    [back] = pulled.floor_units.values()
    assert (back.id, back.name, back.type) == (f"fu-{pushed.netbox.ids[unit.id]}", unit.name, unit.type)
    for obj_id, number in pulled.netbox.ids.items():
        if "/" not in obj_id:
            assert obj_id.endswith(f"-{number}")
    assert any("1 floor unit(s)" in note for note in notes)


def test_edits_made_in_netbox_come_back_as_those_changes_only(pushed, fake, client):
    doc, store, ids = pushed, fake.store, pushed.netbox.ids
    node = next(d for d in doc.devices.values() if doc.hostname(d) == "R01-N1")
    used = {u for d in doc.devices_in(node.rack) for u in range(d.u, d.u + doc.catalog[d.type].height_u)}
    free = next(u for u in range(1, 40) if used.isdisjoint(range(u, u + doc.catalog[node.type].height_u)))
    store.update("dcim/devices", [{"id": ids[node.id], "position": free}])
    compute = sorted((link for link in doc.links.values() if network_of(link) == "compute"), key=lambda l: l.id)
    deleted, connected = compute[0], compute[1]
    store.delete("dcim/cables", [{"id": ids[deleted.id]}])
    store.update("dcim/cables", [{"id": ids[connected.id], "status": "connected"}])
    [unit] = doc.floor_units.values()
    store.update("dcim/devices", [{"id": ids[unit.id], "name": "CDU-A"}])

    pulled, _notes = pull(client, doc.meta.project)
    back, notes = onto(pulled, doc)
    result = diff_plans(doc, back, consequences=False)
    rack = doc.racks[node.rack].name
    assert [(e["id"], e["from"], e["to"]) for e in result.moved] == [(node.id, {"rack": rack, "u": node.u},
                                                                      {"rack": rack, "u": free})]
    assert [e["id"] for e in result.cables["removed"]] == [deleted.id]
    assert [e["id"] for e in result.cables["changed"]] == [connected.id]
    assert back.links[connected.id].state == "run"
    assert back.floor_units[unit.id].name == "CDU-A"
    assert not result.added and not result.removed and not result.cables["added"] and not result.cables["rewired"]
    assert notes == ["links: 0 new in NetBox, 1 taken out in NetBox"]
    assert deleted.id not in back.netbox.ids and back.netbox.ids[unit.id] == ids[unit.id]
