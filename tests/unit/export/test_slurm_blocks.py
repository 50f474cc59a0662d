"""Slurm block topology (issue 22): topology.yaml read back with PyYAML and topology.conf with
Slurm's key=value syntax, both checked against the rules of ``topology.yaml(5)`` and
``topology.conf(5)`` (SchedMD/slurm ``doc/man/man5``): "Each block must have at least the
planning base block size count of nodes. Successive BlockSizes must be a power of two larger
than the prior values", block names unique; and what slurmctld itself enforces when it reads
them (``src/plugins/topology/block/block_record.c``, ``_read_topo_file`` and
``block_record_validate``: every size a multiple of the base by a power of two no higher than
2^15, no block with fewer nodes than the base). On top, the plan's own rule: the larger blocks
are SUs of one pod or whole pods, as Slurm joins neighbouring blocks (block i … i + 2^k − 1 for i
a multiple of 2^k, block_record.c)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
import yaml

from planner.export.registry import export_to
from planner.export.slurm import BLOCK, SlurmOptions, SlurmTree
from planner.fabric.sizing import node_devices
from planner.io import save
from planner.io.atomic_folder import EXPORT_MARKER
from planner.layout.templates import build_template
from planner.model.document import Document

from .test_hostlist import expand
from .test_slurm import read_conf


def export(doc: Document, tmp_path, topology: str | None = None) -> dict[str, str]:
    folder = tmp_path / "slurm"
    export_to(doc, "slurm", folder, SlurmOptions(topology=topology) if topology else None)
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name != EXPORT_MARKER}


def check_block_rules(sizes: list[int], blocks: list[tuple[str, list[str]]]) -> None:
    """topology.yaml(5) / topology.conf(5) and block_record.c, as in the module docstring."""
    assert sizes and all(isinstance(size, int) and size > 0 for size in sizes)
    base = sizes[0]
    for before, after in itertools.pairwise(sizes):
        ratio, rest = divmod(after, before)
        assert rest == 0 and ratio > 1 and ratio & (ratio - 1) == 0, sizes  # a power of two larger
    assert all(size % base == 0 and (size // base).bit_length() - 1 <= 15 for size in sizes)
    names = [name for name, _ in blocks]
    assert len(names) == len(set(names))
    assert all(len(nodes) >= base for _, nodes in blocks), "a block below the base is fatal to slurmctld"
    every = [node for _, nodes in blocks for node in nodes]
    assert len(every) == len(set(every)), "a node in two blocks"


def plan_pods(doc: Document) -> dict[str, int]:
    """Hostname → the pod of the leaves its GPU ports are cabled to (from the plan's cables)."""
    leaves = {d.id: d for d in doc.devices.values() if d.role == "leaf"}
    pods = {}
    for node in node_devices(doc):
        reached = {leaves[link.b_device if link.a_device == node.id else link.a_device].pod
                   for link in doc.links_of(node.id) if {link.a_device, link.b_device} & leaves.keys()}
        if reached:
            pods[doc.hostname(node)] = min(reached)
    return pods


def check_pods_whole(sizes: list[int], blocks: list[tuple[str, list[str]]], pods: dict[str, int]) -> None:
    """Each larger block (2^k neighbouring blocks) is inside one pod or made of whole pods."""
    block_pods = []
    for _, nodes in blocks:
        (pod,) = {pods[node] for node in nodes}  # a block (an SU) lies in one pod
        block_pods.append(pod)
    for size in sizes[1:]:
        span = size // sizes[0]
        for start in range(0, len(blocks), span):
            group = block_pods[start:start + span]
            assert len(set(group)) == 1 or all(group.count(p) == block_pods.count(p) for p in group), (size, group)


def yaml_block(text: str) -> tuple[list[int], list[tuple[str, list[str]]], list[dict]]:
    topologies = yaml.safe_load(text)
    (block,) = [t["block"] for t in topologies if "block" in t]
    return block["block_sizes"], [(b["block"], expand(b["nodes"])) for b in block["blocks"]], topologies


@pytest.mark.parametrize("nodes", [8, 100, 260])
def test_topology_yaml_blocks_follow_slurms_rules_and_keep_pods_whole(nodes, tmp_path):
    doc = build_template("pod" if nodes == 8 else "hall", nodes=nodes)
    sizes, blocks, topologies = yaml_block(export(doc, tmp_path)["topology.yaml"])
    assert [t["topology"] for t in topologies] == ["fabric", "su-blocks"]
    assert sum(t["cluster_default"] is True for t in topologies) == 1
    assert all(next(iter(t)) == "topology" for t in topologies)  # "Must be the first attribute"
    check_block_rules(sizes, blocks)
    check_pods_whole(sizes, blocks, plan_pods(doc))
    # 8 nodes: one SU; 100: SUs of 32, 32, 32, 4 in one pod; 260: eight of 32 and one of 4, a pod each.
    expected = {8: ([8], 1), 100: ([32, 64], 3), 260: ([32, 64, 128, 256], 8)}[nodes]
    assert (sizes, len(blocks)) == expected


def test_sizes_stop_where_neighbouring_blocks_would_straddle_pods():
    def sizes(pods: list[int]) -> list[int]:
        tree = SlurmTree(su_nodes={su: [f"n{su}-{i}" for i in range(8)] for su in range(1, len(pods) + 1)},
                         su_pods={su: {pod} for su, pod in enumerate(pods, start=1)})
        return tree.block_sizes()

    assert sizes([1, 1, 2, 2, 3, 3, 4, 4]) == [8, 16, 32, 64]  # pairs are pods, fours are two whole pods
    assert sizes([1, 1, 1, 2, 2, 2]) == [8]  # any pair or four would cut a pod of three SUs
    assert sizes([1, 1, 1, 1, 2, 2]) == [8, 16, 32]  # 4 = pod 1; (pod 2) is a whole pod on its own
    short = SlurmTree(su_nodes={1: ["a"] * 32, 2: ["b"] * 20, 3: ["c"] * 3}, su_pods={1: {1}, 2: {1}, 3: {1}})
    assert short.blocks() == [1, 2] and short.short() == [3] and short.block_sizes() == [20, 40]


def test_slurm_topology_block_puts_the_same_blocks_in_topology_conf(tmp_path):
    doc = build_template("hall", nodes=100)
    files = export(doc, tmp_path, BLOCK)
    records = read_conf(files["topology.conf"])
    conf_blocks = [(r["blockname"], expand(r["nodes"])) for r in records if "blockname" in r]
    (conf_sizes,) = [[int(v) for v in r["blocksizes"].split(",")] for r in records if "blocksizes" in r]
    assert not any("switchname" in r for r in records)
    sizes, blocks, topologies = yaml_block(files["topology.yaml"])
    assert (conf_sizes, conf_blocks) == (sizes, blocks)
    check_block_rules(conf_sizes, conf_blocks)
    assert [t["cluster_default"] for t in topologies] == [False, True]  # the blocks are the default
    assert "TopologyPlugin=topology/block" in files["README.txt"] and "su4 (4 nodes)" in files["README.txt"]
    (tmp_path / "tree").mkdir()
    tree = export(doc, tmp_path / "tree")
    assert [t["cluster_default"] for t in yaml.safe_load(tree["topology.yaml"])] == [True, False]
    assert all("switchname" in r for r in read_conf(tree["topology.conf"]))


def test_the_command_line_takes_slurm_topology_for_slurm_only(tmp_path):
    plan = tmp_path / "pod.hall"
    save(build_template("pod", nodes=8), plan)
    run = [sys.executable, "-I", "-m", "planner", "export", str(plan)]
    done = subprocess.run([*run, "--to", "slurm", "--slurm-topology", "block", "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    conf = read_conf((tmp_path / "out" / "topology.conf").read_text(encoding="utf-8"))
    assert conf[-1] == {"blocksizes": "8"} and conf[0]["blockname"] == "su1"
    wrong = subprocess.run([*run, "--to", "cables-csv", "--slurm-topology", "block", "-o", str(tmp_path / "x.csv")],
                           capture_output=True, text=True, check=False)
    assert wrong.returncode == 2 and "--slurm-topology" in wrong.stderr and not (tmp_path / "x.csv").exists()
