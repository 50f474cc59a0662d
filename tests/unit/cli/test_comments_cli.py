"""`planner comments FILE [--json]`: every comment by its pin number with status, author, date,
the object it is on and its replies; exit 0, and 2 with one line for a file it cannot read."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from planner.cli import main
from planner.commands import History
from planner.commands.comments import add_comment, reply, set_status
from planner.commands.edits import delete_objects
from planner.io import save
from planner.layout.templates import build_template

DATE = "2026-12-01T09:30:00Z"


@pytest.fixture(scope="module")
def plan(tmp_path_factory):
    """A small pod with three comments: 1 on a rack (two replies, one with two lines), 2 on a
    point (resolved), 3 on a rack that was then deleted."""
    doc = build_template("pod", nodes=4)
    racks = sorted(doc.racks.values(), key=lambda r: r.name)
    first, last = racks[0], racks[-1]
    history = History(doc)
    history.push(add_comment(doc, "Rack too close to the column\nCheck the aisle", "Ana Ли", first.x + 0.1,
                             first.y, first.id, DATE))
    one = next(iter(doc.comments))
    history.push(add_comment(doc, "Door swing?", "Ben", 2.0, 1.5, date=DATE))
    two = max(doc.comments, key=lambda i: int(i.split("-")[1]))
    history.push(reply(doc, one, "Agreed", "Ben", DATE))
    history.push(reply(doc, one, "Moved in rev B\nsee sheet 3", "Ana Ли", DATE))
    history.push(set_status(doc, two, "resolved"))
    history.push(add_comment(doc, "Spare rack?", "Cy", last.x, last.y, last.id, DATE))
    history.push(delete_objects(doc, [last.id]))
    path = tmp_path_factory.mktemp("plans") / "reviewed.hall"
    save(doc, path)
    return path, first, last


def test_json_lists_comments_by_number_with_replies_and_where_their_pins_are(plan, capsys):
    path, first, last = plan
    assert main(["comments", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"] == {"comments": 3, "open": 2, "resolved": 1, "replies": 2}
    one, two, three = data["comments"]
    assert [c["number"] for c in data["comments"]] == [1, 2, 3]
    assert one == {
        "number": 1, "id": one["id"], "text": "Rack too close to the column\nCheck the aisle", "author": "Ana Ли",
        "date": DATE, "status": "open", "x": round(first.x + 0.1, 3), "y": first.y, "target": first.id,
        "target_name": first.name,
        "replies": [{"id": one["replies"][0]["id"], "text": "Agreed", "author": "Ben", "date": DATE},
                    {"id": one["replies"][1]["id"], "text": "Moved in rev B\nsee sheet 3", "author": "Ana Ли",
                     "date": DATE}],
    }
    assert (two["status"], two["x"], two["y"], two["target"], two["target_name"]) == ("resolved", 2.0, 1.5, "", "")
    assert (three["target"], three["target_name"], three["x"], three["y"]) == (last.id, None, None, None)


def test_status_filters_the_list_but_not_the_summary(plan, capsys):
    path, _first, _last = plan
    assert main(["comments", str(path), "--json", "--status", "resolved"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["number"] for c in data["comments"]] == [2]
    assert data["summary"]["comments"] == 3


def test_text_reads_like_a_thread(plan, capsys):
    path, first, last = plan
    assert main(["comments", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"1   open      Ana Ли · {DATE} · on {first.name}"
    assert out[1:4] == ["    Rack too close to the column", "    Check the aisle", f"    ↳ Ben · {DATE}"]
    assert out[4:8] == ["        Agreed", f"    ↳ Ana Ли · {DATE}", "        Moved in rev B", "        see sheet 3"]
    assert out[8] == f"2   resolved  Ben · {DATE} · at 2.00, 1.50 m"
    assert out[10] == f"3   open      Cy · {DATE} · on {last.id} (deleted)"
    assert out[-1] == "3 comments: 2 open, 1 resolved; 2 replies"


def test_a_plan_without_comments_says_so(tmp_path, capsys):
    path = tmp_path / "plain.hall"
    save(build_template("starter"), path)
    assert main(["comments", str(path)]) == 0
    assert capsys.readouterr().out == "0 comments: 0 open, 0 resolved; 0 replies\n"


def test_the_installed_command_exits_2_with_one_line_for_an_unreadable_file(tmp_path):
    bad = tmp_path / "bad.hall"
    bad.write_text("{not json", encoding="utf-8")
    result = subprocess.run([sys.executable, "-I", "-m", "planner", "comments", str(bad), "--json"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("planner: ") and str(bad) in lines[0]
