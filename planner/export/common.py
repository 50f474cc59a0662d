"""What every exported document shares: paper, text, title block, page numbering, atomic writing.

Every page carries the same title block (project, hall, revision, date, author, file name,
page X of Y) so a loose printed sheet can always be traced back to its plan. Fonts and the
choice of font per character are in ``fonts``; right-to-left text is drawn in visual order
(``bidi``), so what prints also copies and searches as typed.

User text is hostile until shown otherwise. Every export passes it through ``clean_text``
(control characters out), spreadsheets through ``sheet_text`` (no formulas), and the printed
documents cut it to the space they have, so no name can stall an export or break a file:

- one printed line holds at most ``MAX_LINE_CHARS`` characters; a field on one line (table
  cell, title block, heading) shrinks to ``MIN_FONT_SIZE`` and is then cut with "…";
- a wrapped field (commissioning tables, notes) wraps at its width up to a stated number of
  lines and its last line is cut with "…".

The plan and the CSV keep the full text.
"""

from __future__ import annotations

import errno
import io
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from planner.export.bidi import paragraph_level, visual
from planner.export.fonts import FONT, FONT_BOLD, FONT_CJK, FONT_HANGUL, register_fonts, text_runs
from planner.export.plain_text import PlainFont
from planner.export.sheet_text import FORMULA_STARTS, clean_text, sheet_text, starts_like_formula
from planner.model.document import Document

__all__ = ["FONT", "FONT_BOLD", "FONT_CJK", "FONT_HANGUL", "FORMULA_STARTS", "clean_text", "register_fonts",
           "sheet_text", "starts_like_formula", "text_runs"]

PAPER_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "Letter": LETTER}
MM = 72.0 / 25.4
MARGIN = 12 * MM
TITLE_BLOCK_HEIGHT = 30.0
ELLIPSIS = "…"
#: No printed line is longer: about what 5 pt text fills across landscape A3.
MAX_LINE_CHARS = 400
MIN_FONT_SIZE = 5.0
#: Excel keeps at most this many characters in a cell (and reports the file damaged beyond it).
XLSX_MAX_CHARS = 32_767

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

_LINE_BREAKS = re.compile("[\t\n\r\u2028\u2029]")
_SPACE = re.compile(" +")
_PARAGRAPHS = re.compile("\r\n|[\n\r\u2028\u2029]")


def clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, the last one "…" when cut."""
    return text if len(text) <= limit else text[:max(0, limit - 1)] + ELLIPSIS


def one_line(text: str) -> str:
    """Text for one printed line: cleaned, line breaks as spaces, at most MAX_LINE_CHARS."""
    text = clean_text(clip(text, MAX_LINE_CHARS))
    return _LINE_BREAKS.sub(" ", text) if _LINE_BREAKS.search(text) else text


def text_width(text: str, size: float, font: str = FONT) -> float:
    return sum(pdfmetrics.stringWidth(run, f, size) for f, run in text_runs(text, font))


def _fitting(text: str, size: float, room: float, font: str) -> int:
    """How many characters from the start of ``text`` fit in ``room`` points.

    Text in one font is searched by halving (widths only grow with the length: a few width
    calls, not one a character); text across fonts is measured character by character.
    """
    runs = text_runs(text, font)
    if len(runs) == 1:
        face = pdfmetrics.getFont(runs[0][0])
        low, high = 0, len(text)
        while low < high:
            middle = (low + high + 1) // 2
            if face.stringWidth(text[:middle], size) > room:
                high = middle - 1
            else:
                low = middle
        return low
    used = 0.0
    count = 0
    for run_font, run in runs:
        for char in run:
            used += pdfmetrics.stringWidth(char, run_font, size)
            if used > room:
                return count
            count += 1
    return count


def cut_to_width(text: str, size: float, max_width: float, font: str = FONT) -> str:
    """The longest start of ``text`` that fits ``max_width`` with "…" after it."""
    room = max_width - pdfmetrics.stringWidth(ELLIPSIS, font, size)
    return text[:_fitting(text, size, room, font)].rstrip() + ELLIPSIS


def fit_text(text: str, size: float, max_width: float, font: str = FONT,
             min_size: float = MIN_FONT_SIZE) -> tuple[str, float]:
    """Shrink the font (down to ``min_size``) so one line fits; cut with "…" only past that."""
    text = one_line(text)
    width = text_width(text, size, font)
    if width <= max_width:
        return text, size
    floor = min(min_size, size)
    scaled = 0.999 * size * max_width / width  # widths scale with the size
    if scaled >= floor:
        return text, scaled
    return cut_to_width(text, floor, max_width, font), floor


def wrap_lines(text: str, size: float, max_width: float, max_lines: int, font: str = FONT) -> list[str]:
    """Text wrapped at spaces (a word longer than a line is broken anywhere) into at most
    ``max_lines`` lines; when text is left over the last line is cut and ends with "…"."""
    text = clean_text(clip(text, max_lines * MAX_LINE_CHARS))
    lines: list[str] = []
    for paragraph in _PARAGRAPHS.split(text):
        line = ""
        for word in _SPACE.split(paragraph.replace("\t", " ")):
            candidate = f"{line} {word}" if line else word
            if text_width(candidate, size, font) <= max_width:
                line = candidate
                continue
            if line:
                lines.append(line)
            while len(word) > 1 and len(lines) <= max_lines and text_width(word, size, font) > max_width:
                count = max(1, _fitting(word, size, max_width, font))
                lines.append(word[:count])
                word = word[count:]
            line = word
            if len(lines) > max_lines:
                break
        lines.append(line)
        if len(lines) > max_lines:
            break
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = cut_to_width(lines[-1] + " ", size, max_width, font)
    return lines


def draw_text(canvas: Canvas, x: float, y: float, text: str, size: float, font: str = FONT,
              max_width: float | None = None, align: str = "left", base: int | None = None) -> None:
    """Draw user text on one line (any script, right-to-left runs in visual order), optionally
    shrunk and cut to a width; ``base`` is the direction of the paragraph a wrapped line is from."""
    plain: PlainFont | None
    plain = PlainFont.of(canvas, font)
    if len(text) > MAX_LINE_CHARS or not plain.allowed.issuperset(text):
        plain = None
        text = one_line(text)
    if max_width is not None and len(text) * size > max_width and (
            plain is None or plain.face.stringWidth(text, size) > max_width):
        text, size = fit_text(text, size, max_width, font)
        if plain is not None and not plain.allowed.issuperset(text):
            plain = None
    if plain is not None:
        plain.draw(canvas, x, y, text, size, align)
        return
    text = visual(text, base)
    if align != "left":
        width = text_width(text, size, font)
        x -= width if align == "right" else width / 2
    for run_font, run in text_runs(text, font):
        if canvas._fontname != run_font or canvas._fontsize != size:
            canvas.setFont(run_font, size)
        canvas.drawString(x, y, run)
        x += pdfmetrics.stringWidth(run, run_font, size)


def _markup_line(text: str, base: int | None = None) -> str:
    parts = []
    for run_font, run in text_runs(visual(text, base), FONT):
        escaped = escape(run)
        parts.append(escaped if run_font == FONT else f'<font name="{run_font}">{escaped}</font>')
    return "".join(parts)


def markup(text: str) -> str:
    """Escape user text for a reportlab Paragraph, switching font per character where needed.

    Unbounded: for text of known length (figures, fixed words). User text in a fixed width goes
    through ``markup_lines``.
    """
    return "<br/>".join(_markup_line(line) for line in clean_text(text).split("\n"))


def markup_lines(text: str, size: float, max_width: float, max_lines: int, font: str = FONT) -> str:
    """User text for a Paragraph of ``max_width``: wrapped here (so each line is put in visual
    order on its own) to at most ``max_lines`` lines, the last cut with "…"."""
    base = paragraph_level(text[:MAX_LINE_CHARS])
    return "<br/>".join(_markup_line(line, base) for line in wrap_lines(text, size, max_width, max_lines, font))


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
    #: review-pdf: the earlier revision (.hall path) the review compares with (None: comments only).
    against: str | None = None
    #: netbox: the site and location names NetBox files the hall under (None: from the title block).
    site: str | None = None
    location: str | None = None
    #: cabling-pdf: only the cables not yet verified, and only the racks that have any (what is left to do).
    remaining_only: bool = False
    #: Paper exports: only these racks (ids) and the cables and labels at them (None: the whole hall).
    racks: frozenset[str] | None = None

    def report(self, fraction: float) -> None:
        if self.progress is not None:
            self.progress(min(1.0, max(0.0, fraction)))


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
        facts = " · ".join(clip(one_line(fact), 60) for fact in (
            self.title, self.project, self.hall, f"rev {self.revision}", self.date, self.author, self.file_name))
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


def new_file_mode(target: str) -> int:
    """The mode the export gets: the replaced file's, or what a new file gets under the umask.

    ``mkstemp`` creates its file 0600 and the rename keeps that, so without this every export
    was unreadable to the rest of the team. The umask is read from /proc (Linux), where setting
    and restoring it — the portable way — would briefly change it for every thread of the app
    (exports run in a background thread).
    """
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1], 8) for line in status if line.startswith("Umask:"))
    except (OSError, StopIteration, ValueError, IndexError):
        umask = os.umask(0o022)
        os.umask(umask)
        return umask


def write_atomic(path: str | os.PathLike, write: Callable[[io.BufferedWriter], object]) -> None:
    """Write a file through a temporary beside it, renamed into place only when complete.

    If ``write`` raises (a failure or ExportCancelled) the temporary is removed and any existing
    file at ``path`` is left as it was. The file gets ``new_file_mode``, as ``.hall`` saves do.
    """
    target = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(target))
    mode = new_file_mode(target)
    fd, temp = tempfile.mkstemp(prefix=".export-", suffix=".part", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


#: The file a folder export leaves in its folder, so that the next export may replace the folder.
EXPORT_MARKER = ".hall-planner-export"


def write_folder_atomic(path: str | os.PathLike, write: Callable[[Path], object]) -> None:
    """Write a set of files (a NetBox or Slurm set) into a folder that appears whole or not at all.

    ``write`` fills a temporary folder beside ``path``; then a folder already at ``path`` is moved
    aside, the new one renamed in and the old one removed. If ``write`` raises, the temporary
    folder goes and ``path`` is left as it was. Folders get the mode ``mkdir`` gives under the
    umask (``mkdtemp`` makes them 0700); files are written by ``write`` with plain ``open``, so
    they get the umask's mode too. A file (not a folder) at ``path`` is refused, and so is a
    folder holding anything but an earlier export (which carries ``EXPORT_MARKER``): replacing
    it whole would delete someone's files (``-o ~/Documents``).
    """
    target = os.path.abspath(os.fspath(path))
    if os.path.exists(target) and not os.path.isdir(target):
        raise NotADirectoryError(errno.ENOTDIR, "a file is in the way: the output is a folder", target)
    if os.path.isdir(target) and os.listdir(target) and not os.path.exists(os.path.join(target, EXPORT_MARKER)):
        raise FileExistsError(errno.EEXIST, "the folder holds other files: choose a new or empty folder", target)
    parent = os.path.dirname(target)
    temp = tempfile.mkdtemp(prefix=".export-", suffix=".part", dir=parent)
    old = None
    try:
        os.chmod(temp, 0o777 & ~_umask())
        write(Path(temp))
        with open(os.path.join(temp, EXPORT_MARKER), "w", encoding="utf-8") as marker:
            marker.write("Written by Hall Planner; the next export to this folder replaces it whole.\n")
        if os.path.isdir(target):
            old = tempfile.mkdtemp(prefix=".export-", suffix=".old", dir=parent)
            os.replace(target, os.path.join(old, "previous"))
        os.replace(temp, target)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        if old is not None and not os.path.exists(target):
            os.replace(os.path.join(old, "previous"), target)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)


def chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start:start + size]
