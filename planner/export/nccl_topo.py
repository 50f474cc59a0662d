"""``planner export --to nccl-topo``: one NCCL topology file per node type, so NCCL keeps each
GPU's traffic on the NIC and rail the plan cables for it (issue 22, DESIGN §9).

NCCL reads the file named by ``NCCL_TOPO_FILE`` before it probes the machine, and keeps what the
file says. Everything here follows NVIDIA/nccl 2.30.7 (``makefiles/version.mk``; master at
5067397c, read with ``git show``), ``src/graph/xml.cc``, ``xml.h`` and ``topo.cc``:

- tags and nesting: ``<system version="1">`` > ``cpu`` > ``pci`` (a PCIe switch) > ``pci`` (the
  GPU) > ``gpu``, and ``pci`` (the NIC) > ``nic`` > ``net`` (the parsers ``ncclTopoXmlLoadSystem``,
  ``…LoadCpu``, ``…LoadPci``, ``…LoadNic`` in xml.cc);
- ``cpu``: ``numaid``, ``arch``, ``vendor``, ``familyid``, ``modelid`` (``ncclTopoAddCpu`` requires
  ``numaid`` and ``arch``, ``vendor`` on x86, ``familyid`` and ``modelid`` on Intel; written, since a
  socket none of a job's GPUs sits on is never filled in from the machine);
- ``pci``: ``busid``, ``class``, ``link_width``, ``link_speed`` (``ncclTopoAddPci`` requires all
  four; ``class`` is matched by prefix, ``kvDictPciClass``: 0x0604 bridge, 0x03 GPU, 0x02 NIC);
- ``gpu``: ``dev`` only. ``sm`` and ``gdr`` are left to the machine (``ncclTopoGetXmlFromGpu`` and
  ``ncclTopoGetSystem`` fill what the file leaves out, ``rank`` is always the process's own);
  no ``nvlink`` either: one in the file would stop NCCL probing the NVLinks (``nvlNode == NULL``);
- ``net``: ``name`` (the HCA: NCCL finds the file's ``net`` by it, ``ncclTopoFillNet`` →
  ``xmlFindTagKv(…, "name", …)``), ``dev``, ``speed`` in Mb/s (``ncclTopoAddNet``: bw = speed /
  8000 GB/s) and ``rail``, which NCCL reads from 2.30.7 on (``ncclTopoAddNet``:
  ``xmlGetAttrIntDefault(xmlNet, "rail", …)``; ``ncclTopoSearchCheckNet`` in ``search.cc``: with
  NCCL_CROSS_NIC=0 a channel leaves the node on a NIC of the rail it came in on).
  ``ncclTopoPopulateNics`` only *initialises* ``speed``, ``port``, ``rail``, ``guid``,
  ``latency``, ``maxconn`` and ``gdr`` (``xmlInitAttr*``: set when absent), so the file's values
  win; those the plan cannot know (port, guid, latency, maxconn, gdr) are left to the device.

NCCL's own tokenizer (``xmlGetNode``) is not a general XML parser: it takes no ``<?xml?>``
declaration, only spaces and line breaks between tokens (no tabs), ``/>`` right after the last
attribute's quote, no entity references, at most 16 attributes and 255 characters a value
(``MAX_ATTR_COUNT``, ``MAX_STR_LEN``). The writer keeps to that; HCA names are checked.

The rail of GPU *i*'s NIC is the rail of the leaf its cable reaches in the plan (``Link.rail``,
else the leaf's), counted from 0 as NCCL counts devices: plan rail 1 (``P1``, GPU 0) is
``rail="0"``. The nodes of one type share the file; where they disagree the majority wins and
README.txt names the others.

What the plan does not know is assumed and said so in README.txt: two CPU sockets (NUMA 0 and 1)
with the first half of the GPUs on the first, each GPU behind one PCIe switch with its NIC (the
DGX H100 layout: User Guide, 1.2.3 Network Modules, Table 6; GPU and NIC on one switch, "PIX" in
``nvidia-smi topo -m``), an Intel Sapphire Rapids CPU (DGX H100's Xeon Platinum 8480C: family 6,
model 143), and placeholder PCI bus IDs. NCCL finds GPUs by bus ID, so the file is a template
until the bus IDs are those of the machine (README.txt says how to read them).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from planner.export.hostlist import compress, is_hostname
from planner.export.options import ExportOptions
from planner.export.pages import TitleBlock
from planner.export.printed_text import clip, one_line
from planner.fabric.sizing import node_devices
from planner.io.discovery.naming import hca_names
from planner.model.catalog import INFINIBAND, CatalogItem, switch_protocol
from planner.model.document import Document
from planner.model.objects import TIER_NODE_LEAF

#: ``NCCL_TOPO_XML_VERSION`` (xml.h): ``ncclTopoXmlLoadSystem`` refuses any other.
XML_VERSION = 1
#: xml.h: ``MAX_STR_LEN`` and ``MAX_ATTR_COUNT``.
MAX_VALUE = 255
MAX_ATTRS = 16
#: PCI class codes (PCI Code and ID Assignment spec; ``kvDictPciClass`` in topo.cc matches by
#: prefix): PCI-to-PCI bridge, 3D controller (SXM GPUs), InfiniBand and Ethernet controllers.
CLASS_BRIDGE, CLASS_GPU, CLASS_IB, CLASS_ETHERNET = "0x060400", "0x030200", "0x020700", "0x020000"
#: PCIe generations NCCL knows (``kvDictPciGen``), with a x16 link's data rate in Gb/s:
#: transfer rate × 16 lanes × line-code efficiency (Gen3–5 128b/130b; Gen6 FLIT mode, 242/256).
PCIE_X16 = (("8.0 GT/s PCIe", 8 * 16 * 128 / 130), ("16.0 GT/s PCIe", 16 * 16 * 128 / 130),
            ("32.0 GT/s PCIe", 32 * 16 * 128 / 130), ("64.0 GT/s PCIe", 64 * 16 * 242 / 256))
LANES = 16
#: The CPU assumed (DGX H100: two Xeon Platinum 8480C, Sapphire Rapids, CPUID family 6 model 143).
CPU = {"arch": "x86_64", "vendor": "GenuineIntel", "familyid": "6", "modelid": "143"}
#: NCCL's reader stores names and values as C strings compared with strcmp; keep HCA names to
#: what RDMA devices are called (``mlx5_0``, ``ibp24s0``, ``rdma-3``) so no quote or '&' gets in.
_HCA_SAFE = re.compile(r"[A-Za-z0-9_.:-]{1,64}\Z")
_FILE_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
#: Names listed in README.txt before "… and N more".
SHOWN = 5


class NcclTopoError(ValueError):
    """The plan cannot give NCCL a topology (no GPU nodes, no cabled rails, an HCA name NCCL's
    reader would garble); one line."""


@dataclass
class NodeTypeTopology:
    """One node type's GPUs, NICs and the rail each NIC is cabled to, with the nodes behind it."""

    key: str
    item: CatalogItem
    hostnames: list[str]
    hcas: list[str]
    #: Plan rail (1-based) of each NIC in port order; 0 = not cabled on any node of the type.
    rails: list[int]
    #: Hostnames whose cable on a port reaches another rail than the type's majority, by port.
    disagree: dict[int, list[str]] = field(default_factory=dict)
    #: The file written for it: the type's key made safe for a file name, unique in the folder.
    file_name: str = ""


def node_type_topologies(doc: Document) -> list[NodeTypeTopology]:
    """Each node type of the plan with the rails its cables give; NcclTopoError when none can be had."""
    nodes = node_devices(doc)
    if not nodes:
        raise NcclTopoError("the plan has no GPU nodes: there is no NCCL topology to write")
    leaves = {d.id: d for d in doc.devices.values() if d.role == "leaf"}
    by_type: dict[str, list] = {}
    for node in nodes:
        by_type.setdefault(node.type, []).append(node)
    result = []
    for key, members in sorted(by_type.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        item = doc.catalog[key]
        hcas = hca_names(item)
        bad = [name for name in hcas if not _HCA_SAFE.match(name)]
        if bad:
            raise NcclTopoError(f"node type {clip(one_line(key), 60)!r}: HCA name {clip(one_line(bad[0]), 40)!r} is not "
                                "one NCCL's topology reader takes (letters, digits, '_', '.', ':', '-'; at most 64)")
        ports = item.port_names()
        seen: list[Counter[int]] = [Counter() for _ in ports]
        per_node: list[dict[int, int]] = []
        for node in members:
            rails: dict[int, int] = {}
            for link in doc.links_of(node.id):
                if link.tier != TIER_NODE_LEAF:
                    continue
                mine, other = (link.a_port, link.b_device) if link.a_device == node.id else (link.b_port, link.a_device)
                leaf = leaves.get(other)
                if leaf is None or mine not in ports:
                    continue
                rail = link.rail or leaf.rail
                if rail > 0:
                    rails[ports.index(mine)] = rail
                    seen[ports.index(mine)][rail] += 1
            per_node.append(rails)
        majority = [min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] if c else 0 for c in seen]
        topo = NodeTypeTopology(key, item, [doc.hostname(n) for n in members], hcas, majority)
        for node, rails in zip(members, per_node):
            for port, rail in rails.items():
                if rail != majority[port]:
                    topo.disagree.setdefault(port, []).append(doc.hostname(node))
        result.append(topo)
    taken: set[str] = set()
    for topo in result:
        stem = _FILE_UNSAFE.sub("_", topo.key).strip("._-")[:80] or "node"
        name, number = f"{stem}.xml", 2
        while name.lower() in taken:
            name, number = f"{stem}-{number}.xml", number + 1
        taken.add(name.lower())
        topo.file_name = name
    if not any(rail for topo in result for rail in topo.rails):
        raise NcclTopoError("no GPU port is cabled to a leaf switch, so the rails are unknown: generate the fabric "
                            "first (planner fabric FILE -o OUT, or Plan ▸ Generate fabric…)")
    return result


def write_nccl_topo(doc: Document, folder: Path, options: ExportOptions | None = None) -> None:
    """Fill ``folder`` with ``<node type>.xml`` per node type and a README.txt."""
    options = options or ExportOptions()
    topologies = node_type_topologies(doc)
    options.report(0.3)
    infiniband = fabric_protocol(doc) == INFINIBAND
    for topo in topologies:
        with open(folder / topo.file_name, "w", encoding="ascii", newline="\n") as out:
            out.write(topology_xml(topo, infiniband))
    block = TitleBlock.of(doc, options, "NCCL topology")
    facts = " — ".join(clip(one_line(fact), 80) for fact in (
        block.project, block.hall, f"revision {block.revision}", block.date, block.file_name) if fact)
    with open(folder / "README.txt", "w", encoding="utf-8", newline="\n") as out:
        out.write(_readme(topologies, facts))
    options.report(1.0)


def fabric_protocol(doc: Document) -> str:
    """What the rail NICs speak: the protocol of the plan's leaf switches (most of them), else
    the design basis's fabric kind. It picks the NIC's PCI class (InfiniBand or Ethernet)."""
    kinds = Counter(switch_protocol(doc.catalog[d.type]) for d in doc.devices.values()
                    if d.role == "leaf" and d.type in doc.catalog.items)
    return kinds.most_common(1)[0][0] if kinds else doc.basis.fabric_kind


def pcie_generation(speed_gbps: float) -> str:
    """The slowest PCIe generation NCCL knows whose x16 link carries the NIC's line rate."""
    for name, rate in PCIE_X16:
        if rate >= speed_gbps:
            return name
    return PCIE_X16[-1][0]


def topology_xml(topo: NodeTypeTopology, infiniband: bool = True) -> str:
    """The ``NCCL_TOPO_FILE`` text for one node type (see the module docstring for every choice)."""
    item = topo.item
    gpus = max(item.gpus, 0)
    nics = len(topo.hcas)
    speed_gbps = item.port_speed_gbps or 0.0
    link = {"link_speed": pcie_generation(speed_gbps), "link_width": str(LANES)}
    pairs = max(gpus, nics)
    sockets = 2 if pairs > 1 else 1
    header = (f"<!-- Hall Planner: NCCL_TOPO_FILE for node type {_comment(topo.key)}; placeholder PCI bus IDs, "
              "see README.txt -->")
    lines = [header, f'<system version="{XML_VERSION}">']
    for numa in range(sockets):
        lines.append("  " + _open("cpu", {"numaid": str(numa), **CPU}))
        for index in range(pairs):
            if index * sockets // pairs != numa:
                continue
            lines.append("    " + _open("pci", {"busid": _bridge_busid(index), "class": CLASS_BRIDGE, **link}))
            if index < gpus:
                lines += ["      " + _open("pci", {"busid": _busid(index, 0), "class": CLASS_GPU, **link}),
                          "        " + _single("gpu", {"dev": str(index)}), "      </pci>"]
            if index < nics:
                net = {"name": topo.hcas[index], "dev": str(index)}
                if speed_gbps > 0:
                    net["speed"] = str(round(speed_gbps * 1000))  # Mb/s (topo.cc: bw = speed / 8000)
                if topo.rails[index] > 0:
                    net["rail"] = str(topo.rails[index] - 1)
                nic_class = CLASS_IB if infiniband else CLASS_ETHERNET
                lines += ["      " + _open("pci", {"busid": _busid(index, 1), "class": nic_class, **link}),
                          "        <nic>", "          " + _single("net", net), "        </nic>", "      </pci>"]
            lines.append("    </pci>")
        lines.append("  </cpu>")
    lines.append("</system>")
    return "\n".join(lines) + "\n"


def _busid(index: int, function: int) -> str:
    """Placeholder ``DDDD:BB:DD.F`` (the BDF form ``checkBDFFormat`` in xml.cc takes): pair
    ``index`` on bus 0x10 × (index + 1), GPU as device 0, NIC as device 1, 15 pairs a domain."""
    domain, slot = divmod(index, 15)
    return f"{domain:04x}:{0x10 * (slot + 1):02x}:{function:02x}.0"


def _bridge_busid(index: int) -> str:
    """A PCIe switch no machine has (domain ffff), as cloud providers' topology files name theirs."""
    return f"ffff:{index // 32:02x}:{index % 32:02x}.0"


def _attrs(attrs: dict[str, str]) -> str:
    assert len(attrs) <= MAX_ATTRS and all(len(v) <= MAX_VALUE and '"' not in v and "&" not in v
                                           and "<" not in v for v in attrs.values())
    return "".join(f' {key}="{value}"' for key, value in attrs.items())


def _open(tag: str, attrs: dict[str, str]) -> str:
    return f"<{tag}{_attrs(attrs)}>"


def _single(tag: str, attrs: dict[str, str]) -> str:
    # NCCL's xmlGetNode wants "/>" right after the closing quote (no space before it).
    return f"<{tag}{_attrs(attrs)}/>"


def _comment(text: str) -> str:
    """Text safe inside an XML comment for both parsers: no "--", no '>' (NCCL ends at "-->")."""
    return re.sub(r"[^A-Za-z0-9_. ()/+-]", "_", one_line(text)).replace("--", "-_")[:80]


def _readme(topologies: list[NodeTypeTopology], facts: str) -> str:
    text = f"""NCCL topology files of the hall plan
{facts}

One file per node type. On every node of a type, point NCCL at its file before the job starts:
  export NCCL_TOPO_FILE=/etc/nccl/<file>.xml      (or NCCL_TOPO_FILE=… in /etc/nccl.conf)
The rail attributes need NCCL 2.30.7 or later; older NCCL reads the rest and ignores them.

What each file says
  Each GPU i shares a PCIe switch with its NIC (the HCA the node type names for port P<i+1>), the first
  half of the GPUs on CPU socket 0 and the rest on socket 1, as on a DGX H100. Each NIC's net element
  names its HCA, its speed (Mb/s) and its rail: the rail of the leaf its cable reaches in the plan,
  counted from 0 (plan rail 1 = rail="0"), so NCCL builds each ring or tree channel on one rail.
  Link widths and PCIe generation, CPU model (Intel Sapphire Rapids) and the socket split are assumed;
  NCCL fills GPU compute capability, GPUDirect support, NVLinks and NIC GUIDs from the machine.

Before use: the PCI bus IDs
  NCCL finds each GPU in the file by its PCI bus ID, and each NIC by its HCA name. The bus IDs written
  (0000:10:00.0 for GPU 0, 0000:10:01.0 for its NIC, 0000:20:… for the next pair) are placeholders:
  replace them with the node's own, once per node type, from
    nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader
    for h in /sys/class/infiniband/*; do echo "$(basename $h) $(basename $(readlink -f $h/device))"; done
  (lower case, 0000:1b:00.0 form). With wrong GPU bus IDs NCCL places the GPUs where the machine says
  and the NICs where this file says, and the GPU-NIC pairing is lost. Check with NCCL_DEBUG=INFO
  NCCL_DEBUG_SUBSYS=GRAPH and NCCL_TOPO_DUMP_FILE=/tmp/topo.xml: the dump shows what NCCL used.

Files
"""
    for topo in topologies:
        rails = ", ".join(f"{hca}={'rail ' + str(rail - 1) if rail else 'no rail'}"
                          for hca, rail in zip(topo.hcas, topo.rails))
        text += (f"  {topo.file_name}: {clip(one_line(topo.key), 80)} ({clip(one_line(topo.item.name), 80)}), "
                 f"{len(topo.hostnames):,} nodes {_hosts(topo.hostnames)}\n    {rails}\n")
    notes = []
    for topo in topologies:
        for port, rail in enumerate(topo.rails):
            if not rail:
                notes.append(f"  {clip(one_line(topo.key), 60)}: {topo.hcas[port]} (port P{port + 1}) is cabled to no leaf "
                             "on any node; its net has no rail attribute.")
        for port, hosts in sorted(topo.disagree.items()):
            notes.append(f"  {clip(one_line(topo.key), 60)}: on {len(hosts)} node(s) port P{port + 1} reaches another rail "
                         f"than rail {topo.rails[port] - 1} written: {_listing(hosts)}. Check the cabling (planner validate).")
    if notes:
        text += "\nWarnings\n" + "\n".join(notes) + "\n"
    return text


def _hosts(hostnames: list[str]) -> str:
    if all(is_hostname(name) for name in hostnames):
        return compress(hostnames)
    return _listing(hostnames)


def _listing(names: list[str]) -> str:
    shown = ", ".join(repr(clip(one_line(name), 40)) for name in names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")
