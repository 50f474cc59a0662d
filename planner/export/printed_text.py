"""User text on paper: cut to its room, shrunk to a floor size, wrapped, drawn in any script.

User text is hostile until shown otherwise. Every export passes it through ``clean_text``
(control characters out, ``planner.export.sheet_text``), and the printed documents cut it to the
space they have, so no name can stall an export or break a file:

- one printed line holds at most ``MAX_LINE_CHARS`` characters; a field on one line (table
  cell, title block, heading) shrinks to ``MIN_FONT_SIZE`` and is then cut with "…";
- a wrapped field (commissioning tables, notes) wraps at its width up to a stated number of
  lines and its last line is cut with "…".

Fonts and the choice of font per character are in ``fonts``; right-to-left text is drawn in
visual order (``bidi``), so what prints also copies and searches as typed. The plan and the CSV
keep the full text.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from planner.export.bidi import paragraph_level, visual
from planner.export.fonts import FONT, text_runs
from planner.export.page_canvas import PageCanvas
from planner.export.plain_text import PlainFont
from planner.export.sheet_text import clean_text

ELLIPSIS = "…"
#: No printed line is longer: about what 5 pt text fills across landscape A3.
MAX_LINE_CHARS = 400
MIN_FONT_SIZE = 5.0

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
        if not isinstance(canvas, PageCanvas) or canvas.font != (run_font, size):
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
