"""Hostile files (issue 10): every number in its physical range, every string short and free of
control characters, references of the right kind; anything else is one HallFileError naming the
JSON path and the problem in the bounds table's words, whichever decoder met it first."""

from __future__ import annotations

import json
import time

import pytest

from planner.io import HallFileError, dumps, hallfile, loads

MARK = '"__MARK__"'


@pytest.fixture
def example_data(example_doc):
    return json.loads(dumps(example_doc))


def _with(data: dict, path: list, literal: str) -> str:
    """The file with the value at ``path`` replaced by the raw JSON ``literal``."""
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "__MARK__"
    return json.dumps(data).replace(MARK, literal, 1)


def _custom(kind: str, **values) -> dict:
    return {"key": "custom-x", "kind": kind, "name": "X", "width_m": 0.6, "depth_m": 1.0, **values}


def _refused(text: str) -> HallFileError:
    start = time.perf_counter()
    with pytest.raises(HallFileError) as info:
        loads(text)
    assert time.perf_counter() - start < 5, "a hostile file must be refused quickly"
    assert "\n" not in str(info.value) and len(str(info.value)) < 300
    return info.value


@pytest.mark.parametrize("path, literal, message", [
    (["racks", 3, "x"], "1" + "0" * 400, "$.racks[3].x: a 401-digit number is outside -10,000 to 10,000 m"),
    (["devices", 3, "u"], "1" * 4301, "$.devices[3].u: a 4,301-digit number is outside 0–100 U"),
    (["racks", 3, "x"], "1e308", "$.racks[3].x: 1e308 m is outside -10,000 to 10,000 m"),
    (["racks", 3, "y"], "1e308", "$.racks[3].y: 1e308 m is outside -10,000 to 10,000 m"),
    (["racks", 3, "x"], "1e400", "$.racks[3].x: infinity m is outside -10,000 to 10,000 m"),
    (["devices", 3, "u"], "9" * 400, "$.devices[3].u: a 400-digit number is outside 0–100 U"),
    (["devices", 3, "u"], "-1", "$.devices[3].u: -1 U is outside 0–100 U"),
    (["basis", "facility_supply_c"], "1e308", "$.basis.facility_supply_c: 1e308 °C is outside 2–70 °C"),
    (["basis", "voltage_v"], "-415", "$.basis.voltage_v: -415 V is outside 1–100,000 V"),
    (["basis", "power_factor"], "1e308", "$.basis.power_factor: 1e308 is outside 0.01–1"),
    (["basis", "cable_slack_fraction"], "-1e308", "$.basis.cable_slack_fraction: -1e308 is outside 0–1"),
    (["basis", "row_tray_width_m"], "-0.6", "$.basis.row_tray_width_m: -0.6 m is outside 0.001–10 m"),
    (["basis", "cross_tray_depth_m"], "0", "$.basis.cross_tray_depth_m: 0 m is outside 0.001–10 m"),
    (["basis", "row_tray_levels"], "0", "$.basis.row_tray_levels: 0 is outside 1–100"),
    (["basis", "rack_feet"], "0", "$.basis.rack_feet: 0 is outside 1–100"),
    (["outline", 0, 0], "1e308", "$.outline[0][0]: 1e308 m is outside -10,000 to 10,000 m"),
    (["outline", 1, 1], "-1e308", "$.outline[1][1]: -1e308 m is outside -10,000 to 10,000 m"),
    (["outline"], "[[0, 0], [1, 1]]", "$.outline: 2 corners: an area needs at least 3"),
    (["zones", 0, "polygon"], "[]", "$.zones[0].polygon: 0 corners, at least 3"),
    (["zones", 0, "polygon"], "[[0, 0], [1, 1]]", "$.zones[0].polygon: 2 corners, at least 3"),
    (["zones", 0, "rating_kpa"], "-5", "$.zones[0].rating_kpa: -5 kPa is outside 0.5–1,000 kPa"),
    (["zones", 0, "tile_size_m"], "0", "$.zones[0].tile_size_m: 0 m is outside 0.1–10 m"),
    (["links", 2, "length_m"], "-3", "$.links[2].length_m: -3 m is outside 0–100,000 m"),
    (["links", 2, "stock_m"], "1e308", "$.links[2].stock_m: 1e308 m is outside 0–100,000 m"),
    (["racks", 0, "rotation"], "1" + "0" * 30, "$.racks[0].rotation: a 31-digit number is outside 0–270 °"),
    (["racks", 0, "name"], json.dumps("R" * 201), "$.racks[0].name: 201 characters, at most 200"),
    (["racks", 0, "notes"], json.dumps("n" * 1_000_000), "$.racks[0].notes: 1,000,000 characters, at most 10,000"),
    (["racks", 0, "name"], json.dumps("R\u000701"), "$.racks[0].name: holds a control character (U+0007) at character 2"),
    (["racks", 0, "name"], json.dumps("R\n01"), "$.racks[0].name: holds a line break (U+000A) at character 2: one line only"),
    (["racks", 0, "name"], json.dumps("R\u008501"), "$.racks[0].name: holds a control character (U+0085) at character 2"),
    (["meta", "project"], json.dumps("P\u007f"), "$.meta.project: holds a control character (U+007F) at character 2"),
    (["meta", "notes"], '"\\ud800"', "$.meta.notes: holds a lone surrogate (U+D800) at character 1: not text"),
    (["basis", "sources"], json.dumps({"voltage_v": "x\u0001"}),
     "$.basis.sources.voltage_v: holds a control character (U+0001) at character 2"),
])
def test_each_hostile_value_is_refused_with_its_path_and_range(example_data, path, literal, message):
    error = _refused(_with(example_data, path, literal))
    assert str(error) == message
    assert message.startswith(error.path + ":")


@pytest.mark.parametrize("values, message", [
    ({"port_cages": "1e308"}, "$.catalog[0].port_cages: 1e308 is outside 0–1,024"),
    ({"port_cages": "1000000000000"}, "$.catalog[0].port_cages: 1,000,000,000,000 is outside 0–1,024"),
    ({"ports_per_cage": "65536"}, "$.catalog[0].ports_per_cage: 65,536 is outside 0–16"),
    ({"width_m": "-0.6"}, "$.catalog[0].width_m: -0.6 m is outside 0–100 m"),
    ({"depth_m": "-1"}, "$.catalog[0].depth_m: -1 m is outside 0–100 m"),
    ({"weight_kg": "-160"}, "$.catalog[0].weight_kg: -160 kg is outside 0–100,000 kg"),
    ({"max_load_kg": "-1500"}, "$.catalog[0].max_load_kg: -1,500 kg is outside 1–100,000 kg"),
    ({"rack_units": "1" + "0" * 400}, "$.catalog[0].rack_units: a 401-digit number is outside 0–100 U"),
    ({"power_w": "-8500"}, "$.catalog[0].power_w: -8,500 W is outside 0–100,000,000 W"),
    ({"voltage_v": "-415"}, "$.catalog[0].voltage_v: -415 V is outside 1–100,000 V"),
    ({"liquid_fraction": "1e308"}, "$.catalog[0].liquid_fraction: 1e308 is outside 0–1"),
    ({"rating_a": "1e308"}, "$.catalog[0].rating_a: 1e308 A is outside 0–100,000 A"),
    ({"tapoff_whip_m": "-2"}, "$.catalog[0].tapoff_whip_m: -2 m is outside 0.1–100 m"),
])
def test_hostile_custom_types_are_refused(example_data, values, message):
    entry = _custom("switch", height_u=1, **dict.fromkeys(values, "__V__"))
    example_data["catalog"] = [entry]
    text = json.dumps(example_data)
    for literal in values.values():
        text = text.replace('"__V__"', literal, 1)
    assert str(_refused(text)) == message


@pytest.mark.parametrize("field, target, message", [
    ("feed_a", ("racks", 1), "{} is a rack, not a busbar"),
    ("feed_b", ("floor_units", 0), "{} is a floor unit, not a busbar"),
    ("cdu", ("busbars", 0), "{} is a busbar, not a CDU"),
    ("cdu", ("links", 0), "{} is a cable, not a CDU"),
    ("feed_a", None, "no busbar 'bus-999'"),
])
def test_references_of_the_wrong_kind_of_object_are_refused(example_data, field, target, message):
    ref = example_data[target[0]][target[1]]["id"] if target else "bus-999"
    example_data["racks"][0][field] = ref
    assert str(_refused(json.dumps(example_data))) == f"$.racks[0].{field}: " + message.format(ref)


def test_references_right_in_kind_but_wrong_in_detail_load(example_data):
    """Feed A on a side-B busbar, a loop on a unit that is no CDU: an edit can make these, so they
    load and the rules P6 and C7 report them (tests/unit/rules/test_references.py)."""
    side_b = next(b["id"] for b in example_data["busbars"] if b["side"] == "B")
    example_data["racks"][0]["feed_a"] = side_b
    node = next(d["id"] for d in example_data["devices"] if d["type"].startswith("node"))
    example_data["racks"][0]["cdu"] = node
    doc = loads(json.dumps(example_data))
    assert doc.racks[example_data["racks"][0]["id"]].feed_a == side_b


def test_a_long_hostile_key_is_named_short(example_data):
    example_data["racks"][0]["K" * 100_000] = 1
    error = _refused(json.dumps(example_data))
    assert error.path == '$.racks[0]["' + "K" * 40 + '…"]' and str(error).endswith("unknown key")
    example_data["racks"][0].pop("K" * 100_000)
    example_data["a\u0007b"] = 1
    assert _refused(json.dumps(example_data)).path == '$["a\\u0007b"]'


def test_deep_nesting_and_huge_lists_are_refused(example_data):
    assert "nested too deeply" in str(_refused(_with(example_data, ["meta", "notes"], "[" * 100_000 + "]" * 100_000)))
    polygon = json.dumps([[float(i % 100), float(i // 100)] for i in range(10_001)])
    assert str(_refused(_with(example_data, ["zones", 0, "polygon"], polygon))) == \
        "$.zones[0].polygon: 10,001 corners, at most 10,000"


def test_text_with_escapes_still_loads_the_fast_way_when_clean(example_data, monkeypatch):
    """Notes with line breaks and tabs, names with quotes: escapes in the file send its strings
    through one bulk check, not through the slow checked decoder."""
    example_data["racks"][0]["notes"] = "line one\nline two\ttabbed \"quoted\" back\\slash"
    example_data["racks"][1]["name"] = 'R"02'
    example_data["meta"]["notes"] = "Zürich ° µ ²"
    text = json.dumps(example_data, ensure_ascii=False)
    monkeypatch.setattr(hallfile, "_decode_checked", lambda _t: pytest.fail("took the checked path"))
    doc = loads(text.encode("utf-8"))
    assert doc.racks[example_data["racks"][0]["id"]].notes.endswith("back\\slash")
    assert dumps(doc) == dumps(loads(dumps(doc)))


def test_a_clean_plan_never_takes_the_checked_path(example_doc, monkeypatch):
    text = dumps(example_doc).encode("utf-8")
    assert not hallfile._may_hold_bad_text(text)
    monkeypatch.setattr(hallfile, "_decode_checked", lambda _t: pytest.fail("took the checked path"))
    loads(text)
