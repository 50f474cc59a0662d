"""`planner netbox push PLAN --url URL` and `planner netbox pull --url URL --site SITE -o FILE`:
the plan to and from a NetBox server over its REST API (``planner.netbox``).

The token comes from `--token-file F` or the NETBOX_TOKEN environment variable, never from the
command line; only the server of `--url` is contacted. `push --dry-run` reads the server and
prints what would change without writing; a push records the NetBox ids in PLAN (saved), so the
next push updates what this one made. `pull` writes a plan of the site; `--onto PLAN` keeps what
NetBox does not hold (the floor, coolant, the design basis) from PLAN and matches objects by the
ids PLAN recorded, so `planner diff PLAN FILE` lists exactly what changed in NetBox.

Exit 0 on success, 2 when the plan or the server's answer cannot be read or NetBox refuses a
write (the message names the request and NetBox's reason).
"""

from __future__ import annotations

import argparse
import json
import sys

from planner.cli.common import EXIT_OK, EXIT_UNREADABLE, load_or_exit, say
from planner.commands.checks import Refusal, check_objects
from planner.io import save
from planner.netbox.client import NetBoxClient, NetBoxError, read_token
from planner.netbox.onto import onto
from planner.netbox.pull import NetBoxReadError, pull
from planner.netbox.push import PushError, push


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("netbox", help="push the plan to a NetBox server, or pull a site from it",
                                   description=__doc__.split("\n\n")[0].replace("`", ""))
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True,
                                    help="push (the plan to NetBox) or pull (a NetBox site into a plan)")
    # No abbreviations: `--token KEY` must be refused, not taken as `--token-file KEY` (and quoted).
    push_parser = actions.add_parser("push", help="create and update the plan's objects in NetBox", allow_abbrev=False)
    push_parser.add_argument("plan", metavar="PLAN", help="the .hall file (its NetBox ids are saved into it)")
    _server_arguments(push_parser)
    push_parser.add_argument("--site", default="", help="the NetBox site (default: the title block's project)")
    push_parser.add_argument("--location", default="", help="the hall's location in the site (default: the hall's name)")
    push_parser.add_argument("--dry-run", action="store_true", help="print what would change; write nothing")
    push_parser.add_argument("--no-modules", action="store_true",
                             help="leave the transceiver modules out (NetBox makes one in about 80 ms: a 1,024-node "
                                  "hall's 35k take most of an hour)")
    push_parser.set_defaults(func=run_push)
    pull_parser = actions.add_parser("pull", help="read a NetBox site into a plan", allow_abbrev=False)
    _server_arguments(pull_parser)
    pull_parser.add_argument("--site", required=True, help="the NetBox site (its name or slug)")
    pull_parser.add_argument("--onto", metavar="PLAN", default=None,
                             help="the plan pushed there: keep what NetBox does not hold, match by its NetBox ids")
    pull_parser.add_argument("-o", "--output", required=True, help="the .hall file to write")
    pull_parser.set_defaults(func=run_pull)


def _server_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", required=True, help="the NetBox server, e.g. https://netbox.example.com")
    parser.add_argument("--token-file", default=None,
                        help="a file holding the API token (default: the NETBOX_TOKEN environment variable)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def _client(args: argparse.Namespace) -> NetBoxClient:
    def progress(endpoint: str, done: int, total: int) -> None:
        if not args.json and total > 1000 and sys.stderr.isatty():
            print(f"\r  {endpoint}: {done:,} of {total:,}", end="\n" if done >= total else "", file=sys.stderr,
                  flush=True)
    return NetBoxClient(args.url, read_token(args.token_file), progress=progress)


def run_push(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.plan)
    try:
        client = _client(args)
        report = push(doc, client, args.site, args.location, dry_run=args.dry_run, modules=not args.no_modules)
    except (NetBoxError, PushError) as exc:
        say(str(exc))
        return EXIT_UNREADABLE
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # an answer not shaped as NetBox 4.x's
        say(f"{args.url}: an answer is not shaped as NetBox 4.x answers ({type(exc).__name__}: {str(exc)[:80]})")
        return EXIT_UNREADABLE
    if not args.dry_run:
        try:  # a server's ids the .hall format would refuse: the plan would save but not open again
            check_objects([doc.netbox])
        except Refusal as exc:
            say(f"NetBox answered ids the plan cannot hold ({exc}): {args.plan} left as it was")
            return EXIT_UNREADABLE
        save(doc, args.plan)
    print(json.dumps(report.as_json(), indent=1) if args.json else report.text())
    return EXIT_OK


def run_pull(args: argparse.Namespace) -> int:
    base = load_or_exit(args.onto) if args.onto else None
    try:
        client = _client(args)
        doc, notes = pull(client, args.site)
    except (NetBoxError, NetBoxReadError) as exc:
        say(str(exc))
        return EXIT_UNREADABLE
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # an answer not shaped as NetBox 4.x's
        say(f"{args.url}: an answer is not shaped as NetBox 4.x answers ({type(exc).__name__}: {str(exc)[:80]})")
        return EXIT_UNREADABLE
    if base is not None:
        doc, notes = onto(doc, base)
    save(doc, args.output)
    summary = {"netbox": client.url, "site": doc.netbox.site, "output": args.output, "racks": len(doc.racks),
               "devices": len(doc.devices), "floor_units": len(doc.floor_units), "cables": len(doc.links), "busbars": len(doc.busbars),
               "onto": args.onto, "notes": notes, "requests": dict(client.requests)}
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{args.output}: {summary['racks']} racks, {summary['devices']} devices, "
              f"{summary['floor_units']} floor units, {summary['cables']} cables, "
              f"{summary['busbars']} busbar runs from NetBox site {doc.netbox.site!r} at {client.url}"
              + (f", laid onto {args.onto}" if args.onto else ""))
        for note in notes:
            print(f"  - {note}")
    return EXIT_OK
