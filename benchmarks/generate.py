"""Build a plan of a given GPU count directly through the model, for benchmarks.

Racks of 8 liquid-cooled 8-GPU nodes in rows of 32 with alternating fronts (cold/hot aisles),
two row CDUs and A/B busbar segments per row, network racks of 1U 64-port switches, and a
rail-optimised three-tier fabric (two tiers when it fits) with every link labelled. It does not
use the fabric generator on purpose: it is the fixed yardstick the generator, validation and
exports are timed against. Lengths and media come from the fabric's router, so the plan has
no stale-length findings.
"""

from __future__ import annotations

import math

from planner.fabric.routing import Router
from planner.model import BusbarRun, Device, Document, FloorUnit, Link, Rack, Zone

NODE = "node-8gpu-liquid-4u"
SWITCH = "sw-64x400g-1u"
RACK_TYPE = "rack-800x1200-52u"
RACKS_PER_ROW = 32
NODES_PER_RACK = 8
SWITCHES_PER_RACK = 40
RACKS_PER_BUSBAR = 4
ROW_PITCH_M = 1.2 + 1.05  # rack depth + mean of cold (1.2 m) and hot (0.9 m) aisles


def _layout(doc: Document, rack_count: int) -> list[Rack]:
    racks = []
    rows = math.ceil(rack_count / RACKS_PER_ROW)
    width = 2.4 + RACKS_PER_ROW * 0.8 + 2.4
    depth = 2.4 + rows * ROW_PITCH_M + 2.4
    doc.outline = [(0.0, 0.0), (width, 0.0), (width, depth), (0.0, depth)]
    doc.add(Zone(id="zone-1", name="Slab", polygon=list(doc.outline), rating_kpa=12.0))
    for index in range(rack_count):
        row, pos = divmod(index, RACKS_PER_ROW)
        y = round(3.0 + row * ROW_PITCH_M, 3)
        rack = Rack(id=f"rack-{index + 1}", type=RACK_TYPE, name=f"R{index + 1:04d}",
                    x=round(3.2 + pos * 0.8, 3), y=y, rotation=0 if row % 2 == 0 else 180, row=str(row + 1))
        racks.append(rack)
    for row in range(rows):
        y = round(3.0 + row * ROW_PITCH_M, 3)
        for half in range(2):
            doc.add(FloorUnit(id=doc.new_id("fu"), type="cdu-row-1500kw", name=f"CDU-{row + 1:02d}{'ab'[half]}",
                              x=1.2 if half == 0 else width - 1.2, y=y, row=str(row + 1)))
        for segment in range(math.ceil(RACKS_PER_ROW / RACKS_PER_BUSBAR)):
            x1 = 2.8 + segment * RACKS_PER_BUSBAR * 0.8
            for side, dy in (("A", -0.3), ("B", 0.3)):
                doc.add(BusbarRun(id=doc.new_id("bus"), type="busbar-800a",
                                  name=f"BB-{side}{row + 1:02d}-{segment + 1}", x1=x1, y1=y + dy,
                                  x2=x1 + RACKS_PER_BUSBAR * 0.8, y2=y + dy, side=side, row=str(row + 1)))
    busbars = list(doc.busbars.values())
    cdus = list(doc.floor_units.values())
    for index, rack in enumerate(racks):
        row, pos = divmod(index, RACKS_PER_ROW)
        segment = pos // RACKS_PER_BUSBAR
        per_row = 2 * math.ceil(RACKS_PER_ROW / RACKS_PER_BUSBAR)
        rack.feed_a = busbars[row * per_row + 2 * segment].id
        rack.feed_b = busbars[row * per_row + 2 * segment + 1].id
        rack.cdu = cdus[2 * row + (0 if pos < RACKS_PER_ROW // 2 else 1)].id
        doc.add(rack)
    return racks


def build_plan(gpus: int) -> Document:
    """A plan with ``gpus`` GPUs (a multiple of 8), its facility and a cabled fabric."""
    doc = Document()
    doc.meta.project = f"Benchmark {gpus} GPUs"
    doc.basis.load_basis = "steady"
    catalog = doc.catalog
    k = catalog[SWITCH].port_count
    node_count = gpus // 8
    su_nodes = k // 2
    su_count = math.ceil(node_count / su_nodes)
    rails = 8
    leaves = su_count * rails
    two_tier = leaves <= k
    if two_tier:
        pod_sus, pods = su_count, 1
    else:
        pod_sus = max(1, k // (2 * rails))  # a spine gives k/2 ports down to the pod's leaves
        pods = math.ceil(su_count / pod_sus)
    spines_per_pod = (pod_sus * rails * (k // 2)) // (k // 2 if not two_tier else k)
    spines_per_pod = max(1, spines_per_pod)
    spine_count = spines_per_pod * pods
    cores_per_group = 0 if two_tier else max(1, pods * (k // 2) // k)
    core_count = cores_per_group * spines_per_pod
    switch_count = leaves + spine_count + core_count
    compute_racks = math.ceil(node_count / NODES_PER_RACK)
    network_racks = math.ceil(switch_count / SWITCHES_PER_RACK)
    racks = _layout(doc, compute_racks + network_racks)

    port_names = {NODE: catalog[NODE].port_names(), SWITCH: catalog[SWITCH].port_names()}
    nodes: list[Device] = []
    for n in range(node_count):
        rack = racks[n // NODES_PER_RACK]
        slot = n % NODES_PER_RACK
        device = Device(id=f"dev-{len(doc.devices) + 1}", type=NODE, name=f"N{slot + 1}", rack=rack.id,
                        u=1 + slot * 4, su=n // su_nodes + 1, rail=0)
        doc.add(device)
        nodes.append(device)
    switch_racks = racks[compute_racks:]

    def add_switch(index: int, name: str, role: str, **fabric: int) -> Device:
        rack = switch_racks[index // SWITCHES_PER_RACK]
        device = Device(id=f"dev-{len(doc.devices) + 1}", type=SWITCH, name=name, rack=rack.id,
                        u=1 + index % SWITCHES_PER_RACK, role=role, **fabric)
        doc.add(device)
        return device

    leaf = [add_switch(i, f"L{i + 1}", "leaf", su=i // rails + 1, rail=i % rails + 1) for i in range(leaves)]
    spine = [add_switch(leaves + i, f"S{i + 1}", "spine", pod=i // spines_per_pod + 1) for i in range(spine_count)]
    core = [add_switch(leaves + spine_count + i, f"C{i + 1}", "core") for i in range(core_count)]

    rack_of = {r.id: r for r in racks}

    router = Router(doc)

    def connect(a: Device, a_port: str, b: Device, b_port: str, tier: str, rail: int = 0) -> None:
        ra, rb = rack_of[a.rack], rack_of[b.rack]
        routed = router.route(a.id, b.id, tier)
        label = f"{ra.name}-U{a.u}-{a.name}-{a_port} ↔ {rb.name}-U{b.u}-{b.name}-{b_port}"
        doc.add(Link(id=f"link-{len(doc.links) + 1}", a_device=a.id, a_port=a_port, b_device=b.id, b_port=b_port,
                     tier=tier, rail=rail, media=routed.media, length_m=routed.length_m, stock_m=routed.stock_m,
                     label=label))

    for n, node in enumerate(nodes):
        su, slot = divmod(n, su_nodes)
        for rail in range(rails):
            connect(node, port_names[NODE][rail], leaf[su * rails + rail], port_names[SWITCH][slot], "node-leaf", rail + 1)
    uplinks = k // 2 if not two_tier or leaves > 1 else 0
    for li, lf in enumerate(leaf):
        pod = li // (pod_sus * rails)
        pod_spines = spine[pod * spines_per_pod:(pod + 1) * spines_per_pod]
        index_in_pod = li % (pod_sus * rails)
        for j in range(uplinks):
            sp = pod_spines[j % len(pod_spines)]
            per_spine = uplinks // len(pod_spines)
            down_port = index_in_pod * per_spine + j // len(pod_spines)
            connect(lf, port_names[SWITCH][su_nodes + j], sp, port_names[SWITCH][down_port], "leaf-spine")
    if core:
        for si, sp in enumerate(spine):
            pod, j = divmod(si, spines_per_pod)
            group = core[j * cores_per_group:(j + 1) * cores_per_group]
            per_core = (k // 2) // len(group)
            for u in range(k // 2):
                cr = group[u % len(group)]
                core_port = pod * per_core + u // len(group)
                connect(sp, port_names[SWITCH][k // 2 + u], cr, port_names[SWITCH][core_port], "spine-core")
    return doc


if __name__ == "__main__":
    import sys

    plan = build_plan(int(sys.argv[1]) if len(sys.argv) > 1 else 256)
    print(len(plan.racks), "racks", len(plan.devices), "devices", len(plan.links), "links")
