"""`planner diff` as git's diff driver, in a temporary repository holding two commits of a .hall:
`git diff` reads like a change list (diff.hall.command) and `git log -p` shows the per-object
listing (diff.hall.textconv). The repository is conftest's ``git_work``."""

from __future__ import annotations

import pytest

from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import dumps, loads
from planner.layout.templates import build_template


@pytest.fixture
def repo(git_work):
    work, run = git_work

    def git(*args: str) -> str:
        return run(*args).stdout

    # the README's lines and the optional textconv
    (work / ".gitattributes").write_text("*.hall diff=hall\n")
    git("config", "diff.hall.command", "planner diff --git")
    git("config", "diff.hall.textconv", "planner diff --textconv")
    return work, git


def test_git_diff_reads_like_a_change_list(repo):
    work, git = repo
    old = build_template("pod", nodes=16)
    (work / "plan.hall").write_text(dumps(old))
    git("add", ".")
    git("commit", "-qm", "first")
    new = loads(dumps(old))
    r03 = next(r for r in new.racks.values() if r.name == "R03")
    cdu = next(iter(new.floor_units.values()))
    move_objects(new, [r03.id], 0.6, 0.0).apply(new)
    SetFields({cdu.id: {"name": "CDU-A"}}).apply(new)
    (work / "plan.hall").write_text(dumps(new))
    git("commit", "-qam", "second")

    shown = git("diff", "HEAD~1", "HEAD")
    assert shown.splitlines()[:5] == ["diff --hall a/plan.hall b/plan.hall", "Moved (1)",
                                      "  moved R03 from (5.6, 3.0) to (6.2, 3.0)", "Changed (1)",
                                      "  renamed floor unit CDU-01 → CDU-A"]
    # the CDU's name is in the report's figures: its heat and flow did not move, so no figure line
    assert "Figures" not in shown

    # git log -p uses no external diff: the textconv listing, one object a line
    log = git("log", "-p", "-1")
    place = f"[{cdu.id}] type=cdu-row-1500kw x={cdu.x} y={cdu.y} rotation=0 row=1"
    assert f"-floor_unit CDU-01 {place}" in log and f"+floor_unit CDU-A {place}" in log
    assert f"+rack R03 [{r03.id}] type=rack-800x1200-52u x=6.2 y=3.0" in log

    # the first commit added the file: the driver gets /dev/null for the old side
    first = git("show", "--ext-diff", "--format=", "HEAD~1", "--", "plan.hall")
    assert first.splitlines()[1].startswith(f"new plan: 1 zone, 1 door, 2 hand-offs, 5 racks, {len(old.devices)} devices")
