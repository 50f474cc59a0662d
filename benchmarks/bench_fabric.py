"""Time the fabric and templates at scale (issue 4) and print a table.

Usage: python benchmarks/bench_fabric.py [--nodes 256,1024,4096] [--runs 1]

Rows per node count:
- ``planner new`` end to end: a fresh process running ``planner new --template hall --nodes N``
  (layout, fabric, cabling, routed lengths, full validation, save). Target at 4,096 nodes
  (32,768 GPUs): < 15 s.
- build: ``build_template`` in this process (layout + fabric + cabling + lengths, no save).
- route all: the routed length and media of every link of the built plan (``Router``).
  Target at 4,096 nodes: < 5 s.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from planner.fabric.routing import Router
from planner.layout.templates import build_template


def timed(action, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = action()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def route_all(doc) -> int:
    router = Router(doc)
    for link in doc.links.values():
        router.route(link.a_device, link.b_device, link.tier)
    return len(doc.links)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", default="256,1024,4096")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    print(f"{'nodes':>6} {'GPUs':>7} {'links':>7} {'planner new s':>14} {'build s':>8} {'route all s':>12}")
    for nodes in (int(n) for n in args.nodes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "hall.hall"
            command = [sys.executable, "-m", "planner", "new", "--template", "hall", "--nodes", str(nodes),
                       "-o", str(out)]
            new_s, _ = timed(lambda c=command: subprocess.run(c, check=True), args.runs)
        build_s, doc = timed(lambda n=nodes: build_template("hall", n), args.runs)
        route_s, links = timed(lambda d=doc: route_all(d), args.runs)
        print(f"{nodes:>6} {nodes * 8:>7} {links:>7} {new_s:>14.2f} {build_s:>8.2f} {route_s:>12.2f}")


if __name__ == "__main__":
    main()
