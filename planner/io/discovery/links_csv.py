"""The plain links CSV: ``a_device,a_port,b_device,b_port`` with hostnames and plan port names.

The format anyone can produce from a spreadsheet or a script (``R01-N1,P1,R05-L1,1/1``). A header
row naming the four columns is optional and may order them freely and add others (ignored);
without one the first four columns are read in that order. Blank lines and lines starting with
``#`` are skipped. The order of the two ends does not matter.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable

from planner.io.discovery.records import PLAN, DiscoveryError, RawLink, read_lines

FIELDS = ("a_device", "a_port", "b_device", "b_port")


def read_links_csv(path: str | os.PathLike[str]) -> list[RawLink]:
    """Every cable the CSV lists. DiscoveryError naming the line for a short or empty cell."""
    name, lines = read_lines(path, "links CSV")
    return _parse(lines, name)


def parse_links_csv(text: str, name: str = "<links>") -> list[RawLink]:
    return _parse(io.StringIO(text, newline=""), name)


def _parse(lines: Iterable[str], name: str) -> list[RawLink]:
    """The rows of ``lines`` (a file read line by line, or a text) as links."""
    reader = csv.reader(lines)
    columns: tuple[int, ...] | None = None
    links: list[RawLink] = []
    try:
        for row in reader:
            line = reader.line_num
            cells = [cell.strip() for cell in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if columns is None:
                header = [cell.lower() for cell in cells]
                if set(FIELDS) <= set(header):
                    columns = tuple(header.index(field) for field in FIELDS)
                    continue
                columns = (0, 1, 2, 3)
            if len(cells) <= max(columns):
                raise DiscoveryError(name, line, f"{len(cells)} column{'s' if len(cells) != 1 else ''}, "
                                     f"expected {', '.join(FIELDS)}")
            a_host, a_port, b_host, b_port = (cells[index] for index in columns)
            empty = [field for field, value in zip(FIELDS, (a_host, a_port, b_host, b_port)) if not value]
            if empty:
                raise DiscoveryError(name, line, f"{empty[0]} is empty")
            links.append(RawLink(a_host, a_port, b_host, b_port, PLAN, f"{name}:{line}"))
    except csv.Error as exc:
        raise DiscoveryError(name, reader.line_num, f"not CSV: {exc}") from None
    return links
