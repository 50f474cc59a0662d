"""Natural-order sort keys and shown lengths of the Cables dock, memoised (``ui.cables.index`` uses them).

Qt-free, like the index: plain strings that compare in natural order (R2 before R10) and
lengths formatted once per distinct value.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"\d+")
#: The label's arrow as the one ASCII character above every other ("↔" made every label key and
#: search text a two-byte-per-character string: 110 MB more at 749k cables). Search texts and
#: the words searched for both go through it, so a filter still finds what it did.
ASCII_FORM = str.maketrans({"↔": "\x7f"})


def _number_key(match: re.Match[str]) -> str:
    digits = match.group().lstrip("0") or "0"
    return chr(ord("0") + len(digits)) + digits


def text_key(text: str) -> str:
    """Natural-order key that is a plain string, cheap to compare: each number as its digit count
    (one character, a digit up to 9 digits, so a number still sorts before a letter) and its
    digits, so R2 < R10 as 12 < 210. Zero-padding every number to 8 made the 16,384-node hall's
    749k label keys 238 bytes each."""
    return _DIGITS.sub(_number_key, text.translate(ASCII_FORM))


class Decimals(dict[float, str]):
    """Lengths as shown ("19.83"), memoised: formatting 196k floats was half of building the
    search texts, and a hall has a few thousand distinct lengths."""

    def __missing__(self, value: float) -> str:
        text = self[value] = f"{value:.2f}"
        return text


class NaturalKeys(dict[str, str]):
    """``text_key`` memoised per token: labels repeat their tokens (R01, U12, P1) endlessly.

    ``text_key(a + "-" + b) == text_key(a) + "-" + text_key(b)`` because "-" ends a number (so
    does " "), so a label's key is its tokens' keys joined: 68 ms for 98k labels, not 240 ms.
    """

    def __missing__(self, token: str) -> str:
        key = self[token] = text_key(token)
        return key

    def joined(self, text: str, separator: str = "-") -> str:
        return separator.join(map(self.__getitem__, text.split(separator)))
