"""The .hall file: stable round trip, atomic save with backup, and one clear error for bad files."""

from __future__ import annotations

import json

import pytest

from planner.io import FORMAT_VERSION, HallFileError, dumps, load, loads, save


def test_save_load_save_is_byte_identical(core_doc, tmp_path):
    first = tmp_path / "a.hall"
    save(core_doc, first)
    again = load(first)
    second = tmp_path / "b.hall"
    save(again, second)
    assert first.read_bytes() == second.read_bytes()
    assert len(again.racks) == len(core_doc.racks) and len(again.devices) == len(core_doc.devices)


def test_collections_are_sorted_by_natural_id(core_doc):
    text = dumps(core_doc)
    data = json.loads(text)
    ids = [r["id"] for r in data["racks"]]
    assert ids == sorted(ids, key=lambda i: int(i.split("-")[1]))
    # one object per line, so a git diff shows one line per changed rack
    assert sum(1 for line in text.splitlines() if '"id": "rack-' in line) == len(ids)


def test_save_keeps_backup_and_leaves_no_temp(core_doc, tmp_path):
    target = tmp_path / "plan.hall"
    save(core_doc, target)
    core_doc.meta.revision = "B"
    save(core_doc, target)
    assert json.loads((tmp_path / "plan.hall.bak").read_text())["meta"]["revision"] == "A"
    assert json.loads(target.read_text())["meta"]["revision"] == "B"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.hall", "plan.hall.bak"]


@pytest.mark.parametrize(
    "mutate, path",
    [
        (lambda d: d["racks"][2].__setitem__("x", "far"), "$.racks[2].x"),
        (lambda d: d["racks"][0].pop("name"), "$.racks[0].name"),
        (lambda d: d["racks"][1].__setitem__("feed_a", "bus-99"), "$.racks[1].feed_a"),
        (lambda d: d["devices"][3].__setitem__("rack", "rack-404"), "$.devices[3].rack"),
        (lambda d: d.__setitem__("version", FORMAT_VERSION + 1), "$.version"),
        (lambda d: d["zones"][0].__setitem__("colour", "red"), "$.zones[0].colour"),
        (lambda d: d["basis"].__setitem__("fluid", "mercury"), "$.basis.fluid"),
        (lambda d: d["racks"][0].__setitem__("type", "no-such-rack"), "$.racks[0].type"),
        (lambda d: d["racks"][0].__setitem__("type", "node-8gpu-liquid-4u"), "$.racks[0].type"),
        (lambda d: d["racks"][1].__setitem__("id", d["racks"][0]["id"]), "$.racks[1].id"),
        (lambda d: d["outline"].__setitem__(0, [1, "x"]), "$.outline[0][1]"),
        (lambda d: d["racks"][0].__setitem__("y", float("nan")), "$.racks[0].y"),
    ],
)
def test_bad_content_names_its_json_path(core_doc, mutate, path):
    data = json.loads(dumps(core_doc))
    mutate(data)
    with pytest.raises(HallFileError) as info:
        loads(json.dumps(data))
    assert info.value.path == path
    assert path in str(info.value)


def test_truncated_file_is_one_clear_error(core_doc, tmp_path):
    text = dumps(core_doc)
    bad = tmp_path / "cut.hall"
    bad.write_text(text[: len(text) // 2])
    with pytest.raises(HallFileError, match="not valid JSON"):
        load(bad)


@pytest.mark.parametrize("text", ["", "[]", "42", '{"format": "hall"}', '{"format": "csv", "version": 1}',
                                  "[" * 100000, '{"format": "hall", "version": true}'])
def test_hostile_inputs_raise_only_hallfileerror(text):
    with pytest.raises(HallFileError):
        loads(text)


def test_unreadable_path(tmp_path):
    with pytest.raises(HallFileError, match="cannot read"):
        load(tmp_path / "missing.hall")
    (tmp_path / "bin.hall").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(HallFileError, match="UTF-8"):
        load(tmp_path / "bin.hall")


def test_custom_type_is_saved_inside_the_plan(core_doc):
    from dataclasses import replace

    custom = replace(core_doc.catalog["node-8gpu-liquid-4u"], key="my-node", name="My node", custom=True)
    core_doc.catalog.add(custom)
    reloaded = loads(dumps(core_doc))
    assert reloaded.catalog["my-node"].custom and reloaded.catalog["my-node"].name == "My node"


def test_save_keeps_permissions(core_doc, tmp_path):
    import os

    target = tmp_path / "plan.hall"
    previous = os.umask(0o022)
    try:
        save(core_doc, target)
    finally:
        os.umask(previous)
    assert target.stat().st_mode & 0o777 == 0o644  # as any new file under umask 022, not 0600
    target.chmod(0o640)
    save(core_doc, target)
    assert target.stat().st_mode & 0o777 == 0o640
