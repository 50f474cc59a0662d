"""Natural-order sort keys and shown lengths of the Cables dock, memoised (``ui.cables.index`` uses them).

Qt-free, like the index: plain strings that compare in natural order (R2 before R10) and
lengths formatted once per distinct value.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"\d+")


def text_key(text: str) -> str:
    """Natural-order key that is a plain string (numbers zero-padded), cheap to compare."""
    return _DIGITS.sub(lambda match: match.group().zfill(8), text)


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
