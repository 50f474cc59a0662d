"""The verification worklist's first page (issue 20): it holds the figures and then the fixes
themselves, rack by rack, not a few lines and a page break; and it says the order it is in the
way the README does, walk order, which is the order the fixes are in (racks by name)."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from planner.asbuilt.verify import Discovery, verify
from planner.export.options import ExportOptions
from planner.export.verify_report import write_verify_pdf
from planner.layout.templates import build_template
from planner.model.document import natural_key
from planner.model.networks import DATA_NETWORKS, network_of


def words(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def nothing_found():
    """A 16-node pod against a discovery that found nothing: every cable missing, many pages."""
    doc = build_template("pod", 16)
    result = verify(doc, Discovery())
    out = io.BytesIO()
    count = write_verify_pdf(doc, result, out, ExportOptions(date="2026-12-01", file_name="pod.hall"))
    pages = [words(page.extract_text()) for page in PdfReader(io.BytesIO(out.getvalue())).pages]
    return doc, result, count, pages


def test_the_first_page_holds_the_figures_and_the_start_of_the_fixes(nothing_found):
    doc, result, count, pages = nothing_found
    assert count == len(pages) > 1
    first = pages[0]
    planned = sum(network_of(link) in DATA_NETWORKS for link in doc.links.values())  # cords and hoses report nothing
    assert f"{planned} cables planned: 0 ok, 0 miswired, {planned} missing" in first
    fixes = result.fixes()
    opening = fixes[0]
    assert f"Rack {opening.rack}" in first and opening.text in first
    on_first = sum(fix.text in first for fix in fixes)
    on_second = sum(fix.text in pages[1] for fix in fixes)
    assert on_first >= 0.6 * on_second  # a page well filled, below the figures
    assert first.index("cables planned") < first.index(f"Rack {opening.rack}")


def test_it_says_walk_order_and_the_racks_come_in_it(nothing_found):
    doc, result, _count, pages = nothing_found
    text = " ".join(pages)
    assert "racks in walk order (by rack name)" in pages[0]
    assert "name order" not in text
    headings = [name for name in (r.name for r in doc.racks.values()) if f"Rack {name} " in text]
    printed = sorted(headings, key=lambda name: text.index(f"Rack {name} "))
    assert printed == sorted(headings, key=natural_key)  # walk order: racks by name
    assert [fix.rack for fix in result.fixes()] == sorted((fix.rack for fix in result.fixes()), key=natural_key)


def test_a_hall_with_nothing_to_fix_is_one_page_that_says_so():
    doc = build_template("starter", 2)
    result = verify(doc, Discovery())
    for cable in result.cables:
        cable.fix = ""
    out = io.BytesIO()
    assert write_verify_pdf(doc, result, out) == 1
    assert "Nothing to fix" in words(PdfReader(io.BytesIO(out.getvalue())).pages[0].extract_text())


def test_bookmarks_open_the_summary_and_each_racks_fixes():
    doc = build_template("pod", 16)
    result = verify(doc, Discovery())
    out = io.BytesIO()
    write_verify_pdf(doc, result, out)
    reader = PdfReader(io.BytesIO(out.getvalue()))
    marks = [(mark.title, reader.get_destination_page_number(mark)) for mark in reader.outline]
    racks = sorted({fix.rack for fix in result.fixes()}, key=natural_key)
    assert [title for title, _page in marks] == ["Summary", *(f"Rack {rack}" for rack in racks)]
    for title, page in marks[1:]:
        assert title in words(reader.pages[page].extract_text())
