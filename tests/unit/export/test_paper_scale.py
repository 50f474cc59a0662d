"""Paper at hall scale (issue 15), on small plans: what keeps the labels and the cabling plan linear.

The QR codes are inline one-bit images that read back as the codes; the label outlines and the
cabling table's grid are forms shared by the pages; so objects, bytes and pages grow with the
labels and cables, not faster. Timings are in ``benchmarks/bench_paper.py``, not here.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from planner.export import cabling_pdf, labels_pdf, qr
from planner.export.fonts import register_fonts
from planner.export.options import ExportOptions
from planner.export.pages import MM
from planner.export.printed_text import draw_text, fit_text
from planner.layout.templates import build_template
from planner.model.document import Document


@pytest.fixture(scope="module")
def halls() -> dict[int, Document]:
    return {nodes: build_template("hall", nodes=nodes) for nodes in (32, 64)}


def _pdf(writer, doc: Document) -> PdfReader:
    out = io.BytesIO()
    writer(doc, out, ExportOptions(date="2026-01-01"))
    return PdfReader(out)


def _marks(outline: list) -> int:
    """Bookmarks at every depth (racks under their network)."""
    return sum(_marks(item) if isinstance(item, list) else 1 for item in outline)


def _objects(reader: PdfReader) -> int:
    return len(reader.xref_objStm) + sum(len(numbers) for numbers in reader.xref.values())


def test_each_qr_code_reads_back_as_the_code_of_its_label(few_cables_doc):
    reader = _pdf(labels_pdf.write_labels_pdf, few_cables_doc)
    entries = labels_pdf.label_entries(few_cables_doc)
    version = qr.max_version((labels_pdf.LabelSheet().height_mm * MM - 4) / MM)
    images = [image for page in reader.pages for image in page.images]
    assert len(images) == len(entries)
    for image, (_this, _far, row) in zip(images, entries, strict=True):
        matrix = qr.qr_matrix(labels_pdf.qr_payload(row, version)[0])
        light = np.array(image.image.convert("L")) > 127
        assert (light == np.pad(~matrix, 1, constant_values=True)).all(), row.label


def test_labels_grow_linearly_and_codes_are_not_objects(halls):
    figures = {}
    for nodes, doc in halls.items():
        out = io.BytesIO()
        labels = labels_pdf.write_labels_pdf(doc, out, ExportOptions(date="2026-01-01"))
        reader = PdfReader(out)
        figures[nodes] = (labels, len(reader.pages), len(out.getvalue()), _objects(reader), _marks(reader.outline))
    (small, small_pages, small_bytes, small_objects, small_racks), (big, big_pages, big_bytes, big_objects, big_racks) = \
        figures[32], figures[64]
    # every network's labels (issue 21): the management and storage switches do not double exactly
    assert big == pytest.approx(2 * small, rel=0.05) and big_pages == pytest.approx(2 * small_pages, rel=0.05)
    assert big_bytes / big == pytest.approx(small_bytes / small, rel=0.1)
    # a page and its content stream each, a bookmark and its target per rack, fonts and one
    # outline form: no object per QR code
    assert big_objects - small_objects <= 2 * (big_pages - small_pages) + 2 * (big_racks - small_racks) + 2
    assert big_bytes / big < 600  # bytes a label, all in: ~190 bytes of QR bits and four lines of text


def test_cabling_pages_share_their_table_grid(halls):
    figures = {}
    for nodes, doc in halls.items():
        out = io.BytesIO()
        pages = cabling_pdf.write_cabling_pdf(doc, out, ExportOptions(date="2026-01-01"))
        reader = PdfReader(out)
        figures[nodes] = (len(doc.links), pages, len(out.getvalue()), _objects(reader) - _marks(reader.outline))
    (small, small_pages, small_bytes, small_objects), (big, big_pages, big_bytes, big_objects) = \
        figures[32], figures[64]
    assert big == pytest.approx(2 * small, rel=0.05) and big_pages > small_pages
    assert big_bytes / big == pytest.approx(small_bytes / small, rel=0.25)
    # two objects a page (page, content) and a few forms (one per row count), not one per table line
    # (a bookmark, a rack's or a network's, is an object of its own: not counted)
    assert big_objects - small_objects <= 2 * (big_pages - small_pages) + 10


def test_packed_mask_penalties_equal_the_module_by_module_ones():
    rng = np.random.default_rng(15)
    for side in (21, 33, 45, 57, 61):
        for dark in (0.05, 0.5, 0.95):
            symbols = rng.random((40, side, side)) < dark
            assert (qr._packed_penalties(symbols) == qr._module_penalties(symbols)).all(), (side, dark)


@pytest.mark.parametrize("text", ["R01 U1 N1 P1", "a (b) \\ c", "R01-U01 ↔ R05 · 10 m …", "x" * 80])
def test_fast_text_prints_what_the_full_path_prints(text):
    register_fonts()
    out = io.BytesIO()
    canvas = Canvas(out)
    draw_text(canvas, 20, 700, text, 8, max_width=150)  # printable, common characters: the fast path
    draw_text(canvas, 20, 680, "ж" + text, 8, max_width=150)  # Cyrillic: the full path
    canvas.showPage()
    canvas.save()
    fast, full = PdfReader(out).pages[0].extract_text().splitlines()
    assert fast == fit_text(text, 8, 150)[0]
    assert full == fit_text("ж" + text, 8, 150)[0]
    if len(text) < 40:
        assert full == "ж" + fast
