"""The cabling plan PDF installers work from: cover, index of racks, floor plan (a key plan
and sheets where the hall is too big to name every rack on one page), a section per network
(``network_pages``: compute, storage, in-band, out-of-band, power cords, coolant hoses), then
one section per rack. The index (``rack_index``) prints each rack's pages and the PDF's bookmarks
(``pdf_outline``) list each row with its racks, so R117 of a 2,000-page plan is found both ways.

Each rack section shows the rack's front elevation beside the table of every connection that
leaves or enters it, network by network under a heading each (compute first), by U, then port:
data cables with both ends, power cords and coolant hoses as one line from this end ("PSU1 →
PDU-A1 O37 (C19)", "SUP1 → MAN1 SUP3"), their cord type or hose size in the media column; with both ends and the rack face each port is on,
label, media, stock length, rail (colour, line pattern and number, so it reads in grey; the
other networks' short name, "STOR", "PWR") and tick boxes; a second line under each cable gives the tray route in words and the part to take
from the store (``install``). A cable with both ends in the rack is listed once, its far rack
"this rack" and its second line starting "both ends in this rack".

The boxes of the steps a cable's installation state has reached (run, labelled, tested) are
ticked, and a faulty cable's second line starts with "FAULTY" and its note. With
``ExportOptions.remaining_only`` the plan prints what is left to do: the cables not yet verified,
under the racks that still have any (a rack whose cables are all verified gets no page), so an
installer takes only the sheets that still need work.

Pages are drawn straight on the canvas with fixed row heights, so a 100k-cable plan paginates
in one pass and "page X of Y" is known before drawing. Every cell is one line: the text
shrinks to 5 pt and is then cut with "…" (common); the plan and the schedule keep it whole.
The table's headings, shading, tick boxes and rules are one form per row count, shared by the
pages. With ``ExportOptions.racks`` only those racks get pages; the cover says so.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from planner.asbuilt.ticksheet import ticks_of_state
from planner.export.bidi import paragraph_level
from planner.export.connections import (
    FITTED,
    SECTION_TITLES,
    connection_line,
    kind_text,
    network_rank,
)
from planner.export.fonts import FONT, FONT_BOLD
from planner.export.network_pages import (
    Heading,
    RackEntry,
    RackLine,
    network_figures,
    rack_parts,
    role_title,
    section_page_count,
    section_pages,
)
from planner.export.options import ExportOptions, page_size
from planner.export.page_canvas import PageCanvas
from planner.export.pages import Page, TitleBlock, content_box, render_pages
from planner.export.pdf_outline import Entry, outline_pages
from planner.export.plan_drawing import draw_plan_pdf, plan_shapes
from planner.export.plan_sheets import Sheet, draw_key_plan, draw_sheet, plan_sheets
from planner.export.printed_text import MAX_LINE_CHARS, clip, draw_text, wrap_lines
from planner.export.rack_index import TITLE as INDEX_TITLE
from planner.export.rack_index import IndexLine, index_page_count, index_pages
from planner.export.schedule import CableRow, cable_rows, rows_by_rack
from planner.export.selection import selection_note
from planner.model.catalog import NODE, SWITCH
from planner.model.document import Document, natural_key
from planner.model.networks import NETWORK_SHORT, NETWORK_WORDS, ROLES_OF, TIERS_OF
from planner.model.objects import Rack
from planner.model.ports import COMPUTE, COOLANT
from planner.text import count, plural

TITLE = "Cabling plan"
NETWORKS_TITLE = "Networks"
ROW_HEIGHT = 19.0
SECOND_LINE = 8.5
HEADER_HEIGHT = 34.0
ELEVATION_WIDTH = 130.0
ZERO_U_LINE = 7.0
NOTES_LINES = 4
COVER_ITEMS = 12
TICKS = ("run", "labelled", "tested")
VERIFIED, FAULTY = "verified", "faulty"
SAME_RACK = "this rack"
#: Table columns: (heading, relative width, alignment).
COLUMNS = (
    ("label", 8.5, "left"), ("U", 1.3, "right"), ("device", 3.0, "left"), ("port", 1.8, "left"),
    ("face", 1.7, "left"),
    ("far rack", 2.8, "left"), ("U", 1.3, "right"), ("device", 3.0, "left"), ("port", 1.8, "left"),
    ("face", 1.7, "left"),
    ("media", 1.6, "left"), ("stock", 1.8, "right"), ("rail/net", 2.6, "left"),
    ("run", 1.5, "centre"), ("labelled", 2.0, "centre"), ("tested", 1.6, "centre"),
)
LEGEND = (
    "Tick boxes per cable: run · labelled · tested. Stock length in metres; U counts from the rack bottom.",
    ("Face: the rack face the port is on, from the equipment catalogue; where it says nothing, rear "
     "(GPU node NICs are on the rear panel, switches are mounted with their ports to the rear)."),
    ("Under each cable: its route along the cable trays (\"in rack\" inside one rack) and the part to "
     f"take from the store. A cable with both ends in one rack is listed once, far rack \"{SAME_RACK}\"."),
    ("Each rack lists its connections network by network: compute, storage, in-band, out-of-band, power cords "
     "(PSU → PDU outlet, outlet type), coolant hoses (quick-disconnect → manifold). The rail/net column gives a "
     "compute cable's rail, any other connection's network: " + ", ".join(
         f"{short} {NETWORK_WORDS[network]}" for network, short in NETWORK_SHORT.items() if network != COMPUTE) + "."),
)
RAIL_COLUMN = 12
ROUTE_COLUMNS = slice(0, 7)  # the second line: route under label … far U, part under the rest
PART_COLUMNS = slice(7, 12)
#: A cord's or hose's one line ("PSU1 → PDU-A1 O37 (C19)") spans this end's port to the far face.
LINE_COLUMNS = slice(3, 10)

#: Rail colours with line patterns and numbers, so a cable's rail reads in grey too.
RAIL_STYLES: dict[int, tuple[str, tuple[float, ...]]] = {
    1: ("#1f77b4", ()),
    2: ("#d62728", (6, 2)),
    3: ("#2ca02c", (2, 2)),
    4: ("#ff7f0e", (6, 2, 2, 2)),
    5: ("#9467bd", (1, 3)),
    6: ("#8c564b", (8, 4)),
    7: ("#e377c2", (4, 1, 1, 1, 1, 1)),
    8: ("#7f7f7f", (10, 2, 2, 2, 2, 2)),
}


def _rail_stroke(colour: str, dash: tuple[float, ...]) -> str:
    red, green, blue = HexColor(colour).rgb()
    return f"{red:.4f} {green:.4f} {blue:.4f} RG 2 w [{' '.join(f'{d:g}' for d in dash)}] 0 d"


#: Each rail's stroke (colour, 2 pt, dash pattern) as PDF operators, made once: a plan draws
#: one swatch a cable, and reportlab parses a colour string on every use.
_RAIL_STROKES = {rail: _rail_stroke(colour, dash) for rail, (colour, dash) in RAIL_STYLES.items()}


def summary_counts(doc: Document, rows: list[CableRow] | None = None) -> dict[str, list[tuple[str, int]]]:
    """Cover figures, counted from the plan: equipment, connections by network and tier, by media
    (cord type, hose size) and stock; ``rows`` are the plan's cable rows when already made."""
    catalog = doc.catalog
    nodes = [d for d in doc.devices.values() if d.type in catalog and catalog[d.type].kind == NODE]
    switches = Counter(d.role or "unassigned" for d in doc.devices.values()
                       if d.type in catalog and catalog[d.type].kind == SWITCH)
    equipment = [("Racks", len(doc.racks)), ("GPU nodes", len(nodes)),
                 ("GPUs", sum(catalog[d.type].gpus for d in nodes))]
    roles = [role for network_roles in ROLES_OF.values() for role in network_roles]
    equipment += [(role_title(role), switches[role]) for role in roles if switches[role]]
    if switches["unassigned"]:
        equipment.append(("Unassigned switches", switches["unassigned"]))
    rows = cable_rows(doc) if rows is None else rows
    by_tier = []
    for figures in network_figures(doc, rows):
        if len(TIERS_OF[figures.network]) > 1 or figures.network == COMPUTE:
            by_tier += [(f"{NETWORK_SHORT[figures.network]} {tier}", n) for tier, n in figures.by_tier]
        else:
            by_tier.append((SECTION_TITLES[figures.network], figures.connections))
    by_tier.append(("All cables", len(doc.links)))
    media = Counter((network_rank(row.network), row.network,
                     kind_text(row.network, row.media, row.fitting) or "unassigned", row.stock_m) for row in rows)
    by_media = [(f"{NETWORK_SHORT.get(network, network)} {key} {stock:g} m", n)
                for (_rank, network, key, stock), n in sorted(media.items())]
    return {"Equipment": equipment, "Connections by network and tier": by_tier,
            "Cables, cords, hoses by kind and stock length": by_media}


def draw_rail(canvas: Canvas, x: float, y: float, rail: int, length: float = 16.0) -> float:
    """A rail swatch: a line in the rail's colour and pattern, then its number; returns the end x."""
    if rail not in RAIL_STYLES:
        draw_text(canvas, x, y, "—" if rail == 0 else str(rail), 6.5)
        return x + 10
    canvas._code.append(f"q {_RAIL_STROKES[rail]} {x:.2f} {y + 2.5:.2f} m {x + length:.2f} {y + 2.5:.2f} l S Q")
    draw_text(canvas, x + length + 3, y, str(rail), 6.5, FONT_BOLD)
    return x + length + 10


def _cover(doc: Document, rows: int, remaining: bool, racks: frozenset[str] | None,
           every: list[CableRow]) -> Callable[[Canvas], None]:
    counts = summary_counts(doc, every)
    title = f"{TITLE}, left to do" if remaining else TITLE
    cables = (f"{count(rows)} of {plural(len(doc.links), 'cable')} not yet verified (verified cables and racks "
              "with nothing left are not printed)") if remaining else plural(rows, "cable")
    note = ""
    if racks is not None:
        cables += " at the selected racks"
        note = f"{selection_note(doc, racks)} The figures below are the whole hall's."

    def draw(canvas: PageCanvas) -> None:
        x0, _y0, x1, y1 = content_box(canvas.page_size)
        draw_text(canvas, x0, y1 - 20, f"{title} — {doc.meta.project}", 18, FONT_BOLD, max_width=x1 - x0)
        draw_text(canvas, x0, y1 - 38, f"{doc.meta.hall} · {cables}", 11, max_width=x1 - x0)
        if note:
            draw_text(canvas, x0, y1 - 52, note, 9, FONT_BOLD, max_width=x1 - x0)
            y1 -= 14
        notes = wrap_lines(doc.meta.notes, 8, x1 - x0, NOTES_LINES) if doc.meta.notes.strip() else []
        base = paragraph_level(doc.meta.notes[:MAX_LINE_CHARS])
        for index, line in enumerate(notes):
            draw_text(canvas, x0, y1 - 54 - 10 * index, line, 8, base=base)
        top = y1 - 70 - 10 * len(notes)
        column_x = [x0, x0 + (x1 - x0) / 3, x0 + 2 * (x1 - x0) / 3]
        for (heading, items), cx in zip(counts.items(), column_x):
            y = top
            draw_text(canvas, cx, y, heading, 10, FONT_BOLD)
            if len(items) > COVER_ITEMS:  # room above the rail legend
                rest = sum(value for _label, value in items[COVER_ITEMS - 1:])
                items = [*items[:COVER_ITEMS - 1], (f"{count(len(items) - COVER_ITEMS + 1)} more (see the BOM)", rest)]
            for label, value in items:
                y -= 12
                draw_text(canvas, cx, y, label, 8, max_width=120)
                draw_text(canvas, cx + 170, y, count(value), 8, FONT_BOLD, align="right")
        y = top - 12 * (COVER_ITEMS + 2)
        draw_text(canvas, x0, y, "Rails: colour, line pattern and number (each reads in grey)", 10, FONT_BOLD)
        for rail in RAIL_STYLES:
            y -= 14
            draw_rail(canvas, x0, y, rail, 40)
            draw_text(canvas, x0 + 60, y, f"Rail {rail}: GPU {rail} of every node, to the rail-{rail} leaf", 8)
        y -= 24
        for line in (wrapped for text in LEGEND for wrapped in wrap_lines(text, 8, x1 - x0, 3)):
            draw_text(canvas, x0, y, line, 8, max_width=x1 - x0)
            y -= 11

    return draw


FLOOR_HEADING = ("Floor plan: racks, rows, cable trays (grey dashed), busbars A (solid) and B (dashed); thick "
                 "edge = rack front")


def _floor_pages(doc: Document, size: tuple[float, float]) -> tuple[list[Page], list[str]]:
    """The floor plan's pages and their bookmark titles: one page, or a key plan and the sheets
    that print every rack name whole (``plan_sheets``)."""
    shapes = plan_shapes(doc)
    x0, y0, x1, y1 = content_box(size)
    box = (x0, y0 + 10, x1, y1 - 24)
    scale, sheets = plan_sheets(shapes, box)

    def page(heading: str, sheet: Sheet | None) -> Page:
        def draw(canvas: Canvas) -> None:
            draw_text(canvas, x0, y1 - 14, heading, 10, FONT_BOLD, max_width=x1 - x0)
            if len(sheets) == 1:
                draw_plan_pdf(canvas, shapes, box)
            elif sheet is None:
                draw_key_plan(canvas, shapes, sheets, box)
            else:
                draw_sheet(canvas, shapes, sheet, scale, box)

        return Page(size, draw)

    if len(sheets) == 1:
        return [page(FLOOR_HEADING, None)], ["Floor plan"]
    key = page(f"Key plan: the whole hall on {plural(len(sheets), 'sheet')} at a scale that prints every rack name "
               "(racks unnamed here)", None)
    # "Sheet 2 · rows 5–8 (of 2 sheets)": the count after the sheet, not after its rows
    pages = [key] + [page(f"{FLOOR_HEADING} · {sheet.title()} (of {len(sheets)} sheets)", sheet) for sheet in sheets]
    return pages, ["Key plan"] + [sheet.title() for sheet in sheets]


def _elevation(canvas: Canvas, doc: Document, rack: Rack, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    item = doc.catalog.items.get(rack.type)
    units = item.rack_units if item and item.rack_units else 48
    unit_h = min(10.0, (y1 - y0 - 14 - 2 * ZERO_U_LINE) / units)  # room for three lines of 0U devices
    width = x1 - x0 - 22
    left, bottom = x0 + 14, y1 - 12 - units * unit_h
    canvas.saveState()
    canvas.setLineWidth(0.8)
    canvas.rect(left, bottom, width, units * unit_h)
    draw_text(canvas, left, y1 - 8, "Front elevation", 7, FONT_BOLD)
    canvas.setLineWidth(0.2)
    for u in range(1, units + 1):
        if u % 5 == 0 or u == 1:
            draw_text(canvas, left - 2, bottom + (u - 1) * unit_h + 1.5, str(u), 5, align="right")
    side = []
    for device in doc.devices_in(rack.id):
        kind_item = doc.catalog.items.get(device.type)
        height = kind_item.height_u if kind_item else 1
        if height == 0:
            side.append(device.name)
            continue
        y = bottom + (device.u - 1) * unit_h
        canvas.setFillGray(0.9)
        canvas.rect(left, y, width, height * unit_h, fill=1)
        canvas.setFillGray(0.0)
        size = min(6.0, height * unit_h - 1.5)
        draw_text(canvas, left + 2, y + (height * unit_h - size) / 2 + 0.8, f"U{device.u} {device.name}", size,
                  max_width=width - 4)
    for index, line in enumerate(wrap_lines("0U: " + ", ".join(side), 5.5, width, 3) if side else []):
        draw_text(canvas, left, bottom - 9 - index * ZERO_U_LINE, line, 5.5, max_width=width)
    canvas.restoreState()


def _rack_page(doc: Document, rack: Rack, lines: list[RackLine], part: int,
               parts: int, total: int, remaining: bool) -> Callable[[Canvas], None]:
    def draw(canvas: PageCanvas) -> None:
        x0, y0, x1, y1 = content_box(canvas.page_size)
        heading = f"Rack {clip(rack.name, 60)}" + (f" · row {clip(rack.row, 30)}" if rack.row else "") + \
            f" · {plural(total, 'cable')}" + (" left to do" if remaining else "")
        if parts > 1:
            heading += f" · part {part} of {parts}"
        draw_text(canvas, x0, y1 - 14, heading, 12, FONT_BOLD, max_width=x1 - x0)
        _elevation(canvas, doc, rack, (x0, y0 + 8, x0 + ELEVATION_WIDTH, y1 - HEADER_HEIGHT))
        tx0 = x0 + ELEVATION_WIDTH + 6
        scale = (x1 - tx0) / sum(c[1] for c in COLUMNS)
        widths = [c[1] * scale for c in COLUMNS]
        y = y1 - HEADER_HEIGHT
        grid = f"cabling-grid-{len(lines)}"
        if not canvas.hasForm(grid):
            canvas.beginForm(grid)
            _grid(canvas, tx0, x1, y, widths, len(lines))
            canvas.endForm()
        canvas.doForm(grid)
        for line in lines:
            y -= ROW_HEIGHT
            if isinstance(line, Heading):  # over the shared grid's row: no tick boxes, a heavier rule
                canvas.setFillGray(1.0)
                canvas.rect(tx0, y - SECOND_LINE - 2.6, x1 - tx0, ROW_HEIGHT - 0.8, stroke=0, fill=1)
                canvas.setFillGray(0.0)
                canvas.setLineWidth(0.8)
                canvas.line(tx0, y - SECOND_LINE - 3, x1, y - SECOND_LINE - 3)
                draw_text(canvas, tx0 + 2, y - 3, line.text(), 8, FONT_BOLD, max_width=x1 - tx0 - 4)
            else:
                _cable_line(canvas, doc, line, tx0, y, widths)

    return draw


def _cable_line(canvas: Canvas, doc: Document, entry: RackEntry, tx0: float, y: float, widths: list[float]) -> None:
    """One connection's two lines: its cells (a cord or hose as one "port → far end" line), rail
    or network, ticks; then route and part."""
    this, far, row = entry
    same = row.same_rack
    this_face, far_face = (row.a_face, row.b_face) if this is row.a else (row.b_face, row.a_face)
    kind = row.fitting if row.network == COOLANT and row.fitting else kind_text(row.network, row.media, row.fitting)
    if row.network in FITTED:
        far_device = far.device if same else f"{far.rack} U{far.u} {far.device}"
        values = [row.label, str(this.u), this.device,
                  connection_line(this.port, far_device, far.port, row.network, row.fitting)]
        spans = [1, 1, 1, LINE_COLUMNS.stop - LINE_COLUMNS.start]
        values += [kind, f"{row.stock_m:g} m"]
        spans += [1, 1]
    else:
        values = [row.label, str(this.u), this.device, this.port, this_face, SAME_RACK if same else far.rack,
                  str(far.u), far.device, far.port, far_face, kind, f"{row.stock_m:g} m"]
        spans = [1] * len(values)
    x, column = tx0, 0
    for value, span in zip(values, spans, strict=True):
        width = sum(widths[column:column + span])
        _cell(canvas, x, y, width, value, COLUMNS[column][2], FONT)
        x += width
        column += span
    if row.network == COMPUTE:
        draw_rail(canvas, x + 2, y, row.rail)
    else:
        draw_text(canvas, x + 2, y, NETWORK_SHORT.get(row.network, row.network), 6.5, FONT_BOLD,
                  max_width=widths[RAIL_COLUMN] - 4)
    link = doc.links.get(row.link_id)
    done = ticks_of_state(link.state) if link is not None else (False,) * len(TICKS)
    x = tx0 + sum(widths[:RAIL_COLUMN + 1])
    for width, ticked in zip(widths[RAIL_COLUMN + 1:], done):
        if ticked:
            _tick(canvas, x + width / 2 - 3.5, y - 1)
        x += width
    second = y - SECOND_LINE
    route = ("both ends in this rack · " if same else "") + f"route: {row.route or '—'}"
    if link is not None and link.state == FAULTY:
        route = f"FAULTY: {link.state_note or 'no note'} · {route}"
    draw_text(canvas, tx0 + 2, second, route, 6, max_width=sum(widths[ROUTE_COLUMNS]) - 4)
    draw_text(canvas, tx0 + sum(widths[:PART_COLUMNS.start]) + 2, second, f"part: {row.part or '—'}", 6,
              max_width=sum(widths[PART_COLUMNS]) - 4)


def _grid(canvas: Canvas, tx0: float, x1: float, y: float, widths: list[float], rows: int) -> None:
    """The table's headings and, for ``rows`` lines, their shading, tick boxes and rules.

    The same on every rack page with that many lines, so it is drawn once into a form that
    those pages share (most pages of a hall are full): a third of the plan's drawing and size.
    A network's heading is drawn over its line (``_rack_page``), so headings add no form.
    """
    draw_text(canvas, tx0 + widths[0] + 2, y + 10, "this end", 6.5, FONT_BOLD)
    draw_text(canvas, tx0 + sum(widths[:5]) + 2, y + 10, "far end", 6.5, FONT_BOLD)
    canvas.setLineWidth(0.6)
    canvas.line(tx0, y - 3, x1, y - 3)
    x = tx0
    for (name, _w, align), width in zip(COLUMNS, widths):
        _cell(canvas, x, y, width, name, align, FONT_BOLD)
        x += width
    canvas.setLineWidth(0.25)
    ticks_x = tx0 + sum(widths[:RAIL_COLUMN + 1])
    for index in range(rows):
        y -= ROW_HEIGHT
        if index % 2 == 1:
            canvas.setFillGray(0.93)
            canvas.rect(tx0, y - 3 - SECOND_LINE, x1 - tx0, ROW_HEIGHT, stroke=0, fill=1)
            canvas.setFillGray(0.0)
        x = ticks_x
        for width in widths[RAIL_COLUMN + 1:]:
            canvas.rect(x + width / 2 - 3.5, y - 1, 7, 7)
            x += width
        canvas.line(tx0, y - SECOND_LINE - 3, x1, y - SECOND_LINE - 3)


def _tick(canvas: Canvas, x: float, y: float) -> None:
    """A tick in the 7 pt box at (x, y): the step is done in the plan."""
    path = canvas.beginPath()
    path.moveTo(x + 1.2, y + 3.6)
    path.lineTo(x + 3.0, y + 1.4)
    path.lineTo(x + 6.2, y + 6.0)
    canvas.saveState()
    canvas.setLineWidth(1.1)
    canvas.drawPath(path, stroke=1, fill=0)
    canvas.restoreState()


def _cell(canvas: Canvas, x: float, y: float, width: float, text: str, align: str, font: str) -> None:
    if align == "right":
        draw_text(canvas, x + width - 3, y, text, 6.5, font, max_width=width - 4, align="right")
    elif align == "centre":
        draw_text(canvas, x + width / 2, y, text, 6.5, font, max_width=width - 2, align="centre")
    else:
        draw_text(canvas, x + 2, y, text, 6.5, font, max_width=width - 4)


def build_pages(doc: Document, options: ExportOptions) -> list[Page]:
    """Every page of the plan, in order (cover, index of racks, floor plan, networks, racks by
    name), with bookmarks: cover, index, floor plan, networks with a section each, then each row
    and the racks in it."""
    size = page_size(doc, options, wide=True)
    remaining = options.remaining_only
    rows = every = cable_rows(doc, install=True)
    if remaining:
        rows = [row for row in rows if doc.links[row.link_id].state != VERIFIED]
    if options.racks is not None:
        rows = [row for row in rows if row.a.rack_id in options.racks or row.b.rack_id in options.racks]
    floor, floor_titles = _floor_pages(doc, size)
    _x0, y0, _x1, y1 = content_box(size)
    per_page = int((y1 - HEADER_HEIGHT - y0 - 8) // ROW_HEIGHT)
    by_rack = rows_by_rack(rows, once=True)
    sections: list[tuple[Rack, list[Page]]] = []
    for rack in sorted(doc.racks.values(), key=lambda r: natural_key(r.name)):
        entries = by_rack.get(rack.id, [])
        if options.racks is not None and rack.id not in options.racks or remaining and not entries:
            continue
        parts = rack_parts(entries, per_page)
        sections.append((rack, [Page(size, _rack_page(doc, rack, part, number, len(parts), len(entries), remaining))
                                for number, part in enumerate(parts, start=1)]))
    index_count = index_page_count(len(sections), size)
    figures = network_figures(doc, rows)
    network_count = sum(section_page_count(f, size) for f in figures)
    first = 1 + index_count + len(floor) + network_count  # the first rack page's index
    starts = []
    for _rack, section in sections:
        starts.append(first)
        first += len(section)
    index = index_pages(size, [IndexLine(rack.name, rack.row, start + 1, start + len(section))
                               for (rack, section), start in zip(sections, starts)])
    places = {rack.id: (rack.name, rack.row, IndexLine(rack.name, rack.row, start + 1, start + len(section)).pages())
              for (rack, section), start in zip(sections, starts)}
    pages = [Page(size, _cover(doc, len(rows), remaining, options.racks, every)), *index, *floor]
    outline = [Entry("Cover", 0, 0)] + ([Entry(INDEX_TITLE, 0, 1)] if index else [])
    outline.append(Entry("Floor plan", 0, 1 + index_count))
    if len(floor) > 1:
        outline += [Entry(title, 1, 1 + index_count + number) for number, title in enumerate(floor_titles)]
    if figures:
        outline.append(Entry(NETWORKS_TITLE, 0, len(pages)))
    for network in figures:
        outline.append(Entry(SECTION_TITLES[network.network], 1, len(pages)))
        pages += section_pages(doc, size, network, places)
    pages += [page for _rack, section in sections for page in section]
    return outline_pages(pages, outline + _row_entries([(rack, start) for (rack, _s), start in zip(sections, starts)]))


def _row_entries(starts: list[tuple[Rack, int]]) -> list[Entry]:
    """Bookmarks per row (rows in name order, racks without a row last), each rack under its row."""
    rows: dict[str, list[tuple[Rack, int]]] = {}
    for rack, start in starts:
        rows.setdefault(rack.row, []).append((rack, start))
    entries = []
    for row in sorted(rows, key=lambda name: (name == "", natural_key(name))):
        racks = rows[row]
        entries.append(Entry(f"Row {row}" if row else "Racks without a row", 0, min(start for _r, start in racks)))
        entries += [Entry(rack.name, 1, start) for rack, start in racks]
    return entries


def write_cabling_pdf(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> int:
    """Write the cabling plan; returns the page count."""
    options = options or ExportOptions()
    pages = build_pages(doc, options)
    render_pages(out, pages, TitleBlock.of(doc, options, TITLE), options)
    return len(pages)
