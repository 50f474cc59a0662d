"""The installer's worklist and the commissioning document's installation figures, read back."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader

from planner.asbuilt.verify import Discovery, progress_text, read_discovery, state_counts, verify
from planner.export.commissioning_pdf import write_commissioning_pdf
from planner.export.options import ExportOptions
from planner.export.verify_report import write_verify_pdf
from planner.io import load
from planner.layout.templates import build_template

DATA = Path(__file__).parents[2] / "data" / "discovery"


def _text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_progress_from_the_cable_states():
    doc = load(DATA / "tiny.hall")
    assert progress_text(doc) == "0 of 6 cables verified (0.0 %)."
    doc.set_fields("link-1", {"state": "verified"})
    doc.set_fields("link-2", {"state": "faulty", "state_note": "swap"})
    doc.set_fields("link-3", {"state": "tested"})
    assert state_counts(doc) == {"planned": 3, "run": 0, "labelled": 0, "tested": 1, "verified": 1, "faulty": 1}
    assert progress_text(doc) == "1 of 6 cables verified (16.7 %); 1 faulty, 1 tested."


def test_the_commissioning_document_quotes_the_installation():
    doc = build_template("pod", 4)
    for link_id in list(doc.links)[:8]:
        doc.set_fields(link_id, {"state": "verified"})
    out = io.BytesIO()
    write_commissioning_pdf(doc, out, ExportOptions(date="2026-06-01"))
    text = " ".join(_text(out.getvalue()).split())
    total = len(doc.links)  # every network's: the cords' states count as the rails' do
    assert f"Cable installation, from the plan's cable states: 8 of {total:,} cables verified " \
           f"({800 / total:.1f} %)." in text


def test_a_long_worklist_paginates_with_rack_headings_continued():
    doc = load(DATA / "tiny.hall")
    result = verify(doc, Discovery())
    many = [*result.cables] * 40  # 240 fixes at one rack: several pages
    result.cables = [type(c)(f"{c.link_id}-{i}", c.label, c.status, c.found, f"{c.fix} #{i}", c.rack_id)
                     for i, c in enumerate(many)]
    out = io.BytesIO()
    pages = write_verify_pdf(doc, result, out, ExportOptions(date="2026-06-01", file_name="tiny.hall"))
    text = _text(out.getvalue())
    assert pages > 3 and f"1 of {pages}" in text and f"{pages} of {pages}" in text
    assert "Rack R01 (continued)" in text and "Rack R05" in text
    assert "#239" in text


def test_the_worklist_names_each_cable_it_fixes():
    doc = load(DATA / "tiny.hall")
    result = verify(doc, read_discovery(doc, ibnetdiscover=[DATA / "faults.ibnet"]))
    out = io.BytesIO()
    write_verify_pdf(doc, result, out)
    text = " ".join(_text(out.getvalue()).split())
    assert "R05 L1: swap the cables in 1/1 and 1/2 [R01-U01-N1-P1 ↔ R05-U01-L1-1/1; R01-U09-N2-P1 ↔ R05-U01-L1-1/2]" \
        in text
    assert text.index("Rack R01") < text.index("Rack R05")
