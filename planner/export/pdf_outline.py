"""PDF bookmarks (the outline a reader shows beside the pages), for both ways documents are drawn.

Canvas documents (cabling plan, labels) know every page before drawing it: ``outline_pages``
wraps their draw functions, each target page binding its bookmark and the first page adding
the whole tree (reportlab resolves the keys when the file is written). Platypus documents
(review, commissioning) learn where a heading lands only when it is drawn, and their canvas
holds the pages back to number them ("page X of Y"), so reportlab's ``bookmarkPage`` there
would point every bookmark at page 1: ``Marked`` records the heading's page and height, and
``place_marks`` binds them as each held page is finally written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Table

from planner.export.page_canvas import PageCanvas
from planner.export.pages import Page
from planner.export.printed_text import clip
from planner.export.sheet_text import clean_text

#: An outline title's longest run of characters (a reader's side panel shows less).
TITLE_CHARS = 120

#: Where a platypus document's canvas keeps (page number, key, top) of every mark drawn.
HELD = "_held_marks"


@dataclass(frozen=True)
class Entry:
    """One bookmark: its title, depth (0 = top; at most one deeper than the entry before) and
    the index of the page it opens."""

    title: str
    level: int
    page: int


def outline_title(text: str) -> str:
    """User text as a bookmark title: one clean line, cut to ``TITLE_CHARS``."""
    return clean_text(clip(" ".join(text.split()), TITLE_CHARS))


def outline_pages(pages: list[Page], entries: list[Entry]) -> list[Page]:
    """``pages`` with ``entries`` as the document's outline, in the order given.

    Each entry has its own key: reportlab keeps one title per key, so a row and its first rack
    (the same page) need two.
    """
    keys: dict[int, list[str]] = {}
    for number, entry in enumerate(entries):
        keys.setdefault(entry.page, []).append(f"entry-{number}")

    def marked(index: int, draw: Callable[[Canvas], None]) -> Callable[[Canvas], None]:
        def run(canvas: PageCanvas) -> None:
            for key in keys.get(index, ()):
                canvas.bookmarkPage(key)
            if index == 0:
                for number, entry in enumerate(entries):
                    canvas.addOutlineEntry(outline_title(entry.title), f"entry-{number}", entry.level)
                canvas.showOutline()
            draw(canvas)

        return run

    return [Page(page.size, marked(index, page.draw)) for index, page in enumerate(pages)]


class Marked(Flowable):
    """A flowable (a heading, a table) that adds a bookmark to where its first part lands."""

    def __init__(self, inner: Flowable, title: str, level: int = 0) -> None:
        super().__init__()
        self.inner, self.title, self.level = inner, outline_title(title), level

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width, self.height = self.inner.wrap(available_width, available_height)
        return self.width, self.height

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        parts = self.inner.split(available_width, available_height)
        return [Marked(parts[0], self.title, self.level), *parts[1:]] if parts else []

    def getSpaceBefore(self) -> float:
        return self.inner.getSpaceBefore()

    def getSpaceAfter(self) -> float:
        return self.inner.getSpaceAfter()

    def draw(self) -> None:
        canvas: Any = self.canv
        held = canvas.__dict__.setdefault(HELD, [])
        key = f"mark-{len(held)}"
        _x, top = canvas.absolutePosition(0, self.height + self.inner.getSpaceBefore())
        held.append((canvas.getPageNumber(), key, top))
        canvas.addOutlineEntry(self.title, key, self.level)
        self.inner.drawOn(canvas, 0, 0)


def place_marks(canvas: PageCanvas, page: int) -> None:
    """Bind the marks drawn on held page ``page`` (1-based) as it is written: call just before
    the page's real ``showPage``."""
    for number, key, top in getattr(canvas, HELD, ()):
        if number == page:
            canvas.bookmarkPage(key, fit="XYZ", top=min(top, canvas.page_size[1]))


def mark_rows(tables: list[Table], titles: Sequence[str | None], level: int) -> list[Table]:
    """Bookmarks on table rows: ``titles`` one per body row (below each table's header row), in
    order across ``tables``; None for a row without. The row's first cell carries the mark."""
    rows = iter(titles)
    for table in tables:
        for cells in table._cellvalues[1:]:
            title = next(rows)
            if title is not None:
                cells[0] = Marked(cells[0], title, level)
    return tables
