"""`planner merge … --path %P` (issue 20): as git's merge driver the three files are git's
temporaries (".merge_file_IipFUG"); the messages name the plan's path in the repository instead.
Run through a real `git merge` in a temporary repository with the README's driver line, and
through the command with temporary-looking file names."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.cli import build_parser, main
from planner.commands.base import SetFields
from planner.io import dumps, loads
from planner.layout.templates import build_template

DRIVER = "planner merge %O %A %B -o %A --path %P"


@pytest.fixture(scope="module")
def base_text() -> str:
    return dumps(build_template("pod", nodes=16))


@pytest.fixture
def repo(git_work, base_text):
    """A repository on main holding plans/hall.hall, git's merge driver set as the README says."""
    work, git = git_work
    (work / "plans").mkdir()
    (work / ".gitattributes").write_text("*.hall merge=hall\n")
    git("config", "merge.hall.name", "Hall Planner three-way merge")
    git("config", "merge.hall.driver", DRIVER)
    (work / "plans" / "hall.hall").write_text(base_text, encoding="utf-8")
    git("add", ".")
    git("commit", "-qm", "base")
    return work, git


def commit_names(work: Path, git, message: str, names: dict) -> None:
    plan = work / "plans" / "hall.hall"
    doc = loads(plan.read_text(encoding="utf-8"))
    SetFields(names).apply(doc)
    plan.write_text(dumps(doc), encoding="utf-8")
    git("commit", "-qam", message)


def test_git_merge_messages_name_the_plan_not_gits_temporary(repo):
    work, git = repo
    git("checkout", "-qb", "theirs")
    commit_names(work, git, "theirs", {"fu-1": {"name": "CDU-Y"}, "bus-2": {"name": "BB-Y"}})
    git("checkout", "-q", "main")
    commit_names(work, git, "ours", {"fu-1": {"name": "CDU-X"}})

    merge = git("merge", "--no-edit", "theirs", ok=False)
    said = merge.stdout + merge.stderr
    assert merge.returncode != 0  # a conflict stops the merge
    assert "merged into plans/hall.hall: 1 change taken from theirs, 1 conflict" in said
    assert "planner: 1 conflict: plans/hall.hall keeps ours on it" in said
    assert ".merge_file" not in said
    assert loads((work / "plans" / "hall.hall").read_text(encoding="utf-8")).floor_units["fu-1"].name == "CDU-X"


def test_a_clean_git_merge_names_the_plan(repo):
    work, git = repo
    git("checkout", "-qb", "theirs")
    commit_names(work, git, "theirs", {"bus-2": {"name": "BB-Y"}})
    git("checkout", "-q", "main")
    commit_names(work, git, "ours", {"fu-1": {"name": "CDU-X"}})

    merge = git("merge", "--no-edit", "theirs")
    said = merge.stdout + merge.stderr
    assert "merged into plans/hall.hall: 1 change taken from theirs, 0 conflicts" in said
    assert ".merge_file" not in said


@pytest.fixture
def temporaries(tmp_path, base_text):
    """BASE, OURS and THEIRS under git-like temporary names, THEIRS renaming the CDU."""
    names = {side: tmp_path / f".merge_file_{tag}" for side, tag in
             (("base", "a1B2c3"), ("ours", "IipFUG"), ("theirs", "x9Y8z7"))}
    for side, path in names.items():
        doc = loads(base_text)
        if side == "theirs":
            SetFields({"fu-1": {"name": "CDU-T"}}).apply(doc)
        path.write_text(dumps(doc), encoding="utf-8")
    return {side: str(path) for side, path in names.items()}


def test_path_names_the_plan_in_the_report_and_on_a_bad_input(temporaries, capsys):
    p = temporaries
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["ours"], "--path", "site/a.hall"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "merged into site/a.hall: 1 change taken from theirs, 0 conflicts"
    assert ".merge_file" not in out

    Path(p["theirs"]).write_text("{not a plan", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["ours"], "--path", "site/a.hall"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("planner: site/a.hall (theirs): not valid JSON")
    assert ".merge_file" not in err


def test_without_path_the_messages_name_the_files_given(temporaries, capsys):
    p = temporaries
    assert main(["merge", p["base"], p["ours"], p["theirs"], "-o", p["ours"]]) == 0
    assert capsys.readouterr().out.startswith(f"merged into {p['ours']}: ")


def test_the_driver_line_in_the_help_is_the_one_tested_here():
    merge = build_parser()._subparsers._group_actions[0].choices["merge"]
    assert DRIVER in " ".join(merge.format_help().split())
