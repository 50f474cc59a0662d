"""What every exported document shares: paper, fonts, title block, page numbering, atomic writing.

Every page carries the same title block (project, hall, revision, date, author, file name,
page X of Y) so a loose printed sheet can always be traced back to its plan. Fonts are the
bundled DejaVu Sans (Latin, Cyrillic, Greek, symbols such as ↔) and Droid Sans Fallback
(Chinese and Japanese), both embedded as subsets, and reportlab's standard Korean CID font for
Hangul (drawn by the PDF viewer's Asian fonts), so user text in any script prints as typed.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from xml.sax.saxutils import escape

from reportlab import rl_config
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from planner.model.document import Document
from planner.resources_access import resource

FONT = "HP-Sans"
FONT_BOLD = "HP-Sans-Bold"
FONT_CJK = "HP-CJK"
FONT_HANGUL = "HYSMyeongJo-Medium"

PAPER_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "Letter": LETTER}
MM = 72.0 / 25.4
MARGIN = 12 * MM
TITLE_BLOCK_HEIGHT = 30.0

#: Rail colours with line patterns and numbers, so a cable's rail reads in grey too.
RAIL_STYLES: dict[int, tuple[str, tuple[float, ...]]] = {
    1: ("#1f77b4", ()),
    2: ("#d62728", (6, 2)),
    3: ("#2ca02c", (2, 2)),
    4: ("#ff7f0e", (6, 2, 2, 2)),
    5: ("#9467bd", (1, 3)),
    6: ("#8c564b", (8, 4)),
    7: ("#e377c2", (4, 1, 1, 1, 1, 1)),
    8: ("#7f7f7f", (10, 2, 2, 2, 2, 2)),
}

_CJK_RANGES = "\u2e80-\u2fff\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_HANGUL_RANGES = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_FOREIGN = re.compile(f"[{_HANGUL_RANGES}]+|[{_CJK_RANGES}]+")
_HANGUL = re.compile(f"[{_HANGUL_RANGES}]")
_registered = False


class ExportCancelled(Exception):
    """Raised from a progress callback to stop an export; the target file is left untouched."""


@dataclass(frozen=True)
class LabelSheet:
    """The label stock: a grid of rows × columns of labels of one size, centred on the paper.

    The default is the common 3 × 10 address-label sheet (66.7 × 25.4 mm labels).
    """

    columns: int = 3
    rows: int = 10
    width_mm: float = 66.7
    height_mm: float = 25.4
    gap_x_mm: float = 3.2
    gap_y_mm: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @classmethod
    def parse(cls, text: str) -> LabelSheet:
        """``"3x10"`` (columns × rows, default label size) or ``"3x10:66.7x25.4"`` (label size in mm)."""
        grid, _, size = text.lower().replace("×", "x").partition(":")
        columns, rows = (int(v) for v in grid.split("x"))
        if columns < 1 or rows < 1:
            raise ValueError("a label sheet needs at least one column and one row")
        if not size:
            return cls(columns=columns, rows=rows)
        width, height = (float(v) for v in size.split("x"))
        if width <= 0 or height <= 0:
            raise ValueError("label width and height must be above 0 mm")
        return cls(columns=columns, rows=rows, width_mm=width, height_mm=height)


@dataclass
class ExportOptions:
    """Title-block overrides, paper and progress reporting for one export run.

    ``None`` fields fall back to the plan (meta revision/author, basis paper). ``progress`` gets
    a fraction 0..1 now and then and may raise ExportCancelled.
    """

    paper: str | None = None
    revision: str | None = None
    author: str | None = None
    date: str = field(default_factory=lambda: date.today().isoformat())
    file_name: str = ""
    label_sheet: LabelSheet = field(default_factory=lambda: LabelSheet())
    progress: Callable[[float], None] | None = None

    def report(self, fraction: float) -> None:
        if self.progress is not None:
            self.progress(min(1.0, max(0.0, fraction)))


def register_fonts() -> None:
    """Register the bundled fonts with reportlab once per process."""
    global _registered
    if _registered:
        return
    rl_config.useA85 = 0  # binary streams: smaller files, and ASCII85 is slow in pure Python
    pdfmetrics.registerFont(TTFont(FONT, io.BytesIO(resource("fonts", "DejaVuSans.ttf").read_bytes())))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, io.BytesIO(resource("fonts", "DejaVuSans-Bold.ttf").read_bytes())))
    pdfmetrics.registerFont(TTFont(FONT_CJK, io.BytesIO(resource("fonts", "DroidSansFallbackFull.ttf").read_bytes())))
    pdfmetrics.registerFont(UnicodeCIDFont(FONT_HANGUL))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    _registered = True


def text_runs(text: str, font: str) -> list[tuple[str, str]]:
    """Split text into (font, run) pieces: CJK and Hangul runs get a font that has their glyphs."""
    if text.isascii():
        return [(font, text)]
    runs: list[tuple[str, str]] = []
    pos = 0
    for match in _FOREIGN.finditer(text):
        if match.start() > pos:
            runs.append((font, text[pos:match.start()]))
        runs.append((FONT_HANGUL if _HANGUL.match(match.group()) else FONT_CJK, match.group()))
        pos = match.end()
    if pos < len(text):
        runs.append((font, text[pos:]))
    return runs


def text_width(text: str, size: float, font: str = FONT) -> float:
    return sum(pdfmetrics.stringWidth(run, f, size) for f, run in text_runs(text, font))


def fit_text(text: str, size: float, max_width: float, font: str = FONT, min_size: float = 5.0) -> tuple[str, float]:
    """Shrink the font (down to ``min_size``) so text fits; cut with … only past that."""
    width = text_width(text, size, font)
    if width <= max_width:
        return text, size
    size = max(min_size, size * max_width / width)
    while text and text_width(text, size, font) > max_width:
        text = text[:-2] + "…"
    return text, size


def draw_text(canvas: Canvas, x: float, y: float, text: str, size: float, font: str = FONT,
              max_width: float | None = None, align: str = "left") -> None:
    """Draw user text verbatim (any script), optionally shrunk to a width."""
    if max_width is not None and len(text) * size > max_width:
        text, size = fit_text(text, size, max_width, font)
    if align != "left":
        width = text_width(text, size, font)
        x -= width if align == "right" else width / 2
    for run_font, run in text_runs(text, font):
        if canvas._fontname != run_font or canvas._fontsize != size:
            canvas.setFont(run_font, size)
        canvas.drawString(x, y, run)
        x += pdfmetrics.stringWidth(run, run_font, size)


def markup(text: str) -> str:
    """Escape user text for a reportlab Paragraph, switching font for CJK/Hangul runs."""
    parts = []
    for run_font, run in text_runs(text, FONT):
        escaped = escape(run).replace("\n", "<br/>")
        parts.append(escaped if run_font == FONT else f'<font name="{run_font}">{escaped}</font>')
    return "".join(parts)


def page_size(doc: Document, options: ExportOptions, wide: bool = False) -> tuple[float, float]:
    paper = options.paper or doc.basis.paper
    size = PAPER_SIZES.get(paper, A4)
    return landscape(size) if wide else size


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

    def draw(self, canvas: Canvas, page: int, total: int) -> None:
        """Draw the block across the bottom margin of the current page."""
        width, _height = canvas._pagesize
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
             ("Page", f"{page} of {total}", 0.16)],
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


    def draw_line(self, canvas: Canvas, page: int, total: int, y: float) -> None:
        """The same facts on one line, for sheets whose margins hold no box (label stock)."""
        width, _height = canvas._pagesize
        facts = (f"{self.title} · {self.project} · {self.hall} · rev {self.revision} · {self.date} · "
                 f"{self.author} · {self.file_name}")
        page_text = f"page {page} of {total}"
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
    draw: Callable[[Canvas], None]


def render_pages(out: io.BufferedIOBase, pages: list[Page], block: TitleBlock, options: ExportOptions,
                 footer: bool = True) -> None:
    """Draw every page with its title block ("page X of Y") into ``out`` (byte-stable).

    With ``footer`` False the pages draw their own title line (label sheets).
    """
    register_fonts()
    canvas = Canvas(out, pagesize=pages[0].size if pages else A4, invariant=1, pageCompression=1)
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


def write_atomic(path: str | os.PathLike, write: Callable[[io.BufferedIOBase], None]) -> None:
    """Write a file through a temporary beside it, renamed into place only when complete.

    If ``write`` raises (a failure or ExportCancelled) the temporary is removed and any existing
    file at ``path`` is left as it was.
    """
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(prefix=".export-", suffix=".part", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
