"""What two valid edits make impossible together is a conflict, not written silently
(planner.review.merge_checks): two cables on one port, devices overlapping in a rack or beyond
its U, a device in a rack the other side deleted, a cable to a deleted device or onto a port its
device's type lacks, a feed or CDU loop on a deleted busbar or CDU, an object of a deleted type,
two racks of one name. Each keeps ours there, and the result loads back and validates with no
error that neither side had."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from planner.commands.base import AddCatalogItem, AddObjects, Command, SetFields
from planner.commands.comments import add_comment
from planner.commands.edits import assign, delete_objects, move_device, place_device, place_rack
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.catalog import CatalogItem
from planner.model.labels import cable_label
from planner.model.objects import COLLECTIONS, Link
from planner.review.merge import merge_plans
from planner.review.merge_errors import new_errors

Edit = Callable[[object], Command]


@pytest.fixture(scope="module")
def base_text() -> str:
    """A two-row hall of 64 nodes: 18 racks, about 160 devices, 1,024 cables, less link-1 (every leaf
    port is cabled in a full SU; this one is free now)."""
    doc = build_template("hall", 64)
    delete_objects(doc, ["link-1"]).apply(doc)
    return dumps(doc)


@pytest.fixture(scope="module")
def free_end() -> tuple[str, str]:
    """link-1's leaf end: the leaf and the port the base leaves free."""
    link = build_template("hall", 64).links["link-1"]
    return link.b_device, link.b_port


def fresh(doc, prefix: str, k: int = 1) -> str:
    """The k-th id a plan hands out next in a collection (``rack-19`` after ``rack-18``)."""
    attr = COLLECTIONS[prefix][0]
    return f"{prefix}-{max((int(i.split('-')[1]) for i in getattr(doc, attr)), default=0) + k}"


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def device(doc, rack_name, name):
    return next(d for d in doc.devices_in(rack(doc, rack_name).id) if d.name == name)


def apply(doc, edits: list[Edit]):
    for edit in edits:
        edit(doc).apply(doc)
    return doc


def merge(base_text, ours_edits: list[Edit], theirs_edits: list[Edit]):
    ours, theirs = apply(loads(base_text), ours_edits), apply(loads(base_text), theirs_edits)
    result = merge_plans(loads(base_text), ours, theirs)
    text = dumps(result.doc)
    assert dumps(loads(text)) == text  # the result loads back as it is
    assert new_errors(result, loads(text), ours, theirs) == []
    return result, ours, theirs


def test_two_cables_rewired_onto_one_free_port(base_text, free_end):
    doc = loads(base_text)
    leaf, port = free_end
    first, second = (link.id for link in doc.links_of(leaf)[:2])
    result, _ours, _theirs = merge(base_text, [lambda d: SetFields({first: {"b_port": port}})],
                                   [lambda d: SetFields({second: {"b_port": port}})])
    (conflict,) = result.conflicts
    assert (conflict.kind, conflict.id, conflict.field) == ("cable", second, "ends")
    assert conflict.reason == f"2 cables on port {doc.hostname(doc.devices[leaf])} {port}"
    assert conflict.theirs["b_port"] == port and conflict.ours["b_port"] == doc.links[second].b_port
    assert result.doc.links[first].b_port == port
    assert result.doc.links[second].b_port == doc.links[second].b_port  # back on its port, as ours has it


def test_new_cables_from_both_sides_on_one_free_port(base_text, free_end):
    """Both sides put the same storage node in R12 (the same new object: kept once) and cable one
    of its ports to the free leaf port: the cables clash in id (theirs renumbered) and in port
    (theirs left out)."""
    def cabled_storage(port: str, note: str) -> list[Edit]:
        return [lambda d: place_device(d, "storage-flash-2u", rack(d, "R12").id, 44),
                lambda d: AddObjects([Link(id=d.new_id("link"), a_device=device(d, "R12", "ST1").id, a_port=port,
                                           b_device=free_end[0], b_port=free_end[1], label=note)])]
    result, _ours, _theirs = merge(base_text, cabled_storage("1", "ours"), cabled_storage("2", "theirs"))
    base = loads(base_text)
    mine, theirs = fresh(base, "link"), fresh(base, "link", 2)
    (conflict,) = result.conflicts
    assert (conflict.id, conflict.kept) == (theirs, "left out theirs' cable theirs")
    assert result.renumbered == {mine: theirs} and theirs not in result.doc.links
    assert result.doc.links[mine].label == "ours" and len(result.doc.devices) == len(base.devices) + 1


def test_devices_moved_into_the_same_units(base_text):
    result, _ours, _theirs = merge(
        base_text, [lambda d: move_device(d, device(d, "R12", "N1").id, rack(d, "R12").id, 40)],
        [lambda d: move_device(d, device(d, "R12", "N2").id, rack(d, "R12").id, 42)])
    (conflict,) = result.conflicts
    assert (conflict.name, conflict.field) == ("R12-N2", "place")
    assert conflict.reason == "R12-N2 at U42–U45 overlaps R12-N1 (up to U43)"
    assert result.doc.devices[device(result.doc, "R12", "N2").id].u == device(loads(base_text), "R12", "N2").u


def test_a_rack_made_smaller_under_a_device_the_other_side_moved_up(base_text):
    result, _ours, _theirs = merge(
        base_text, [lambda d: SetFields({rack(d, "R12").id: {"type": "rack-600x1200-48u"}})],
        [lambda d: move_device(d, device(d, "R12", "N1").id, rack(d, "R12").id, 48)])
    (conflict,) = result.conflicts
    assert (conflict.name, conflict.field, conflict.reason) == ("R12-N1", "place",
                                                                "R12-N1 takes U48–U51 of a 48U rack")
    assert device(result.doc, "R12", "N1").u == device(loads(base_text), "R12", "N1").u


def test_a_device_added_to_a_rack_the_other_side_deleted(base_text):
    r12 = rack(loads(base_text), "R12").id
    result, ours, _theirs = merge(base_text, [lambda d: delete_objects(d, [r12])],
                                  [lambda d: place_device(d, "storage-flash-2u", r12, 44)])
    (conflict,) = result.conflicts
    assert (conflict.kind, conflict.name, conflict.field) == ("device", "R12-ST1", "rack")
    assert conflict.reason == "R12-ST1 is in rack R12, which ours deleted"
    assert conflict.kept == "left out theirs' device R12-ST1"
    assert dumps(result.doc) == dumps(ours)


def test_a_cable_rewired_to_a_device_the_other_side_deleted(base_text):
    doc = loads(base_text)
    n1, n2 = device(doc, "R12", "N1"), device(doc, "R12", "N2")
    on_n1 = next(link for link in doc.links_of(n1.id) if link.a_port == "P1")
    on_n2 = next(link for link in doc.links_of(n2.id) if link.a_port == "P1")
    result, _ours, _theirs = merge(
        base_text, [lambda d: delete_objects(d, [n1.id])],
        [lambda d: delete_objects(d, [on_n1.id]), lambda d: SetFields({on_n2.id: {"a_device": n1.id}})])
    (conflict,) = result.conflicts
    assert (conflict.id, conflict.field) == (on_n2.id, "end A")
    assert conflict.reason == f"{cable_label(doc, replace(on_n2, a_device=n1.id))} ends on R12-N1, which ours deleted"
    assert result.doc.links[on_n2.id].a_device == n2.id and n1.id not in result.doc.devices


def test_a_cable_rewired_to_a_port_the_device_no_longer_has(base_text):
    """Ours turns N1 into a storage node (ports 1 and 2, its cables gone); theirs moves a cable
    of N2 onto N1 P1: that port is no more."""
    doc = loads(base_text)
    n1, n2 = device(doc, "R12", "N1"), device(doc, "R12", "N2")
    on_n1 = next(link for link in doc.links_of(n1.id) if link.a_port == "P1")
    on_n2 = next(link for link in doc.links_of(n2.id) if link.a_port == "P1")
    result, _ours, _theirs = merge(
        base_text,
        [lambda d: delete_objects(d, [link.id for link in d.links_of(n1.id)]),
         lambda d: SetFields({n1.id: {"type": "storage-flash-2u"}})],
        [lambda d: delete_objects(d, [on_n1.id]), lambda d: SetFields({on_n2.id: {"a_device": n1.id}})])
    (conflict,) = result.conflicts
    assert (conflict.id, conflict.field) == (on_n2.id, "ends")
    assert conflict.reason == f"{cable_label(doc, replace(on_n2, a_device=n1.id))} ends on port P1, which R12-N1 (storage-flash-2u) does not have"
    assert result.doc.links[on_n2.id].a_device == n2.id


def test_a_feed_and_a_loop_on_a_busbar_and_a_cdu_the_other_side_deleted(base_text):
    doc = loads(base_text)
    r10 = rack(doc, "R10")
    bus_a = next(b for b in doc.busbars.values() if b.side == "A" and b.id != r10.feed_a)
    result, ours, _theirs = merge(
        base_text, [lambda d: delete_objects(d, [bus_a.id, "fu-1"])],
        [lambda d: assign(d, [r10.id], "feed_a", bus_a.id), lambda d: assign(d, [r10.id], "cdu", "fu-1")])
    loop, feed = sorted(result.conflicts, key=lambda c: c.field)
    assert (loop.name, loop.field, loop.reason) == ("R10", "cdu", "R10's cdu is CDU-01, which ours deleted")
    assert (feed.field, feed.ours, feed.theirs) == ("feed_a", r10.feed_a, bus_a.id)
    assert feed.reason == f"R10's feed a is {bus_a.name}, which ours deleted"
    assert dumps(result.doc) == dumps(ours)


def test_a_device_of_a_type_the_other_side_removed(base_text):
    item = CatalogItem(key="custom-store", kind="storage", name="Store", height_u=2, weight_kg=30.0,
                       width_m=0.44, depth_m=0.8, power_w=500.0, power_peak_w=600.0, port_cages=2, port_speed_gbps=400.0)
    start = loads(base_text)
    AddCatalogItem(item).apply(start)
    text = dumps(start)
    ours = loads(text)
    del ours.catalog.items["custom-store"]  # no longer wanted (the dialog's undo of its definition)
    theirs = loads(text)
    place_device(theirs, "custom-store", rack(theirs, "R12").id, 44).apply(theirs)
    result = merge_plans(loads(text), ours, theirs)
    (conflict,) = result.conflicts
    assert (conflict.field, conflict.reason) == ("type", "R12-ST1 is a custom-store, which ours deleted")
    assert dumps(result.doc) == dumps(ours)


def test_new_racks_of_one_name_are_renamed_but_a_rename_onto_a_name_is_a_conflict(base_text):
    result, _ours, _theirs = merge(base_text, [lambda d: place_rack(d, "rack-600x1200-48u", 20.0, 12.0)],
                                   [lambda d: SetFields({rack(d, "R18").id: {"name": "R19"}}),
                                    lambda d: place_rack(d, "rack-600x1200-48u", 24.0, 12.0)])
    (conflict,) = result.conflicts
    assert (conflict.name, conflict.field, conflict.ours, conflict.theirs) == ("R18", "name", "R18", "R19")
    assert conflict.reason == "2 racks are called R19"
    # theirs' new rack took R18, which theirs' rename had freed: once R18 is back, it is renamed
    assert result.renamed == [{"kind": "rack", "id": fresh(loads(base_text), "rack", 2), "theirs_name": "R18",
                               "name": "R20"}]
    assert len({r.name for r in result.doc.racks.values()}) == len(result.doc.racks) == 20


def test_devices_added_to_one_rack_on_both_sides_take_free_names(base_text):
    r12 = rack(loads(base_text), "R12").id
    result, _ours, _theirs = merge(base_text, [lambda d: place_device(d, "storage-flash-2u", r12, 44)],
                                   [lambda d: place_device(d, "storage-flash-2u", r12, 47)])
    mine, theirs = fresh(loads(base_text), "dev"), fresh(loads(base_text), "dev", 2)
    assert result.conflicts == [] and result.renumbered == {mine: theirs}
    assert result.renamed == [{"kind": "device", "id": theirs, "theirs_name": "ST1", "name": "ST2"}]
    assert {(d.name, d.u) for d in result.doc.devices_in(r12) if d.name.startswith("ST")} == {("ST1", 44), ("ST2", 47)}


def test_a_comment_on_a_rack_the_other_side_deleted_is_kept_with_a_note(base_text):
    r03 = rack(loads(base_text), "R03")
    result, _ours, _theirs = merge(base_text, [lambda d: delete_objects(d, [r03.id])],
                                   [lambda d: add_comment(d, "Too heavy?", "theirs", r03.x, r03.y, r03.id,
                                                          "2026-01-01T00:00:00Z")])
    assert result.conflicts == []
    assert result.doc.comments["cmt-1"].target == r03.id
    assert result.notes == ["comment 'Too heavy?' (cmt-1) is on R03, which ours deleted"]


def test_a_device_ours_changed_in_a_rack_theirs_deleted_brings_the_rack_back_whole(base_text):
    base = loads(base_text)
    r12, n1 = rack(base, "R12"), device(base, "R12", "N1")
    result, ours, _theirs = merge(base_text, [lambda d: SetFields({n1.id: {"notes": "keep"}})],
                                  [lambda d: delete_objects(d, [r12.id])])
    changed, dangling = result.conflicts
    assert (changed.id, changed.reason) == (n1.id, "ours changed it, theirs deleted it")
    assert changed.kept.startswith(f"ours, with {len(base.links_of(n1.id))} cables")  # of every network
    others = len(base.devices_in(r12.id)) - 1
    assert (dangling.id, dangling.field, dangling.reason) == (r12.id, "", "R12-N1 is in rack R12, which theirs deleted")
    assert (dangling.base, dangling.ours, dangling.theirs) == ("(present)", "(present)", "(deleted)")
    assert dangling.kept.startswith(f"kept ours' rack R12 with {others} devices, ")
    assert dumps(result.doc) == dumps(ours)
