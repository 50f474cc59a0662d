"""`planner export FILE --to KIND -o OUT`: write one document (PDF, CSV, XLSX, SVG) of the plan."""

from __future__ import annotations

import argparse
import os

from planner.cli.common import EXIT_FINDINGS, EXIT_UNREADABLE, load_or_exit, say
from planner.export.options import PAPER_SIZES, ExportOptions, LabelSheet
from planner.export.registry import EXPORT_KINDS, export_to
from planner.export.selection import SelectionError, selection
from planner.export.slurm import SLURM_TOPOLOGIES, TREE, SlurmOptions


def label_sheet(text: str) -> LabelSheet:
    """argparse type for --label-sheet ("3x10" or "3x10:66.7x25.4")."""
    try:
        return LabelSheet.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: expected COLUMNSxROWS[:WIDTHxHEIGHT] in mm ({exc})") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a cabling plan, schedule, labels, BOM, "
                                   "commissioning document or floor plan",
                                   description="Write one document of the plan. The file is written "
                                   "through a temporary and renamed when complete.")
    parser.add_argument("file", help="the .hall file")
    parser.add_argument("--to", required=True, choices=list(EXPORT_KINDS), metavar="KIND",
                        help="one of: " + ", ".join(EXPORT_KINDS))
    parser.add_argument("-o", "--output", required=True,
                        help="the file to write (a folder for " + ", ".join(k for k, v in EXPORT_KINDS.items() if v.folder)
                        + ")")
    parser.add_argument("--paper", choices=list(PAPER_SIZES), help="paper size (default: the plan's setting)")
    parser.add_argument("--revision", help="revision in the title block (default: the plan's)")
    parser.add_argument("--author", help="author in the title block (default: the plan's)")
    parser.add_argument("--date", help="date in the title block (default: today)")
    parser.add_argument("--label-sheet", metavar="CxR[:WxH]", type=label_sheet,
                        help="labels-pdf sheet grid, columns x rows and optionally label width x height in mm "
                        "(default 3x10:66.7x25.4)")
    parser.add_argument("--against", metavar="OLD.hall",
                        help="review-pdf: the earlier revision to compare with")
    parser.add_argument("--site", help="netbox: the NetBox site (default: the plan's project)")
    parser.add_argument("--location", help="netbox: the NetBox location (default: the plan's hall)")
    parser.add_argument("--site-in-hostnames", action="store_true",
                        help="netbox: put the site in front of each default hostname (dc-west-R01-N1), so names "
                        "stay unique across the halls of one NetBox (default: hostnames as in the plan)")
    parser.add_argument("--slurm-topology", choices=SLURM_TOPOLOGIES,
                        help="slurm: what topology.conf holds and topology.yaml makes the cluster default: the "
                        "switch tree (tree, the default) or one block per scalable unit (block)")
    parser.add_argument("--remaining", action="store_true",
                        help="cabling-pdf: only the cables not yet verified, per rack (what is left to do)")
    parser.add_argument("--racks", action="append", metavar="R01-R20,R25",
                        help="paper exports: only these racks (names, FIRST-LAST ranges in name order, comma lists)")
    parser.add_argument("--row", action="append", metavar="ROW",
                        help="paper exports: only the racks of this row (repeatable, or a comma list)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.file)
    if args.slurm_topology and args.to != "slurm":
        say(f"--slurm-topology applies to the slurm export only, not {args.to}")
        return EXIT_UNREADABLE
    kind = SlurmOptions if args.to == "slurm" else ExportOptions
    options = kind(paper=args.paper, revision=args.revision, author=args.author,
                   file_name=os.path.basename(args.file))
    if isinstance(options, SlurmOptions):
        options.topology = args.slurm_topology or TREE
    if args.date:
        options.date = args.date
    if args.label_sheet:
        options.label_sheet = args.label_sheet
    options.against, options.site, options.location = args.against, args.site, args.location
    options.remaining_only = args.remaining
    options.site_in_hostnames = args.site_in_hostnames
    if args.racks or args.row:
        if not EXPORT_KINDS[args.to].paper:
            say(f"--racks and --row apply to the paper exports only, not {args.to}")
            return EXIT_UNREADABLE
        try:
            options.racks = selection(doc, args.racks, args.row)
        except SelectionError as exc:  # a name the plan does not have: bad input, exit 2
            say(str(exc))
            return EXIT_UNREADABLE
    replaced = os.path.lexists(args.output)
    try:
        export_to(doc, args.to, args.output, options)
    except OSError as exc:  # the output cannot be written: exit 2, OUT as it was
        say(f"cannot write {args.output}: {exc.strerror or exc}")
        return EXIT_UNREADABLE
    except ValueError as exc:  # a refusal of the request (the labels do not fit the sheet)
        say(str(exc))
        return EXIT_FINDINGS
    print(f"{'Replaced' if replaced else 'Wrote'} {args.output}: {EXPORT_KINDS[args.to].title}")
    return 0
