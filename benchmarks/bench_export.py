"""Time the exports of a large plan and measure their peak memory.

Usage: python benchmarks/bench_export.py [--gpus 32768] [--kinds cabling-pdf,cables-csv,cables-xlsx]
Each export runs in a fresh process that loads the plan and writes the file; the table shows
the export's own time (load excluded) and the process's peak RSS (plan included).
Targets at 32,768 GPUs (~100k cables, issue 5): cabling PDF < 120 s, CSV < 5 s, XLSX < 60 s,
memory < 2 GB.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import build_plan

from planner.io import save

CHILD = """
import json, resource, sys, time
from planner.io import load
from planner.export.options import ExportOptions
from planner.export.registry import export_to
doc = load(sys.argv[1])
start = time.perf_counter()
export_to(doc, sys.argv[2], sys.argv[3], ExportOptions(date="2026-01-01", file_name="bench.hall"))
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

TARGETS = {"cabling-pdf": 120.0, "cables-csv": 5.0, "cables-xlsx": 60.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpus", type=int, default=32768)
    parser.add_argument("--kinds", default="cables-csv,cables-xlsx,cabling-pdf")
    args = parser.parse_args()
    start = time.perf_counter()
    doc = build_plan(args.gpus)
    print(f"plan: {args.gpus} GPUs, {len(doc.racks)} racks, {len(doc.links)} cables "
          f"(built in {time.perf_counter() - start:.1f} s)")
    with tempfile.TemporaryDirectory() as folder:
        plan = Path(folder) / "bench.hall"
        save(doc, plan)
        del doc
        print(f"{'export':<20}{'seconds':>10}{'target s':>10}{'peak MB':>10}{'size MB':>10}")
        for kind in args.kinds.split(","):
            out = Path(folder) / f"out-{kind}"
            result = subprocess.run([sys.executable, "-c", CHILD, str(plan), kind, str(out)],
                                    capture_output=True, text=True, check=True)
            figures = json.loads(result.stdout.strip().splitlines()[-1])
            target = TARGETS.get(kind)
            print(f"{kind:<20}{figures['seconds']:>10.1f}{(f'{target:.0f}' if target else '—'):>10}"
                  f"{figures['peak_mb']:>10.0f}{out.stat().st_size / 1e6:>10.1f}")
            out.unlink()


if __name__ == "__main__":
    main()
