"""Time saving and loading plans of 256 → 32,768 GPUs and measure peak memory of a load.

Usage: python benchmarks/bench_core.py [--runs N] [--gpus 256,2048,32768]
Prints medians of N runs. Peak memory is the max RSS of a fresh process that loads the file.
Targets at 32,768 GPUs (issue 2): load < 3 s, save < 3 s, peak memory < 1.5 GB. Issue 9: load
no slower than the standard library's ``json.loads`` parsing the same file (read and decoded
too, timed in turn with each load so both see the same machine), save < 1 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import build_plan

from planner.io import load, save

PEAK_RSS = """
import resource, sys
from planner.io import load
doc = load(sys.argv[1])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def median_time(action, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_times_in_turn(actions: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """Median seconds of each action, run one after another in every round (a shared machine's
    load then falls on all of them alike)."""
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(runs):
        for name, action in actions.items():
            start = time.perf_counter()
            result = action()
            times[name].append(time.perf_counter() - start)
            del result  # freed outside the timing, as the previous plan would be
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--gpus", default="256,2048,8192,32768")
    args = parser.parse_args()
    print(f"{'GPUs':>7} {'racks':>6} {'links':>7} {'file MB':>8} {'save s':>7} {'load s':>7} "
          f"{'json.loads s':>13} {'load/json':>10} {'load peak MB':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for gpus in (int(g) for g in args.gpus.split(",")):
            doc = build_plan(gpus)
            path = Path(tmp) / f"plan-{gpus}.hall"
            save_s = median_time(lambda doc=doc, path=path: save(doc, path), args.runs)
            medians = median_times_in_turn({
                "json": lambda path=path: json.loads(path.read_text(encoding="utf-8")),
                "load": lambda path=path: load(path),
            }, args.runs)
            load_s, json_s = medians["load"], medians["json"]
            rss_kb = int(subprocess.run([sys.executable, "-c", PEAK_RSS, str(path)], capture_output=True,
                                        text=True, check=True).stdout)
            size_mb = path.stat().st_size / 1e6
            print(f"{gpus:>7} {len(doc.racks):>6} {len(doc.links):>7} {size_mb:>8.1f} {save_s:>7.2f} "
                  f"{load_s:>7.2f} {json_s:>13.2f} {load_s / json_s:>10.2f} {rss_kb / 1024:>13.0f}")


if __name__ == "__main__":
    main()
