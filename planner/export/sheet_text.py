"""User text made safe for what shows it: every export (``clean_text``), spreadsheet cells
(``sheet_text``) and the terminal (``terminal_text``).

``clean_text`` replaces control characters with U+FFFD; ``sheet_text`` also neutralises a cell a
spreadsheet would run as a formula (the OWASP rule, leading white space and invisible characters
looked through: ``planner.io.cells``); ``terminal_text`` also replaces the bidirectional
embedding, override and isolate controls (U+202A–202E, U+2066–2069, "Trojan Source"), which a
terminal obeys and which would make a printed name read as another.
"""

from __future__ import annotations

import re

from planner.io.cells import FORMULA_STARTS, neutralise, starts_like_formula

__all__ = ["FORMULA_STARTS", "clean_text", "sheet_text", "starts_like_formula", "terminal_text"]

#: C0 controls but tab, LF and CR; DEL and the C1 controls; lone surrogates; U+FFFE and U+FFFF.
#: XML 1.0 (SVG, XLSX) forbids most of them, and in a PDF or on a terminal they print as boxes or act.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
#: What a terminal must not be handed either: the controls above, tab/CR (a line that moves the
#: cursor back overprints itself) and the bidi controls.
_TERMINAL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")


def clean_text(text: str) -> str:
    """User text safe for every export: each control character becomes U+FFFD (�), visibly.

    Tab, line feed and carriage return stay (cells may hold them; one-line fields turn them
    into spaces). Applied by every export to every piece of user text it writes.
    """
    return _CONTROL.sub("\ufffd", text) if _CONTROL.search(text) else text


def terminal_text(text: str) -> str:
    """Text from an input file safe to print on a terminal: ``clean_text``'s controls, tab, CR
    and the bidi controls each become U+FFFD (line feeds stay)."""
    return _TERMINAL.sub("\ufffd", text) if _TERMINAL.search(text) else text


def sheet_text(value: object) -> object:
    """A CSV cell: numbers as they are; text cleaned, and neutralised with a leading ``'`` when a
    spreadsheet could read it as a formula (``= + - @`` first after any white space or invisible
    characters, or a leading tab or CR), so a spreadsheet shows it as text.

    Reading the CSV back gives ``'`` + the typed text for those cells and the typed text for
    every other.
    """
    if not isinstance(value, str):
        return value
    return neutralise(clean_text(value))
