"""Each impossible value of issue 19 ends in a clean refusal naming the field, its value and the
range, or in a finding with its numbers; "not given" is null and says which check did not run.

The refusals hold at load (``loads``), and the editors' commands refuse the same values with the
same words (a plan the window lets a user make must open again).
"""

from __future__ import annotations

import copy
import json

import pytest

from planner.commands import AddCatalogItem, Refusal, SetAttributes, SetFields, SetOutline
from planner.io import HallFileError, dumps, loads
from planner.model.catalog import builtin_catalog
from planner.model.objects import BusbarRun, Link
from planner.rules.engine import validate


def _with_custom(doc, base_key, key, **values):
    """The plan's JSON with a custom copy of a built-in type, changed by ``values``."""
    data = json.loads(dumps(doc))
    entry = json.loads(json.dumps(vars(builtin_catalog()[base_key]), default=list))
    entry.pop("custom")
    entry.update(key=key, name=key, **values)
    data["catalog"] = [entry]
    return data


def _refused(data) -> str:
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(data))
    return str(caught.value)


@pytest.mark.parametrize("base, values, message", [
    ("busbar-800a", {"rating_a": 0}, "$.catalog[0].rating_a: 0 A is outside 1–100,000 A for a busbar"),
    ("busbar-800a", {"tapoff_rating_a": 0}, "$.catalog[0].tapoff_rating_a: 0 A is outside 1–100,000 A"),
    ("busbar-800a", {"voltage_v": 0}, "$.catalog[0].voltage_v: 0 V is outside 1–100,000 V"),
    ("pdu-rack-3ph-63a", {"voltage_v": 0}, "$.catalog[0].voltage_v: 0 V is outside 1–100,000 V"),
    ("busbar-800a", {"phases": 2}, "$.catalog[0].phases: 2 is not 1 or 3"),
    ("rack-600x1200-48u", {"max_power_kw": 0}, "$.catalog[0].max_power_kw: 0 kW is outside 0.1–100,000 kW"),
    ("rack-600x1200-48u", {"width_m": 0}, "$.catalog[0].width_m: 0 m is outside 0.05–10 m for a rack"),
    ("node-8gpu-liquid-4u", {"weight_kg": 0}, "$.catalog[0].weight_kg: 0 kg is outside 0.1–100,000 kg for a node"),
    ("node-8gpu-liquid-4u", {"height_u": 0}, "$.catalog[0].height_u: 0 U is outside 1–100 U for a node"),
    ("node-8gpu-liquid-4u", {"power_peak_w": 5000.0},
     "$.catalog[0].power_peak_w: 5,000 W is below the steady draw 10,500 W"),
    ("cdu-row-800kw", {"redundant_pumps": 3}, "$.catalog[0].redundant_pumps: 3 of 2 pumps: at least one pump must run"),
])
def test_an_impossible_custom_type_is_refused_at_load_and_in_the_editor(example_doc, base, values, message):
    data = _with_custom(example_doc, base, "custom-x", **values)
    assert _refused(data).startswith(message)
    item = copy.copy(builtin_catalog()[base])
    item.key, item.name = "custom-x", "custom-x"
    for name, value in values.items():
        setattr(item, name, value)
    field = message.split(": ", 1)[0].rsplit(".", 1)[1]
    with pytest.raises(Refusal, match=f"^{field.replace('_', ' ')}: {message.split(': ', 1)[1][:12]}"):
        AddCatalogItem(item)


@pytest.mark.parametrize("field, value, message", [
    ("front_aisle_min_m", 0.0, "$.basis.front_aisle_min_m: 0 m is outside 0.1–100 m"),
    ("working_space_m", 0.0, "$.basis.working_space_m: 0 m is outside 0.1–100 m"),
    ("max_supply_c", 150.0, "$.basis.max_supply_c: 150 °C is outside 5–70 °C"),
    ("facility_supply_c", -40.0, "$.basis.facility_supply_c: -40 °C is outside 2–70 °C"),
    ("tray_fill_warn", 0.6, "$.basis.tray_fill_warn: 0.6 is above tray fill error 0.5"),
    ("phase_imbalance_warn", 0.3, "$.basis.phase_imbalance_warn: 0.3 is above phase imbalance error 0.2"),
    ("front_aisle_vendor_min_m", 1.5, "$.basis.front_aisle_vendor_min_m: 1.5 is above front aisle min m 1.2"),
])
def test_an_impossible_design_basis_is_refused_at_load_and_in_the_dialog(example_doc, field, value, message):
    data = json.loads(dumps(example_doc))
    data["basis"][field] = value
    assert _refused(data).startswith(message)
    with pytest.raises(Refusal, match=f"^{field.replace('_', ' ')}: "):
        SetAttributes("basis", {field: value}, "edit", current=example_doc.basis)


def test_a_zone_rated_0_kpa_and_a_degenerate_zone_are_refused(example_doc):
    data = json.loads(dumps(example_doc))
    data["zones"][0]["rating_kpa"] = 0
    assert _refused(data).startswith("$.zones[0].rating_kpa: 0 kPa is outside 0.5–1,000 kPa")
    for polygon, words in (([[0, 0], [10, 0], [20, 0]], "enclose 0 m², no area"),
                           ([[0, 0], [10, 10], [10, 0], [0, 4]], "its edges cross (self-intersection at 2.86, 2.86 m)")):
        data = json.loads(dumps(example_doc))
        data["zones"][0]["polygon"] = polygon
        assert _refused(data).startswith(f"$.zones[0].polygon: its corners {words}" if "enclose" in words
                                         else f"$.zones[0].polygon: {words}")
        with pytest.raises(Refusal, match="polygon: "):
            SetFields({"zone-1": {"polygon": [tuple(p) for p in polygon]}})


def test_a_hall_of_20_km_is_refused_and_no_outline_is_a_warning(example_doc):
    data = json.loads(dumps(example_doc))
    data["outline"] = [[-10_000, -10_000], [10_000, -10_000], [10_000, 10_000], [-10_000, 10_000]]
    assert "$.outline: 20,000 m × 20,000 m is wider than a hall (at most 2,000 m either way" in _refused(data)
    with pytest.raises(Refusal, match="outline: 20,000 m × 20,000 m is wider than a hall"):
        SetOutline([(-10_000, -10_000), (10_000, -10_000), (10_000, 10_000), (-10_000, 10_000)])
    example_doc.outline = []
    s5 = [f for f in validate(example_doc) if f.rule == "S5"]
    assert [(f.severity, f.message.split(":")[0]) for f in s5] == [("warning", "The plan has no hall outline")]
    assert "its 10 racks and floor units" in s5[0].message


def test_busbar_runs_of_0_m_and_10_km_are_errors_with_their_length(example_doc):
    bus = next(iter(example_doc.busbars.values()))
    bus.x2, bus.y2 = bus.x1, bus.y1
    long = BusbarRun(id=example_doc.new_id("bus"), type=bus.type, name="BB-far", x1=0, y1=0, x2=10_000, y2=0)
    example_doc.add(long)
    p9 = {f.subjects[0]: f.message for f in validate(example_doc) if f.rule == "P9"}
    assert p9 == {bus.id: f"Busbar {bus.name}: a run of 0.00 m feeds nothing (at least 0.1 m)",
                  long.id: "Busbar BB-far: a run of 10,000 m is longer than a hall (at most 2,000 m)"}


def test_a_stock_cable_shorter_than_its_route_is_an_error(example_doc):
    link: Link = next(iter(example_doc.links.values()))
    link.length_m, link.stock_m, link.media = 2.53, 0.5, "dac"
    n12 = [f for f in validate(example_doc) if f.rule == "N12"]
    assert [(f.severity, f.subjects) for f in n12] == [("error", (link.id,))]
    assert n12[0].message.endswith("routed 2.53 m, but its stock cable is 0.5 m")


def test_a_node_wider_than_its_rack_is_an_error(example_doc):
    device = next(d for d in example_doc.devices.values() if example_doc.catalog[d.type].kind == "node")
    wide = copy.copy(example_doc.catalog[device.type])
    rack = example_doc.racks[device.rack]
    inside = example_doc.catalog[rack.type].width_m
    wide.key, wide.width_m, wide.custom = "custom-wide", inside + 0.1, True
    example_doc.catalog.add(wide)
    device.type = wide.key
    s4 = [f.message for f in validate(example_doc) if f.rule == "S4" and device.id in f.subjects]
    assert s4 == [f"{rack.name}: {device.name} is {inside + 0.1:.3f} m wide, the rack {inside:.3f} m"]


def test_not_rated_is_null_and_says_which_check_did_not_run(example_doc):
    rack = next(iter(example_doc.racks.values()))
    unrated = copy.copy(example_doc.catalog[rack.type])
    unrated.key, unrated.name, unrated.custom = "custom-unrated", "Unrated rack", True
    unrated.max_power_kw = unrated.max_load_kg = None
    example_doc.catalog.add(unrated)
    rack.type = unrated.key
    again = loads(dumps(example_doc))  # null survives a save
    assert again.catalog["custom-unrated"].max_power_kw is None
    found = {(f.rule, f.severity): f.message for f in validate(again) if rack.id in f.subjects}
    assert "is not rated for power, so the rack rating is not checked" in found[("P4", "info")]
    assert "is not rated for static load, so its" in found[("F3", "info")]


def test_a_version_2_file_reads_its_zeros_as_not_given(example_doc):
    data = _with_custom(example_doc, "busbar-800a", "custom-bus", tapoff_rating_a=0.0, tapoff_whip_m=0.0)
    data["version"] = 2
    data["zones"][0].update(tile_rating_kn=0.0, rolling_rating_kn=0.0, air_capacity_kw=0.0)
    doc = loads(json.dumps(data))
    zone = doc.zones["zone-1"]
    assert (zone.tile_rating_kn, zone.rolling_rating_kn, zone.air_capacity_kw, zone.raised) == (None, None, None, False)
    item = doc.catalog["custom-bus"]
    assert (item.tapoff_rating_a, item.tapoff_whip_m) == (None, None)
    data["catalog"][0]["rating_a"] = 0  # a 0 A busbar had no meaning in version 2 either
    assert _refused(data).startswith("$.catalog[0].rating_a: 0 A is outside 1–100,000 A for a busbar")
