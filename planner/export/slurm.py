"""What Slurm needs to schedule the hall's GPUs on its fabric: ``topology.conf``, ``topology.yaml``,
``nodes.conf`` and a ``README.txt`` saying how to install them (DESIGN §9, issue 14).

Jobs land where the scheduler thinks the network is close. Slurm's tree topology says which
nodes hang under which switch and packs a job under the lowest switch that holds it; a
rail-optimised node, though, is cabled to eight leaves at once (GPU *i* to its SU's rail-*i*
leaf), which a tree whose nodes each sit under one leaf cannot draw. The representation used
is the one NVIDIA's topology generator for Slurm makes of such a fabric (NVIDIA/topograph,
``pkg/topology/merger.go``, applied to the ``ibnetdiscover`` switch tree in ``pkg/ib/ib.go``:
switches of one tier whose children are the same set become one Slurm switch):

- the eight rail leaves of a scalable unit reach the same nodes, so the SU is **one** leaf-level
  switch, ``su<N>``: Slurm's "same leaf switch" is the plan's "same SU", one hop apart on every
  rail;
- the spines of a pod reach the same SUs: one switch ``pod<P>`` over its SUs (two tiers: one pod);
- every core reaches every pod: one switch ``core`` over the pods (three tiers only).

The tree is read from the plan's cables, not assumed: a node is under the SU of the leaves its
GPU ports are cabled to (the SU most of them are on, if a mis-cabling splits it), an SU under
each pod whose spines its leaves are cabled to, a pod under ``core`` when its spines reach a
core. Nodes cabled to no leaf go under a switch ``unlinked`` with no parent: Slurm then never
spans a job across them and the fabric, which is the truth.

``topology.yaml`` (Slurm 25.05 and later) holds that tree and a block topology with one block per
SU, for partitions that want SU-aligned, unfragmented placement; ``topology.conf`` holds the tree
(``TopologyPlugin=topology/tree``) or, with ``--slurm-topology block``, the same blocks as
``BlockName=``/``BlockSizes=`` lines (``topology/block``), and that one is then the YAML's
``cluster_default`` too. The block rules are Slurm's (``topology.conf(5)``/``topology.yaml(5)``:
"Each block must have at least the planning base block size count of nodes. Successive
BlockSizes must be a power of two larger than the prior values"; slurmctld stops with a fatal
error otherwise, ``src/plugins/topology/block/block_record.c``, which also caps the levels at
2^15); ``SlurmTree.block_sizes`` derives them from the plan as topograph does
(``pkg/translate/block.go``: the base, then 2, 4 … times it up to the largest power of two of
blocks), with its pods kept whole. Hostnames are the plan's (``Document.hostname``), in hostlist
syntax (``hostlist``).
A plan without a generated fabric, or whose node hostnames Slurm cannot take, is refused with
one line: a topology guessed without switches would let the scheduler spread jobs blindly.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from planner.export.hostlist import compress, is_hostname
from planner.export.options import ExportOptions
from planner.export.pages import TitleBlock
from planner.export.printed_text import clip, one_line
from planner.fabric.sizing import node_devices
from planner.model.document import Document
from planner.model.networks import in_compute_fabric
from planner.model.objects import Device
from planner.model.ports import COMPUTE


class SlurmError(ValueError):
    """The plan cannot be handed to Slurm as it is (no fabric, hostnames Slurm cannot take); one line."""


TREE_TOPOLOGY = "fabric"
BLOCK_TOPOLOGY = "su-blocks"
#: What ``--slurm-topology`` chooses for topology.conf (and as topology.yaml's cluster default).
TREE, BLOCK = "tree", "block"
SLURM_TOPOLOGIES = (TREE, BLOCK)
#: block_record.c: a BlockSizes entry of more than 2^15 base blocks is invalid.
MAX_BLOCK_LEVEL = 15
UNLINKED = "unlinked"
#: Hostnames named in a refusal or a README warning before "… and N more".
SHOWN = 5
_PARTITION_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
#: A YAML 1.1 plain scalar that PyYAML and libyaml read back as the same string.
_YAML_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_.,\[\]-]*\Z")
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


@dataclass
class SlurmOptions(ExportOptions):
    """The export options with the Slurm export's own: which topology ``topology.conf`` carries
    (``tree`` or ``block``) and topology.yaml makes the cluster default."""

    topology: str = TREE


@dataclass
class SlurmTree:
    """The plan's fabric as Slurm's topology/tree sees it (see the module docstring).

    Hostnames throughout; SUs and pods by the numbers the fabric generator gave their switches.
    """

    su_nodes: dict[int, list[str]] = field(default_factory=dict)
    su_leaves: dict[int, list[str]] = field(default_factory=dict)
    su_pods: dict[int, set[int]] = field(default_factory=dict)
    pod_spines: dict[int, list[str]] = field(default_factory=dict)
    core_pods: set[int] = field(default_factory=set)
    cores: list[str] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)
    #: Nodes whose GPU ports are cabled to leaves of more than one SU (placed by the majority).
    mixed: list[str] = field(default_factory=list)

    @property
    def pods(self) -> list[int]:
        """Pods holding at least one SU with nodes, in order."""
        return sorted({pod for su in self.su_nodes for pod in self.su_pods.get(su, ())})

    def switches(self) -> list[tuple[str, str, list[str], str]]:
        """(switch name, "nodes" or "children", members, comment): SUs first, then pods, then core."""
        rows = []
        for su, nodes in self.su_nodes.items():
            rows.append((f"su{su}", "nodes", nodes,
                         f"SU {su}: {len(nodes)} nodes; rail leaves {_names(self.su_leaves.get(su, []))}"))
        if self.unlinked:
            rows.append((UNLINKED, "nodes", self.unlinked,
                         f"{len(self.unlinked)} nodes cabled to no leaf: no parent, no job spans them and the fabric"))
        pods = self.pods
        for pod in pods:
            sus = [f"su{su}" for su in self.su_nodes if pod in self.su_pods.get(su, ())]
            rows.append((f"pod{pod}", "children", sus, f"pod {pod}: spines {_names(self.pod_spines.get(pod, []))}"))
        core_pods = [f"pod{pod}" for pod in pods if pod in self.core_pods]
        if core_pods:
            rows.append(("core", "children", core_pods, f"core: {_names(self.cores)}"))
        return rows

    def su_pod(self, su: int) -> int:
        return min(self.su_pods.get(su) or {0})

    def blocks(self) -> list[int]:
        """The SUs that are blocks, by pod and then number: Slurm joins neighbouring blocks into
        the larger ones (block_record.c: blocks i … i + 2^k − 1 for i a multiple of 2^k), so one
        pod's SUs stand together. An SU with fewer than half a full SU's nodes is none (``short``)."""
        largest = max(len(nodes) for nodes in self.su_nodes.values())
        return sorted((su for su, nodes in self.su_nodes.items() if 2 * len(nodes) >= largest),
                      key=lambda su: (self.su_pod(su), su))

    def short(self) -> list[int]:
        """SUs left out of the block topology. Slurm refuses a block below the base size, and
        topograph's base, the smallest domain, would then be a few leftover nodes: Slurm would
        count every job in blocks of that few, so a one-SU job would need several SUs. Left out,
        they are only in the tree (Slurm warns "blocks lack access to N nodes")."""
        blocks = set(self.blocks())
        return [su for su in self.su_nodes if su not in blocks]

    def block_sizes(self) -> list[int]:
        """The base, the smallest block's node count (never above a block's nodes, as Slurm
        requires), then base × 2^k for each k up to log2(blocks) (topograph) and 15 (Slurm) whose
        groups of 2^k neighbouring blocks each lie inside one pod or are whole pods: a larger
        block is then an SU group behind one pod's spines, or pods behind the core."""
        blocks = self.blocks()
        pods = [self.su_pod(su) for su in blocks]
        sizes = [min(len(self.su_nodes[su]) for su in blocks)]
        for level in range(1, min(len(blocks).bit_length() - 1, MAX_BLOCK_LEVEL) + 1):
            span = 1 << level
            groups = [pods[start:start + span] for start in range(0, len(pods), span)]
            if all(len(set(g)) == 1 or all(g.count(pod) == pods.count(pod) for pod in g) for g in groups):
                sizes.append(sizes[0] * span)
        return sizes


def slurm_tree(doc: Document) -> SlurmTree:
    """The tree of the plan's cabled fabric. SlurmError (one line) when the plan has no generated
    fabric or a node hostname Slurm cannot take."""
    nodes = node_devices(doc)
    if not nodes:
        raise SlurmError("the plan has no GPU nodes: there is nothing for Slurm to schedule")
    switches = {d.id: d for d in doc.devices.values() if in_compute_fabric(d.role)}
    if not any(d.role == "leaf" for d in switches.values()):
        raise SlurmError("the plan has no generated fabric (no leaf switches), so Slurm's topology is unknown: "
                         "generate it first (planner fabric FILE -o OUT, or Plan ▸ Generate fabric…)")
    hostnames = check_hostnames(doc, nodes)
    node_ids = {d.id for d in nodes}
    on_leaf: dict[str, Counter[int]] = {}
    tree = SlurmTree()
    for link in doc.links_in(COMPUTE).values():  # the storage and management networks are not Slurm's tree
        a, b = switches.get(link.a_device), switches.get(link.b_device)
        if a is None and b is not None and b.role == "leaf" and link.a_device in node_ids:
            on_leaf.setdefault(link.a_device, Counter())[b.su] += 1
        elif b is None and a is not None and a.role == "leaf" and link.b_device in node_ids:
            on_leaf.setdefault(link.b_device, Counter())[a.su] += 1
        elif a is not None and b is not None:
            roles = {a.role: a, b.role: b}
            if "leaf" in roles and "spine" in roles:
                tree.su_pods.setdefault(roles["leaf"].su, set()).add(roles["spine"].pod)
            elif "spine" in roles and "core" in roles:
                tree.core_pods.add(roles["spine"].pod)
    by_su: dict[int, list[str]] = {}
    for node in nodes:
        counts = on_leaf.get(node.id)
        if not counts:
            tree.unlinked.append(hostnames[node.id])
            continue
        su = min(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        by_su.setdefault(su, []).append(hostnames[node.id])
        if len(counts) > 1:
            tree.mixed.append(hostnames[node.id])
    if not by_su:
        raise SlurmError("no GPU node is cabled to a leaf switch, so Slurm's topology is unknown: "
                         "generate the fabric first (planner fabric FILE -o OUT, or Plan ▸ Generate fabric…)")
    tree.su_nodes = dict(sorted(by_su.items()))
    for device in sorted(switches.values(), key=lambda d: (d.su, d.pod, d.rail, d.name)):
        if device.role == "leaf":
            tree.su_leaves.setdefault(device.su, []).append(doc.hostname(device))
        elif device.role == "spine":
            tree.pod_spines.setdefault(device.pod, []).append(doc.hostname(device))
        else:
            tree.cores.append(doc.hostname(device))
    return tree


def check_hostnames(doc: Document, nodes: list[Device]) -> dict[str, str]:
    """Each node's hostname by device id; SlurmError when Slurm cannot take one or two nodes share one."""
    hostnames = {node.id: doc.hostname(node) for node in nodes}
    bad = [name for name in hostnames.values() if not is_hostname(name)]
    if bad:
        raise SlurmError(f"Slurm cannot name {len(bad)} node(s) by their hostname: {_listing(bad)}. "
                         "Give them hostnames of letters, digits, '-', '_' and '.', at most 63 between dots (Properties ▸ "
                         "Hostname)")
    twice = [name for name, count in Counter(hostnames.values()).items() if count > 1]
    if twice:
        raise SlurmError(f"{len(twice)} hostname(s) belong to more than one node: {_listing(twice)}; "
                         "Slurm needs one name per node")
    return hostnames


def write_slurm(doc: Document, folder: Path, options: ExportOptions | None = None) -> None:
    """Fill ``folder`` with topology.conf, topology.yaml, nodes.conf and README.txt; ``options``
    a ``SlurmOptions`` to have topology.conf carry the blocks."""
    options = options or ExportOptions()
    kind = options.topology if isinstance(options, SlurmOptions) else TREE
    if kind not in SLURM_TOPOLOGIES:
        raise SlurmError(f"unknown Slurm topology {kind!r} (choose {' or '.join(SLURM_TOPOLOGIES)})")
    tree = slurm_tree(doc)
    options.report(0.3)
    block = TitleBlock.of(doc, options, "Slurm topology")
    facts = " — ".join(clip(one_line(fact), 80) for fact in (
        block.project, block.hall, f"revision {block.revision}", block.date, block.file_name) if fact)
    header = f"# Written by Hall Planner from {facts}.\n# See README.txt beside this file.\n"
    types = _node_types(doc)
    files = {
        "topology.conf": _block_conf(tree, header) if kind == BLOCK else _topology_conf(tree, header),
        "topology.yaml": _topology_yaml(tree, header, kind),
        "nodes.conf": _nodes_conf(types, header),
        "README.txt": _readme(tree, types, facts, kind),
    }
    for name, text in files.items():
        with open(folder / name, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
    options.report(1.0)


def _topology_conf(tree: SlurmTree, header: str) -> str:
    lines = [header.rstrip("\n"),
             "# Slurm topology/tree (slurm.conf: TopologyPlugin=topology/tree). Ignored when topology.yaml",
             "# is present. One switch per scalable unit (its rail leaves reach the same nodes), one per",
             "# pod (its spines), one for the cores: see README.txt.", ""]
    for name, kind, members, comment in tree.switches():
        key = "Nodes" if kind == "nodes" else "Switches"
        lines += [f"# {comment}", f"SwitchName={name} {key}={compress(members)}"]
    return "\n".join(lines) + "\n"


def _block_conf(tree: SlurmTree, header: str) -> str:
    lines = [header.rstrip("\n"),
             "# Slurm topology/block (slurm.conf: TopologyPlugin=topology/block). Ignored when topology.yaml",
             "# is present. One block per scalable unit, a pod's SUs side by side; see README.txt.", ""]
    lines += _short_comments(tree, "# ")
    for su in tree.blocks():
        lines += [f"# SU {su}, pod {tree.su_pod(su)}: {len(tree.su_nodes[su])} nodes",
                  f"BlockName=su{su} Nodes={compress(tree.su_nodes[su])}"]
    lines.append("BlockSizes=" + ",".join(str(size) for size in tree.block_sizes()))
    return "\n".join(lines) + "\n"


def _short_comments(tree: SlurmTree, prefix: str) -> list[str]:
    return [f"{prefix}su{su}: {len(tree.su_nodes[su])} nodes, under half a full SU: in no block (README.txt)"
            for su in tree.short()]


def _topology_yaml(tree: SlurmTree, header: str, kind: str = TREE) -> str:
    default = TREE_TOPOLOGY if kind == TREE else BLOCK_TOPOLOGY
    other = BLOCK_TOPOLOGY if kind == TREE else TREE_TOPOLOGY
    lines = [header.rstrip("\n"),
             "# Slurm 25.05 and later read this file and ignore topology.conf. Two topologies: the fabric",
             f"# tree ({TREE_TOPOLOGY}) and one block per scalable unit ({BLOCK_TOPOLOGY}); {default} is the",
             f"# cluster default, partitions that set Topology={other} use the other. See README.txt.",
             "---",
             f"- topology: {TREE_TOPOLOGY}", f"  cluster_default: {str(kind == TREE).lower()}", "  tree:",
             "    switches:"]
    for name, members_kind, members, comment in tree.switches():
        lines += [f"      # {comment}", f"      - switch: {_yaml(name)}",
                  f"        {members_kind}: {_yaml(compress(members))}"]
    lines += [f"- topology: {BLOCK_TOPOLOGY}", f"  cluster_default: {str(kind == BLOCK).lower()}", "  block:",
              "    block_sizes:"]
    lines += [f"      - {size}" for size in tree.block_sizes()]
    lines.append("    blocks:")
    lines += _short_comments(tree, "      # ")
    for su in tree.blocks():
        lines += [f"      - block: su{su}", f"        nodes: {_yaml(compress(tree.su_nodes[su]))}"]
    return "\n".join(lines) + "\n"


def _yaml(text: str) -> str:
    """A YAML scalar that reads back as exactly ``text`` (a JSON string is YAML double-quoted)."""
    if _YAML_PLAIN.match(text) and text.lower() not in _YAML_WORDS:
        return text
    return json.dumps(text)


@dataclass
class _NodeType:
    key: str
    name: str
    gpus: int
    partition: str
    hostnames: list[str]


def _node_types(doc: Document) -> list[_NodeType]:
    """Node types in the plan, most nodes first, each with a partition name Slurm can take."""
    by_type: dict[str, list[str]] = {}
    for node in node_devices(doc):
        by_type.setdefault(node.type, []).append(doc.hostname(node))
    types = []
    taken: set[str] = set()
    for key, hostnames in sorted(by_type.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        item = doc.catalog[key]
        stem = _PARTITION_UNSAFE.sub("_", key).strip("_.-")[:60] or "gpu"
        partition, number = stem, 2
        while partition in taken:
            partition, number = f"{stem}-{number}", number + 1
        taken.add(partition)
        types.append(_NodeType(key, item.name, item.gpus, partition, hostnames))
    return types


def _nodes_conf(types: list[_NodeType], header: str) -> str:
    lines = [header.rstrip("\n"),
             "# Node and partition lines for slurm.conf (Include nodes.conf, or paste them in).",
             "# CPUs, Sockets, CoresPerSocket and RealMemory are not in the plan: run `slurmd -C` on one",
             "# node of each type and add what it prints to that type's NodeName line. Until then Slurm",
             "# schedules each node as one CPU with 1 MiB of memory.", ""]
    for kind in types:
        gres = f" Gres=gpu:{kind.gpus}" if kind.gpus else ""
        about = f"{clip(one_line(kind.key), 80)}: {clip(one_line(kind.name), 120)}"
        lines += [f"# {about}: {_count(len(kind.hostnames), 'node')}, {kind.gpus} GPUs each",
                  f"NodeName={compress(kind.hostnames)}{gres}"]
    lines += ["", "# One partition per node type, so nodes of another type (brought in from elsewhere) run as a",
              "# partition of their own; the type with the most nodes is the default."]
    for index, kind in enumerate(types):
        default = "YES" if index == 0 else "NO"
        lines.append(f"PartitionName={kind.partition} Nodes={compress(kind.hostnames)} Default={default} State=UP")
    return "\n".join(lines) + "\n"


def _readme(tree: SlurmTree, types: list[_NodeType], facts: str, kind: str = TREE) -> str:
    nodes = sum(len(kind.hostnames) for kind in types)
    gpus = sum(len(kind.hostnames) * kind.gpus for kind in types)
    levels = "SUs under pods under one core switch" if any(n == "core" for n, *_ in tree.switches()) \
        else "SUs under one pod switch" if tree.pods else "one switch"
    sizes = ", ".join(str(size) for size in tree.block_sizes())
    default = TREE_TOPOLOGY if kind == TREE else BLOCK_TOPOLOGY
    how = (f"a partition with Topology={BLOCK_TOPOLOGY} in slurm.conf, Slurm 25.05 and later" if kind == TREE else
           f"the cluster default here; a partition with Topology={TREE_TOPOLOGY} keeps the tree")
    conf = ("the same tree, for TopologyPlugin=topology/tree" if kind == TREE else
            "the same blocks (BlockName=, BlockSizes=), for TopologyPlugin=topology/block")
    text = f"""Slurm topology of the hall plan
{facts}

{nodes:,} GPU nodes ({gpus:,} GPUs); {_count(len(tree.su_nodes), "scalable unit")} (SU); the tree is {levels}.

Files
  topology.yaml  Slurm 25.05 and later. Two topologies: "{TREE_TOPOLOGY}" (the switch tree) and
                 "{BLOCK_TOPOLOGY}" (one block per SU, a pod's SUs side by side; block_sizes {sizes}: the
                 smallest block, then 2, 4 … times it where those blocks are SUs of one pod or whole pods).
                 "{default}" is the cluster default (cluster_default: true).
  topology.conf  Slurm before 25.05: {conf}.
  nodes.conf     NodeName lines (Gres=gpu:N) and one PartitionName per node type.

How the fabric is written
  The fabric is rail-optimised: GPU i of every node in an SU is cabled to that SU's rail-i leaf,
  so each node hangs under 8 leaves, which Slurm's tree cannot draw. As NVIDIA's topology
  generator for Slurm does (github.com/NVIDIA/topograph: switches of one tier whose children are
  the same set are one Slurm switch), each SU is one leaf-level switch (suN: its rail leaves),
  each pod one switch above its SUs (podN: its spines) and the cores one switch above the pods
  (core). "Same leaf switch" in Slurm is therefore "same SU" in the plan: one hop apart on
  every rail. The comments in topology.conf name the plan's switches behind each Slurm switch.

Installing
  1. Copy the files beside slurm.conf. Slurm reads topology.yaml when it is there and then
     ignores topology.conf and TopologyPlugin; before 25.05 use topology.conf and set
     TopologyPlugin=topology/{kind}. The tree plugin needs SelectType=select/cons_tres.
     (planner export --to slurm --slurm-topology block|tree chooses what topology.conf holds.)
  2. slurm.conf: GresTypes=gpu, and Include /etc/slurm/nodes.conf (its full path) or paste its lines.
  3. gres.conf on every node, so slurmd finds the GPUs: AutoDetect=nvml (Slurm built with NVML),
     or Name=gpu File=/dev/nvidia[0-7] for 8 NVIDIA GPUs.
  4. CPUs and RealMemory are not in the plan: run slurmd -C on one node of each type and add
     them to its NodeName line.
  5. scontrol reconfigure (or restart slurmctld), then scontrol show topology.

Using it
  sbatch --switches=1 keeps a job inside one SU (Slurm's leaf switch); --switches=1@2:00:00
  waits up to two hours for that. Placed by blocks (topology/block; {how}),
  a job goes inside one SU when it fits, else on 2, 4 … neighbouring SUs, keeping whole SUs free
  for large jobs (--segment=N). Slurm counts jobs in base blocks, so a partly filled SU lowers the
  base for every job: an SU with under half a full SU's nodes is left out of the blocks (below).
"""
    notes = []
    if tree.unlinked:
        notes.append(f"  {len(tree.unlinked)} node(s) are cabled to no leaf: {_listing(tree.unlinked)}. They sit "
                     f"under the switch '{UNLINKED}' with no parent and in no block (Slurm warns \"Blocks lack "
                     "access to …\"); regenerate the fabric to cable them.")
    if tree.short():
        notes.append(f"  {_count(len(tree.short()), 'SU')} with under half a full SU's nodes, in no block: "
                     + ", ".join(f"su{su} ({len(tree.su_nodes[su])} nodes)" for su in tree.short())
                     + ". Slurm warns \"blocks lack access to …\" and places block-topology jobs elsewhere; "
                     "the tree still holds them. Fill the SU to make it a block.")
    if tree.mixed:
        notes.append(f"  {len(tree.mixed)} node(s) are cabled to leaves of more than one SU: {_listing(tree.mixed)}; "
                     "each is listed under the SU most of its GPUs reach. Check the cabling (planner validate).")
    if notes:
        text += "\nWarnings\n" + "\n".join(notes) + "\n"
    text += "\nScalable units\n"
    for su, members in tree.su_nodes.items():
        text += f"  su{su}: {len(members):,} nodes {compress(members)}; rail leaves {_names(tree.su_leaves.get(su, []))}\n"
    return text


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _names(hostnames: list[str]) -> str:
    """Switch hostnames for a comment: as a hostlist where Slurm could read one, else a count."""
    if not hostnames:
        return "none"
    if all(is_hostname(name) for name in hostnames):
        return compress(hostnames)
    return f"{len(hostnames)} switches"


def _listing(names: list[str]) -> str:
    """A few names for one line of text, cleaned and cut, then how many more."""
    shown = ", ".join(repr(clip(one_line(name), 40)) for name in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")
