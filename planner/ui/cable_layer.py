"""Cables on the plan, drawn as tray bundles: one line per tray segment, rail and tier, its
width growing with the number of cables in it, coloured by rail.

A 32k-GPU hall has 100k cables; one scene item each would make the plan unusable. This layer
is a single item: it routes every link once (``planner.fabric.routing.Router``), folds the
route polylines into segments keyed by (tier, rail, from, to) with a cable count, and paints
the visible tiers and rails with one ``drawLines`` call per pen. Each rail is offset a few
centimetres across the tray so the rails of one bundle lie side by side.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

from PySide6.QtCore import QLineF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from planner.commands.base import Change
from planner.fabric.routing import Router
from planner.model.document import prefix_of
from planner.model.objects import TIERS
from planner.ui.plan.units import m as to_scene
from planner.ui.session import DocumentSession

#: Rail colours (rail 1 … 8), chosen to stay apart on screen; rail 0 (spine-core) is grey.
RAIL_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#e377c2", "#8c564b"]
CORE_COLOUR = "#555555"
#: Offset between neighbouring rails across a tray, metres, and of the whole bundle from the
#: rack centre line (so rack names stay readable under it).
RAIL_OFFSET_M = 0.035
BUNDLE_OFFSET_M = 0.22
Z_CABLES = 50


def rail_colour(rail: int) -> QColor:
    return QColor(RAIL_COLOURS[(rail - 1) % len(RAIL_COLOURS)] if rail > 0 else CORE_COLOUR)


Segment = tuple[str, int, float, float, float, float]


def bundle_segments(router: Router, links) -> Counter:
    """Cable count per (tier, rail, x1, y1, x2, y2) tray segment, endpoints rounded to 1 cm."""
    counts: Counter = Counter()
    for link in links:
        _run, points = router.run(link.a_device, link.b_device)
        for (x1, y1), (x2, y2) in itertools.pairwise(points):
            if (x1, y1) == (x2, y2):
                continue
            a, b = (round(x1, 2), round(y1, 2)), (round(x2, 2), round(y2, 2))
            if b < a:
                a, b = b, a
            counts[(link.tier, link.rail, *a, *b)] += 1
    return counts


class CableLayer(QGraphicsItem):
    """All cables of the plan as aggregated tray bundles (a scene layer)."""

    def __init__(self, session: DocumentSession) -> None:
        super().__init__()
        self.session = session
        self.setZValue(Z_CABLES)
        self.tiers: set[str] = set(TIERS)
        self.rails: set[int] = set(range(9))
        self.segments: Counter = Counter()
        self._rect = QRectF()
        self._timer = QTimer()
        self._timer.setSingleShot(True)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.rebuild)
        session.changed.connect(self._on_change)
        session.reset.connect(self.rebuild)
        self.rebuild()

    def _on_change(self, change: Change) -> None:
        if any(prefix_of(i) in ("link", "rack", "dev") for i in change.touched):
            self._timer.start()

    def rebuild(self) -> None:
        doc = self.session.doc
        self.prepareGeometryChange()
        self.segments = bundle_segments(Router(doc), doc.links.values()) if doc.links else Counter()
        if self.segments:
            xs = [v for key in self.segments for v in (key[2], key[4])]
            ys = [v for key in self.segments for v in (key[3], key[5])]
            pad = BUNDLE_OFFSET_M + RAIL_OFFSET_M * 10
            self._rect = QRectF(to_scene(min(xs) - pad), to_scene(min(ys) - pad),
                                to_scene(max(xs) - min(xs) + 2 * pad), to_scene(max(ys) - min(ys) + 2 * pad))
        else:
            self._rect = QRectF()
        self.update()

    def set_tier_visible(self, tier: str, visible: bool) -> None:
        (self.tiers.add if visible else self.tiers.discard)(tier)
        self.update()

    def set_rail_visible(self, rail: int, visible: bool) -> None:
        (self.rails.add if visible else self.rails.discard)(rail)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def visible_counts(self) -> dict[int, int]:
        """Cable-segment totals per rail among the visible tiers and rails (for tests and legends)."""
        totals: dict[int, int] = defaultdict(int)
        for (tier, rail, *_xy), count in self.segments.items():
            if tier in self.tiers and rail in self.rails:
                totals[rail] += count
        return dict(totals)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        batches: dict[tuple[int, int], list[QLineF]] = defaultdict(list)
        offset, base = to_scene(RAIL_OFFSET_M), to_scene(BUNDLE_OFFSET_M)
        for (tier, rail, x1, y1, x2, y2), count in self.segments.items():
            if tier not in self.tiers or rail not in self.rails:
                continue
            shift = base + (rail if rail else 9) * offset
            horizontal = abs(y2 - y1) <= abs(x2 - x1)
            dx, dy = (0.0, shift) if horizontal else (shift, 0.0)
            width = 1 + int(math.log2(count))
            batches[(rail, width)].append(QLineF(to_scene(x1) + dx, to_scene(y1) + dy,
                                                 to_scene(x2) + dx, to_scene(y2) + dy))
        painter.setRenderHint(QPainter.Antialiasing, False)
        for (rail, width), lines in sorted(batches.items()):
            pen = QPen(rail_colour(rail), width)
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.FlatCap)
            painter.setPen(pen)
            painter.drawLines(lines)
