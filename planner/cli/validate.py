"""`planner validate FILE [--json]`: every finding of a plan; exit 0 without errors, 1 with, 2 unreadable."""

from __future__ import annotations

import argparse
import json

from planner.cli.common import load_or_exit
from planner.rules.engine import validate
from planner.rules.finding import ERROR, counts
from planner.text import plural

EXIT_ERRORS = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("validate", help="check floor, power, cooling, space and network rules",
                                   description="Check a plan against the rule catalogue. Exit status: 0 no "
                                   "errors, 1 errors found, 2 the file cannot be read.")
    parser.add_argument("file", help="the .hall file")
    parser.add_argument("--json", action="store_true", help="print a JSON list of findings")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.file)
    findings = validate(doc)
    if args.json:
        print(json.dumps([f.to_json() for f in findings], indent=2, ensure_ascii=False))
    else:
        for f in findings:
            print(f"{f.severity:<7} {f.rule:<3} {f.message}  [{f.source}]")
        tally = counts(findings)
        print(f"{plural(tally['error'], 'error')}, {plural(tally['warning'], 'warning')}")
    return EXIT_ERRORS if any(f.severity == ERROR for f in findings) else 0
