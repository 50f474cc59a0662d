"""`planner verify FILE (--links CSV | --ibnetdiscover F | --lldp F|DIR)... [--network N]... [--json] [--update]
[-o REPORT]`.

Checks the cabled hall against the plan (DESIGN §7): exit 0 when every planned cable is found
as planned (at its speed), nothing unexpected is found and every name in the inputs is known;
1 when anything differs; 2 when an input, the plan or the report cannot be read or written.
``--update`` writes the result into the plan's cable states (atomic save, the old file kept as
``.bak``); ``-o`` writes the fixes in rack walk order as a PDF or CSV for the installer. The
cables checked are those of the networks the inputs reach (an ibnetdiscover file the compute
fabric, the management switches' LLDP files the in-band or out-of-band network), or of each
``--network`` named.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from io import BufferedWriter

from planner.asbuilt.verify import Verification, read_discovery, update_command, verify
from planner.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE, load_or_exit, say
from planner.commands.base import History
from planner.export.options import ExportOptions
from planner.export.sheet_text import terminal_text
from planner.export.verify_report import ORDER, summary_lines, write_verify_csv, write_verify_pdf
from planner.io import save
from planner.io.atomic import write_atomic
from planner.io.discovery import DiscoveryError
from planner.model.networks import DATA_NETWORKS
from planner.text import plural

REPORT_SUFFIXES = (".pdf", ".csv")
#: What json.dumps(ensure_ascii=False) leaves raw and a terminal would act on: DEL, the C1
#: controls (U+009B is CSI), the line and paragraph separators, the bidi controls and lone
#: surrogates. They can only stand inside JSON strings, so writing each as \uXXXX keeps the JSON
#: the same value (C0 controls json.dumps escapes itself).
_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify", help="check the cabled hall against the plan (ibnetdiscover, LLDP or a links CSV)",
        description="Compare what the fabric reports with the planned cables and say how to fix each "
        "difference. Exit status: 0 every cable as planned, 1 differences, 2 an input, the plan or the "
        "report cannot be read or written.")
    parser.add_argument("file", help="the .hall file")
    parser.add_argument("--links", action="append", default=[], metavar="CSV",
                        help="a CSV of a_device,a_port,b_device,b_port (hostnames, plan port names)")
    parser.add_argument("--ibnetdiscover", action="append", default=[], metavar="FILE",
                        help="an ibnetdiscover topology file")
    parser.add_argument("--lldp", action="append", default=[], metavar="FILE|DIR",
                        help="lldpcli -f json show neighbors output, one <hostname>.json per host or switch "
                        "(a folder: every .json in it)")
    parser.add_argument("--network", action="append", choices=DATA_NETWORKS, metavar="NETWORK",
                        help="check this network's cables (compute, storage, inband, oob; repeatable); default: "
                        "the networks the inputs reach")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--update", action="store_true",
                        help="write the result into the plan: found cables verified, wrong ones faulty")
    parser.add_argument("-o", "--output", metavar="REPORT", help="write the fixes to REPORT (.pdf or .csv)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if not (args.links or args.ibnetdiscover or args.lldp):
        say("verify: give at least one input: --links, --ibnetdiscover or --lldp")
        return EXIT_UNREADABLE
    if args.output and not args.output.lower().endswith(REPORT_SUFFIXES):
        say(f"cannot write {args.output}: a report is a .pdf or a .csv")
        return EXIT_UNREADABLE
    doc = load_or_exit(args.file)
    try:
        discovery = read_discovery(doc, links=args.links, ibnetdiscover=args.ibnetdiscover, lldp=args.lldp)
    except DiscoveryError as exc:
        say(terminal_text(str(exc)))
        return EXIT_UNREADABLE
    result = verify(doc, discovery, args.network)
    if args.output:
        options = ExportOptions(file_name=os.path.basename(args.file))
        pdf = args.output.lower().endswith(".pdf")

        def write(out: BufferedWriter) -> None:
            if pdf:
                write_verify_pdf(doc, result, out, options)
            else:
                write_verify_csv(doc, result, out)

        try:
            write_atomic(args.output, write, backup=False)
        except OSError as exc:  # named by the report's path, not the temporary beside it
            say(f"cannot write {args.output}: {exc.strerror or exc}")
            return EXIT_UNREADABLE
    written = []  # a line for each file written, after the result (stderr with --json)
    if args.output:
        written.append(f"Wrote {args.output}: {plural(len(result.fixes()), 'fix', 'fixes')}, {ORDER}")
    if args.update:
        command = update_command(doc, result)
        History(doc).push(command)
        save(doc, args.file)
        written.append(f"Updated {args.file}: {command.text[:1].lower()}{command.text[1:]} (the old file kept as "
                       f"{os.path.basename(args.file)}.bak)")
    if args.json:
        # compact: the C encoder (an indent falls back to pure Python, 1.5 s for 98k cables)
        text = json.dumps(result.as_json(), ensure_ascii=False, separators=(",", ":"))
        print(_JSON_RAW.sub(lambda found: f"\\u{ord(found.group()):04x}", text))
    else:
        _print(result)
    for line in written:
        print(terminal_text(line), file=sys.stderr if args.json else sys.stdout)
    for conflict in result.conflicts:
        say(terminal_text(f"warning: {conflict}"))
    return EXIT_OK if result.as_planned else EXIT_FINDINGS


def _print(result: Verification) -> None:
    """The fixes in walk order, the names that matched nothing, then the figures."""
    for fix in result.fixes():
        print(terminal_text(f"{fix.rack or '-':<8} {fix.text}"))
    if result.unknown_names:
        print(terminal_text(f"not in the plan: {', '.join(result.unknown_names)}"))
    for line in summary_lines(result):
        print(terminal_text(line))
