"""Pages of the drawn documents: the title block every page carries, the area above it, and
drawing a list of pages once their count is known ("page X of Y").

Every page carries the same title block (project, hall, revision, date, author, file name,
page X of Y) so a loose printed sheet can always be traced back to its plan.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from reportlab.lib.pagesizes import A4

from planner.export.fonts import FONT_BOLD, register_fonts
from planner.export.options import ExportOptions
from planner.export.page_canvas import PageCanvas
from planner.export.printed_text import clip, draw_text, one_line
from planner.model.document import Document
from planner.text import count

MM = 72.0 / 25.4
MARGIN = 12 * MM
TITLE_BLOCK_HEIGHT = 30.0


@dataclass
class TitleBlock:
    """The facts printed on every page; built once per document from the plan and options."""

    title: str
    project: str
    hall: str
    revision: str
    date: str
    author: str
    file_name: str

    @classmethod
    def of(cls, doc: Document, options: ExportOptions, title: str) -> TitleBlock:
        return cls(
            title=title,
            project=doc.meta.project,
            hall=doc.meta.hall,
            revision=options.revision if options.revision is not None else doc.meta.revision,
            date=options.date,
            author=options.author if options.author is not None else doc.meta.author,
            file_name=options.file_name,
        )

    def draw(self, canvas: PageCanvas, page: int, total: int) -> None:
        """Draw the block across the bottom margin of the current page."""
        width, _height = canvas.page_size
        x0, y0, w, h = MARGIN, MARGIN - TITLE_BLOCK_HEIGHT + 6, width - 2 * MARGIN, TITLE_BLOCK_HEIGHT
        canvas.saveState()
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setLineWidth(0.6)
        canvas.setDash()
        canvas.rect(x0, y0, w, h)
        canvas.line(x0, y0 + h / 2, x0 + w, y0 + h / 2)
        cells = [
            [("Project", self.project, 0.34), ("Hall", self.hall, 0.26), ("Revision", self.revision, 0.14),
             ("Date", self.date, 0.26)],
            [("Document", self.title, 0.34), ("Author", self.author, 0.26), ("File", self.file_name, 0.24),
             ("Page", f"{count(page)} of {count(total)}", 0.16)],
        ]
        for row_index, row in enumerate(cells):
            y = y0 + h - (row_index + 1) * h / 2
            x = x0
            for caption, value, share in row:
                cell_w = w * share
                if x > x0:
                    canvas.line(x, y, x, y + h / 2)
                draw_text(canvas, x + 2, y + h / 2 - 5.5, caption, 4.5)
                draw_text(canvas, x + 3, y + 2.5, value, 7.5, FONT_BOLD, max_width=cell_w - 6)
                x += cell_w
        canvas.restoreState()


    def draw_line(self, canvas: PageCanvas, page: int, total: int, y: float) -> None:
        """The same facts on one line, for sheets whose margins hold no box (label stock)."""
        width, _height = canvas.page_size
        facts = " · ".join(clip(one_line(fact), 60) for fact in (
            self.title, self.project, self.hall, f"rev {self.revision}", self.date, self.author, self.file_name))
        page_text = f"page {count(page)} of {count(total)}"
        draw_text(canvas, MARGIN, y, facts, 6.5, max_width=width - 2 * MARGIN - 60)
        draw_text(canvas, width - MARGIN, y, page_text, 6.5, FONT_BOLD, align="right")


def content_box(canvas_size: tuple[float, float]) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the area above the title block."""
    width, height = canvas_size
    return MARGIN, MARGIN + 12, width - MARGIN, height - MARGIN


@dataclass
class Page:
    """One page to draw once the total page count is known: its size and a draw function."""

    size: tuple[float, float]
    draw: Callable[[PageCanvas], None]


def render_pages(out: io.BufferedIOBase, pages: list[Page], block: TitleBlock, options: ExportOptions,
                 footer: bool = True) -> None:
    """Draw every page with its title block ("page X of Y") into ``out`` (byte-stable).

    With ``footer`` False the pages draw their own title line (label sheets).
    """
    register_fonts()
    canvas = PageCanvas(out, pagesize=pages[0].size if pages else A4, invariant=1, pageCompression=1)
    canvas.setTitle(f"{block.title} — {block.project}")
    canvas.setAuthor(block.author)
    canvas.setCreator("Hall Planner")
    total = len(pages)
    step = max(1, total // 100)
    for number, page in enumerate(pages, start=1):
        canvas.setPageSize(page.size)
        page.draw(canvas)
        if footer:
            block.draw(canvas, number, total)
        canvas.showPage()
        if number % step == 0:
            options.report(number / total)
    canvas.save()


def chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
