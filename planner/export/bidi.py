"""Right-to-left text in visual order for the PDF exports (Unicode bidi algorithm, UAX #9).

A PDF places glyphs left to right, and text extractors (pypdf, poppler's pdftotext, viewers'
copy and search) rebuild the logical order from that visual order. Drawing Hebrew or Arabic
in the order it was typed therefore prints it backwards *and* extracts it backwards; drawing
it in visual order prints it as a reader expects and extracts the text as typed.

This is the part of UAX #9 that one line of user text needs: paragraph level from the first
strong letter (P2, P3), the weak and neutral rules (W1–W7, N1, N2), implicit levels (I1, I2),
reordering (L1, L2) and mirrored brackets (L4). Explicit embeddings and isolates (U+202A–202E,
U+2066–2069) are ignored as boundary neutrals: names in a plan do not carry them, and
dropping them only changes the order of text that asked for an override. Written here on the
standard library's ``unicodedata`` rather than taken from python-bidi, whose Rust build does
not mirror brackets and whose licence (LGPL-3) the product's licence would have to carry.
"""

from __future__ import annotations

import re
import unicodedata

_RTL_HINT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")
_STRONG_R = ("R", "AL")
_NEUTRAL = ("B", "S", "WS", "ON", "BN", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")
#: Bracket and comparison pairs drawn mirrored inside right-to-left runs (BidiMirroring.txt, the
#: characters a name is likely to hold).
_MIRROR = dict(zip("()<>[]{}«»‹›⁅⁆⁽⁾₍₎≤≥⟨⟩", ")(><][}{»«›‹⁆⁅⁾⁽₎₍≥≤⟩⟨"))


def has_rtl(text: str) -> bool:
    """Whether text holds a right-to-left letter (the fast path skips the algorithm otherwise)."""
    return _RTL_HINT.search(text) is not None


def _base_level(types: list[str]) -> int:
    for kind in types:
        if kind == "L":
            return 0
        if kind in _STRONG_R:
            return 1
    return 0


def _resolve_weak(types: list[str], sos: str) -> list[str]:
    """W1–W7 over one run of one level (the whole line here)."""
    out = list(types)
    previous = sos
    for i, kind in enumerate(out):  # W1: a mark takes the type of what it marks
        if kind == "NSM":
            out[i] = previous
        elif kind not in ("BN",):
            previous = out[i]
    strong = sos
    for i, kind in enumerate(out):  # W2, W3
        if kind in ("L", "R", "AL"):
            strong = kind
        elif kind == "EN" and strong == "AL":
            out[i] = "AN"
    out = ["R" if kind == "AL" else kind for kind in out]
    for i in range(1, len(out) - 1):  # W4: one separator between two numbers of a kind
        before, after = out[i - 1], out[i + 1]
        if out[i] == "ES" and before == after == "EN":
            out[i] = "EN"
        elif out[i] == "CS" and before == after and before in ("EN", "AN"):
            out[i] = before
    i = 0
    while i < len(out):  # W5: terminators (%, $ …) next to a European number join it
        if out[i] != "ET":
            i += 1
            continue
        end = i
        while end < len(out) and out[end] == "ET":
            end += 1
        if (i > 0 and out[i - 1] == "EN") or (end < len(out) and out[end] == "EN"):
            out[i:end] = ["EN"] * (end - i)
        i = end
    out = ["ON" if kind in ("ES", "ET", "CS") else kind for kind in out]  # W6
    strong = sos
    for i, kind in enumerate(out):  # W7
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            out[i] = "L"
    return out


def _resolve_neutral(types: list[str], base: int) -> list[str]:
    """N1, N2: neutrals between two like directions take it, others the paragraph's."""
    embedding = "R" if base else "L"
    out = list(types)
    i = 0
    while i < len(out):
        if out[i] not in _NEUTRAL:
            i += 1
            continue
        end = i
        while end < len(out) and out[end] in _NEUTRAL:
            end += 1
        before = embedding if i == 0 else ("R" if out[i - 1] in ("R", "EN", "AN") else "L")
        after = embedding if end == len(out) else ("R" if out[end] in ("R", "EN", "AN") else "L")
        out[i:end] = [before if before == after else embedding] * (end - i)
        i = end
    return out


def paragraph_level(text: str) -> int:
    """0 (left to right) or 1 (right to left): the direction of the first strong letter (P2, P3).

    A paragraph wrapped into lines keeps this one level on every line (a line that happens to
    start with a Hebrew word stays left to right when the paragraph is)."""
    if not has_rtl(text):
        return 0
    return _base_level([unicodedata.bidirectional(c) for c in text])


def visual(text: str, base: int | None = None) -> str:
    """``text`` (one line, logical order) in left-to-right visual order; unchanged without RTL
    letters. ``base`` is the paragraph level when the line is part of a wrapped paragraph."""
    if not text or not has_rtl(text):
        return text
    original = [unicodedata.bidirectional(c) or "L" for c in text]
    base = _base_level(original) if base is None else base
    types = _resolve_neutral(_resolve_weak(original, "R" if base else "L"), base)
    levels = []
    for kind in types:  # I1, I2
        if base == 0:
            levels.append(1 if kind == "R" else 2 if kind in ("AN", "EN") else 0)
        else:
            levels.append(2 if kind in ("L", "AN", "EN") else 1)
    for i in range(len(text) - 1, -1, -1):  # L1: trailing white space at the paragraph level
        if original[i] not in ("WS", "S", "BN"):
            break
        levels[i] = base
    chars = [(_MIRROR.get(c, c) if level % 2 else c) for c, level in zip(text, levels)]  # L4
    for level in range(max(levels), 0, -1):  # L2: the lowest odd level is 1 on one line
        i = 0
        while i < len(chars):
            if levels[i] < level:
                i += 1
                continue
            end = i
            while end < len(chars) and levels[end] >= level:
                end += 1
            chars[i:end] = chars[i:end][::-1]
            levels[i:end] = levels[i:end][::-1]
            i = end
    return "".join(chars)
