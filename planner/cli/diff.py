"""`planner diff OLD NEW [--json]`: what changed between two revisions of a plan, by name, with
the findings and design figures the change moved. Exit 0 same, 1 different, 2 unreadable.

Git calls it two ways (README, "Reviewing revisions"): as the external diff command of the
``hall`` diff driver (``--git`` and git's seven arguments: path, old file, old hash, old mode,
new file, new hash, new mode; ``/dev/null`` for a side that does not exist), where it prints the
change list and always exits 0 (git stops at a driver that fails); and as a textconv filter
(``--textconv FILE``), printing a one-line-per-object listing that ``git log -p`` diffs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
from pathlib import Path

from planner.cli.common import EXIT_FINDINGS, EXIT_OK, load_or_exit, say
from planner.io import HallFileError, load
from planner.model.document import Document
from planner.review.consequences import PlanState
from planner.review.diff import diff_plans
from planner.review.text import change_lines, listing, summary_line

#: git's arguments to an external diff command: path, then (file, hash, mode) per side; a rename
#: adds the new path and a header.
GIT_ARGS = (7, 9)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "diff", help="what changed between two revisions of a plan",
        description="Compare two plans object by object (matched by id, reported by name): added, removed, "
        "moved and changed objects, cables added, removed, rewired or changed, findings new and resolved, "
        "and the feed, CDU and zone figures that moved. Exit status: 0 the plans are the same, 1 they "
        "differ, 2 either cannot be read.")
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="OLD NEW; with --textconv one FILE; with --git git's seven arguments")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")
    parser.add_argument("--no-consequences", action="store_true",
                        help="compare objects and cables only: no findings, no figures (faster)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--textconv", action="store_true",
                      help="print FILE as one line per object, its findings and figures (git textconv)")
    mode.add_argument("--git", action="store_true", help="act as git's external diff command (diff.<driver>.command)")
    parser.set_defaults(func=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    consequences = not args.no_consequences
    if args.textconv:
        if len(args.files) != 1:
            args.parser.error("--textconv takes one FILE")
        doc = load_or_exit(args.files[0])
        print("\n".join(listing(doc) if consequences else listing(doc, PlanState([], {}))))
        return EXIT_OK
    if args.git:
        if len(args.files) == 1:  # git's call for an unmerged path
            print(f"* Unmerged path {args.files[0]}")
            return EXIT_OK
        if len(args.files) not in GIT_ARGS:
            args.parser.error("--git takes git's seven (or nine) external diff arguments")
        return _git(args.files, consequences)
    if len(args.files) != 2:
        args.parser.error("give two files: OLD NEW")
    old, new = load_or_exit(args.files[0]), load_or_exit(args.files[1])
    diff = diff_plans(old, new, consequences=consequences)
    if args.json:
        print(json.dumps(diff.as_json(), indent=2, ensure_ascii=False))
    elif diff.is_empty:
        print("no differences")
    else:
        print("\n".join(change_lines(diff)))
    return EXIT_OK if diff.is_empty else EXIT_FINDINGS


def _git(argv: list[str], consequences: bool) -> int:
    """Print git's header and the change list; never fail (git would stop the whole diff)."""
    path, old_file, _old_hex, _old_mode, new_file, _new_hex, _new_mode = argv[:7]
    new_path = argv[7] if len(argv) == 9 else path
    print(f"diff --hall a/{path} b/{new_path}")
    try:
        old = _side(old_file)
        new = _side(new_file)
    except HallFileError as exc:
        say(f"{exc}; showing the text difference")
        _text_diff(path, new_path, old_file, new_file)
        return EXIT_OK
    if old is None or new is None:
        shown = new if old is None else old
        if shown is not None:
            print(f"{'new' if old is None else 'deleted'} plan: {summary_line(shown)}")
        return EXIT_OK
    diff = diff_plans(old, new, consequences=consequences)
    print("\n".join(change_lines(diff)) if not diff.is_empty else "no differences (the files differ only in layout)")
    return EXIT_OK


def _side(file: str) -> Document | None:
    """One side of git's call: None for /dev/null (the file is added or deleted)."""
    return None if file == os.devnull else load(file)


def _text_diff(path: str, new_path: str, old_file: str, new_file: str) -> None:
    """A unified diff of the raw files, for a revision that is not a readable plan (conflict markers)."""
    def lines(file: str) -> list[str]:
        return [] if file == os.devnull else Path(file).read_text(encoding="utf-8", errors="replace").splitlines()

    for line in difflib.unified_diff(lines(old_file), lines(new_file), f"a/{path}", f"b/{new_path}", lineterm=""):
        print(line)
