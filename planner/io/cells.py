"""The spreadsheet-cell rule shared by the writers (``planner.export.sheet_text``) and the readers
of what they wrote (NetBox sets, cable lists, tick sheets): which text a spreadsheet would run as
a formula, and how such a cell is neutralised and read back.

OWASP "CSV Injection": a cell is dangerous when it starts with ``= + - @``, a tab or a carriage
return. Spreadsheets skip leading white space and invisible characters before deciding (Excel
and LibreOffice evaluate `` =1+1``; a byte-order mark or a no-break space in front does not stop
them either), so the test is on the first character that is neither white space (``str.isspace``,
Unicode Zs) nor a format character (Unicode Cf: U+FEFF, U+200B, bidi controls …). Such a cell
is written with a leading ``'``; a reader strips that ``'`` again from a cell that would be one.
"""

from __future__ import annotations

import unicodedata

#: Characters that start a formula in Excel, LibreOffice or Google Sheets (OWASP CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_FORMULA_CHARS = frozenset("=+-@")
_INVISIBLE = frozenset(("Zs", "Cf"))


def starts_like_formula(text: str) -> bool:
    """Whether a spreadsheet could read ``text`` as a formula: it starts with a tab or CR, or its
    first character that is not white space or invisible is one of ``= + - @``."""
    if not text:
        return False
    if text.startswith(FORMULA_STARTS):
        return True
    for char in text:
        if char in _FORMULA_CHARS:
            return True
        if not (char.isspace() or unicodedata.category(char) in _INVISIBLE):
            return False
    return False


def neutralise(text: str) -> str:
    """``'`` + text for a cell that starts like a formula, the text itself otherwise."""
    return "'" + text if starts_like_formula(text) else text


def unneutralise(text: str) -> str:
    """Text as typed from a cell ``neutralise`` wrote (``'=x`` → ``=x``, ``' =x`` → `` =x``)."""
    return text[1:] if text.startswith("'") and starts_like_formula(text[1:]) else text
