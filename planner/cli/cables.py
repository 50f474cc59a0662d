"""`planner cables ACTION …`: the plan's cables by hand, headless. Actions: ``import``.

``planner cables import PLAN CABLES.csv -o OUT [--keep-unlisted] [--dry-run] [--force]`` applies
a cable list (the columns of ``planner export --to cables-csv``, or the NVIDIA UFM cable
validation tool's P2P columns ``A-Rack, A-U, A-Node Name, A-Port, Z-Rack, Z-RU, Z-Node Name,
Z-Port``) as one change, the same reconciliation as regenerating the fabric: cables whose two
ends a row names are kept whole (id, typed label, state), a cable sharing one end with a row is
rewired, cables not on the list are removed and the remaining rows added
(``planner.fabric.cable_list``). Exit 0 applied (or would be, with ``--dry-run``); 1 a row that
cannot be used (each named ``row N: …``, nothing applied) or cables past planned that would be
removed or rewired without ``--force``; 2 the plan or the list cannot be read, or OUT cannot be
written.
"""

from __future__ import annotations

import argparse

from planner.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE, load_or_exit, say
from planner.commands.base import History
from planner.fabric.cable_list import cable_list_change
from planner.io import save
from planner.io.cable_list import MAX_BYTES, CableListError
from planner.rules.engine import validate
from planner.rules.finding import ERROR

IMPORT_HELP = (
    "Apply a cable list to PLAN and write the result to OUT, as one change. The list is the "
    "complete cabling: a cable of the plan that is not on it is removed (--keep-unlisted: only "
    "add and rewire). Columns: those of planner export --to cables-csv (a_rack, a_u, a_device, "
    "a_port, b_rack, b_u, b_device, b_port, label; the rest are derived and read past) or the UFM "
    "cable validation P2P columns (A-Rack, A-U, A-Node Name, A-Port, Z-Rack, Z-RU, Z-Node Name, "
    "Z-Port; A-Type and Z-Type read past). A node name is a hostname or a device name in its rack. "
    "Any row that cannot be used is named (row 1 is the header) and nothing is applied. After "
    "applying, the plan is validated and its error findings counted, but OUT is written even so: "
    "a hand cable list may break a rule on purpose (planner validate OUT lists them). "
    f"A list is at most {MAX_BYTES // 1024 // 1024} MB."
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("cables", help="the plan's cables by hand: import a cable list",
                                   description="The plan's cables by hand, headless. Actions: import (a cable list as one change).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True,
                                    help="what to do (planner cables ACTION --help for its options)")
    imp = actions.add_parser("import", help="apply a cable list (cables-csv or UFM P2P columns) as one change",
                             description=IMPORT_HELP,
                             epilog="Exit status: 0 applied; 1 a bad row, or cables past planned to remove or "
                             "rewire without --force; 2 an input that cannot be read or OUT cannot be written.")
    imp.add_argument("plan", metavar="PLAN", help="the .hall file (left as it is)")
    imp.add_argument("cables", metavar="CABLES.csv", help="the cable list")
    imp.add_argument("-o", "--output", metavar="OUT", help="write the plan with the list applied here")
    imp.add_argument("--keep-unlisted", action="store_true",
                     help="keep cables the list does not name (only add and rewire; a cable holding a port "
                     "a row needs is still moved or removed)")
    imp.add_argument("--dry-run", action="store_true", help="print what would change and write nothing")
    imp.add_argument("--force", action="store_true",
                     help="remove or rewire cables already past planned (run, labelled, tested, verified, faulty)")
    imp.set_defaults(func=run_import)


def run_import(args: argparse.Namespace) -> int:
    if not args.output and not args.dry_run:
        say("cables import: give -o OUT (or --dry-run)")
        return EXIT_UNREADABLE
    doc = load_or_exit(args.plan)
    try:
        change = cable_list_change(doc, args.cables, keep_unlisted=args.keep_unlisted)
    except CableListError as exc:
        say(f"cables import: {exc}")
        return EXIT_UNREADABLE
    if not change.ok:
        say(f"cables import: {args.cables}: {len(change.problems):,} row(s) cannot be used; nothing applied")
        for line in change.problem_lines():
            say(f"  {line}")
        return EXIT_FINDINGS
    plan = change.plan
    assert plan is not None
    target = "(dry run, nothing written)" if args.dry_run else f"→ {args.output}"
    if plan.refusal() and not args.force:
        print(f"cables import: {plan.summary()} (not applied)")
        say(f"cables import: {plan.refusal()}; run again with --force to apply")
        return EXIT_FINDINGS
    if args.dry_run:
        print(f"cables import: {plan.summary()} {target}")
        return EXIT_OK
    History(doc).push(change.command())
    errors = sum(1 for finding in validate(doc) if finding.severity == ERROR)
    save(doc, args.output)
    print(f"cables import: {plan.summary()} {target}")
    if errors:
        say(f"cables import: warning: {args.output} has {errors:,} error finding(s) "
            f"(planner validate {args.output} lists them)")
    return EXIT_OK
