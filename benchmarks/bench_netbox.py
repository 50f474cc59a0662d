"""Time the NetBox import set of the 32,768-GPU template hall, and reading it back.

Usage: python benchmarks/bench_netbox.py [--plan /tmp/h4096.hall] [--runs 5]
The plan is the template users make (`planner new --template hall --nodes 4096`), built once and
kept at --plan (about 20 s the first time). The export is timed in process with the plan loaded
(load excluded), median of --runs runs, written through the same atomic folder path the CLI uses.
Target at 32,768 GPUs (issue 14): NetBox export < 10 s. The import (`planner import --from netbox`:
read the set, lay the racks out, route every cable) is timed too; it has no target.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench_plans import load_plan  # this folder is on sys.path when the script runs

from planner.export.options import ExportOptions
from planner.export.registry import export_to
from planner.jobs.netbox import import_netbox

TARGET_S = 10.0


def timed(action, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        action()
        times.append(time.perf_counter() - began)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", type=Path, default=Path(tempfile.gettempdir()) / "h4096.hall")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    doc = load_plan(args.plan)
    print(f"{'step':<16}{'median s':>10}{'min s':>8}{'max s':>8}{'target s':>10}{'size kB':>10}")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "netbox"
        times = timed(lambda: export_to(doc, "netbox", out, ExportOptions(file_name=args.plan.name)), args.runs)
        size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(f"{'netbox export':<16}{statistics.median(times):>10.2f}{min(times):>8.2f}{max(times):>8.2f}"
              f"{TARGET_S:>10.1f}{size / 1024:>10.0f}")
        times = timed(lambda: import_netbox(str(out)), args.runs)
        print(f"{'netbox import':<16}{statistics.median(times):>10.2f}{min(times):>8.2f}{max(times):>8.2f}"
              f"{'—':>10}{'':>10}")


if __name__ == "__main__":
    main()
