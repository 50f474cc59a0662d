"""`planner import --from netbox DIR -o FILE`: a new plan from a NetBox import set (the folder
`planner export --to netbox` writes: racks.csv, devices.csv, cables.csv with the cables of every
network and the power cords, power panels and feeds, device-types/*.yaml), or of NetBox's own
web-UI exports (Export ▸ All Data: netbox_racks.csv …, ``planner.io.netbox_ui_export``), so a hall
recorded in NetBox can be checked with `planner validate`.

NetBox holds no floor positions, floor ratings or coolant loops: the reader lays the racks out
in rows by name and prints what it assumed or left out (``planner.io.netbox``). Cables are then
routed over that floor (``planner.jobs.netbox``, which File ▸ Import from NetBox… uses too). The plan is
written even when the rules would find errors in it (finding them is the point); a set that
cannot be read is one line naming the file and row, and exit 2, with FILE left as it was.
"""

from __future__ import annotations

import argparse
from collections import Counter

from planner.cli.common import EXIT_OK, EXIT_UNREADABLE, say
from planner.io import save
from planner.io.netbox import NetBoxReadError
from planner.jobs.netbox import import_netbox
from planner.model.networks import NETWORK_WORDS, network_of
from planner.model.ports import NETWORKS

#: What ``--from`` reads; one reader each.
SOURCES = ("netbox",)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("import", help="read a hall recorded in NetBox into a new plan",
                                   description=__doc__.split("\n\n")[0].replace("`", ""))
    parser.add_argument("--from", dest="source", required=True, choices=SOURCES,
                        help="the kind of record: netbox (a folder of NetBox bulk-import CSVs and device-type YAMLs, "
                             "or of NetBox's own Export ▸ All Data CSVs and its device-type YAML)")
    parser.add_argument("folder", metavar="DIR", help="the folder to read")
    parser.add_argument("-o", "--output", required=True, help="the .hall file to write")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        result = import_netbox(args.folder)
    except NetBoxReadError as exc:
        say(str(exc))
        return EXIT_UNREADABLE
    doc = result.doc
    save(doc, args.output)
    print(f"{args.output}: {len(doc.racks)} racks, {len(doc.devices)} devices, {len(doc.floor_units)} floor units, "
          f"{len(doc.links)} cables, {len(doc.busbars)} busbar runs from the NetBox set {args.folder}")
    counts = Counter(network_of(link) for link in doc.links.values())
    print("  cables by network: " + (", ".join(f"{counts[n]} {NETWORK_WORDS[n]}" for n in NETWORKS if counts[n])
                                     or "none"))
    for note in result.notes:
        print(f"  - {note}")
    print(f"Check it with: planner validate {args.output}")
    return EXIT_OK
