"""Cable labels on adhesive sheets: two per cable, cord or hose (one for each end), by network,
then by rack.

Each label carries the cable label, this end and the far end in short form, its network's short
name (``NETWORK_SHORT``: "COMP", "STOR", "INB", "OOB", "PWR", "H2O", white on black so it reads
in grey too) before its media, cord type or hose size, and a QR code of the label and both ends. Sheets come network by network
(``NETWORK_ORDER``: the compute fabric's first; cords and hoses are often fitted by other trades),
within a network in rack order (then U, then port), the order an installer walks the racks, so
the labels peel off in the order they are stuck on. The two
labels of a cable are mostly racks apart, so a label whose twin is on another sheet says which
("twin: sheet 7", the sheet's page number), and the PDF has a bookmark per rack (under one per
network when the print holds more than one).

The QR code holds what fits a symbol whose modules stay readable on the label
(``qr.max_version``: at least 0.33 mm a module): the label and both ends; if that is too long,
the label alone; if even that is too long, the label cut with "…". A shortened code says so
on the label ("QR: label only" / "QR: label cut"); a label too long for one line (a cord's)
takes two, and the other printed lines are cut to the label's width (common: shrink, then "…").
The schedule keeps the full text.

With ``ExportOptions.racks`` only the labels of the cable ends in those racks are printed (a
cable between a selected and another rack gets its one label here). At hall scale (196,608
labels at 32,768 GPUs) the codes are inline one-bit images and a full sheet's outlines one
shared form, so the file grows by about 240 bytes a label and the time stays linear.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from planner.export.connections import SECTION_TITLES, kind_text, network_rank
from planner.export.fonts import FONT, FONT_BOLD
from planner.export.options import ExportOptions, LabelSheet, page_size
from planner.export.page_canvas import PageCanvas
from planner.export.pages import MM, Page, TitleBlock, chunks, render_pages
from planner.export.pdf_outline import Entry, outline_pages
from planner.export.printed_text import ELLIPSIS, draw_text, wrap_lines
from planner.export.qr import fits, max_version, qr_matrices
from planner.export.schedule import CableEnd, CableRow, cable_rows, rows_by_rack
from planner.export.sheet_text import clean_text
from planner.model.document import Document, natural_key
from planner.model.networks import NETWORK_SHORT
from planner.model.ports import COMPUTE

TITLE = "Cable labels"
#: The form XObject of a full sheet's label outlines.
OUTLINES = "label-outlines"


QR_LABEL_ONLY = "QR: label only"
QR_LABEL_CUT = "QR: label cut"


def qr_payload(row: CableRow, version: int = 40) -> tuple[str, str]:
    """What the QR code holds, and "" or the note printed when it had to be shortened to fit a
    symbol of at most ``version``: the label and both ends, one per line; else the label; else
    as much of the label as fits, ending "…"."""
    label = clean_text(row.label)
    full = f"{label}\n{clean_text(row.a.short())}\n{clean_text(row.b.short())}"
    if fits(full, version):
        return full, ""
    if fits(label, version):
        return label, QR_LABEL_ONLY
    low, high = 0, min(len(label), 8000)
    while low < high:  # the longest start of the label that fits with "…"
        middle = (low + high + 1) // 2
        if fits(label[:middle] + ELLIPSIS, version):
            low = middle
        else:
            high = middle - 1
    return label[:low] + ELLIPSIS, QR_LABEL_CUT


def label_entries(doc: Document, rows: list[CableRow] | None = None,
                  racks: frozenset[str] | None = None) -> list[tuple[CableEnd, CableEnd, CableRow]]:
    """(this end, far end, cable) for every label, in peeling order: network, rack by name, then U
    and port; with ``racks`` (ids) only the labels of the cable ends in those racks."""
    rows = cable_rows(doc) if rows is None else rows
    by_rack = rows_by_rack(rows)
    order = sorted((rack_id for rack_id in by_rack if racks is None or rack_id in racks),
                   key=lambda rack_id: natural_key(doc.racks[rack_id].name if rack_id in doc.racks else rack_id))
    entries = [entry for rack_id in order for entry in by_rack[rack_id]]
    entries.sort(key=lambda entry: network_rank(entry[2].network))  # stable: racks in order within each
    return entries


def twin_notes(entries: list[tuple[CableEnd, CableEnd, CableRow]], per_sheet: int) -> list[str]:
    """Per label, where its cable's other label is when not on the same sheet: "twin: sheet 7",
    or, when a rack selection left it out, that and the rack it goes on."""
    places: dict[str, list[int]] = {}
    for index, (_this, _far, row) in enumerate(entries):
        places.setdefault(row.link_id, []).append(index)
    notes = []
    for index, (_this, far, row) in enumerate(entries):
        twins = [other for other in places[row.link_id] if other != index]
        if not twins and not row.same_rack:
            notes.append(f"twin: not in this print, {far.rack}")
        elif twins and twins[0] // per_sheet != index // per_sheet:
            notes.append(f"twin: sheet {twins[0] // per_sheet + 1}")
        else:
            notes.append("")
    return notes


def _draw_label(canvas: Canvas, x: float, y: float, w: float, h: float,
                entry: tuple[CableEnd, CableEnd, CableRow], twin: str, qr: str, note: str) -> None:
    this, far, row = entry
    qr_size = h - 4
    canvas._code.append(f"q {qr_size:.2f} 0 0 {qr_size:.2f} {x + w - qr_size - 2:.2f} {y + 2:.2f} cm {qr} Q")
    text_w = w - qr_size - 8
    top = y + h - 10
    if stringWidth(row.label, FONT_BOLD, 6.5) <= text_w:
        draw_text(canvas, x + 4, top, row.label, 7.5, FONT_BOLD, max_width=text_w)
    else:  # a long label (a cord's: "R01-U01-N1-PSU1 ↔ R01-U00-PDU-A1-O7") on two lines, not cut
        for line in wrap_lines(row.label, 7, text_w, 2, FONT_BOLD):
            draw_text(canvas, x + 4, top, line, 7, FONT_BOLD, max_width=text_w)
            top -= 8
        top += 8
    draw_text(canvas, x + 4, top - 10, f"here: {this.short()}", 6.5, FONT, max_width=text_w)
    draw_text(canvas, x + 4, top - 19, f"to: {far.short()}", 6.5, FONT, max_width=text_w)
    if twin:
        draw_text(canvas, x + 4, y + 12.5, twin, 6, FONT_BOLD, max_width=text_w)
    rail = f" · rail {row.rail}" if row.rail and row.network == COMPUTE else ""
    note = f" · {note}" if note else ""
    kind = kind_text(row.network, row.media, row.fitting)
    tag = NETWORK_SHORT.get(row.network, row.network)  # white on black: the network at a glance
    tag_w = stringWidth(tag, FONT_BOLD, 6) + 3
    canvas.rect(x + 3, y + 2.2, tag_w, 7.4, stroke=0, fill=1)
    canvas.setFillGray(1.0)
    draw_text(canvas, x + 4.5, y + 4, tag, 6, FONT_BOLD)
    canvas.setFillGray(0.0)
    draw_text(canvas, x + tag_w + 5, y + 4, f"{kind} {row.stock_m:g} m{rail}{note}", 5.5, FONT,
              max_width=text_w - tag_w - 1)


def inline_image(matrix: np.ndarray, quiet: int = 1) -> str:
    """A QR matrix as a PDF inline image (content-stream operators) on the unit square.

    One bit a module (DeviceGray, 1 = light), hex-coded so the page content stays text; the
    page's Flate compression takes the hex back to about the bits' size. An image XObject per
    code (what drawImage makes) costs a PDF object, an xref entry and a page resource each, and
    reportlab stores one-bit images as 24-bit RGB: three quarters of the labels' time went there.
    """
    light = np.pad(~matrix, quiet, constant_values=True)
    side = light.shape[0]
    return f"BI /W {side} /H {side} /CS /G /BPC 1 /F /AHx ID {np.packbits(light, axis=1).tobytes().hex()}> EI"


class QrCodes:
    """The QR image of each cable, encoded in batches just ahead of the pages that print them.

    Both labels of a cable carry the same code, so it is encoded once, when the first of its
    labels comes up, together with the next cables in label order (the encoder works on arrays
    of codes, ``BATCH`` at a time). It is kept as its inline image (about 400 characters) until
    its last label, often in another rack, has taken it.
    """

    BATCH = 2048

    def __init__(self, entries: list[tuple[CableEnd, CableEnd, CableRow]], version: int) -> None:
        self.version = version
        self.rows: dict[str, CableRow] = {}
        self.labels_left: dict[str, int] = {}
        for _this, _far, row in entries:
            self.rows.setdefault(row.link_id, row)
            self.labels_left[row.link_id] = self.labels_left.get(row.link_id, 0) + 1
        self.order = list(self.rows)
        self.position = {link_id: index for index, link_id in enumerate(self.order)}
        self.ready: dict[str, tuple[str, str]] = {}

    def _encode_from(self, index: int) -> None:
        batch = [link_id for link_id in self.order[index:index + self.BATCH]
                 if link_id not in self.ready and self.labels_left[link_id] > 0]
        payloads = [qr_payload(self.rows[link_id], self.version) for link_id in batch]
        matrices = qr_matrices([payload for payload, _note in payloads])
        for link_id, (_payload, note), matrix in zip(batch, payloads, matrices, strict=True):
            self.ready[link_id] = (inline_image(matrix), note)

    def take(self, row: CableRow) -> tuple[str, str]:
        """The cable's QR code as an inline image and its shortening note, for one of its labels."""
        if row.link_id not in self.ready:
            self._encode_from(self.position[row.link_id])
        self.labels_left[row.link_id] -= 1
        if self.labels_left[row.link_id] > 0:
            return self.ready[row.link_id]
        return self.ready.pop(row.link_id)


def _sheet(entries: list[tuple[CableEnd, CableEnd, CableRow]], twins: list[str], sheet: LabelSheet,
           block: TitleBlock, page: int, total: int, codes: QrCodes) -> Callable[[Canvas], None]:
    def draw(canvas: PageCanvas) -> None:
        width, height = canvas.page_size
        w, h = sheet.width_mm * MM, sheet.height_mm * MM
        gx, gy = sheet.gap_x_mm * MM, sheet.gap_y_mm * MM
        grid_w = sheet.columns * w + (sheet.columns - 1) * gx
        grid_h = sheet.rows * h + (sheet.rows - 1) * gy
        left, top = (width - grid_w) / 2, height - (height - grid_h) / 2
        places = [(left + c * (w + gx), top - (r + 1) * h - r * gy)
                  for r, c in (divmod(index, sheet.columns) for index in range(len(entries)))]
        if len(entries) == sheet.per_sheet:  # a full sheet: its outlines are one form, drawn once
            if not canvas.hasForm(OUTLINES):
                canvas.beginForm(OUTLINES)
                _outlines(canvas, places, w, h)
                canvas.endForm()
            canvas.doForm(OUTLINES)
        else:
            _outlines(canvas, places, w, h)
        for (x, y), entry, twin in zip(places, entries, twins, strict=True):
            _draw_label(canvas, x, y, w, h, entry, twin, *codes.take(entry[2]))
        block.draw_line(canvas, page, total, top + 4)

    return draw


def rack_entries(entries: list[tuple[CableEnd, CableEnd, CableRow]], per_sheet: int) -> list[Entry]:
    """A bookmark per rack, at the sheet its first label is on; under a bookmark per network when
    the labels are of more than one."""
    nested = len({row.network for _this, _far, row in entries}) > 1
    marks: list[Entry] = []
    last: tuple[str, str] | None = None
    for index, (this, _far, row) in enumerate(entries):
        if nested and (last is None or row.network != last[0]):
            marks.append(Entry(SECTION_TITLES.get(row.network, row.network), 0, index // per_sheet))
        if (row.network, this.rack_id) != last:
            marks.append(Entry(this.rack, 1 if nested else 0, index // per_sheet))
            last = (row.network, this.rack_id)
    return marks


def _outlines(canvas: Canvas, places: list[tuple[float, float]], w: float, h: float) -> None:
    """The label outlines (thin grey rounded rectangles), to cut or peel along."""
    canvas.saveState()
    canvas.setLineWidth(0.2)
    canvas.setStrokeGray(0.7)
    for x, y in places:
        canvas.roundRect(x, y, w, h, 4)
    canvas.restoreState()


def write_labels_pdf(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None,
                     sheet: LabelSheet | None = None) -> int:
    """Write the label sheets; returns the number of labels (two per cable)."""
    options = options or ExportOptions()
    sheet = sheet or options.label_sheet
    width, height = page_size(doc, options)
    grid_w = sheet.columns * sheet.width_mm + (sheet.columns - 1) * sheet.gap_x_mm
    grid_h = sheet.rows * sheet.height_mm + (sheet.rows - 1) * sheet.gap_y_mm
    if grid_w * MM > width or grid_h * MM > height - 2 * 6 * MM:
        raise ValueError(f"{sheet.columns} × {sheet.rows} labels of {sheet.width_mm:g} × {sheet.height_mm:g} mm "
                         f"do not fit on {options.paper or doc.basis.paper} paper")
    block = TitleBlock.of(doc, options, TITLE)
    size = page_size(doc, options)
    entries = label_entries(doc, racks=options.racks)
    groups = list(chunks(entries, sheet.per_sheet)) or [[]]
    twins = list(chunks(twin_notes(entries, sheet.per_sheet), sheet.per_sheet)) or [[]]
    codes = QrCodes(entries, max_version((sheet.height_mm * MM - 4) / MM))
    pages = [Page(size, _sheet(group, notes, sheet, block, n, len(groups), codes))
             for n, (group, notes) in enumerate(zip(groups, twins, strict=True), start=1)]
    render_pages(out, outline_pages(pages, rack_entries(entries, sheet.per_sheet)), block, options, footer=False)
    return len(entries)
