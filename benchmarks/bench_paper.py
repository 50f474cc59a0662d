"""Time the paper a hall's installers print: the labels PDF and the cabling plan PDF.

Usage: python benchmarks/bench_paper.py [--nodes 4096] [--runs 3] [--kinds labels-pdf,cabling-pdf]
                                        [--plan FILE.hall] [--racks R01-R04] [--row 3]

Builds the hall template at --nodes (or reads --plan), then writes each kind --runs times in this
process and prints the median: pages, labels (labels-pdf), MB and seconds. --racks / --row time
the paper for a selection (what an installer prints for a day's work). Targets (issue 15) at
32,768 GPUs (4,096 nodes): labels < 60 s, cabling plan < 30 s, both linear to 131,072 GPUs.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import time

from pypdf import PdfReader

from planner.export.cabling_pdf import write_cabling_pdf
from planner.export.labels_pdf import write_labels_pdf
from planner.export.options import ExportOptions
from planner.export.selection import SelectionError, selection
from planner.io import load
from planner.layout.templates import build_template

WRITERS = {"labels-pdf": write_labels_pdf, "cabling-pdf": write_cabling_pdf}
TARGETS = {"labels-pdf": 60.0, "cabling-pdf": 30.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=4096)
    parser.add_argument("--plan", help="a .hall file to export instead of building the template")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kinds", default="labels-pdf,cabling-pdf")
    parser.add_argument("--racks", action="append")
    parser.add_argument("--row", action="append")
    args = parser.parse_args()
    start = time.perf_counter()
    doc = load(args.plan) if args.plan else build_template("hall", nodes=args.nodes)
    try:
        racks = selection(doc, args.racks, args.row)
    except SelectionError as exc:
        parser.error(str(exc))
    print(f"plan: {len(doc.racks)} racks, {len(doc.links):,} cables"
          f"{f', {len(racks)} racks selected' if racks is not None else ''} "
          f"(ready in {time.perf_counter() - start:.1f} s; load average {os.getloadavg()[0]:.1f})")
    print(f"{'export':<14}{'pages':>8}{'labels':>10}{'MB':>8}{'seconds':>10}{'target s':>10}")
    for kind in args.kinds.split(","):
        times, result, size, pages = [], 0, 0, 0
        for _run in range(args.runs):
            out = io.BytesIO()
            start = time.perf_counter()
            result = WRITERS[kind](doc, out, ExportOptions(date="2026-01-01", racks=racks))
            times.append(time.perf_counter() - start)
            size = len(out.getvalue())
        pages = len(PdfReader(out).pages)
        labels = f"{result:,}" if kind == "labels-pdf" else "—"
        print(f"{kind:<14}{pages:>8,}{labels:>10}{size / 1e6:>8.1f}{statistics.median(times):>10.1f}"
              f"{TARGETS[kind]:>10.0f}")


if __name__ == "__main__":
    main()
