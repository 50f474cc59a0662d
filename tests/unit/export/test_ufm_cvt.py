"""`--to ufm-cvt`: the UFM Cable Validation Tool's P2P file, HCA mapping and floor layout, read
back with the csv module: exact headers from the CVT documentation
(docs.nvidia.com/networking/display/cablevalidationtool150, "P2P File" and "Optional Files"), every
cable of the plan once, ports as the tool reads them, and the P2P read back by the planner's own
cable-list import as the same cabling."""

from __future__ import annotations

import csv

import pytest

from planner.export.registry import export_to
from planner.export.ufm_cvt import UfmCvtError, host_port_numbers, p2p_rows
from planner.fabric.cable_list import cable_list_change
from planner.fabric.sizing import node_devices
from planner.io.atomic_folder import EXPORT_MARKER
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.objects import TIERS
from planner.model.ports import COMPUTE

#: "P2P File", Ethernet example header, verbatim (Z-RU, not Z-U).
P2P_HEADER = ["A-Rack", "A-U", "A-Node Name", "A-Type", "A-Port", "Z-Rack", "Z-RU", "Z-Node Name", "Z-Type", "Z-Port"]
#: "Optional Files", HCA mapping: "port,hca-name".
HCA_HEADER = ["port", "hca-name"]
DGX_H100_TYPE = "node-8gpu-air-8u"


def read_csv(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def export(doc: Document, tmp_path):
    folder = tmp_path / "cvt"
    export_to(doc, "ufm-cvt", folder)
    return folder


@pytest.fixture(scope="module")
def dgx_pod() -> Document:
    return build_template("pod", nodes=16, node_type=DGX_H100_TYPE)


def test_the_files_and_their_exact_headers(dgx_pod, tmp_path):
    folder = export(dgx_pod, tmp_path)
    assert sorted(p.name for p in folder.iterdir() if p.name != EXPORT_MARKER) == [
        "README.txt", "floor_layout.csv", "hca_mapping.csv", "p2p.csv"]
    assert read_csv(folder / "p2p.csv")[0] == P2P_HEADER
    assert read_csv(folder / "hca_mapping.csv")[0] == HCA_HEADER
    assert read_csv(folder / "floor_layout.csv")[0] == ["Rack", "Data Hall", "Pod", "SU", "Row"]


def test_every_cable_once_with_both_ends_as_the_tool_reads_them(dgx_pod, tmp_path):
    doc = dgx_pod
    rows = read_csv(export(doc, tmp_path) / "p2p.csv")[1:]
    fabric = [link for link in doc.links.values() if link.tier in TIERS]
    assert len(rows) == len(fabric)
    host = {doc.hostname(d): d for d in doc.devices.values()}
    mapping = dict(read_csv(tmp_path / "cvt" / "hca_mapping.csv")[1:])
    hcas = doc.catalog[DGX_H100_TYPE].hca_names
    planned = {frozenset({(link.a_device, link.a_port), (link.b_device, link.b_port)}) for link in fabric}
    found = set()
    for row in rows:
        ends = []
        for rack, u, name, kind, port in (row[:5], row[5:]):
            device = host[name]
            assert rack == doc.racks[device.rack].name and int(u) == device.u
            assert kind == ("Switch" if device.role else "Host")
            if device.role:  # InfiniBand switch: the split port, as the plan names it ("1/2")
                assert "/" in port and port in doc.catalog[device.type].port_names()
                ends.append((device.id, port))
            else:  # host: the interface number, whose HCA (by hca_mapping) is the plan port's
                plan_port = f"P{hcas.index(mapping[port]) + 1}"
                ends.append((device.id, plan_port))
        assert row[3] == "Host" or row[8] == "Switch"  # the lower tier is the A end
        found.add(frozenset(ends))
    assert found == planned


def test_host_numbers_follow_the_tools_default_mapping():
    """The CVT default is 1 → mlx5_0, 2 → mlx5_1 …: so mlx5_<n> is n + 1 and the DGX H100's HCAs
    (User Guide Table 6: mlx5_0, 3, 4, 5, 6, 9, 10, 11) are 1, 4, 5, 6, 7, 10, 11, 12."""
    doc = build_template("pod", nodes=8, node_type=DGX_H100_TYPE)
    item = doc.catalog[DGX_H100_TYPE]
    assert host_port_numbers(item) == [1, 4, 5, 6, 7, 10, 11, 12]
    item.hca_names = ["ibp24s0", "mlx5_1", "ibp64s0", "mlx5_0", "x", "y", "z", "w"]
    assert host_port_numbers(item) == [3, 2, 4, 1, 5, 6, 7, 8]


def test_the_planners_own_cable_import_reads_the_p2p_back_as_the_same_cabling(tmp_path):
    """On a node type with the default HCA names (host port k = mlx5_<k-1>, the k-th port);
    ``planner.fabric.cable_list`` reads host numbers 1 … port count only, so a DGX H100's 10–12
    (mlx5_9 … mlx5_11) are not read back there yet."""
    doc = build_template("pod", nodes=16)
    change = cable_list_change(doc, export(doc, tmp_path) / "p2p.csv")
    assert change.ok, change.problem_lines()
    plan = change.plan
    # The p2p holds the compute fabric: it keeps every compute cable and leaves the other networks alone
    assert (plan.kept, plan.rewired, plan.removed, plan.added) == (len(doc.links_in(COMPUTE)), [], [], [])


def test_two_mappings_give_one_file_per_type_and_the_layout_names_every_rack(tmp_path):
    doc = build_template("pod", nodes=16)
    nodes = node_devices(doc)
    for node in nodes[::2]:
        doc.set_fields(node.id, {"type": DGX_H100_TYPE})
    folder = export(doc, tmp_path)
    maps = sorted(p.name for p in folder.glob("hca_mapping*.csv"))
    assert maps == [f"hca_mapping-{DGX_H100_TYPE}.csv", f"hca_mapping-{nodes[1].type}.csv"]
    assert read_csv(folder / maps[1])[1:] == [[str(k), f"mlx5_{k - 1}"] for k in range(1, 9)]
    layout = read_csv(folder / "floor_layout.csv")[1:]
    racks = {row[0] for row in read_csv(folder / "p2p.csv")[1:]} | {row[5] for row in read_csv(folder / "p2p.csv")[1:]}
    assert {row[0] for row in layout} == racks
    assert all(row[2] == "1" and row[3] == "1" for row in layout)  # one pod, one SU


def test_text_cells_are_neutralised_and_a_plan_without_fabric_is_refused(tmp_path):
    doc = build_template("pod", nodes=8)
    node = node_devices(doc)[0]
    doc.set_fields(node.id, {"hostname": "=cmd|' /C calc'!A0"})
    rows = read_csv(export(doc, tmp_path) / "p2p.csv")
    assert any(row[2] == "'=cmd|' /C calc'!A0" for row in rows)
    for link_id in list(doc.links):
        doc.remove(link_id)
    with pytest.raises(UfmCvtError, match="no fabric cables"):
        p2p_rows(doc)


def test_an_ethernet_fabric_names_host_ports_by_rail():
    """CVT's Ethernet example names host ports by interface (``rail5``); the plan's rail k."""
    doc = build_template("pod", nodes=8, switch_type="sw-64x800g-2u-eth")
    hosts = [row for row in p2p_rows(doc) if row[3] == "Host"]
    assert {row[4] for row in hosts} == {f"rail{k}" for k in range(1, 9)}
