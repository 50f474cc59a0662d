"""`planner new --template {starter,pod,hall} [--nodes N] [--node TYPE] [--switch TYPE]
[--rack-kw KW] -o FILE`: write a complete plan (layout, fabric, cabling, lengths).

The plan is checked against the full rule catalogue before it is written; if it has any
error, nothing is written and the first error is the one-line reason (exit 1).
"""

from __future__ import annotations

import argparse
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
    parser.add_argument("--nodes", type=int, help="GPU nodes (starter ≤ 4, pod ≤ 32, hall ≤ 4096)")
    parser.add_argument("--node", help="GPU node type (catalogue key)")
    parser.add_argument("--switch", help="switch type (catalogue key)")
    parser.add_argument("--rack-kw", type=float, help="power budget per rack, kW")
    parser.add_argument("-o", "--output", required=True, help="the .hall file to write")
    parser.set_defaults(func=run)


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
