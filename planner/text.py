"""Wording every layer shares (commands, review, as-built, export): a count with its noun.

It sits at the top of the package, below everything, so a report or an export need not import
the edit commands for it.

One number format everywhere a person reads a count (the command line's lines, every PDF, the
window): whole numbers of 1,000 and more with a thousands comma, ``24,576 cables``. Files made
for other programs (CSV, JSON, XLSX) keep plain numbers.
"""

from __future__ import annotations


def count(value: int) -> str:
    """A whole number as printed for people: ``7``, ``1,024``, ``24,576``."""
    return f"{int(value):,}"


def plural(number: int, noun: str, many: str | None = None) -> str:
    """``1 rack``, ``3 racks``, ``1,024 cables``; ``many`` for a noun that does not take an -s
    (``plural(2, "reply", "replies")``)."""
    if number == 1:
        return f"{count(number)} {noun}"
    return f"{count(number)} {many if many is not None else noun + 's'}"
