"""`planner bom FILE [--json | --csv]`: the bill of materials counted from the plan."""

from __future__ import annotations

import argparse
import json
import sys

from planner.cli.common import load_or_exit
from planner.export.bom import CSV_COLUMNS, bom_rows, build_bom, write_bom_csv
from planner.text import count


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bom", help="bill of materials: equipment, tap-offs, cables, transceivers",
                                   description="Count what to order: equipment by catalogue item, busbar "
                                   "tap-offs, cables by media and stock length, transceivers by type.")
    parser.add_argument("file", help="the .hall file")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.file)
    if args.json:
        print(json.dumps(build_bom(doc), indent=2, ensure_ascii=False))
    elif args.csv:
        write_bom_csv(doc, sys.stdout)
    else:
        # quantities as people read them (1,024); --csv and --json keep plain numbers
        rows = [(*row[:4], count(row[4])) for row in bom_rows(build_bom(doc))]
        widths = [max(len(str(r[i])) for r in [CSV_COLUMNS, *rows]) for i in range(len(CSV_COLUMNS))]
        for row in [CSV_COLUMNS, *rows]:
            print("  ".join(str(v).ljust(w) if i < 3 else str(v).rjust(w) for i, (v, w) in enumerate(zip(row, widths))))
    return 0
