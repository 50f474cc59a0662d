"""Commands refuse what the file format would refuse (a plan can never hold a value its next
load refuses), in the bounds table's words; and they hand the model floats where it says float."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from planner.commands import (
    AddCatalogItem,
    AddObjects,
    History,
    Refusal,
    SetAttributes,
    SetFields,
    SetOutline,
    edits,
)
from planner.io import dumps, loads
from planner.model.objects import Rack


def _rack(doc):
    return next(iter(doc.racks.values()))


@pytest.mark.parametrize("field, value, message", [
    ("x", 1e308, "x: 1e308 m is outside -10,000 to 10,000 m"),
    ("y", math.nan, "y: NaN is not a number; expected -10,000 to 10,000 m"),
    ("y", math.inf, "y: infinity m is outside -10,000 to 10,000 m"),
    ("name", "R" * 201, "name: 201 characters, at most 200"),
    ("name", "R\x0701", "name: holds a control character (U+0007) at character 2"),
    ("notes", "x" * 10_001, "notes: 10,001 characters, at most 10,000"),
    ("rotation", 45, "rotation: 45 is not one of 0, 90, 180, 270"),
])
def test_set_fields_refuses_values_out_of_bounds(core_doc, field, value, message):
    with pytest.raises(Refusal) as info:
        SetFields({_rack(core_doc).id: {field: value}})
    assert str(info.value) == message


def test_set_fields_lets_multiline_notes_and_any_script_through(core_doc):
    rack = _rack(core_doc)
    History(core_doc).push(SetFields({rack.id: {"notes": "line 1\nline 2\ttab", "name": "机柜 ٣"}}))
    assert loads(dumps(core_doc)).racks[rack.id].notes == "line 1\nline 2\ttab"


def test_the_properties_dock_path_refuses_before_anything_changes(core_doc):
    """The dock builds its SetFields inside ``try: … except Refusal``: the refusal is its status line."""
    rack = _rack(core_doc)
    with pytest.raises(Refusal, match="outside"):
        edits.move_objects(core_doc, [rack.id], 1e308, 0.0)
    assert math.isfinite(rack.x)


def test_set_attributes_refuses_out_of_range_and_unknown_choices(core_doc):
    with pytest.raises(Refusal, match=r"^voltage v: -415 V is outside 1–100,000 V$"):
        SetAttributes("basis", {"voltage_v": -415.0}, "x")
    with pytest.raises(Refusal, match=r"^fluid: 'mercury' is not one of water, pg25$"):
        SetAttributes("basis", {"fluid": "mercury"}, "x")
    with pytest.raises(Refusal, match="row tray levels: 0 is outside 1–100"):
        SetAttributes("basis", {"row_tray_levels": 0}, "x")
    with pytest.raises(Refusal, match="author: holds a line break"):
        SetAttributes("meta", {"author": "a\nb"}, "x")


def test_set_outline_refuses_two_corners_and_far_away_corners(core_doc):
    with pytest.raises(Refusal, match="at least 3 corners"):
        SetOutline([(0, 0), (1, 1)])
    with pytest.raises(Refusal, match=r"outline: 1e308 m is outside -10,000 to 10,000 m"):
        SetOutline([(0, 0), (1e308, 0), (0, 1)])
    SetOutline([])  # no outline at all is allowed (a new hall waiting for its outline)


def test_add_catalog_item_refuses_what_the_loader_refuses(core_doc):
    node = core_doc.catalog["node-8gpu-liquid-4u"]
    with pytest.raises(Refusal, match=r"^port cages: 1e308 is outside 0–1,024$"):
        AddCatalogItem(replace(node, key="custom-x", port_cages=1e308, custom=True))
    with pytest.raises(Refusal, match="weight kg: -1 kg is outside"):
        AddCatalogItem(replace(node, key="custom-x", weight_kg=-1.0, custom=True))
    with pytest.raises(Refusal, match="is a built-in type"):
        AddCatalogItem(replace(node, custom=True))
    with pytest.raises(Refusal, match="kind: 'teapot'"):
        AddCatalogItem(replace(node, key="custom-x", kind="teapot", custom=True))


def test_add_objects_refuses_numbers_out_of_bounds(core_doc):
    rack = _rack(core_doc)
    far = Rack(id=core_doc.new_id("rack"), type=rack.type, name="Far", x=1e308, y=0.0)
    with pytest.raises(Refusal, match=r"^Far x: 1e308 m is outside -10,000 to 10,000 m$"):
        AddObjects([far])
    with pytest.raises(Refusal, match="outside"):
        edits.array_racks(core_doc, rack.id, 3, pitch_m=1e307)


def test_whole_numbers_become_floats_at_the_model_boundary(core_doc):
    rack = _rack(core_doc)
    history = History(core_doc)
    history.push(SetFields({rack.id: {"x": 3, "y": 4}}))
    assert (type(rack.x), type(rack.y)) == (float, float)
    history.push(SetOutline([(0, 0), (30, 0), (30, 20), (0, 20)]))
    assert all(type(c) is float for point in core_doc.outline for c in point)
    history.push(SetAttributes("basis", {"voltage_v": 400}, "x"))
    assert type(core_doc.basis.voltage_v) is float
    item = replace(core_doc.catalog["node-8gpu-liquid-4u"], key="custom-int", weight_kg=100, power_w=9000,
                   custom=True)
    history.push(AddCatalogItem(item))
    assert type(core_doc.catalog["custom-int"].weight_kg) is float
    once = dumps(core_doc)
    assert dumps(loads(once)) == once
