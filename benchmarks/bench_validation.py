"""Time validation at scale: the full run, and the incremental re-validation after moving one rack
and after reassigning one rack's feed, with the full-run time beside them.

Usage: python benchmarks/bench_validation.py [--runs N] [--gpus 2048,32768]
       python benchmarks/bench_validation.py --plan P.hall [--runs 3] [--save F.json | --check F.json]
With ``--plan``: the median full-validation time of a saved plan over ``--runs`` runs (profile
it with ``--profile``), and its findings saved to (or compared with) a JSON file, so a faster
engine can be proven to report exactly the same findings in the same order.
Each row is timed twice: with every rule, and with the facility rules (F, P, C, S) alone, so
the cost of the network rules (N) shows separately.
Targets at 32,768 GPUs (issue 3): full validation < 2 s; incremental < 20 ms median.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import build_plan

from planner.commands import edits
from planner.io.hallfile import load
from planner.model.document import Document
from planner.rules.engine import Rule, Validator, all_rules


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


def bench(doc: Document, rules: list[Rule], runs: int) -> tuple[float, float, float, int]:
    """Median full-run seconds, move ms, feed-reassignment ms, and the number of findings."""
    full: list[float] = []
    for _ in range(max(1, runs // 10)):
        start = time.perf_counter()
        validator = Validator(doc, rules)
        full.append(time.perf_counter() - start)
    rack = sorted(doc.racks)[len(doc.racks) // 2]
    move: list[float] = []
    for k in range(runs):
        change = edits.move_objects(doc, [rack], 0.0, 0.3 if k % 2 == 0 else -0.3).apply(doc)
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
    return statistics.median(full), _median_ms(move), _median_ms(assign), len(validator.findings)


def bench_plan(path: str, runs: int, save: str | None, check: str | None, profile: bool) -> bool:
    """Time full validation of a saved plan; save or compare its findings. False on a mismatch."""
    doc = load(path)
    times: list[float] = []
    validator = None
    for _ in range(max(1, runs)):
        validator = None  # freeing the last run's validator is no part of this one
        start = time.perf_counter()
        validator = Validator(doc)
        times.append(time.perf_counter() - start)
    assert validator is not None
    found = [f.to_json() for f in validator.findings]
    print(f"{path}: {len(doc.devices):,} devices, {len(doc.links):,} cables, {len(found):,} findings; "
          f"full validation median {statistics.median(times):.3f} s of {len(times)} "
          f"({', '.join(f'{t:.3f}' for t in times)})")
    if profile:
        prof = cProfile.Profile()
        prof.enable()
        Validator(doc)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    if save:
        Path(save).write_text(json.dumps(found, ensure_ascii=False, indent=0))
        print(f"findings saved to {save}")
    if check:
        expected = json.loads(Path(check).read_text())
        if found != expected:
            first = next((i for i, (a, b) in enumerate(zip(found, expected)) if a != b), min(len(found), len(expected)))
            print(f"FINDINGS DIFFER from {check}: {len(found)} vs {len(expected)}, first at #{first}")
            return False
        print(f"findings equal those in {check} ({len(expected):,})")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--gpus", default="2048,8192,32768")
    parser.add_argument("--plan", help="time full validation of this .hall file instead")
    parser.add_argument("--save", help="with --plan: write the findings to this JSON file")
    parser.add_argument("--check", help="with --plan: compare the findings with this JSON file")
    parser.add_argument("--profile", action="store_true", help="with --plan: print a cProfile of one run")
    args = parser.parse_args()
    if args.plan:
        sys.exit(0 if bench_plan(args.plan, args.runs, args.save, args.check, args.profile) else 1)
    print("move ms / feed ms: median incremental update after moving one rack / reassigning its feed A.")
    print(f"{'GPUs':>7} {'racks':>6} {'links':>7} {'rules':>9} {'full s':>7} {'move ms':>8} {'feed ms':>8} "
          f"{'full/move':>10} {'findings':>9}")
    for gpus in (int(g) for g in args.gpus.split(",")):
        doc = build_plan(gpus)
        for label, rules in (("all", all_rules()), ("facility", [r for r in all_rules() if r.family in "FPCS"])):
            full_s, move_ms, assign_ms, findings = bench(doc, rules, args.runs)
            print(f"{gpus:>7} {len(doc.racks):>6} {len(doc.links):>7} {label:>9} {full_s:>7.2f} {move_ms:>8.2f} "
                  f"{assign_ms:>8.2f} {full_s * 1000 / move_ms:>9.0f}× {findings:>9}")


if __name__ == "__main__":
    main()
