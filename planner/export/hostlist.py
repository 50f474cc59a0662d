"""Slurm hostlist expressions: many hostnames written as a few, ``R[01-12]-N[1-4]``.

A 32k-GPU hall has 4,096 node names; listed one by one, every Slurm line that names an SU or a
partition would run to tens of kilobytes. A hostlist folds them back to the pattern the names
were made from. What a hostlist means is Slurm's (``src/common/hostlist.c``:
``_hostlist_create_bracketed``, ``_push_range_list``, ``_parse_single_range``), and this module
writes only what that parser reads back to exactly the names given:

- items are separated by commas outside brackets; inside brackets a comma separates ranges;
- a name may hold several bracketed range lists, and stands for every combination of them
  (``R[01-02]-N[1-2]`` is R01-N1, R01-N2, R02-N1, R02-N2);
- a range ``lo-hi`` is every number from lo to hi written with at least as many digits as lo
  is written with, zero padded: ``[08-10]`` is 08 09 10, ``[8-10]`` is 8 9 10, ``[098-100]``
  is 098 099 100. So ``R1`` and ``R01`` are different names and never share a range;
- one range holds at most ``MAX_RANGE`` names and one bracket list before the last at most
  ``MAX_RANGE`` values (Slurm's MAX_RANGE and MAX_PREFIX_CNT, 64k); longer runs are split.

How names are folded: each name is split into its text and its runs of digits; names with the
same text parts fold together, the last number first (``R01-N[1-4]``), then each earlier one
over the names whose later parts came out the same (``R[01-12]-N[1-4]``). A hall whose racks
each hold nodes N1…N4 therefore becomes one item however many racks it has.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from itertools import product

#: What a hostname may be made of here: letters, digits, hyphen, underscore and dot, beginning
#: with a letter or digit. Anything else (spaces, commas, brackets, ``=``, ``#``, braces, quotes,
#: other scripts) either splits or ends a value in slurm.conf-style files, is taken for hostlist
#: syntax, or is not a host name that DNS (RFC 1123) and Slurm's node lookup can resolve.
HOSTNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\Z")
#: RFC 1035 §2.3.4: at most 63 characters between dots and 253 in all (the 255-octet wire limit).
MAX_LABEL, MAX_NAME = 63, 253
#: Slurm's limits on one range and on the values of a bracket list before the last (hostlist.h:
#: MAX_RANGE = MAX_SLURM_NODES = 64k, MAX_PREFIX_CNT = 64k).
MAX_RANGE = 64 * 1024

_DIGITS = re.compile(r"(\d+)")
Field = str | frozenset[str]


def is_hostname(name: str) -> bool:
    """Whether Slurm can take ``name`` as a node or switch name as it is (``HOSTNAME``, ``MAX_NAME``)."""
    return (HOSTNAME.match(name) is not None and len(name) <= MAX_NAME
            and all(len(label) <= MAX_LABEL for label in name.split(".")))


def compress(names: Iterable[str]) -> str:
    """The shortest-found hostlist expression for exactly ``names`` (duplicates count once).

    Raises ValueError for a name ``is_hostname`` refuses: it could not be read back.
    """
    shapes: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for name in names:
        if not is_hostname(name):
            raise ValueError(f"{name!r} cannot be written in a Slurm hostlist")
        parts = _DIGITS.split(name)
        shapes.setdefault(tuple(parts[0::2]), set()).add(tuple(parts[1::2]))
    items = [_render(texts, entry) for texts, numbers in shapes.items() for entry in _fold(numbers)]
    return ",".join(sorted(items, key=_natural))


def _fold(numbers: set[tuple[str, ...]]) -> Iterator[tuple[frozenset[str], ...]]:
    """The digit runs of names of one shape, as products of sets, last field folded first."""
    entries: Iterable[tuple[Field, ...]] = numbers
    width = len(next(iter(numbers)))
    for index in reversed(range(width)):
        groups: dict[tuple[Field, ...], set[str]] = {}
        for entry in entries:
            key = entry[:index] + entry[index + 1:]
            groups.setdefault(key, set()).add(entry[index])  # type: ignore[arg-type]
        entries = [key[:index] + (frozenset(values),) + key[index:] for key, values in groups.items()]
    for entry in entries:
        yield entry  # type: ignore[misc]


def _render(texts: tuple[str, ...], entry: tuple[frozenset[str], ...]) -> str:
    """One hostlist item (several when a field's values exceed Slurm's limits)."""
    if not entry:
        return texts[0]
    chunked = [_chunks(_runs(values)) for values in entry]
    items = []
    for choice in product(*chunked):
        out = [texts[0]]
        for runs, text in zip(choice, texts[1:]):
            if len(runs) == 1 and runs[0][0] == runs[0][1]:
                out.append(runs[0][0])  # one value: written as it is, no brackets
            else:
                out.append("[" + ",".join(lo if lo == hi else f"{lo}-{hi}" for lo, hi in runs) + "]")
            out.append(text)
        items.append("".join(out))
    return ",".join(items)


def _runs(values: frozenset[str]) -> list[tuple[str, str, int]]:
    """Runs of consecutive numbers, each (first, last, count): the next name in a run is the
    next number padded to the first one's width, as Slurm expands it."""
    remaining = set(values)
    runs = []
    for first in sorted(values, key=lambda s: (int(s), len(s))):
        if first not in remaining:
            continue
        remaining.discard(first)
        width, number, last, count = len(first), int(first), first, 1
        while count < MAX_RANGE:
            following = str(number + 1).zfill(width)
            if following not in remaining:
                break
            remaining.discard(following)
            number, last, count = number + 1, following, count + 1
        runs.append((first, last, count))
    return runs


def _chunks(runs: list[tuple[str, str, int]]) -> list[list[tuple[str, str]]]:
    """Runs grouped so that no bracket list stands for more than MAX_RANGE values."""
    chunks: list[list[tuple[str, str]]] = [[]]
    total = 0
    for first, last, count in runs:
        if total + count > MAX_RANGE and chunks[-1]:
            chunks.append([])
            total = 0
        chunks[-1].append((first, last))
        total += count
    return chunks


def _natural(text: str) -> tuple:
    return tuple(int(part) if part.isdigit() else part for part in _DIGITS.split(text))
