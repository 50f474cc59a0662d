"""The installer's worklist after a verification: every fix, in rack walk order, on paper or CSV.

The PDF opens with the summary (the counts that add up to the planned cables, the inputs read,
the names that matched nothing) and lists the fixes right below it, on the same first page and
on, rack by rack in walk order (racks by name, R01, R02 … R117, as the cabling plan and the labels
run; ``Verification.fixes``), each fix with a tick box and the labels of the cables it concerns,
so one walk down the rows fixes the hall. Every page carries the shared title block; the PDF's bookmarks open the summary and
each rack's fixes. The CSV has the same rows (rack, fix,
cables) for a spreadsheet or a ticket system, text made safe as in every CSV export.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

from planner.asbuilt.verify import Fix, Verification
from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.options import ExportOptions, page_size
from planner.export.page_canvas import PageCanvas
from planner.export.pages import Page, TitleBlock, content_box, render_pages
from planner.export.pdf_outline import Entry, outline_pages
from planner.export.printed_text import draw_text, wrap_lines
from planner.export.sheet_text import sheet_text
from planner.model.document import Document
from planner.model.networks import NETWORK_WORDS
from planner.model.ports import COMPUTE
from planner.text import count, plural

TITLE = "Cable verification: fixes"
CSV_COLUMNS = ("rack", "fix", "cables")
FIX_SIZE = 8.0
LINE = 10.0
FIX_LINES = 4
RACK_HEADING = 18.0
GAP = 4.0
BOX = 7.0
#: Names that matched nothing, printed on the first page before "… and N more", in at most so many lines.
COVER_NAMES = 40
COVER_NAME_LINES = 8
#: The order of the fixes, as ``Verification.fixes`` sorts them and the README calls it.
ORDER = "racks in walk order (by rack name)"
CONTINUED = " (continued)"
#: A line of the first page's head: (drop below the line before, indent, text, size, font).
Line = tuple[float, float, str, float, str]


def write_verify_csv(doc: Document, verification: Verification, out: BinaryIO) -> int:
    """One row per fix (rack, fix, cable labels joined by ``; ``); returns the number of fixes."""
    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    writer = csv.writer(text)
    writer.writerow(CSV_COLUMNS)
    fixes = verification.fixes()
    writer.writerows([sheet_text(fix.rack), sheet_text(fix.text), sheet_text("; ".join(fix.labels))]
                     for fix in fixes)
    text.flush()
    text.detach()
    return len(fixes)


def summary_lines(verification: Verification) -> list[str]:
    """The cover's figures in words (also what `planner verify` prints last)."""
    s = verification.summary
    lines = [(f"{plural(s['planned'], 'cable')} planned: {count(s['ok'])} ok, {count(s['miswired'])} miswired, "
              f"{count(s['missing'])} missing"),
             f"{plural(s['unexpected'], 'cable')} found that the plan does not have"]
    if verification.slow:
        lines.append(f"{count(len(verification.slow))} of the ok cables came up at the wrong speed")
    if verification.unknown_names:
        lines.append(f"{plural(len(verification.unknown_names), 'name')} in the inputs match nothing in the plan")
    if verification.conflicts:
        lines.append(f"{plural(len(verification.conflicts), 'port')} reported cabled to two places (first report kept)")
    if verification.networks and list(verification.networks) != [COMPUTE]:  # a compute-only check reads as before
        lines.append("networks checked: " + ", ".join(NETWORK_WORDS[n] for n in verification.networks))
    return lines


def _cover_lines(doc: Document, verification: Verification, fixes: int, width: float) -> list[Line]:
    """The first page's head: title, the figures, the inputs read and the names that matched
    nothing; the fixes follow on the same page."""
    lines: list[Line] = [(20, 0, f"{TITLE} — {doc.meta.project}", 16, FONT_BOLD),
                         (16, 0, f"{doc.meta.hall} · {plural(fixes, 'fix', 'fixes')}, {ORDER}", 10, FONT)]
    drop = 24.0
    for line in summary_lines(verification):
        lines.append((drop, 0, line, 10, FONT))
        drop = 14
    if verification.sources:
        lines.append((drop + 6, 0, "Inputs read", 9, FONT_BOLD))
        drop = 12
        for source in verification.sources[:10]:
            lines.append((drop, 8, source, 8, FONT))
            drop = 10
    names = verification.unknown_names
    if names:
        lines.append((drop + 6, 0, "Names that match nothing in the plan", 9, FONT_BOLD))
        drop = 12
        shown = names[:COVER_NAMES]
        more = f" … and {count(len(names) - len(shown))} more" if len(names) > len(shown) else ""
        for line in wrap_lines(", ".join(shown) + more, 8, width - 8, COVER_NAME_LINES):
            lines.append((drop, 8, line, 8, FONT))
            drop = 10
    what = (f"Fixes, rack by rack, {ORDER}: tick each when done" if fixes else
            "Nothing to fix: every cable was found as planned.")
    lines.append((drop + 12, 0, what, 10, FONT_BOLD))
    return lines


def _cover_height(lines: list[Line]) -> float:
    return sum(line[0] for line in lines) + 4


def _fix_lines(fix: Fix, width: float) -> list[str]:
    text = fix.text + (f"  [{'; '.join(fix.labels)}]" if fix.labels else "")
    return wrap_lines(text, FIX_SIZE, width, FIX_LINES)


def _pages(fixes: list[Fix], size: tuple[float, float], first_used: float) -> list[list[tuple[str, list[str]]]]:
    """Fixes laid out on pages, the first below the cover's ``first_used`` points: per page,
    (rack heading, fix lines) entries; "" heading = a fix."""
    x0, y0, x1, y1 = content_box(size)
    room = y1 - y0 - 8
    width = x1 - x0 - BOX - 8
    page: list[tuple[str, list[str]]] = []
    pages = [page]
    used = first_used
    rack = None
    for fix in fixes:
        lines = _fix_lines(fix, width)
        height = len(lines) * LINE + GAP
        heading = fix.rack != rack
        if used + height + (RACK_HEADING if heading else 0) > room:
            page = []
            pages.append(page)
            used = 0.0
            heading = True
        if heading:
            continued = fix.rack == rack
            page.append((f"Rack {fix.rack or '(outside the plan)'}{CONTINUED if continued else ''}", []))
            used += RACK_HEADING
            rack = fix.rack
        page.append(("", lines))
        used += height
    return pages


def _page(entries: list[tuple[str, list[str]]], head: list[Line]) -> Callable[[Canvas], None]:
    """One page: the cover's lines (``head``, the first page only), then its fixes."""
    def draw(canvas: PageCanvas) -> None:
        x0, _y0, x1, y1 = content_box(canvas.page_size)
        y = y1
        for drop, indent, text, size, font in head:
            y -= drop
            draw_text(canvas, x0 + indent, y, text, size, font, max_width=x1 - x0 - indent)
        y -= (4 if head else 0) + 4
        for heading, lines in entries:
            if heading:
                y -= RACK_HEADING - 4
                draw_text(canvas, x0, y, heading, 11, FONT_BOLD, max_width=x1 - x0)
                y -= 4
                continue
            y -= LINE
            canvas.setLineWidth(0.6)
            canvas.rect(x0, y - 1, BOX, BOX)
            for index, line in enumerate(lines):
                draw_text(canvas, x0 + BOX + 6, y - index * LINE, line, FIX_SIZE, FONT)
            y -= (len(lines) - 1) * LINE + GAP
    return draw


def write_verify_pdf(doc: Document, verification: Verification, out: io.BufferedIOBase,
                     options: ExportOptions | None = None) -> int:
    """The worklist PDF (see the module docstring); returns the number of pages."""
    options = options or ExportOptions()
    register_fonts()  # the layout measures text before render_pages would register them
    size = page_size(doc, options)
    fixes = verification.fixes()
    x0, _y0, x1, _y1 = content_box(size)
    head = _cover_lines(doc, verification, len(fixes), x1 - x0)
    laid = _pages(fixes, size, _cover_height(head))
    pages = [Page(size, _page(entries, head if number == 0 else [])) for number, entries in enumerate(laid)]
    marks = [Entry("Summary", 0, 0)] + [Entry(heading, 0, number) for number, entries in enumerate(laid)
                                        for heading, _lines in entries if heading and not heading.endswith(CONTINUED)]
    render_pages(out, outline_pages(pages, marks), TitleBlock.of(doc, options, TITLE), options)
    return len(pages)
