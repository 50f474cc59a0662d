"""The cabling plan's section per network (issue 21 part 5): compute first, then storage, in-band,
out-of-band, power cords and coolant hoses, each a page (or more) of what an installer of that
network takes: its connections by tier, by media (a cord's type, a hose's size) and stock length,
its switches by role, and every rack with connections of that network, how many and the pages
of the rack's section. A rack's own table lists every connection of the rack network by network,
each under a heading (``rack_parts`` cuts it into pages).

Figures are counted from the cable rows of that network only (``CableRow.network``: by tier),
so a compute figure (rails, node-leaf cables) is what it was before other networks existed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from planner.export.connections import NETWORK_ORDER, SECTION_TITLES, THING, kind_text
from planner.export.fonts import FONT_BOLD
from planner.export.page_canvas import PageCanvas
from planner.export.pages import Page, content_box
from planner.export.printed_text import draw_text
from planner.export.schedule import CableEnd, CableRow
from planner.model.document import Document, natural_key
from planner.model.networks import ROLE_WORDS, ROLES_OF, TIERS_OF
from planner.model.ports import COMPUTE
from planner.text import count, plural

#: Height of the figures block above the racks, lines of the racks' columns, and column width.
FIGURE_LINES = 12
LINE = 10.5
COLUMN_WIDTH = 150.0
TOP = 34.0


@dataclass(frozen=True)
class NetworkFigures:
    """What one network's section prints: connections by tier and by kind and stock, switches by
    role, its rails (compute only: the distinct rails of its cables), and racks with their counts."""

    network: str
    connections: int
    by_tier: list[tuple[str, int]]
    by_kind: list[tuple[str, int]]
    switches: list[tuple[str, int]]
    rails: int
    racks: Counter[str]


def role_title(role: str) -> str:
    words = ROLE_WORDS.get(role, role)
    return f"{words[:1].upper()}{words[1:]} switches"


def network_figures(doc: Document, rows: list[CableRow]) -> list[NetworkFigures]:
    """The figures of every network the plan has a connection of, in ``NETWORK_ORDER``."""
    by_network: dict[str, list[CableRow]] = {}
    for row in rows:
        by_network.setdefault(row.network, []).append(row)
    roles = Counter(d.role for d in doc.devices.values() if d.role)
    found = []
    for network in NETWORK_ORDER:
        mine = by_network.get(network)
        if not mine:
            continue
        tiers = Counter(row.tier for row in mine)
        order = TIERS_OF[network]
        by_tier = [(tier or "unassigned", n) for tier, n in
                   sorted(tiers.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order), kv[0]))]
        kinds = Counter((kind_text(network, row.media, row.fitting) or "unassigned", row.stock_m) for row in mine)
        by_kind = [(f"{kind} {stock:g} m", n) for (kind, stock), n in sorted(kinds.items())]
        switches = [(role_title(role), roles[role]) for role in ROLES_OF.get(network, ()) if roles[role]]
        rails = len({row.rail for row in mine if row.rail}) if network == COMPUTE else 0
        racks: Counter[str] = Counter()
        for row in mine:
            racks[row.a.rack_id] += 1
            if not row.same_rack:
                racks[row.b.rack_id] += 1
        found.append(NetworkFigures(network, len(mine), by_tier, by_kind, switches, rails, racks))
    return found


def _grid(size: tuple[float, float]) -> tuple[int, int, int]:
    """(columns, lines a column on the first page, lines a column on the pages after it)."""
    x0, y0, x1, y1 = content_box(size)
    columns = max(1, int((x1 - x0) // COLUMN_WIDTH))
    full = max(1, int((y1 - y0 - TOP) // LINE))
    return columns, max(1, full - FIGURE_LINES - 6), max(1, full - 3)  # less the titles and column heads


def section_page_count(figures: NetworkFigures, size: tuple[float, float]) -> int:
    """The pages of one network's section: the figures and its racks in columns."""
    columns, first, later = _grid(size)
    rest = max(0, len(figures.racks) - columns * first)
    return 1 + -(-rest // (columns * later))


RackPlace = tuple[str, str, str]  # rack name, row, pages ("12–14")


def section_pages(doc: Document, size: tuple[float, float], figures: NetworkFigures,
                  places: dict[str, RackPlace]) -> list[Page]:
    """One network's section pages; ``places`` gives each rack id's name, row and pages."""
    columns, first, later = _grid(size)
    racks = sorted((rack_id for rack_id in figures.racks if rack_id in places),
                   key=lambda rack_id: natural_key(places[rack_id][0]))
    groups = [racks[:columns * first]]
    rest = racks[columns * first:]
    groups += [rest[start:start + columns * later] for start in range(0, len(rest), columns * later)]
    return [Page(size, _page(figures, group, places, number, len(groups), first if number == 1 else later))
            for number, group in enumerate(groups, start=1)]


def _page(figures: NetworkFigures, racks: list[str], places: dict[str, RackPlace], number: int, pages: int,
          per_column: int) -> Callable[[Canvas], None]:
    network = figures.network

    def draw(canvas: PageCanvas) -> None:
        x0, _y0, x1, y1 = content_box(canvas.page_size)
        more = f" · page {number} of {pages}" if pages > 1 else ""
        heading = f"{SECTION_TITLES[network]}: {plural(figures.connections, THING[network])}{more}"
        draw_text(canvas, x0, y1 - 14, heading, 12, FONT_BOLD, max_width=x1 - x0)
        y = y1 - TOP
        if number == 1:
            blocks = [("By tier", figures.by_tier), ("By kind and stock length", figures.by_kind)]
            equipment = list(figures.switches)
            if figures.rails:
                equipment.append(("Rails", figures.rails))
            if equipment:
                blocks.append(("Switches and rails" if figures.rails else "Switches", equipment))
            width = (x1 - x0) / 3
            for index, (title, items) in enumerate(blocks):
                _block(canvas, x0 + index * width, y, width - 12, title, items)
            y -= (FIGURE_LINES + 2) * LINE
        draw_text(canvas, x0, y, f"Racks with {THING[network]}s of this network: rack, row, {THING[network]}s "
                  "there, pages of the rack's section", 8, FONT_BOLD, max_width=x1 - x0)
        y -= LINE * 1.5
        for start in range(0, len(racks), per_column):
            cx = x0 + (start // per_column) * COLUMN_WIDTH
            for text, x, align in (("rack", cx, "left"), ("row", cx + 60, "left"), (f"{THING[network]}s", cx + 104, "right"),
                                   ("pages", cx + COLUMN_WIDTH - 12, "right")):
                draw_text(canvas, x, y, text, 7, FONT_BOLD, align=align)
            line_y = y - LINE
            for rack_id in racks[start:start + per_column]:
                name, row, rack_pages = places[rack_id]
                draw_text(canvas, cx, line_y, name, 7.5, FONT_BOLD, max_width=58)
                draw_text(canvas, cx + 60, line_y, row or "—", 7, max_width=24)
                draw_text(canvas, cx + 104, line_y, count(figures.racks[rack_id]), 7.5, align="right")
                draw_text(canvas, cx + COLUMN_WIDTH - 12, line_y, rack_pages, 7.5, align="right")
                line_y -= LINE

    return draw


def _block(canvas: Canvas, x: float, y: float, width: float, title: str, items: list[tuple[str, int]]) -> None:
    draw_text(canvas, x, y, title, 9, FONT_BOLD, max_width=width)
    if len(items) > FIGURE_LINES:
        rest = sum(value for _label, value in items[FIGURE_LINES - 1:])
        items = [*items[:FIGURE_LINES - 1], (f"{count(len(items) - FIGURE_LINES + 1)} more (see the BOM)", rest)]
    for label, value in items:
        y -= LINE
        draw_text(canvas, x, y, label, 7.5, max_width=width - 50)
        draw_text(canvas, x + width, y, count(value), 7.5, FONT_BOLD, align="right")


@dataclass(frozen=True)
class Heading:
    """A network's heading in a rack's table: its connections there, "continued" on a page after
    the first."""

    network: str
    count: int
    more: bool = False

    def text(self) -> str:
        words = f"{SECTION_TITLES.get(self.network, self.network)} · {plural(self.count, THING.get(self.network, 'cable'))}"
        return words + (" (continued)" if self.more else "")


RackEntry = tuple[CableEnd, CableEnd, CableRow]
RackLine = Heading | RackEntry


def rack_parts(entries: list[RackEntry], per_page: int) -> list[list[RackLine]]:
    """A rack's table cut into pages: each network's rows under its heading (again, "continued",
    at the top of a page it runs onto); a heading never ends a page."""
    counts = Counter(row.network for _this, _far, row in entries)
    parts: list[list[RackLine]] = []
    page: list[RackLine] = []
    current = None
    for entry in entries:
        network = entry[2].network
        if len(page) >= per_page or (network != current and len(page) >= per_page - 1):
            parts.append(page)
            page = []
        if network != current or not page:
            page.append(Heading(network, counts[network], more=network == current))
            current = network
        page.append(entry)
    if page:
        parts.append(page)
    return parts or [[]]
