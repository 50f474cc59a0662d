"""Whole plans from a few parameters: ``starter``, ``pod`` and ``hall`` (issue 4, DESIGN §1).

A template decides how many nodes a rack takes (``rack_kw`` against the node power, the
rack's U, weight and power ratings, the floor rating and the busbar tap-off), lays racks out
in rows with alternating cold and hot aisles, generates and cables the fabric (switches in
network racks in the middle of each row), then gives every row its CDUs and A/B busbar runs,
fills every rack with enough 0U PDUs for 2N, assigns every rack, draws the hall around it, and
stacks as many tray levels as keep the cabling under the tray fill warning.
Parameters that cannot give an error-free plan raise ``TemplateError`` with a one-line reason.

The hall shell a template draws (clear span, slab rating, margins) is described by ``Site``.

How big a hall can be is the fabric's limit (DESIGN §4): three tiers of k-port switches hold
k³/4 GPUs, 65,536 (8,192 nodes) with the catalogue's 64-port switches and 524,288 with the
128-port Ethernet switch, of which the template builds up to ``MAX_NODES`` (16,384 nodes,
131,072 GPUs). A hall the chosen switch cannot hold is refused with the switches that can hold
it named, rather than switched silently: the switch decides the fabric (InfiniBand or Ethernet),
its media and the bill of materials. Halls of more than ``Site.rows_per_pod`` rows are pods
side by side (``planner.layout.rows``), and are routed again once the pods are in place.
"""

from __future__ import annotations

import math

from planner.fabric.generate import generate_fabric
from planner.fabric.hall import CONNECTING_STEPS, IN_RACK_STEPS, PLACING_STEPS, apply_steps
from planner.fabric.placement import device_power_w, pdu_type, pdus_per_side, tapoff_limit_w
from planner.fabric.relength import recompute_lengths
from planner.fabric.sizing import FabricDesign, FabricError, default_switch, design_fabric
from planner.layout.rows import (
    RowPlan,
    Site,
    finish_rows,
    lay_rows,
    pods_of,
    respace_pods,
)
from planner.layout.storage_nodes import place_storage_nodes, storage_nodes_needed
from planner.layout.tray_sizing import size_tray_levels
from planner.model.catalog import NODE, RACK, RACK_CDU, STORAGE, SWITCH, switch_protocol
from planner.model.cords import cords_per_side, largest_cord_w
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import Device
from planner.text import plural

TEMPLATES = ("starter", "pod", "hall")
#: The hall: 131,072 GPUs, the largest single-site training clusters built today (issue 15);
#: with 64-port switches the fabric stops at 8,192 (``_design``).
MAX_NODES = {"starter": 4, "pod": 32, "hall": 16384}
#: The most hall nodes (8 GPUs each) the catalogue's 64-port switches hold in three tiers (k³/4
#: GPUs, 8,192 nodes); up to ``MAX_NODES["hall"]`` takes the 128-port ``HALL_SWITCH_128``. The
#: command line's help and the New from template dialog both print these.
HALL_NODES_64_PORT = 64 ** 3 // 4 // 8
HALL_SWITCH_128 = "sw-64x800g-2u-eth"
DEFAULT_NODES = {"starter": 4, "pod": 32, "hall": 256}
DEFAULT_RACK_KW = {"starter": 60.0, "pod": 48.0, "hall": 48.0}
DEFAULT_NODE = "node-8gpu-liquid-4u"


class TemplateError(ValueError):
    """The template parameters cannot give an error-free plan; the message is one line."""


def _pick(doc: Document, key: str | None, kind: str, default: str | None, what: str) -> str:
    key = key or default
    if key is None or key not in doc.catalog or doc.catalog[key].kind != kind:
        raise TemplateError(f"{key!r} is not a {what} type in the catalogue")
    return key


def _rack_type(doc: Document) -> str:
    """The template rack: the catalogue rack with the highest power rating."""
    return max(doc.catalog.of_kind(RACK), key=lambda r: (r.max_power_kw or 0.0, r.rack_units)).key


def nodes_per_rack(doc: Document, node_type: str, rack_type: str, rack_kw: float, site: Site,
                   busbar_type: str) -> int:
    """How many nodes a compute rack takes: the least of the power, U, weight and floor limits."""
    basis = doc.basis
    node, rack = doc.catalog[node_type], doc.catalog[rack_type]
    if rack_kw <= 0:
        raise TemplateError(f"--rack-kw must be positive, not {rack_kw:g}")
    if rack.max_power_kw is not None and rack_kw > rack.max_power_kw:
        raise TemplateError(f"--rack-kw {rack_kw:g} is above the {rack.name} rating of {rack.max_power_kw:g} kW")
    tapoff_kw = tapoff_limit_w(doc, busbar_type) / 1000
    if rack_kw > tapoff_kw:
        raise TemplateError(f"--rack-kw {rack_kw:g} is above the {tapoff_kw:.1f} kW a busbar tap-off "
                            f"carries within {basis.power_warn_fraction:.0%} of its derated rating")
    node_w = device_power_w(doc, node_type)
    # a management switch per rack (basis ``inband_switch_per``/``oob_switch_per``: "rack") takes
    # its U and weight, and its power within what the rack and its tap-off carry (P4, P2), before
    # the nodes do (``planner.fabric.management`` puts it at the top)
    extras = [item for network, per in (("inband", basis.inband_switch_per), ("oob", basis.oob_switch_per))
              if per == "rack" and (item := doc.catalog.management_switch(network)) is not None]
    extras_w = sum(device_power_w(doc, i.key) for i in extras)
    rated_w = math.inf if rack.max_power_kw is None else rack.max_power_kw * 1000 * basis.power_warn_fraction
    by_power = math.floor(min(rack_kw * 1000, min(rated_w, tapoff_kw * 1000) - extras_w) / node_w + 1e-9)
    by_units = (rack.rack_units - sum(i.height_u for i in extras)) // node.height_u
    pdu = doc.catalog[pdu_type(doc)]
    most = [node_type] * min(by_power, by_units) + [i.key for i in extras]  # PDUs for their cords (P10, P12)
    fed = [*most, *(i.key for i in extras)]
    pdus = 2 * pdus_per_side(doc, rack_kw * 1000 + extras_w, cords_per_side(doc, fed), largest_cord_w(doc, fed))
    floor_kg = (site.slab_rating_kpa * basis.floor_warn_fraction * rack.width_m * rack.depth_m
                * 1000 / 9.80665)
    load_kg = (min(rack.max_load_kg or math.inf, floor_kg) - rack.weight_kg - pdus * pdu.weight_kg
               - sum(i.weight_kg for i in extras))
    by_weight = math.floor(load_kg / node.weight_kg)
    count = min(by_power, by_units, by_weight)
    if count < 1:
        limit = ("power" if by_power < 1 else "rack units" if by_units < 1 else "weight")
        raise TemplateError(f"a {node.name} does not fit a {rack.name} at {rack_kw:g} kW (limited by {limit})")
    return count


def busbar_type(doc: Document) -> str:
    return max(doc.catalog.of_kind("busbar"), key=lambda i: i.rating_a).key


def build_template(name: str, nodes: int | None = None, node_type: str | None = None,
                   switch_type: str | None = None, rack_kw: float | None = None,
                   site: Site | None = None, oversubscription: float | None = None) -> Document:
    """A complete plan: layout, fabric, cabling and routed lengths.

    ``oversubscription`` (default the design basis's, 1:1) becomes the plan's design-basis
    ratio and the fabric is sized for it; the switch's protocol becomes its fabric kind (the
    media reaches and the NetBox types follow it)."""
    if name not in TEMPLATES:
        raise TemplateError(f"unknown template {name!r} (choose {', '.join(TEMPLATES)})")
    site = site or Site()
    doc = Document()
    count = DEFAULT_NODES[name] if nodes is None else nodes
    if not 1 <= count <= MAX_NODES[name]:
        raise TemplateError(f"the {name} template takes 1 to {MAX_NODES[name]:,} nodes, not {count:,}")
    node_key = _pick(doc, node_type, NODE, DEFAULT_NODE, "GPU node")
    switch_key = _pick(doc, switch_type, SWITCH, default_switch(doc), "switch")
    doc.basis.fabric_kind = switch_protocol(doc.catalog[switch_key])
    if oversubscription is not None:
        doc.basis.oversubscription = oversubscription
    kw = DEFAULT_RACK_KW[name] if rack_kw is None else rack_kw
    rack_key = _rack_type(doc)
    bus_key = busbar_type(doc)
    doc.meta.project = f"{name.capitalize()} template, {plural(count, 'node')}"
    doc.meta.author = "Hall Planner template"
    design = _design(doc, count, node_key, switch_key)
    node_gpus = doc.catalog[node_key].gpus
    if name == "starter":
        if design.tiers != 1:
            raise TemplateError(f"the starter has one leaf: {count} nodes need {design.leaves} leaves")
        per_rack = count
        _check_starter(doc, node_key, switch_key, rack_key, count, kw)
    else:
        per_rack = nodes_per_rack(doc, node_key, rack_key, kw, site, bus_key)
    racks_needed = math.ceil(count / per_rack)
    if name == "hall":
        su_racks = math.ceil(design.down / per_rack) if design.tiers > 1 else racks_needed
        sus_per_row = max(1, min(site.max_sus_per_row, round(math.sqrt(max(design.sus, 1) / 2))))
        per_row = min(racks_needed, su_racks * sus_per_row)
    else:
        per_row = racks_needed
    plan = RowPlan(rack_type=rack_key, node_type=node_key, nodes=count, nodes_per_rack=per_rack,
                   racks_per_row=per_row, bus_type=bus_key)
    rows = lay_rows(doc, plan, site)
    if name == "starter":
        _fit_starter(doc, switch_key)
    try:
        command = generate_fabric(doc, switch_key, doc.basis.oversubscription, "middle", kw * 1000)
    except FabricError as exc:
        raise TemplateError(str(exc)) from None
    command.apply(doc)
    try:
        if name != "starter":  # the starter is one rack: its flash store and leaf, no storage or in-band switches
            place_storage_nodes(doc, _storage(doc), storage_nodes_needed(doc, count * node_gpus, _storage(doc)),
                                kw * 1000)
            apply_steps(doc, PLACING_STEPS)
    except FabricError as exc:
        raise TemplateError(str(exc)) from None
    _name_racks_in_order(doc)
    finish_rows(doc, plan, rows, site)
    apply_steps(doc, IN_RACK_STEPS if name == "starter" else CONNECTING_STEPS)
    if len(pods_of(rows, site)) > 1:  # the pods moved apart after the fabric was routed
        respace_pods(doc, rows, site)
        recompute_lengths(doc, [link.id for link in doc.links.values() if network_of(link) in DATA_NETWORKS]).apply(doc)
    size_tray_levels(doc)
    return doc


def _design(doc: Document, count: int, node_key: str, switch_key: str) -> FabricDesign:
    """The fabric for ``count`` nodes; refused in one line naming the switches that can hold it."""
    node = doc.catalog[node_key]
    try:
        return design_fabric(count, node.port_count, doc.catalog[switch_key].port_count, doc.basis.oversubscription)
    except FabricError as exc:
        able = []
        for other in doc.catalog.fabric_switches():
            try:
                design_fabric(count, node.port_count, other.port_count, doc.basis.oversubscription)
            except FabricError:
                continue
            able.append(f"--switch {other.key} ({other.port_count} ports)")
        hint = f"; use {' or '.join(able)}" if able else ""
        raise TemplateError(f"{exc}{hint}") from None


def _name_racks_in_order(doc: Document) -> None:
    """R01, R02 … row by row, west to east, so network racks inserted mid-row read in order."""
    ordered = sorted(doc.racks.values(), key=lambda r: (int(r.row), r.x))
    for number, rack in enumerate(ordered, start=1):
        doc.set_fields(rack.id, {"name": f"R{number:02d}"})


def _check_starter(doc: Document, node_key: str, switch_key: str, rack_key: str, count: int,
                   kw: float) -> None:
    rack = doc.catalog[rack_key]
    extras = [switch_key, _storage(doc), _rack_cdu(doc)]
    load = count * device_power_w(doc, node_key) + sum(device_power_w(doc, k) for k in extras)
    if load > kw * 1000 + 1e-6:
        raise TemplateError(f"the starter rack draws {load / 1000:.1f} kW with {count} nodes, "
                            f"above --rack-kw {kw:g}")
    units = count * doc.catalog[node_key].height_u + sum(doc.catalog[k].height_u for k in extras)
    if units > rack.rack_units:
        raise TemplateError(f"the starter needs {units}U, more than the {rack.rack_units}U of a {rack.name}")


def _storage(doc: Document) -> str:
    return doc.catalog.of_kind(STORAGE)[0].key


def _rack_cdu(doc: Document) -> str:
    return max(doc.catalog.of_kind(RACK_CDU), key=lambda i: i.capacity_kw).key


def _fit_starter(doc: Document, switch_key: str) -> None:
    """The starter's one rack also holds its leaf (top), a flash store and an in-rack CDU."""
    rack = next(iter(doc.racks.values()))
    for key, stem in ((_rack_cdu(doc), "CDU1"), (_storage(doc), "ST1"), (switch_key, "SW1")):
        height = doc.catalog[key].height_u
        if key == switch_key:
            u = doc.catalog[rack.type].rack_units - height
        else:
            free = doc.lowest_free_u(rack.id, height)
            assert free is not None  # _check_starter made sure nodes and extras fit the one rack
            u = free
        device = Device(id=doc.new_id("dev"), type=key, name=stem, rack=rack.id, u=u)
        doc.add(device)
        if key == _rack_cdu(doc):
            doc.set_fields(rack.id, {"cdu": device.id})
