"""`planner merge BASE OURS THEIRS -o OUT [--json] [--strict]`: combine two people's edits of one
plan (DESIGN §7), on the command line or as git's merge driver
(`planner merge %O %A %B -o %A --path %P`).

Exit 0: merged; 1: conflicts, each listed by object name and field with the base, ours and theirs
values, and OUT written with ours there so that it is a plan that loads (stderr says so); 2: an
input that cannot be read or an OUT that cannot be written (nothing is written). An empty BASE is
a plan with nothing in it: git passes one when both branches added the file.

Cables both sides re-routed differently (each side's length after its own moves) are routed again
in the merged plan, where both sides' moves are, rather than reported as conflicts.

The merged plan is checked before it is written: it must load again from its own text (else exit
3 and nothing written: that would be a bug of the merge), and it is validated. Rule errors that
neither ours nor theirs had (two people each adding racks to one busbar, now overloaded) are
listed as warnings but do not fail the merge: each edit was right, and no value of either side is
the "right" one to fall back to; the combined plan is the designers' to fix, as a plan that fails
its rules after any edit is. ``--strict`` counts them as conflicts (exit 1) for those who want git
to stop there. OUT is written without a ``.bak``: it is made from its inputs, and git's ``%A`` is a
temporary in the work tree, where a backup would be left behind.

As a merge driver the three files git passes are temporaries (``.merge_file_IipFUG``); ``--path``
(git's ``%P``, the plan's path in the repository) is what every message names instead: "merged
into plan.hall", "plan.hall (theirs): not valid JSON …", "cannot write plan.hall: …". The
``--json`` object's ``output`` stays the file written.
"""

from __future__ import annotations

import argparse
import json
import os

from planner.cli.common import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, load_or_exit, say
from planner.fabric.relength import recompute_lengths
from planner.io import HallFileError, dumps, loads
from planner.io.atomic import write_atomic
from planner.model.document import Document
from planner.review.merge import MergeResult, merge_plans
from planner.review.merge_errors import new_errors
from planner.rules.finding import Finding
from planner.text import count, plural

#: Lists other than the conflicts are cut to this many lines in the text output (--json has all).
SHOWN = 20


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "merge", help="three-way merge of two revisions of a plan (git merge driver)",
        description="Merge OURS and THEIRS, two revisions of BASE, object by object and field by field, "
        "into OUT. Conflicts keep ours and are listed by object name and field. Exit status: 0 merged, "
        "1 conflicts (OUT keeps ours there), 2 an input cannot be read or OUT cannot be written. "
        "As git's merge driver: planner merge %O %A %B -o %A --path %P")
    parser.add_argument("base", metavar="BASE", help="the common ancestor (.hall; an empty file: none)")
    parser.add_argument("ours", metavar="OURS", help="our revision (.hall); its ids are kept")
    parser.add_argument("theirs", metavar="THEIRS",
                        help="their revision (.hall); new ids that clash with ours are renumbered")
    parser.add_argument("-o", "--output", metavar="OUT", required=True,
                        help="the merged plan (may be OURS, as with git's %%A)")
    parser.add_argument("--json", action="store_true",
                        help='print {"merged", "conflicts", "renumbered", "renamed", "notes", "from_theirs", '
                        '"reroute", "new_errors", "output"}')
    parser.add_argument("--path", metavar="PATH",
                        help="the plan's path to name in messages instead of OURS and OUT (git's %%P: as a merge "
                        "driver the files are git's temporaries)")
    parser.add_argument("--strict", action="store_true",
                        help="count rule errors the merge made (neither side had them) as conflicts")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    named = args.path or args.output
    base = _load_base(args.base, _side(args.path, "base"))
    ours = load_or_exit(args.ours, _side(args.path, "ours"))
    theirs = load_or_exit(args.theirs, _side(args.path, "theirs"))
    result = merge_plans(base, ours, theirs)
    reroute = [link_id for link_id in result.reroute if link_id in result.doc.links]
    if reroute:
        recompute_lengths(result.doc, reroute).apply(result.doc)
    text = dumps(result.doc)
    try:
        scratch = loads(text)
    except HallFileError as exc:
        say(f"internal error: the merged plan would not load ({exc}); {named} not written")
        return EXIT_INTERNAL
    errors = new_errors(result, scratch, ours, theirs)
    try:
        write_atomic(args.output, text.encode("utf-8"), backup=False)
    except OSError as exc:  # main says it in one line: by the plan's path, not git's temporary
        if args.path is not None:
            exc.filename = args.path
        raise
    failed = bool(result.conflicts) or (args.strict and bool(errors))
    if args.json:
        data = result.to_json()
        data["merged"] = not failed
        data["new_errors"] = [f.to_json() for f in errors]
        data["output"] = args.output
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        _print_report(result, errors, named)
    if result.conflicts:
        say(f"{plural(len(result.conflicts), 'conflict')}: "
            f"{named} keeps ours on {'them' if len(result.conflicts) != 1 else 'it'}")
    if args.strict and errors:
        say(f"{plural(len(errors), 'rule error')} neither side had (--strict)")
    return EXIT_FINDINGS if failed else EXIT_OK


def _side(path: str | None, side: str) -> str | None:
    """How a message names one input when ``--path`` is given: ``plan.hall (theirs)``."""
    return None if path is None else f"{path} ({side})"


def _load_base(path: str, name: str | None = None) -> Document:
    """The common ancestor; an empty file (git's %O when both sides added the file) is an empty plan."""
    try:
        if os.path.getsize(path) == 0:
            return Document()
    except OSError:
        pass  # load_or_exit says why in one line
    return load_or_exit(path, name)


def _print_report(result: MergeResult, errors: list[Finding], output: str) -> None:
    print(f"merged into {output}: {plural(result.from_theirs, 'change')} taken from theirs, "
          f"{plural(len(result.conflicts), 'conflict')}")
    renumbered = [f"{r['kind'].replace('_', ' ')} {r['name']}: {r['theirs_id']} → {r['id']}"
                  for r in result.to_json()["renumbered"]]
    _section("theirs' new objects renumbered (ours had added the same ids)", renumbered)
    renamed = [f"{r['kind'].replace('_', ' ')} {r['theirs_name']} → {r['name']} ({r['id']})" for r in result.renamed]
    _section("theirs' new objects renamed (ours had taken the name)", renamed)
    _section("cables both sides re-routed differently, routed again in the merged plan", result.reroute)
    _section("conflicts (ours kept)", [c.text for c in result.conflicts], limit=None)
    _section("rule errors neither side had", [f"{f.rule} {f.message}" for f in errors])
    _section("notes", result.notes)


def _section(title: str, lines: list[str], limit: int | None = SHOWN) -> None:
    if not lines:
        return
    print(f"{title} ({count(len(lines))}):")
    shown = lines if limit is None else lines[:limit]
    for line in shown:
        print(f"  {line}")
    if len(shown) < len(lines):
        print(f"  … and {count(len(lines) - len(shown))} more (--json lists every one)")
