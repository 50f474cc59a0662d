"""planner.review.diff: each kind of change alone and together, renames, moves, rewires and no
change, on a 16-node pod (racks R01–R05 in one row, CDU-01, BB-A01, BB-B01, 8 rail cables per node).

The pod's racks stand in one row at y 3.0 m, 0.8 m apart from R01 at x 4.0 (R03 was placed
last, at x 5.6); edits go through the real commands (planner.commands.edits)."""

from __future__ import annotations

import pytest

from planner.asbuilt.states import set_state_command
from planner.commands.base import AddObjects, SetAttributes, SetFields
from planner.commands.edits import (
    assign,
    delete_objects,
    move_device,
    move_objects,
    place_rack,
    rotate_objects,
)
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.catalog import CatalogItem
from planner.model.labels import cable_label
from planner.model.objects import Comment
from planner.review.diff import diff_plans
from planner.review.text import change_lines

JSON_KEYS = ["added", "removed", "moved", "changed", "cables", "findings", "figures"]


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod", nodes=16))


@pytest.fixture
def pair(pod_text):
    """(old, new): two independent copies of the pod; tests edit ``new``."""
    return loads(pod_text), loads(pod_text)


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def device(doc, rack_name, name):
    rack_id = rack(doc, rack_name).id
    return next(d for d in doc.devices.values() if d.rack == rack_id and d.name == name)


def objects_only(old, new):
    return diff_plans(old, new, consequences=False)


def test_no_change_is_empty(pair):
    old, new = pair
    diff = diff_plans(old, new)
    assert diff.is_empty
    assert diff.as_json() == {"added": [], "removed": [], "moved": [], "changed": [],
                              "cables": {"added": [], "removed": [], "rewired": [], "changed": []},
                              "findings": {"new": [], "resolved": []}, "figures": []}
    assert list(diff.as_json()) == JSON_KEYS
    assert diff.touched_ids() == set()


def test_move_rack(pair):
    old, new = pair
    r03 = rack(new, "R03")
    move_objects(new, [r03.id], 0.6, 0.0).apply(new)
    diff = objects_only(old, new)
    assert diff.moved == [{"id": r03.id, "kind": "rack", "name": "R03",
                           "from": {"x": 5.6, "y": 3.0, "rotation": 0}, "to": {"x": 6.2, "y": 3.0, "rotation": 0}}]
    assert not (diff.added or diff.removed or diff.changed or any(diff.cables.values()))
    assert change_lines(diff) == ["Moved (1)", "  moved R03 from (5.6, 3.0) to (6.2, 3.0)"]
    assert diff.touched_ids() == {r03.id}


def test_rotate_rack_is_a_move(pair):
    old, new = pair
    r01 = rack(new, "R01")
    rotate_objects(new, [r01.id], 90).apply(new)
    diff = objects_only(old, new)
    assert diff.moved[0]["from"] == {"x": 4.0, "y": 3.0, "rotation": 0}
    assert diff.moved[0]["to"] == {"x": 4.0, "y": 3.0, "rotation": 90}
    assert change_lines(diff)[1] == "  moved R01 from (4.0, 3.0) to (4.0, 3.0), turned 0° → 90°"


def test_rename_rack_and_cdu(pair):
    old, new = pair
    r02 = rack(new, "R02")
    cdu = next(iter(new.floor_units.values()))
    SetFields({r02.id: {"name": "R02b"}, cdu.id: {"name": "CDU-A"}}).apply(new)
    diff = objects_only(old, new)
    assert diff.changed == [
        {"id": r02.id, "kind": "rack", "name": "R02b", "fields": {"name": {"old": "R02", "new": "R02b"}}},
        {"id": cdu.id, "kind": "floor_unit", "name": "CDU-A", "fields": {"name": {"old": "CDU-01", "new": "CDU-A"}}},
    ]
    assert change_lines(diff) == ["Changed (2)", "  renamed R02 → R02b", "  renamed floor unit CDU-01 → CDU-A"]
    # a rack's rename renames its devices' default hostnames, but the devices did not change
    assert diff.touched_ids() == {r02.id, cdu.id}


def test_assignment_change_names_the_busbars(pair):
    old, new = pair
    r05 = rack(new, "R05")
    bus_b = next(b for b in new.busbars.values() if b.side == "B")
    assign(new, [r05.id], "feed_b", None).apply(new)
    diff = objects_only(old, new)
    assert diff.changed == [{"id": r05.id, "kind": "rack", "name": "R05",
                             "fields": {"feed_b": {"old": bus_b.name, "new": None}}}]
    assert change_lines(diff)[1] == "  R05: feed B BB-B01 → (none)"


def test_add_rack_and_its_first_device(pair):
    old, new = pair
    command = place_rack(new, "rack-800x1200-52u", 6.0, 5.4)
    command.apply(new)
    diff = objects_only(old, new)
    added = {e["id"]: e for e in diff.added}
    new_rack = next(o for o in command.objects if o.id.startswith("rack-"))
    assert added[new_rack.id] == {"id": new_rack.id, "kind": "rack", "name": new_rack.name, "x": 6.0, "y": 5.4}
    assert diff.touched_ids() == {o.id for o in command.objects}
    assert change_lines(diff)[0] == f"Added ({len(command.objects)})"
    assert f"  {new_rack.name} at (6.0, 5.4)" in change_lines(diff)


def test_delete_device_removes_its_cables(pair):
    old, new = pair
    n1 = device(new, "R01", "N1")
    cables = new.link_ids_of(n1.id)
    delete_objects(new, [n1.id]).apply(new)
    diff = objects_only(old, new)
    # a removed device is centred on its rack (in the old plan)
    assert diff.removed == [{"id": n1.id, "kind": "device", "name": "R01-N1", "x": 4.0, "y": 3.0}]
    # every cable of the node, of every network: its 8 rails among them
    assert {e["id"] for e in diff.cables["removed"]} == cables
    assert sum(old.links[i].tier == "node-leaf" for i in cables) == 8
    first = min((e for e in diff.cables["removed"] if old.links[e["id"]].tier == "node-leaf"), key=lambda e: e["label"])
    assert first["a"] == "R01-N1 P1"
    assert diff.touched_ids() == cables | {n1.id}


def test_move_device_to_another_rack(pair):
    old, new = pair
    n4 = device(new, "R05", "N4")
    r03 = rack(new, "R03")
    u = new.lowest_free_u(r03.id, new.catalog[n4.type].height_u)
    move_device(new, n4.id, r03.id, u).apply(new)
    diff = objects_only(old, new)
    # named by its new hostname: it now lives in R03
    assert diff.moved == [{"id": n4.id, "kind": "device", "name": "R03-N4",
                           "from": {"rack": "R05", "u": 13}, "to": {"rack": "R03", "u": u}}]
    assert change_lines(diff)[1] == f"  moved device R03-N4 from R05 U13 to R03 U{u}"


def test_rewire_one_end(pair):
    old, new = pair
    links = sorted(new.links.values(), key=lambda link: cable_label(new, link))
    link = links[0]
    spare = "32/2"
    SetFields({link.id: {"b_port": spare}}).apply(new)
    label = cable_label(new, link)
    assert label.endswith(f"-{spare}")  # the derived label follows the moved end
    diff = objects_only(old, new)
    leaf = new.hostname(new.devices[link.b_device])
    node = new.hostname(new.devices[link.a_device])
    old_port = old.links[link.id].b_port
    assert diff.cables["rewired"] == [{"id": link.id, "label": label,
                                       "from": {"a": f"{node} {link.a_port}", "b": f"{leaf} {old_port}"},
                                       "to": {"a": f"{node} {link.a_port}", "b": f"{leaf} {spare}"}}]
    assert not diff.cables["changed"]
    assert change_lines(diff)[1] == (f"  rewired {label}: {node} {link.a_port} → {leaf} {old_port} "
                                     f"now → {leaf} {spare}")


def test_cable_media_length_and_state_are_changes(pair):
    old, new = pair
    link = min(new.links.values(), key=lambda link: cable_label(new, link))
    before = old.links[link.id]
    SetFields({link.id: {"media": "dr4", "length_m": 12.0, "stock_m": 15.0}}).apply(new)
    set_state_command(new, [link.id], "faulty", "bent at the tray").apply(new)
    diff = objects_only(old, new)
    assert diff.cables["changed"] == [{"id": link.id, "label": cable_label(new, link), "fields": {
        "media": {"old": before.media, "new": "dr4"}, "length_m": {"old": before.length_m, "new": 12.0},
        "stock_m": {"old": before.stock_m, "new": 15.0}, "state": {"old": "planned", "new": "faulty"},
        "state_note": {"old": "", "new": "bent at the tray"}}}]
    assert not diff.cables["rewired"]
    line = change_lines(diff)[1]
    assert line.startswith(f"  changed {cable_label(new, link)}: media {before.media} → dr4; length ")
    assert "stock length" in line and "state planned → faulty" in line


def test_moved_busbar_and_changed_zone_polygon(pair):
    old, new = pair
    bus = next(b for b in new.busbars.values() if b.side == "A")
    zone = next(iter(new.zones.values()))
    move_objects(new, [bus.id], 0.0, -0.3).apply(new)
    polygon = [(x + 1.0, y) for x, y in zone.polygon]
    SetFields({zone.id: {"polygon": polygon, "rating_kpa": 15.0}}).apply(new)
    diff = objects_only(old, new)
    moved = {e["id"]: e for e in diff.moved}
    assert moved[bus.id]["from"] == {"x1": old.busbars[bus.id].x1, "y1": 2.4, "x2": old.busbars[bus.id].x2, "y2": 2.4}
    assert moved[bus.id]["to"]["y1"] == pytest.approx(2.1)
    assert moved[zone.id]["to"] == {"polygon": [list(p) for p in polygon]}
    assert diff.changed == [{"id": zone.id, "kind": "zone", "name": zone.name,
                             "fields": {"rating_kpa": {"old": old.zones[zone.id].rating_kpa, "new": 15.0}}}]


def test_plan_wide_settings(pair):
    old, new = pair
    SetAttributes("basis", {"derating": 1.0}, "IEC").apply(new)
    SetAttributes("meta", {"revision": "B"}, "Rev B").apply(new)
    new.catalog.add(CatalogItem(key="my-rack", kind="rack", name="My rack", width_m=0.6, depth_m=1.2,
                                rack_units=42, custom=True))
    diff = objects_only(old, new)
    assert [(e["kind"], e["fields"]) for e in diff.changed] == [
        ("basis", {"derating": {"old": 0.8, "new": 1.0}}), ("title", {"revision": {"old": "A", "new": "B"}})]
    assert diff.added == [{"id": "my-rack", "kind": "type", "name": "My rack", "x": None, "y": None}]
    assert diff.touched_ids() == set()  # no object of a collection changed
    assert not diff.is_empty


def test_comment_added_is_named_by_its_text(pair):
    old, new = pair
    AddObjects([Comment(id="cmt-1", text="Is the aisle wide enough here for the CDU?", author="ana", x=5.0,
                        y=4.0), Comment(id="cmt-2", text="OK", reply_to="cmt-1")]).apply(new)
    diff = objects_only(old, new)
    # the name is the text, cut to 40 characters; a reply is found at its comment's pin
    assert diff.added == [{"id": "cmt-1", "kind": "comment", "name": "Is the aisle wide enough here for the C…",
                           "x": 5.0, "y": 4.0},
                          {"id": "cmt-2", "kind": "comment", "name": "OK", "x": 5.0, "y": 4.0}]


def test_everything_together(pair):
    old, new = pair
    r03, r02 = rack(new, "R03"), rack(new, "R02")
    link = min(new.links.values(), key=lambda link: link.label)
    n2 = device(new, "R04", "N2")
    cables = new.link_ids_of(n2.id)
    place = place_rack(new, "rack-800x1200-52u", 6.0, 5.4)
    for command in (move_objects(new, [r03.id], 0.6, 0.0), SetFields({r02.id: {"name": "R02b"}}),
                    SetFields({link.id: {"b_port": "32/2"}}), delete_objects(new, [n2.id]), place):
        command.apply(new)
    diff = objects_only(old, new)
    assert [e["id"] for e in diff.moved] == [r03.id]
    assert [e["id"] for e in diff.changed] == [r02.id]
    assert {e["id"] for e in diff.removed} == {n2.id}
    assert {e["id"] for e in diff.added} == {o.id for o in place.objects}
    assert [e["id"] for e in diff.cables["rewired"]] == [link.id]
    assert {e["id"] for e in diff.cables["removed"]} == cables
    assert diff.touched_ids() == {r03.id, r02.id, link.id, n2.id, *cables, *(o.id for o in place.objects)}
    lines = change_lines(diff)
    headings = [line for line in lines if not line.startswith("  ")]
    assert headings[:4] == [f"Added ({len(place.objects)})", "Removed (1)", "Moved (1)", "Changed (1)"]
    assert headings[4] == f"Cables ({len(cables) + 1}): {len(cables)} removed, 1 rewired"  # every network's cables


def test_as_json_is_plain_json(pair):
    import json

    old, new = pair
    zone = next(iter(new.zones.values()))
    SetFields({zone.id: {"polygon": [(0.0, 0.0), (11.0, 0.0), (11.0, 6.0), (0.0, 6.0)]}}).apply(new)
    data = json.loads(json.dumps(diff_plans(old, new).as_json()))
    assert data["moved"][0]["to"]["polygon"][1] == [11.0, 0.0]
