"""The printed index of racks in the cabling plan: each rack's row and the pages of its section.

A hall's plan runs to thousands of pages and is used on paper, where the PDF's bookmarks do
not help: the installer looks R117 up here and turns to its page. The plan paginates before
drawing anything, so the index (right after the cover) prints the true page numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from planner.export.fonts import FONT_BOLD
from planner.export.page_canvas import PageCanvas
from planner.export.pages import Page, content_box
from planner.export.printed_text import draw_text
from planner.text import plural

TITLE = "Index of racks"
HEADER = 34.0
LINE = 10.5
COLUMN_WIDTH = 150.0
NAME_WIDTH = 78.0
ROW_X = 82.0
ROW_WIDTH = 34.0
PAGE_RIGHT = COLUMN_WIDTH - 12.0


@dataclass(frozen=True)
class IndexLine:
    """One rack: its name, row ("" for none) and the first and last page of its section (1-based)."""

    rack: str
    row: str
    first: int
    last: int

    def pages(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def _grid(size: tuple[float, float]) -> tuple[int, int]:
    """(columns, lines a column) of an index page."""
    x0, y0, x1, y1 = content_box(size)
    return max(1, int((x1 - x0) // COLUMN_WIDTH)), max(1, int((y1 - y0 - HEADER) // LINE))


def index_page_count(racks: int, size: tuple[float, float]) -> int:
    """How many pages the index of ``racks`` racks takes (none for none)."""
    columns, lines = _grid(size)
    return -(-racks // (columns * lines))


def index_pages(size: tuple[float, float], lines: list[IndexLine]) -> list[Page]:
    """The index pages, racks in the order given, down each column then across."""
    columns, per_column = _grid(size)
    per_page = columns * per_column
    groups = [lines[start:start + per_page] for start in range(0, len(lines), per_page)]
    return [Page(size, _page(group, number, len(groups), len(lines), per_column))
            for number, group in enumerate(groups, start=1)]


def _page(lines: list[IndexLine], number: int, count: int, total: int,
          per_column: int) -> Callable[[Canvas], None]:
    def draw(canvas: PageCanvas) -> None:
        x0, _y0, x1, y1 = content_box(canvas.page_size)
        more = f" · {number} of {count}" if count > 1 else ""
        draw_text(canvas, x0, y1 - 14, f"{TITLE}: {plural(total, 'rack')}, the pages of each rack's section{more}", 12,
                  FONT_BOLD, max_width=x1 - x0)
        for start in range(0, len(lines), per_column):
            cx = x0 + (start // per_column) * COLUMN_WIDTH
            y = y1 - HEADER
            draw_text(canvas, cx, y, "rack", 7, FONT_BOLD)
            draw_text(canvas, cx + ROW_X, y, "row", 7, FONT_BOLD)
            draw_text(canvas, cx + PAGE_RIGHT, y, "page", 7, FONT_BOLD, align="right")
            for line in lines[start:start + per_column]:
                y -= LINE
                draw_text(canvas, cx, y, line.rack, 7.5, FONT_BOLD, max_width=NAME_WIDTH)
                draw_text(canvas, cx + ROW_X, y, line.row or "—", 7, max_width=ROW_WIDTH)
                draw_text(canvas, cx + PAGE_RIGHT, y, line.pages(), 7.5, align="right")

    return draw
