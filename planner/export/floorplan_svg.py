"""The floor plan as an SVG drawing at a true scale (1:100 by default), without Qt.

Dimensions are in millimetres of paper, so the file prints at its stated scale; user text is
cleaned of control characters (XML 1.0 forbids them) and XML-escaped, so names with < > & or
any script survive and the file always parses. Text is cut with "…": a name on a rack or unit
to what fits its box (0.6 em a character), any other text element to ``MAX_CHARS``.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape, quoteattr

from planner.export.common import ExportOptions, TitleBlock, clean_text, clip, one_line
from planner.export.plan_drawing import PlanShapes, plan_shapes, scale_bar_length
from planner.model.document import Document
from planner.model.objects import Point

MARGIN_M = 1.5
FOOTER_M = 2.2
CM_PER_M = 100  # user units are centimetres, so every size (text too) is a comfortable number
MAX_CHARS = 120
FIELD_CHARS = 60


def _n(metres: float) -> str:
    return f"{metres * CM_PER_M:.1f}"


def _points(points: list[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _text(x: float, y: float, text: str, size: float, anchor: str = "start", bold: bool = False,
          limit: int = MAX_CHARS) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="{anchor}"{weight}>'
            f"{escape(clip(one_line(text), limit))}</text>")


def render_svg(doc: Document, options: ExportOptions | None = None, scale: int = 100) -> str:
    """The plan as SVG text; 1 m on the floor is 1000/scale mm on paper."""
    options = options or ExportOptions()
    shapes: PlanShapes = plan_shapes(doc)
    mx0, my0, mx1, my1 = shapes.bounds
    vx, vy = mx0 - MARGIN_M, my0 - MARGIN_M
    vw, vh = (mx1 - mx0) + 2 * MARGIN_M, (my1 - my0) + 2 * MARGIN_M + FOOTER_M
    mm_per_m = 1000 / scale
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        (f'<svg xmlns="http://www.w3.org/2000/svg" width="{vw * mm_per_m:.1f}mm" height="{vh * mm_per_m:.1f}mm" '
        f'viewBox="{_n(vx)} {_n(vy)} {_n(vw)} {_n(vh)}" font-family="DejaVu Sans, sans-serif">'),
        f"<title>{escape(clip(one_line(f'Floor plan — {doc.meta.project} — {doc.meta.hall}'), MAX_CHARS))}</title>",
        f'<rect x="{_n(vx)}" y="{_n(vy)}" width="{_n(vw)}" height="{_n(vh)}" fill="white"/>',
    ]
    if shapes.outline:
        out.append(f'<polygon class="outline" points="{_points(shapes.outline)}" fill="none" stroke="black" '
                   'stroke-width="6"/>')
    for name, polygon, rating in shapes.zones:
        out.append(f'<polygon class="zone" points="{_points(polygon)}" fill="none" stroke="black" '
                   'stroke-width="2" stroke-dasharray="10 20"/>')
        out.append(_text(polygon[0][0] + 0.15, polygon[0][1] + 0.35, f"{clip(one_line(name), FIELD_CHARS)} {rating:g} kPa", 0.25))
    for polygon in shapes.obstacles:
        out.append(f'<polygon class="obstacle" points="{_points(polygon)}" fill="#999" stroke="black" '
                   'stroke-width="2"/>')
    for box in shapes.boxes:
        fill = "#eee" if box.kind == "rack" else "#ccc"
        out.append(f'<polygon class={quoteattr(clean_text(box.kind))} points="{_points(box.polygon)}" fill="{fill}" '
                   'stroke="black" stroke-width="2"/>')
        if box.front:
            (x1, y1), (x2, y2) = box.front
            out.append(f'<line class="front" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                       'stroke="black" stroke-width="6"/>')
        cx = sum(p[0] for p in box.polygon) / 4
        cy = sum(p[1] for p in box.polygon) / 4
        width = abs(box.polygon[2][0] - box.polygon[0][0])
        size = min(0.22, max(0.08, 1.6 * width / max(1, len(box.name))))
        fits = max(4, int(width / (0.6 * size)))
        out.append(_text(cx, cy - size / 4, box.name, size, "middle", bold=box.kind != "rack", limit=fits))
    for start, end in shapes.trays:
        out.append(f'<line class="tray" x1="{_n(start[0])}" y1="{_n(start[1])}" x2="{_n(end[0])}" y2="{_n(end[1])}" '
                   'stroke="#777" stroke-width="3" stroke-dasharray="30 15"/>')
    for name, p1, p2, side in shapes.busbars:
        dash = "" if side == "A" else ' stroke-dasharray="40 15"'
        width = 8 if side == "A" else 5
        out.append(f'<line class="busbar" x1="{_n(p1[0])}" y1="{_n(p1[1])}" x2="{_n(p2[0])}" y2="{_n(p2[1])}" '
                   f'stroke="black" stroke-width="{width}"{dash}/>')
        out.append(_text(p1[0] + 0.1, p1[1] - 0.06 if side == "A" else p1[1] + 0.22, name, 0.18))
    for row, start in shapes.rows:
        out.append(_text(start[0], start[1] - 0.3, f"Row {clip(one_line(row), FIELD_CHARS)}", 0.28, bold=True))
    out.extend(_footer(doc, options, shapes, scale, vx, my1 + MARGIN_M, vw))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _footer(doc: Document, options: ExportOptions, shapes: PlanShapes, scale: int, x0: float, y0: float,
            width: float) -> list[str]:
    mx0, _my0, mx1, _my1 = shapes.bounds
    bar = scale_bar_length(mx1 - mx0)
    x = x0 + MARGIN_M
    y = y0 + 0.3
    parts = [
        f'<g class="scale-bar"><rect x="{_n(x)}" y="{_n(y)}" width="{_n(bar / 2)}" height="{_n(0.15)}" fill="black"/>',
        (f'<rect x="{_n(x + bar / 2)}" y="{_n(y)}" width="{_n(bar / 2)}" height="{_n(0.15)}" fill="white" '
        'stroke="black" stroke-width="2"/>'),
        _text(x, y - 0.1, "0", 0.25),
        _text(x + bar, y - 0.1, f"{bar:g} m", 0.25, "middle"),
        _text(x + bar + 0.6, y + 0.15, f"Scale 1:{scale}", 0.25) + "</g>",
    ]
    nx = x0 + width - MARGIN_M
    parts.append(f'<g class="north-arrow"><polygon points="{_n(nx)},{_n(y - 0.6)} {_n(nx - 0.2)},{_n(y + 0.1)} '
                 f'{_n(nx + 0.2)},{_n(y + 0.1)}" fill="black"/>' + _text(nx, y + 0.45, "N", 0.3, "middle", True)
                 + "</g>")
    block = TitleBlock.of(doc, options, "Floor plan")
    facts = " · ".join(clip(one_line(fact), FIELD_CHARS) for fact in (
        block.project, block.hall, f"revision {block.revision}", block.date, block.author, block.file_name,
        "page 1 of 1"))
    parts.append(f'<g class="title-block">{_text(x, y + 1.0, block.title, 0.3, bold=True)}'
                 f"{_text(x, y + 1.45, facts, 0.25, limit=8 * FIELD_CHARS)}</g>")
    return parts


def write_svg(doc: Document, out: io.BufferedIOBase, options: ExportOptions | None = None) -> None:
    out.write(render_svg(doc, options).encode("utf-8"))
