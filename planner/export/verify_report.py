"""The installer's worklist after a verification: every fix, in rack walk order, on paper or CSV.

The PDF opens with the summary (the counts that add up to the planned cables, the inputs read,
the names that matched nothing) and then lists the fixes rack by rack, racks in name order, each
fix with a tick box and the labels of the cables it concerns, so one walk down the rows fixes
the hall. Every page carries the shared title block. The CSV has the same rows (rack, fix,
cables) for a spreadsheet or a ticket system, text made safe as in every CSV export.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import BinaryIO

from reportlab.pdfgen.canvas import Canvas

from planner.asbuilt.verify import Fix, Verification
from planner.export.common import (
    FONT,
    FONT_BOLD,
    ExportOptions,
    Page,
    TitleBlock,
    content_box,
    draw_text,
    page_size,
    register_fonts,
    render_pages,
    sheet_text,
    wrap_lines,
)
from planner.model.document import Document
from planner.text import plural

TITLE = "Cable verification: fixes"
CSV_COLUMNS = ("rack", "fix", "cables")
FIX_SIZE = 8.0
LINE = 10.0
FIX_LINES = 4
RACK_HEADING = 18.0
GAP = 4.0
BOX = 7.0
#: Names that matched nothing, printed on the cover before "… and N more".
COVER_NAMES = 40


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
    lines = [f"{s['planned']:,} cables planned: {s['ok']:,} ok, {s['miswired']:,} miswired, {s['missing']:,} missing",
             f"{plural(s['unexpected'], 'cable')} found that the plan does not have"]
    if verification.slow:
        lines.append(f"{len(verification.slow):,} of the ok cables came up at the wrong speed")
    if verification.unknown_names:
        lines.append(f"{len(verification.unknown_names):,} names in the inputs match nothing in the plan")
    if verification.conflicts:
        lines.append(f"{len(verification.conflicts):,} ports reported cabled to two places (first report kept)")
    return lines


def _cover(doc: Document, verification: Verification, fixes: int) -> Callable[[Canvas], None]:
    def draw(canvas: Canvas) -> None:
        x0, y0, x1, y1 = content_box(canvas._pagesize)
        width = x1 - x0
        draw_text(canvas, x0, y1 - 20, f"{TITLE} — {doc.meta.project}", 16, FONT_BOLD, max_width=width)
        draw_text(canvas, x0, y1 - 36, f"{doc.meta.hall} · {fixes:,} fixes, racks in name order", 10, max_width=width)
        y = y1 - 60
        for line in summary_lines(verification):
            draw_text(canvas, x0, y, line, 10, max_width=width)
            y -= 14
        y -= 6
        if verification.sources:
            draw_text(canvas, x0, y, "Inputs read", 9, FONT_BOLD)
            y -= 12
            for source in verification.sources[:10]:
                draw_text(canvas, x0 + 8, y, source, 8, max_width=width - 8)
                y -= 10
            y -= 6
        names = verification.unknown_names
        if names:
            draw_text(canvas, x0, y, "Names that match nothing in the plan", 9, FONT_BOLD)
            y -= 12
            shown = names[:COVER_NAMES]
            more = f" … and {len(names) - len(shown):,} more" if len(names) > len(shown) else ""
            for line in wrap_lines(", ".join(shown) + more, 8, width - 8, max(1, int((y - y0) / 10) - 1)):
                draw_text(canvas, x0 + 8, y, line, 8)
                y -= 10
    return draw


def _fix_lines(fix: Fix, width: float) -> list[str]:
    text = fix.text + (f"  [{'; '.join(fix.labels)}]" if fix.labels else "")
    return wrap_lines(text, FIX_SIZE, width, FIX_LINES)


def _pages(fixes: list[Fix], size: tuple[float, float]) -> list[list[tuple[str, list[str]]]]:
    """Fixes laid out on pages: per page, (rack heading, fix lines) entries; "" heading = a fix."""
    x0, y0, x1, y1 = content_box(size)
    room = y1 - y0 - 8
    width = x1 - x0 - BOX - 8
    pages: list[list[tuple[str, list[str]]]] = []
    page: list[tuple[str, list[str]]] = []
    used = room + 1.0
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
            page.append((f"Rack {fix.rack or '(outside the plan)'}{' (continued)' if continued else ''}", []))
            used += RACK_HEADING
            rack = fix.rack
        page.append(("", lines))
        used += height
    return pages


def _fix_page(entries: list[tuple[str, list[str]]]) -> Callable[[Canvas], None]:
    def draw(canvas: Canvas) -> None:
        x0, _y0, x1, y1 = content_box(canvas._pagesize)
        y = y1 - 4
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
    pages = [Page(size, _cover(doc, verification, len(fixes))), *(Page(size, _fix_page(p)) for p in _pages(fixes, size))]
    render_pages(out, pages, TitleBlock.of(doc, options, TITLE), options)
    return len(pages)
