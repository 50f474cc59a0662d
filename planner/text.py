"""Wording every layer shares (commands, review, as-built, export): a count with its noun.

It sits at the top of the package, below everything, so a report or an export need not import
the edit commands for it.
"""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """``1 rack``, ``3 racks``, ``1,024 cables``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
