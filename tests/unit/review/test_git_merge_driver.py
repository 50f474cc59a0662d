"""`planner merge` as git's merge driver, in a temporary repository: the README's setup
(`*.hall merge=hall` in .gitattributes, `merge.hall.driver = planner merge %O %A %B -o %A`), two
branches with disjoint edits merge by themselves; a conflicting edit stops the merge with the
file left as a plan that loads, holding ours on the conflict. git runs the installed planner
through a `planner` script on PATH that calls `python -I -m planner` (the console script may not
be on PATH in every install)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import dumps, loads
from planner.layout.templates import build_template

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@pytest.fixture
def repo(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "planner"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -m planner "$@"\n')
    wrapper.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(tmp_path),
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_PAGER": "cat"}

    def git(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(["git", *args], cwd=work, env=env, capture_output=True, text=True, check=False)
        if ok:
            assert result.returncode == 0, result.stdout + result.stderr
        return result

    git("init", "-q", "-b", "main")
    # the README's lines
    (work / ".gitattributes").write_text("*.hall merge=hall\n")
    git("config", "merge.hall.name", "Hall Planner three-way merge")
    git("config", "merge.hall.driver", "planner merge %O %A %B -o %A")
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
