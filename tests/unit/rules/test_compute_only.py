"""Every compute-only consumer reads the compute cables only (issue 21): on a pod whose compute
fabric is broken on purpose (a GPU on the wrong rail's leaf, a leaf short of uplinks, a node cut
off), the compute findings (N1, N4, N5, N6), ``fabric_counts``' compute figures, the NCCL
topology, Slurm's topology.conf and the UFM cable validation files stay exactly as they were
when power cords, an out-of-band network, a storage fabric and a coolant hose are cabled by
hand beside it, each cable taking its network's tier from its ports. The out-of-band cables
join the cut-off node to a compute leaf's management port: were they read as compute, N6 would
find the node reachable."""

from __future__ import annotations

import pytest

from planner.commands.base import AddObjects, History, RemoveObjects, SetFields
from planner.export.nccl_topo import node_type_topologies, topology_xml
from planner.export.slurm import _topology_conf, slurm_tree
from planner.export.ufm_cvt import hca_mappings, layout_rows, p2p_rows
from planner.fabric.graph import all_nodes_reachable, bisection_gbps, fabric_graph, gpu_nodes
from planner.fabric.hand import hand_cable, tier_and_rail
from planner.fabric.hand_commands import connect_command
from planner.fabric.sizing import fabric_counts
from planner.layout.templates import build_template
from planner.model.catalog import NODE, RACK_CDU, RACK_PDU
from planner.model.networks import (
    ROLE_INBAND_ACCESS,
    ROLE_INBAND_AGG,
    ROLE_OOB_ACCESS,
    ROLE_STORAGE_LEAF,
    ROLE_STORAGE_SPINE,
    TIER_HOSE,
    TIER_INBAND_ACCESS,
    TIER_INBAND_UPLINK,
    TIER_OOB_ACCESS,
    TIER_POWER_CORD,
    TIER_STORAGE_ACCESS,
    TIER_STORAGE_UPLINK,
    network_of,
)
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, Device
from planner.model.ports import COMPUTE, INBAND, OOB, PSU_INLETS
from planner.rules.engine import Validator

COMPUTE_RULES = ("N1", "N4", "N5", "N6")


def _compute_findings(findings) -> list[tuple[str, str, tuple[str, ...]]]:
    return sorted((f.rule, f.message, tuple(f.subjects)) for f in findings if f.rule in COMPUTE_RULES)


def _graph(doc) -> tuple:
    graph = fabric_graph(doc)
    nodes = gpu_nodes(graph)
    return (sorted(graph.nodes), sorted(tuple(sorted(edge)) for edge in graph.edges), all_nodes_reachable(graph),
            bisection_gbps(graph, nodes))


def _record(doc) -> dict:
    counts = fabric_counts(doc)
    counts.pop("networks")
    counts_compute = fabric_counts(doc)["networks"][COMPUTE]
    return {
        "findings": _compute_findings(Validator(doc).findings),
        "graph": _graph(doc),
        "fabric_counts": counts,
        "compute_counts": counts_compute,
        "nccl": [(t.key, t.file_name, topology_xml(t)) for t in node_type_topologies(doc)],
        "slurm": _topology_conf(slurm_tree(doc), "# header\n"),
        "ufm": (p2p_rows(doc), layout_rows(doc), hca_mappings(doc)),
    }


def _free(doc, device_id: str, port: str) -> None:
    """Remove a cable of another network holding ``port`` (a generated cord or hose), so the
    test cables it by hand."""
    held = [link.id for link in doc.links_of(device_id)
            if (link.a_device, link.a_port) == (device_id, port) or (link.b_device, link.b_port) == (device_id, port)]
    assert all(network_of(doc.links[i]) != COMPUTE for i in held)
    if held:
        History(doc).push(RemoveObjects(held))


def _place(doc, type_key: str, role: str, name: str) -> str:
    """A new device of ``type_key`` in the first rack with room for it."""
    height = doc.catalog[type_key].height_u
    for rack in sorted(doc.racks.values(), key=lambda r: r.name):
        u = doc.lowest_free_u(rack.id, height)
        if u is not None:
            device = Device(id=doc.new_id("dev"), type=type_key, name=name, rack=rack.id, u=u, role=role)
            History(doc).push(AddObjects([device]))
            return device.id
    raise AssertionError(f"no rack has {height} U free for {type_key}")


def _free_outlet(doc, rack_id: str, inlet: str) -> tuple[str, str]:
    """A rack PDU outlet in ``rack_id`` that mates with ``inlet`` and holds no cord."""
    wanted = PSU_INLETS[inlet]
    for pdu in doc.devices_in(rack_id):
        item = doc.catalog[pdu.type]
        if item.kind != RACK_PDU:
            continue
        used = {link.b_port if link.b_device == pdu.id else link.a_port for link in doc.links_of(pdu.id)}
        for name in item.outlets_of_type(wanted):
            if name not in used:
                return pdu.id, name
    raise AssertionError(f"no free {wanted} outlet in {rack_id}")


@pytest.fixture(scope="module")
def broken():
    """The pod with its compute fabric broken three ways, and the ends the test cables by hand."""
    doc = build_template("pod")
    history = History(doc)
    nodes = sorted((d for d in doc.devices.values() if doc.catalog[d.type].kind == NODE), key=lambda d: d.id)
    leaves = {d.rail: d for d in doc.devices.values() if d.role == "leaf" and d.su == 1}
    # N1: node 0's rail-1 and rail-2 cables cross at the leaves
    one, two = (next(link for link in doc.links_of(nodes[0].id) if link.tier == TIER_NODE_LEAF and link.rail == rail)
                for rail in (1, 2))
    history.push(SetFields({one.id: {"b_device": two.b_device, "b_port": two.b_port},
                            two.id: {"b_device": one.b_device, "b_port": one.b_port}}))
    # N4 and N5: a leaf loses two uplinks
    history.push(RemoveObjects([link.id for link in doc.links_of(leaves[3].id) if link.tier == TIER_LEAF_SPINE][:2]))
    # N6: the last node has no compute cable
    cut = nodes[-1]
    history.push(RemoveObjects([link.id for link in doc.links_of(cut.id) if network_of(link) == COMPUTE]))
    return doc, nodes, leaves, cut


def test_non_compute_cables_change_no_compute_consumer(broken):
    doc, nodes, leaves, cut = broken
    catalog = doc.catalog
    oob = _place(doc, catalog.management_switch(OOB).key, ROLE_OOB_ACCESS, "OOB9")
    storage_leaf = _place(doc, leaves[1].type, ROLE_STORAGE_LEAF, "SL9")
    storage_spine = _place(doc, leaves[1].type, ROLE_STORAGE_SPINE, "SS9")
    cages = catalog[leaves[1].type].port_names()
    cdu_type = next(item.key for item in catalog.of_kind(RACK_CDU) if item.coolant_ports)
    manifold = _place(doc, cdu_type, "", "CDU9")
    node = nodes[0]
    ends = {  # (device, port) → (device, port): the cables the test draws by hand
        "bmc": ((cut.id, "BMC"), (oob, "1")),
        "leaf mgmt": ((leaves[1].id, "mgmt0"), (oob, "2")),
        "storage": ((node.id, "S1"), (storage_leaf, cages[0])),
        # the spine end first: the cable is oriented leaf → spine whichever end is picked first
        "storage uplink": ((storage_spine, cages[0]), (storage_leaf, cages[-1])),
        "hose": ((node.id, "SUP1"), (manifold, "SUP2")),
    }
    for (a, a_port), (b, b_port) in ends.values():
        _free(doc, a, a_port)
        _free(doc, b, b_port)
    # a node's PSUs, corded by hand below (the generated cords taken off first)
    corded = nodes[1]
    psus = [f"PSU{i}" for i in range(1, catalog[corded.type].psu_count + 1)]
    generated = {link.a_port: link for link in doc.links_of(corded.id) if link.tier == TIER_POWER_CORD}
    for psu in psus:
        _free(doc, corded.id, psu)
    before = _record(doc)
    assert [f[0] for f in before["findings"]].count("N1") == 2
    assert {"N4", "N5", "N6"} <= {f[0] for f in before["findings"]}
    assert any(cut.id in f[2] for f in before["findings"] if f[0] == "N6")

    validator = Validator(doc)
    history = History(doc)
    made = {}
    for what, ((a, a_port), (b, b_port)) in ends.items():
        change = history.push(connect_command(doc, a, a_port, b, b_port))
        validator.update(change)
        (made[what],) = change.added
    for psu in psus:
        was = generated.get(psu)
        pdu, outlet = (was.b_device, was.b_port) if was else _free_outlet(doc, corded.rack, catalog[corded.type].psu_inlet)
        # the outlet first: the cord is oriented PSU → outlet whichever end is picked first
        change = history.push(connect_command(doc, pdu, outlet, corded.id, psu))
        validator.update(change)
        (made[f"cord {psu}"],) = change.added

    tiers = {what: doc.links[link_id].tier for what, link_id in made.items()}
    assert tiers["bmc"] == tiers["leaf mgmt"] == TIER_OOB_ACCESS
    assert tiers["storage"] == TIER_STORAGE_ACCESS and tiers["storage uplink"] == TIER_STORAGE_UPLINK
    assert tiers["hose"] == TIER_HOSE
    cords = [doc.links[i] for what, i in made.items() if what.startswith("cord")]
    assert len(cords) == len(psus) >= 2
    assert all(c.tier == TIER_POWER_CORD and c.a_device == corded.id and c.media == "" for c in cords)
    for cord in cords:  # drawn by hand to the outlet the generator chose: its length and stock cord
        was = generated.get(cord.a_port)
        if was is not None:
            assert (cord.b_port, cord.length_m, cord.stock_m) == (was.b_port, was.length_m, was.stock_m)
    assert doc.links[made["storage"]].a_device == node.id  # the node end first, as generated
    assert doc.links[made["storage uplink"]].a_device == storage_leaf

    after = _record(doc)
    assert after == before
    assert not before["graph"][2]  # the cut-off node stays cut off: no OOB cable joins it to the fabric
    # no port, speed or reach rule objects to the hand-drawn cables of the other networks
    objections = [f for f in validator.findings if f.rule in ("N2", "N3", "N7") and set(made.values()) & set(f.subjects)]
    assert objections == []
    # an InfiniBand pod's management switches speak Ethernet: N11 judges the compute fabric's only
    assert doc.basis.fabric_kind == "infiniband" and not [f for f in validator.findings if f.rule == "N11"]
    # the live validator, patched cable by cable (``FabricIndex``), says the same
    assert _compute_findings(validator.findings) == before["findings"]
    # and the other networks' counts did see the cables
    networks = fabric_counts(doc)["networks"]
    assert networks[OOB]["links"][TIER_OOB_ACCESS] >= 2
    assert networks["storage"]["switches"][ROLE_STORAGE_LEAF] >= 1


def test_a_hand_drawn_management_uplink_is_oriented_access_first(broken):
    doc = broken[0]
    key = doc.catalog.management_switch(INBAND).key
    access, agg = _place(doc, key, ROLE_INBAND_ACCESS, "MIX"), _place(doc, key, ROLE_INBAND_AGG, "MIAX")
    link = hand_cable(doc, agg, "64", access, "63")  # picked from the aggregation end
    assert (link.tier, link.rail, link.a_device, link.a_port) == (TIER_INBAND_UPLINK, 0, access, "63")
    assert tier_and_rail(doc, access, "1", broken[1][0].id, "E1") == (TIER_INBAND_ACCESS, 0)
    assert link.media and link.stock_m >= link.length_m  # a data cable: routed with media, unlike a cord
