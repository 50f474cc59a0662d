"""What a professional command line does (issue 20): a success line for a command that writes,
a quiet exit when the reader of its output has had enough, and no silent pass on an empty input."""

from __future__ import annotations

import subprocess
import sys

from planner.cli import main
from planner.cli.common import EXIT_CLOSED_PIPE
from planner.io import load, save
from planner.layout.templates import build_template
from planner.model.ports import COMPUTE


def test_new_says_what_it_wrote_and_that_it_replaced_a_file(tmp_path, capsys):
    out = tmp_path / "p.hall"
    assert main(["new", "--template", "pod", "--nodes", "16", "-o", str(out)]) == 0
    doc = load(out)  # every network's cables: the 384 compute ones, storage, management, cords, hoses
    assert len(doc.links_in(COMPUTE)) == 384
    assert capsys.readouterr().out == f"Wrote {out}: 16 nodes in 5 racks, {len(doc.links)} cables\n"
    assert main(["new", "--template", "pod", "--nodes", "16", "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"Replaced {out}: ")


def test_export_says_what_it_wrote(tmp_path, capsys):
    plan, out = tmp_path / "p.hall", tmp_path / "bom.csv"
    assert main(["new", "--template", "pod", "--nodes", "16", "-o", str(plan)]) == 0
    capsys.readouterr()
    assert main(["export", str(plan), "--to", "bom-csv", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"Wrote {out}: Bill of materials (CSV)\n" and out.stat().st_size > 0
    assert main(["export", str(plan), "--to", "bom-csv", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"Replaced {out}: Bill of materials (CSV)\n"


def test_a_closed_pipe_ends_quietly(tmp_path):
    doc = build_template("pod", 32)
    for link in doc.links.values():  # 512 stale lengths: 512 N8 lines, far more than a pipe buffers (64 KiB)
        link.length_m += 1.0
    plan = tmp_path / "p.hall"
    save(doc, plan)
    # the reader takes a few bytes and closes the pipe, as `| head -1` does
    child = subprocess.Popen([sys.executable, "-B", "-m", "planner", "validate", str(plan)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    child.stdout.read(16)
    child.stdout.close()
    _out, err = child.communicate(timeout=120)
    assert err == b"" and child.returncode == EXIT_CLOSED_PIPE


def test_verify_refuses_an_input_without_links(tmp_path, capsys):
    plan = tmp_path / "p.hall"
    assert main(["new", "--template", "pod", "--nodes", "16", "-o", str(plan)]) == 0
    header_only = tmp_path / "links.csv"
    header_only.write_text("a_device,a_port,b_device,b_port\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["verify", str(plan), "--links", str(header_only)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"planner: {header_only}: holds no links (empty, or a header only): nothing to " \
                                 "compare with the plan\n"
