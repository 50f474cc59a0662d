"""Time `planner diff` at scale: two revisions of the 4,096-node template hall (32,768 GPUs) that
differ by one row of racks moved 0.6 m and 1,000 rewired cables (issue 12: < 3 s).

Usage: python benchmarks/bench_diff.py [--runs N] [--nodes 4096] [--gui]
The plan is built once with `planner new --template hall` and cached under /tmp, with the edited
revision beside it. Rows: the diff with consequences (findings new and resolved, figures that
moved: one full validation of the old revision plus the incremental re-validation of the change),
without them (objects and cables only), one full validation for reference, the change list as text, `planner diff --json` end to end
(two loads, the diff, the JSON; a fresh interpreter), and with --gui the Changes dock's refresh
after an edit while comparing (the live validator's findings, no validation). Medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from planner.commands.base import SetFields
from planner.commands.edits import move_objects
from planner.io import load, save
from planner.model.document import Document, natural_key
from planner.review.diff import diff_plans
from planner.review.text import change_lines
from planner.rules.engine import Validator

TARGET_S = 3.0
REWIRED = 1000


def cached_plan(nodes: int) -> Path:
    """The template hall as `planner new` writes it, built once per machine (under /tmp)."""
    path = Path(tempfile.gettempdir()) / f"bench-diff-hall-{nodes}.hall"
    if not path.exists():
        subprocess.run([sys.executable, "-I", "-m", "planner", "new", "--template", "hall", "--nodes", str(nodes),
                        "-o", str(path)], check=True)
    return path


def edited_revision(doc: Document) -> tuple[int, int]:
    """Move the first row of racks 0.6 m along the row and rewire 1,000 node-leaf cables (pairs
    of cables on one leaf swap their leaf ports). Returns (racks moved, cables rewired)."""
    rows: dict[str, list[str]] = {}
    for rack in doc.racks.values():
        rows.setdefault(rack.row, []).append(rack.id)
    row = min(rows, key=natural_key)
    move_objects(doc, rows[row], 0.6, 0.0).apply(doc)
    by_leaf: dict[str, list] = {}
    for link in sorted(doc.links.values(), key=lambda link: natural_key(link.id)):
        if link.tier == "node-leaf":
            by_leaf.setdefault(link.b_device, []).append(link)
    values: dict[str, dict[str, str]] = {}
    for links in by_leaf.values():
        for first, second in zip(links[0::2], links[1::2], strict=False):
            if len(values) >= REWIRED:
                break
            values[first.id] = {"b_port": second.b_port}
            values[second.id] = {"b_port": first.b_port}
        if len(values) >= REWIRED:
            break
    SetFields(values, "Rewire").apply(doc)
    return len(rows[row]), len(values)


def median(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def gui_refresh(old_path: Path, new_path: Path, runs: int) -> tuple[float, float]:
    """(start, refresh) seconds of File ▸ Compare with in a window on the edited plan, offscreen."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from planner.ui.main_window import MainWindow
    from planner.ui.session import DocumentSession

    app = QApplication.instance() or QApplication([])
    window = MainWindow(DocumentSession(load(new_path)), new_path)
    window.show()
    app.processEvents()
    start = time.perf_counter()
    window.compare.compare_with_file(old_path)
    app.processEvents()
    started = time.perf_counter() - start
    doc = window.session.doc
    rack = min(doc.racks.values(), key=lambda r: natural_key(r.name))
    names = [rack.name + "x", rack.name]

    def edit_and_refresh() -> None:
        window.session.push(SetFields({rack.id: {"name": names[0]}}, "Rename"))
        names.reverse()
        window.compare.refresh()
        app.processEvents()

    refresh = median(edit_and_refresh, runs)
    window.session.undo_stack.setClean()
    window.close()
    return started, refresh


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=4096)
    parser.add_argument("--gui", action="store_true", help="also time the GUI's compare start and refresh")
    args = parser.parse_args()

    old_path = cached_plan(args.nodes)
    new_path = old_path.with_name(old_path.stem + "-edited.hall")
    start = time.perf_counter()
    old = load(old_path)
    load_s = time.perf_counter() - start
    new = load(old_path)
    moved, rewired = edited_revision(new)
    save(new, new_path)
    print(f"{args.nodes:,} nodes: {len(old.racks):,} racks, {len(old.links):,} cables; revision: "
          f"{moved} racks moved, {rewired:,} cables rewired; load {load_s:.2f} s each")

    diff = diff_plans(old, new)
    data = diff.as_json()
    print(f"diff: {len(data['moved'])} moved, {len(data['cables']['rewired']):,} rewired, "
          f"{len(data['findings']['new']):,} findings new, {len(data['findings']['resolved']):,} resolved, "
          f"{len(data['figures'])} figures")
    rows = [
        ("diff, with consequences", median(lambda: diff_plans(old, new), args.runs), TARGET_S),
        ("diff, objects and cables only", median(lambda: diff_plans(old, new, consequences=False), args.runs), None),
        ("(reference: one full validation of a revision)", median(lambda: Validator(old), args.runs), None),
        ("change list as text", median(lambda: change_lines(diff), args.runs), None),
        ("as JSON text", median(lambda: json.dumps(diff.as_json()), args.runs), None),
        ("`planner diff --json` end to end", median(lambda: subprocess.run(
            [sys.executable, "-I", "-m", "planner", "diff", str(old_path), str(new_path), "--json"],
            capture_output=True, check=False), max(1, args.runs // 2)), None),
    ]
    if args.gui:
        started, refresh = gui_refresh(old_path, new_path, args.runs)
        rows += [("GUI: compare start (load, validate, diff, draw)", started, None),
                 ("GUI: refresh after an edit while comparing", refresh, None)]
    print("\n| measure | median | target |\n| --- | --- | --- |")
    for name, seconds, target in rows:
        print(f"| {name} | {seconds:.2f} s | {f'< {target:g} s' if target else ''} |")


if __name__ == "__main__":
    main()
