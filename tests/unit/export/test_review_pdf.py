"""The review PDF read back: the changes since an older revision (plan marks, change list,
findings and figures) and every open comment with its pin number and replies; comments only
without --against; an unreadable --against is one line and exit 2."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import time

import pytest
from pypdf import PdfReader

from planner.commands import History
from planner.commands.comments import add_comment, reply, set_status
from planner.commands.edits import delete_objects, move_objects
from planner.export.options import ExportOptions
from planner.export.review_marks import MARK_STYLES, change_marks, pin_spots, shape_of
from planner.export.review_pdf import write_review_pdf
from planner.io import HallFileError, dumps, loads, save
from planner.layout.templates import build_template
from planner.review.diff import diff_plans

DATE = "2026-12-01T09:30:00Z"
OPTIONS = {"revision": "B", "author": "Reviewer", "date": "2026-12-02", "file_name": "new.hall"}


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


@pytest.fixture(scope="module")
def revisions(tmp_path_factory):
    """old.hall: a 16-node pod. new.hall: R03 moved 1.2 m south, R02 renamed, R05 removed, a node
    of R01 renamed; comment 1 on R03 with a reply, comment 2 resolved, comment 3 on a point."""
    folder = tmp_path_factory.mktemp("review")
    old = build_template("pod", nodes=16)
    save(old, folder / "old.hall")
    new = loads(dumps(old))
    history = History(new)
    history.push(move_objects(new, [rack(new, "R03").id], 0.0, 1.2))
    history.push(delete_objects(new, [rack(new, "R05").id]))
    new.set_fields(rack(new, "R02").id, {"name": "R02-new"})
    node = new.devices_in(rack(new, "R01").id)[-1]
    new.set_fields(node.id, {"hostname": "gpu-node-x"})
    r03 = rack(new, "R03")
    history.push(add_comment(new, "Why did R03 move south?", "Ana", r03.x + 0.2, r03.y, r03.id, DATE))
    first = next(iter(new.comments))
    history.push(reply(new, first, "Column clearance, see sheet 4", "Ben", DATE))
    history.push(add_comment(new, "Old question, answered", "Ben", 2.0, 1.0, date=DATE))
    history.push(set_status(new, max(new.comments, key=lambda i: int(i[4:])), "resolved"))
    history.push(add_comment(new, "Door swing clear of the CDU?", "Cy", 1.5, 1.5, date=DATE))
    save(new, folder / "new.hall")
    return folder, old, new


def review(doc, against=None) -> PdfReader:
    out = io.BytesIO()
    write_review_pdf(doc, out, ExportOptions(against=None if against is None else str(against), **OPTIONS))
    return PdfReader(io.BytesIO(out.getvalue()))


def texts(reader: PdfReader) -> list[str]:
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def big_numbers(page) -> set[str]:
    """Numbers drawn at 8 pt on a page: on a plan page, only the pins' numbers are (the north
    arrow's N is that size too)."""
    found: set[str] = set()

    def visit(text, _cm, _tm, _font, size):
        if text.strip().isdigit() and abs(size - 8) < 0.01:
            found.add(text.strip())

    page.extract_text(visitor_text=visit)
    return found


def test_with_against_the_document_lists_every_change_and_the_open_comments(revisions):
    folder, old, new = revisions
    pages = texts(review(new, folder / "old.hall"))
    whole = " ".join(pages)
    # the document opens with the change list; the floor plan with the marks and its legend follows
    assert "Changes since old.hall (revision A)" in pages[0] and "Change list" in pages[0]
    plan = next(page for page in pages if "Changes on the floor plan" in page)
    for legend in ("added: heavy outline, hatched", "removed: dashed where it was, crossed",
                   "moved: dotted where it was, arrow to where it is", "changed: dash-dot outline"):
        assert legend in plan
    # removed: R05 and its 14 devices, as every network is built: 4 nodes, 8 rack PDUs (A1–A4,
    # B1–B4), the coolant manifold and the OOB access switch
    removed_devices = old.devices_in(rack(old, "R05").id)
    assert sorted(d.type for d in removed_devices) == sorted(
        ["node-8gpu-liquid-4u"] * 4 + ["pdu-rack-3ph-63a"] * 8 + ["manifold-orv3-12uqd08", "sw-48x1g-oob-1u"])
    assert "Objects: 0 added, 15 removed, 1 moved, 2 changed." in pages[0]
    assert "moved rack R03 y: 3 → 4.2" in whole
    assert "changed rack R02-new name: R02 → R02-new" in whole
    assert "removed rack R05 at 7.20, 3.00 m" in whole
    assert "changed device gpu-node-x hostname: — → gpu-node-x" in whole
    assert "removed R05-U01-N1-P1 ↔ R03-U01-L1-7/1 R05-N1 P1 ↔ R03-L1 7/1" in whole
    assert "Findings: new and resolved" in whole and "Design figures that moved" in whole
    assert "Change list" in whole and "Why did R03 move south?" not in whole.split("Change list")[1].split(
        "Open comments")[0]
    # every page has the title block
    assert all("Review document" in page and "new.hall" in page and f"of {len(pages)}" in page for page in pages)


def test_open_comments_are_listed_with_their_pin_numbers_and_replies(revisions):
    folder, _old, new = revisions
    reader = review(new, folder / "old.hall")
    pages = texts(reader)
    start = next(i for i, page in enumerate(pages) if "Open comments" in page and "numbered as their pins" in page)
    assert "2 open comments (1 resolved comment is not listed)" in pages[start]
    assert big_numbers(reader.pages[start]) == {"1", "3"}  # the pins: comment 2 is resolved
    listing = " ".join(pages[start + 1:])
    assert "Comment 1 · on R03 · Ana · 2026-12-01T09:30:00Z Why did R03 move south?" in listing
    assert "↳ Ben · 2026-12-01T09:30:00Z Column clearance, see sheet 4" in listing
    assert "Comment 3 · at 1.50, 1.50 m · Cy" in listing and "Door swing clear of the CDU?" in listing
    assert "Old question, answered" not in listing and "Comment 2" not in listing


def test_without_against_it_says_so_and_lists_the_comments_only(revisions):
    _folder, _old, new = revisions
    pages = texts(review(new))
    assert "No earlier revision was given" in pages[0] and "lists the open comments only" in pages[0]
    assert not any("Change list" in page or "Changes on the floor plan" in page for page in pages)
    assert "Why did R03 move south?" in " ".join(pages)


def test_a_plan_without_comments_and_without_changes(revisions):
    folder, old, _new = revisions
    pages = texts(review(old, folder / "old.hall"))
    assert "Nothing in the design changed." in pages[0]
    assert "The plan has no open comments." in " ".join(pages)


def test_a_comment_whose_object_was_deleted_is_listed_without_a_pin(revisions):
    _folder, _old, new = revisions
    doc = loads(dumps(new))
    delete_objects(doc, [rack(doc, "R03").id]).apply(doc)
    reader = review(doc)
    whole = " ".join(texts(reader))
    assert "(no pin: its object was deleted)" in whole and "Why did R03 move south?" in whole
    assert big_numbers(reader.pages[0]) == {"3"}


def test_change_marks_say_what_happened_to_each_object(revisions):
    _folder, old, new = revisions
    marks = change_marks(old, new, diff_plans(old, new, consequences=False))
    r01, r02 = (new.racks[rack(old, name).id] for name in ("R01", "R02"))
    moved = [m for m in marks if m[0] == "moved"]
    assert len(moved) == 1 and moved[0][2] is not None  # drawn where it was and where it is
    assert [m[0] for m in marks].count("removed") == 1  # R05; its devices are in the list only
    changed = {tuple(m[1][1][0]) for m in marks if m[0] == "changed"}
    assert changed == {tuple(shape_of(new, r.id)[1][0]) for r in (r01, r02)}  # R02 renamed, R01's node
    # each mark has a line style of its own, so they read apart in black and white
    assert len({style[1] for style in MARK_STYLES.values()}) == len(MARK_STYLES)


def test_close_pins_keep_their_numbers_apart():
    spots = pin_spots([(1, (0.0, 0.0)), (2, (0.0, 0.0)), (3, (0.1, 0.0))], lambda p: (100 * p[0], 100 * p[1]))
    labels = [spot for _n, _p, spot in spots]
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 15 for i, a in enumerate(labels) for b in labels[i + 1:])


def test_long_and_hostile_comments_do_not_stall_or_overflow(revisions):
    _folder, _old, new = revisions
    doc = loads(dumps(new))
    hostile = ["W" * 10_000, "line\n" * 1_999, ("שלום עולם " * 1_000)[:10_000], "<b>&amp;</b> " * 700]
    for text in hostile:
        add_comment(doc, text, "Ω" * 200, 1.0, 1.0, date=DATE).apply(doc)
    started = time.perf_counter()
    reader = review(doc)
    assert time.perf_counter() - started < 30
    whole = " ".join(texts(reader))
    assert "<b>&amp;</b>" in whole and "W" * 50 in whole
    assert whole.count("line") == 150 and "line…" in whole  # cut at the line cap, with "…"
    for page in reader.pages:
        width = float(page.mediabox.width)

        def inside(text, cm, tm, _font, _size, width=width):
            if text.strip():
                assert 0 <= cm[4] + tm[4] <= width, text[:20]

        page.extract_text(visitor_text=inside)


def test_an_unreadable_against_file_is_one_error_naming_it(revisions, tmp_path):
    _folder, _old, new = revisions
    bad = tmp_path / "bad.hall"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(HallFileError, match=r"^--against .*bad\.hall: "):
        write_review_pdf(new, io.BytesIO(), ExportOptions(against=str(bad)))


def test_the_cli_writes_it_and_exits_2_on_an_unreadable_against(revisions, tmp_path):
    folder, _old, _new = revisions
    out = tmp_path / "review.pdf"
    command = [sys.executable, "-I", "-m", "planner", "export", str(folder / "new.hall"), "--to", "review-pdf", "-o",
               str(out)]
    done = subprocess.run([*command, "--against", str(folder / "old.hall")], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "Change list" in " ".join(texts(PdfReader(out)))
    out.unlink()
    missing = tmp_path / "missing.hall"
    done = subprocess.run([*command, "--against", str(missing)], capture_output=True, text=True, check=False)
    assert done.returncode == 2 and not out.exists()
    assert done.stderr.strip() == f"planner: --against {missing}: No such file or directory"
    assert sorted(p.name for p in tmp_path.iterdir()) == []
