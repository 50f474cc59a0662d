"""`planner verify` (DESIGN §7): exit 0 as planned, 1 differences, 2 unreadable input; JSON keys;
the report as PDF and CSV read back; --update writes the states into the plan."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from planner.cli import main
from planner.io import load

DATA = Path(__file__).parents[2] / "data" / "discovery"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-m", "planner", "verify", *args], capture_output=True, text=True,
                          check=False, timeout=120)


@pytest.fixture
def plan(tmp_path) -> Path:
    target = tmp_path / "tiny.hall"
    shutil.copy(DATA / "tiny.hall", target)
    return target


def test_as_planned_exits_0(plan):
    result = _run(str(plan), "--ibnetdiscover", str(DATA / "as_planned.ibnet"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == ["6 cables planned: 6 ok, 0 miswired, 0 missing",
                                              "0 cables found that the plan does not have"]


def test_differences_exit_1_with_the_json_contract(plan):
    result = _run(str(plan), "--ibnetdiscover", str(DATA / "faults.ibnet"), "--json")
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert data["summary"] == {"planned": 6, "ok": 1, "miswired": 4, "missing": 1, "unexpected": 3}
    assert {c["status"] for c in data["cables"]} == {"ok", "miswired", "missing"}
    assert {"label": "R01-U01-N1-P2 ↔ R05-U03-L2-1/1", "status": "missing", "found": "not found",
            "fix": "R01 N1 P2 → R05 L2 1/1: cable missing (10 m SR4)"} in data["cables"]
    assert data["unknown_names"] == ["R01-N1 mlx5_1", "gpu-spare-07"]


def test_a_truncated_input_exits_2_naming_file_and_line(plan):
    result = _run(str(plan), "--ibnetdiscover", str(DATA / "truncated.ibnet"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"planner: {DATA / 'truncated.ibnet'}:52: not an ibnetdiscover port line: '[1](a088c20300f1c2d3) \\t\"S-fc6a'"]


def test_update_writes_the_states_and_keeps_a_backup(plan, tmp_path):
    report = tmp_path / "fixes.pdf"
    result = _run(str(plan), "--links", str(DATA / "links_faults.csv"), "--update", "-o", str(report))
    assert result.returncode == 1, result.stderr
    doc = load(plan)
    assert doc.links["link-1"].state == "verified"
    assert (doc.links["link-2"].state, doc.links["link-2"].state_note) == ("faulty", "R05 L1: move the cable in 2/2 to 1/2")
    assert load(str(plan) + ".bak").links["link-1"].state == "planned"
    text = "\n".join(page.extract_text() for page in PdfReader(report).pages)
    assert "Cable verification: fixes" in text and "6 cables planned: 4 ok, 2 miswired, 0 missing" in text
    assert "R05 L1: move the cable in 2/2 to 1/2" in text
    assert "1 of 1" in text  # the title block; the two fixes share the first page with the figures
    assert "R09-N1" in text  # names that match nothing, on the cover


def test_csv_report_in_walk_order(plan, tmp_path, capsys):
    report = tmp_path / "fixes.csv"
    code = main(["verify", str(plan), "--ibnetdiscover", str(DATA / "faults.ibnet"), "-o", str(report)])
    assert code == 1
    rows = list(csv.reader(report.open(encoding="utf-8")))
    assert rows[0] == ["rack", "fix", "cables"]
    assert [row[0] for row in rows[1:]] == sorted(row[0] for row in rows[1:])
    swap = next(row for row in rows if row[1] == "R05 L1: swap the cables in 1/1 and 1/2")
    assert swap[2] == "R01-U01-N1-P1 ↔ R05-U01-L1-1/1; R01-U09-N2-P1 ↔ R05-U01-L1-1/2"
    out = capsys.readouterr().out
    assert "not in the plan: R01-N1 mlx5_1, gpu-spare-07" in out


@pytest.mark.parametrize("args", [[], ["--lldp", "absent-folder/"], ["--links", "x.csv", "-o", "fixes.txt"],
                                  ["--links", str(DATA / "links_faults.csv"), "-o", "no-such-folder/fixes.pdf"]])
def test_no_or_unreadable_input_exits_2(plan, tmp_path, monkeypatch, capsys, args):
    monkeypatch.chdir(tmp_path)
    assert main(["verify", str(plan), *args]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("planner: ")


def test_an_unreadable_plan_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.hall"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(SystemExit) as caught:
        main(["verify", str(bad), "--links", str(DATA / "links_faults.csv")])
    assert caught.value.code == 2
