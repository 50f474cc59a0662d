"""Issue 20, finding your way: bookmarks in every multi-page document, the cabling plan's index
of racks, and where a cable's twin label is. Read back with pypdf: each bookmark's target page
and each index line's pages must hold that rack's own heading."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from planner.commands import History
from planner.commands.comments import add_comment
from planner.commands.edits import delete_objects, move_objects
from planner.export import cabling_pdf, commissioning_pdf, labels_pdf, review_pdf
from planner.export.connections import SECTION_TITLES
from planner.export.options import ExportOptions
from planner.export.selection import racks_named
from planner.io import dumps, loads, save
from planner.layout.templates import build_template
from planner.model.document import Document, natural_key
from planner.review.diff import diff_plans

HEADING = re.compile(r"^Rack (\S+) · ", re.MULTILINE)
INDEX_LINE = re.compile(r"^(R\d+) (\S+) (\d+)(?:–(\d+))?$", re.MULTILINE)


def outline_tree(reader: PdfReader) -> list[tuple[str, int, list[tuple[str, int]]]]:
    """(title, page index, [(child title, page index)]) of each top-level bookmark."""
    tree: list[tuple[str, int, list[tuple[str, int]]]] = []
    for item in reader.outline:
        if isinstance(item, list):
            tree[-1][2].extend((child.title, reader.get_destination_page_number(child)) for child in item)
        else:
            tree.append((item.title, reader.get_destination_page_number(item), []))
    return tree


def flat_outline(reader: PdfReader, items: list | None = None, depth: int = 0) -> list[tuple[int, str, int]]:
    """(depth, title, page index) of every bookmark, in outline order."""
    found: list[tuple[int, str, int]] = []
    for item in reader.outline if items is None else items:
        if isinstance(item, list):
            found += flat_outline(reader, item, depth + 1)
        else:
            found.append((depth, item.title, reader.get_destination_page_number(item)))
    return found


def heading(reader: PdfReader, index: int) -> str | None:
    """The rack a page's section heading names, or None (cover, index, floor plan)."""
    match = HEADING.search(reader.pages[index].extract_text())
    return match.group(1) if match else None


def cabling(doc: Document, options: ExportOptions | None = None) -> PdfReader:
    out = io.BytesIO()
    cabling_pdf.write_cabling_pdf(doc, out, options)
    return PdfReader(out)


def every_fifth_cable(doc: Document) -> Document:
    for index, link_id in enumerate(sorted(doc.links, key=natural_key)):
        if index % 5:
            doc.remove(link_id)
    return doc


@pytest.fixture(scope="module")
def small_hall() -> Document:
    """A 72-node hall (three rows) with a fifth of its cables: every rack, few pages to read."""
    return every_fifth_cable(build_template("hall", nodes=72))


@pytest.fixture(scope="module")
def small_plan(small_hall) -> tuple[PdfReader, list[str | None]]:
    """The small hall's cabling plan and the rack each page's heading names."""
    reader = cabling(small_hall)
    return reader, [heading(reader, index) for index in range(len(reader.pages))]


def test_cabling_bookmarks_name_every_rack_under_its_row_at_its_first_page(small_hall, small_plan):
    reader, headings = small_plan
    tree = outline_tree(reader)
    assert [title for title, _page, _children in tree[:3]] == ["Cover", "Index of racks", "Floor plan"]
    assert tree[0][1] == 0 and "Index of racks" in reader.pages[tree[1][1]].extract_text()
    assert "Floor plan" in reader.pages[tree[2][1]].extract_text()
    assert tree[3][0] == cabling_pdf.NETWORKS_TITLE  # a section per network (issue 21), then the rows
    rows = {title: children for title, _page, children in tree[4:]}
    by_row: dict[str, list[str]] = {}
    for rack in sorted(small_hall.racks.values(), key=lambda r: natural_key(r.name)):
        by_row.setdefault(f"Row {rack.row}", []).append(rack.name)
    assert {row: [name for name, _page in children] for row, children in rows.items()} == by_row
    for title, page, children in tree[4:]:
        assert page == children[0][1], title  # a row opens at its first rack
        for name, start in children:
            assert headings[start] == name and headings[start - 1] != name, name


def test_the_index_gives_each_racks_pages_and_nothing_else_is_on_them(small_hall, small_plan):
    reader, headings = small_plan
    index_text = reader.pages[1].extract_text()
    assert index_text.startswith(f"Index of racks: {len(small_hall.racks)} racks")
    lines = {m.group(1): (m.group(2), int(m.group(3)), int(m.group(4) or m.group(3)))
             for m in INDEX_LINE.finditer(index_text)}
    assert set(lines) == {rack.name for rack in small_hall.racks.values()}
    for rack in small_hall.racks.values():
        row, first, last = lines[rack.name]
        assert row == rack.row
        assert headings[first - 2] != rack.name  # 1-based numbers: the page before is another's
        assert set(headings[first - 1:last]) == {rack.name}, rack.name
        assert last == len(headings) or headings[last] != rack.name


def test_a_hall_scale_plan_points_at_multi_page_sections():
    """1,024 nodes (280 racks, the spine racks 70 pages each); a selection keeps it to seconds."""
    hall = build_template("hall", nodes=1024)
    chosen = racks_named(hall, ["R01,R17-R19,R140,R280"])
    reader = cabling(hall, ExportOptions(racks=frozenset(chosen)))
    tree = outline_tree(reader)
    children = [child for _title, _page, kids in tree[4:] for child in kids]
    assert [name for name, _page in children] == ["R01", "R17", "R18", "R19", "R140", "R280"]
    assert [title for title, _page, _kids in tree[4:]] == ["Row 1", "Row 4", "Row 8"]
    lines = {m.group(1): (int(m.group(3)), int(m.group(4) or m.group(3)))
             for m in INDEX_LINE.finditer(reader.pages[1].extract_text())}
    assert set(lines) == {name for name, _page in children}
    for name, start in children:
        first, last = lines[name]
        assert first == start + 1
        assert heading(reader, start) == name and heading(reader, last - 1) == name
        assert heading(reader, start - 1) != name and (last == len(reader.pages) or heading(reader, last) != name)
    assert lines["R18"][1] - lines["R18"][0] > 10  # a spine rack's section runs over many pages


# --- the two labels of a cable -------------------------------------------------------------

LABEL = re.compile(r"^here: (.+)\nto: (.+)\n(?:twin: (.+)\n)?", re.MULTILINE)


def labels_read_back(doc: Document, options: ExportOptions | None = None) -> tuple[PdfReader, list[tuple]]:
    """The sheets, and (sheet number, this end, far end, twin note or None) of every label."""
    out = io.BytesIO()
    labels_pdf.write_labels_pdf(doc, out, options)
    reader = PdfReader(out)
    found = [(number, *match.groups()) for number, page in enumerate(reader.pages, start=1)
             for match in LABEL.finditer(page.extract_text())]
    return reader, found


@pytest.fixture(scope="module")
def pod() -> Document:
    """16 nodes, a third of the cables: 13 sheets of labels, twins up to a dozen sheets apart."""
    doc = build_template("pod", nodes=16)
    for index, link_id in enumerate(sorted(doc.links, key=natural_key)):
        if index % 3:
            doc.remove(link_id)
    return doc


def test_a_label_names_the_sheet_of_its_twin_when_it_is_on_another(pod):
    reader, found = labels_read_back(pod)
    assert len(found) == 2 * len(pod.links) and len(reader.pages) > 5
    sheet_of = {(here, to): number for number, here, to, _twin in found}
    apart = 0
    for number, here, to, twin in found:
        other = sheet_of[(to, here)]  # the twin: the same cable seen from its other end
        assert twin == (None if other == number else f"sheet {other}"), (here, to)
        apart += other != number
    assert apart > len(found) / 2  # most twins are racks (and sheets) away: the note is needed


def test_a_label_whose_twin_is_not_in_a_selection_says_where_it_is(pod):
    chosen = frozenset(racks_named(pod, ["R01"]))
    _reader, found = labels_read_back(pod, ExportOptions(racks=chosen))
    assert found and all(here.startswith("R01 ") for _n, here, _to, _twin in found)
    for _number, _here, to, twin in found:
        if to.startswith("R01 "):  # a cord or hose in the rack (issue 21): its twin is printed too
            assert twin is None or twin.startswith("sheet ")
        else:
            assert twin == f"not in this print, {to.split()[0]}"
    assert any(not to.startswith("R01 ") for _n, _h, to, _t in found)


def test_label_sheets_have_a_bookmark_per_rack_at_its_first_label(pod):
    """Under a bookmark per network (issue 21: the labels come network by network)."""
    reader, found = labels_read_back(pod)
    per_sheet = labels_pdf.LabelSheet().per_sheet
    expected: dict[str, dict[str, int]] = {}
    for index, (this, _far, row) in enumerate(labels_pdf.label_entries(pod)):
        expected.setdefault(SECTION_TITLES[row.network], {}).setdefault(this.rack, index // per_sheet + 1)
    marks: dict[str, dict[str, int]] = {}
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    kids = [item for item in reader.outline if isinstance(item, list)]
    for title, racks in zip(titles, kids, strict=True):
        marks[title] = {kid.title: reader.get_destination_page_number(kid) + 1 for kid in racks}
    assert marks == expected and list(marks) == list(expected)
    sheets = {(number, here.split()[0]) for number, here, _to, _twin in found}
    assert all((sheet, rack) in sheets for racks in marks.values() for rack, sheet in racks.items())
    assert {rack for racks in marks.values() for rack in racks} == {pod.racks[d.rack].name for d in pod.devices.values()}


# --- review and commissioning: sections, changes, comments, checklists, finding rules --------

def squashed(reader: PdfReader, index: int) -> str:
    return re.sub(r"\s+", " ", reader.pages[index].extract_text())


def test_review_bookmarks_each_change_and_comment_on_its_page(tmp_path):
    old = build_template("pod", nodes=16)
    save(old, tmp_path / "old.hall")
    new = loads(dumps(old))
    history = History(new)
    by_name = {r.name: r.id for r in new.racks.values()}
    history.push(move_objects(new, [by_name["R03"]], 0.0, 1.2))
    history.push(delete_objects(new, [by_name["R05"]]))
    for number in range(30):  # enough comments to run over pages
        history.push(add_comment(new, f"Question {number} " + "why? " * 40, "Ana", 1.0 + number / 10, 1.0, date="x"))
    out = io.BytesIO()
    review_pdf.write_review_pdf(new, out, ExportOptions(against=str(tmp_path / "old.hall")))
    reader = PdfReader(out)
    marks = flat_outline(reader)
    tops = [title for depth, title, _page in marks if depth == 0]
    assert tops == ["Change list", "Details of the changes", "Changes on the floor plan", "Open comments"]
    changes = [(title, page) for depth, title, page in marks if depth == 2]
    diff = diff_plans(old, new)
    removed_cables = [row for row in review_pdf.cable_rows(diff) if row[0] == "removed"]
    assert ("moved rack R03", changes[0][1]) in changes and any(t == "removed rack R05" for t, _p in changes)
    assert len(changes) == len(review_pdf.object_rows(diff)) + len(removed_cables) > 20
    for title, page in changes:
        name = title.split(" ", 2)[2].removeprefix("cable ")
        assert name in squashed(reader, page), title
    comments = [(title, page) for depth, title, page in marks if depth == 1 and title.startswith("Comment ")]
    assert len(comments) == 30 and len({page for _t, page in comments}) > 2
    for title, page in comments:
        assert title.split(" · ")[0] + " · " in squashed(reader, page), title


def test_commissioning_bookmarks_sections_rack_checklists_and_finding_rules(cabled_doc):
    # a 20 × 20 mm row tray overfills (error N9); the odd host name "N<1>&Ж" is warning H2
    cabled_doc.basis.row_tray_width_m = cabled_doc.basis.row_tray_depth_m = 0.02
    findings = commissioning_pdf.open_findings(cabled_doc)
    out = io.BytesIO()
    commissioning_pdf.write_commissioning_pdf(cabled_doc, out, ExportOptions())
    reader = PdfReader(out)
    marks = flat_outline(reader)
    assert [t for d, t, _p in marks if d == 0] == ["(a) Site and facility survey", "(b) Install and plumb",
                                                  "(c) Tune and prove", "(d) Handover"]
    for depth, title, page in marks:
        if depth == 0 or title.startswith("Rack "):
            assert title in squashed(reader, page), title
    racks = [t.removeprefix("Rack ") for d, t, _p in marks if d == 1 and t.startswith("Rack ")]
    assert racks == sorted((r.name for r in cabled_doc.racks.values()), key=natural_key)
    rules = [(t, p) for d, t, p in marks if d == 2]
    expected = sorted({f.rule for f in findings}, key=[f.rule for f in findings].index)
    assert [t.split(" · ")[0] for t, _p in rules] == expected == ["N9", "H2"]
    for title, page in rules:
        rule, severity, count = title.split(" · ")
        assert count == f"{sum(f.rule == rule for f in findings)} finding" + ("s" if count[0] != "1" else "")
        first = next(f for f in findings if f.rule == rule)
        assert f"{severity} {rule}" in squashed(reader, page) and squashed(reader, page).count(rule) >= 1
        assert re.sub(r"\s+", " ", first.message)[:30] in squashed(reader, page), title
