"""`planner comments FILE [--json] [--status S]`: the plan's review comments with their replies.

Comments are listed by number (the pins' numbers on the plan and in the review PDF), each with
its status, author, date (UTC, ISO 8601), where its pin is and its replies, oldest first. Exit 0
whatever the comments say (they are notes, not findings); 2 when the file cannot be read.

``--json`` prints::

    {"comments": [{"number", "id", "text", "author", "date", "status",
                   "x", "y",            # the pin on the plan in metres; null when its object was deleted
                   "target",            # id of the object it is pinned to, "" for a point of the floor
                   "target_name",       # that object's name ("R07", "N1 in R01"); "" for a point; null if deleted
                   "replies": [{"id", "text", "author", "date"}]}],
     "summary": {"comments", "open", "resolved", "replies"}}

The summary counts the whole plan, whatever ``--status`` lists.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from planner.cli.common import load_or_exit
from planner.commands.comments import (
    OPEN,
    RESOLVED,
    pin_position,
    target_name,
    threads,
    top_level,
    where,
)
from planner.model.document import Document
from planner.model.objects import Comment
from planner.text import count, plural

STATUS_CHOICES = (OPEN, RESOLVED, "all")
INDENT = "    "


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("comments", help="list the plan's review comments and their replies",
                                   description="List the review comments of a plan, numbered as their pins, "
                                   "with status, author, date, the object each is on and its replies. "
                                   "Exit status: 0 listed, 2 the file cannot be read.")
    parser.add_argument("file", help="the .hall file")
    parser.add_argument("--json", action="store_true",
                        help='print {"comments": [{"number", "id", "text", "author", "date", "status", "x", "y", '
                        '"target", "target_name", "replies": [...]}], "summary": {...}}')
    parser.add_argument("--status", choices=STATUS_CHOICES, default="all",
                        help="list only open or only resolved comments (default: all)")
    parser.set_defaults(func=run)


def comment_rows(doc: Document, status: str = "all") -> list[dict[str, Any]]:
    """The comments as ``--json`` lists them (top-level comments by number, replies inside)."""
    replies = threads(doc)
    rows = []
    for number, comment in enumerate(top_level(doc), start=1):
        if status != "all" and comment.status != status:
            continue
        pin = pin_position(doc, comment)
        rows.append({
            "number": number, "id": comment.id, "text": comment.text, "author": comment.author,
            "date": comment.date, "status": comment.status,
            "x": None if pin is None else round(pin[0], 3), "y": None if pin is None else round(pin[1], 3),
            "target": comment.target, "target_name": target_name(doc, comment),
            "replies": [{"id": r.id, "text": r.text, "author": r.author, "date": r.date} for r in replies[comment.id]],
        })
    return rows


def summary(doc: Document) -> dict[str, int]:
    tops = top_level(doc)
    return {"comments": len(tops), "open": sum(c.status == OPEN for c in tops),
            "resolved": sum(c.status == RESOLVED for c in tops), "replies": len(doc.comments) - len(tops)}


def _byline(comment: Comment) -> str:
    return " · ".join(part for part in (comment.author or "(no author)", comment.date) if part)


def _indented(text: str, indent: str) -> list[str]:
    return [f"{indent}{line}".rstrip() for line in text.splitlines()]


def print_text(doc: Document, status: str) -> None:
    replies = threads(doc)
    for number, comment in enumerate(top_level(doc), start=1):
        if status != "all" and comment.status != status:
            continue
        print(f"{number:<3} {comment.status:<9} {_byline(comment)} · {where(doc, comment)}")
        lines = _indented(comment.text, INDENT)
        for answer in replies[comment.id]:
            lines.append(f"{INDENT}↳ {_byline(answer)}")
            lines += _indented(answer.text, INDENT * 2)
        print("\n".join(lines))
    tally = summary(doc)
    print(f"{plural(tally['comments'], 'comment')}: {count(tally['open'])} open, "
          f"{count(tally['resolved'])} resolved; {plural(tally['replies'], 'reply', 'replies')}")


def run(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.file)
    if args.json:
        print(json.dumps({"comments": comment_rows(doc, args.status), "summary": summary(doc)}, indent=2,
                         ensure_ascii=False))
    else:
        print_text(doc, args.status)
    return 0
