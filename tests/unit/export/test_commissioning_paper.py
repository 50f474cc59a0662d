"""The commissioning document's defects of issue 20, read back with pypdf: the fabric summary's
counts are whole numbers ("tiers 3", not "tiers 3.0"), a long table's header prints once at the
top of each page it runs over and never again mid-page, and every install checklist step has
a tick box, initials and a date."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A6
from reportlab.platypus import SimpleDocTemplate

from planner.export import commissioning_pdf
from planner.export.commissioning_pdf import data_tables, write_commissioning_pdf
from planner.export.fonts import register_fonts
from planner.export.options import ExportOptions
from planner.fabric.sizing import fabric_counts
from planner.layout.templates import build_template
from planner.model.document import natural_key


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def hall_pages() -> tuple[object, list[str]]:
    """A 3-tier hall of 256 nodes (72 racks: the rack-load table runs over two pages, in two runs of
    rows) and its document's pages as text."""
    doc = build_template("hall", 256)
    out = io.BytesIO()
    write_commissioning_pdf(doc, out, ExportOptions(date="2026-12-01"))
    return doc, [words(page.extract_text()) for page in PdfReader(io.BytesIO(out.getvalue())).pages]


def test_the_fabric_summary_counts_are_whole_numbers(hall_pages):
    """It printed the tier count through the one-decimal figure format ("tiers 3.0")."""
    doc, pages = hall_pages
    page = next(p for p in pages if "Fabric summary" in p)
    summary = page[page.index("Fabric summary"):page.index("oversubscription")]
    assert fabric_counts(doc)["tiers"] == 2
    assert "tiers 2 " in summary and ".0" not in summary
    assert "nodes 256 GPUs 2,048 " in summary  # a thousands comma, as everywhere
    assert "node-leaf links 2,048" in summary


RACK_HEADER = "rack zone weight kg footprint m² load kPa zone rating kPa of rating"


def test_a_long_table_prints_its_header_once_a_page_at_the_top(hall_pages):
    doc, pages = hall_pages
    racks = sorted((r.name for r in doc.racks.values()), key=natural_key)
    assert len(racks) > commissioning_pdf.TABLE_CHUNK  # more than one run of rows
    table_pages = [p for p in pages if any(f" {name} Slab " in p for name in racks)]
    assert len(table_pages) >= 2
    for page in table_pages:
        assert page.count(RACK_HEADER) == 1, page[:300]
        # the header comes before the page's first rack row: at the top, not mid-page
        first_row = min(page.index(f" {name} Slab ") for name in racks if f" {name} Slab " in page)
        assert page.index(RACK_HEADER) < first_row
    every = " ".join(table_pages)
    assert all(f" {name} Slab " in every for name in racks)  # no row lost at a run's edge


def test_runs_of_rows_repeat_the_header_only_on_a_new_page():
    """A table of 130 rows on small pages: each page opens with the header, once; rows run on
    across the joins of the 40-row runs without a header between them."""
    register_fonts()
    rows = [[f"item-{n:03d}", f"{n * 7:,}"] for n in range(130)]
    out = io.BytesIO()
    template = SimpleDocTemplate(out, pagesize=A6, invariant=1)
    template.build(data_tables(["name", "value"], rows, [2, 1], template.width))
    pages = [words(page.extract_text()) for page in PdfReader(io.BytesIO(out.getvalue())).pages]
    assert len(pages) > 130 // commissioning_pdf.TABLE_CHUNK  # the runs' joins fall mid-page somewhere
    for page in pages:
        assert page.startswith("name value item-"), page[:60]
        assert page.count("name value") == 1
    assert " ".join(pages).count("item-") == 130
    joins = [n for n in range(commissioning_pdf.TABLE_CHUNK, 130, commissioning_pdf.TABLE_CHUNK)]
    mid_page = [n for n in joins if any(f"item-{n - 1:03d}" in p and f"item-{n:03d}" in p for p in pages)]
    assert mid_page  # at least one run went on mid-page, and did so without a header (checked above)


def test_every_checklist_step_has_a_box_initials_and_a_date(hall_pages):
    doc, pages = hall_pages
    text = " ".join(pages)
    # one checklist per rack; a network rack's (its switches, PDUs) runs over a page, whose top repeats the header
    assert all(text.count(f"Rack {rack.name} · row ") == 1 for rack in doc.racks.values())
    continued = [page for page in pages if page.startswith("step done initials date ")]
    assert continued and text.count("step done initials date") == len(doc.racks) + len(continued)
    assert "write your initials and the date" in text
    rack = min(doc.racks.values(), key=lambda r: natural_key(r.name))
    figures = next(f for f in commissioning_pdf.build_report(doc)["racks"] if f["id"] == rack.id)
    steps = commissioning_pdf.install_steps(doc, figures, 0)
    assert all(box == commissioning_pdf.BOX for _step, box in steps)
    assert commissioning_pdf.STEP_COLUMNS == ("step", "done", "initials", "date")
