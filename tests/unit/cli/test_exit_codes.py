"""Every subcommand maps every failure class to its documented exit code (DESIGN §7):
0 success, 1 findings or a refusal, 2 an input that cannot be read or an output that cannot be
written (one line naming the path; the file there as it was), 3 an internal error (one line;
``--debug`` prints the traceback). A traceback is never the answer to bad input."""

from __future__ import annotations

import errno
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from planner.cli import main
from planner.io import HallFileError, dumps, load
from planner.model.networks import DATA_NETWORKS, network_of

SUBCOMMANDS = ("validate", "report", "new", "fabric", "bom", "export", "verify", "diff", "merge", "comments")
#: Subcommands that write a file, and how to ask each to write OUT from PLAN.
WRITERS = {
    "new": lambda plan, out: ["new", "--template", "pod", "--nodes", "4", "-o", out],
    "fabric": lambda plan, out: ["fabric", plan, "-o", out],
    "export": lambda plan, out: ["export", plan, "--to", "cables-csv", "-o", out],
}
READERS = {
    "validate": lambda plan: ["validate", plan],
    "report": lambda plan: ["report", plan, "--json"],
    "fabric": lambda plan: ["fabric", plan, "--json"],
    "bom": lambda plan: ["bom", plan, "--json"],
    "export": lambda plan: ["export", plan, "--to", "bom-csv", "-o", os.path.join(tempfile.gettempdir(), "unused.csv")],
    "verify": lambda plan: ["verify", plan, "--links", _links_as_planned(plan)],
    "diff": lambda plan: ["diff", plan, plan],
    "merge": lambda plan: ["merge", plan, plan, plan, "-o", os.path.join(tempfile.gettempdir(), "unused.hall")],
    "comments": lambda plan: ["comments", plan, "--json"],
}
#: What each subcommand's work goes through, to make it fail from inside.
CORE = {"validate": "planner.cli.validate.validate", "report": "planner.cli.report.build_report",
        "new": "planner.cli.new.build_template", "fabric": "planner.cli.fabric.fabric_counts",
        "bom": "planner.cli.bom.build_bom", "export": "planner.cli.export.export_to",
        "verify": "planner.cli.verify.verify", "diff": "planner.cli.diff.diff_plans",
        "merge": "planner.cli.merge.merge_plans", "comments": "planner.cli.comments.threads"}


def _links_as_planned(plan: str) -> str:
    """A links CSV naming every planned data cable as found (verify: all as planned; power cords
    and hoses report to no discovery, so a links file does not name them; or, for an unreadable
    plan, a file beside it that is never reached)."""
    path = os.path.join(tempfile.gettempdir(), f"planner-exit-codes-{os.getpid()}-links.csv")
    lines = ["a_device,a_port,b_device,b_port"]
    try:
        doc = load(plan)
    except HallFileError:  # the unreadable-input tests pass a broken plan: verify reports it first
        doc = None
    for link in doc.links.values() if doc else ():
        if network_of(link) not in DATA_NETWORKS:
            continue
        a, b = doc.devices[link.a_device], doc.devices[link.b_device]
        lines.append(f"{doc.hostname(a)},{link.a_port},{doc.hostname(b)},{link.b_port}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def plan(tmp_path_factory) -> str:
    """A clean pod plan (no errors, so ``fabric -o`` writes)."""
    path = tmp_path_factory.mktemp("plans") / "pod.hall"
    assert main(["new", "--template", "pod", "--nodes", "4", "-o", str(path)]) == 0
    return str(path)


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("planner: ") and "Traceback" not in err, err
    return lines[0]


# ------------------------------------------------------------------ 0 and 1
@pytest.mark.parametrize("name", sorted(READERS))
def test_success_is_0(name, plan, capsys):
    assert run(READERS[name](plan), capsys)[0] == 0


def test_findings_and_refusals_are_1(plan, tmp_path, capsys):
    doc = load(plan)
    next(iter(doc.racks.values())).cdu = None  # a liquid-cooled rack on no loop: C4
    broken = tmp_path / "broken.hall"
    broken.write_text(dumps(doc), encoding="utf-8")
    assert run(["validate", str(broken)], capsys)[0] == 1
    code, _out, err = run(["new", "--template", "hall", "--rack-kw", "100", "-o", str(tmp_path / "x.hall")], capsys)
    assert code == 1 and "tap-off" in one_line(err) and not (tmp_path / "x.hall").exists()
    code, _out, err = run(["fabric", str(broken), "-o", str(tmp_path / "f.hall")], capsys)
    assert code == 1 and not (tmp_path / "f.hall").exists()


# ---------------------------------------------------------- 2: bad inputs
def _inputs(tmp_path: Path, plan: str) -> dict[str, str]:
    data = json.loads(Path(plan).read_text(encoding="utf-8"))
    data["racks"][0]["x"] = 1e308
    hostile = tmp_path / "hostile.hall"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    data["racks"][0]["x"] = 0.0
    data["devices"][0]["u"] = "__U__"
    digits = tmp_path / "digits.hall"
    digits.write_text(json.dumps(data).replace('"__U__"', "1" * 4301), encoding="utf-8")
    truncated = tmp_path / "truncated.hall"
    truncated.write_text(Path(plan).read_text(encoding="utf-8")[:5000], encoding="utf-8")
    binary = tmp_path / "binary.hall"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    return {"missing": str(tmp_path / "missing.hall"), "folder": str(tmp_path), "hostile": str(hostile),
            "digits": str(digits), "truncated": str(truncated), "binary": str(binary)}


@pytest.mark.parametrize("name", sorted(READERS))
def test_unreadable_inputs_are_2_with_one_line(name, plan, tmp_path, capsys):
    for kind, path in _inputs(tmp_path, plan).items():
        code, _out, err = run(READERS[name](path), capsys)
        assert code == 2, (name, kind)
        line = one_line(err)
        assert path in line, (name, kind, line)
    code, _out, err = run(READERS[name](_inputs(tmp_path, plan)["hostile"]), capsys)
    assert "$.racks[0].x: 1e308 m is outside -10,000 to 10,000 m" in err


# --------------------------------------------------------- 2: bad outputs
def _fail(monkeypatch, name: str, error: OSError) -> None:
    def failing(*_args, **_kwargs):
        raise error
    monkeypatch.setattr(name, failing)


OUTPUT_FAILURES = {
    "folder": None,
    "missing parent": None,
    "read-only folder": ("tempfile.mkstemp", OSError(errno.EACCES, "Permission denied")),
    "full disk": ("os.fsync", OSError(errno.ENOSPC, "No space left on device")),
    "file too large": ("os.fsync", OSError(errno.EFBIG, "File too large")),
}


@pytest.mark.parametrize("failure", sorted(OUTPUT_FAILURES))
@pytest.mark.parametrize("name", sorted(WRITERS))
def test_unwritable_outputs_are_2_and_keep_the_old_file(name, failure, plan, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out" / "target"
    out.parent.mkdir()
    out.write_text("the old file", encoding="utf-8")
    if failure == "folder":
        out.unlink()
        out.mkdir()
        (out / "inside").write_text("kept")
    elif failure == "missing parent":
        out = tmp_path / "nowhere" / "target"
    else:
        target, error = OUTPUT_FAILURES[failure]
        _fail(monkeypatch, target, error)
    code, _out, err = run(WRITERS[name](plan, str(out)), capsys)
    assert code == 2, (name, failure, err)
    line = one_line(err)
    assert str(out) in line, line
    if failure == "folder":
        assert out.is_dir() and (out / "inside").read_text() == "kept"
        assert not out.with_name("target.bak").exists()
    elif failure != "missing parent":
        assert out.read_text(encoding="utf-8") == "the old file"
        assert sorted(p.name for p in out.parent.iterdir()) == ["target"]


# ------------------------------------------------------------ 3: internal
@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_internal_errors_are_3_with_one_line_and_debug_prints_the_traceback(name, plan, tmp_path, capsys,
                                                                            monkeypatch):
    _fail(monkeypatch, CORE[name], RuntimeError("boom\nsecond line"))
    argv = WRITERS[name](plan, str(tmp_path / "o.out")) if name in WRITERS else READERS[name](plan)
    code, _out, err = run(argv, capsys)
    assert code == 3
    assert one_line(err) == "planner: internal error: RuntimeError: boom (run again with --debug for the traceback)"
    code, _out, err = run([*argv, "--debug"], capsys)
    assert code == 3 and "Traceback (most recent call last)" in err and "RuntimeError: boom" in err


# ------------------------------------------------------- real processes
def _limited(limit_bytes: int):
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))
    return preexec


def _planner(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """The installed CLI in a child process (-I: not the source tree in the working directory,
    which lacks planner.resources in a non-editable install, as CI has it; -B: a child under a
    file-size limit would leave truncated .pyc files behind for every later import)."""
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-I", "-B", "-m", "planner", *args], check=False, text=True, timeout=120,
                          **streams)


def test_a_file_size_limit_is_2_and_keeps_the_old_file(plan, tmp_path):
    target = tmp_path / "plan.hall"
    target.write_text("the old plan", encoding="utf-8")
    done = _planner("new", "--template", "pod", "--nodes", "32", "-o", str(target),
                    preexec_fn=_limited(64 * 1024))
    assert done.returncode == 2, done.stderr
    assert one_line(done.stderr) == f"planner: cannot write {target}: File too large"
    assert target.read_text(encoding="utf-8") == "the old plan"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.hall"]
    out = tmp_path / "cables.csv"
    done = _planner("export", plan, "--to", "cables-csv", "-o", str(out), preexec_fn=_limited(1024))
    assert done.returncode == 2 and one_line(done.stderr).startswith(f"planner: cannot write {out}:")


def test_a_full_standard_output_is_2(plan):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = _planner("report", plan, "--json", stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 2
    assert one_line(done.stderr) == "planner: cannot write standard output: No space left on device"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_is_2_in_a_real_process(plan, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "plan.hall").write_text("the old plan")
    folder.chmod(0o555)
    try:
        done = _planner("fabric", plan, "-o", str(folder / "plan.hall"))
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2 and "Permission denied" in one_line(done.stderr)
    assert (folder / "plan.hall").read_text() == "the old plan"
