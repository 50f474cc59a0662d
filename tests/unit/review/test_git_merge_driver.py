"""`planner merge` as git's merge driver, in a temporary repository: the README's setup
(`*.hall merge=hall` in .gitattributes, `merge.hall.driver = planner merge %O %A %B -o %A --path %P`), two
branches with disjoint edits merge by themselves; a conflicting edit stops the merge with the
file left as a plan that loads, holding ours on the conflict. The repository is conftest's
``git_work``."""

from __future__ import annotations

import pytest

from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import dumps, loads
from planner.layout.templates import build_template


@pytest.fixture
def repo(git_work):
    work, git = git_work
    # the README's lines
    (work / ".gitattributes").write_text("*.hall merge=hall\n")
    git("config", "merge.hall.name", "Hall Planner three-way merge")
    git("config", "merge.hall.driver", "planner merge %O %A %B -o %A --path %P")
    plan = build_template("pod", nodes=16)
    (work / "plan.hall").write_text(dumps(plan), encoding="utf-8")
    git("add", ".")
    git("commit", "-qm", "base")
    return work, git


def commit_edit(work, git, message: str, edit) -> None:
    doc = loads((work / "plan.hall").read_text(encoding="utf-8"))
    edit(doc)
    (work / "plan.hall").write_text(dumps(doc), encoding="utf-8")
    git("commit", "-qam", message)


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def test_disjoint_edits_merge_in_git(repo):
    work, git = repo
    git("checkout", "-qb", "theirs")
    commit_edit(work, git, "rename the CDU", lambda d: SetFields({"fu-1": {"name": "CDU-A"}}).apply(d))
    git("checkout", "-q", "main")
    commit_edit(work, git, "move R03", lambda d: move_objects(d, [rack(d, "R03").id], 0.6, 0.0).apply(d))

    merge = git("merge", "--no-edit", "theirs")
    assert "merged into " in merge.stdout + merge.stderr  # the driver's own line
    merged = loads((work / "plan.hall").read_text(encoding="utf-8"))
    assert merged.floor_units["fu-1"].name == "CDU-A" and rack(merged, "R03").x == 6.2
    assert git("status", "--porcelain").stdout == ""  # committed, nothing left behind (no .bak)
    assert len(git("log", "--format=%H", "-1").stdout.split()) == 1
    assert git("log", "--format=%P", "-1").stdout.count(" ") == 1  # a merge commit


def test_a_conflicting_edit_stops_the_merge_with_ours_in_the_file(repo):
    work, git = repo
    git("checkout", "-qb", "theirs")
    commit_edit(work, git, "CDU-Y", lambda d: SetFields({"fu-1": {"name": "CDU-Y"}, "bus-2": {"name": "BB-Y"}}).apply(d))
    git("checkout", "-q", "main")
    commit_edit(work, git, "CDU-X", lambda d: SetFields({"fu-1": {"name": "CDU-X"}, "bus-1": {"name": "BB-X"}}).apply(d))

    merge = git("merge", "--no-edit", "theirs", ok=False)
    assert merge.returncode != 0
    said = merge.stdout + merge.stderr
    assert "floor unit CDU-X (fu-1) name: base CDU-01 | ours CDU-X | theirs CDU-Y: both changed it; kept ours" in said
    assert "CONFLICT (content): Merge conflict in plan.hall" in said
    assert git("status", "--porcelain").stdout.splitlines() == ["UU plan.hall"]
    # the file is a plan (no conflict markers), ours on the conflict
    text = (work / "plan.hall").read_text(encoding="utf-8")
    assert "<<<<<<<" not in text
    merged = loads(text)
    assert merged.floor_units["fu-1"].name == "CDU-X"
    assert (merged.busbars["bus-1"].name, merged.busbars["bus-2"].name) == ("BB-X", "BB-Y")  # both sides' others
