"""`planner report FILE --json`: the design figures (racks, feeds, CDUs, cable trays, design basis)."""

from __future__ import annotations

import argparse
import json

from planner.cli.common import load_or_exit
from planner.rules.report import build_report


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("report", help="design figures: racks, feeds, CDUs, trays",
                                   description="Print the plan's design figures (weights, floor load, "
                                   "power, feed currents, CDU heat and flow, cable tray fill) and the design basis used.")
    parser.add_argument("file", help="the .hall file")
    parser.add_argument("--json", action="store_true", help="print JSON (the only format, kept for clarity)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.file)
    print(json.dumps(build_report(doc), indent=2, ensure_ascii=False))
    return 0
