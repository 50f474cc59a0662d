"""`planner diff` as installed (`python -I -m planner`): exit codes, the change list, --json, the
textconv listing and git's external-diff call, on the 16-node pod."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import dumps, load, loads
from planner.layout.templates import build_template
from planner.model.labels import cable_label


def planner(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-m", "planner", *map(str, args)], capture_output=True, text=True,
                          check=False, cwd=cwd)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """old.hall, new.hall (R03 moved 0.6 m east, R02 renamed R02b, one cable rewired), garbage.hall."""
    folder = tmp_path_factory.mktemp("diff")
    old = build_template("pod", nodes=16)
    new = loads(dumps(old))
    r03 = next(r for r in new.racks.values() if r.name == "R03")
    r02 = next(r for r in new.racks.values() if r.name == "R02")
    link = min((lk for lk in new.links.values() if lk.tier == "node-leaf"), key=lambda lk: cable_label(new, lk))
    move_objects(new, [r03.id], 0.6, 0.0).apply(new)
    SetFields({r02.id: {"name": "R02b"}, link.id: {"b_port": "32/2"}}).apply(new)
    (folder / "old.hall").write_text(dumps(old))
    (folder / "new.hall").write_text(dumps(new))
    (folder / "garbage.hall").write_text('{"format": "hall", "version": ')
    return folder, cable_label(new, link)


def test_same_plans_exit_0(files):
    folder, _label = files
    result = planner("diff", folder / "old.hall", folder / "old.hall")
    assert (result.returncode, result.stdout, result.stderr) == (0, "no differences\n", "")


def test_different_plans_exit_1_with_a_change_list(files):
    folder, label = files
    result = planner("diff", folder / "old.hall", folder / "new.hall")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:4] == ["Moved (1)", "  moved R03 from (5.6, 3.0) to (6.2, 3.0)", "Changed (1)", "  renamed R02 → R02b"]
    assert lines[4] == "Cables (1): 1 rewired"
    assert lines[5].startswith(f"  rewired {label}: R01-N1 P1 → R03-L1 ") and lines[5].endswith("now → R03-L1 32/2")
    assert "Findings: " in result.stdout  # the rewired port lands on the wrong rail


def test_json(files):
    folder, label = files
    result = planner("diff", folder / "old.hall", folder / "new.hall", "--json")
    assert result.returncode == 1
    data = json.loads(result.stdout)
    assert list(data) == ["added", "removed", "moved", "changed", "cables", "findings", "figures"]
    assert list(data["cables"]) == ["added", "removed", "rewired", "changed"]
    assert list(data["findings"]) == ["new", "resolved"]
    assert data["moved"][0]["name"] == "R03" and data["moved"][0]["to"] == {"x": 6.2, "y": 3.0, "rotation": 0}
    assert data["cables"]["rewired"][0]["label"] == label
    assert data["cables"]["rewired"][0]["to"]["b"] == "R03-L1 32/2"


def test_unreadable_exit_2_naming_the_path(files):
    folder, _label = files
    for args in ((folder / "old.hall", folder / "missing.hall"), (folder / "garbage.hall", folder / "old.hall")):
        result = planner("diff", *args)
        assert result.returncode == 2 and result.stdout == ""
        bad = args[1] if "missing" in str(args[1]) else args[0]
        assert len(result.stderr.splitlines()) == 1 and str(bad) in result.stderr


def test_textconv_lists_one_line_per_object(files):
    folder, _label = files
    result = planner("diff", "--textconv", folder / "new.hall")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert "rack R02b [rack-2] type=rack-800x1200-52u x=4.8 y=3.0 rotation=0 row=1 feed_a=bus-1 feed_b=bus-2 " \
        "cdu=fu-1 phases=L1L2L3" in lines
    assert any(line.startswith("figure feed BB-A01 normal current: ") and line.endswith(" A") for line in lines)
    assert any(line.startswith("finding error N2 R03/L1 32/2 ") for line in lines)  # the rewired cable's port


def test_git_external_diff_call(files):
    folder, _label = files
    old, new = folder / "old.hall", folder / "new.hall"
    result = planner("diff", "--git", "plan.hall", old, "1" * 40, "100644", new, "2" * 40, "100644")
    assert result.returncode == 0  # git stops at a driver that fails: differences are not a failure here
    assert result.stdout.startswith("diff --hall a/plan.hall b/plan.hall\nMoved (1)\n")
    added = planner("diff", "--git", "plan.hall", "/dev/null", "0" * 40, "100644", new, "2" * 40, "100644")
    assert added.returncode == 0
    doc = load(new)
    assert added.stdout.splitlines()[1] == f"new plan: 1 zone, 1 door, 2 hand-offs, 5 racks, {len(doc.devices)} " \
        f"devices, 1 floor unit, 2 busbars, {len(doc.links)} cables"
    broken = planner("diff", "--git", "plan.hall", old, "1" * 40, "100644", folder / "garbage.hall", "3" * 40,
                     "100644")
    assert broken.returncode == 0 and "showing the text difference" in broken.stderr
    assert '+{"format": "hall", "version": ' in broken.stdout
