"""The review document: what changed since an earlier revision, and every open comment.

``planner export PLAN --to review-pdf [--against OLD.hall] -o OUT.pdf``. With ``--against`` the
document opens with the change list (``planner.review.diff``, the same list ``planner diff``
prints): the objects, numbered, then cables, the findings that are new or resolved and the
design figures that moved. Then each change's detail drawing, its neighbourhood as it was and as
it is at the scale that prints rack names (``review_details``); then the key plan with every
change numbered and, on a hall printed on sheets, only the sheets that show a change
(``review_figures``). Then, always, the open comments: a floor plan with their numbered pins
(the numbers the GUI shows; again only the sheets with a pin) and each comment with its replies.
Without ``--against`` the first page says that it lists the comments only. A one-rack move on a
4,096-node hall is five pages.

The marks (readable in black and white, numbered) and pins are in ``review_marks``; cables are
in the list, not on the plan. Comments are review notes, not part of the design: their own
edits are not in the change list. The PDF's bookmarks (``pdf_outline``) give each section, each
change in the list, each detail, each sheet and each open comment.

User text is wrapped to its column (``markup_lines``, the last line cut with "…"); a comment's
text is a paragraph of at most ``COMMENT_LINES`` lines that may run over a page break, so a
10,000-character comment prints whole and a hostile one cannot stall the layout.

A rack selection (``ExportOptions.racks``) is not applied: a review signs off a whole revision,
and a part of it would hide the changes elsewhere. The first page says so.
"""

from __future__ import annotations

import io
import os
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import PageBreak, Paragraph, Spacer

from planner.commands.comments import OPEN, pin_position, threads, top_level, where
from planner.export.commissioning_pdf import BODY, H1, H2, SMALL, data_tables, numbered_canvas
from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.options import ExportOptions
from planner.export.page_setup import titled_document
from planner.export.pdf_outline import Marked, mark_rows
from planner.export.plan_drawing import plan_shapes
from planner.export.printed_text import markup, markup_lines
from planner.export.review_details import detail_story
from planner.export.review_figures import PlanFigure, arrows, marks_overlay, plan_figures, widen
from planner.export.review_marks import (
    NOT_DESIGN,
    draw_legend,
    draw_pins,
    numbered_marks,
    object_entries,
)
from planner.export.selection import describe
from planner.io import HallFileError, load
from planner.model.document import Document
from planner.review.diff import PlanDiff, diff_plans, name_of_id

TITLE = "Review document"
#: A comment's or reply's text prints in at most this many lines (10,000 characters fit).
COMMENT_LINES = 150
HEADING_LINES = 2
DETAIL_LINES = 6
SUMMARY_LINES = 6
REPLY_INDENT = 16.0
#: Room a floor-plan sheet's heading takes at the top of its page (H2 with its spacing, points).
SHEET_HEADING = 30.0
#: Room the key plan's note on the sheets printed takes (two lines of BODY, points).
SHEETS_NOTE = 24.0
#: Floor north of a pinned point (metres) that a key plan's sheet numbers keep off: the pin's
#: disc stands above its point.
PIN_REACH_M = 4.0
KIND_WORDS = {"floor_unit": "floor unit", "handoff": "hand-off", "basis": "design basis", "title": "title block",
              "outline": "hall outline", "type": "equipment type"}
REPLY = ParagraphStyle("reply", parent=BODY, leftIndent=REPLY_INDENT)
REPLY_BY = ParagraphStyle("reply-by", parent=SMALL, leftIndent=REPLY_INDENT, spaceBefore=3)
COMMENT_HEAD = ParagraphStyle("comment", parent=BODY, fontName=FONT_BOLD, spaceBefore=8, spaceAfter=2)

# ------------------------------------------------------------------- the older revision
def load_against(path: str) -> Document:
    """The earlier revision; one that cannot be read is a HallFileError of one line naming it
    ("--against OLD.hall: No such file or directory"), which the CLI prints with exit 2."""
    try:
        return load(path)
    except HallFileError as exc:
        first = str(exc).splitlines()[0] if str(exc) else "unreadable"
        first = first.removeprefix(f"cannot read {path}: ")
        where_ = "" if exc.path == "$" or exc.path in first else f"{exc.path}: "
        raise HallFileError(f"--against {path}: {where_}{first}", exc.path) from None


# ------------------------------------------------------------------ the change list
def _value(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list):  # a polygon's corners say nothing in a table: that they changed is enough
        return "(corners)" if value and isinstance(value[0], list) else ", ".join(map(_value, value))
    return str(value)


def _fields(fields: dict[str, dict[str, Any]]) -> str:
    return "; ".join(f"{name.replace('_', ' ')}: {_value(v['old'])} → {_value(v['new'])}" for name, v in fields.items())


def _place(entry: dict[str, Any]) -> str:
    return "" if entry.get("x") is None else f"at {entry['x']:.2f}, {entry['y']:.2f} m"


def object_rows(diff: PlanDiff) -> list[list[str]]:
    """The change list's object rows: change, kind, name, detail; a row's number (on the plans
    too) is its place in this list, from 1 (``review_marks.object_entries``)."""
    rows = []
    for word, e in object_entries(diff):
        if word == "moved":
            moved = {f: {"old": e["from"][f], "new": e["to"][f]} for f in e["from"] if e["from"][f] != e["to"][f]}
            detail = _fields(moved)
        else:
            detail = _place(e) if word in ("added", "removed") else _fields(e["fields"])
        rows.append([word, KIND_WORDS.get(e["kind"], e["kind"]), str(e["name"]), detail])
    return rows


def _ends(entry: dict[str, Any]) -> str:
    return f"{entry['a']} ↔ {entry['b']}"


def cable_rows(diff: PlanDiff) -> list[list[str]]:
    """The change list's cable rows: change, label, detail (ends as hostname and port)."""
    cables = diff.cables
    rows = [[word, e["label"] or e["id"], _ends(e)] for word in ("added", "removed") for e in cables[word]]
    rows += [["rewired", e["label"] or e["id"], f"{_ends(e['from'])} now {_ends(e['to'])}"] for e in cables["rewired"]]
    rows += [["changed", e["label"] or e["id"], _fields(e["fields"])] for e in cables["changed"]]
    return rows


def finding_rows(diff: PlanDiff, old: Document, new: Document) -> list[list[str]]:
    rows = []
    for word, doc in (("new", new), ("resolved", old)):
        rows += [[word, f["severity"], f["rule"], ", ".join(str(name_of_id(doc, o)) for o in f["objects"]),
                  f["message"]] for f in diff.findings[word]]
    return rows


def figure_rows(diff: PlanDiff) -> list[list[str]]:
    rows = []
    for f in diff.figures:
        change = "—" if f["old"] is None or f["new"] is None else f"{f['new'] - f['old']:+,.{_places(f)}f}"
        rows.append([KIND_WORDS.get(f["kind"], f["kind"]), f["name"], f["figure"], _number(f["old"], f),
                     _number(f["new"], f), change, f["unit"]])
    return rows


def _places(figure: dict[str, Any]) -> int:
    return {"A": 1, "kW": 3, "L/min": 1, "kPa": 2}.get(figure["unit"], 2)


def _number(value: float | None, figure: dict[str, Any]) -> str:
    return "—" if value is None else f"{value:,.{_places(figure)}f}"


# ------------------------------------------------------------------------- story
def _heading(text: str, style: ParagraphStyle, width: float) -> Paragraph:
    font = FONT_BOLD if style.fontName == FONT_BOLD else FONT
    return Paragraph(markup_lines(text, style.fontSize, width, HEADING_LINES, font), style)


def _summary(diff: PlanDiff) -> str:
    design = [e for e in diff.added + diff.removed + diff.moved + diff.changed if e["kind"] not in NOT_DESIGN]
    if not design and not any(diff.cables.values()) and not any(diff.findings.values()) and not diff.figures:
        return "Nothing in the design changed."
    counts = [f"{sum(1 for e in entries if e['kind'] not in NOT_DESIGN)} {word}" for word, entries in
              (("added", diff.added), ("removed", diff.removed), ("moved", diff.moved), ("changed", diff.changed))]
    cables = [f"{len(diff.cables[word])} {word}" for word in ("added", "removed", "rewired", "changed")]
    return (f"Objects: {', '.join(counts)}. Cables: {', '.join(cables)}. Findings: {len(diff.findings['new'])} "
            f"new, {len(diff.findings['resolved'])} resolved. Design figures that moved: {len(diff.figures)}.")


def _figures(figures: list[tuple[str, PlanFigure]]) -> list:
    """The first figure, then each further sheet on its own page under its heading and bookmark."""
    story: list = [figures[0][1]]
    for title, figure in figures[1:]:
        story += [PageBreak(), Marked(Paragraph(title, H2), title, 1), figure]
    return story


def _sheets_note(figures: list[tuple[str, PlanFigure]], total: int, what: str) -> str:
    if total <= 1:
        return ""
    shown = [title.split(" · ")[0].removeprefix("Sheet ") for title, _figure in figures[1:]]
    printed = (f"sheet{'s' if len(shown) != 1 else ''} {', '.join(shown)}, which show{'s' if len(shown) == 1 else ''}"
               f" {what}, follow{'s' if len(shown) == 1 else ''}" if shown else f"no sheet shows {what}")
    return (f"Key plan: the whole hall, cut into {total} sheets at a scale that prints every rack name; {printed}. "
            "Sheets with nothing on them are left out of a review (the cabling plan prints them all).")


def _change_list(old: Document, new: Document, diff: PlanDiff, width: float) -> list:
    objects, cables = object_rows(diff), cable_rows(diff)
    numbered = [[str(number), *row] for number, row in enumerate(objects, start=1)]
    story: list = [Marked(Paragraph("Change list", H1), "Change list")]
    sections = (
        ("Objects", ["no.", "change", "kind", "name", "detail"], numbered, [0.45, 0.9, 1.0, 1.8, 5.3],
         [1, 1, 1, 2, DETAIL_LINES]),
        ("Cables", ["change", "label", "detail"], cables, [1, 2.2, 6.2], [1, 2, DETAIL_LINES]),
        ("Findings: new and resolved", ["finding", "severity", "rule", "objects", "message"],
         finding_rows(diff, old, new), [0.9, 0.9, 0.6, 2.2, 6], [1, 1, 1, 3, DETAIL_LINES]),
        ("Design figures that moved", ["kind", "name", "figure", "before", "after", "change", "unit"],
         figure_rows(diff), [1, 2.2, 1.6, 1.1, 1.1, 1.1, 0.7], None),
    )
    titles = {"Objects": [f"{change} {kind} {name}" for change, kind, name, _detail in objects],
              "Cables": [f"{change} cable {label}" for change, label, _detail in cables]}
    for heading, header, rows, weights, lines in sections:
        story.append(Marked(Paragraph(heading, H2), heading, 1))
        tables = data_tables(header, rows, weights, width, lines)
        if heading in titles:  # a bookmark per change
            tables = mark_rows(tables, titles[heading], 2)
        story.extend(tables if rows else [Paragraph("None.", BODY)])
    return story


def _changes(old: Document, new: Document, diff: PlanDiff, captions: tuple[str, str], width: float,
             height: float) -> list:
    """The change list, each change's detail drawing, then the key plan with every change
    numbered and the sheets that show one."""
    story = _change_list(old, new, diff, width)
    marks = numbered_marks(old, new, diff)
    if not marks:
        return [*story, Paragraph("No object on the floor changed, so no plan is drawn.", BODY)]
    shapes = plan_shapes(new)
    widen(shapes, [p for m in marks for s in (m.shape, m.before) if s for p in s[1]])
    titles = {number: f"{change} {kind} {name}" for number, (change, kind, name, _detail)
              in enumerate(object_rows(diff), start=1)}
    story += detail_story(plan_shapes(old), shapes, marks, titles, captions, width, height)
    figures, total = plan_figures(shapes, marks_overlay(marks), draw_legend, width, height - SHEETS_NOTE,
                                  [m.bounds() for m in marks], marks_overlay(marks, ring=True), arrows(marks))
    note = _sheets_note(figures, total, "a change")
    return [*story, PageBreak(), Marked(Paragraph("Changes on the floor plan", H1), "Changes on the floor plan"),
            Paragraph(note or "The floor plan, every change numbered as in the change list.", BODY),
            *_figures(figures)]


def _comment_block(doc: Document, number: int, comment: Any, replies: list, width: float) -> list:
    by = " · ".join(part for part in (comment.author or "no author", comment.date) if part)
    pinned = "" if pin_position(doc, comment) is not None else " (no pin: its object was deleted)"
    blocks: list = [Marked(_heading(f"Comment {number} · {where(doc, comment)}{pinned} · {by}", COMMENT_HEAD, width),
                           f"Comment {number} · {where(doc, comment)}", 1),
                    Paragraph(markup_lines(comment.text, BODY.fontSize, width, COMMENT_LINES), BODY)]
    for answer in replies:
        by = " · ".join(part for part in (answer.author or "no author", answer.date) if part)
        blocks.append(Paragraph(markup_lines(f"↳ {by}", REPLY_BY.fontSize, width - REPLY_INDENT, HEADING_LINES),
                                REPLY_BY))
        blocks.append(Paragraph(markup_lines(answer.text, REPLY.fontSize, width - REPLY_INDENT, COMMENT_LINES),
                                REPLY))
    return blocks


def _comments(doc: Document, width: float, height: float) -> list:
    tops = top_level(doc)
    numbered = [(n, c) for n, c in enumerate(tops, start=1) if c.status == OPEN]
    resolved = len(tops) - len(numbered)
    story: list = [Marked(Paragraph("Open comments", H1), "Open comments")]
    note = f" ({resolved} resolved comment{'s are' if resolved != 1 else ' is'} not listed)" if resolved else ""
    if not numbered:
        story.append(Paragraph(markup(f"The plan has no open comments{note}."), BODY))
        return story
    pins = [(n, p) for n, c in numbered if (p := pin_position(doc, c)) is not None]
    story.append(Paragraph(markup(f"{len(numbered)} open comment{'s' if len(numbered) != 1 else ''}{note}, "
                                  "numbered as their pins on the plan and in the planner."), BODY))
    if pins:
        shapes = plan_shapes(doc)
        widen(shapes, [p for _n, p in pins])
        figures, total = plan_figures(shapes, lambda canvas, to_page, _placer: draw_pins(canvas, pins, to_page), None,
                                      width, height - SHEETS_NOTE, [(x, y, x, y) for _n, (x, y) in pins],
                                      marked=[(x - PIN_REACH_M / 2, y - PIN_REACH_M, x + PIN_REACH_M / 2, y)
                                              for _n, (x, y) in pins])
        note = _sheets_note(figures, total, "a pin")
        story += [Spacer(1, 4), *([Paragraph(note, BODY)] if note else []), *_figures(figures), PageBreak()]
    replies = threads(doc)
    for number, comment in numbered:
        story += _comment_block(doc, number, comment, replies[comment.id], width)
    return story


def write_review_pdf(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> int:
    """Write the review document; returns the number of open comments in it. ``options.against``
    names the earlier revision (None: comments only); an unreadable one is a HallFileError."""
    options = options or ExportOptions()
    old = load_against(options.against) if options.against else None
    options.report(0.05)
    diff = diff_plans(old, doc) if old is not None else None
    options.report(0.5)
    register_fonts()
    titled = titled_document(doc, out, options, TITLE, wide=True)
    template, frame, block = titled.template, titled.frame, titled.block
    width = frame._aW
    height = frame._aH - SHEET_HEADING  # what a sheet gets under its heading
    story: list = [_heading(f"{TITLE} — {doc.meta.project}", H1, width),
                   _heading(f"{doc.meta.hall} · revision {block.revision} · {block.date}", BODY, width)]
    if old is None or diff is None:
        story.append(Paragraph("No earlier revision was given (export with --against OLD.hall, or pick one in the "
                               "export dialog), so this document lists the open comments only.", BODY))
    else:
        against = os.path.basename(str(options.against))
        story.append(Paragraph(markup_lines(f"Changes since {against} (revision {old.meta.revision}). "
                                            f"{_summary(diff)}", BODY.fontSize, width, SUMMARY_LINES), BODY))
    if options.racks is not None:  # a review signs off a whole revision: a part would hide changes elsewhere
        story.append(Paragraph(markup(f"A selection of racks ({describe(doc, options.racks)}) was asked for; a "
                                      "review covers the whole revision, so this document lists every change "
                                      "and comment."), BODY))
    open_count = sum(1 for c in top_level(doc) if c.status == OPEN)
    story.append(Paragraph(f"Open comments: {open_count}.", BODY))
    if old is not None and diff is not None:
        captions = (f"Before · {against}, revision {old.meta.revision}",
                    f"After · {block.file_name or 'this plan'}, revision {block.revision}")
        story += _changes(old, doc, diff, captions, width, height)
        story.append(PageBreak())
    story += _comments(doc, width, height)
    template.build(story, canvasmaker=numbered_canvas(block))
    options.report(1.0)
    return open_count
