"""Time the Slurm set and the DXF floor plan of the 32,768-GPU template hall.

Usage: python benchmarks/bench_slurm_dxf.py [--plan /tmp/h4096.hall] [--runs 5]
The plan is the template users make (`planner new --template hall --nodes 4096`), built once and
kept at --plan (about 20 s the first time). Each export is timed in process with the plan
loaded (load excluded), median of --runs runs, written through the same atomic path the CLI
uses. Targets at 32,768 GPUs (issue 14): Slurm export < 2 s, DXF export < 10 s.
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

TARGETS = {"slurm": 2.0, "floorplan-dxf": 10.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", type=Path, default=Path(tempfile.gettempdir()) / "h4096.hall")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    doc = load_plan(args.plan)
    print(f"{'export':<16}{'median s':>10}{'min s':>8}{'max s':>8}{'target s':>10}{'size kB':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for kind, target in TARGETS.items():
            out = Path(folder) / ("slurm" if kind == "slurm" else "plan.dxf")
            times = []
            for _ in range(args.runs):
                began = time.perf_counter()
                export_to(doc, kind, out, ExportOptions(date="2026-01-01", file_name=args.plan.name))
                times.append(time.perf_counter() - began)
            size = sum(p.stat().st_size for p in out.iterdir()) if out.is_dir() else out.stat().st_size
            print(f"{kind:<16}{statistics.median(times):>10.2f}{min(times):>8.2f}{max(times):>8.2f}"
                  f"{target:>10.1f}{size / 1024:>10.0f}")


if __name__ == "__main__":
    main()
