"""Issue 11: what installers get on paper — file modes, same-rack cables, route, face and part,
plumbing steps only where there is liquid, and expected NCCL bus bandwidth. Read back with
pypdf, csv and openpyxl."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import re
import signal
import stat

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from planner.export import cabling_pdf, commissioning_pdf, labels_pdf, nccl, schedule
from planner.export.install import DEFAULT_PORT_FACE, IN_RACK, InstallInfo
from planner.export.nccl import allreduce_rows
from planner.export.registry import EXPORT_KINDS, export_to
from planner.fabric.routing import Router
from planner.layout.templates import build_template
from planner.model.document import Document, natural_key
from planner.model.networks import in_compute_fabric
from planner.model.objects import Device, Link

from .conftest import cabled_plan


def pdf_text(writer, doc, options=None) -> list[str]:
    out = io.BytesIO()
    writer(doc, out, options)
    return [page.extract_text() for page in PdfReader(out).pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def with_same_rack_cable(doc: Document) -> tuple[Document, Link]:
    """Add a cable between two nodes of one rack (a rack with at least two nodes)."""
    by_rack: dict[str, list] = {}
    for device in doc.devices.values():
        if device.type.startswith("node"):
            by_rack.setdefault(device.rack, []).append(device)
    _rack_id, nodes = min(((r, n) for r, n in by_rack.items() if len(n) > 1), key=lambda kv: natural_key(kv[0]))
    nodes.sort(key=lambda d: d.u)
    link = Link(id="link-same-rack", a_device=nodes[0].id, a_port="P1", b_device=nodes[1].id, b_port="P2",
                tier="node-leaf", rail=1, media="dac", length_m=1.2, stock_m=1.5, label="SAME-RACK-1")
    doc.add(link)
    return doc, link


# --- file mode ----------------------------------------------------------------------------

@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_exports_get_the_mode_a_new_file_gets_under_the_umask(few_cables_doc, tmp_path, umask, mode):
    previous = os.umask(umask)
    try:
        for kind, spec in EXPORT_KINDS.items():
            path = tmp_path / f"{kind}{spec.suffix}"
            try:
                export_to(few_cables_doc, kind, path)
            except ValueError:  # the plan names a node "N<1>&Ж": no Slurm host name
                assert kind == "slurm"
                continue
            if spec.folder:  # a folder gets what mkdir gives, its files what open gives
                assert stat.S_IMODE(path.stat().st_mode) == 0o777 & ~umask, kind
                assert {stat.S_IMODE(p.stat().st_mode) for p in path.rglob("*") if p.is_file()} == {mode}, kind
                continue
            assert stat.S_IMODE(path.stat().st_mode) == mode, kind
    finally:
        os.umask(previous)


def test_an_export_over_an_existing_file_keeps_that_files_mode(few_cables_doc, tmp_path):
    path = tmp_path / "cables.csv"
    path.write_text("old")
    path.chmod(0o640)
    previous = os.umask(0o022)
    try:
        export_to(few_cables_doc, "cables-csv", path)
    finally:
        os.umask(previous)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.read_text().startswith("label,")


# --- a cable with both ends in one rack -----------------------------------------------------

def test_a_same_rack_cable_is_listed_once_on_its_racks_sheet(options):
    doc, link = with_same_rack_cable(cabled_plan())
    rack = doc.racks[doc.devices[link.a_device].rack]
    texts = pdf_text(cabling_pdf.write_cabling_pdf, doc, options)
    section = " ".join(t for t in texts if re.search(rf"Rack {re.escape(rack.name)} · row", t))
    assert section.count("SAME-RACK-1") == 1
    assert "both ends in this rack" in section and "this rack" in section and "route: in rack" in squash(section)
    total = len(schedule.rows_by_rack(schedule.cable_rows(doc), once=True)[rack.id])
    assert f"{total} cables" in section
    # each end still gets its own label
    labels = " ".join(pdf_text(labels_pdf.write_labels_pdf, doc, options))
    assert labels.count("SAME-RACK-1") == 2


# --- route, face and part -------------------------------------------------------------------

@pytest.fixture(scope="module")
def hall_doc() -> Document:
    """Three rows: routes inside a rack, along a row, and across rows."""
    return build_template("hall", nodes=72)


def test_route_in_words_follows_the_routers_tray_path(hall_doc):
    info = InstallInfo(hall_doc)
    racks = sorted(hall_doc.racks.values(), key=lambda r: natural_key(r.name))
    by_row: dict[str, list] = {}
    for rack in racks:
        by_row.setdefault(rack.row, []).append(rack)
    router = Router(hall_doc)
    first, second = by_row["1"], by_row["2"]
    assert info.route(first[0].id, first[0].id) == IN_RACK
    assert info.route(first[0].id, first[-1].id) == "row 1 tray"
    # two racks of different rows, neither at a crossing: row tray, cross-aisle, row tray
    a = next(r for r in first if r.x not in router.cross_x)
    b = next(r for r in second if r.x not in router.cross_x)
    words = info.route(a.id, b.id)
    match = re.fullmatch(r"row 1 tray → cross-aisle at x (\d+\.\d\d) m → row 2 tray", words)
    assert match, words
    cross = float(match.group(1))
    _length, points = router.tray_path(a.id, b.id)
    assert cross == pytest.approx(points[1][0])
    assert any(cross == pytest.approx(c) for c in router.cross_x)


def test_schedule_appends_route_face_and_part_columns(hall_doc):
    out = io.BytesIO()
    schedule.write_csv(hall_doc, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue().decode())))
    assert list(rows[0])[:len(schedule.COLUMNS)] == list(schedule.COLUMNS)
    assert list(rows[0])[len(schedule.COLUMNS):] == list(schedule.INSTALL_COLUMNS)
    media = hall_doc.catalog.media
    for row in rows:
        assert row["a_face"] == row["b_face"] == DEFAULT_PORT_FACE
        if row["network"] in ("power", "coolant"):  # issue 21: a cord's or hose's part, not a media's
            assert row["part"].startswith(("Power cord", "Coolant hose")), row["part"]
            continue
        assert row["part"] == f"{media[row['media']].name}, {float(row['stock_length_m']):g} m"
        if row["a_rack"] == row["b_rack"]:
            assert row["route"] == IN_RACK
    assert {row["route"] for row in rows} >= {IN_RACK, "row 1 tray"}
    assert any("cross-aisle at x" in row["route"] for row in rows)
    book = io.BytesIO()
    schedule.write_xlsx(hall_doc, book)
    sheet = load_workbook(book).active
    header = [cell.value for cell in sheet[1]]
    assert header == list(schedule.COLUMNS + schedule.INSTALL_COLUMNS)
    assert sheet.cell(2, header.index("route") + 1).value == rows[0]["route"]


def test_a_catalogue_port_face_wins_over_the_default(few_cables_doc):
    doc = few_cables_doc
    node_type = next(d.type for d in doc.devices.values() if d.type.startswith("node"))
    assert doc.catalog.items[node_type].port_face == ""  # the bundled entries do not say
    doc.catalog.items[node_type].port_face = "front"  # this plan's own entry (no other plan sees it)
    rows = schedule.cable_rows(doc, install=True)
    node_ends = 0
    for row in (row for row in rows if row.network == "compute"):  # node-to-switch rails (issue 21)
        for end, face in ((row.a, row.a_face), (row.b, row.b_face)):
            is_node = end.port.startswith("P")  # node rail ports are P1 … P8, switch ports 1/1 …
            node_ends += is_node
            assert face == ("front" if is_node else DEFAULT_PORT_FACE)
    assert node_ends


def test_cabling_plan_prints_face_route_and_part_next_to_each_cable():
    doc = build_template("hall", nodes=72)
    for index, link_id in enumerate(sorted(doc.links, key=natural_key)):
        if index % 5:  # fewer pages to read back
            doc.remove(link_id)
    texts = pdf_text(cabling_pdf.write_cabling_pdf, doc)
    text = squash(" ".join(texts))
    assert "face" in text and "rear" in text
    assert "route: row 1 tray" in text and "route: in rack" in text and "cross-aisle at x" in text
    assert "part: Multimode SR4 fibre, MPO-12 (OM4), 10 m" in text
    assert "Face: the rack face the port is on" in squash(texts[0])


# --- commissioning: plumbing only where there is liquid; expected NCCL bandwidth -------------

def steps_of(doc: Document, rack_id: str) -> str:
    figures = next(r for r in commissioning_pdf.build_report(doc)["racks"] if r["id"] == rack_id)
    return " ".join(step for step, _box in commissioning_pdf.install_steps(doc, figures, 0))


def test_only_racks_with_liquid_cooled_equipment_get_plumbing_steps(cabled_doc, options):
    doc = cabled_doc
    # the network rack: compute-fabric switches (leaves, spines), no nodes; since every network is
    # cabled each node rack holds an OOB access switch too, so "has a switch" no longer picks it
    switch_racks = {d.rack for d in doc.devices.values() if in_compute_fabric(d.role)}
    assert all(not doc.catalog.items[d.type].liquid_fraction for r in switch_racks for d in doc.devices_in(r))
    node_racks = {d.rack for d in doc.devices.values() if d.type == "node-8gpu-liquid-4u"} - switch_racks
    assert switch_racks and node_racks
    for rack_id in switch_racks:
        assert "Leak test" not in steps_of(doc, rack_id) and "Cold plates" not in steps_of(doc, rack_id)
    for rack_id in node_racks:
        assert "Leak test" in steps_of(doc, rack_id) and "Cold plates" in steps_of(doc, rack_id)
    switch_rack = doc.racks[min(switch_racks)]
    doc.add(Device(id="dev-cdu-x", type="cdu-rack-250kw", name="CDU-X", rack=switch_rack.id, u=40))
    assert "Leak test" in steps_of(doc, switch_rack.id)  # an in-rack CDU is plumbed
    air = next(iter(node_racks))
    for device in doc.devices_in(air):
        if device.type == "node-8gpu-liquid-4u":
            doc.set_fields(device.id, {"type": "node-8gpu-air-8u"})
    assert "Leak test" not in steps_of(doc, air)  # liquid fraction 0: air-cooled nodes need no plumbing
    text = squash(" ".join(pdf_text(commissioning_pdf.write_commissioning_pdf, doc, options)))
    leak_tests = text.count("Leak test: pressure")
    assert leak_tests == sum(1 for r in doc.racks if "Leak test" in steps_of(doc, r))


def test_nccl_expected_bus_bandwidth_from_link_rate_rails_and_oversubscription(cabled_doc, options):
    # 400 Gb/s = 50 GB/s per rail × η 0.80 = 40.0 GB/s; 8 rails → 320.0 GB/s
    assert cabled_doc.basis.nccl_efficiency == 0.80
    text = squash(" ".join(pdf_text(commissioning_pdf.write_commissioning_pdf, cabled_doc, options)))
    assert "busBw = algBw × 2(n−1)/n" in text and "PERFORMANCE.md" in text
    assert "link rate 400 Gb/s = 50 GB/s, 8 rails, r = 1" in text
    for rail in range(1, 9):
        assert f"SU 1 rail {rail} ≥ 40.0" in text
    assert "SU 1 all rails ≥ 320.0" in text
    # across two SUs at 2:1 the leaf uplinks carry half: 20.0 and 160.0 GB/s
    rows, figures = allreduce_rows(cabled_doc, [1, 2], list(range(1, 9)), 2.0)
    assert figures.cross_su_factor == 0.5
    assert ["all SUs", "rail 3", "", "≥ 20.0", ""] in rows
    assert ["all SUs", "all rails", "", "≥ 160.0", ""] in rows
    assert ["SU 2", "rail 3", "", "≥ 40.0", ""] in rows


def test_the_nccl_floor_is_the_design_basis_value(cabled_doc, options):
    """The efficiency η comes from the plan's design basis (``nccl_efficiency``), not a constant."""
    assert not hasattr(nccl, "NCCL_EFFICIENCY")
    cabled_doc.basis.nccl_efficiency = 0.9
    assert cabled_doc.basis.source("nccl_efficiency") == \
        "Commissioning: NCCL bus bandwidth floor as a share of line rate (planning assumption)"
    text = squash(" ".join(pdf_text(commissioning_pdf.write_commissioning_pdf, cabled_doc, options)))
    assert "η = 0.90 (design basis, NCCL efficiency)" in text
    assert "SU 1 rail 1 ≥ 45.0" in text and "SU 1 all rails ≥ 360.0" in text  # 50 GB/s × 0.9, × 8 rails


def test_a_media_part_code_is_the_part_to_take(few_cables_doc):
    doc = few_cables_doc
    used = {link.media for link in doc.links.values() if link.media}  # cords and hoses have none
    key = min(used)
    assert doc.catalog.media[key].part == ""  # the bundled media give no order code: the name is printed
    doc.catalog.media[key] = dataclasses.replace(doc.catalog.media[key], part="MFA7U10-H010")
    rows = schedule.cable_rows(doc, install=True)
    for row in rows:
        if row.media == key:
            assert row.part == f"MFA7U10-H010, {row.stock_m:g} m"
        elif not row.media:
            assert row.part.startswith(("Power cord", "Coolant hose")), row.part
        else:
            assert row.part.startswith(doc.catalog.media[row.media].name)


# --- commissioning: a plan the fabric generator cannot size still prints -----------------------

def test_commissioning_of_nodes_with_different_rail_counts_says_why_there_is_no_nccl_table(few_cables_doc, options):
    doc = few_cables_doc
    node = min((d for d in doc.devices.values() if d.type.startswith("node")), key=lambda d: natural_key(d.id))
    four_rails = dataclasses.replace(doc.catalog[node.type], key="custom-4-rail", name="4-rail node", port_cages=4,
                                     custom=True)
    doc.catalog.add(four_rails)
    for link in list(doc.links_of(node.id)):
        doc.remove(link.id)
    doc.set_fields(node.id, {"type": "custom-4-rail"})
    tables = commissioning_pdf.prove_tables(doc)
    assert tables["allreduce"][1] == []
    summary = dict(tables["fabric"][1])
    nodes = sum(1 for d in doc.devices.values() if doc.catalog[d.type].kind == "node")
    assert summary["nodes"] == str(nodes) and summary["GPUs"] == str(8 * (nodes - 1) + 4)
    assert summary["tiers"] == summary["oversubscription"] == "—"
    text = squash(" ".join(pdf_text(commissioning_pdf.write_commissioning_pdf, doc, options)))
    assert "The fabric mixes node types with 4 and 8 rails: it is not a rail-optimised design" in text
    assert "Scaling test" in text and "Sign-off" in text


def test_a_scaling_test_from_zero_gpus_ends(cabled_doc):
    """Each step doubles the GPUs: a basis starting at 0 (set in code; a file cannot hold it) starts at 1."""
    def stop(_signum, _frame):
        raise TimeoutError("prove_tables did not finish")

    cabled_doc.basis.scaling_min_gpus = 0
    cabled_doc.basis.scaling_max_gpus = 8
    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        scaling = commissioning_pdf.prove_tables(cabled_doc)["scaling"][1]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert [row[:2] for row in scaling] == [["1", "baseline"], ["2", "> 90 %"], ["4", "> 90 %"], ["8", "> 90 %"]]
