"""`planner new --template {starter,pod,hall} [--nodes N] [--node TYPE] [--switch TYPE]
[--rack-kw KW] -o FILE`: write a complete plan (layout, fabric, cabling, lengths).

The plan is checked against the full rule catalogue before it is written; if it has any
error, nothing is written and the first error is the one-line reason (exit 1). A number out of
its range (``--rack-kw nan``) is refused by the argument parser (exit 2); a file that cannot be
written is one line and exit 2 (``planner.cli.main``), the file that was there left as it was.
"""

from __future__ import annotations

import argparse
import math
import sys

from planner.io import save
from planner.layout.templates import TEMPLATES, TemplateError, build_template
from planner.rules.engine import validate
from planner.rules.finding import ERROR


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("new", help="write a new plan from a template",
                                   description="Write a complete plan (layout, fabric, cabling, cable lengths) "
                                   "from a template.")
    parser.add_argument("--template", choices=TEMPLATES, required=True)
    parser.add_argument("--nodes", type=_count, help="GPU nodes (starter ≤ 4, pod ≤ 32, hall ≤ 4096)")
    parser.add_argument("--node", help="GPU node type (catalogue key)")
    parser.add_argument("--switch", help="switch type (catalogue key)")
    parser.add_argument("--rack-kw", type=_rack_kw, help="power budget per rack, kW (above 0, at most 1,000)")
    parser.add_argument("-o", "--output", required=True, help="the .hall file to write")
    parser.set_defaults(func=run)


def _count(text: str) -> int:
    """argparse type for --nodes: a whole number from 1 to 100,000 (no 4,301-digit numbers)."""
    if not text.strip().isdigit() or len(text.strip()) > 6 or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number from 1 to 100,000")
    return int(text)


def _rack_kw(text: str) -> float:
    """argparse type for --rack-kw: a finite number above 0 and at most 1,000 kW."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 1_000:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of kW above 0 and at most 1,000")
    return value


def run(args: argparse.Namespace) -> int:
    try:
        doc = build_template(args.template, nodes=args.nodes, node_type=args.node,
                             switch_type=args.switch, rack_kw=args.rack_kw)
    except TemplateError as exc:
        print(f"planner: new: {exc}", file=sys.stderr)
        return 1
    errors = [f for f in validate(doc) if f.severity == ERROR]
    if errors:
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        print(f"planner: new: the plan would have errors: {errors[0].message}{more}", file=sys.stderr)
        return 1
    save(doc, args.output)
    return 0
