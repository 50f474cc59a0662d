"""Read every export back: PDF text (pypdf), CSV (csv module), XLSX (openpyxl), SVG (XML)."""

from __future__ import annotations

import csv
import io
import math
import re
import xml.etree.ElementTree as ET

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from planner.export import cabling_pdf, commissioning_pdf, floorplan_svg, labels_pdf, qr, schedule
from planner.export.bom import build_bom, write_bom_csv
from planner.export.options import PAPER_SIZES, ExportCancelled, ExportOptions
from planner.export.schedule import COLUMNS, INSTALL_COLUMNS, cable_rows
from planner.io.atomic import write_atomic
from planner.layout.templates import build_template
from planner.model.document import natural_key
from planner.rules.engine import validate
from planner.rules.report import build_report

from .conftest import HALL, ODD_DEVICE, ODD_LABEL, PROJECT


def pdf_bytes(writer, doc, options, **kwargs) -> bytes:
    out = io.BytesIO()
    writer(doc, out, options, **kwargs)
    return out.getvalue()


def page_texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def compact(text: str) -> str:
    """Text without whitespace: pypdf puts line breaks between runs of different fonts (CJK)."""
    return re.sub(r"\s+", "", text)


def expected_link_rows(doc) -> list[list[str]]:
    """The plan's links as schedule rows, computed here from the model, not from the exporter."""
    rows = []
    for link in doc.links.values():
        ends = []
        for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            device = doc.devices[device_id]
            ends += [doc.racks[device.rack].name, str(device.u), device.name, port]
        derived = " ↔ ".join(f"{r}-U{int(u):02d}-{n}-{p}" for r, u, n, p in (ends[:4], ends[4:]))
        rows.append([link.label or derived, *ends, link.tier, str(link.rail), link.media, str(link.length_m),
                     str(link.stock_m)])
    return sorted(rows)


def test_csv_rows_equal_the_plans_links(cabled_doc, options):
    out = io.BytesIO()
    count = schedule.write_csv(cabled_doc, out, options)
    rows = list(csv.reader(io.StringIO(out.getvalue().decode("utf-8"))))
    assert rows[0] == list(COLUMNS + INSTALL_COLUMNS)  # the installer's columns come after the original ones
    assert count == len(cabled_doc.links) == len(rows) - 1 > 300
    assert sorted(row[:len(COLUMNS)] for row in rows[1:]) == expected_link_rows(cabled_doc)
    assert any(row[0] == ODD_LABEL and row[3] == ODD_DEVICE for row in rows)


def test_xlsx_rows_header_panes_filter_and_widths(cabled_doc, options):
    out = io.BytesIO()
    schedule.write_xlsx(cabled_doc, out, options)
    sheet = load_workbook(io.BytesIO(out.getvalue())).active
    values = [[("" if v is None else str(v)) for v in row][:len(COLUMNS)] for row in sheet.iter_rows(values_only=True)]
    assert values[0] == list(COLUMNS)
    numeric = [row[:12] + [float(row[12]), float(row[13])] for row in values[1:]]
    expected = [row[:12] + [float(row[12]), float(row[13])] for row in expected_link_rows(cabled_doc)]
    assert sorted(numeric) == expected
    assert sheet.freeze_panes == "A2"
    assert sheet.auto_filter.ref == f"A1:S{len(cabled_doc.links) + 1}"  # 19 columns: the network last
    label_width = max(len(r[0]) for r in values)
    assert sheet.column_dimensions["A"].width >= label_width
    assert isinstance(sheet.cell(2, 13).value, float)


def test_cabling_pdf_lists_every_cable_in_both_racks_sections(cabled_doc, options):
    texts = page_texts(pdf_bytes(cabling_pdf.write_cabling_pdf, cabled_doc, options))
    total = len(texts)
    sections: dict[str, str] = {}
    for number, text in enumerate(texts, start=1):
        assert f"{number} of {total}" in text
        match = re.search(r"Rack (\S+) · row", text)
        if match:
            sections[match.group(1)] = sections.get(match.group(1), "") + compact(text)
    assert set(sections) == {r.name for r in cabled_doc.racks.values()}
    for row in cable_rows(cabled_doc):
        assert compact(row.label) in sections[row.a.rack], (row.label, row.a.rack)
        assert compact(row.label) in sections[row.b.rack], (row.label, row.b.rack)
    cover = squash(texts[0])
    nodes = sum(1 for d in cabled_doc.devices.values() if d.type.startswith("node"))
    assert PROJECT in cover and f"GPU nodes {nodes}" in cover and f"node-leaf {nodes * 8}" in cover
    assert "Rail 8" in cover
    assert ODD_DEVICE in "".join(sections.values()) and compact(HALL) in compact(texts[1])


def test_labels_pdf_holds_two_labels_per_cable_in_rack_order(few_cables_doc, options):
    cabled_doc = few_cables_doc
    data = pdf_bytes(labels_pdf.write_labels_pdf, cabled_doc, options)
    text = compact(" ".join(page_texts(data)))
    for row in cable_rows(cabled_doc):
        assert text.count(compact(row.label)) == 2, row.label
    entries = labels_pdf.label_entries(cabled_doc)
    assert len(entries) == 2 * len(cabled_doc.links)
    racks = [cabled_doc.racks[this.rack_id].name for this, _far, _row in entries]
    networks = [row.network for _this, _far, row in entries]
    for network in set(networks):  # network by network (issue 21), each in rack order
        mine = [rack for rack, on in zip(racks, networks, strict=True) if on == network]
        assert mine == sorted(mine), network
    assert len(set(racks)) > 3
    assert len(PdfReader(io.BytesIO(data)).pages) == -(-len(entries) // 30)


def test_label_sheet_grid_is_configurable(few_cables_doc, options):
    cabled_doc = few_cables_doc
    sheet = labels_pdf.LabelSheet(columns=2, rows=7, width_mm=99.1, height_mm=38.1)
    data = pdf_bytes(labels_pdf.write_labels_pdf, cabled_doc, options, sheet=sheet)
    assert len(PdfReader(io.BytesIO(data)).pages) == -(-2 * len(cabled_doc.links) // 14)


def test_qr_code_matrix_is_square_with_finder_patterns():
    matrix = qr.qr_matrix("R01-U01-N1-P1 ↔ R05-U01-L1-1/1\nR01 U1 N1 P1\nR05 U1 L1 1/1")
    count = matrix.shape[0]
    assert matrix.shape == (count, count) and (count - 17) % 4 == 0
    assert matrix[0, :7].all() and matrix[0, count - 7:].all() and matrix[count - 1, :7].all()
    image = qr.qr_image(matrix)
    assert image.size == (count + 2, count + 2)
    assert image.getpixel((0, 0)) == 255 and image.getpixel((1, 1)) == 0


def test_commissioning_figures_equal_the_report(cabled_doc, options):
    text = squash(" ".join(page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, cabled_doc, options))))
    report = build_report(cabled_doc)
    fmt = commissioning_pdf.fmt
    for rack in report["racks"]:
        assert f"{rack['name']} {rack['zone']} {fmt(rack['weight_kg'])} {fmt(rack['footprint_m2'], 2)} " \
               f"{fmt(rack['floor_kpa'], 2)}" in text
    for feed in report["feeds"]:
        assert f"{feed['name']} {feed['side']} 415 {feed['rating_a']:,.0f} {feed['derated_a']:,.1f} " \
               f"{feed['current_a']:,.1f} {feed['current_failover_a']:,.1f}" in text
    for cdu in report["cdus"]:
        assert f"{cdu['name']} {cdu['liquid_kw']:,.1f} {cdu['capacity_kw']:,.1f} {cdu['flow_required_lpm']:,.1f}" in text
    assert report["trays"]
    for tray in report["trays"]:
        assert f"{tray['name']} 1 × 600 × 100 {tray['start_m']:.2f}–{tray['end_m']:.2f} " \
               f"{tray['peak_start_m']:.2f}–{tray['peak_end_m']:.2f} {tray['cables']:,} {tray['area_mm2']:,.0f} " \
               f"{100 * tray['fill']:.0f} %" in text
    assert "(a) Site and facility survey" in text and "(d) Handover" in text
    assert "> 90 %" in text and "Sign-off" in text and PROJECT in text


def test_commissioning_names_trays_in_open_findings(cabled_doc, options):
    # Every data network lies in the tray (power cords and hoses stay in their rack). Between R02
    # and the network rack R03 (x 4.80–5.60 m) run the cables of the 8 nodes west of it, each with
    # 8 compute + 2 storage + 2 in-band SR4 cables: 96 × 7.0686 mm² (3.0 mm) = 678.6 mm², and the
    # 2 uplinks of each of the 2 OOB access switches there: 4 ACC × 35.257 mm² (6.7 mm) = 141.0 mm²;
    # 100 cables, 819.6 mm² in a 20 × 20 mm tray = 205 % of 400 mm².
    cabled_doc.basis.row_tray_width_m = cabled_doc.basis.row_tray_depth_m = 0.02
    text = squash(" ".join(page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, cabled_doc, options))))
    assert "error N9 Row 1 tray (y 3.00 m) Row 1 tray (y 3.00 m): 100 cables, 820 mm² = 205% of 400 mm² " \
           "(20 × 20 mm) at x 4.80–5.60 m" in text
    assert "tray:row" not in text


def test_commissioning_says_none_for_a_plan_without_errors_or_warnings(options):
    clean = build_template("pod", nodes=16)  # the template itself, without the test's odd names
    assert [f for f in validate(clean) if f.severity in ("error", "warning")] == []
    text = squash(" ".join(page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, clean, options))))
    assert "None: validation reports no errors or warnings." in text


def test_commissioning_lists_each_open_finding(cabled_doc, options):
    # the odd device name "N<1>&Ж" is no host name (H2); the tray test above covers an error
    findings = [f for f in validate(cabled_doc) if f.severity in ("error", "warning")]
    assert {f.rule for f in findings} == {"H2"}
    text = squash(" ".join(page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, cabled_doc, options))))
    for finding in findings:
        assert squash(finding.message)[:40] in text
    assert "None: validation reports no errors or warnings." not in text


def test_commissioning_figures_of_one_rack_and_feed_worked_by_hand(cabled_doc, options):
    """One rack's weight, footprint and floor load and its feed's current, from the catalogue with
    the formulas of DESIGN §5 (not through the report the PDF is built from)."""
    text = squash(" ".join(page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, cabled_doc, options))))
    catalog, basis = cabled_doc.catalog, cabled_doc.basis
    rack = min(cabled_doc.racks.values(), key=lambda r: natural_key(r.name))
    rack_type = catalog[rack.type]
    devices = cabled_doc.devices_in(rack.id)
    weight = rack_type.weight_kg + sum(catalog[d.type].weight_kg for d in devices)
    area = rack_type.width_m * rack_type.depth_m
    kpa = weight * 9.80665 / 1000 / area  # footprint method: q = W·g / A
    assert basis.floor_method == "footprint"
    zone = next(iter(cabled_doc.zones.values()))
    assert f"{rack.name} {zone.name} {weight:,.1f} {area:.2f} {kpa:.2f} {zone.rating_kpa:.1f} " in text
    # each rack's peak draw shared over its two feeds, I = P / (√3 · V · PF) on the busiest phase;
    # the three phases carry a 3-phase rack equally
    bus_id = rack.feed_a
    power = {r.id: sum(catalog[d.type].power_peak_w or catalog[d.type].power_w for d in cabled_doc.devices_in(r.id))
             for r in cabled_doc.racks.values() if bus_id in (r.feed_a, r.feed_b)}
    current = sum(p / 2 for p in power.values()) / (math.sqrt(3) * basis.voltage_v * basis.power_factor)
    failover = sum(power.values()) / (math.sqrt(3) * basis.voltage_v * basis.power_factor)
    bus = cabled_doc.busbars[bus_id]
    rating = catalog[bus.type].rating_a
    assert f"{bus.name} {bus.side} 415 {rating:,.0f} {rating * basis.derating:,.1f} {current:,.1f} {failover:,.1f}" in text


@pytest.mark.parametrize("writer", [cabling_pdf.write_cabling_pdf, labels_pdf.write_labels_pdf,
                                    commissioning_pdf.write_commissioning_pdf])
def test_pdfs_are_byte_stable_and_follow_the_paper_setting(few_cables_doc, options, writer):
    cabled_doc = few_cables_doc
    first = pdf_bytes(writer, cabled_doc, options)
    assert first == pdf_bytes(writer, cabled_doc, options)
    for paper, (width, height) in PAPER_SIZES.items():
        options.paper = paper
        box = PdfReader(io.BytesIO(pdf_bytes(writer, cabled_doc, options))).pages[-1].mediabox
        assert sorted((round(float(box.width)), round(float(box.height)))) == sorted((round(width), round(height)))


def test_title_block_on_every_page(cabled_doc, options):
    texts = page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, cabled_doc, options))
    for number, text in enumerate(texts, start=1):
        for fact in (PROJECT, "B", "2026-11-30", "Ана Ли", "pod.hall", f"{number} of {len(texts)}"):
            assert fact in text


def test_floorplan_svg_is_valid_xml_with_names_scale_bar_and_north_arrow(cabled_doc, options):
    text = floorplan_svg.render_svg(cabled_doc, options)
    root = ET.fromstring(text.encode("utf-8"))
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for rack in cabled_doc.racks.values():
        assert rack.name in words
    for unit in cabled_doc.floor_units.values():
        assert unit.name in words
    for bus in cabled_doc.busbars.values():
        assert bus.name in words
    assert "Row " in words and "Scale 1:100" in words and PROJECT in words
    classes = {e.get("class") for e in root.iter()}
    assert {"scale-bar", "north-arrow", "busbar", "rack", "tray", "title-block"} <= classes
    width_mm = float(root.get("width").removesuffix("mm"))
    view_width_cm = float(root.get("viewBox").split()[2])
    assert width_mm == pytest.approx(view_width_cm / 10, abs=0.1)


def test_bom_counts(cabled_doc):
    bom = build_bom(cabled_doc)
    equipment = {e["key"]: e["quantity"] for e in bom["equipment"]}
    for key in {d.type for d in cabled_doc.devices.values()}:
        assert equipment[key] == sum(1 for d in cabled_doc.devices.values() if d.type == key)
    every = (sum(c["port_cables"] for c in bom["cables"])
             + sum(c["quantity"] for part in ("cords", "hoses") for c in bom[part]))  # every network
    assert every == len(cabled_doc.links)
    # a DAC or ACC has its plugs on: two cables of a twin-port cage "n/1", "n/2" are one to order
    copper = [link for link in cabled_doc.links.values() if link.media in ("dac", "acc")]
    in_cage: dict[tuple[str, str], list[str]] = {}
    for link in copper:
        for d, p in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            if "/" in p and cabled_doc.catalog[cabled_doc.devices[d].type].kind == "switch":
                in_cage.setdefault((d, p.split("/")[0]), []).append(link.id)
    pairs = {frozenset(ids) for ids in in_cage.values() if len(ids) == 2}
    assert pairs  # the pod has twin-port copper cables
    copper_rows = [c for c in bom["cables"] if c["media"] in ("dac", "acc")]
    assert sum(c["quantity"] for c in copper_rows) == len(copper) - len(pairs)
    assert sum(c["quantity"] for c in copper_rows if c["form"]) == len(pairs)
    optical = [link for link in cabled_doc.links.values() if link.media in ("sr4", "dr4", "fr4")]
    ends = [(d, p) for link in optical for d, p in ((link.a_device, link.a_port), (link.b_device, link.b_port))]
    plugs = {(d, p.split("/")[0]) if "/" in p else (d, p) for d, p in ends}  # twin-port cages "1/1", "1/2": one plug
    assert sum(t["quantity"] for t in bom["transceivers"]) == len(plugs)
    feeds = sum(bool(r.feed_a) + bool(r.feed_b) for r in cabled_doc.racks.values())
    assert sum(t["quantity"] for t in bom["tap_offs"]) == feeds
    out = io.StringIO()
    write_bom_csv(cabled_doc, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert sum(int(r["quantity"]) for r in rows if r["section"] in ("cable", "cord", "hose")) == \
        len(cabled_doc.links) - len(pairs)


def test_cancelled_export_leaves_no_partial_file(cabled_doc, tmp_path):
    target = tmp_path / "plan.pdf"
    target.write_bytes(b"previous")

    def cancel(fraction: float) -> None:
        if fraction > 0.2:
            raise ExportCancelled

    options = ExportOptions(progress=cancel)
    with pytest.raises(ExportCancelled):
        write_atomic(target, lambda out: cabling_pdf.write_cabling_pdf(cabled_doc, out, options), backup=False)
    assert target.read_bytes() == b"previous"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.pdf"]


def test_commissioning_counts_the_cables_of_a_stale_rack_pair(cabled_doc, options):
    """N8 names a rack pair's stale cables in one finding: its row says how many cables, not a
    list of cable ids."""
    rack = next(r for r in cabled_doc.racks.values() if r.name == "R03")
    rack.x += 0.6
    [stale] = [f for f in validate(cabled_doc) if f.rule == "N8" and len(f.subjects) > 1][:1]
    text = squash(" ".join(page_texts(pdf_bytes(commissioning_pdf.write_commissioning_pdf, cabled_doc, options))))
    assert f"{stale.severity} N8 {len(stale.subjects)} cables {stale.message[:40]}" in text
    assert "link-" not in text
