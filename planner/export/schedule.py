"""The cable schedule: one row per cable with both ends resolved to rack, U, device and port.

Every cable document (schedule CSV/XLSX, cabling plan, labels) reads the same rows, so a label
printed on a sticker is the label in the spreadsheet and in the rack's table. The installer's
columns (route, face of each end, part; see ``install``) come after the original ones, so a
sheet that reads columns by position keeps working. Every network's connections are rows
(issue 21: storage, in-band, out-of-band cables, power cords, coolant hoses), grouped by network
in ``NETWORK_ORDER`` (compute first) and by label within it; the ``network`` column (last of the
installer's) names each row's network as ``planner.model.ports`` spells it ("compute", "power").

Spreadsheets get user text as typed, made safe (DESIGN §9): the CSV writes every text cell
through ``sheet_text`` (control characters replaced, a leading ``= + - @``, tab or CR
neutralised with ``'``); the XLSX stores every text cell as text (never a formula, with Excel's
quote-prefix so editing the cell keeps it text), cleaned of control characters, line ends as
LF (XML reads CR back as LF) and cut with "…" at Excel's 32,767 characters a cell. Numbers stay
numbers in both.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import BinaryIO

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from planner.asbuilt.ticksheet import TICK_COLUMNS, ticks_of_state
from planner.export.connections import Fittings, network_rank
from planner.export.install import InstallInfo
from planner.export.options import ExportOptions
from planner.export.printed_text import clip
from planner.export.sheet_text import clean_text, sheet_text, starts_like_formula
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import network_of_tier
from planner.model.ports import COMPUTE

COLUMNS = ("label", "a_rack", "a_u", "a_device", "a_port", "b_rack", "b_u", "b_device", "b_port",
           "tier", "rail", "media", "length_m", "stock_length_m")
#: Appended after COLUMNS: the tray route in words, the rack face of each end, the part, the
#: cable's network (``network_of``: by its tier).
INSTALL_COLUMNS = ("route", "a_face", "b_face", "part", "network")

#: Excel keeps at most this many characters in a cell (and reports the file damaged beyond it).
XLSX_MAX_CHARS = 32_767


@dataclass(frozen=True)
class CableEnd:
    """One end of a cable as an installer finds it: rack name, U, device name and port."""

    rack_id: str
    rack: str
    u: int
    device: str
    port: str

    def short(self) -> str:
        return f"{self.rack} U{self.u} {self.device} {self.port}"


@dataclass(frozen=True)
class CableRow:
    """A cable of the schedule (columns in COLUMNS order, see ``values``)."""

    link_id: str
    label: str
    a: CableEnd
    b: CableEnd
    tier: str
    rail: int
    media: str
    length_m: float
    stock_m: float
    route: str = ""
    a_face: str = ""
    b_face: str = ""
    part: str = ""
    network: str = COMPUTE
    #: A cord's outlet type ("C19"), a hose's QD size; "" for a data cable (``connections``).
    fitting: str = ""

    @property
    def same_rack(self) -> bool:
        return self.a.rack_id == self.b.rack_id

    def values(self) -> tuple:
        return (self.label, self.a.rack, self.a.u, self.a.device, self.a.port, self.b.rack, self.b.u,
                self.b.device, self.b.port, self.tier, self.rail, self.media, self.length_m, self.stock_m)

    def sheet_values(self) -> tuple:
        """COLUMNS then INSTALL_COLUMNS (rows built with ``install=True``)."""
        return (*self.values(), self.route, self.a_face, self.b_face, self.part, self.network)


def _end(doc: Document, device_id: str, port: str) -> CableEnd:
    device = doc.devices.get(device_id)
    if device is None:
        return CableEnd("", "", 0, device_id, port)
    rack = doc.racks.get(device.rack)
    return CableEnd(device.rack, rack.name if rack else device.rack, device.u, device.name, port)


def cable_rows(doc: Document, install: bool = False) -> list[CableRow]:
    """Every link of the plan as a schedule row, by network (``NETWORK_ORDER``) then label; with
    ``install`` the installer's columns too (route, faces, part: the route needs the cable router)."""
    info = InstallInfo(doc) if install else None
    fittings = Fittings(doc)
    rows = []
    for link in doc.links.values():
        a, b = _end(doc, link.a_device, link.a_port), _end(doc, link.b_device, link.b_port)
        network = network_of_tier(link.tier)
        fitting = fittings.fitting(network, link.a_device, link.a_port, link.b_device, link.b_port)
        extra: dict[str, str] = {}
        if info is not None:
            extra = {"route": info.route(a.rack_id, b.rack_id), "a_face": info.face(link.a_device),
                     "b_face": info.face(link.b_device), "part": info.part(link.media, link.stock_m, network, fitting)}
        rows.append(CableRow(link.id, cable_label(doc, link), a, b, link.tier, link.rail, link.media, link.length_m,
                             link.stock_m, network=network, fitting=fitting, **extra))
    rows.sort(key=lambda r: (network_rank(r.network), natural_key(r.label), r.link_id))
    return rows


def rows_by_rack(rows: list[CableRow], once: bool = False) -> dict[str, list[tuple[CableEnd, CableEnd, CableRow]]]:
    """For each rack id: (this end, far end, row) of every cable that leaves or enters it, by
    network (``NETWORK_ORDER``), then U, then port.

    A cable with both ends in one rack appears once for each end (each end gets a label), or
    with ``once`` a single time under its first end (a rack's cable list: one set of tick boxes).
    """
    result: dict[str, list[tuple[CableEnd, CableEnd, CableRow]]] = {}
    for row in rows:
        result.setdefault(row.a.rack_id, []).append((row.a, row.b, row))
        if not (once and row.same_rack):
            result.setdefault(row.b.rack_id, []).append((row.b, row.a, row))
    for entries in result.values():
        entries.sort(key=lambda e: (network_rank(e[2].network), e[0].u, e[0].device, natural_key(e[0].port),
                                    natural_key(e[2].label)))
    return result


def write_csv(doc: Document, out: BinaryIO, options: ExportOptions | None = None) -> int:
    """Write the schedule as UTF-8 CSV with a header row; returns the number of cables."""
    options = options or ExportOptions()
    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    writer = csv.writer(text)
    writer.writerow(COLUMNS + INSTALL_COLUMNS)
    rows = cable_rows(doc, install=True)
    step = max(1, len(rows) // 20)
    for index in range(0, len(rows), step):
        writer.writerows([sheet_text(v) for v in row.sheet_values()] for row in rows[index:index + step])
        options.report((index + step) / max(1, len(rows)))
    text.flush()
    text.detach()
    return len(rows)


def write_tick_csv(doc: Document, out: BinaryIO, options: ExportOptions | None = None) -> int:
    """The schedule CSV as a tick sheet: TICK_COLUMNS after the others, ``x`` where the cable's
    state has got to (``planner.asbuilt.ticksheet`` reads it back); returns the number of cables."""
    options = options or ExportOptions()
    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    writer = csv.writer(text)
    writer.writerow(COLUMNS + INSTALL_COLUMNS + TICK_COLUMNS)
    rows = cable_rows(doc, install=True)
    for row in rows:
        ticks = ticks_of_state(doc.links[row.link_id].state)
        writer.writerow([*(sheet_text(v) for v in row.sheet_values()), *("x" if t else "" for t in ticks)])
    options.report(1.0)
    text.flush()
    text.detach()
    return len(rows)


def _xlsx_cell(sheet: object, value: object) -> object:
    """Numbers as they are; text cleaned, cut to Excel's cell limit and stored as text.

    openpyxl turns any string starting with "=" into a formula; a cell built here is set back to
    a string (type "s"), and one that looks like a formula gets Excel's quote prefix, so editing
    it in Excel keeps it text too.
    """
    if not isinstance(value, str):
        return value
    text = clip(clean_text(value), XLSX_MAX_CHARS)
    if "\r" in text:  # XML reads a CR back as LF anyway; write what will be read
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not starts_like_formula(text):
        return text
    cell = WriteOnlyCell(sheet, value=text)
    cell.data_type = "s"
    cell.quotePrefix = True
    return cell


def write_xlsx(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> int:
    """Write the schedule as XLSX: header row, frozen panes, auto-filter, fitted column widths."""
    options = options or ExportOptions()
    rows = cable_rows(doc, install=True)
    columns = COLUMNS + INSTALL_COLUMNS
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Cables")
    widths = [len(name) for name in columns]
    for row in rows:
        for i, value in enumerate(row.sheet_values()):
            widths[i] = max(widths[i], len(str(value)))
    for i, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(i)].width = min(60, width + 2)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(columns))}{len(rows) + 1}"
    header = []
    for name in columns:
        cell = WriteOnlyCell(sheet, value=name)
        cell.font = Font(bold=True)
        header.append(cell)
    sheet.append(header)
    step = max(1, len(rows) // 20)
    for index, row in enumerate(rows, start=1):
        sheet.append([_xlsx_cell(sheet, v) for v in row.sheet_values()])
        if index % step == 0:
            options.report(0.9 * index / len(rows))
    book.properties.title = clip(clean_text(f"Cable schedule — {doc.meta.project}"), 255)
    book.properties.creator = "Hall Planner"
    book.save(out)
    options.report(1.0)
    return len(rows)

