"""`planner merge BASE OURS THEIRS -o OUT` (DESIGN §7): exit 0 merged, 1 conflicts listed by
object name and field with OUT holding ours there (stderr says so), 2 an input that cannot be
read or an OUT that cannot be written (one line, nothing written). The installed command is run
(`python -I -m planner`), as git runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from planner.cli import main
from planner.commands.base import SetFields
from planner.commands.edits import delete_objects, move_objects, place_device
from planner.fabric.relength import recompute_lengths
from planner.io import dumps, load, loads, save
from planner.layout.templates import build_template
from planner.review.merge import merge_plans
from planner.review.merge_errors import new_errors
from planner.rules.engine import validate


def planner(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-m", "planner", *args], capture_output=True, text=True,
                          check=False)


@pytest.fixture(scope="module")
def base_text() -> str:
    return dumps(build_template("hall", 64))


def text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def fresh_device(doc, k: int = 1) -> str:
    """The k-th device id a plan hands out next."""
    return f"dev-{max(int(i.split('-')[1]) for i in doc.devices) + k}"


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


@pytest.fixture
def files(tmp_path, base_text):
    """BASE, and OURS and THEIRS as copies of it to edit: (paths, docs)."""
    paths = {name: tmp_path / f"{name}.hall" for name in ("base", "ours", "theirs")}
    docs = {name: loads(base_text) for name in paths}
    paths["out"] = tmp_path / "out.hall"

    def write() -> dict:
        for name, doc in docs.items():
            save(doc, paths[name])
        return {name: str(path) for name, path in paths.items()}
    return docs, write


def test_disjoint_edits_exit_0_and_write_the_merge(files):
    docs, write = files
    ours, theirs = docs["ours"], docs["theirs"]
    move_objects(ours, [rack(ours, "R03").id], 0.6, 0.0).apply(ours)
    SetFields({"fu-2": {"name": "CDU-B"}}).apply(theirs)
    p = write()
    run = planner("merge", p["base"], p["ours"], p["theirs"], "-o", p["out"])
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert run.stdout.splitlines() == [f"merged into {p['out']}: 1 change taken from theirs, 0 conflicts"]
    merged = load(p["out"])
    assert merged.floor_units["fu-2"].name == "CDU-B" and rack(merged, "R03").x == 6.2
    assert text(p["out"]) == dumps(merge_plans(load(p["base"]), load(p["ours"]), load(p["theirs"])).doc)


def test_conflicts_exit_1_list_name_field_and_values_and_keep_ours(files):
    docs, write = files
    ours, theirs = docs["ours"], docs["theirs"]
    SetFields({"fu-1": {"name": "CDU-X"}}).apply(ours)
    SetFields({"fu-1": {"name": "CDU-Y"}, "fu-2": {"name": "CDU-B"}}).apply(theirs)
    p = write()
    run = planner("merge", p["base"], p["ours"], p["theirs"], "-o", p["ours"])  # git's way: OUT is OURS
    assert run.returncode == 1
    assert run.stderr == f"planner: 1 conflict: {p['ours']} keeps ours on it\n"
    assert "floor unit CDU-X (fu-1) name: base CDU-01 | ours CDU-X | theirs CDU-Y: both changed it; kept ours" \
        in run.stdout
    merged = load(p["ours"])
    assert (merged.floor_units["fu-1"].name, merged.floor_units["fu-2"].name) == ("CDU-X", "CDU-B")
    assert not Path(p["ours"] + ".bak").exists()  # git's %A is a temporary in the work tree: no backup left


def test_unreadable_input_exit_2_one_line_nothing_written(files):
    _docs, write = files
    p = write()
    with open(p["theirs"], "w", encoding="utf-8") as handle:
        handle.write('{"format": "hall", "version": 1, "racks": [')
    run = planner("merge", p["base"], p["ours"], p["theirs"], "-o", p["out"])
    assert run.returncode == 2
    assert run.stderr.startswith(f"planner: {p['theirs']}: not valid JSON") and run.stderr.count("\n") == 1
    assert run.stdout == "" and not Path(p["out"]).exists()


def test_unwritable_output_exit_2(files, tmp_path):
    _docs, write = files
    p = write()
    run = planner("merge", p["base"], p["ours"], p["theirs"], "-o", str(tmp_path / "no" / "such" / "out.hall"))
    assert run.returncode == 2
    assert run.stderr.startswith("planner: cannot write ") and "its folder does not exist" in run.stderr


def test_json_lists_everything(files, capsys):
    docs, write = files
    ours, theirs = docs["ours"], docs["theirs"]
    r03 = rack(ours, "R03").id
    move_objects(ours, [r03], 0.6, 0.0).apply(ours)
    move_objects(theirs, [r03], 0.0, 0.6).apply(theirs)
    place_device(ours, "storage-flash-2u", rack(ours, "R12").id, 44).apply(ours)
    place_device(theirs, "storage-flash-2u", rack(theirs, "R12").id, 47).apply(theirs)
    p = write()
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["out"], "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"merged", "conflicts", "renumbered", "renamed", "notes", "from_theirs", "reroute",
                         "new_errors", "output"}
    assert data["merged"] is False and data["output"] == p["out"]
    assert data["conflicts"] == [{"kind": "rack", "id": r03, "name": "R03", "field": "position",
                                  "base": {"x": 5.6, "y": 3.0}, "ours": {"x": 6.2, "y": 3.0},
                                  "theirs": {"x": 5.6, "y": 3.6}, "reason": "both changed it", "kept": "ours"}]
    mine, theirs = fresh_device(docs["base"]), fresh_device(docs["base"], 2)
    assert data["renumbered"] == [{"kind": "device", "name": "R12-ST1", "theirs_id": mine, "id": theirs}]
    assert data["renamed"] == [{"kind": "device", "id": theirs, "theirs_name": "ST1", "name": "ST2"}]


def test_a_cable_both_sides_re_routed_differently_is_routed_again(files, capsys):
    """Each side set link-1's length (as re-routing after its own moves would): no conflict, the
    merged plan routes it again (here: where it started, as no rack moved)."""
    docs, write = files
    before = docs["base"].links["link-1"]
    SetFields({"link-1": {"length_m": 12.0, "stock_m": 15.0}}).apply(docs["ours"])
    SetFields({"link-1": {"length_m": 13.0, "stock_m": 15.0}}).apply(docs["theirs"])
    p = write()
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["out"]]) == 0
    assert "routed again in the merged plan (1):\n  link-1\n" in capsys.readouterr().out
    merged = load(p["out"]).links["link-1"]
    assert (merged.length_m, merged.stock_m, merged.media) == (before.length_m, before.stock_m, before.media)
    ours = load(p["ours"])  # routing the merged plan leaves the inputs as they were
    result = merge_plans(load(p["base"]), ours, load(p["theirs"]))
    assert result.reroute == ["link-1"] and result.conflicts == []
    recompute_lengths(result.doc, result.reroute).apply(result.doc)
    assert ours.links["link-1"].length_m == 12.0 and result.doc.links["link-1"].length_m == before.length_m


def test_rule_errors_only_the_merge_has_are_warnings_or_with_strict_conflicts(files, capsys):
    """Each side adds a node to R12 within its ratings; both together overload its PDUs (P4).

    Since every network is cabled a template rack holds 8 rack PDUs (4 a side, for the C19 outlets
    its nodes' 40 power cords need): 4 of them carry 4 × 43.0 kW × 0.8 = 137.7 kW under 2N, far
    above 6 nodes. So R12 keeps 2 PDUs a side here, in the base and so in both sides: 2 × 43.0 kW
    (63 A × 415 V × √3 × PF 0.95) × 0.8 = 68.8 kW carry its 4 + 1 nodes (60.1 kW peak) but not
    4 + 2 (72.1 kW). The cords the removed PDUs fed go with them: errors all three plans have."""
    docs, write = files
    for doc in docs.values():
        pdus = sorted(d.id for d in doc.devices_in(rack(doc, "R12").id) if doc.catalog[d.type].kind == "rack_pdu")
        assert len(pdus) == 8
        delete_objects(doc, [d for d in pdus if doc.devices[d].name.endswith(("3", "4"))]).apply(doc)
        assert sorted(d.name for d in doc.devices_in(rack(doc, "R12").id) if d.id in pdus) == \
            ["PDU-A1", "PDU-A2", "PDU-B1", "PDU-B2"]
    for name, u in (("ours", 40), ("theirs", 46)):
        doc = docs[name]
        place_device(doc, "node-8gpu-liquid-4u", rack(doc, "R12").id, u).apply(doc)
        assert "P4" not in {f.rule for f in validate(doc) if f.severity == "error"}  # one node more fits
    p = write()
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["out"]]) == 0
    out = capsys.readouterr().out
    assert "rule errors neither side had (" in out
    assert "\n  P4 R12: 72.1 kW peak > 68.8 kW from 2 of 4 rack PDUs per side (2N) at 0.8 derating\n" in out
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["out"], "--strict"]) == 1
    captured = capsys.readouterr()
    assert "neither side had (--strict)" in captured.err
    # the incremental comparison finds what full runs of all three plans find
    result = merge_plans(load(p["base"]), load(p["ours"]), load(p["theirs"]))
    mapped = {fresh_device(docs["base"]): fresh_device(docs["base"], 2)}
    known = {(f.rule, f.subjects) for f in validate(load(p["ours"])) if f.severity == "error"} | \
        {(f.rule, tuple(mapped.get(s, s) for s in f.subjects)) for f in validate(load(p["theirs"]))
         if f.severity == "error"}
    brute = [f for f in validate(result.doc) if f.severity == "error" and (f.rule, f.subjects) not in known]
    found = new_errors(result, loads(dumps(result.doc)), load(p["ours"]), load(p["theirs"]))
    assert found == brute and {f.rule for f in found} >= {"P2", "P4"}


def test_errors_a_side_already_had_are_not_the_merges(files, capsys):
    docs, write = files
    ours, theirs = docs["ours"], docs["theirs"]
    move_objects(ours, [rack(ours, "R03").id], 20.0, 0.0).apply(ours)  # out of the hall: S1 and more
    SetFields({"fu-2": {"name": "CDU-B"}}).apply(theirs)
    p = write()
    assert any(f.severity == "error" for f in validate(ours))
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["out"], "--strict"]) == 0
    assert "rule errors" not in capsys.readouterr().out


def test_a_merge_that_would_not_load_is_not_written(files, monkeypatch, capsys):
    """A bug of the merge must not reach OUT: exit 3, one line, OUT as it was."""
    docs, write = files
    p = write()
    broken = merge_plans(loads(dumps(docs["base"])), docs["ours"], docs["theirs"])
    next(iter(broken.doc.devices.values())).rack = "rack-999"
    monkeypatch.setattr("planner.cli.merge.merge_plans", lambda *_docs: broken)
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["out"]]) == 3
    err = capsys.readouterr().err
    assert err.startswith("planner: internal error: the merged plan would not load (") and err.count("\n") == 1
    assert not Path(p["out"]).exists()


def test_an_empty_base_is_a_plan_with_nothing_in_it(files, tmp_path):
    """git gives an empty BASE when both branches added the file: the same plan merges to itself."""
    _docs, write = files
    p = write()
    empty = tmp_path / "empty.hall"
    empty.write_bytes(b"")
    run = planner("merge", str(empty), p["ours"], p["ours"], "-o", p["out"])
    assert run.returncode == 0, run.stderr
    assert text(p["out"]) == text(p["ours"])
