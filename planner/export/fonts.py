"""The bundled fonts, and which of them draws each character of user text.

Every font is a TrueType file embedded as a subset, so a document prints and copies the same on
any machine: DejaVu Sans (Latin, Greek, Cyrillic, Hebrew, Arabic letters, symbols such as ↔ and
the monochrome emoticons), Droid Sans Fallback (Chinese and Japanese) and NanumGothic (Korean;
reportlab's Korean CID font is not embedded, so viewers without an Asian font pack printed
Hangul as empty boxes). A character goes to the first font that has a glyph for it. A
character no bundled font draws (most pictographic emoji) prints as the font's empty box;
reportlab would write it as glyph 0 with no character behind it, so it is given the empty-box
glyph under its own code instead and stays in the text layer: it still copies and searches.

reportlab writes a subset's ToUnicode map with one hex code per character, which for a
character beyond U+FFFF (emoji) is an odd-length hex string that PDF readers reject: the
whole map is lost. ``register_fonts`` installs a writer of the same map that spells such
characters as UTF-16 surrogate pairs, as the PDF reference asks.
"""

from __future__ import annotations

import io
import re

from reportlab import rl_config
from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFont

from planner.resources_access import resource

FONT = "HP-Sans"
FONT_BOLD = "HP-Sans-Bold"
FONT_CJK = "HP-CJK"
FONT_HANGUL = "HP-Hangul"

_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf", FONT_CJK: "DroidSansFallbackFull.ttf",
          FONT_HANGUL: "NanumGothic.ttf"}
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]")
_coverage: dict[str, dict[int, int]] = {}


def _to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ToUnicode CMap, with characters beyond the BMP as UTF-16BE surrogate pairs."""
    def utf16(code: int) -> str:
        return chr(code).encode("utf-16-be", "surrogatepass").hex().upper()

    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap", "/CIDSystemInfo",
        f"<< /Registry ({fontname})", f"/Ordering ({fontname})", "/Supplement 0", ">> def",
        f"/CMapName /{fontname} def", "/CMapType 2 def", "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>", "endcodespacerange", f"{len(subset)} beginbfchar",
        *(f"<{i:02X}> <{utf16(code)}>" for i, code in enumerate(subset)),
        "endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end",
    ])


def register_fonts() -> None:
    """Register the bundled fonts with reportlab once per process."""
    if _coverage:
        return
    rl_config.useA85 = 0  # binary streams: smaller files, and ASCII85 is slow in pure Python
    if "<1F600>" in ttfonts.makeToUnicodeCMap("probe", [0x1F600]):
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap
    coverage = {}
    for name, file in _FILES.items():
        font = TTFont(name, io.BytesIO(resource("fonts", file).read_bytes()))
        pdfmetrics.registerFont(font)
        coverage[name] = font.face.charToGlyph
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
    _coverage.update(coverage)  # last: another thread sees every font or none


def font_for(char: str, base: str) -> str:
    """The font that draws ``char`` when the text asks for ``base``: base first, then Korean
    before Chinese/Japanese for Hangul and the other way round for everything else."""
    code = ord(char)
    if code in _coverage[base]:
        return base
    order = (FONT_HANGUL, FONT_CJK) if _HANGUL.match(char) else (FONT_CJK, FONT_HANGUL)
    for name in order:
        if code in _coverage[name]:
            return name
    # No bundled font draws it: map it to the base font's empty-box glyph (0), so the subset
    # gives it a code of its own and the ToUnicode map still names the character.
    _coverage[base][code] = 0
    return base


def text_runs(text: str, font: str) -> list[tuple[str, str]]:
    """Split text into (font, run) pieces, each run drawn by a font that has its glyphs."""
    if text.isascii():
        return [(font, text)]
    register_fonts()
    if _coverage[font].keys() >= set(map(ord, text)):  # one set test, not a loop, for most text
        return [(font, text)]
    runs: list[tuple[str, str]] = []
    current, start = "", 0
    for i, char in enumerate(text):
        # spaces and punctuation every font has stay in the current run rather than split it
        chosen = current if current and ord(char) in _coverage[current] and not char.isalnum() else \
            font_for(char, font)
        if chosen != current:
            if i > start:
                runs.append((current, text[start:i]))
            current, start = chosen, i
    runs.append((current or font, text[start:]))
    return runs
