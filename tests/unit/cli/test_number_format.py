"""One number format on the command line (issue 20): counts of 1,000 and more print with a
thousands comma in every line a person reads (``planner.text.count`` / ``plural``), while
--json and --csv keep plain numbers."""

from __future__ import annotations

import csv
import io
import json

import pytest

from planner.cli import main
from planner.io import load
from planner.model.ports import COMPUTE
from planner.text import count, plural


def test_the_helpers():
    assert [count(n) for n in (0, 7, 999, 1000, 24576, 131072)] == ["0", "7", "999", "1,000", "24,576", "131,072"]
    assert plural(1, "cable") == "1 cable" and plural(24576, "cable") == "24,576 cables"
    assert plural(1, "reply", "replies") == "1 reply" and plural(2, "reply", "replies") == "2 replies"


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    path = tmp_path_factory.mktemp("numbers") / "hall.hall"
    assert main(["new", "--template", "hall", "--nodes", "128", "-o", str(path)]) == 0
    return path


def test_new_says_what_it_wrote_with_commas(tmp_path, capsys):
    path = tmp_path / "h.hall"
    assert main(["new", "--template", "hall", "--nodes", "128", "-o", str(path)]) == 0
    line = capsys.readouterr().out.strip()
    doc = load(path)  # every network's cables: 2,048 compute, and the rest
    assert len(doc.links_in(COMPUTE)) == 2048 and len(doc.links) > 2048
    assert line.startswith(f"Wrote {path}: 128 nodes in ") and line.endswith(f" racks, {len(doc.links):,} cables")


def test_fabric_summary_lines(hall, capsys):
    assert main(["fabric", str(hall)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "128 nodes, 1,024 GPUs, 2 tiers, oversubscription 1:1"
    assert lines[2] == "links: 1,024 node-leaf, 1,024 leaf-spine, 0 spine-core"
    assert main(["fabric", str(hall), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["links"]["node-leaf"] == 1024  # JSON stays a number


def test_bom_text_groups_thousands_and_csv_does_not(hall, capsys):
    assert main(["bom", str(hall)]) == 0
    text = capsys.readouterr().out
    assert any(line.split()[0] == "transceiver" and "," in line.split()[-1] for line in text.splitlines()[1:])
    assert main(["bom", str(hall), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert all("," not in row["quantity"] for row in rows)
    assert max(int(row["quantity"]) for row in rows) >= 1000
