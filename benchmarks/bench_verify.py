"""Time `planner verify` at scale (issue 13): an ibnetdiscover file of the whole fabric, parsed and
checked against the plan, then again after a partial rewire.

Usage: python benchmarks/bench_verify.py [--nodes 4096] [--runs 3] [--cache DIR]
The hall is made with `planner new --template hall --nodes N` once and kept in the cache folder
(default: the system's temporary folder). ``planner.asbuilt.simulate`` writes what ibnetdiscover
would print for it: first cabled as planned, then with a partial rewire (1 % of the node cables'
leaf ends moved, some to other rails' leaves, plus swaps, missing and slow links). Each phase is
timed on its own (median of ``--runs``), and the whole command as a subprocess (`python -I -m
planner verify`, interpreter start, imports and loading the plan included).
Target at 32,768 GPUs (98,304 cables): parse + verify < 5 s, the same after the rewire.
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

from planner.asbuilt.simulate import Faults, as_built, write_ibnetdiscover
from planner.asbuilt.verify import read_discovery, verify
from planner.cli import main as cli_main
from planner.io import load
from planner.model.document import Document

TARGET_S = 5.0


def median_s(action: Callable[[], object], runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def make_plan(nodes: int, folder: Path) -> Path:
    plan = folder / f"h{nodes}.hall"
    if not plan.exists():
        subprocess.run([sys.executable, "-I", "-m", "planner", "new", "--template", "hall", "--nodes", str(nodes),
                        "-o", str(plan)], check=True)
    return plan


def write_files(doc: Document, folder: Path, nodes: int) -> tuple[Path, Path]:
    clean, rewired = folder / f"h{nodes}_as_planned.ibnet", folder / f"h{nodes}_rewired.ibnet"
    node_cables = sum(1 for link in doc.links.values() if link.tier == "node-leaf")
    moved = max(1, node_cables // 100)
    for path, faults in ((clean, Faults()),
                         (rewired, Faults(wrong_port=moved // 2, wrong_rail=moved // 4, wrong_switch=moved // 4,
                                          swaps=50, rail_swaps=50, missing=200, unexpected=20, slow=20, seed=13))):
        if not path.exists():
            built = as_built(doc, faults)
            with open(path, "w", encoding="utf-8") as out:
                write_ibnetdiscover(doc, built.cables, out)
    return clean, rewired


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=4096)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    plan = make_plan(args.nodes, args.cache)
    load_s, doc = median_s(lambda: load(plan), 1)
    clean, rewired = write_files(doc, args.cache, args.nodes)
    rows = [("load the plan (not part of the target)", load_s, "")]
    for name, path in (("as planned", clean), ("after a partial rewire", rewired)):
        read_s, discovery = median_s(lambda p=path: read_discovery(doc, ibnetdiscover=[p]), args.runs)
        check_s, result = median_s(lambda d=discovery: verify(doc, d), args.runs)
        summary = result.summary
        rows.append((f"{name}: parse + place {len(discovery.links):,} links ({path.stat().st_size / 1e6:.0f} MB)",
                     read_s, ""))
        rows.append((f"{name}: verify {summary['planned']:,} cables", check_s, ""))
        total = read_s + check_s
        rows.append(((f"{name}: parse + verify ({summary['ok']:,} ok, {summary['miswired']:,} miswired, "
                     f"{summary['missing']:,} missing, {summary['unexpected']:,} unexpected)"), total,
                     "ok" if total < TARGET_S else f"OVER {TARGET_S:g} s"))
        with contextlib.redirect_stdout(io.StringIO()):
            start = time.perf_counter()
            cli_main(["verify", str(plan), "--ibnetdiscover", str(path), "--json"])
            rows.append((f"{name}: whole command in process (load, parse, verify, JSON)",
                         time.perf_counter() - start, ""))
        start = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-m", "planner", "verify", str(plan), "--ibnetdiscover", str(path)],
                       capture_output=True, check=False)
        rows.append((f"{name}: `python -I -m planner verify` (start, imports, load included)",
                     time.perf_counter() - start, ""))
    print(f"planner verify at {args.nodes:,} nodes ({args.nodes * 8:,} GPUs, {len(doc.links):,} cables), "
          f"median of {args.runs}")
    width = max(len(row[0]) for row in rows)
    for label, seconds, verdict in rows:
        print(f"{label:<{width}}  {seconds:7.2f} s  {verdict}")


if __name__ == "__main__":
    main()
