"""`planner fabric FILE [--json]`: the plan's fabric counts; with ``-o OUT``, generate the fabric.

Without ``--json`` it also reports reachability, the most switch hops between two GPU nodes
and the bisection bandwidth (minimum cut between the two halves of the nodes).

Counts follow DESIGN §7 (nodes, gpus, tiers, switches.{leaf,spine,core},
links.{node-leaf,leaf-spine,spine-core}, oversubscription), and ``networks`` gives every
network's switches by role and cables by tier (compute, storage, inband, oob, power, coolant).
``-o`` writes a copy of the plan with a freshly generated, cabled and routed fabric and every
other network (storage fabric, in-band and out-of-band management, coolant hoses, power cords) (``--switch``, ``--oversubscription``,
``--placement``), the same step as Plan ▸ Generate fabric… in the GUI: the chosen
oversubscription becomes the plan's design-basis value. Cables keep their identity: it first
prints what happens to the plan's cables ("cables: kept 24,560, rewired 0, removed 16 (3
verified), added 32"); removing or rewiring a cable already past planned needs ``--force``
(exit 1 without it, nothing written). Like ``planner new``, the plan is
checked against the full rule catalogue before it is written; if it has any error, nothing is
written (OUT stays as it was) and the first error is the one-line reason (exit 1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from planner.cli.common import load_or_exit
from planner.commands.base import History
from planner.commands.edits import Refusal
from planner.fabric import FabricError, fabric_counts
from planner.fabric.graph import all_nodes_reachable, bisection_gbps, fabric_graph, max_switch_hops
from planner.fabric.hall import cable_hall, refusal, summary
from planner.fabric.placement import PLACEMENTS
from planner.fabric.sizing import default_switch, node_devices
from planner.io import save
from planner.jobs.gate import would_have_errors
from planner.model.document import Document
from planner.model.networks import NETWORK_WORDS, ROLE_WORDS
from planner.model.ports import COMPUTE
from planner.text import count, plural


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("fabric", help="fabric counts of a plan; -o writes it with a generated fabric",
                                   description="The plan's fabric counts; with -o OUT, write the plan with a "
                                   "regenerated fabric (cables whose ends stay are kept with their id and state).")
    parser.add_argument("file", help="the .hall plan")
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    parser.add_argument("-o", "--output", help="write the plan with a generated fabric here")
    parser.add_argument("--switch", help="switch type for the generated fabric (catalogue key)")
    parser.add_argument("--oversubscription", type=float, help="leaf downlink:uplink ratio (1 = non-blocking)")
    parser.add_argument("--placement", choices=PLACEMENTS, default="middle",
                        help="where new network racks go in a row")
    parser.add_argument("--force", action="store_true",
                        help="apply even when cables already past planned (run … verified) would be removed or rewired")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    doc = load_or_exit(args.file)
    if args.output:
        switch = args.switch or default_switch(doc)
        ratio = args.oversubscription if args.oversubscription is not None else doc.basis.oversubscription
        try:
            command = cable_hall(doc, switch, ratio, args.placement)
            History(doc).push(command)
        except (FabricError, Refusal, KeyError) as exc:
            print(f"planner: fabric: {exc}", file=sys.stderr)
            return 1
        for line in summary(command):
            print(line, file=sys.stderr if args.json else sys.stdout)
        risky = refusal(command)
        if risky and not args.force:
            print(f"planner: fabric: {risky}; nothing written (--force applies it)", file=sys.stderr)
            return 1
        refusal_text = would_have_errors(doc)
        if refusal_text:
            print(f"planner: fabric: {refusal_text}", file=sys.stderr)
            return 1
        replaced = os.path.lexists(args.output)
        save(doc, args.output)
        print(f"{'Replaced' if replaced else 'Wrote'} {args.output}: {plural(len(doc.links), 'cable')}",
              file=sys.stderr if args.json else sys.stdout)
    try:
        counts = fabric_counts(doc)
    except FabricError as exc:
        print(f"planner: fabric: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(counts, indent=2))
        return 0
    switches, links = counts["switches"], counts["links"]
    print(f"{plural(counts['nodes'], 'node')}, {plural(counts['gpus'], 'GPU')}, {plural(counts['tiers'], 'tier')}, "
          f"oversubscription {counts['oversubscription']:g}:1")
    print(f"switches: {count(switches['leaf'])} leaf, {count(switches['spine'])} spine, "
          f"{count(switches['core'])} core")
    print(f"links: {count(links['node-leaf'])} node-leaf, {count(links['leaf-spine'])} leaf-spine, "
          f"{count(links['spine-core'])} spine-core")
    for network, held in counts["networks"].items():
        if network != COMPUTE and any(held["links"].values()):
            roles = ", ".join(f"{count(n)} {ROLE_WORDS[role]}" for role, n in held["switches"].items() if n)
            tiers = ", ".join(f"{count(n)} {tier}" for tier, n in held["links"].items() if n)
            print(f"{NETWORK_WORDS[network]}: {roles + '; ' if roles else ''}links: {tiers}")
    if doc.links:
        graph = fabric_graph(doc)
        nodes = [d.id for d in node_devices(doc)]
        reach = "every GPU node reaches every other" if all_nodes_reachable(graph) else "NOT every node reachable"
        print(f"{reach}; at most {plural(max_switch_hops(graph), 'switch hop')} between nodes")
        rails = counts["gpus"] // max(len(nodes), 1)
        full = len(nodes) // 2 * rails * _speed(doc)
        print(f"bisection bandwidth: {bisection_gbps(graph, nodes) / 1000:,.1f} Tb/s "
              f"(half the GPUs at full rate: {full / 1000:,.1f} Tb/s)")
    return 0


def _speed(doc: Document) -> float:
    """Rail port speed of the plan's GPU nodes, Gb/s."""
    nodes = node_devices(doc)
    return doc.catalog[nodes[0].type].port_speed_gbps if nodes else 0.0
