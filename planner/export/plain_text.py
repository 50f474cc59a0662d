"""The fast path of printed text: strings that need no shaping, written straight into the page.

reportlab's drawString goes through a text object, shaping and subset splitting for every
string (about 25 µs); a hall's labels and cabling plan draw over a million strings (196,608
labels of four lines at 32,768 GPUs). ``common.draw_text`` hands the strings made only of
printable ASCII and a few common characters to ``PlainFont``, which writes them in about 2 µs;
everything else (other scripts, right-to-left text, control characters) takes the full path.
"""

from __future__ import annotations

from collections.abc import Callable
from weakref import WeakKeyDictionary, ref

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

#: Non-ASCII characters the documents print often (separators, arrows, units), drawn by the fast path.
_COMMON = "·…↔→←–—°×µ±≤≥²³€£"


class FontsByPdf:
    """Each PDF's plain fonts, held as long as the PDF lives (weakly), with the PDF drawn last
    remembered (weakly too) so that a string costs one identity test, not a weak-key lookup."""

    def __init__(self) -> None:
        self.by_pdf: WeakKeyDictionary[object, dict[str, PlainFont]] = WeakKeyDictionary()
        self.last: Callable[[], object] = lambda: None
        self.last_fonts: dict[str, PlainFont] = {}

    def of(self, doc: object) -> dict[str, PlainFont]:
        if self.last() is not doc:
            self.last_fonts = self.by_pdf.setdefault(doc, {})
            self.last = ref(doc)
        return self.last_fonts


#: The process's one cache (PDFs are drawn on one thread at a time: the worker process, or the CLI).
FONTS = FontsByPdf()


class PlainFont:
    """One font of one PDF for text that needs no shaping: what it can draw as is, and how.

    An ASCII-readable TrueType subset (reportlab's default) holds ASCII in subset 0 under its own
    codes, and the few common characters of ``_COMMON`` get subset-0 codes up front, so such a
    string's encoding is one ``str.translate`` (escapes and octal codes) and it is written as one
    text object straight into the page. Anything else (other scripts, right-to-left, control
    characters) takes the full path.
    """

    def __init__(self, font: str, doc: object) -> None:
        self.face = pdfmetrics.getFont(font)
        self.name = self.face.getSubsetInternalName(0, doc)
        self.table: dict[int, str] = {ord("\\"): "\\\\", ord("("): "\\(", ord(")"): "\\)"}
        allowed: set[str] = set()
        if getattr(self.face, "_asciiReadable", False):
            allowed.update(map(chr, range(32, 127)))
            for char in _COMMON:
                if ord(char) in self.face.face.charToGlyph:
                    (subset, code), = self.face.splitString(char, doc)
                    if subset == 0:
                        self.table[ord(char)] = f"\\{code[0]:03o}"
                        allowed.add(char)
        self.allowed = frozenset(allowed)

    @classmethod
    def of(cls, canvas: Canvas, font: str) -> PlainFont:
        """The font's plain-text state in the canvas's PDF (the last PDF's are looked up first)."""
        doc = canvas._doc
        fonts = FONTS.of(doc)
        plain = fonts.get(font)
        if plain is None:
            plain = fonts[font] = cls(font, doc)
        return plain

    def draw(self, canvas: Canvas, x: float, y: float, text: str, size: float, align: str) -> None:
        if align != "left":
            width = self.face.stringWidth(text, size)
            x -= width if align == "right" else width / 2
        canvas._code.append(f"BT 1 0 0 1 {x:.2f} {y:.2f} Tm {self.name} {size:.2f} Tf "
                            f"({text.translate(self.table)}) Tj ET")
