"""A reportlab canvas that says its page size and current font.

reportlab keeps both in private attributes (``_pagesize``, ``_fontname``); this canvas follows
them through the public calls that change them instead: the page size from the constructor and
``setPageSize``, the font from ``setFont``, forgotten (``None``: unknown, set it again) where
reportlab resets or restores the graphics state (a new page, ``restoreState``). Every document
the planner draws is drawn on one (``pages.render_pages``, ``commissioning_pdf.numbered_canvas``).
"""

from __future__ import annotations

from typing import Any

from reportlab import rl_config
from reportlab.pdfgen.canvas import Canvas


class PageCanvas(Canvas):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.font: tuple[str, float] | None = None
        size = kwargs.get("pagesize") or (args[1] if len(args) > 1 else None)
        self.page_size: tuple[float, float] = tuple(size or rl_config.defaultPageSize)
        super().__init__(*args, **kwargs)

    def setPageSize(self, size: tuple[float, float]) -> None:
        super().setPageSize(size)
        self.page_size = (float(size[0]), float(size[1]))

    def setFont(self, psfontname: str, size: float, leading: float | None = None) -> None:
        super().setFont(psfontname, size, leading)
        self.font = (psfontname, size)

    def init_graphics_state(self) -> None:
        super().init_graphics_state()
        self.font = None

    def restoreState(self) -> None:
        super().restoreState()
        self.font = None
