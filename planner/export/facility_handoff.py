"""The facility hand-off (`planner export --to facility-pdf | facility-csv`): what the facilities
team plans the electrical and water plant for. Per busbar feed, power cabinet and the hall the
nameplate, steady draw and the step when every node goes from idle to peak at once, each against
its rating; per CDU the heat to water, flow, supply and return temperatures and the rating left
with one pump out; and the design partial PUE with its boundary. Every number comes from
``build_report`` (the `planner report --json` object) through ``facility_tables``."""

from __future__ import annotations

import csv
import io
from typing import Any, BinaryIO

from reportlab.platypus import Paragraph, Spacer

from planner.export.commissioning_pdf import BODY, H1, H2, data_tables, numbered_canvas
from planner.export.facility_tables import (
    Number,
    Table,
    basis_text,
    cabinet_table,
    cdu_table,
    feed_table,
    hall_table,
    ppue_table,
    printed,
    rack_groups_table,
    raw,
)
from planner.export.fonts import register_fonts
from planner.export.options import ExportOptions
from planner.export.page_setup import titled_document
from planner.export.printed_text import markup, markup_lines
from planner.export.sheet_text import sheet_text
from planner.model.document import Document
from planner.rules.report import build_report

TITLE = "Facility hand-off"
#: How many lines the project name may take in the heading.
HEADING_LINES = 2


def sections(report: dict[str, Any], num: Number = printed, racks: bool = False) -> list[tuple[str, str, Table]]:
    """(key, heading, table) of every section, in the order both documents print them; the PDF
    groups the racks by pPUE, the CSV (``racks``) lists each rack's."""
    return [
        ("feeds", "Busbar feeds: normal load, the simultaneous idle-to-peak step and 2N failover after it",
         feed_table(report, num)),
        ("cabinets", "Power cabinets (each feeds the busbars of its row)", cabinet_table(report, num)),
        ("hall", "The hall: every rack once", hall_table(report, num)),
        ("cdus", "Coolant: heat to water, flow and temperatures per CDU, and its rating with one pump out",
         cdu_table(report, num)),
        ("ppue", "Design partial PUE per row and for the hall (steady load)", ppue_table(report, racks, num)),
    ]


def _weights(header: list[str]) -> list[float]:
    """The first column (a name) gets twice the room of a figure."""
    return [2.0] + [1.0] * (len(header) - 1)


def write_facility_pdf(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> int:
    """Write the hand-off document; returns the number of sections printed with rows."""
    options = options or ExportOptions()
    register_fonts()
    report = build_report(doc)
    options.report(0.3)
    titled = titled_document(doc, out, options, TITLE, wide=True)
    template, frame, block = titled.template, titled.frame, titled.block
    width = frame._aW
    story: list = [Paragraph(markup_lines(f"{TITLE} — {doc.meta.project}", H1.fontSize, width, HEADING_LINES,
                                          H1.fontName), H1),
                   Paragraph(markup(basis_text(report)), BODY),
                   Paragraph(markup(report["draw"]["basis"] + ". " + report["ppue"]["boundary"]), BODY),
                   Paragraph("The survey's upstream hand-off capacity is not held in the plan: compare the hall's "
                             "after-step figure with it on site: ____________ kW", BODY)]
    count = 0
    groups = ("racks", "Racks by their pPUE", rack_groups_table(report))
    for _key, heading, (header, rows) in [*sections(report), groups]:
        story.append(Paragraph(heading, H2))
        if rows:
            count += 1
            weights = [1, 0.6, 6] if header == groups[2][0] else _weights(header)
            story.extend(data_tables(header, [[str(v) for v in row] for row in rows], weights, width))
        else:
            story.append(Paragraph("None in the plan.", BODY))
    story += [Spacer(1, 8), Paragraph("Received by facilities ____________________  date __________", BODY)]
    template.build(story, canvasmaker=numbered_canvas(block))
    options.report(1.0)
    return count


def write_facility_csv(doc: Document, out: BinaryIO, options: ExportOptions | None = None) -> int:
    """One CSV of sections: a line naming the section, its header, its rows, a blank line. Returns
    the number of data rows."""
    options = options or ExportOptions()
    report = build_report(doc)
    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    writer = csv.writer(text)
    count = 0
    for key, _heading, (header, rows) in sections(report, raw, racks=True):
        writer.writerow([f"[{key}]"])
        writer.writerow(header)
        writer.writerows([sheet_text(v) for v in row] for row in rows)
        writer.writerow([])
        count += len(rows)
    text.flush()
    text.detach()
    options.report(1.0)
    return count
