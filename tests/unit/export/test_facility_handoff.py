"""The facility hand-off: `planner report --json`'s ppue/draw/CDU keys, and the facility PDF and
CSV read back (pypdf, csv) against the same report, so all three say the same numbers."""

from __future__ import annotations

import csv
import io
import math

import pytest
from pypdf import PdfReader

from planner.cli import main
from planner.export.facility_handoff import write_facility_csv, write_facility_pdf
from planner.export.registry import EXPORT_KINDS, export_to
from planner.io import save
from planner.model.objects import FloorUnit
from planner.rules.report import build_report


def _sections(data: bytes) -> dict[str, list[dict[str, str]]]:
    """The CSV's sections: "[name]" line, header, rows, blank line."""
    result: dict[str, list[dict[str, str]]] = {}
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    index = 0
    while index < len(rows):
        if rows[index] and rows[index][0].startswith("["):
            name, header = rows[index][0].strip("[]"), rows[index + 1]
            index += 2
            body = []
            while index < len(rows) and rows[index]:
                body.append(dict(zip(header, rows[index], strict=True)))
                index += 1
            result[name] = body
        index += 1
    return result


def test_report_carries_ppue_draw_and_cdu_handoff(cabled_doc):
    report = build_report(cabled_doc)
    ppue = report["ppue"]
    assert ppue["target"] == 1.06 and ppue["boundary"].startswith("Boundary: rack IT at steady load")
    hall = ppue["hall"]
    # the hall's pPUE is Σ(IT + pumps + air + losses) / Σ IT, and the rows add up to the hall
    assert hall["ppue"] == pytest.approx(
        (hall["it_kw"] + hall["pump_kw"] + hall["air_kw"] + hall["loss_kw"]) / hall["it_kw"], abs=1e-4)
    assert sum(r["it_kw"] for r in ppue["rows"]) == pytest.approx(hall["it_kw"], abs=1e-2)
    assert all(r["ppue"] is not None for r in report["racks"] if r["power_kw"] > 0)
    # every rack's steady IT (less in-rack CDUs: none here) sums to the hall's
    assert hall["it_kw"] == pytest.approx(sum(r["power_kw"] for r in report["racks"]), abs=1e-2)
    draw = report["draw"]
    assert [f["name"] for f in draw["feeds"]] == [f["name"] for f in report["feeds"]]
    for feed in draw["feeds"]:
        assert feed["idle_kw"] <= feed["steady_kw"] <= feed["after_step_kw"] <= feed["nameplate_kw"]
        assert feed["step_kw"] == pytest.approx(feed["after_step_kw"] - feed["idle_kw"], abs=2e-3)
    # A and B each carry half of every rack: the hall's draw is the two feeds together
    assert draw["hall"]["steady_kw"] == pytest.approx(sum(f["steady_kw"] for f in draw["feeds"]), abs=1e-2)
    cdu = report["cdus"][0]
    assert cdu["return_c"] == pytest.approx(cdu["supply_c"] + report["basis"]["delta_t_k"])
    # pumps: Q·Δp/η = flow/60,000 m³/s × 200 kPa / 0.65
    assert cdu["pump_kw"] == pytest.approx(cdu["flow_required_lpm"] / 60_000 * 200 / 0.65, abs=1e-2)
    assert cdu["heat_to_facility_kw"] == pytest.approx(cdu["liquid_kw"] + cdu["pump_kw"], abs=1e-2)
    assert cdu["pumps"] == 3 and cdu["capacity_one_pump_failed_kw"] == cdu["capacity_kw"]  # N+1 keeps its rating
    assert {"ppue_target", "idle_power_fraction", "ashrae_class", "air_cooling_cop"} <= set(report["basis"])


def test_step_of_one_feed_by_hand(cabled_doc):
    """The pod's first feed: every node steps from 30 % of peak to peak, the rest stays at steady."""
    report = build_report(cabled_doc)
    feed = report["draw"]["feeds"][0]
    bus_id = feed["id"]
    racks = [r for r in cabled_doc.racks.values() if bus_id in (r.feed_a, r.feed_b)]
    nodes = [d for r in racks for d in cabled_doc.devices_in(r.id) if cabled_doc.catalog[d.type].kind == "node"]
    peak = sum(cabled_doc.catalog[d.type].power_peak_w for d in nodes)
    assert feed["step_kw"] == pytest.approx(0.7 * peak / 2 / 1000, abs=1e-2)  # shared over the A and B feeds
    volts, pf = cabled_doc.basis.voltage_v, cabled_doc.basis.power_factor
    assert feed["after_step_a"] == pytest.approx(feed["after_step_kw"] * 1000 / (math.sqrt(3) * volts * pf), abs=0.1)
    assert feed["failover_after_step_a"] == pytest.approx(2 * feed["after_step_a"], abs=0.2)


def test_csv_reads_back_the_report(cabled_doc):
    cabled_doc.add(FloorUnit(id=cabled_doc.new_id("fu"), type="cabinet-630a", name="PDC-1", x=1.0, y=1.0, row="1"))
    report = build_report(cabled_doc)
    out = io.BytesIO()
    count = write_facility_csv(cabled_doc, out)
    sections = _sections(out.getvalue())
    assert set(sections) == {"feeds", "cabinets", "hall", "cdus", "ppue"}
    assert count == sum(len(rows) for rows in sections.values())
    feeds = sections["feeds"]
    assert [f["feed"] for f in feeds] == [f["name"] for f in report["draw"]["feeds"]]
    assert float(feeds[0]["after step A"]) == round(report["draw"]["feeds"][0]["after_step_a"])
    cabinet = sections["cabinets"][0]
    # the cabinet feeds both busbars of row 1: every rack once
    assert cabinet["cabinet"] == "PDC-1" and cabinet["busbars"] == "BB-A01, BB-B01"
    assert float(cabinet["steady kW"]) == pytest.approx(report["draw"]["hall"]["steady_kw"], abs=0.1)
    assert float(cabinet["rating A"]) == 630.0
    hall_row = next(r for r in sections["ppue"] if r["scope"] == "hall")
    assert float(hall_row["pPUE"]) == round(report["ppue"]["hall"]["ppue"], 3)
    assert len([r for r in sections["ppue"] if r["scope"].startswith("rack ")]) == len(cabled_doc.racks)
    assert float(sections["cdus"][0]["return °C"]) == report["cdus"][0]["return_c"]


def test_csv_neutralises_formula_names(cabled_doc):
    bus = next(iter(cabled_doc.busbars.values()))
    cabled_doc.set_fields(bus.id, {"name": "=cmd|' /C calc'!A0"})
    out = io.BytesIO()
    write_facility_csv(cabled_doc, out)
    assert "'=cmd|' /C calc'!A0" in [r["feed"] for r in _sections(out.getvalue())["feeds"]]


def test_pdf_reads_back(cabled_doc, options):
    report = build_report(cabled_doc)
    out = io.BytesIO()
    assert write_facility_pdf(cabled_doc, out, options) == 5  # cabinets: none in the pod
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(out.getvalue())).pages)
    for heading in ("Busbar feeds", "Power cabinets", "The hall: every rack once", "Coolant: heat to water",
                    "Design partial PUE", "Racks by their pPUE", "Boundary: rack IT at steady load"):
        assert heading in text, heading
    assert "Зал №1 <A&B>" in text  # user text verbatim
    assert f"{report['ppue']['hall']['ppue']:.3f}" in text
    assert f"{report['draw']['hall']['after_step_kw']:,.1f}" in text


def test_cli_exports_both_kinds(cabled_doc, tmp_path):
    path = tmp_path / "pod.hall"
    save(cabled_doc, path)
    assert {"facility-pdf", "facility-csv"} <= set(EXPORT_KINDS)
    pdf, sheet = tmp_path / "f.pdf", tmp_path / "f.csv"
    assert main(["export", str(path), "--to", "facility-pdf", "-o", str(pdf), "--paper", "Letter",
                 "--revision", "C7", "--date", "2026-12-01"]) == 0
    first = PdfReader(str(pdf)).pages[0]
    assert "C7" in first.extract_text() and "2026-12-01" in first.extract_text() and "pod.hall" in first.extract_text()
    assert round(float(first.mediabox.width)) == 792  # Letter, landscape for the wide tables
    assert main(["export", str(path), "--to", "facility-csv", "-o", str(sheet)]) == 0
    assert _sections(sheet.read_bytes())["hall"][0]["racks"] == str(len(cabled_doc.racks))


def test_commissioning_pdf_prints_the_ppue(cabled_doc, tmp_path):
    report = build_report(cabled_doc)
    path = tmp_path / "c.pdf"
    export_to(cabled_doc, "commissioning-pdf", path)
    text = " ".join(page.extract_text() for page in PdfReader(str(path)).pages)
    assert "Design partial PUE at the rack (target 1.06)" in text
    assert f"{report['ppue']['hall']['ppue']:.3f}" in text and "rack pPUE" in text
