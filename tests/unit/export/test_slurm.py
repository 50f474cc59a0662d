"""`--to slurm`: topology.conf, topology.yaml and nodes.conf read back as Slurm reads them (its
config syntax, PyYAML, its hostlist semantics) and checked against the plan's cables."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest
import yaml

from planner.export.registry import export_to
from planner.export.slurm import SlurmError, slurm_tree
from planner.fabric.sizing import node_devices
from planner.io import save
from planner.io.atomic_folder import EXPORT_MARKER
from planner.layout.templates import build_template
from planner.model.document import Document, natural_key
from planner.model.objects import Device, Rack

from .test_hostlist import expand


def read_conf(text: str) -> list[dict[str, str]]:
    """slurm.conf-style lines: '#' to the end of a line is a comment, key=value pairs split on
    white space, keys case-insensitive (parse_config.c)."""
    records = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            records.append({key.lower(): value for key, _, value in (part.partition("=") for part in line.split())})
    return records


def export(doc: Document, tmp_path) -> dict[str, str]:
    tmp_path.mkdir(exist_ok=True)
    folder = tmp_path / "slurm"
    export_to(doc, "slurm", folder)
    return {path.name: path.read_text(encoding="utf-8") for path in folder.iterdir() if path.name != EXPORT_MARKER}


def plan_sus(doc: Document) -> dict[int, set[str]]:
    """The plan's SUs from its cables: the SU of the leaves each node's GPU ports land on."""
    leaves = {d.id: d for d in doc.devices.values() if d.role == "leaf"}
    sus: dict[int, set[str]] = {}
    for node in node_devices(doc):
        reached = {leaves[link.b_device if link.a_device == node.id else link.a_device].su
                   for link in doc.links_of(node.id) if {link.a_device, link.b_device} & leaves.keys()}
        assert len(reached) <= 1, doc.hostname(node)
        if reached:
            sus.setdefault(reached.pop(), set()).add(doc.hostname(node))
    return sus


def check_tree(switches: dict[str, dict[str, list[str]]], doc: Document) -> dict[str, set[str]]:
    """Every node under exactly one leaf-level switch, which is its SU; one root reaching every
    switch; a switch has nodes or child switches, never both. Returns leaf switch → nodes."""
    leaf_level = {name: set(members["nodes"]) for name, members in switches.items() if "nodes" in members}
    assert all(("nodes" in m) != ("children" in m) for m in switches.values())
    assert all(len(name) <= 64 for name in switches)
    placed = Counter(node for nodes in leaf_level.values() for node in nodes)
    assert set(placed) == {doc.hostname(n) for n in node_devices(doc)} and set(placed.values()) == {1}
    assert sorted(leaf_level.values(), key=sorted) == sorted(plan_sus(doc).values(), key=sorted)
    children = {child for members in switches.values() for child in members.get("children", [])}
    assert children <= set(switches)
    roots = set(switches) - children
    assert len(roots) == 1, roots
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        seen.add(name)
        todo += switches[name].get("children", [])
    assert seen == set(switches)
    return leaf_level


def conf_switches(text: str) -> dict[str, dict[str, list[str]]]:
    switches = {}
    for record in read_conf(text):
        assert record["switchname"] not in switches
        switches[record["switchname"]] = {("nodes" if key == "nodes" else "children"): expand(value)
                                          for key, value in record.items() if key in ("nodes", "switches")}
    return switches


@pytest.fixture(scope="module")
def three_tier() -> Document:
    """260 nodes: nine SUs (eight of 32, one of 4), a pod each, 64 cores."""
    return build_template("hall", nodes=260)


def test_topology_conf_is_a_connected_tree_with_one_switch_per_su(three_tier, tmp_path):
    files = export(three_tier, tmp_path)
    assert sorted(files) == ["README.txt", "nodes.conf", "topology.conf", "topology.yaml"]
    switches = conf_switches(files["topology.conf"])
    leaf_level = check_tree(switches, three_tier)
    assert sorted(len(nodes) for nodes in leaf_level.values()) == [4] + [32] * 8
    assert switches["core"]["children"] == [f"pod{p}" for p in range(1, 10)]
    assert all(switches[f"pod{p}"]["children"] == [f"su{p}"] for p in range(1, 10))


def test_topology_yaml_holds_the_same_tree_as_default_and_one_block_per_su(three_tier, tmp_path):
    files = export(three_tier, tmp_path)
    topologies = yaml.safe_load(files["topology.yaml"])
    assert [t["topology"] for t in topologies] == ["fabric", "su-blocks"]
    assert [t["cluster_default"] for t in topologies] == [True, False]
    tree = {s["switch"]: {key: expand(s[key]) for key in ("nodes", "children") if key in s}
            for s in topologies[0]["tree"]["switches"]}
    assert tree == conf_switches(files["topology.conf"])
    leaf_level = check_tree(tree, three_tier)
    block = topologies[1]["block"]
    blocks = {b["block"]: set(expand(b["nodes"])) for b in block["blocks"]}
    # Every SU but su9 (4 nodes, under half of 32): a block below the base is fatal to slurmctld
    # (block_record.c), and a base of 4 would count a one-SU job as eight blocks.
    assert blocks == {name: nodes for name, nodes in leaf_level.items() if name != "su9"}
    assert block["block_sizes"] == [32, 64, 128, 256]  # the base, doubled while 2^k blocks exist (8)


def test_the_tree_is_what_merging_switches_with_the_same_children_gives(three_tier, tmp_path):
    """NVIDIA topograph's rule (pkg/topology/merger.go), applied here to the plan's own cables
    tier by tier, must give the switches written: SUs, then pods, then one core."""
    doc = three_tier
    host = {d.id: doc.hostname(d) for d in doc.devices.values()}
    role = {d.id: d.role or "node" for d in doc.devices.values()}
    below: dict[str, set[str]] = {}
    for link in doc.links_in("compute").values():  # the compute fabric is Slurm's tree
        a, b = sorted((link.a_device, link.b_device), key=lambda d: ["node", "leaf", "spine", "core"].index(role[d]))
        below.setdefault(b, set()).add(a)
    merged: dict[str, frozenset] = {}  # switch id → the merged switch it became (its children)
    for tier in ("leaf", "spine", "core"):
        for switch, children in below.items():
            if role[switch] == tier:
                merged[switch] = frozenset(host[c] if tier == "leaf" else merged[c] for c in children)
    written = conf_switches(export(doc, tmp_path)["topology.conf"])

    def members(name: str) -> frozenset:
        entry = written[name]
        return frozenset(entry["nodes"]) if "nodes" in entry else frozenset(members(c) for c in entry["children"])

    for tier, prefix in (("leaf", "su"), ("spine", "pod"), ("core", "core")):
        groups = {group for switch, group in merged.items() if role[switch] == tier}
        assert groups == {members(name) for name in written if name.startswith(prefix)}, tier


def test_two_tiers_one_pod_over_the_sus_and_a_single_switch_alone(tmp_path):
    two = build_template("hall", nodes=100)
    switches = conf_switches(export(two, tmp_path / "two")["topology.conf"])
    check_tree(switches, two)
    assert switches["pod1"]["children"] == ["su1", "su2", "su3", "su4"] and "core" not in switches
    starter = build_template("starter", nodes=4)
    files = export(starter, tmp_path / "one")
    assert conf_switches(files["topology.conf"]) == {"su1": {"nodes": [f"R01-N{n}" for n in range(1, 5)]}}
    assert yaml.safe_load(files["topology.yaml"])[1]["block"]["block_sizes"] == [4]


def test_nodes_conf_names_every_node_once_with_its_gpus_and_a_partition_per_type(tmp_path):
    doc = build_template("hall", nodes=64)
    rack = Rack(id=doc.new_id("rack"), type=next(iter(doc.racks.values())).type, name="X01", x=2.0, y=15.0)
    doc.add(rack)
    for u in (1, 11):  # brought in from elsewhere: another type, not on the fabric
        doc.add(Device(id=doc.new_id("dev"), type="node-8gpu-air-8u", name=f"G{u}", rack=rack.id, u=u))
    files = export(doc, tmp_path)
    records = read_conf(files["nodes.conf"])
    nodes = [r for r in records if "nodename" in r]
    named = Counter(name for r in nodes for name in expand(r["nodename"]))
    assert set(named) == {doc.hostname(d) for d in node_devices(doc)} and set(named.values()) == {1}
    assert all(r["gres"] == "gpu:8" and "cpus" not in r and "realmemory" not in r for r in nodes)
    partitions = {r["partitionname"]: r for r in records if "partitionname" in r}
    assert set(expand(partitions["node-8gpu-air-8u"]["nodes"])) == {"X01-G1", "X01-G11"}
    assert len(expand(partitions["node-8gpu-liquid-4u"]["nodes"])) == 64
    assert partitions["node-8gpu-liquid-4u"]["default"] == "YES" and partitions["node-8gpu-air-8u"]["default"] == "NO"
    # Not cabled: under a switch of their own with no parent, in no block, and the README says so.
    switches = conf_switches(files["topology.conf"])
    assert switches["unlinked"] == {"nodes": ["X01-G1", "X01-G11"]}
    assert not any("unlinked" in m.get("children", []) for m in switches.values())
    blocks = yaml.safe_load(files["topology.yaml"])[1]["block"]["blocks"]
    assert "X01-G1" not in {n for b in blocks for n in expand(b["nodes"])}
    assert "2 node(s) are cabled to no leaf" in files["README.txt"]


def test_a_node_cabled_across_two_sus_goes_under_the_su_most_of_its_gpus_reach(tmp_path):
    doc = build_template("hall", nodes=64)
    node = node_devices(doc)[0]
    su2_leaf = next(d for d in doc.devices.values() if d.role == "leaf" and d.su == 2)
    link = doc.links_of(node.id)[0]
    end = "b_device" if link.a_device == node.id else "a_device"
    doc.set_fields(link.id, {end: su2_leaf.id})
    tree = slurm_tree(doc)
    assert doc.hostname(node) in tree.su_nodes[1] and doc.hostname(node) not in tree.su_nodes[2]
    assert tree.mixed == [doc.hostname(node)]
    assert "cabled to leaves of more than one SU" in export(doc, tmp_path)["README.txt"]


def test_the_readme_explains_the_representation_and_the_install(three_tier, tmp_path):
    readme = export(three_tier, tmp_path)["README.txt"]
    for words in ("topograph", "cluster_default", "same SU", "GresTypes=gpu", "gres.conf", "slurmd -C",
                  "--switches=1", "Topology=su-blocks", "su9: 4 nodes"):
        assert words in readme, words


def without_fabric() -> Document:
    doc = build_template("pod", nodes=8)
    for link_id in list(doc.links):
        doc.remove(link_id)
    for device in [d for d in doc.devices.values() if d.role]:
        doc.remove(device.id)
    return doc


def test_plans_slurm_cannot_take_are_refused_with_one_line(tmp_path):
    with pytest.raises(SlurmError, match="no generated fabric"):
        export(without_fabric(), tmp_path)
    doc = build_template("pod", nodes=8)
    first, second = sorted(node_devices(doc), key=lambda d: natural_key(d.id))[:2]
    doc.set_fields(first.id, {"hostname": "gpu 1,[x]"})
    with pytest.raises(SlurmError, match=r"cannot name 1 node\(s\).*'gpu 1,\[x\]'") as refusal:
        export(doc, tmp_path)
    assert "\n" not in str(refusal.value)
    doc.set_fields(first.id, {"hostname": "gpu1"})
    doc.set_fields(second.id, {"hostname": "gpu1"})
    with pytest.raises(SlurmError, match="belong to more than one node"):
        export(doc, tmp_path)
    assert not (tmp_path / "slurm").exists()


def test_the_command_line_writes_the_folder_or_refuses_with_exit_1(tmp_path):
    good, bad = tmp_path / "good.hall", tmp_path / "bad.hall"
    save(build_template("pod", nodes=8), good)
    save(without_fabric(), bad)
    run = [sys.executable, "-I", "-m", "planner", "export"]
    done = subprocess.run([*run, str(good), "--to", "slurm", "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [EXPORT_MARKER, "README.txt", "nodes.conf",
                                                                    "topology.conf", "topology.yaml"]
    refused = subprocess.run([*run, str(bad), "--to", "slurm", "-o", str(tmp_path / "no")],
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    assert "no generated fabric" in refused.stderr and not (tmp_path / "no").exists()
