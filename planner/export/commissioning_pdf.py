"""The commissioning document, in the four phases the product commits to.

(a) site and facility survey, (b) install and plumb, (c) tune and prove, (d) handover. Every
figure comes from the plan through ``build_report`` (the `planner report --json` object),
``fabric_counts`` and ``validate``; nothing is typed in, so the signed paper matches the file.
Blank fields are for the measurements made on site.

User text (names, notes, finding messages) is wrapped here at its column's width, to at most
``CELL_LINES`` lines in a table cell (``MESSAGE_LINES`` for a finding, ``NOTES_LINES`` for the
plan's notes, ``HEADING_LINES`` for a heading), the last line cut with "…"; every table has
fixed column widths shared out of the frame. So no name can overflow a page, stall the layout
or leave a column no room.

With ``ExportOptions.racks`` (a row or a few racks) the rack-load table and the install
checklists cover those racks and the first page says which; feeds, CDUs, trays, fabric and
findings stay the whole hall's, as they are facts of the hall, not of a rack.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    CondPageBreak,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from planner.asbuilt.verify import progress_text
from planner.export.facility_tables import ppue_table, rack_groups_table
from planner.export.fonts import FONT, FONT_BOLD, register_fonts
from planner.export.leak_test import leak_test_steps
from planner.export.nccl import ExpectedBusBw, allreduce_rows
from planner.export.options import ExportOptions
from planner.export.page_canvas import PageCanvas
from planner.export.page_setup import titled_document
from planner.export.pages import TitleBlock
from planner.export.pdf_outline import Marked, mark_rows, place_marks
from planner.export.printed_text import markup, markup_lines
from planner.export.schedule import cable_rows, rows_by_rack
from planner.export.selection import selection_note
from planner.fabric.sizing import FabricError, fabric_counts, node_devices
from planner.model.catalog import RACK_CDU
from planner.model.document import Document, natural_key
from planner.model.objects import TIERS
from planner.rules.engine import validate
from planner.rules.finding import ERROR, WARNING, Finding, cables_named
from planner.rules.report import build_report
from planner.text import count, plural

TITLE = "Commissioning document"
TABLE_CHUNK = 40
BOX = "☐"
CELL_LINES = 3
MESSAGE_LINES = 6
NOTES_LINES = 8
HEADING_LINES = 2
PADDING = 12  # a table cell's left and right padding together (reportlab's default 6 + 6)
STEP_COLUMNS = ("step", "done", "initials", "date")  # a rack checklist's: ticked, initialled and dated on site
STEP_WEIGHTS = [8.0, 0.8, 1.3, 1.7]
STEP_HEIGHT = 14.5  # a body row's least height: room to write initials and a date by hand

BODY = ParagraphStyle("body", fontName=FONT, fontSize=8.5, leading=11)
SMALL = ParagraphStyle("small", fontName=FONT, fontSize=7, leading=8.5)
TICK = ParagraphStyle("tick", fontName=FONT, fontSize=11, leading=11)
H1 = ParagraphStyle("h1", fontName=FONT_BOLD, fontSize=15, leading=19, spaceBefore=4, spaceAfter=6)
H2 = ParagraphStyle("h2", fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=8, spaceAfter=4)
H3 = ParagraphStyle("h3", fontName=FONT_BOLD, fontSize=9, leading=12, spaceBefore=6, spaceAfter=2)


def fmt(value: Any, digits: int = 1) -> str:
    """Figures as printed: fixed decimals, "—" for none."""
    if value is None:
        return "—"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:,.{digits}f}"
    return str(value)


def _cell(text: str, width: float, lines: int = CELL_LINES) -> Paragraph:
    return Paragraph(markup_lines(text, SMALL.fontSize, width - PADDING, lines), SMALL)


def _heading(text: str, style: ParagraphStyle, width: float) -> Paragraph:
    font = FONT_BOLD if style.fontName == FONT_BOLD else FONT
    return Paragraph(markup_lines(text, style.fontSize, width, HEADING_LINES, font), style)


def _widths(weights: list[float], width: float) -> list[float]:
    """Column widths sharing ``width`` in proportion to ``weights``."""
    total = sum(weights)
    return [width * w / total for w in weights]


def data_tables(header: list[str], rows: list[list[Any]], weights: list[float], width: float,
                lines: list[int] | None = None) -> list[Table]:
    """Long tables as a run of short ones: reportlab splits one long table across pages in
    quadratic time, which stalls on a hall's thousands of rows. The first run prints the header;
    a later one only where it starts a page (``RowRun``), so the header never repeats mid-page."""
    return [_table(header, rows[start:start + TABLE_CHUNK], weights, width, lines, first=start == 0)
            for start in range(0, len(rows), TABLE_CHUNK)]


def _style(header: bool) -> TableStyle:
    """The tables' look: a grid, and the header row (when there is one) shaded."""
    shade = [("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.85, 0.85, 0.85))] if header else []
    return TableStyle([("FONT", (0, 0), (-1, -1), FONT, 7), ("GRID", (0, 0), (-1, -1), 0.3, colors.black), *shade,
                       ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                       ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5)])


class RowRun(Table):
    """Some rows of a long table, its header row first (``_cellvalues[0]``, as ``mark_rows``
    expects). A run that goes on from the one before (``first`` False) draws its header only at
    the top of a page: mid-page it continues the table above without one; split over a page
    break, its part on the next page gets the header again."""

    def __init__(self, *args: Any, first: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.first = first
        self._bare: Table | None = None

    def _mid_page(self) -> bool:
        frame = getattr(self, "_frame", None)  # the frame being filled sets itself before wrap and split
        return not self.first and frame is not None and not frame._atTop

    def _run(self, rows: list, header: bool) -> Table:
        table = (RowRun if header else Table)([self._cellvalues[0], *rows] if header else rows, colWidths=self._argW,
                                               repeatRows=int(header), hAlign=self.hAlign)
        table.setStyle(_style(header))
        return table

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self._bare = self._run(self._cellvalues[1:], header=False) if self._mid_page() else None
        if self._bare is not None:
            return self._bare.wrap(availWidth, availHeight)
        return super().wrap(availWidth, availHeight)

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        if self._bare is not None:
            self._bare.drawOn(canvas, x, y, _sW)
        else:
            super().drawOn(canvas, x, y, _sW)

    def split(self, availWidth: float, availHeight: float) -> list:
        if not self._mid_page():
            return super().split(availWidth, availHeight)
        parts = self._run(self._cellvalues[1:], header=False).split(availWidth, availHeight)
        return [parts[0], self._run(parts[1]._cellvalues, header=True)] if len(parts) == 2 else parts


def _table(header: list[str], rows: list[list[Any]], weights: list[float], width: float,
           lines: list[int] | None = None, first: bool = True, min_height: float | None = None) -> RowRun:
    """A table of fixed column widths; ``lines`` caps each column's cells (CELL_LINES by default);
    ``min_height`` leaves each body row room to write in."""
    widths = _widths(weights, width)
    caps = lines or [CELL_LINES] * len(widths)
    data = [[Paragraph(f"<b>{markup(h)}</b>", SMALL) for h in header]]
    data += [[Paragraph(BOX, TICK) if v == BOX else _cell(str(v), w, cap) for v, w, cap in zip(row, widths, caps)]
             for row in rows]
    minimum = None if min_height is None else [0.0] + [min_height] * len(rows)
    table = RowRun(data, colWidths=widths, repeatRows=1, hAlign="LEFT", minRowHeights=minimum, first=first)
    table.setStyle(_style(header=True))
    return table


def survey_tables(doc: Document, report: dict) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Phase (a) tables as (header, rows of printed strings), straight from the report."""
    ratings = {zone.name: zone.rating_kpa for zone in doc.zones.values()}
    racks = []
    for r in report["racks"]:
        rating = ratings.get(r["zone"]) if r["zone"] else None
        share = f"{100 * r['floor_kpa'] / rating:.0f} %" if rating else "—"
        racks.append([r["name"], r["zone"] or "—", fmt(r["weight_kg"]), fmt(r["footprint_m2"], 2),
                      fmt(r["floor_kpa"], 2), fmt(rating, 1), share])
    feeds = [[f["name"], f["side"], fmt(f["voltage_v"], 0), fmt(f["rating_a"], 0), fmt(f["derated_a"]),
              fmt(f["current_a"]), fmt(f["current_failover_a"]),
              "—" if f["utilisation_failover"] is None else f"{100 * f['utilisation_failover']:.0f} %"]
             for f in report["feeds"]]
    delta_t = report["basis"]["delta_t_k"]
    cdus = [[c["name"], fmt(c["liquid_kw"]), fmt(c["capacity_kw"]), fmt(c["flow_required_lpm"]),
             fmt(c["flow_rated_lpm"]), fmt(c["supply_c"]), fmt(c["supply_c"] + delta_t)]
            for c in report["cdus"]]
    trays = [[t["name"], _tray_size(report["basis"], t["kind"]), f"{t['start_m']:.2f}–{t['end_m']:.2f}",
              f"{t['peak_start_m']:.2f}–{t['peak_end_m']:.2f}", f"{t['cables']:,}", f"{t['area_mm2']:,.0f}",
              "—" if t["fill"] is None else f"{100 * t['fill']:.0f} %"] for t in report["trays"]]
    handoffs = [[h.name, h.kind, f"{h.x:.2f}, {h.y:.2f}"]
                for h in sorted(doc.handoffs.values(), key=lambda h: (h.kind, natural_key(h.name)))]
    return {
        "zones": (["zone", "rating kPa"], [[z.name, fmt(z.rating_kpa)] for z in
                                           sorted(doc.zones.values(), key=lambda z: natural_key(z.name))]),
        "racks": (["rack", "zone", "weight kg", "footprint m²", "load kPa", "zone rating kPa", "of rating"], racks),
        "feeds": (["feed", "side", "V", "rating A", "derated A", "normal A", "failover A", "failover use"], feeds),
        "cdus": (["CDU", "heat kW", "capacity kW", "flow need L/min", "rated L/min", "supply °C", "return °C"], cdus),
        "trays": (["tray", "size (levels × W × D mm)", "runs along (m)", "busiest stretch (m)", "cables there",
                   "cable mm²", "fill"], trays),
        "handoffs": (["hand-off", "kind", "position x, y (m)"], handoffs),
    }


def _tray_size(basis: dict, kind: str) -> str:
    levels, width, depth = (basis[f"{kind}_tray_{k}"] for k in ("levels", "width_m", "depth_m"))
    return f"{levels} × {width * 1000:.0f} × {depth * 1000:.0f}"


#: Relative column widths of the survey tables (the tray table leaves room for the tray's name).
SURVEY_WEIGHTS: dict[str, list[float]] = {
    "zones": [3, 1], "racks": [2.2, 1.6, 1, 1, 1, 1.1, 0.9], "feeds": [2.2, 0.6, 0.6, 0.8, 0.9, 0.9, 0.9, 0.9],
    "cdus": [2, 1, 1, 1.1, 1, 0.9, 0.9], "trays": [150, 80, 70, 75, 55, 50, 38], "handoffs": [3, 1, 1.5],
}


def _survey(doc: Document, report: dict, width: float) -> list:
    tables = survey_tables(doc, report)
    basis = report["basis"]
    story: list = [Marked(Paragraph("(a) Site and facility survey", H1), "(a) Site and facility survey")]
    story.append(Paragraph(
        f"Design basis: {fmt(basis['voltage_v'], 0)} V, power factor {basis['power_factor']}, derating "
        f"{basis['derating']}, redundancy {basis['redundancy']}, {basis['load_basis']} load; coolant "
        f"{basis['fluid']}, ΔT {basis['delta_t_k']} K, facility supply {basis['facility_supply_c']} °C, "
        f"maximum cold-plate supply {basis['max_supply_c']} °C; floor method {basis['floor_method']}.", BODY))
    for key, heading in (("zones", "Floor zones"), ("racks", "Rack loads against their zone"),
                         ("feeds", "Power feeds: normal and failover current against the derated rating"),
                         ("cdus", "Coolant: each CDU's heat, flow, supply and return temperature"),
                         ("trays", ("Cable trays: the busiest stretch of each against its usable cross-section "
                                   f"(warning above {basis['tray_fill_warn']:.0%}, limit {basis['tray_fill_error']:.0%})")),
                         ("handoffs", "Hand-off points: power, coolant and network")):
        header, rows = tables[key]
        story.append(Paragraph(heading, H2))
        story.extend(data_tables(header, rows, SURVEY_WEIGHTS[key], width) if rows else
                     [Paragraph("None in the plan.", BODY)])
    story += _ppue(report, width)
    story.append(Spacer(1, 8))
    story.append(Paragraph("Surveyed by ____________________  date __________  "
                           "site facts agree with the above: yes ☐ no ☐ (note differences overleaf)", BODY))
    return story


def _ppue(report: dict, width: float) -> list:
    """The design partial PUE per row and for the hall, with its boundary (the facility hand-off
    prints the same table with each rack)."""
    header, rows = ppue_table(report)
    groups_header, groups = rack_groups_table(report)
    ppue = report["ppue"]
    return [Paragraph(f"Design partial PUE at the rack (target {ppue['target']:g})", H2),
            Paragraph(markup(ppue["boundary"]), SMALL), *data_tables(header, rows, [2.2, 1, 1, 1, 1, 0.8, 0.8], width),
            Spacer(1, 4), *data_tables(groups_header, [[str(v) for v in row] for row in groups], [1, 0.6, 6], width)]


def liquid_cooled(doc: Document, rack_id: str) -> bool:
    """Whether a rack needs plumbing: a device with a liquid-cooled share, or an in-rack CDU."""
    for device in doc.devices_in(rack_id):
        item = doc.catalog.items.get(device.type)
        if item is not None and (item.liquid_fraction > 0 or item.kind == RACK_CDU):
            return True
    return False


def install_steps(doc: Document, figures: dict, cable_ends: int) -> list[list[str]]:
    """One rack's checklist (step, tick box): plumbing and a leak test only where ``liquid_cooled``."""
    rack_id = figures["id"]
    items = [["Rack landed, levelled and bonded", BOX]]
    for device in doc.devices_in(rack_id):
        item = doc.catalog.items.get(device.type)
        where = f"U{device.u}" if device.u else "side channel (0U)"
        items.append([f"{device.name} ({item.name if item else device.type}) seated at {where}", BOX])
    if liquid_cooled(doc, rack_id):
        items.append(["Cold plates and manifold plumbed" + (f" to {figures['cdu']}" if figures["cdu"] else ""), BOX])
        items += [[step, BOX] for step in leak_test_steps(doc, rack_id, figures["cdu"])]
    items.append([f"Busbar tap-off A: {figures['feed_a'] or 'none assigned'}", BOX])
    items.append([f"Busbar tap-off B: {figures['feed_b'] or 'none assigned'}", BOX])
    items.append([f"Cables run per the cabling plan: {plural(cable_ends, 'cable end')}", BOX])
    return items


def _install(doc: Document, report: dict, options: ExportOptions, width: float) -> list:
    story: list = [PageBreak(), Marked(Paragraph("(b) Install and plumb", H1), "(b) Install and plumb"),
                   Paragraph("One checklist per rack. Tick each step when done and write your initials and the "
                             "date beside it. Racks with liquid-cooled equipment (a cold-plate share or an in-rack "
                             "CDU) also get plumbing and a leak test to record.", BODY),
                   Paragraph(markup(f"Cable installation, from the plan's cable states: {progress_text(doc)}"), BODY)]
    ends = {rack_id: len(entries) for rack_id, entries in rows_by_rack(cable_rows(doc)).items()}
    for index, figures in enumerate(report["racks"]):
        rack = doc.racks[figures["id"]]
        items = install_steps(doc, figures, ends.get(rack.id, 0))
        heading = f"Rack {figures['name']}" + (f" · row {rack.row}" if rack.row else "")
        title = _heading(f"{heading} · {fmt(figures['power_kw'])} kW steady · {fmt(figures['weight_kg'])} kg", H3,
                         width)
        story.append(CondPageBreak(60))
        steps = [[step, box, "", ""] for step, box in items]  # initials and date: written on site
        story.append(KeepTogether([Marked(title, f"Rack {figures['name']}", 1),
                                   _table(list(STEP_COLUMNS), steps, STEP_WEIGHTS, width, min_height=STEP_HEIGHT)]))
        options.report(0.1 + 0.5 * (index + 1) / max(1, len(report["racks"])))
    return story


def _allreduce(doc: Document, counts: dict) -> tuple[list[list[str]], ExpectedBusBw]:
    """The all-reduce rows per SU and rail, with the expected bus bandwidth (``nccl``)."""
    rails = sorted({link.rail for link in doc.links.values() if link.rail})
    sus = sorted({d.su for d in doc.devices.values() if d.role == "leaf" and d.su}) or [1]
    return allreduce_rows(doc, sus, rails, float(counts["oversubscription"] or 1.0))


def _words(numbers: list[int]) -> str:
    """``4 and 8``, ``2, 4 and 8``."""
    parts = [str(n) for n in numbers]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def fabric_facts(doc: Document) -> tuple[dict[str, Any], str]:
    """The fabric counts the test plan prints, and why the plan's fabric cannot be sized ("" when
    it can).

    A fabric is sized (``fabric_counts``) as a rail-optimised fat-tree, which needs every node to
    have the same rails; a plan that mixes node types with different rail counts (a custom node
    with other port cages), or that the generator cannot build, still gets its commissioning
    document: the counts then are what the plan holds (nodes, their GPU ports, switches by role,
    cables by tier), with no tier count or oversubscription, and the reason goes where the
    all-reduce table would be, instead of the export failing on it.
    """
    nodes = node_devices(doc)
    rails = sorted({doc.catalog[d.type].port_count for d in nodes})
    if len(rails) > 1:
        problem = (f"The fabric mixes node types with {_words(rails)} rails: it is not a rail-optimised design, "
                   "so the plan gives no all-reduce tests per rail or expected bus bandwidth. Test the fabric "
                   "as built against the site's own acceptance figures.")
    else:
        try:
            return fabric_counts(doc), ""
        except FabricError as exc:
            problem = f"The plan's fabric cannot be sized ({exc}), so the plan gives no all-reduce tests."
    held = Counter(d.role for d in doc.devices.values()), Counter(link.tier for link in doc.links.values())
    roles, links = {r: held[0][r] for r in ("leaf", "spine", "core")}, {t: held[1][t] for t in TIERS}
    counts = {"nodes": len(nodes), "gpus": sum(doc.catalog[d.type].port_count for d in nodes), "tiers": None,
              "switches": roles, "links": links, "oversubscription": None}
    return counts, problem


def _prove(doc: Document) -> tuple[dict[str, tuple[list[str], list[list[str]]]], ExpectedBusBw | None, str]:
    """Phase (c) tables, the expected bus bandwidth behind the all-reduce table (None without one)
    and why there is none ("" when there is)."""
    counts, problem = fabric_facts(doc)
    basis = doc.basis
    tiers = counts["tiers"]
    summary = [["nodes", count(counts["nodes"])], ["GPUs", count(counts["gpus"])],
               ["tiers", "—" if tiers is None else count(tiers)]]
    summary += [[f"{role} switches", count(n)] for role, n in counts["switches"].items()]
    summary += [[f"{tier} links", count(n)] for tier, n in counts["links"].items()]
    ratio = counts["oversubscription"]
    summary.append(["oversubscription", "—" if ratio is None else f"{ratio:g}:1"])
    allreduce: list[list[str]] = []
    figures = None
    if not problem:
        allreduce, figures = _allreduce(doc, counts)
    target = f"> {100 * basis.scaling_efficiency_target:.0f} %"
    scaling = []
    # each step doubles the GPUs: start at 1 at least, or a basis of 0 would never end the loop
    first = gpus = max(1, basis.scaling_min_gpus)
    while gpus <= min(basis.scaling_max_gpus, max(counts["gpus"], first)):
        scaling.append([count(gpus), "baseline" if gpus == first else target, "", "", ""])
        gpus *= 2
    tables = {
        "fabric": (["fabric", "count"], summary),
        "allreduce": (["scope", "rail", "bus bandwidth GB/s", "expected GB/s", "pass"], allreduce),
        "scaling": (["GPUs", "efficiency target", "measured throughput", "efficiency", "pass"], scaling),
    }
    return tables, figures, problem


def prove_tables(doc: Document) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Phase (c): fabric summary and the tests to run, with blank result columns."""
    return _prove(doc)[0]


PROVE_WEIGHTS: dict[str, list[float]] = {"fabric": [3, 1], "allreduce": [1.2, 1, 1.3, 1.3, 0.7], "scaling": [1, 1.3, 1.5, 1, 0.7]}


def _tune(doc: Document, width: float) -> list:
    tables, figures, problem = _prove(doc)
    story: list = [PageBreak(), Marked(Paragraph("(c) Tune and prove", H1), "(c) Tune and prove"),
                   Paragraph("NCCL tuned to the topology (rail-aligned rings/trees); record the results in the blank "
                             "columns.", BODY)]
    planned = any(d.role for d in doc.devices.values())
    fabric_heading = ("Fabric summary (from the plan)" if planned else
                      "Fabric summary: no generated fabric in the plan; the fabric the generator would build")
    for key, heading in (("fabric", fabric_heading),
                         ("allreduce", "All-reduce per rail and per scalable unit"),
                         ("scaling", "Scaling test (efficiency against the smallest run)")):
        header, rows = tables[key]
        story.append(Paragraph(heading, H2))
        if key == "allreduce" and problem:
            story.append(Paragraph(markup(problem), BODY))
            continue
        if key == "allreduce" and rows and figures is not None:
            story.append(Paragraph(markup(figures.formula()), SMALL))
            story.append(Spacer(1, 3))
        table_width = width / 2 if key == "fabric" else width  # two short columns read better narrow
        story.extend(data_tables(header, rows, PROVE_WEIGHTS[key], table_width) if rows else
                     [Paragraph("No cabled rails in the plan.", BODY)])
    return story


def open_findings(doc: Document) -> list[Finding]:
    """Every error and warning of the plan, as the handover lists them."""
    return [f for f in validate(doc) if f.severity in (ERROR, WARNING)]


def _handover(doc: Document, report: dict, findings: list[Finding], width: float) -> list:
    story: list = [PageBreak(), Marked(Paragraph("(d) Handover", H1), "(d) Handover"),
                   Marked(Paragraph("Open findings", H2), "Open findings", 1)]
    if findings:
        trays = {t["id"]: t["name"] for t in report["trays"]}

        def name(obj_id: str) -> str:
            obj = doc.find(obj_id)
            return getattr(obj, "name", obj_id) if obj is not None else trays.get(obj_id, obj_id)

        rows = [[f.severity, f.rule, cables_named(f) or ", ".join(name(s) for s in f.subjects), f.message, f.source]
                for f in findings]
        tables = data_tables(["severity", "rule", "subjects", "finding", "source"], rows, [48, 30, 70, 250, 120],
                             width, [1, 1, CELL_LINES, MESSAGE_LINES, CELL_LINES])
        counts = Counter(f.rule for f in findings)  # sorted by severity, then rule: a bookmark at each rule's first
        firsts = [f"{f.rule} · {f.severity} · {plural(counts[f.rule], 'finding')}"
                  if i == 0 or findings[i - 1].rule != f.rule else None for i, f in enumerate(findings)]
        story.extend(mark_rows(tables, firsts, 2))
    else:
        story.append(Paragraph("None: validation reports no errors or warnings.", BODY))
    story.append(Spacer(1, 8))
    story.append(Paragraph("Run-book handed over ☐    Test results handed over ☐    Open findings accepted ☐", BODY))
    story.append(Paragraph("Sign-off", H2))
    roles = ["Site surveyor", "Installer", "Reviewing engineer", "Customer"]
    sign = _table(["role", "name", "signature", "date"], [[r, "", "", ""] for r in roles], [110, 140, 150, 80], width)
    sign._argH[1:] = [26] * len(roles)
    story.append(sign)
    story.append(Spacer(1, 6))
    return story


def numbered_canvas(block: TitleBlock) -> type[PageCanvas]:
    class NumberedCanvas(PageCanvas):
        """Holds pages back until the end so each title block can say "page X of Y"."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._saved: list[dict] = []

        def showPage(self) -> None:
            self._saved.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._saved)
            for number, state in enumerate(self._saved, start=1):
                self.__dict__.update(state)
                place_marks(self, number)
                block.draw(self, number, total)
                PageCanvas.showPage(self)
            PageCanvas.save(self)

    return NumberedCanvas


def write_commissioning_pdf(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> int:
    """Write the commissioning document; returns the number of open findings listed."""
    options = options or ExportOptions()
    register_fonts()
    report = build_report(doc)
    options.report(0.05)
    titled = titled_document(doc, out, options, TITLE)
    template, frame, block = titled.template, titled.frame, titled.block
    findings = open_findings(doc)
    width = frame._aW  # the frame less its padding: what a flowable gets
    story: list = [_heading(f"{TITLE} — {doc.meta.project}", H1, width),
                   _heading(f"{doc.meta.hall} · revision {block.revision} · {block.date}", BODY, width)]
    if doc.meta.notes.strip():
        story.append(Paragraph(markup_lines(doc.meta.notes, BODY.fontSize, width, NOTES_LINES), BODY))
    if options.racks is not None:  # the per-rack tables for the selected racks; feeds, CDUs and the rest whole
        report = {**report, "racks": [r for r in report["racks"] if r["id"] in options.racks]}
        story.append(Paragraph(markup(f"{selection_note(doc, options.racks)} Rack loads and install checklists "
                                      "are for these racks; feeds, CDUs, trays, fabric and findings are the whole "
                                      "hall's."), BODY))
    story.append(Spacer(1, 8))
    story += _survey(doc, report, width)
    story += _install(doc, report, options, width)
    story += _tune(doc, width)
    story += _handover(doc, report, findings, width)
    template.build(story, canvasmaker=numbered_canvas(block))
    options.report(1.0)
    return len(findings)
