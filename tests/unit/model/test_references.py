"""References declared once (``planner.model.objects.refers``) and followed everywhere from there.

The declaration is checked against the plan as DESIGN §3 describes it, and each place that
follows references is checked through the declaration: the loader, delete's clearing, copying,
assignment, diff's names and merge's renumbering. A test also keeps the old hand-written lists
from coming back.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

import planner
from planner.commands import Refusal
from planner.commands.edits import assign
from planner.io import HallFileError, dumps, loads
from planner.layout.templates import build_template
from planner.model.objects import ASSIGNED, NOTE, OWNED, Comment, Device, Link, Rack
from planner.model.references import (
    REFERENCE_FIELDS,
    all_references,
    follow_copies,
    reference_fields,
    reference_names,
    why_not_target,
)
from planner.review.diff import diff_plans


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod", 32))


def test_the_declared_references_are_the_plans_relations():
    declared = {(r.cls.__name__, r.field): (r.ref.hold, r.ref.to) for r in all_references()}
    assert declared == {
        ("Rack", "feed_a"): (ASSIGNED, ("busbars",)),
        ("Rack", "feed_b"): (ASSIGNED, ("busbars",)),
        ("Rack", "cdu"): (ASSIGNED, ("floor_units", "devices")),
        ("Device", "rack"): (OWNED, ("racks",)),
        ("Link", "a_device"): (OWNED, ("devices",)),
        ("Link", "b_device"): (OWNED, ("devices",)),
        ("Comment", "target"): (NOTE, ()),
        ("Comment", "reply_to"): (NOTE, ("comments",)),
    }
    assert REFERENCE_FIELDS == {"feed_a", "feed_b", "cdu", "rack", "a_device", "b_device", "target", "reply_to"}
    assert reference_fields(Device, "rack") == ("rack", "u", "type")
    assert reference_fields(Link, "a_device") == ("a_device", "a_port", "b_device", "b_port")


def test_owned_references_are_the_ones_the_document_indexes():
    """``Document.dependents`` answers from two indexes (devices by rack, links by device): a new
    owned reference needs an index there too, and this test says so."""
    owned = {(r.cls, r.field) for r in all_references() if r.ref.hold == OWNED}
    assert owned == {(Device, "rack"), (Link, "a_device"), (Link, "b_device")}


def test_the_loader_refuses_a_reference_to_nothing_and_to_the_wrong_kind(pod_text):
    doc = loads(pod_text)
    rack = next(iter(doc.racks.values()))
    some_device = next(iter(doc.devices.values()))
    for name, value, says in (("feed_a", "bus-999", "no busbar 'bus-999'"),
                              ("cdu", rack.id, f"{rack.id} is a rack, not a CDU"),
                              ("feed_b", some_device.id, f"{some_device.id} is a device, not a busbar")):
        broken = loads(pod_text)
        setattr(broken.racks[rack.id], name, value)
        with pytest.raises(HallFileError) as error:
            loads(dumps(broken))
        assert error.value.path == f"$.racks[0].{name}" and says in str(error.value), str(error.value)
    broken = loads(pod_text)
    broken.devices[some_device.id].rack = "bus-1"
    with pytest.raises(HallFileError, match=r"\.rack: bus-1 is a busbar, not a rack"):
        loads(dumps(broken))


def test_a_comment_may_outlive_what_it_is_on(pod_text):
    doc = loads(pod_text)
    doc.add(Comment(id="cmt-1", text="gone", target="rack-999", reply_to="cmt-404"))
    assert "cmt-1" in loads(dumps(doc)).comments


def test_delete_clears_what_was_assigned_and_undo_puts_it_back(pod_text):
    doc = loads(pod_text)
    bus = next(b for b in doc.busbars.values() if b.side == "A")
    fed = sorted(r.id for r in doc.racks.values() if r.feed_a == bus.id)
    assert fed and doc.references_to(bus.id) == [(rack_id, "feed_a") for rack_id in
                                                 [r.id for r in doc.racks.values() if r.feed_a == bus.id]]
    from planner.commands.edits import delete_objects
    command = delete_objects(doc, [bus.id])
    command.apply(doc)
    assert all(doc.racks[rack_id].feed_a is None for rack_id in fed)
    command.revert(doc)
    assert all(doc.racks[rack_id].feed_a == bus.id for rack_id in fed)


def test_copies_follow_the_copies_made_with_them(pod_text):
    doc = loads(pod_text)
    rack = next(r for r in doc.racks.values() if r.cdu and r.feed_a)
    device = doc.devices_in(rack.id)[0]
    rack_copy, device_copy = copy.deepcopy(rack), copy.deepcopy(device)
    follow_copies(device_copy, {rack.id: "rack-900"}, doc)
    assert device_copy.rack == "rack-900"
    follow_copies(rack_copy, {rack.feed_a: "bus-900"}, doc)  # its busbar copied along, its CDU not
    assert (rack_copy.feed_a, rack_copy.cdu) == ("bus-900", rack.cdu)
    lonely = copy.deepcopy(rack)
    lonely.cdu = "fu-404"  # assigned to something that is not in the plan any more
    follow_copies(lonely, {}, doc)
    assert lonely.cdu is None and lonely.feed_a == rack.feed_a
    with pytest.raises(KeyError):  # a device cannot be copied without its rack
        follow_copies(copy.deepcopy(device), {}, doc)


def test_assignment_asks_the_declaration(pod_text):
    doc = loads(pod_text)
    rack = next(iter(doc.racks.values()))
    bus_b = next(b for b in doc.busbars.values() if b.side == "B")
    with pytest.raises(Refusal, match=f"{bus_b.name} is on side B, not A"):
        assign(doc, [rack.id], "feed_a", bus_b.id)
    with pytest.raises(Refusal, match=f"{rack.id} is not a CDU"):
        assign(doc, [rack.id], "cdu", rack.id)
    with pytest.raises(Refusal, match="cannot assign rack"):
        assign(doc, [rack.id], "rack", rack.id)
    cdu = next(u for u in doc.floor_units.values() if doc.catalog[u.type].kind == "row_cdu")
    assert why_not_target(doc, next(r for r in all_references() if r.field == "cdu"), cdu.id) is None
    assert assign(doc, [rack.id], "feed_b", None).text == f"Clear feed B of {rack.name}"


def test_diff_names_what_a_reference_points_at(pod_text):
    old, new = loads(pod_text), loads(pod_text)
    rack = next(r for r in new.racks.values() if r.feed_a)
    other = next(b for b in new.busbars.values() if b.side == "A" and b.id != rack.feed_a)
    new.racks[rack.id].feed_a = other.id
    entry = next(e for e in diff_plans(old, new).changed if e["id"] == rack.id)
    assert entry["fields"]["feed_a"]["new"] == other.name, entry


def test_every_id_field_of_every_object_is_declared():
    """A field whose name says it holds an id (``…_device``, ``feed_…``, ``rack``, ``cdu``,
    ``target``, ``reply_to``) and is not declared would be missed by every place above."""
    looks_like_id = re.compile(r"(_device|^feed_.|^rack|^cdu|^target|^reply_to)$")
    for cls in (Rack, Device, Link, Comment):
        from dataclasses import fields
        for name in (f.name for f in fields(cls)):
            if looks_like_id.search(name):
                assert name in reference_names(cls), f"{cls.__name__}.{name} holds an id but is not declared"


def test_no_module_lists_reference_fields_by_hand():
    """The old hand-written lists (nine places in wave 2) stay gone: no literal tuple or set of
    reference field names anywhere in the package."""
    written = re.compile(r"""[({]\s*["'](feed_a|a_device|rack|target)["']\s*,\s*["'](feed_b|b_device|feed_a|cdu|"""
                         r"""reply_to)["']""")
    root = Path(planner.__file__).parent
    offenders = [f"{path.relative_to(root)}:{number}" for path in root.rglob("*.py")
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if written.search(line) and "objects.py" not in path.name]
    assert offenders == []
