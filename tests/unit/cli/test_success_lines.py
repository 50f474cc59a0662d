"""A success line for every writing command (issue 20): `fabric -o` and `verify -o/--update` say
what they wrote, on standard output, or on stderr with --json so that standard output stays JSON."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from planner.cli import main
from planner.io import save
from planner.layout.templates import build_template

DATA = Path(__file__).parents[2] / "data" / "discovery"


def test_fabric_says_what_it_wrote(tmp_path, capsys):
    plan, out = tmp_path / "p.hall", tmp_path / "out.hall"
    doc = build_template("pod", 16)
    save(doc, plan)
    assert main(["fabric", str(plan), "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()  # the compute cables, each network's, then what it wrote
    assert [line for line in lines if line.startswith("Wrote ")] == [f"Wrote {out}: {len(doc.links)} cables"]
    assert main(["fabric", str(plan), "-o", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["nodes"] == 16
    assert f"Replaced {out}: {len(doc.links)} cables" in captured.err


def test_verify_says_what_it_wrote(tmp_path, capsys):
    plan = tmp_path / "tiny.hall"
    shutil.copy(DATA / "tiny.hall", plan)
    report = tmp_path / "fixes.csv"
    assert main(["verify", str(plan), "--links", str(DATA / "links_faults.csv"), "--update", "-o", str(report)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2] == f"Wrote {report}: 2 fixes, racks in walk order (by rack name)"
    assert lines[-1].startswith(f"Updated {plan}: record verification: 4 cables verified, 2 faulty")
    assert lines[-1].endswith("(the old file kept as tiny.hall.bak)")
