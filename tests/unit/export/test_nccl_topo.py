"""`--to nccl-topo`: one NCCL_TOPO_FILE per node type, read back with a strict XML parser and with
a transcription of NCCL's own tokenizer, every tag and attribute checked against what NCCL's
source reads, the rails against the plan's cables and the GPU–NIC pairing against NVIDIA's
published DGX H100 table.

The lists below are taken from NVIDIA/nccl at 2.30.7 (``makefiles/version.mk``; master 5067397c):

- nesting, ``src/graph/xml.cc``: ``ncclTopoGetXmlFromFile`` (``system``), ``ncclTopoXmlLoadSystem``
  (``cpu``), ``ncclTopoXmlLoadCpu`` (``pci``, ``nic``), ``ncclTopoXmlLoadPci`` (``pci``, ``gpu``,
  ``nic``, ``pcilink``), ``ncclTopoXmlLoadGpu`` (``nvlink``, ``c2c``), ``ncclTopoXmlLoadNic`` (``net``);
- attributes, ``src/graph/topo.cc`` unless named: ``system`` version, name (xml.cc
  ``ncclTopoXmlLoadSystem``); ``cpu`` (``ncclTopoAddCpu``, ``ncclGetSystemId``); ``pci``
  (``ncclTopoAddPci``, ``ncclTopoGetIntDevice``); ``gpu`` (``ncclTopoAddGpu``, ``ncclTopoGetSystem``:
  keep); ``net`` (``ncclTopoAddNet``, ``ncclTopoAddNic``, ``ncclTopoPopulateNics``; name:
  xml.cc ``ncclTopoFillNet``); ``nvlink`` (``ncclTopoAddNvLinks``); ``pcilink``
  (``ncclTopoAddPciLinks``); ``c2c`` (``ncclTopoAddC2c``).
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from planner.export.nccl_topo import NcclTopoError, node_type_topologies
from planner.export.registry import export_to
from planner.fabric.sizing import node_devices
from planner.io import save
from planner.io.atomic_folder import EXPORT_MARKER
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.objects import TIER_NODE_LEAF

#: Child tags each parent's handler table accepts (xml.cc; None = the file's top level).
CHILDREN = {
    None: {"system"},
    "system": {"cpu"},
    "cpu": {"pci", "nic"},
    "pci": {"pci", "gpu", "nic", "pcilink"},
    "gpu": {"nvlink", "c2c"},
    "nic": {"net"},
    "net": set(), "nvlink": set(), "pcilink": set(), "c2c": set(),
}
#: Attributes NCCL reads per tag (files and functions in the module docstring).
ATTRIBUTES = {
    "system": {"version", "name"},
    "cpu": {"numaid", "affinity", "arch", "vendor", "familyid", "modelid", "host_hash"},
    "pci": {"busid", "class", "link_width", "link_speed", "vendor", "device", "subsystem_vendor",
            "subsystem_device"},
    "gpu": {"dev", "sm", "rank", "gdr", "mlopart", "keep"},
    "nic": set(),
    "net": {"name", "dev", "guid", "speed", "latency", "port", "gdr", "maxconn", "coll", "rail", "plane",
            "net", "gin", "rma", "keep"},
    "nvlink": {"target", "count", "tclass"},
    "pcilink": {"target"},
    "c2c": {"count", "bw"},
}
#: Attributes NCCL cannot do without (``xmlGetAttrInt``/``xmlGetAttrStr`` fail when absent; the
#: Intel CPU's familyid/modelid in ``ncclTopoAddCpu``; a net without dev is skipped, ``ncclTopoAddNic``).
REQUIRED = {"system": {"version"}, "cpu": {"numaid", "arch", "vendor", "familyid", "modelid"},
            "pci": {"busid", "class", "link_width", "link_speed"}, "gpu": {"dev"}, "net": {"name", "dev"}}
#: NVIDIA DGX H100 User Guide, 1.2.3 Network Modules, Table 6 (ports OSFP1P1 … OSFP4P2): the
#: ConnectX-7 each GPU uses, by its default RDMA device name, and the CPU ("Network Module/CPU")
#: it hangs off. GPU 0 → mlx5_0 on CPU 0 (OSFP4P2), GPU 1 → mlx5_3 (OSFP3P2), GPU 2 → mlx5_4
#: (OSFP3P1), GPU 3 → mlx5_5 (OSFP4P1); GPU 4 → mlx5_6 on CPU 1 (OSFP1P2), GPU 5 → mlx5_9
#: (OSFP2P2), GPU 6 → mlx5_10 (OSFP2P1), GPU 7 → mlx5_11 (OSFP1P1).
DGX_H100 = {0: ("mlx5_0", 0), 1: ("mlx5_3", 0), 2: ("mlx5_4", 0), 3: ("mlx5_5", 0),
            4: ("mlx5_6", 1), 5: ("mlx5_9", 1), 6: ("mlx5_10", 1), 7: ("mlx5_11", 1)}
DGX_H100_TYPE = "node-8gpu-air-8u"


def nccl_tokens(text: str) -> list[tuple[str, str, dict[str, str]]]:
    """NCCL's ``xmlGetNode`` (xml.cc) transcribed: ("open"|"single"|"close", tag, attributes).

    Like the C code it knows only ' ', '\\n', '\\r' as white space, quoted values (INT_OK is not
    defined), comments, and takes a token without '=' as an attribute of that name with no value."""
    pos = 0
    out = []

    def char() -> str:
        nonlocal pos
        assert pos < len(text), "XML Parse : Unexpected EOF"
        pos += 1
        return text[pos - 1]

    def token(values: bool) -> tuple[str, str | None, str]:
        name = ""
        while True:
            c = char()
            if c == "=":
                assert values, f"XML Parse : Unexpected value with name {name}"
                quote = char()
                assert quote in "\"'", "XML Parse : Expected (double) quote."
                value = ""
                while (c := char()) != quote:
                    value += c
                assert len(value) < 255 and len(name) < 255
                return name, value, char()
            if c in " >/\n\r":
                return name, None, c
            name += c

    while True:
        c = " "
        while c in " \n\r":
            if pos == len(text):
                return out
            c = char()
        assert c == "<", f"XML Parse error : expecting '<', got {c!r}"
        name, _, last = token(False)
        if name.startswith("!--"):
            end = text.index("-->", pos - 1)
            pos = end + 3
            continue
        if name == "" and last == "/":
            name, _, last = token(False)
            assert last == ">", f"XML Parse error : unexpected trailing {last} in closing tag {name}"
            out.append(("close", name, {}))
            continue
        attrs: dict[str, str] = {}
        while last == " ":
            key, value, last = token(True)
            assert key and value is not None, f"a token {key!r} without a value in <{name}>"
            attrs[key] = value
        assert len(attrs) <= 16, "MAX_ATTR_COUNT"
        kind = "open"
        if last == "/":
            kind = "single"
            _, _, last = token(False)
        assert last == ">", f"XML Parse : expected >, got {last!r}"
        out.append((kind, name, attrs))


def check_against_nccl(text: str) -> ET.Element:
    """Parse strictly, check tags, nesting and attributes against NCCL's lists, and check that
    NCCL's tokenizer reads the same elements and attributes. Returns the root."""
    root = ET.fromstring(text)  # strict: raises on anything that is not well-formed XML
    assert not text.lstrip().startswith("<?"), "NCCL's reader takes no XML declaration"
    assert "\t" not in text and "&" not in text
    assert root.tag == "system" and root.get("version") == "1"

    def walk(element: ET.Element, parent: str | None) -> None:
        assert element.tag in CHILDREN[parent], f"<{element.tag}> under <{parent}>"
        assert set(element.attrib) <= ATTRIBUTES[element.tag], (element.tag, element.attrib)
        assert REQUIRED.get(element.tag, set()) <= set(element.attrib), (element.tag, element.attrib)
        assert len(element) <= 640, "MAX_SUBS"
        for child in element:
            walk(child, element.tag)

    walk(root, None)
    assert root.tag in CHILDREN[None]
    strict = [(e.tag, dict(e.attrib)) for e in root.iter()]
    nccl = [(tag, attrs) for kind, tag, attrs in nccl_tokens(text) if kind != "close"]
    assert nccl == strict
    return root


def export(doc: Document, tmp_path) -> dict[str, str]:
    folder = tmp_path / "nccl"
    export_to(doc, "nccl-topo", folder)
    return {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir() if p.name != EXPORT_MARKER}


def two_types() -> Document:
    """The 16-node pod with half its nodes made DGX H100-like (same eight rail ports)."""
    doc = build_template("pod", nodes=16)
    for node in node_devices(doc)[::2]:
        doc.set_fields(node.id, {"type": DGX_H100_TYPE})
    return doc


def gpu_nic_pairs(root: ET.Element) -> dict[int, tuple[ET.Element, int]]:
    """GPU dev → (the net under the same PCIe switch, the numaid of the CPU above them)."""
    pairs = {}
    for cpu in root.iter("cpu"):
        for switch in cpu.findall("pci"):
            gpus = switch.findall("pci/gpu")
            nets = switch.findall("pci/nic/net")
            assert len(gpus) == len(nets) == 1, ET.tostring(switch)
            pairs[int(gpus[0].get("dev"))] = (nets[0], int(cpu.get("numaid")))
    return pairs


def plan_rails(doc: Document, type_key: str) -> dict[str, set[int]]:
    """Port → the rails its cables are on, over every node of the type (from the plan's links)."""
    rails: dict[str, set[int]] = {}
    for node in node_devices(doc):
        if node.type != type_key:
            continue
        for link in doc.links_of(node.id):
            if link.tier == TIER_NODE_LEAF:
                port = link.a_port if link.a_device == node.id else link.b_port
                rails.setdefault(port, set()).add(link.rail)
    return rails


def test_one_file_per_node_type_each_as_nccl_reads_it(tmp_path):
    doc = two_types()
    files = export(doc, tmp_path)
    types = {node.type for node in node_devices(doc)}
    assert sorted(files) == sorted([f"{key}.xml" for key in types] + ["README.txt"])
    for key in types:
        root = check_against_nccl(files[f"{key}.xml"])
        item = doc.catalog[key]
        assert len(root.findall(".//gpu")) == item.gpus == 8
        nets = root.findall(".//net")
        assert [n.get("speed") for n in nets] == [str(int(item.port_speed_gbps * 1000))] * 8  # Mb/s
        assert all(p.get("class").startswith("0x02") for p in root.iter("pci") if p.find("nic") is not None)
    assert "NCCL_TOPO_FILE" in files["README.txt"] and "bus ID" in files["README.txt"]


def test_gpu_i_nic_is_on_rail_i_as_the_plan_cables_it(tmp_path):
    doc = two_types()
    files = export(doc, tmp_path)
    for key in {node.type for node in node_devices(doc)}:
        pairs = gpu_nic_pairs(check_against_nccl(files[f"{key}.xml"]))
        rails = plan_rails(doc, key)
        hcas = doc.catalog[key].hca_names or [f"mlx5_{i}" for i in range(8)]
        for gpu, (net, _) in pairs.items():
            assert net.get("name") == hcas[gpu]
            assert rails[f"P{gpu + 1}"] == {gpu + 1}  # the plan: GPU i's port P<i+1> on rail i+1 …
            assert int(net.get("rail")) == gpu  # … which NCCL counts from 0


def test_the_dgx_h100_type_pairs_gpus_and_nics_as_nvidia_publishes(tmp_path):
    doc = build_template("pod", nodes=8, node_type=DGX_H100_TYPE)
    root = check_against_nccl(export(doc, tmp_path)[f"{DGX_H100_TYPE}.xml"])
    pairs = gpu_nic_pairs(root)
    assert {gpu: (net.get("name"), numa) for gpu, (net, numa) in pairs.items()} == DGX_H100


def test_a_miscabled_node_is_named_and_the_majority_rail_written(tmp_path):
    doc = build_template("pod", nodes=16)
    odd = node_devices(doc)[3]
    link = next(link for link in doc.links_of(odd.id) if (link.a_port if link.a_device == odd.id else link.b_port) == "P2")
    doc.set_fields(link.id, {"rail": 5})
    (topo,) = node_type_topologies(doc)
    assert topo.rails == [1, 2, 3, 4, 5, 6, 7, 8] and topo.disagree == {1: [doc.hostname(odd)]}
    readme = export(doc, tmp_path)["README.txt"]
    assert doc.hostname(odd) in readme and "port P2" in readme


def test_plans_nccl_cannot_take_are_refused_with_one_line(tmp_path):
    uncabled = build_template("pod", nodes=16)
    for link_id in list(uncabled.links):
        uncabled.remove(link_id)
    with pytest.raises(NcclTopoError, match="generate the fabric"):
        node_type_topologies(uncabled)
    odd = build_template("pod", nodes=8)
    item = odd.catalog[node_devices(odd)[0].type]
    item.hca_names = ['mlx5_0"/><x'] + [f"mlx5_{i}" for i in range(1, 8)]
    with pytest.raises(NcclTopoError, match="HCA name"):
        node_type_topologies(odd)
    save(uncabled, tmp_path / "bare.hall")
    run = subprocess.run([sys.executable, "-I", "-m", "planner", "export", str(tmp_path / "bare.hall"), "--to",
                          "nccl-topo", "-o", str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert run.returncode == 1 and len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_an_ethernet_fabric_gets_ethernet_nics(tmp_path):
    doc = build_template("pod", nodes=8, switch_type="sw-64x800g-2u-eth")
    (text,) = [text for name, text in export(doc, tmp_path).items() if name.endswith(".xml")]
    root = check_against_nccl(text)
    nic_pcis = [p for p in root.iter("pci") if p.find("nic") is not None]
    assert len(nic_pcis) == 8 and {p.get("class") for p in nic_pcis} == {"0x020000"}  # Ethernet controller
