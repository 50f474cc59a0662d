"""Paper of every network (issue 21 part 5): the cabling plan's network sections and rack pages
listing cords and hoses, labels with the network in their text, the BOM by network, cord type
and hose size, the cables CSV/XLSX's network column read back, tick sheets grouped by network.

Over the pod template with every network it generates; any network it does not (yet) generate
gets a few connections by hand, so each document is tested on all six. Outputs are read back
(pypdf, csv, openpyxl), and compute-only figures are compared with the pod stripped to compute.
"""

from __future__ import annotations

import copy
import csv
import io

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from planner.asbuilt.ticksheet import read_ticks, ticks_command
from planner.export import bom, cabling_pdf, labels_pdf, schedule
from planner.export.connections import SECTION_TITLES, network_rank
from planner.export.network_pages import network_figures
from planner.export.options import ExportOptions
from planner.fabric.cable_list import plan_cable_list
from planner.io.cable_list import parse_cable_list
from planner.layout.templates import build_template
from planner.model.catalog import NODE, RACK_PDU, SWITCH
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import (
    DATA_NETWORKS,
    NETWORK_SHORT,
    TIER_HOSE,
    TIER_INBAND_ACCESS,
    TIER_OOB_ACCESS,
    TIER_POWER_CORD,
    TIER_STORAGE_ACCESS,
    network_of,
)
from planner.model.objects import Link
from planner.model.ports import COMPUTE, COOLANT, NETWORKS, POWER

OPTIONS = ExportOptions(date="2026-12-02")


def _first(doc: Document, kind: str, rack: str | None = None, role: str | None = None):
    found = [d for d in doc.devices.values() if doc.catalog[d.type].kind == kind
             and (rack is None or d.rack == rack) and (role is None or d.role == role)]
    return min(found, key=lambda d: (natural_key(doc.racks[d.rack].name), d.u, natural_key(d.name)))


def every_network(doc: Document) -> Document:
    """The plan with at least one connection of each network: by hand where no step made one."""
    have = {network_of(link) for link in doc.links.values()}
    node = _first(doc, NODE)
    item = doc.catalog[node.type]
    switch = _first(doc, SWITCH)
    pdu = _first(doc, RACK_PDU, rack=node.rack)
    hand = {
        POWER: (node.id, "PSU1", pdu.id, "O37", TIER_POWER_CORD),
        "oob": (node.id, "BMC", switch.id, "1/1", TIER_OOB_ACCESS),
        "storage": (node.id, "S1", switch.id, "2/1", TIER_STORAGE_ACCESS),
        "inband": (node.id, "E1", switch.id, "3/1", TIER_INBAND_ACCESS),
        COOLANT: (node.id, "SUP1", pdu.id, "SUP3", TIER_HOSE),
    }
    for network, (a, a_port, b, b_port, tier) in hand.items():
        if network not in have:
            assert a_port in item.all_port_names() or network != COOLANT
            doc.add(Link(id=doc.new_id("link"), a_device=a, a_port=a_port, b_device=b, b_port=b_port, tier=tier,
                         length_m=1.1, stock_m=1.2))
    return doc


def compute_only(doc: Document) -> Document:
    twin = copy.deepcopy(doc)
    for link_id in [i for i, link in twin.links.items() if network_of(link) != COMPUTE]:
        twin.remove(link_id)
    return twin


@pytest.fixture(scope="module")
def pod() -> Document:
    return every_network(build_template("pod"))


@pytest.fixture(scope="module")
def plan(pod) -> PdfReader:
    out = io.BytesIO()
    cabling_pdf.write_cabling_pdf(pod, out, OPTIONS)
    return PdfReader(out)


def _outline(reader: PdfReader) -> list[tuple[str, int, list[tuple[str, int]]]]:
    tree: list[tuple[str, int, list[tuple[str, int]]]] = []
    for item in reader.outline:
        if isinstance(item, list):
            tree[-1][2].extend((child.title, reader.get_destination_page_number(child)) for child in item)
        else:
            tree.append((item.title, reader.get_destination_page_number(item), []))
    return tree


def _rack_text(reader: PdfReader, doc: Document, rack_id: str) -> str:
    """The text of every page of a rack's section (from the index of racks' bookmarks)."""
    name = doc.racks[rack_id].name
    starts = sorted(page for _title, _page, kids in _outline(reader) for _kid, page in kids)
    first = next(page for _t, _p, kids in _outline(reader) for kid, page in kids if kid == name)
    later = [page for page in starts if page > first]
    last = later[0] if later else len(reader.pages)
    return "\n".join(reader.pages[index].extract_text() for index in range(first, last))


def test_the_plan_has_a_section_per_network_in_order_with_bookmarks(pod, plan):
    tree = _outline(plan)
    networks = next(kids for title, _page, kids in tree if title == cabling_pdf.NETWORKS_TITLE)
    present = sorted({network_of(link) for link in pod.links.values()}, key=network_rank)
    assert present == list(NETWORKS)
    assert [title for title, _page in networks] == [SECTION_TITLES[n] for n in NETWORKS]
    for network, (title, page) in zip(NETWORKS, networks, strict=True):
        text = plan.pages[page].extract_text()
        things = sum(1 for link in pod.links.values() if network_of(link) == network)
        assert text.startswith(f"{title}: {things:,} "), text[:80]


def test_a_rack_page_lists_its_cords_and_hoses_as_lines(pod, plan):
    cords = [link for link in pod.links.values() if network_of(link) == POWER]
    hoses = [link for link in pod.links.values() if network_of(link) == COOLANT]
    node_rack = pod.devices[hoses[0].a_device].rack
    text = _rack_text(plan, pod, node_rack)
    for link in (c for c in cords if pod.devices[c.a_device].rack == node_rack):
        pdu = pod.devices[link.b_device]
        outlet = pod.catalog[pdu.type].outlet(link.b_port).outlet
        assert f"{link.a_port} → {pdu.name} {link.b_port} ({outlet})" in text
    for link in (h for h in hoses if pod.devices[h.a_device].rack == node_rack):
        assert f"{link.a_port} → {pod.devices[link.b_device].name} {link.b_port}" in text
    for heading in ("Compute fabric ·", "Power cords ·", "Coolant hoses ·"):
        assert heading in text
    assert text.index("Compute fabric ·") < text.index("Power cords ·") < text.index("Coolant hoses ·")


def test_compute_figures_stay_those_of_the_compute_cables(pod):
    alone = compute_only(pod)
    mine = next(f for f in network_figures(pod, schedule.cable_rows(pod)) if f.network == COMPUTE)
    before = next(f for f in network_figures(alone, schedule.cable_rows(alone)) if f.network == COMPUTE)
    assert (mine.connections, mine.by_tier, mine.by_kind, mine.rails, mine.racks) == \
        (before.connections, before.by_tier, before.by_kind, before.rails, before.racks)
    assert mine.rails == pod.catalog[_first(pod, NODE).type].port_count
    full, bare = bom.build_bom(pod), bom.build_bom(alone)
    assert [c for c in full["cables"] if c["network"] == COMPUTE] == bare["cables"]
    assert not bare["cords"] and not bare["hoses"]


def test_bom_counts_cables_by_network_cords_by_type_hoses_by_size(pod):
    counted = bom.build_bom(pod)
    data = [link for link in pod.links.values() if network_of(link) in DATA_NETWORKS]
    assert sum(c["port_cables"] for c in counted["cables"]) == len(data)
    for network in DATA_NETWORKS:
        assert sum(c["port_cables"] for c in counted["cables"] if c["network"] == network) == \
            sum(1 for link in data if network_of(link) == network)
    assert all(c["quantity"] * (2 if c["form"] else 1) == c["port_cables"] for c in counted["cables"])
    cords = [link for link in pod.links.values() if network_of(link) == POWER]
    assert sum(c["quantity"] for c in counted["cords"]) == len(cords)
    by_type: dict[str, int] = {}
    for link in cords:
        outlet = pod.catalog[pod.devices[link.b_device].type].outlet(link.b_port).outlet
        key = {"C19": "C19–C20", "C13": "C13–C14"}[outlet]
        by_type[key] = by_type.get(key, 0) + 1
    assert {t: sum(c["quantity"] for c in counted["cords"] if c["type"] == t) for t in by_type} == by_type
    assert sum(h["quantity"] for h in counted["hoses"]) == sum(1 for l in pod.links.values() if network_of(l) == COOLANT)
    # one transceiver per optical plug: per end, except that a twin-port switch cage's two cables share one
    optical = [link for link in data if pod.catalog.media[link.media].transceivers_per_link]
    ends = [(d, p) for link in optical for d, p in ((link.a_device, link.a_port), (link.b_device, link.b_port))]
    twin = {(d, p.split("/")[0]) for d, p in ends if "/" in p}
    single = [end for end in ends if "/" not in end[1]]
    assert sum(t["quantity"] for t in counted["transceivers"]) == len(twin) + len(single) < 2 * len(optical)
    assert sum(t["quantity"] for t in counted["transceivers"] if t["form"] == "twin-port") == len(twin)
    rows = list(csv.DictReader(io.StringIO(_bom_csv(pod))))
    assert sum(int(r["quantity"]) for r in rows if r["section"] == "cord") == len(cords)
    assert any("(storage)" in r["description"] for r in rows if r["section"] == "cable")


def _bom_csv(doc: Document) -> str:
    out = io.StringIO()
    bom.write_bom_csv(doc, out)
    return out.getvalue()


def test_cables_csv_and_xlsx_have_a_network_column(pod):
    out = io.BytesIO()
    schedule.write_csv(pod, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue().decode("utf-8"))))
    expected = {cable_label(pod, link): network_of(link) for link in pod.links.values()}
    assert {row["label"]: row["network"] for row in rows} == expected
    ranks = [network_rank(row["network"]) for row in rows]
    assert ranks == sorted(ranks)  # grouped by network, compute first
    out = io.BytesIO()
    schedule.write_xlsx(pod, out)
    sheet = load_workbook(io.BytesIO(out.getvalue())).active
    values = list(sheet.iter_rows(values_only=True))
    at = list(values[0]).index("network")
    assert {row[0]: row[at] for row in values[1:]} == expected


def test_a_cable_list_with_the_network_column_reads_back_unchanged(pod):
    out = io.BytesIO()
    schedule.write_csv(pod, out)
    text = out.getvalue().decode("utf-8")
    listed = parse_cable_list(text)
    assert {c.network for c in listed.cables} == set(NETWORKS)
    change = plan_cable_list(pod, listed)
    assert change.ok, change.problem_lines()
    assert not change.plan.removed and not change.plan.added and not change.plan.rewired
    # without the column: the ends say the network
    header, *body = text.splitlines()
    at = header.split(",").index("network")
    bare = "\n".join(",".join(line.split(",")[:at]) for line in [header, *body] if "," in line)
    assert {c.network for c in parse_cable_list(bare).cables} == {""}
    # a row whose network is not its ends' is refused with its row
    cord = next(i for i, line in enumerate(body, start=2) if line.endswith(",power"))
    lines = text.splitlines()
    lines[cord - 1] = lines[cord - 1][:-len("power")] + "storage"
    refused = plan_cable_list(pod, parse_cable_list("\n".join(lines)))
    assert not refused.ok and refused.problems[0][0] == cord and "power" in refused.problems[0][1]


def test_tick_sheet_covers_every_network_grouped(pod):
    out = io.BytesIO()
    schedule.write_tick_csv(pod, out)
    text = out.getvalue().decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == len(pod.links)
    ranks = [network_rank(row["network"]) for row in rows]
    assert ranks == sorted(ranks) and {row["network"] for row in rows} == set(NETWORKS)
    cord = next(row for row in rows if row["network"] == POWER)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(cord["label"] + ","))
    lines[at] = lines[at][:-2] + "x,"  # run ticked
    ticks = read_ticks("\n".join(lines))
    command = ticks_command(pod, ticks)
    moved = {link_id for link_id, fields in command.values.items() if fields}
    assert any(network_of(pod.links[i]) == POWER for i in moved)
    compute = next(row for row in rows if row["network"] == COMPUTE)
    at = next(i for i, line in enumerate(lines) if line.startswith(compute["label"] + ","))
    lines[at] = lines[at][:-3] + ",x,,"  # run
    command = ticks_command(pod, read_ticks("\n".join(lines)))
    assert command.text == "Import tick sheet: 2 cables moved on (1 compute, 1 power)"


def test_labels_group_by_network_and_print_it(pod):
    rack = pod.devices[_first(pod, NODE).id].rack
    entries = labels_pdf.label_entries(pod, racks=frozenset({rack}))
    ranks = [network_rank(row.network) for _this, _far, row in entries]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(NETWORKS)
    out = io.BytesIO()
    labels_pdf.write_labels_pdf(pod, out, ExportOptions(date="2026-12-02", racks=frozenset({rack})))
    reader = PdfReader(out)
    text = "\n".join(page.extract_text() for page in reader.pages)
    for network in NETWORKS:
        assert text.count(NETWORK_SHORT[network] + " ") >= sum(1 for e in entries if e[2].network == network)
    cord = next(row for _this, _far, row in entries if row.network == POWER)
    assert "".join(text.split()).count("".join(cord.label.split())) == 2  # whole (two lines), on both labels
    assert f"{NETWORK_SHORT[POWER]} {cord.fitting}–" in text  # "PWR C19–C20 1.2 m"
    tree = [(item.title if not isinstance(item, list) else [i.title for i in item]) for item in reader.outline]
    titles = [t for t in tree if isinstance(t, str)]
    assert titles == [SECTION_TITLES[n] for n in NETWORKS]
    assert all(kids == [pod.racks[rack].name] for kids in tree if isinstance(kids, list))
