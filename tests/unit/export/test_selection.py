"""Paper for a selection of racks: `--racks` / `--row` parsing and what each paper export prints."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from planner.cli import main
from planner.export import cabling_pdf, commissioning_pdf, labels_pdf, review_pdf
from planner.export.options import ExportOptions
from planner.export.selection import SelectionError, describe, racks_in_rows, racks_named, selection
from planner.io import save
from planner.layout.templates import build_template
from planner.model.document import Document


@pytest.fixture(scope="module")
def hall() -> Document:
    """18 racks (R01–R18) in rows 1 and 2, 1,024 cables."""
    return build_template("hall", nodes=64)


def names(doc: Document, ids: set[str] | frozenset[str]) -> list[str]:
    return sorted(doc.racks[rack_id].name for rack_id in ids)


def text_of(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_names_ranges_and_comma_lists(hall):
    assert names(hall, racks_named(hall, ["R03"])) == ["R03"]
    assert names(hall, racks_named(hall, ["R01-R04,R09"])) == ["R01", "R02", "R03", "R04", "R09"]
    assert names(hall, racks_named(hall, ["R12-R09", "R01"])) == ["R01", "R09", "R10", "R11", "R12"]
    assert names(hall, racks_named(hall, [" R05 , R05 "])) == ["R05"]


def test_a_range_follows_the_natural_order_of_names():
    doc = build_template("pod", nodes=32)  # R01 … R09
    for rack in doc.racks.values():
        rack.name = rack.name.replace("R0", "R")  # R1 … R9; as text "R10" < "R2"
    next(r for r in doc.racks.values() if r.name == "R9").name = "R10"
    assert names(doc, racks_named(doc, ["R2-R10"])) == ["R10", "R2", "R3", "R4", "R5", "R6", "R7", "R8"]


def test_rows_and_both_together(hall):
    row_two = {r.id for r in hall.racks.values() if r.row == "2"}
    assert racks_in_rows(hall, ["2"]) == row_two and row_two
    assert racks_in_rows(hall, ["1,2"]) == set(hall.racks)
    assert selection(hall, ["R01"], ["2"]) == frozenset(row_two | racks_named(hall, ["R01"]))
    assert selection(hall, None, None) is None and selection(hall, [], []) is None


@pytest.mark.parametrize(("racks", "rows", "named"), [(["R99"], None, "'R99'"), (["R01-R99"], None, "'R01-R99'"),
                                                      (None, ["7"], "row '7'")])
def test_a_name_the_plan_lacks_is_refused_by_name(hall, racks, rows, named):
    with pytest.raises(SelectionError, match=re.escape(named)):
        selection(hall, racks, rows)


def test_describe_gives_runs_in_name_order(hall):
    assert describe(hall, frozenset(racks_named(hall, ["R09,R01-R03,R05"]))) == "R01–R03, R05, R09"
    assert describe(hall, None) == "R01–R18"


def test_labels_only_for_the_cable_ends_in_the_selection(hall):
    chosen = frozenset(racks_named(hall, ["R02,R07"]))
    out = io.BytesIO()
    count = labels_pdf.write_labels_pdf(hall, out, ExportOptions(racks=chosen))
    ends = [(this.rack_id, row.link_id) for row in labels_pdf.cable_rows(hall) for this in (row.a, row.b)]
    expected = sorted(link for rack, link in ends if rack in chosen)
    assert count == len(expected) > 0
    here = re.findall(r"here: (R\d+) ", "\n".join(text_of(out.getvalue())))
    assert len(here) == count and set(here) == {"R02", "R07"}


def test_cabling_plan_prints_only_the_selected_racks_pages(hall):
    chosen = frozenset(racks_named(hall, ["R03-R04"]))
    out = io.BytesIO()
    cabling_pdf.write_cabling_pdf(hall, out, ExportOptions(racks=chosen))
    pages = text_of(out.getvalue())
    headings = {m for page in pages[2:] for m in re.findall(r"Rack (R\d+) ·", page)}
    assert headings == {"R03", "R04"}
    assert "covers a selection: racks R03–R04 (2 of 18 racks)" in pages[0]
    whole = io.BytesIO()
    cabling_pdf.write_cabling_pdf(hall, whole, ExportOptions())
    assert len(PdfReader(whole).pages) > len(pages)


def test_commissioning_tables_cover_the_selection_and_say_so(hall):
    out = io.BytesIO()
    commissioning_pdf.write_commissioning_pdf(hall, out, ExportOptions(racks=frozenset(racks_named(hall, ["R05"]))))
    text = "\n".join(text_of(out.getvalue()))
    assert "covers a selection: rack R05 (1 of 18 racks)" in text.replace("\n", " ")
    assert re.findall(r"^Rack (R\d+)", text, re.MULTILINE) == ["R05"]  # one install checklist


def test_review_covers_the_whole_revision_and_says_the_selection_was_not_applied(hall):
    out = io.BytesIO()
    review_pdf.write_review_pdf(hall, out, ExportOptions(racks=frozenset(racks_named(hall, ["R05"]))))
    assert "A selection of racks (R05) was asked for" in text_of(out.getvalue())[0].replace("\n", " ")


def test_cli_racks_and_row(hall, tmp_path, capsys):
    plan = tmp_path / "hall.hall"
    save(hall, plan)
    out = tmp_path / "labels.pdf"
    assert main(["export", str(plan), "--to", "labels-pdf", "--row", "2", "--racks", "R01", "-o", str(out)]) == 0
    here = set(re.findall(r"here: (R\d+) ", "\n".join(text_of(out.read_bytes()))))
    with_labels = {this.rack for this, _far, _row in labels_pdf.label_entries(hall)}
    assert here == {"R01"} | {r.name for r in hall.racks.values() if r.row == "2"} & with_labels
    capsys.readouterr()
    bad = tmp_path / "bad.pdf"
    assert main(["export", str(plan), "--to", "labels-pdf", "--racks", "R01-R77", "-o", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "R01-R77" in err and len(err.splitlines()) == 1 and not bad.exists()
    assert main(["export", str(plan), "--to", "cables-csv", "--row", "1", "-o", str(tmp_path / "c.csv")]) == 2
