"""Cables on the plan, drawn as tray bundles: one line per tray segment, rail and tier, its
width growing with the number of cables in it, the compute fabric's coloured by rail, each other
data network in a colour and line pattern of its own (storage dashed, in-band dotted,
out-of-band dash-dot).

A 32k-GPU hall has 100k cables; one scene item each would make the plan unusable, and so would
re-routing them all after an edit. This layer is a single item fed by the validator's cable
bundles (``planner.fabric.bundles``): it folds each flow (a rack pair's route with cable counts
per tier and rail) into segments keyed by (tier, rail, from, to), so an edit changes the
segments of the rack pairs it re-routed and nothing else. Segments are kept in a batch per
(tier, rail, width); a paint draws the visible batches with one ``drawLines`` call each. Each
rail is offset a few centimetres across the tray so the rails of one bundle lie side by side.

Within a batch the segments of one tray overlap: every rack of a row has its own segment from
its drop to the row's end, so a batch of a 32k-GPU hall holds about ten times the tray length it
covers (113 km of lines over 12 km of tray). Drawn as they are, every pixel of a row's bundle was
painted ten times, and a dashed pen (storage, in-band, out-of-band) is rasterised dash by dash:
those three batches alone cost 15 ms of an 18 ms paint at 150 px/m. So each batch is drawn as
the union of its segments per *track* (the line of tray they lie on: one y for a run along x,
one x for a run along y), which covers the same pixels with the same pen, and draws each dashed
line's pattern once instead of ten overlapping copies of it. A track's union is worked out again
only when one of its segments changes batch, so an edit still costs what it touches.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from planner.fabric.bundles import Flow
from planner.model.networks import DATA_NETWORKS, TIERS_OF, network_of_tier
from planner.model.ports import COMPUTE, INBAND, OOB, STORAGE_NET
from planner.rules.context import Context
from planner.ui.plan.units import BUNDLE_OFFSET_M, RAIL_OFFSET_M
from planner.ui.plan.units import m as to_scene

#: Rail colours (rail 1 … 8), chosen to stay apart on screen; rail 0 (spine-core) is grey.
RAIL_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#e377c2", "#8c564b"]
CORE_COLOUR = "#555555"
#: The other data networks: a colour of their own and a line pattern, so they read apart from
#: the rails on screen and on a black-and-white print of it (rail colours are solid lines).
NETWORK_STYLES = {
    STORAGE_NET: ("#b8860b", Qt.PenStyle.DashLine),
    INBAND: ("#2e8b57", Qt.PenStyle.DotLine),
    OOB: ("#6a5acd", Qt.PenStyle.DashDotLine),
}
#: The tiers drawn: every data network's (power cords and hoses stay in the rack).
DRAWN_TIERS = frozenset(tier for network in DATA_NETWORKS for tier in TIERS_OF[network])
Z_CABLES = 50
#: Around a changed stretch, how much more to repaint: half the widest bundle pen (17 px) at the
#: plan's fit zoom of a 32k-GPU hall (about 8 px/m), rounded up.
REPAINT_MARGIN_M = 1.5

#: Where a segment is drawn across the tray (scene units): the bundle's offset from the rack
#: centre line, and each rail's further offset.
_BUNDLE_OFFSET, _RAIL_OFFSET = to_scene(BUNDLE_OFFSET_M), to_scene(RAIL_OFFSET_M)

#: (tier, rail, x1, y1, x2, y2): one stretch of tray in metres, endpoints rounded to 1 cm.
Segment = tuple[str, int, float, float, float, float]
Batch = tuple[str, int, int]
#: The line of tray a segment lies on, within its batch: ("x", y) for a run along x, ("y", x) for
#: one along y; a slanted segment is a track of its own (its key).
Track = tuple[str, float] | Segment


def rail_colour(rail: int) -> QColor:
    return QColor(RAIL_COLOURS[(rail - 1) % len(RAIL_COLOURS)] if rail > 0 else CORE_COLOUR)


def _width(count: int) -> int:
    return 1 + int(math.log2(count))


def _track(key: Segment) -> Track:
    _tier, _rail, x1, y1, x2, y2 = key
    if y1 == y2:
        return ("x", y1)
    if x1 == x2:
        return ("y", x1)
    return key


def _union(batch: Batch, track: Track, keys: set[Segment]) -> list[QLineF]:
    """The lines that draw a track's segments: their overlapping or touching spans joined."""
    if len(track) != 2:
        return [CableLayer._line(next(iter(keys)))]
    along_x, at = track[0] == "x", float(track[1])
    spans = sorted((k[2], k[4]) if along_x else (k[3], k[5]) for k in keys)
    joined: list[list[float]] = []
    for start, end in spans:  # sorted by start: a span joins the last one it reaches
        if joined and start <= joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], end)
        else:
            joined.append([start, end])
    tier, rail, _pen = batch
    return [CableLayer._line((tier, rail, a, at, b, at) if along_x else (tier, rail, at, a, at, b))
            for a, b in joined]


class CableLayer(QGraphicsItem):
    """All cables of the plan as aggregated tray bundles (a scene layer)."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_CABLES)
        self.tiers: set[str] = set(DRAWN_TIERS)
        self.rails: set[int] = set(range(9))
        self.segments: Counter[Segment] = Counter()
        #: The segments of each batch by track, each track's lines (its union) and the tracks
        #: whose lines are out of date; a batch's lines as drawn, all its tracks' in one list.
        self._members: dict[Batch, dict[Track, set[Segment]]] = defaultdict(lambda: defaultdict(set))
        self._merged: dict[Batch, dict[Track, list[QLineF]]] = defaultdict(dict)
        self._stale: dict[Batch, set[Track]] = defaultdict(set)
        self._drawn: dict[Batch, list[QLineF]] = {}
        self._rect = QRectF()
        self._context: Context | None = None

    def follow(self, context: Context) -> None:
        """Draw the bundles of this validation context (a new one comes with every opened plan)."""
        if context is not self._context:
            self._context = context
            context.watch_routes(self._apply)

    def _apply(self, flows: list[Flow], fresh: bool) -> None:
        if fresh:
            self.segments.clear()
            for kept in (self._members, self._merged, self._stale, self._drawn):
                kept.clear()
        touched: dict[Segment, int] = {}
        segments = self.segments
        # get, not a Counter's [], which calls __missing__ for each new key (600 a network rack edit)
        count_of = segments.get
        for (points, _rows), counts in flows:
            cables = [(tier, rail, n) for (_media, tier, rail), n in counts.items()]
            for (x1, y1), (x2, y2) in itertools.pairwise(points):
                a, b = (round(x1, 2), round(y1, 2)), (round(x2, 2), round(y2, 2))
                if a == b:
                    continue
                if b < a:
                    a, b = b, a
                for tier, rail, n in cables:
                    key = (tier, rail, *a, *b)
                    before = count_of(key, 0)
                    touched.setdefault(key, before)
                    segments[key] = before + n
        for key, before in touched.items():
            self._restyle(key, before, segments[key])
        self._update_rect(fresh, touched)
        if fresh:
            self.update()
        elif touched:
            self.update(self._area(touched))

    def _restyle(self, key: Segment, before: int, after: int) -> None:
        """Move a segment to the batch of its new width (or drop it with its last cable); its
        track's lines in both batches are made again at the next paint."""
        old_width = _width(before) if before > 0 else 0
        new_width = _width(after) if after > 0 else 0
        if after <= 0:
            del self.segments[key]
        if old_width == new_width:
            return
        old = (key[0], key[1], old_width) if old_width else None
        new = (key[0], key[1], new_width) if new_width else None
        track = _track(key)
        if old:
            tracks = self._members[old]
            tracks[track].discard(key)
            if not tracks[track]:
                del tracks[track]
            if tracks:
                self._stale[old].add(track)
            else:  # the batch's last segment: nothing of it is drawn any more
                for kept in (self._members, self._merged, self._stale):
                    kept.pop(old, None)
            self._drawn.pop(old, None)
        if new:
            self._members[new][track].add(key)
            self._stale[new].add(track)
            self._drawn.pop(new, None)

    def _batch_lines(self, batch: Batch) -> list[QLineF]:
        """A batch's lines: the union of each track, made again only for its stale tracks."""
        tracks, merged = self._members[batch], self._merged[batch]
        for track in self._stale.pop(batch, ()):
            if track in tracks:
                merged[track] = _union(batch, track, tracks[track])
            else:
                merged.pop(track, None)
        return list(itertools.chain.from_iterable(merged.values()))

    @staticmethod
    def _ends(key: Segment) -> tuple[float, float, float, float]:
        """Where a segment is drawn (scene units): its rail's place across the tray."""
        _tier, rail, x1, y1, x2, y2 = key
        shift = _BUNDLE_OFFSET + (rail if rail else 9) * _RAIL_OFFSET
        dx, dy = (0.0, shift) if abs(y2 - y1) <= abs(x2 - x1) else (shift, 0.0)
        return to_scene(x1) + dx, to_scene(y1) + dy, to_scene(x2) + dx, to_scene(y2) + dy

    @staticmethod
    def _line(key: Segment) -> QLineF:
        return QLineF(*CableLayer._ends(key))

    @staticmethod
    def _area(keys: dict[Segment, int]) -> QRectF:
        """Where the touched segments are drawn, widened by the widest cosmetic pen at the
        smallest zoom (a repaint of that stretch only, not of the whole plan): the box around
        their lines' ends, in plain numbers (a QLineF and a QRectF per segment cost 3 ms an edit
        of a network rack)."""
        pad = to_scene(REPAINT_MARGIN_M)
        if not keys:
            return QRectF().adjusted(-pad, -pad, pad, pad)
        x1s, y1s, x2s, y2s = zip(*map(CableLayer._ends, keys), strict=True)
        left, right = min(min(x1s), min(x2s)), max(max(x1s), max(x2s))
        top, bottom = min(min(y1s), min(y2s)), max(max(y1s), max(y2s))
        return QRectF(left - pad, top - pad, right - left + 2 * pad, bottom - top + 2 * pad)

    def _update_rect(self, fresh: bool, touched: dict[Segment, int]) -> None:
        """The bounding rectangle grows with new segments (and is made anew from a fresh build)."""
        keys = self.segments if fresh else touched
        if not keys:
            return
        xs = [v for key in keys for v in (key[2], key[4])]
        ys = [v for key in keys for v in (key[3], key[5])]
        pad = BUNDLE_OFFSET_M + RAIL_OFFSET_M * 10
        rect = QRectF(to_scene(min(xs) - pad), to_scene(min(ys) - pad),
                      to_scene(max(xs) - min(xs) + 2 * pad), to_scene(max(ys) - min(ys) + 2 * pad))
        rect = rect if fresh else self._rect.united(rect)
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect

    def set_tier_visible(self, tier: str, visible: bool) -> None:
        (self.tiers.add if visible else self.tiers.discard)(tier)
        self.update()

    def set_network_visible(self, network: str, visible: bool) -> None:
        """Show or hide every tier of a network (View ▸ Cables ▸ Network …)."""
        for tier in TIERS_OF[network]:
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

    def drawn_lines(self) -> dict[Batch, list[QLineF]]:
        """The lines each batch draws, as the next paint will draw them (for tests)."""
        for batch in self._members:
            if batch not in self._drawn:
                self._drawn[batch] = self._batch_lines(batch)
        return {batch: self._drawn[batch] for batch in self._members}

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        for batch in sorted(self._members, key=lambda b: (b[1], b[2], b[0])):
            tier, rail, width = batch
            if tier not in self.tiers or rail not in self.rails:
                continue
            lines = self._drawn.get(batch)
            if lines is None:
                lines = self._drawn[batch] = self._batch_lines(batch)
            network = network_of_tier(tier)
            if network == COMPUTE:
                pen = QPen(rail_colour(rail), width)
            else:
                colour, style = NETWORK_STYLES[network]
                pen = QPen(QColor(colour), width)
                pen.setStyle(style)
            pen.setCosmetic(True)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            painter.setPen(pen)
            painter.drawLines(lines)
