"""The floor plan as an SVG drawing at a true scale (1:100 by default), without Qt.

Dimensions are in millimetres of paper, so the file prints at its stated scale; user text is
cleaned of control characters (XML 1.0 forbids them) and XML-escaped, so names with < > & or
any script survive and the file always parses. The labels on the drawing (rack and unit names,
row, busbar and zone labels) are placed as on the PDFs (``svg_labels``, through
``label_placer``): none overlaps another, the tray and busbar lines have gaps where they would
run under one, a unit's name beside its box has a leader line; a rack name that does not fit its
box at 6 pt is cut ("…") to it, zone, row and busbar names to 40 characters, any other text
element to ``MAX_CHARS``.

``render_svg`` is the whole plan as one drawing (a 90 m hall is a 900 mm sheet at 1:100);
``svg_sheets`` is the same drawing on paper-sized sheets at the same scale, with a key plan, for
a hall that does not fit one sheet of the plan's paper: cut as the PDFs' floor plans are, each
rack named on the one sheet that holds it whole.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from planner.export.options import ExportOptions, page_size
from planner.export.pages import MM, TitleBlock
from planner.export.plan_drawing import PlanShapes, Window, plan_shapes
from planner.export.plan_sheets import Sheet, sheet_grid
from planner.export.printed_text import clip, one_line
from planner.export.scale_bar import scale_bar_length
from planner.export.sheet_text import clean_text
from planner.export.svg_labels import CM_PER_M, Frame, Line, gaps, place_labels
from planner.export.svg_labels import cm as _n
from planner.model.document import Document
from planner.model.geometry import segment_span
from planner.model.objects import Point

MARGIN_M = 1.5
FOOTER_M = 2.2
MAX_CHARS = 120
FIELD_CHARS = 60
#: A sheet's margin round its drawing, in metres at 1:100 (10 mm of paper).
SHEET_MARGIN_M = 1.0
#: How far beyond the plan's bounds the one drawing's labels may go (metres; its margin is 1.5 m).
LABEL_ROOM_M = 1.0


def _points(points: list[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _text(x: float, y: float, text: str, size: float, anchor: str = "start", bold: bool = False,
          limit: int = MAX_CHARS) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}"{weight}>'
            f"{escape(clip(one_line(text), limit))}</text>")


def _clip_polygon(points: list[Point], window: Window | None) -> list[Point]:
    """The polygon cut to ``window`` (Sutherland–Hodgman; the polygon itself without one): a
    sheet draws only its own part of the floor, in any SVG viewer (SVG Tiny has no clip paths)."""
    if window is None:
        return points
    x0, y0, x1, y1 = window
    edges = ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False))
    for axis, limit, low in edges:
        kept: list[Point] = []
        for index, point in enumerate(points):
            before = points[index - 1]
            inside = (point[axis] >= limit) if low else (point[axis] <= limit)
            was = (before[axis] >= limit) if low else (before[axis] <= limit)
            if inside != was:
                t = (limit - before[axis]) / (point[axis] - before[axis])
                kept.append((before[0] + (point[0] - before[0]) * t, before[1] + (point[1] - before[1]) * t))
            if inside:
                kept.append(point)
        points = kept
        if not points:
            break
    return points


def _clip_line(start: Point, end: Point, window: Window | None) -> tuple[Point, Point] | None:
    """The part of the line inside ``window`` (the line without one), None if none is."""
    if window is None:
        return start, end
    span = segment_span((*start, *end), window)
    if span is None or span[1] - span[0] <= 1e-9:
        return None
    t0, t1 = span
    at = [(start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t) for t in (t0, t1)]
    return at[0], at[1]


def _drawing(shapes: PlanShapes, window: Window | None = None, names: bool = True, scale: float = 100) -> list[str]:
    """The plan's elements at 1:``scale``; with ``window`` (a sheet), only its part of them, and a
    name only on the sheet that holds its box whole, a row label on the sheet its row starts on;
    without ``names`` (a key plan) no labels at all. Labels are placed by ``svg_labels`` (none
    over another, leaders where a name sits beside its box), and the tray and busbar lines are
    drawn with gaps where they would run under a label."""
    out = []
    if shapes.outline:  # on a sheet, the walls inside it: its cut edges are match lines, not walls
        out += [(f'<polygon class="outline" points="{_points(shapes.outline)}" fill="none" stroke="black" '
                 'stroke-width="6"/>')] if window is None else \
            [_line("outline", a, b, 'stroke="black" stroke-width="6"') for a, b in _edges(shapes.outline, window)]
    for _name, polygon, _rating in shapes.zones:
        zone_style = 'stroke="black" stroke-width="2" stroke-dasharray="10 20"'
        out += [f'<polygon class="zone" points="{_points(polygon)}" fill="none" {zone_style}/>'] if window is None \
            else [_line("zone", a, b, zone_style) for a, b in _edges(polygon, window)]
    for polygon in shapes.obstacles:
        if (cut := _clip_polygon(polygon, window)):
            out.append(f'<polygon class="obstacle" points="{_points(cut)}" fill="#999" stroke="black" '
                       'stroke-width="2"/>')
    for box in shapes.boxes:
        cut = _clip_polygon(box.polygon, window)
        if len(cut) < 3:
            continue
        fill = "#eee" if box.kind == "rack" else "#ccc"
        out.append(f'<polygon class={quoteattr(clean_text(box.kind))} points="{_points(cut)}" fill="{fill}" '
                   'stroke="black" stroke-width="2"/>')
        if box.front and (front := _clip_line(*box.front, window)):
            out.append(_line("front", *front, 'stroke="black" stroke-width="6"'))
    lines = [Line("tray", *tray, 'stroke="#777" stroke-width="3" stroke-dasharray="30 15"', 1.5 / CM_PER_M)
             for start, end in shapes.trays if (tray := _clip_line(start, end, window))]
    for index, (_name, p1, p2, side) in enumerate(shapes.busbars):
        if (bus := _clip_line(p1, p2, window)):
            width = 8 if side == "A" else 5
            dash = "" if side == "A" else ' stroke-dasharray="40 15"'
            lines.append(Line("busbar", *bus, f'stroke="black" stroke-width="{width}"{dash}', width / 2 / CM_PER_M,
                              index))
    if not names:
        return out + [_line(line.kind, line.start, line.end, line.style) for line in lines]
    frame = Frame.at(scale)
    mx0, my0, mx1, my1 = shapes.bounds
    area = window or (mx0 - LABEL_ROOM_M, my0 - LABEL_ROOM_M, mx1 + LABEL_ROOM_M, my1 + LABEL_ROOM_M)
    labels = place_labels(shapes, frame, area, window, lines)
    for line in lines:
        out += [_line(line.kind, a, b, line.style) for a, b in gaps(frame, labels.placer, line)]
    return out + labels.elements


def _line(kind: str, start: Point, end: Point, style: str) -> str:
    return (f'<line class="{kind}" x1="{_n(start[0])}" y1="{_n(start[1])}" x2="{_n(end[0])}" y2="{_n(end[1])}" '
            f"{style}/>")


def _edges(polygon: list[Point], window: Window | None) -> list[tuple[Point, Point]]:
    """The polygon's sides, each cut to ``window``."""
    sides = [(polygon[i - 1], polygon[i]) for i in range(len(polygon))] if len(polygon) > 1 else []
    return [cut for a, b in sides if (cut := _clip_line(a, b, window)) is not None]


def render_svg(doc: Document, options: ExportOptions | None = None, scale: int = 100) -> str:
    """The plan as SVG text; 1 m on the floor is 1000/scale mm on paper."""
    options = options or ExportOptions()
    shapes: PlanShapes = plan_shapes(doc)
    mx0, my0, mx1, my1 = shapes.bounds
    vx, vy = mx0 - MARGIN_M, my0 - MARGIN_M
    vw, vh = (mx1 - mx0) + 2 * MARGIN_M, (my1 - my0) + 2 * MARGIN_M + FOOTER_M
    out = _head(doc, f"Floor plan — {doc.meta.project} — {doc.meta.hall}", (vx, vy, vw, vh), 1000 / scale)
    out.extend(_drawing(shapes, scale=scale))
    out.extend(_footer(doc, options, shapes.bounds, scale, vx, my1 + MARGIN_M, vw))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _head(doc: Document, title: str, view: tuple[float, float, float, float], mm_per_m: float) -> list[str]:
    vx, vy, vw, vh = view
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (f'<svg xmlns="http://www.w3.org/2000/svg" width="{vw * mm_per_m:.1f}mm" height="{vh * mm_per_m:.1f}mm" '
         f'viewBox="{_n(vx)} {_n(vy)} {_n(vw)} {_n(vh)}" font-family="DejaVu Sans, sans-serif">'),
        f"<title>{escape(clip(one_line(title), MAX_CHARS))}</title>",
        f'<rect x="{_n(vx)}" y="{_n(vy)}" width="{_n(vw)}" height="{_n(vh)}" fill="white"/>',
    ]


def _footer(doc: Document, options: ExportOptions, bounds: Window, scale: float, x0: float, y0: float,
            width: float, page: str = "page 1 of 1", title: str = "Floor plan") -> list[str]:
    """Scale bar, north arrow and title block under the drawing, sized for paper at 1:``scale``."""
    k = scale / 100  # the sizes below are metres of floor at 1:100
    mx0, _my0, mx1, _my1 = bounds
    bar = scale_bar_length(mx1 - mx0)
    x = x0 + MARGIN_M * k
    y = y0 + 0.3 * k
    line = f"{2 * k:g}"
    parts = [
        (f'<g class="scale-bar"><rect x="{_n(x)}" y="{_n(y)}" width="{_n(bar / 2)}" height="{_n(0.15 * k)}" '
         'fill="black"/>'),
        (f'<rect x="{_n(x + bar / 2)}" y="{_n(y)}" width="{_n(bar / 2)}" height="{_n(0.15 * k)}" fill="white" '
         f'stroke="black" stroke-width="{line}"/>'),
        _text(x, y - 0.1 * k, "0", 0.25 * k),
        _text(x + bar, y - 0.1 * k, f"{bar:g} m", 0.25 * k, "middle"),
        _text(x + bar + 0.6 * k, y + 0.15 * k, f"Scale 1:{scale:,.0f}", 0.25 * k) + "</g>",
    ]
    nx = x0 + width - MARGIN_M * k
    parts.append(f'<g class="north-arrow"><polygon points="{_n(nx)},{_n(y - 0.6 * k)} {_n(nx - 0.2 * k)},'
                 f'{_n(y + 0.1 * k)} {_n(nx + 0.2 * k)},{_n(y + 0.1 * k)}" fill="black"/>'
                 + _text(nx, y + 0.45 * k, "N", 0.3 * k, "middle", True) + "</g>")
    block = TitleBlock.of(doc, options, title)
    facts = " · ".join(clip(one_line(fact), FIELD_CHARS) for fact in (
        block.project, block.hall, f"revision {block.revision}", block.date, block.author, block.file_name, page)
        if fact.strip())
    parts.append(f'<g class="title-block">{_text(x, y + 1.0 * k, block.title, 0.3 * k, bold=True)}'
                 f"{_text(x, y + 1.45 * k, facts, 0.25 * k, limit=8 * FIELD_CHARS)}</g>")
    return parts


def write_svg(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> None:
    out.write(render_svg(doc, options).encode("utf-8"))


# --------------------------------------------------------------- the plan on sheets
def _paper_m(doc: Document, options: ExportOptions, scale: float) -> tuple[float, float]:
    """The paper (landscape, the plan's or the options' size) in metres of floor at ``scale``."""
    width_pt, height_pt = page_size(doc, options, wide=True)
    return width_pt / MM * scale / 1000, height_pt / MM * scale / 1000


def svg_sheets(doc: Document, options: ExportOptions | None = None, scale: int = 100) -> list[tuple[str, str]]:
    """The plan on paper-sized SVG sheets at 1:``scale`` (where every rack name prints whole, as
    on the one drawing): ``[(file name, SVG text)]``, a key plan first when the plan needs more
    than one sheet, then one sheet per block of rows (and columns), cut as the PDFs' floor plans
    are (``plan_sheets.sheet_grid``), each with match lines naming its neighbours."""
    options = options or ExportOptions()
    shapes = plan_shapes(doc)
    paper_w, paper_h = _paper_m(doc, options, scale)
    edge = 0.6 * scale / 100  # room beside the window for the match-line notes (6 mm)
    room_w, room_h = paper_w - 2 * (SHEET_MARGIN_M * scale / 100 + edge), \
        paper_h - 2 * (SHEET_MARGIN_M * scale / 100 + edge) - FOOTER_M * scale / 100
    sheets = sheet_grid(shapes, room_w, room_h)
    if len(sheets) == 1:
        return [("floor-plan.svg", render_svg(doc, options, scale))]
    files = [("key-plan.svg", _key_plan(doc, options, shapes, sheets))]
    for sheet in sheets:
        files.append((f"sheet-{sheet.number:02d}.svg", _sheet(doc, options, shapes, sheet, len(sheets), scale,
                                                              (paper_w, paper_h), edge)))
    return files


def write_svg_sheets(doc: Document, folder: Path, options: ExportOptions | None = None) -> list[Path]:
    """Write ``svg_sheets`` into ``folder`` (made if missing); the paths written, in order."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    files = svg_sheets(doc, options)
    for name, text in files:
        (folder / name).write_text(text, encoding="utf-8")
        written.append(folder / name)
    what = "one drawing" if len(files) == 1 else f"a key plan and {len(files) - 1} sheets"
    lines = [f"Floor plan of {clean_text(doc.meta.project)}, {clean_text(doc.meta.hall)}, at 1:100 as {what}.",
             "Each sheet names its neighbours at its match lines; the key plan shows the sheet grid.", ""]
    lines += [name for name, _text in files]
    (folder / "README.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    options = options or ExportOptions()
    options.report(1.0)
    return written


def _sheet(doc: Document, options: ExportOptions, shapes: PlanShapes, sheet: Sheet, count: int, scale: int,
           paper: tuple[float, float], edge: float) -> str:
    x0, y0, x1, y1 = sheet.window
    margin = SHEET_MARGIN_M * scale / 100
    vx, vy = x0 - margin - edge, y0 - margin - edge
    out = _head(doc, f"Floor plan — {doc.meta.project} — {doc.meta.hall} — {sheet.title()}", (vx, vy, *paper),
                1000 / scale)
    out.extend(_drawing(shapes, sheet.window, scale=scale))
    size = 0.25 * scale / 100
    gap = 0.4 * size  # the note's baseline off the line (its descenders clear of it)
    lines = {"north": ((x0, y0), (x1, y0), ((x0 + x1) / 2, y0 - gap, 0)),
             "south": ((x0, y1), (x1, y1), ((x0 + x1) / 2, y1 + gap + 0.8 * size, 0)),
             "west": ((x0, y0), (x0, y1), (x0 - gap, (y0 + y1) / 2, -90)),
             "east": ((x1, y0), (x1, y1), (x1 + gap, (y0 + y1) / 2, 90))}
    for edge_name, ((ax, ay), (bx, by), (tx, ty, turn)) in lines.items():
        if edge_name not in sheet.neighbours:
            continue
        note = escape(f"{edge_name}: match line, continues on sheet {sheet.neighbours[edge_name]}")
        turned = f' transform="rotate({turn} {_n(tx)} {_n(ty)})"' if turn else ""
        out.append(f'<g class="match-line"><line x1="{_n(ax)}" y1="{_n(ay)}" x2="{_n(bx)}" y2="{_n(by)}" '
                   'stroke="black" stroke-width="5" stroke-dasharray="60 12 12 12"/>'
                   f'<text x="{_n(tx)}" y="{_n(ty)}" font-size="{_n(size)}" font-weight="bold" text-anchor="middle"'
                   f"{turned}>{note}</text></g>")
    out.extend(_footer(doc, options, sheet.window, scale, vx, y1 + edge, paper[0], f"sheet {sheet.number} of {count}",
                       f"Floor plan · {sheet.title()}"))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _key_plan(doc: Document, options: ExportOptions, shapes: PlanShapes, sheets: list[Sheet]) -> str:
    """The whole plan on one sheet of paper at the usual scale that fits it, racks unnamed, with
    each sheet's outline and number."""
    mx0, my0, mx1, my1 = shapes.bounds
    paper_mm = [side / MM for side in page_size(doc, options, wide=True)]
    room_mm = (paper_mm[0] - 2 * SHEET_MARGIN_M * 10, paper_mm[1] - 2 * SHEET_MARGIN_M * 10 - FOOTER_M * 10)
    fit = max((mx1 - mx0) / (room_mm[0] / 1000), (my1 - my0) / (room_mm[1] / 1000))
    ratio = max(100, math.ceil(fit / 50) * 50)  # 1:550: a key plan is for finding a sheet, not for measuring
    paper = (paper_mm[0] * ratio / 1000, paper_mm[1] * ratio / 1000)
    margin = SHEET_MARGIN_M * ratio / 100
    vx, vy = mx0 - margin, my0 - margin
    out = _head(doc, f"Key plan — {doc.meta.project} — {doc.meta.hall}", (vx, vy, *paper), 1000 / ratio)
    out.extend(_drawing(shapes, names=False))
    for sheet in sheets:
        x0, y0, x1, y1 = sheet.window
        title = f"Sheet {sheet.number}"
        size = min(4.2 * ratio / 1000, (x1 - x0) * 0.8 / (0.62 * len(title)), (y1 - y0) / 2)  # 4.2 mm: 12 pt
        out.append(f'<g class="sheet"><rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}" '
                   f'fill="none" stroke="black" stroke-width="{_n(0.5 * ratio / 1000)}" '
                   f'stroke-dasharray="{_n(3 * ratio / 1000)} {_n(1 * ratio / 1000)}"/>'
                   f"{_text((x0 + x1) / 2, (y0 + y1) / 2 + size / 3, title, size, 'middle', bold=True)}</g>")
    out.extend(_footer(doc, options, shapes.bounds, ratio, vx, my1 + margin, paper[0],
                       f"key plan of {len(sheets)} sheets", "Key plan"))
    out.append("</svg>")
    return "\n".join(out) + "\n"
