"""A hand-kept cable list read from CSV: rows of two ends as written, with their row numbers.

Two shapes of the same thing are read, told apart by the header row:

- the planner's own cable schedule (``planner export --to cables-csv``): ``a_rack, a_u,
  a_device, a_port, b_rack, b_u, b_device, b_port`` and ``label``; every other column (tier,
  media, lengths, route, faces, part, tick columns) is read past, since the plan derives them;
- the NVIDIA UFM Cable Validation Tool's P2P sheet, saved as CSV: ``A-Rack, A-U, A-Node Name,
  A-Type, A-Port, Z-Rack, Z-RU, Z-Node Name, Z-Type, Z-Port`` (the types are read past; a
  node name is a hostname or the plan's device name; ports as that tool writes them, see
  ``planner.fabric.cable_list``).

Column names are matched without case, spaces, hyphens or underscores (``A-Node Name`` =
``a_node_name``); only the device and port of both ends are required. The header is the first
row that names them (up to ``HEADER_SEARCH`` rows of title above it are read past).

Rows are numbered as a spreadsheet shows them: the first line of the file is row 1, a cell with
a line break in it does not start a new row. A file that cannot be read at all raises
``CableListError`` (CLI exit 2); a row that cannot be used is a problem ``row N: …`` in
``CableList.problems``, and the caller applies nothing while there is one.

Hardening, as the discovery readers: the file is read by ``records.read_text`` (UTF-8, a BOM
dropped, the line of a bad byte named), refused before reading when larger than ``MAX_BYTES``,
refused with a NUL byte (binary, not a list), empty or with a header and no cable (an empty
list would remove every cable). A cell that starts like a formula is plain text here; the ``'``
the planner's own export puts before such a cell is taken off again.
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass, field

from planner.io.cells import unneutralise
from planner.io.discovery.records import read_text
from planner.model.ports import NETWORKS

#: The largest real hall: 131,072 GPUs on 16,384 nodes is ~400k cables (131k node-leaf, as many
#: leaf-spine and ~130k spine-core). A cables-csv row is ~170 bytes (measured: 4.2 MB for the
#: 24,576 cables of a 1,024-node hall) and longer with longer names and routes, so that hall's
#: full schedule is 70–120 MB; about twice that is the limit.
MAX_BYTES = 256 * 1024 * 1024
#: Rows: 2.5 × that hall's cables.
MAX_ROWS = 1_000_000
#: Cells in a row (the schedule has 18, 21 with tick columns); more is not a cable list.
MAX_COLUMNS = 256
#: Rows above the header that may hold a title or an "A side / Z side" band.
HEADER_SEARCH = 5
_NON_NAME = re.compile(r"[^0-9a-z]+")
#: Column names (normalised) → field; cables-csv and UFM P2P spellings.
ALIASES = {
    "label": "label", "network": "network",
    "arack": "a_rack", "au": "a_u", "aru": "a_u", "adevice": "a_device", "anodename": "a_device",
    "aport": "a_port",
    "brack": "b_rack", "bu": "b_u", "bru": "b_u", "bdevice": "b_device", "bport": "b_port",
    "zrack": "b_rack", "zu": "b_u", "zru": "b_u", "znodename": "b_device", "zport": "b_port",
}
REQUIRED = ("a_device", "a_port", "b_device", "b_port")
CABLES_CSV, UFM_P2P = "cables-csv", "ufm-p2p"
_WANTED = ("the columns a_device, a_port, b_device, b_port (planner export --to cables-csv) or "
           "A-Node Name, A-Port, Z-Node Name, Z-Port (UFM cable validation P2P)")


class CableListError(ValueError):
    """A cable list that cannot be read at all: the message names the file (and the row)."""

    def __init__(self, path: str, row: int, problem: str) -> None:
        self.path, self.row, self.problem = path, row, problem
        super().__init__(f"{path}: row {row}: {problem}" if row else f"{path}: {problem}")


def shown(text: str, limit: int = 40) -> str:
    """A name from the file as a message quotes it: clipped, control and invisible characters
    escaped (``'R0\\x001'``), so a hostile cell can neither flood nor drive the terminal."""
    clipped = text if len(text) <= limit else text[:limit] + "…"
    return repr(clipped)


@dataclass(frozen=True, slots=True)
class ListedEnd:
    """One end as the row writes it: rack name ("" = not given), U ("" = not given), device
    (name or hostname) and port, all as text."""

    rack: str
    u: str
    device: str
    port: str


@dataclass(frozen=True, slots=True)
class ListedCable:
    """A row of the list: its row number, both ends, its label ("" = none) and the network it says
    the cable is on ("" = not given: the ends decide)."""

    row: int
    a: ListedEnd
    b: ListedEnd
    label: str = ""
    network: str = ""


@dataclass
class CableList:
    """What a file lists: its name, shape (CABLES_CSV or UFM_P2P), the cables and the rows that
    could not be read (``(row, problem)``)."""

    name: str
    kind: str
    cables: list[ListedCable] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    #: The header row's number and its cells as written (messages name columns the file's way).
    header_row: int = 1
    columns: dict[str, str] = field(default_factory=dict)


def read_cable_list(path: str | os.PathLike[str]) -> CableList:
    """The list at ``path``; CableListError when it cannot be read (see the module docstring)."""
    name = os.fspath(path)
    try:
        size = os.stat(name).st_size
    except OSError as exc:
        raise CableListError(name, 0, f"cannot read: {exc.strerror or exc}") from None
    if size > MAX_BYTES:
        raise CableListError(name, 0, f"{size / 1024 / 1024:,.0f} MB is too large for a cable list (at most "
                             f"{MAX_BYTES // 1024 // 1024} MB: the full schedule of a 131k-GPU hall is ~120 MB)")
    name, text = read_text(name, CableListError, kind="cable list")
    return parse_cable_list(text, name)


def _cell(text: str) -> str:
    return unneutralise(text.strip())  # a cell the planner's own export neutralised (sheet_text)


def _header(cells: list[str], row: int, name: str) -> dict[str, int] | None:
    """Field → column index when this row names the required columns, else None."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        key = ALIASES.get(_NON_NAME.sub("", cell.lower()))
        if key is None:
            continue
        if key in found:
            raise CableListError(name, row, f"two columns are {key}: {shown(cells[found[key]])} and {shown(cell)}")
        found[key] = index
    return found if set(REQUIRED) <= set(found) else None


def parse_cable_list(text: str, name: str = "<cable list>") -> CableList:
    """The rows of a cable list's text (see ``read_cable_list``)."""
    nul = text.find("\x00")
    if nul >= 0:
        raise CableListError(name, 0, f"line {text.count(chr(10), 0, nul) + 1}: a NUL byte: not a text file")
    if not text.strip():
        raise CableListError(name, 0, f"empty: no header row and no cables (expected {_WANTED})")
    reader = csv.reader(io.StringIO(text, newline=""))
    columns: dict[str, int] | None = None
    listed: CableList | None = None
    header_cells: list[str] = []
    first_row = 0
    row_number = 0
    try:
        for row_number, row in enumerate(reader, start=1):
            if row_number > MAX_ROWS:
                raise CableListError(name, row_number, f"more than {MAX_ROWS:,} rows: not a cable list of one hall")
            cells = [_cell(cell) for cell in row]
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            if columns is None:
                first_row = first_row or row_number
                columns = _header(cells, row_number, name)
                if columns is None:
                    if row_number - first_row + 1 >= HEADER_SEARCH:
                        break
                    continue
                header_cells = cells
                kind = UFM_P2P if any(_NON_NAME.sub("", c.lower()) in ("anodename", "znodename")
                                      for c in cells) else CABLES_CSV
                listed = CableList(name, kind, header_row=row_number,
                                   columns={key: header_cells[index] for key, index in columns.items()})
                continue
            assert listed is not None
            if [c.lower() for c in cells] == [c.lower() for c in header_cells]:
                continue  # the header again (sheets pasted one under another)
            _read_row(listed, columns, cells, row_number)
    except csv.Error as exc:
        raise CableListError(name, row_number, f"not CSV: {exc}") from None
    if listed is None:
        raise CableListError(name, first_row, f"no header row: expected {_WANTED}")
    if not listed.cables and not listed.problems:
        raise CableListError(name, 0, "no cables: only a header row (an empty list would remove every cable; "
                             "nothing done)")
    return listed


def _read_row(listed: CableList, columns: dict[str, int], cells: list[str], row: int) -> None:
    if len(cells) > MAX_COLUMNS:
        listed.problems.append((row, f"{len(cells):,} columns, at most {MAX_COLUMNS}: not a cable row"))
        return
    values = {key: cells[index] if index < len(cells) else "" for key, index in columns.items()}
    empty = [listed.columns[key] for key in REQUIRED if not values[key]]
    if empty:
        verb = "is" if len(empty) == 1 else "are"
        listed.problems.append((row, f"{' and '.join(shown(c) for c in empty)} {verb} empty"))
        return
    network = values.get("network", "").lower()
    if network and network not in NETWORKS:
        listed.problems.append((row, f"network {shown(values['network'])} is not one of {', '.join(NETWORKS)}"))
        return
    a = ListedEnd(values.get("a_rack", ""), values.get("a_u", ""), values["a_device"], values["a_port"])
    b = ListedEnd(values.get("b_rack", ""), values.get("b_u", ""), values["b_device"], values["b_port"])
    listed.cables.append(ListedCable(row, a, b, values.get("label", ""), network))
