"""One number format on the cabling plan (issue 20): the cover of a hall of 1,000 cables and
more says "1,024 cables" with a thousands comma, as the window's dialog and the command line do
(it said "1024 cables"), and so do its figures; read back with pypdf."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from planner.export.cabling_pdf import summary_counts, write_cabling_pdf
from planner.export.options import ExportOptions
from planner.layout.templates import build_template


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def hall():
    doc = build_template("hall", 64)
    assert 1000 < len(doc.links) < 10_000  # 1,024 compute cables and the other networks' (issue 21)
    return doc


def cover(doc, options: ExportOptions) -> str:
    out = io.BytesIO()
    write_cabling_pdf(doc, out, options)
    return words(PdfReader(io.BytesIO(out.getvalue())).pages[0].extract_text())


def test_the_cover_counts_cables_with_a_thousands_comma(hall):
    text = cover(hall, ExportOptions(date="2026-12-01"))
    total = len(hall.links)
    assert f"{hall.meta.hall} · {total:,} cables" in text
    assert str(total) not in text.replace(hall.meta.project, "")  # the template names the project itself
    assert f"All cables {total:,}" in text
    gpus = dict(summary_counts(hall)["Equipment"])["GPUs"]
    assert gpus == 512 and "GPUs 512" in text


def test_left_to_do_counts_the_same_way(hall):
    for link_id in list(hall.links)[:24]:
        hall.set_fields(link_id, {"state": "verified"})
    text = cover(hall, ExportOptions(date="2026-12-01", remaining_only=True))
    assert f"{len(hall.links) - 24:,} of {len(hall.links):,} cables not yet verified" in text


def test_a_floor_sheet_heading_counts_sheets_not_rows():
    """It read "Sheet 1 · rows 1–4 of 2": the sheet count ran on from the rows."""
    doc = build_template("hall", 1024)
    first = next(r.id for r in doc.racks.values() if r.name == "R01")
    out = io.BytesIO()
    write_cabling_pdf(doc, out, ExportOptions(date="2026-12-01", racks=frozenset({first})))
    pages = [words(page.extract_text()) for page in PdfReader(io.BytesIO(out.getvalue())).pages]
    sheets = [page for page in pages if page.startswith("Floor plan: racks")]
    assert len(sheets) >= 2
    for number, page in enumerate(sheets, start=1):
        assert f"· Sheet {number} · rows " in page and f"(of {len(sheets)} sheets)" in page
        assert f" of {len(sheets)} R" not in page
