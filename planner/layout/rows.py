"""Rows of racks for the templates: lay compute racks out, then give each row CDUs, busbars and PDUs.

Rows run east-west. Row *i* faces north when *i* is even and south when odd, so rows 0|1 share
a hot aisle (rear to rear) and 1|2 a cold aisle (front to front); aisle widths are the design
basis minima rounded up to whole floor tiles (a cold aisle exactly at its minimum gets one
more tile). Racks are filled from U1. ``finish_rows`` runs after the fabric is placed (network
racks may have widened a row): it adds 0U PDUs for 2N, row CDUs at the row ends (split so each
carries its racks' heat and flow), A/B busbar runs in sections that stay within the busbar's
derated rating with a rack on failover, assigns every rack and draws the hall around it all.

A hall of more rows than ``Site.rows_per_pod`` is laid out in pods: blocks of rows side by side
along the rows, each block laid out as above (its rows at the same positions across as the first
block's), with a main aisle as wide as the loading door between one pod's row-end CDUs and the
next pod's. Pods are laid on top of each other first, so the fabric is placed and the CDUs and
busbars fitted row by row, then ``finish_rows`` moves each pod beside the one before it (the
cable router finds the pods from the rows' extents; see ``planner.fabric.routing``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from planner.fabric.placement import (
    busbar_limit_w,
    device_power_w,
    is_network_rack,
    rack_load_w,
    rack_pdus,
    tapoff_limit_w,
)
from planner.model.catalog import RACK_PDU, ROW_CDU
from planner.model.document import Document
from planner.model.objects import BusbarRun, Device, Door, FloorUnit, HandOff, Rack, Zone


@dataclass(frozen=True)
class Site:
    """The hall shell a template draws: a clear-span hall on one slab.

    ``slab_rating_kpa`` is the distributed rating of a slab-on-grade; the row CDUs (≈12.3 kPa
    on their own footprint) need more than the 12 kPa a raised floor would give. Edit the zone
    after surveying the real hall.

    ``rows_per_pod``: a pod is at most the 4,096-node hall of 64-port switches (32 rows of
    about 35 racks, about 35 × 90 m), the largest whose longest cable stays within the 100 m
    reach of InfiniBand DR4 optics (DESIGN §5); larger halls are pods side by side. Even, so
    every pod starts with a north-facing row and its rows pair into hot and cold aisles.
    """

    slab_rating_kpa: float = 20.0
    wall_margin_m: float = 2.4
    tile_m: float = 0.6
    door_width_m: float = 2.4
    max_sus_per_row: int = 4
    rows_per_pod: int = 32


@dataclass
class RowPlan:
    """What the template decided: types, node count and how racks fill rows."""

    rack_type: str
    node_type: str
    nodes: int
    nodes_per_rack: int
    racks_per_row: int
    bus_type: str


def _aisle(minimum: float, tile: float, extra_when_exact: bool) -> float:
    width = math.ceil(minimum / tile - 1e-9) * tile
    if extra_when_exact and abs(width - minimum) < 1e-9:
        width += tile
    return round(width, 6)


def _row_cdu_type(doc: Document) -> str:
    return max(doc.catalog.of_kind(ROW_CDU), key=lambda i: i.capacity_kw).key


def _flow_lpm(doc: Document, liquid_w: float) -> float:
    basis = doc.basis
    props = basis.fluid_properties
    return 60.0 * liquid_w / 1000 / (props["density_kg_per_l"] * props["cp_kj_per_kg_k"] * basis.delta_t_k)


def _liquid_w(doc: Document, type_key: str) -> float:
    return device_power_w(doc, type_key) * doc.catalog[type_key].liquid_fraction


def _cdus_needed(doc: Document, liquid_w: list[float]) -> int:
    """Fewest CDUs whose even contiguous split of the racks keeps heat and flow within rating."""
    item = doc.catalog[_row_cdu_type(doc)]
    n = max(1, math.ceil(sum(liquid_w) / (item.capacity_kw * 1000)))
    while n <= len(liquid_w):
        if all(sum(chunk) <= item.capacity_kw * 1000 and _flow_lpm(doc, sum(chunk)) <= item.rated_flow_lpm
               for chunk in _split(liquid_w, n)):
            return n
        n += 1
    return len(liquid_w)


def _split(values: list, n: int) -> list[list]:
    """``values`` cut into ``n`` contiguous chunks of near-equal length."""
    size, extra = divmod(len(values), n)
    chunks, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        chunks.append(values[start:end])
        start = end
    return chunks


def lay_rows(doc: Document, plan: RowPlan, site: Site) -> list[str]:
    """Compute racks with their nodes, row by row; returns the row names."""
    rack = doc.catalog[plan.rack_type]
    node = doc.catalog[plan.node_type]
    racks_needed = math.ceil(plan.nodes / plan.nodes_per_rack)
    row_count = math.ceil(racks_needed / plan.racks_per_row)
    rack_liquid = _liquid_w(doc, plan.node_type) * plan.nodes_per_rack
    west = math.ceil(_cdus_needed(doc, [rack_liquid] * min(racks_needed, plan.racks_per_row)) / 2)
    cdu_width = doc.catalog[_row_cdu_type(doc)].width_m
    x0 = site.wall_margin_m + west * cdu_width + rack.width_m / 2
    cold = _aisle(doc.basis.front_aisle_min_m, site.tile_m, True)
    hot = _aisle(doc.basis.rear_aisle_min_m, site.tile_m, False)
    y = site.wall_margin_m + rack.depth_m / 2
    y0 = y
    rows, placed, number = [], 0, 1
    for row_index in range(row_count):
        row = str(row_index + 1)
        rows.append(row)
        if row_index % site.rows_per_pod == 0:  # a new pod: laid over the first, moved aside by finish_rows
            y = y0
        rotation = 0 if row_index % 2 == 0 else 180
        for k in range(min(plan.racks_per_row, racks_needed - row_index * plan.racks_per_row)):
            rack_obj = Rack(id=doc.new_id("rack"), type=plan.rack_type, name=f"R{number:02d}",
                            x=round(x0 + k * rack.width_m, 6), y=round(y, 6), rotation=rotation, row=row)
            number += 1
            doc.add(rack_obj)
            for n in range(min(plan.nodes_per_rack, plan.nodes - placed)):
                doc.add(Device(id=doc.new_id("dev"), type=plan.node_type, name=f"N{n + 1}", rack=rack_obj.id,
                               u=1 + n * node.height_u))
                placed += 1
        y += rack.depth_m + (hot if row_index % 2 == 0 else cold)
    return rows


def _add_pdus(doc: Document, rack: Rack) -> None:
    """PDUs for a rack that has none yet (the fabric generator gave its network racks theirs:
    two more would repeat their names, and hostnames must be unique)."""
    if any(doc.catalog[d.type].kind == RACK_PDU for d in doc.devices_in(rack.id)):
        return
    for device in rack_pdus(doc, rack.id, rack_load_w(doc, rack.id)):
        doc.add(device)


def finish_rows(doc: Document, plan: RowPlan, rows: list[str], site: Site) -> None:
    """PDUs, CDUs, busbars and assignments for every row, then the hall around them."""
    by_row: dict[str, list[Rack]] = {}
    for rack in doc.racks.values():
        by_row.setdefault(rack.row, []).append(rack)
    cdu_number = bus_number = 1
    for row in rows:
        racks = sorted(by_row[row], key=lambda r: r.x)
        for rack in racks:
            _add_pdus(doc, rack)
        cdu_number = _add_cdus(doc, racks, cdu_number)
        bus_number = _add_busbars(doc, racks, plan, bus_number)
    _place_pods(doc, rows, site)
    _draw_hall(doc, site)


def pods_of(rows: list[str], site: Site) -> list[list[str]]:
    """The rows of each pod, in order (``Site.rows_per_pod`` to a pod)."""
    return [rows[i:i + site.rows_per_pod] for i in range(0, len(rows), site.rows_per_pod)]


def _place_pods(doc: Document, rows: list[str], site: Site) -> None:
    """Move every pod after the first east of the one before, a main aisle as wide as the loading
    door (what comes in through the door reaches every pod) between them, on the tile grid."""
    pods = pods_of(rows, site)
    if len(pods) < 2:
        return
    pod_of = {row: index for index, members in enumerate(pods) for row in members}
    members: list[list[Rack | FloorUnit | BusbarRun]] = [[] for _ in pods]
    in_rows: list[Rack | FloorUnit | BusbarRun] = [*doc.racks.values(), *doc.floor_units.values(),
                                                   *doc.busbars.values()]
    for obj in in_rows:
        members[pod_of[obj.row]].append(obj)
    east = None
    for objects in members:
        boxes = [doc.rack_bounds(o) for o in objects if not isinstance(o, BusbarRun)]
        west_edge, east_edge = min(b[0] for b in boxes), max(b[2] for b in boxes)
        shift = 0.0
        if east is not None:
            shift = math.ceil((east + site.door_width_m) / site.tile_m - 1e-9) * site.tile_m - west_edge
            for obj in objects:
                if isinstance(obj, BusbarRun):
                    doc.set_fields(obj.id, {"x1": round(obj.x1 + shift, 6), "x2": round(obj.x2 + shift, 6)})
                else:
                    doc.set_fields(obj.id, {"x": round(obj.x + shift, 6)})
        east = east_edge + shift


def _add_cdus(doc: Document, racks: list[Rack], number: int) -> int:
    pending = [r for r in racks if r.cdu is None]
    if not pending:
        return number
    cdu_type = _row_cdu_type(doc)
    item = doc.catalog[cdu_type]
    liquid = [sum(_liquid_w(doc, d.type) for d in doc.devices_in(r.id)) for r in pending]
    count = _cdus_needed(doc, liquid)
    west = math.ceil(count / 2)
    first, last = racks[0], racks[-1]
    rack_half = doc.catalog[first.type].width_m / 2
    for index, chunk in enumerate(_split(pending, count)):
        if index < west:
            x = first.x - rack_half - (west - index - 0.5) * item.width_m
        else:
            x = last.x + doc.catalog[last.type].width_m / 2 + (index - west + 0.5) * item.width_m
        unit = FloorUnit(id=doc.new_id("fu"), type=cdu_type, name=f"CDU-{number:02d}", x=round(x, 6),
                         y=first.y, rotation=first.rotation, row=first.row)
        number += 1
        doc.add(unit)
        for rack in chunk:
            doc.set_fields(rack.id, {"cdu": unit.id})
    return number


def _section_load_w(doc: Document, rack: Rack, bus_type: str) -> float:
    """What a rack takes of its busbar section: its load, and for a network rack what its tap-off
    can carry, so that regenerating the fabric at another ratio or protocol (more or bigger
    switches in the same racks) still finds room on the feeds."""
    load = rack_load_w(doc, rack.id)
    if not is_network_rack(doc, rack.id):
        return load
    reserve = tapoff_limit_w(doc, bus_type)
    return max(load, reserve) if math.isfinite(reserve) else load


def _add_busbars(doc: Document, racks: list[Rack], plan: RowPlan, number: int) -> int:
    limit_w = busbar_limit_w(doc, plan.bus_type)
    sections: list[list[Rack]] = [[]]
    load = 0.0
    for rack in racks:
        power = _section_load_w(doc, rack, plan.bus_type)
        if sections[-1] and load + power > limit_w:
            sections.append([])
            load = 0.0
        sections[-1].append(rack)
        load += power
    for section in sections:
        half_w = doc.catalog[section[0].type].width_m / 2
        half_d = doc.catalog[section[0].type].depth_m / 2
        x1, x2 = section[0].x - half_w, section[-1].x + half_w
        ids = {}
        for side, dy in (("A", -half_d), ("B", half_d)):
            bus = BusbarRun(id=doc.new_id("bus"), type=plan.bus_type, name=f"BB-{side}{number:02d}",
                            x1=round(x1, 6), y1=round(section[0].y + dy, 6), x2=round(x2, 6),
                            y2=round(section[0].y + dy, 6), side=side, row=section[0].row)
            doc.add(bus)
            ids[side] = bus.id
        number += 1
        for rack in section:
            doc.set_fields(rack.id, {"feed_a": ids["A"], "feed_b": ids["B"]})
    return number


def _hall_size(doc: Document, site: Site) -> tuple[float, float]:
    """Width and depth of the outline on the tile grid around all equipment, with the wall margin."""
    xs: list[float] = []
    ys: list[float] = []
    standing: list[Rack | FloorUnit] = [*doc.racks.values(), *doc.floor_units.values()]
    for obj in standing:
        x0, y0, x1, y1 = doc.rack_bounds(obj)
        xs += [x0, x1]
        ys += [y0, y1]
    tile, margin = site.tile_m, site.wall_margin_m
    width = math.ceil((max(xs) + margin) / tile - 1e-9) * tile
    depth = math.ceil((max(ys) + margin) / tile - 1e-9) * tile
    return round(width, 6), round(depth, 6)


def respace_pods(doc: Document, rows: list[str], site: Site) -> None:
    """The pods spaced again and the hall drawn around them, after the networks placed after
    ``finish_rows`` (storage, in-band, out-of-band racks in the rows) made some rows longer: a
    row's east end and its CDUs would otherwise stand in the main aisle, or on the next pod's
    west CDUs (CDU-14 on CDU-77 in the 16,384-node hall)."""
    _place_pods(doc, rows, site)
    width, depth = _hall_size(doc, site)
    outline = [(0.0, 0.0), (width, 0.0), (width, depth), (0.0, depth)]
    if outline == doc.outline:
        return
    doc.outline = outline  # the pods moved east along the door's wall: the door stays where it is
    for zone in doc.zones.values():
        if zone.name == "Slab":
            doc.set_fields(zone.id, {"polygon": list(doc.outline)})


def _draw_hall(doc: Document, site: Site) -> None:
    """Outline on the tile grid around all equipment, one slab zone, a door and hand-off points."""
    width, depth = _hall_size(doc, site)
    tile = site.tile_m
    doc.outline = [(0.0, 0.0), (width, 0.0), (width, depth), (0.0, depth)]
    doc.add(Zone(id=doc.new_id("zone"), name="Slab", polygon=list(doc.outline), rating_kpa=site.slab_rating_kpa))
    door_y = round(depth / 2, 6)
    doc.add(Door(id=doc.new_id("door"), name="Loading door", x1=0.0, y1=door_y - site.door_width_m / 2, x2=0.0,
                     y2=door_y + site.door_width_m / 2))
    doc.add(HandOff(id=doc.new_id("ho"), name="Facility water", kind="coolant", x=tile, y=tile))
    doc.add(HandOff(id=doc.new_id("ho"), name="Switchboard A/B", kind="power", x=2 * tile, y=tile))
