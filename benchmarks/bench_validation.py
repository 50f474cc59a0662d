"""Time validation at scale: the full run, and the incremental re-validation after moving one rack
and after reassigning one rack's feed, with the full-run time beside them.

Usage: python benchmarks/bench_validation.py [--runs N] [--gpus 2048,32768]
Targets at 32,768 GPUs (issue 3): full validation < 2 s; incremental < 20 ms median.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import build_plan

from planner.commands import edits
from planner.rules.engine import Validator, all_rules


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def _full_seconds(doc, rules, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        Validator(doc, rules)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench(gpus: int, runs: int) -> tuple[int, int, float, float, float, float, float, int]:
    doc = build_plan(gpus)
    repeats = max(1, runs // 10)
    facility_s = _full_seconds(doc, [r for r in all_rules() if r.family != "N"], repeats)
    network_s = _full_seconds(doc, [r for r in all_rules() if r.family == "N"], repeats)
    full: list[float] = []
    for _ in range(repeats):
        start = time.perf_counter()
        validator = Validator(doc)
        full.append(time.perf_counter() - start)
    rack_ids = sorted(doc.racks)
    rack = rack_ids[len(rack_ids) // 2]
    move: list[float] = []
    for k in range(runs):
        command = edits.move_objects(doc, [rack], 0.0, 0.3 if k % 2 == 0 else -0.3)
        change = command.apply(doc)
        start = time.perf_counter()
        validator.update(change)
        move.append(time.perf_counter() - start)
    target = doc.racks[rack]
    other_a = min(b.id for b in doc.busbars.values() if b.side == "A" and b.id != target.feed_a)
    feeds = (other_a, target.feed_a)
    assign: list[float] = []
    for k in range(runs):
        change = edits.assign(doc, [rack], "feed_a", feeds[k % 2]).apply(doc)
        start = time.perf_counter()
        validator.update(change)
        assign.append(time.perf_counter() - start)
    return (len(doc.racks), len(doc.devices), statistics.median(full), facility_s, network_s, _median_ms(move),
            _median_ms(assign), len(validator.findings))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--gpus", default="2048,8192,32768")
    args = parser.parse_args()
    print("full s: every rule; facility s / network s: the F, P, C, S rules and the N rules alone.")
    print("move ms / feed ms: median incremental update after moving one rack / reassigning its feed A.")
    print(f"{'GPUs':>7} {'racks':>6} {'devices':>8} {'full s':>7} {'facility s':>10} {'network s':>9} "
          f"{'move ms':>8} {'feed ms':>8} {'full/move':>10} {'findings':>9}")
    for gpus in (int(g) for g in args.gpus.split(",")):
        racks, devices, full_s, facility_s, network_s, move_ms, assign_ms, findings = bench(gpus, args.runs)
        print(f"{gpus:>7} {racks:>6} {devices:>8} {full_s:>7.2f} {facility_s:>10.2f} {network_s:>9.2f} "
              f"{move_ms:>8.2f} {assign_ms:>8.2f} {full_s * 1000 / move_ms:>9.0f}× {findings:>9}")


if __name__ == "__main__":
    main()
