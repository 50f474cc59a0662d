"""Commands: apply → revert → apply restores the document exactly, and gestures do the right thing."""

from __future__ import annotations

import pytest

from planner.commands import AddCatalogItem, SetAttributes, SetOutline
from planner.commands.edits import (
    Refusal,
    array_racks,
    assign,
    delete_objects,
    duplicate_objects,
    move_device,
    move_objects,
    place_busbar,
    place_device,
    place_device_on_floor,
    place_floor_unit,
    place_rack,
    rotate_objects,
    row_of_racks,
)
from planner.io import dumps


def round_trip(doc, command):
    before = dumps(doc)
    command.apply(doc)
    after = dumps(doc)
    assert after != before
    command.revert(doc)
    assert dumps(doc) == before
    command.apply(doc)
    assert dumps(doc) == after


def rack_named(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def device_named(doc, rack_name, device_name):
    return next(x for x in doc.devices_in(rack_named(doc, rack_name).id) if x.name == device_name)


BUILDERS = {
    "place_rack": lambda d: place_rack(d, "rack-600x1200-48u", 20.0, 10.0),
    "place_floor_unit": lambda d: place_floor_unit(d, "cdu-row-1500kw", 20.0, 14.0),
    "place_busbar": lambda d: place_busbar(d, "busbar-400a", 1, 9, 8, 9, side="B"),
    "place_device": lambda d: place_device(d, "storage-flash-2u", rack_named(d, "R01").id),
    "device_on_floor": lambda d: place_device_on_floor(d, "node-8gpu-liquid-4u", 20.0, 10.0),
    "move_device": lambda d: move_device(d, device_named(d, "R01", "N1").id,
                                         rack_named(d, "R02").id, 30),
    "delete_rack": lambda d: delete_objects(d, [rack_named(d, "R05").id]),
    "delete_busbar": lambda d: delete_objects(d, ["bus-1"]),
    "move": lambda d: move_objects(d, [rack_named(d, "R01").id, "bus-1"], 0.6, 1.2),
    "rotate": lambda d: rotate_objects(d, [rack_named(d, "R01").id]),
    "duplicate": lambda d: duplicate_objects(d, [rack_named(d, "R02").id, "fu-1"], 0, 6),
    "array": lambda d: array_racks(d, rack_named(d, "R09").id, 3),
    "row": lambda d: row_of_racks(d, "rack-600x1200-48u", 4, 10, 5, row="2"),
    "assign": lambda d: assign(d, [rack_named(d, "R01").id], "feed_a", None),
    "basis": lambda d: SetAttributes("basis", {"derating": 1.0, "fluid": "pg25"}, "Basis"),
    "meta": lambda d: SetAttributes("meta", {"revision": "C"}, "Revision"),
    "outline": lambda d: SetOutline([(0, 0), (40, 0), (40, 20), (0, 20)]),
    "custom_type": lambda d: AddCatalogItem(
        __import__("dataclasses").replace(d.catalog["sw-64x400g-1u"], key="sw-x", name="X", custom=True)),
}


@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_apply_revert_apply_restores_exactly(core_doc, name):
    round_trip(core_doc, BUILDERS[name](core_doc))


def test_delete_rack_takes_devices_and_is_one_step(core_doc):
    rack = rack_named(core_doc, "R03")
    device_ids = {d.id for d in core_doc.devices_in(rack.id)}
    command = delete_objects(core_doc, [rack.id])
    change = command.apply(core_doc)
    assert rack.id not in core_doc.racks
    assert device_ids and not device_ids & set(core_doc.devices)
    assert change.removed >= device_ids | {rack.id}
    command.revert(core_doc)
    assert {d.id for d in core_doc.devices_in(rack.id)} == device_ids


def test_delete_busbar_unassigns_racks(core_doc):
    command = delete_objects(core_doc, ["bus-1"])
    command.apply(core_doc)
    assert all(r.feed_a is None for r in core_doc.racks.values())
    command.revert(core_doc)
    assert all(r.feed_a == "bus-1" for r in core_doc.racks.values())


def test_device_goes_to_lowest_free_u_and_refuses_when_full(core_doc):
    rack = rack_named(core_doc, "R01")  # four 4U nodes at U1, U5, U9, U13
    command = place_device(core_doc, "node-8gpu-10u", rack.id)
    assert command.objects[0].u == 17
    for _ in range(3):
        place_device(core_doc, "node-8gpu-10u", rack.id).apply(core_doc)
    # 52U: 16 used + 3 × 10 = 46; a 10U node no longer fits, a 4U one does (U47–U50)
    with pytest.raises(Refusal, match="does not fit"):
        place_device(core_doc, "node-8gpu-10u", rack.id)
    assert place_device(core_doc, "node-8gpu-liquid-4u", rack.id).objects[0].u == 47


def test_device_on_floor_creates_default_rack_with_it(core_doc):
    command = place_device_on_floor(core_doc, "sw-64x400g-1u", 22.0, 9.0)
    command.apply(core_doc)
    rack, device = command.objects
    assert rack.type == core_doc.catalog.default_rack().key and rack.name == "R10"
    assert device.rack == rack.id and device.u == 1


def test_ids_are_never_reused(core_doc):
    first = place_rack(core_doc, "rack-600x1200-48u", 20, 10)
    first.apply(core_doc)
    first.revert(core_doc)
    second = place_rack(core_doc, "rack-600x1200-48u", 20, 10)
    assert second.objects[0].id != first.objects[0].id


def test_assign_refuses_wrong_side(core_doc):
    with pytest.raises(Refusal, match="side B"):
        assign(core_doc, [rack_named(core_doc, "R01").id], "feed_a", "bus-2")
