"""`planner new --template {starter,pod,hall} [--nodes N] [--node TYPE] [--switch TYPE]
[--rack-kw KW] -o FILE`: write a complete plan (layout, fabric, cabling, lengths).

`planner new --from-dxf FILE.dxf [--outline-layer L] [--column-layer L] [--zone-layer L]
[--door-layer L] [--units mm|m|in|ft] -o FILE`: start a plan from an architect's drawing: the hall
outline, its columns, the zones of the zone layer (default ratings; without one, one whole-floor
zone at the default rating) and the doors of the door layer, the drawing itself under the plan as a locked underlay, and the layers found
and what was taken from each on standard output. The outline's north-west corner becomes the
plan's origin (plans and their tables count from there; the underlay's transform keeps the
architect's coordinates). How layers and units are chosen: ``planner.io.dxf``. A drawing that
cannot be read or used as asked (no such layer, no closed outline, no units) is one line and
exit 2.

The plan is checked against the full rule catalogue before it is written; if it has any
error, nothing is written and the first error is the one-line reason (exit 1). A number out of
its range (``--rack-kw nan``) is refused by the argument parser (exit 2); a file that cannot be
written is one line and exit 2 (``planner.cli.main``), the file that was there left as it was.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from planner.cli.common import EXIT_FINDINGS, EXIT_OK, EXIT_UNREADABLE, say
from planner.commands import History, Refusal
from planner.commands.underlays import add_underlay, origin_for, outline_from_drawing, stored_path
from planner.io import save
from planner.io.dxf import (
    Drawing,
    DxfError,
    Hall,
    check_hall_size,
    metres_per_unit,
    north_west,
    pick_hall,
    read_dxf,
)
from planner.jobs.gate import would_have_errors
from planner.layout.templates import (
    HALL_NODES_64_PORT,
    HALL_SWITCH_128,
    MAX_NODES,
    TEMPLATES,
    TemplateError,
    build_template,
)
from planner.model.bounds import NOTES
from planner.model.catalog import NODE
from planner.model.document import Document
from planner.model.objects import Underlay
from planner.text import count, plural

NOTES_CHARS = NOTES.max_chars
#: Options that only a template reads.
TEMPLATE_OPTIONS = ("nodes", "node", "switch", "rack_kw")
#: How dim the architect's drawing is under a plan started from it.
UNDERLAY_OPACITY = 0.35


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("new", help="write a new plan from a template or an architect's DXF",
                                   description="Write a complete plan (layout, fabric, cabling, cable lengths) "
                                   "from a template, or start one from an architect's DXF drawing (hall "
                                   "outline and columns).")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--template", choices=TEMPLATES,
                        help="the template to build a whole plan from: starter (one rack), pod (one row) or "
                        "hall (rows of pods)")
    source.add_argument("--from-dxf", metavar="FILE.dxf", help="take the hall outline and columns (and zones and doors "
                        "from the layers named) from this DXF")
    parser.add_argument("--nodes", type=_count, help=f"GPU nodes (starter ≤ {MAX_NODES['starter']:,}, pod ≤ "
                        f"{MAX_NODES['pod']:,}, hall ≤ {HALL_NODES_64_PORT:,} with 64-port switches, ≤ "
                        f"{MAX_NODES['hall']:,} with --switch {HALL_SWITCH_128})")
    parser.add_argument("--node", help="GPU node type (catalogue key)")
    parser.add_argument("--switch", help="switch type (catalogue key)")
    parser.add_argument("--rack-kw", type=_rack_kw, help="power budget per rack, kW (above 0, at most 1,000)")
    parser.add_argument("--outline-layer", metavar="L",
                        help="--from-dxf: the layer holding the hall outline (default: a layer named like "
                        "WALL or OUTLINE, else the largest closed polyline)")
    parser.add_argument("--column-layer", metavar="L",
                        help="--from-dxf: the layer holding the columns (default: layers named like COLUMN or COLS)")
    parser.add_argument("--zone-layer", metavar="L",
                        help="--from-dxf: the layer whose closed polylines are floor zones (default ratings; "
                        "default: one whole-floor zone)")
    parser.add_argument("--door-layer", metavar="L",
                        help="--from-dxf: the layer whose LINEs (or two-point polylines) are doors")
    parser.add_argument("--units", choices=("mm", "m", "in", "ft"),
                        help="--from-dxf: the drawing's units when its header does not say (or says wrong)")
    parser.add_argument("-o", "--output", required=True, help="the .hall file to write")
    parser.set_defaults(func=run)


def _count(text: str) -> int:
    """argparse type for --nodes: a whole number from 1 to 100,000 (no 4,301-digit numbers)."""
    if not text.strip().isdigit() or len(text.strip()) > 6 or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a whole number from 1 to 100,000")
    return int(text)


def _rack_kw(text: str) -> float:
    """argparse type for --rack-kw: a finite number above 0 and at most 1,000 kW."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 1_000:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of kW above 0 and at most 1,000")
    return value


def run(args: argparse.Namespace) -> int:
    if args.from_dxf is not None:
        given = [f"--{name.replace('_', '-')}" for name in TEMPLATE_OPTIONS if getattr(args, name) is not None]
        if given:
            say(f"new: {', '.join(given)} {'is' if len(given) == 1 else 'are'} for --template, not --from-dxf")
            return EXIT_UNREADABLE
        return run_from_dxf(args)
    dxf_only = [f"--{name.replace('_', '-')}" for name in ("outline_layer", "column_layer", "zone_layer",
                                                           "door_layer", "units")
                if getattr(args, name) is not None]
    if dxf_only:
        say(f"new: {', '.join(dxf_only)} {'is' if len(dxf_only) == 1 else 'are'} for --from-dxf, not --template")
        return EXIT_UNREADABLE
    try:
        doc = build_template(args.template, nodes=args.nodes, node_type=args.node,
                             switch_type=args.switch, rack_kw=args.rack_kw)
    except TemplateError as exc:
        print(f"planner: new: {exc}", file=sys.stderr)
        return 1
    refusal = would_have_errors(doc)
    if refusal:
        print(f"planner: new: {refusal}", file=sys.stderr)
        return 1
    replaced = Path(args.output).exists()
    save(doc, args.output)
    nodes = sum(1 for d in doc.devices.values() if doc.catalog[d.type].kind == NODE)
    print(f"{'Replaced' if replaced else 'Wrote'} {args.output}: {plural(nodes, 'node')} in "
          f"{plural(len(doc.racks), 'rack')}, {plural(len(doc.links), 'cable')}")
    return 0


def run_from_dxf(args: argparse.Namespace) -> int:
    """Start a plan from a DXF (module docstring); prints what was read and taken."""

    source = Path(args.from_dxf)
    try:
        drawing = read_dxf(source)
        scale, units_note = metres_per_unit(drawing, args.units)
        hall = pick_hall(drawing, args.outline_layer, args.column_layer, args.zone_layer, args.door_layer)
        check_hall_size(hall, scale, str(source))
    except DxfError as exc:
        say(str(exc))
        return EXIT_UNREADABLE
    doc = Document()
    history = History(doc)
    x, y = origin_for("dxf", scale, north_west(hall.outline))
    not_kept = ""
    try:
        add = add_underlay(doc, stored_path(source, Path(args.output).absolute().parent), "dxf",
                           x=x, y=y, scale=scale, opacity=UNDERLAY_OPACITY, locked=True)
        history.push(add)
        under = add.objects[0]
    except Refusal as exc:  # e.g. its origin lies beyond the ±10 km a plan holds (a georeferenced drawing)
        not_kept = str(exc)
        under = Underlay(id="ul-0", name=source.name, path=str(source), kind="dxf", x=x, y=y, scale=scale)
    try:
        history.push(outline_from_drawing(doc, under, drawing, args.outline_layer, args.column_layer,
                                          args.zone_layer, args.door_layer))
    except Refusal as exc:
        say(f"{source}: the plan cannot hold this drawing as read ({exc}); are the units right?")
        return EXIT_UNREADABLE
    _report(drawing, hall, units_note, scale, len(doc.obstacles))
    notes = (f"Hall outline and {plural(len(doc.obstacles), 'column')} from {source.name} (outline layer "
             f"{hall.outline.layer}; column layers {', '.join(hall.column_layers) or 'none'}"
             + "".join(f"; {plural(len(found), what)} from layer {layer}" for what, found, layer in
                       (("zone", hall.zones, hall.zone_layer), ("door", hall.doors, hall.door_layer)) if layer)
             + ").")
    doc.meta.notes = "".join(ch for ch in notes if ch.isprintable())[:NOTES_CHARS]
    refusal = would_have_errors(doc)
    if refusal:
        say(f"new: {refusal}")
        return EXIT_FINDINGS
    save(doc, args.output)
    if not_kept:
        print(f"Wrote {args.output}; the drawing is not kept under the plan ({not_kept})")
    else:
        print(f"Wrote {args.output}; the drawing lies under the plan, locked and dimmed (Drawings panel)")
    return EXIT_OK


def _report(drawing: Drawing, hall: Hall, units_note: str, scale: float, columns: int) -> None:
    """The layers found and what was taken from each, on standard output."""
    shapes: dict[str, list[int]] = {}
    for shape in drawing.shapes:
        shapes.setdefault(shape.layer, [0, 0])[shape.kind == "circle"] += 1
    taken: dict[str, str] = {hall.outline.layer: "outline"}
    for layer in hall.column_layers:
        found = sum(s.layer == layer for s in hall.columns)
        before = f"{taken[layer]} + " if layer in taken else ""
        taken[layer] = f"{before}{plural(found, 'column')}"
    for named, what, found in ((hall.zone_layer, "zone", len(hall.zones)), (hall.door_layer, "door", len(hall.doors))):
        if named is not None:
            before = f"{taken[named]} + " if named in taken else ""
            taken[named] = f"{before}{plural(found, what)}"
    print(f"Read {drawing.path}: units {units_note}")
    width = max([len(name) for name in drawing.layers] + [5])
    print(f"{'layer':<{width}}  entities  closed polylines  circles  taken")
    for name, entities in drawing.layers.items():
        polylines, circles = shapes.get(name, [0, 0])
        print(f"{name:<{width}}  {count(entities):>8}  {count(polylines):>16}  {count(circles):>7}  "
              f"{taken.get(name, '')}".rstrip())
    x0, _y0, x1, y1 = hall.outline.bounds()
    depth = (y1 - hall.outline.bounds()[1]) * scale
    print(f"Outline: {hall.outline_how}: {count(len(hall.outline.points))} corners, {(x1 - x0) * scale:.3f} × "
          f"{depth:.3f} m; its north-west corner ({x0:g}, {y1:g} in the drawing) is the plan's (0, 0)")
    outside = f"; {count(hall.columns_outside)} outside the outline left out" if hall.columns_outside else ""
    for (layer, why), dropped in sorted(drawing.left_out.items()):
        if layer in hall.column_layers:
            outside += f"; {plural(dropped, 'column')} {why} left out (layer {layer})"
    if hall.column_layers:
        print(f"Columns: {count(columns)} from layer{'s' if len(hall.column_layers) != 1 else ''} "
              f"{', '.join(hall.column_layers)} ({hall.columns_how}){outside}")
    else:
        print(f"Columns: none ({hall.columns_how})")
    if hall.zone_layer is not None:
        left = f"; {count(hall.zones_outside)} outside the outline left out" if hall.zones_outside else ""
        print(f"Zones: {count(len(hall.zones))} from layer {hall.zone_layer} (default ratings: Plan ▸ Hall features){left}")
    if hall.door_layer is not None:
        print(f"Doors: {count(len(hall.doors))} from layer {hall.door_layer}")
