"""`planner cables import PLAN CABLES.csv -o OUT` (issue 18): a cable list applied as one change.

The plan is the 6-node pod: 6 nodes × 8 rails = 48 node-leaf cables on one 64-port leaf (R02 L1,
ports 1/1 … 24/2 used, 25/1 … 32/2 free). Its cables-csv has 48 rows under the header.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from planner.cli import main
from planner.commands.base import History, RemoveObjects, SetFields
from planner.io import load, save
from planner.io.cable_list import MAX_BYTES
from planner.layout.templates import build_template
from planner.model.labels import cable_label
from planner.model.networks import is_compute
from planner.rules.engine import validate
from planner.rules.finding import ERROR

DATA = Path(__file__).parents[2] / "data" / "cable_lists"
REMOVED = ("link-46", "link-47", "link-48")  # R03 N2 P6–P8: taken out of the plan, listed again


@pytest.fixture(scope="module")
def schedule(tmp_path_factory) -> tuple[Path, list[list[str]]]:
    """The full pod and its cables-csv rows (header first), exported by the CLI."""
    folder = tmp_path_factory.mktemp("pod")
    full = folder / "full.hall"
    pod = build_template("pod", 6)
    for link_id in [i for i, link in pod.links.items() if not is_compute(link)]:
        pod.remove(link_id)  # the rails alone: the other networks' lists are tests/unit/export/test_paper_networks.py
    save(pod, full)
    out = folder / "cables.csv"
    assert main(["export", str(full), "--to", "cables-csv", "-o", str(out)]) == 0
    with open(out, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) == 49
    return full, rows


@pytest.fixture
def plan(tmp_path, schedule) -> Path:
    """The pod without three of its cables, one cable verified and one tested (with a note)."""
    doc = load(schedule[0])
    History(doc).push(RemoveObjects(list(REMOVED)))
    History(doc).push(SetFields({"link-10": {"state": "verified", "state_note": "ok 12 May"},
                                 "link-20": {"state": "tested"}}))
    path = tmp_path / "plan.hall"
    save(doc, path)
    return path


def _write(path: Path, rows: list[list[str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    return path


def _edited(schedule) -> list[list[str]]:
    """The schedule with link-1 and link-2 (R01 N1 P1, P2) moved to the free leaf ports 25/1, 25/2."""
    rows = [list(row) for row in schedule[1]]
    header = rows[0]
    port = header.index("b_port")
    for row in rows[1:]:
        if row[header.index("a_device")] == "N1" and row[header.index("a_rack")] == "R01" and \
                row[header.index("a_port")] in ("P1", "P2"):
            row[port] = {"P1": "25/1", "P2": "25/2"}[row[header.index("a_port")]]
    return rows


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["cables", "import", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_bad_row_refuses_the_whole_list(plan, schedule, tmp_path, capsys):
    rows = [*_edited(schedule), ["", "R99", "1", "N1", "P1", "R02", "1", "L1", "26/1"]]
    assert len(rows) == 50  # the header, 48 cables (2 rewired, 3 new), 1 bad row
    listed = _write(tmp_path / "list.csv", rows)
    before = plan.read_bytes()
    out = tmp_path / "out.hall"
    code, stdout, err = _run(capsys, plan, listed, "-o", out)
    assert code == 1
    assert stdout == ""
    assert "row 50: A end: unknown rack 'R99'" in err
    assert "nothing applied" in err
    assert not out.exists()
    assert plan.read_bytes() == before


def test_without_the_bad_row_the_list_is_applied(plan, schedule, tmp_path, capsys):
    listed = _write(tmp_path / "list.csv", _edited(schedule))
    out = tmp_path / "out.hall"
    before = load(plan)
    code, stdout, err = _run(capsys, plan, listed, "-o", out)
    assert code == 0, err
    assert stdout == f"cables import: kept 43, rewired 2, removed 0, added 3 → {out}\n"
    after = load(out)
    assert len(after.links) == 48
    for link_id, link in before.links.items():  # every cable keeps its id; only the two rewired move
        new = after.links[link_id]
        assert (new.state, new.state_note, new.label) == (link.state, link.state_note, link.label)
        ends = (new.a_device, new.a_port, new.b_device, new.b_port)
        if link_id in ("link-1", "link-2"):
            assert ends == (link.a_device, link.a_port, link.b_device, {"link-1": "25/1", "link-2": "25/2"}[link_id])
        else:
            assert ends == (link.a_device, link.a_port, link.b_device, link.b_port)
    assert after.links["link-10"].state == "verified" and after.links["link-10"].state_note == "ok 12 May"
    # the rewired cables' labels follow their new ends (the row's old label meant "derived")
    assert cable_label(after, after.links["link-1"]) == "R01-U01-N1-P1 ↔ R02-U01-L1-25/1"
    added = sorted(set(after.links) - set(before.links))
    assert len(added) == 3
    assert sorted((after.links[i].a_port, after.links[i].b_port) for i in added) == \
        [("P6", "23/2"), ("P7", "24/1"), ("P8", "24/2")]
    assert {after.links[i].tier for i in added} == {"node-leaf"}
    assert [after.links[i].rail for i in sorted(added, key=lambda i: after.links[i].a_port)] == [6, 7, 8]
    assert all(after.links[i].media and after.links[i].stock_m > 0 for i in added)
    assert load(plan).links.keys() == before.links.keys()  # the plan itself is left as it was


def test_the_same_list_again_changes_nothing(schedule, tmp_path, capsys):
    listed = _write(tmp_path / "list.csv", schedule[1])
    out = tmp_path / "out.hall"
    code, stdout, _err = _run(capsys, schedule[0], listed, "-o", out)
    assert code == 0
    assert stdout.startswith("cables import: kept 48, rewired 0, removed 0, added 0 →")
    assert main(["diff", str(schedule[0]), str(out)]) == 0


def test_dry_run_prints_and_writes_nothing(plan, schedule, tmp_path, capsys):
    listed = _write(tmp_path / "list.csv", _edited(schedule))
    code, stdout, _err = _run(capsys, plan, listed, "--dry-run")
    assert code == 0
    assert stdout == "cables import: kept 43, rewired 2, removed 0, added 3 (dry run, nothing written)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["list.csv", "plan.hall"]


def test_unlisted_cables_are_removed_unless_kept(plan, schedule, tmp_path, capsys):
    rows = [row for row in schedule[1] if not (row[1:5] == ["R01", "1", "N1", "P3"] or row[1:5] == ["R01", "1", "N1", "P4"])]
    listed = _write(tmp_path / "list.csv", rows)
    code, stdout, _err = _run(capsys, plan, listed, "--dry-run")
    assert (code, stdout) == (0, "cables import: kept 43, rewired 0, removed 2, added 3 (dry run, nothing written)\n")
    code, stdout, _err = _run(capsys, plan, listed, "--dry-run", "--keep-unlisted")
    assert (code, stdout) == (0, "cables import: kept 43, rewired 0, removed 0, added 3 (dry run, nothing written)\n")


def test_cables_past_planned_need_force(plan, schedule, tmp_path, capsys):
    rows = _edited(schedule)
    header = rows[0]
    for row in rows[1:]:  # also move link-20 (tested) and drop link-10 (verified)
        if row[header.index("a_rack"):header.index("a_port") + 1] == ["R01", "9", "N3", "P4"]:
            row[header.index("b_port")] = "26/1"
    rows = [row for row in rows if row[header.index("a_rack"):header.index("a_port") + 1] != ["R01", "5", "N2", "P2"]]
    listed = _write(tmp_path / "list.csv", rows)
    out = tmp_path / "out.hall"
    code, stdout, err = _run(capsys, plan, listed, "-o", out)
    assert code == 1
    assert stdout == "cables import: kept 41, rewired 3 (1 past planned), removed 1 (1 verified), added 3 (not applied)\n"
    assert "2 cable(s) already past planned would be removed or rewired (link-20, link-10)" in err
    assert "--force" in err
    assert not out.exists()
    code, stdout, err = _run(capsys, plan, listed, "-o", out, "--force")
    assert code == 0, err
    after = load(out)
    assert "link-10" not in after.links
    assert after.links["link-20"].state == "planned" and after.links["link-20"].b_port == "26/1"


def test_typed_labels_are_kept_and_formula_text_stays_text(plan, schedule, tmp_path, capsys):
    rows = [list(row) for row in schedule[1]]
    rows[5][0] = "C-00123"
    rows[6][0] = "'=HYPERLINK(\"http://x\")"  # as the planner's export neutralises a typed "=…"
    rows[7][0] = "@SUM(A1)"
    listed = _write(tmp_path / "list.csv", rows)
    out = tmp_path / "out.hall"
    code, _stdout, err = _run(capsys, plan, listed, "-o", out)
    assert code == 0, err
    labels = {cable_label(load(out), link) for link in load(out).links.values()}
    assert {"C-00123", '=HYPERLINK("http://x")', "@SUM(A1)"} <= labels


def test_ufm_p2p_list_round_trips(schedule, tmp_path, capsys):
    """The UFM cable validation tool's P2P columns, hostnames, host port numbers (1 = mlx5_0 = P1)
    and switch ports as split ports (1/2) or IB port numbers (4 = 2/2): the pod exactly."""
    out = tmp_path / "out.hall"
    code, stdout, err = _run(capsys, schedule[0], DATA / "ufm_p2p_pod6.csv", "-o", out)
    assert code == 0, err
    assert stdout == f"cables import: kept 48, rewired 0, removed 0, added 0 → {out}\n"
    assert main(["diff", str(schedule[0]), str(out)]) == 0


def test_ufm_port_spellings_and_a_rewire(schedule, tmp_path, capsys):
    text = (DATA / "ufm_p2p_pod6.csv").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[1] == "R01,1,R01-N1,Host,1,R02,1,R02-L1,Switch,1"
    lines[1] = "R01,1,R01-N1,Host,rail1,R02,1,R02-L1,Switch,sw25p1"  # NVOS split-port form
    lines[2] = "R01,1,R01-N1,Host,mlx5_1,R02,1,R02-L1,Switch,swp25s1"  # Cumulus breakout form
    listed = tmp_path / "p2p.csv"
    listed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "out.hall"
    code, stdout, err = _run(capsys, schedule[0], listed, "-o", out)
    assert code == 0, err
    assert stdout.startswith("cables import: kept 46, rewired 2, removed 0, added 0")
    after = load(out)
    assert (after.links["link-1"].b_port, after.links["link-2"].b_port) == ("25/1", "25/2")


def test_row_problems_are_each_named(schedule, tmp_path, capsys):
    header = schedule[1][0]
    good = schedule[1][1:]
    rows = [header, *good[:10],
            ["", "R01", "3", "N1", "P1", "R02", "1", "L1", "1/1"],           # row 12: wrong U
            ["", "R01", "1", "N1", "P9", "R02", "1", "L1", "30/1"],          # row 13: no such port
            ["", "R01", "1", "N9", "P1", "R02", "1", "L1", "30/2"],          # row 14: no such device
            ["", "R01", "1", "N1", "P1", "R02", "1", "L1", "31/1"],          # row 15: P1 again
            ["", "R01", "1", "=cmd|' /C calc'!A0", "P1", "R02", "1", "L1", "31/2"],  # row 16
            ["", "R0\x1b[31m1", "1", "N1", "P1", "R02", "1", "L1", "32/1"],  # row 17: escape sequence
            ["", "R01", "", "N" * 10_000, "P1", "R02", "", "L1", "32/2"],    # row 18: 10k characters
            ["", "R01", "1", "N1", "", "R02", "1", "L1", "32/2"],            # row 19: empty port
            ["", "R01", "1", "N1", "P1", "R01", "1", "N1", "P1"],            # row 20: to itself
            ["x"] * 300,                                                     # row 21: too many columns
            *good[10:]]
    listed = _write(tmp_path / "list.csv", rows)
    code, stdout, err = _run(capsys, schedule[0], listed, "--dry-run")
    assert code == 1 and stdout == ""
    lines = err.splitlines()
    assert lines[0] == f"planner: cables import: {listed}: 10 row(s) cannot be used; nothing applied"
    assert lines[1:] == [
        "planner: row 12: A end: R01 N1 is at U1, the row says U3",
        "planner: row 13: A end: R01 N1 has no port 'P9' (ports P1 … P8)",
        "planner: row 14: A end: no device 'N9' in rack R01",
        "planner: row 15: R01 N1 P1 is on row 2 too",
        "planner: row 16: A end: no device \"=cmd|' /C calc'!A0\" in rack R01",
        "planner: row 17: A end: unknown rack 'R0\\x1b[31m1'",
        f"planner: row 18: A end: no device '{'N' * 40}…' in rack R01",
        "planner: row 19: 'a_port' is empty",
        "planner: row 20: both ends are R01 N1 P1",
        "planner: row 21: 300 columns, at most 256: not a cable row",
    ]
    assert "\x1b" not in err


def test_rows_are_counted_as_a_spreadsheet_shows_them(schedule, tmp_path, capsys):
    rows = [schedule[1][0], schedule[1][1], ["line one\nline two", *schedule[1][2][1:]], schedule[1][3],
            ["", "R77", "1", "N1", "P1", "R02", "1", "L1", "26/1"]]
    listed = _write(tmp_path / "list.csv", rows)
    code, _stdout, err = _run(capsys, schedule[0], listed, "--dry-run")
    assert code == 1
    assert "row 3: label: " in err  # a line break in a label, the cell on spreadsheet row 3
    assert "row 5: A end: unknown rack 'R77'" in err


def test_more_than_twenty_problems_are_counted(schedule, tmp_path, capsys):
    rows = [schedule[1][0], *([["", f"R9{i}", "1", "N1", "P1", "R02", "1", "L1", "1/1"] for i in range(25)])]
    listed = _write(tmp_path / "list.csv", rows)
    code, _stdout, err = _run(capsys, schedule[0], listed, "--dry-run")
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == 22 and lines[-1] == "planner: and 5 more"


@pytest.mark.parametrize(("content", "reason"), [
    (b"", "empty: no header row and no cables"),
    (b"\n \n", "empty: no header row and no cables"),
    (b"label,a_rack,a_u,a_device,a_port,b_rack,b_u,b_device,b_port\r\n", "no cables: only a header row"),
    (b"\xef\xbb\xbfA-Rack,A-U,A-Node Name,A-Type,A-Port,Z-Rack,Z-RU,Z-Node Name,Z-Type,Z-Port\n",
     "no cables: only a header row"),
    (b"a_device,a_port,b_device,b_port\nR01-N1,P1,R02-L1,1\x00/1\n", "line 2: a NUL byte: not a text file"),
    (b"a_device,a_port,b_device,b_port\nR01-N1,P1,R02-L1,\xff\n", "row 2: not UTF-8 text"),
    (b"name,rack\nN1,R01\n", "row 1: no header row: expected the columns a_device"),
    (b"A-Node Name,A-Port,A-U,A-RU,Z-Node Name,Z-Port\n", "row 1: two columns are a_u: 'A-U' and 'A-RU'"),
])
def test_unreadable_lists_exit_2_and_change_nothing(schedule, tmp_path, capsys, content, reason):
    listed = tmp_path / "list.csv"
    listed.write_bytes(content)
    out = tmp_path / "out.hall"
    code, stdout, err = _run(capsys, schedule[0], listed, "-o", out)
    assert code == 2
    assert stdout == ""
    assert err.count("\n") == 1 and f"planner: cables import: {listed}: {reason}" in err
    assert not out.exists()


def test_a_huge_file_is_refused_before_it_is_read(schedule, tmp_path, capsys):
    listed = tmp_path / "huge.csv"
    with open(listed, "wb") as handle:  # sparse: no disk, no memory
        handle.truncate(MAX_BYTES + 1)
    code, _stdout, err = _run(capsys, schedule[0], listed, "--dry-run")
    assert code == 2
    assert "is too large for a cable list (at most 256 MB" in err


def test_missing_list_output_and_unwritable_output_exit_2(schedule, tmp_path, capsys):
    code, _stdout, err = _run(capsys, schedule[0], tmp_path / "nope.csv", "-o", tmp_path / "out.hall")
    assert code == 2 and "nope.csv: cannot read: No such file or directory" in err
    listed = _write(tmp_path / "list.csv", schedule[1])
    code, _stdout, err = _run(capsys, schedule[0], listed)
    assert code == 2 and "give -o OUT" in err
    code, _stdout, err = _run(capsys, schedule[0], listed, "-o", tmp_path / "no" / "such" / "out.hall")
    assert code == 2 and err.count("\n") == 1 and str(tmp_path / "no" / "such" / "out.hall") in err


def test_errors_after_applying_are_counted_but_written(schedule, tmp_path, capsys):
    """A list without R01 N1's eight cables cuts that node off (N6, an error): written even so."""
    rows = [row for row in schedule[1] if row[1:4] != ["R01", "1", "N1"]]
    listed = _write(tmp_path / "list.csv", rows)
    out = tmp_path / "out.hall"
    code, stdout, err = _run(capsys, schedule[0], listed, "-o", out)
    assert code == 0
    assert stdout == f"cables import: kept 40, rewired 0, removed 8, added 0 → {out}\n"
    before = sum(1 for finding in validate(load(schedule[0])) if finding.severity == ERROR)  # the rails-only pod's
    assert err == (f"planner: cables import: warning: {out} has {before + 1} error finding(s) "
                   f"(planner validate {out} lists them)\n")
    assert len(load(out).links) == 40
    assert main(["validate", str(out)]) == 1


def test_hostnames_and_names_only_one_rack_has_need_no_rack(schedule, tmp_path, capsys):
    """The four bare columns (as `verify --links` takes them): hostnames, or a device name that
    only one rack has (L1); a name several racks have (N1) needs its rack."""
    doc = load(schedule[0])
    rows = [["a_device", "a_port", "b_device", "b_port"]]
    for link in sorted(doc.links.values(), key=lambda l: int(l.id.split("-")[1])):
        rows.append([doc.hostname(doc.devices[link.a_device]), link.a_port, "L1", link.b_port])
    listed = _write(tmp_path / "list.csv", rows)
    code, stdout, err = _run(capsys, schedule[0], listed, "--dry-run")
    assert (code, stdout) == (0, "cables import: kept 48, rewired 0, removed 0, added 0 (dry run, nothing written)\n"), err
    rows[1][0] = "N1"
    code, _stdout, err = _run(capsys, schedule[0], _write(tmp_path / "list.csv", rows), "--dry-run")
    assert code == 1 and "row 2: A end: 'N1' is in 2 racks: give the rack" in err


def test_an_internal_error_is_one_line_and_exit_3(schedule, tmp_path, capsys, monkeypatch):
    import planner.cli.cables as cables_cli

    def boom(*_args, **_kwargs):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(cables_cli, "cable_list_change", boom)
    listed = _write(tmp_path / "list.csv", schedule[1])
    code, _stdout, err = _run(capsys, schedule[0], listed, "--dry-run")
    assert code == 3
    assert err == "planner: internal error: RuntimeError: boom (run again with --debug for the traceback)\n"
