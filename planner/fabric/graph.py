"""The fabric as a networkx graph: reachability, hop counts, leaf spreading and bisection bandwidth.

Vertices are devices (a GPU node is one vertex: its GPUs talk over the in-node NVLink mesh);
an edge carries ``links`` (cable count) and ``gbps`` (their bandwidth). The network rules and
the tests ask their questions of this graph, so "every GPU reaches every other" is a graph
fact, not an assumption about the generator. Only the compute fabric's cables are edges: a
storage, management, power or coolant cable joins no two GPUs' collectives.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx

from planner.model.catalog import NODE
from planner.model.document import Document
from planner.model.objects import TIER_LEAF_SPINE
from planner.model.ports import COMPUTE


def fabric_graph(doc: Document) -> nx.Graph:
    """Devices with at least one compute cable (and every GPU node), joined by those cables."""
    graph = nx.Graph()
    compute = doc.links_in(COMPUTE)
    cabled = {end for link in compute.values() for end in (link.a_device, link.b_device)}
    for device in doc.devices.values():
        item = doc.catalog[device.type]
        if item.kind == NODE or device.id in cabled:
            graph.add_node(device.id, role=device.role or item.kind, rail=device.rail)
    for link in compute.values():
        a, b = link.a_device, link.b_device
        speed = min(doc.catalog[doc.devices[a].type].port_speed_gbps, doc.catalog[doc.devices[b].type].port_speed_gbps)
        if graph.has_edge(a, b):
            graph[a][b]["links"] += 1
            graph[a][b]["gbps"] += speed
        else:
            graph.add_edge(a, b, links=1, gbps=speed)
    return graph


def gpu_nodes(graph: nx.Graph) -> list[str]:
    return [n for n, data in graph.nodes(data=True) if data["role"] == NODE]


def all_nodes_reachable(graph: nx.Graph) -> bool:
    """Every GPU node reaches every other through the fabric."""
    nodes = gpu_nodes(graph)
    if len(nodes) < 2:
        return True
    component = nx.node_connected_component(graph, nodes[0])
    return all(n in component for n in nodes)


def max_switch_hops(graph: nx.Graph, sources: int = 3) -> int:
    """Most switches a packet crosses between two GPU nodes (BFS from a few nodes; fat-trees are
    symmetric, so the first, middle and last node see the worst case)."""
    nodes = gpu_nodes(graph)
    if len(nodes) < 2:
        return 0
    picks = {nodes[0], nodes[len(nodes) // 2], nodes[-1]} if sources >= 3 else {nodes[0]}
    node_set = set(nodes)
    worst = 0
    for source in picks:
        lengths = nx.single_source_shortest_path_length(graph, source)
        worst = max([worst, *(d - 1 for n, d in lengths.items() if n in node_set and n != source)])
    return worst


def leaf_spread(doc: Document, leaf_id: str) -> Counter:
    """Uplink cables from one leaf to each spine it connects to."""
    counts: Counter = Counter()
    for link in doc.links_of(leaf_id):
        if link.tier == TIER_LEAF_SPINE:
            counts[link.b_device if link.a_device == leaf_id else link.a_device] += 1
    return counts


def bisection_gbps(graph: nx.Graph, nodes: list[str]) -> float:
    """Bandwidth across the cut between the first and second half of ``nodes`` (minimum cut)."""
    half = len(nodes) // 2
    if half == 0:
        return 0.0
    flow = nx.DiGraph()
    for a, b, data in graph.edges(data=True):
        flow.add_edge(a, b, capacity=data["gbps"])
        flow.add_edge(b, a, capacity=data["gbps"])
    for n in nodes[:half]:
        flow.add_edge("_source", n)
    for n in nodes[half: 2 * half]:
        flow.add_edge(n, "_sink")
    value, _ = nx.minimum_cut(flow, "_source", "_sink")
    return float(value)
