"""Time `planner merge` at scale (issue 12): ours moves a row of racks, theirs rewires 1,000 cables
and renames a CDU, both from the same template hall.

Usage: python benchmarks/bench_merge.py [--nodes 4096] [--runs 3] [--cache DIR]
The hall is made with `planner new --template hall --nodes N` once and kept in the cache folder
(default: the system's temporary folder), with the two revisions made from it. Each phase of the
command is timed on its own (median of ``--runs``), then the whole command in process and as a
subprocess (`python -I -m planner merge`, interpreter start and imports included).
Target at 32,768 GPUs (4,096 nodes): merge < 5 s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from planner.cli import main as cli_main
from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import dumps, load, loads, save
from planner.io.atomic import write_atomic
from planner.model.document import Document, natural_key
from planner.review.merge import merge_plans
from planner.review.merge_errors import new_errors
from planner.rules.engine import validate

REWIRED = 1000


def median_s(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def quietly(action: Callable[[], object]) -> object:
    with contextlib.redirect_stdout(io.StringIO()):
        return action()


def make_files(nodes: int, folder: Path) -> tuple[Path, Path, Path]:
    base = folder / f"merge_h{nodes}.hall"
    ours, theirs = folder / f"merge_h{nodes}_ours.hall", folder / f"merge_h{nodes}_theirs.hall"
    if not base.exists():
        subprocess.run([sys.executable, "-I", "-m", "planner", "new", "--template", "hall", "--nodes", str(nodes),
                        "-o", str(base)], check=True)
    if not (ours.exists() and theirs.exists()):
        doc = load(base)
        move_row(doc)
        save(doc, ours)
        doc = load(base)
        rewire(doc, REWIRED)
        save(doc, theirs)
    return base, ours, theirs


def move_row(doc: Document) -> int:
    """Move every rack of the first row 0.3 m back (one undo step, as a drag of the row)."""
    row = min((r.row for r in doc.racks.values() if r.row), key=natural_key)
    ids = [r.id for r in doc.racks.values() if r.row == row]
    move_objects(doc, ids, 0.0, -0.3).apply(doc)
    return len(ids)


def rewire(doc: Document, count: int) -> None:
    """Swap the leaf ports of ``count`` node-leaf cables in pairs on the same leaf, and rename a CDU."""
    by_leaf: dict[str, list[str]] = {}
    for link in doc.links.values():
        if link.tier == "node-leaf":
            by_leaf.setdefault(link.b_device, []).append(link.id)
    values: dict[str, dict[str, str]] = {}
    for ids in by_leaf.values():
        for first, second in zip(ids[0::2], ids[1::2]):
            if len(values) >= count:
                break
            a, b = doc.links[first], doc.links[second]
            values[first], values[second] = {"b_port": b.b_port}, {"b_port": a.b_port}
    SetFields(values, text=f"Rewire {len(values)} cables").apply(doc)
    cdu = min(doc.floor_units.values(), key=lambda u: natural_key(u.id))
    SetFields({cdu.id: {"name": cdu.name + "-renamed"}}).apply(doc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    base_path, ours_path, theirs_path = make_files(args.nodes, args.cache)
    out = args.cache / f"merge_h{args.nodes}_out.hall"
    docs = [load(p) for p in (base_path, ours_path, theirs_path)]
    result = merge_plans(*docs)
    assert not result.conflicts, [c.text for c in result.conflicts[:5]]
    text = dumps(result.doc)
    errors = [sum(f.severity == "error" for f in validate(doc)) for doc in (result.doc, docs[1], docs[2])]
    print(f"{args.nodes * 8:,} GPUs: {len(docs[0].racks):,} racks, {len(docs[0].devices):,} devices, "
          f"{len(docs[0].links):,} cables; theirs' changes taken: {result.from_theirs:,}; rule errors in the "
          f"merge / ours / theirs: {errors[0]} / {errors[1]} / {errors[2]} (so ours and theirs are "
          f"{'checked incrementally' if errors[0] else 'not validated'}); "
          f"new: {len(new_errors(result, loads(text), docs[1], docs[2]))}")
    copies = iter([loads(text) for _ in range(args.runs)])  # made outside the timing

    def scratch() -> Document:
        return next(copies)

    phases = {
        "load base, ours, theirs": lambda: [load(p) for p in (base_path, ours_path, theirs_path)],
        "merge (objects, checks)": lambda: merge_plans(*docs),
        "round trip (dumps + loads)": lambda: loads(dumps(result.doc)),
        "validate (new errors)": lambda: new_errors(result, scratch(), docs[1], docs[2]),
        "write OUT": lambda: write_atomic(out, text.encode("utf-8"), backup=False),
        "whole command, in process": lambda: quietly(lambda: cli_main(
            ["merge", str(base_path), str(ours_path), str(theirs_path), "-o", str(out)])),
        "whole command, subprocess": lambda: subprocess.run(
            [sys.executable, "-I", "-m", "planner", "merge", str(base_path), str(ours_path), str(theirs_path),
             "-o", str(out)], check=True, capture_output=True),
    }
    print(f"{'phase':<30} {'median s':>9}  (of {args.runs})")
    for name, action in phases.items():
        print(f"{name:<30} {median_s(action, args.runs):>9.3f}")
    print("target: merge < 5 s at 32,768 GPUs")


if __name__ == "__main__":
    main()
