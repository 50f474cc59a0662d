"""Transceivers in the fake NetBox: a module bay per cage, a module per optical plug (one per
twin-port switch cage, one per single-port NIC), kept by bay through revisions; NetBox's own
edits of a module's status stay; a bay the plan's fibre left loses its planner module only."""

from __future__ import annotations

from planner.netbox.push import push

TWIN = "SR4 transceiver, OSFP twin-port, 2 × 400G"
SINGLE = "SR4 transceiver, OSFP single-port, 400G"


def _modules(fake) -> dict[tuple[str, str], str]:
    """(device name, bay name) → module type model of every module in the fake."""
    data = fake.store.data
    return {(data["dcim/devices"][m["device"]]["name"], data["dcim/module-bays"][m["module_bay"]]["name"]):
            data["dcim/module-types"][m["module_type"]]["model"] for m in data["dcim/modules"].values()}


def _leaf_cable(doc, leaf_name: str, port: str):
    leaf = next(d for d in doc.devices.values() if d.name == leaf_name)
    link = next(l for l in doc.links_of(leaf.id) if port in ((l.a_port,) if l.a_device == leaf.id else (l.b_port,)))
    node_end = (link.a_device, link.a_port) if link.b_device == leaf.id else (link.b_device, link.b_port)
    return leaf, link, node_end


def test_a_twin_port_cage_holds_one_module_for_its_two_fibres(pod, fake, client):
    report = push(pod, client)
    modules = _modules(fake)
    leaf, link, (node, port) = _leaf_cable(pod, "L1", "1/1")
    _, other, (node2, port2) = _leaf_cable(pod, "L1", "1/2")
    assert link.media == other.media == "sr4"
    host, node_host, node2_host = (pod.hostname(pod.devices[i]) for i in (leaf.id, node, node2))
    assert modules[(host, "1")] == TWIN  # one plug for 1/1 and 1/2
    assert modules[(node_host, port)] == modules[(node2_host, port2)] == SINGLE
    bays = [b for b in fake.store.data["dcim/module-bays"].values() if b["device"] == pod.netbox.ids[leaf.id]]
    assert sorted(int(b["name"]) for b in bays) == list(range(1, 33))  # every cage has its bay
    assert report.created["dcim/module-types"] == len({*modules.values()})
    assert all(t["comments"].startswith("Hall Planner:") for t in fake.store.data["dcim/module-types"].values())


def test_a_fibre_turned_copper_takes_its_node_s_module_out_and_leaves_the_cage_s(pod, fake, client):
    push(pod, client)
    leaf, link, (node, port) = _leaf_cable(pod, "L2", "1/1")
    node_host, host = pod.hostname(pod.devices[node]), pod.hostname(pod.devices[leaf.id])
    kept = next(m for m in fake.store.data["dcim/modules"].values()
                if fake.store.data["dcim/module-bays"][m["module_bay"]]["name"] == "1"
                and m["device"] == pod.netbox.ids[leaf.id])
    fake.store.update("dcim/modules", [{"id": kept["id"], "status": "active"}])  # the DCIM team installed it
    before = len(fake.store.data["dcim/modules"])
    pod.set_fields(link.id, {"media": "dac", "stock_m": 3.0})  # (N16 reports the cage; the push still goes)
    report = push(pod, client)
    assert (report.deleted["dcim/modules"], report.created["dcim/modules"]) == (1, 0)
    modules = _modules(fake)
    assert (node_host, port) not in modules and modules[(host, "1")] == TWIN
    assert len(fake.store.data["dcim/modules"]) == before - 1
    assert fake.store.data["dcim/modules"][kept["id"]]["status"] == "active"  # not reset to planned


def test_a_module_of_the_dcim_team_s_own_type_is_left(pod, fake, client):
    push(pod, client)
    leaf, *_ = _leaf_cable(pod, "L3", "1/1")
    maker = next(iter(fake.store.data["dcim/manufacturers"]))
    [own] = fake.store.create("dcim/module-types", [{"manufacturer": maker, "model": "Site spare optic"}])
    bay = next(b for b in fake.store.data["dcim/module-bays"].values()
               if b["device"] == pod.netbox.ids[leaf.id] and b["name"] == "32")
    fake.store.create("dcim/modules", [{"device": bay["device"], "module_bay": bay["id"], "module_type": own["id"]}])
    report = push(pod, client)
    assert report.deleted["dcim/modules"] == 0 and report.unchanged["dcim/modules"] == len(_modules(fake)) - 1


def test_types_without_bays_are_named_in_a_note_and_the_rest_is_pushed(pod, fake, client):
    push(pod, client)
    store = fake.store
    store.delete("dcim/module-bays", [{"id": n} for n in list(store.data["dcim/module-bays"])])
    assert not store.data["dcim/modules"]  # they go with their bays
    report = push(pod, client)
    assert report.created["dcim/modules"] == 0
    assert any("transceiver module(s) not placed" in note for note in report.notes)


def test_a_dry_run_counts_the_modules_it_would_make_and_writes_nothing(pod, fake, client):
    report = push(pod, client, dry_run=True)
    assert report.created["dcim/modules"] > 0 and report.created["dcim/module-bay-templates"] > 0
    assert not fake.store.data["dcim/modules"] and not [r for r in fake.requests if r.method != "GET"]


def test_two_optics_in_one_cage_stop_the_push_unless_modules_are_left_out(pod, fake, client):
    import pytest

    from planner.netbox.push import PushError

    leaf, link, _node = _leaf_cable(pod, "L4", "1/2")
    pod.set_fields(link.id, {"media": "dr4"})
    with pytest.raises(PushError, match=f"{pod.hostname(leaf)} cage 1: its cables are on two media"):
        push(pod, client)
    assert not [r for r in fake.requests if r.method != "GET"]
    report = push(pod, client, modules=False)
    assert report.created["dcim/devices"] > 0 and not fake.store.data["dcim/modules"]


def test_the_fake_answers_a_second_module_in_a_bay_as_netbox_4_6_8_does(pod, fake, client):
    """NetBox's serializer lets it through and the database refuses: a 500 (error.module-bay-occupied)."""
    import pytest

    from planner.netbox.client import NetBoxError

    push(pod, client)
    module = next(iter(fake.store.data["dcim/modules"].values()))
    with pytest.raises(NetBoxError, match="500") as refused:
        client.create("dcim/modules", [{key: module[key] for key in ("device", "module_bay", "module_type")}])
    assert f"(module_bay_id)=({module['module_bay']}) already exists" in str(refused.value)
