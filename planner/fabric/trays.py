"""Cable tray fill (DESIGN §5 Cables): how much of each overhead tray's cross-section the
cables routed through it take up.

A cable between two racks runs along the row tray over its rack's row and crosses between
rows on a cross-aisle tray, and between pods along the pods' end trunks and the main trunk (the
routes of ``routing``; the trunks are cross-aisle trays in size). The fill of a tray at a point is the
summed cross-section π·(d/2)² of the cables passing that point, over the tray's usable
cross-section: width × fill depth × stacked levels, from the design basis (row trays and
cross-aisle trunk trays have their own sizes).

``TrayLoads`` keeps, per tray, a difference map: the cable area and count that enter and
leave the tray at each position along it (mm). It is fed the flows of ``bundles.CableBundles``
(cables counted per rack pair, laid along the pair's route): re-routing the cables of a moved
rack changes a few entries, a move that shifts a cross-aisle tray re-lays only the rack pairs
whose route it changed, and a tray's peak is one sweep over its positions, so live validation
stays incremental at 32k GPUs.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from planner.fabric.bundles import CableBundles, Flow, Route
from planner.fabric.routing import Router
from planner.model.basis import DesignBasis
from planner.model.document import Document
from planner.model.objects import Point

ROW, CROSS = "row", "cross"
_MM = 1000


class Tray(NamedTuple):
    """One straight tray line: its kind, the axis it runs along and its position across that axis
    (mm). A tuple, as it keys the loads of every cable."""

    kind: str
    axis: str
    across_mm: int

    @property
    def id(self) -> str:
        return f"tray:{self.kind}:{self.axis}:{self.across_mm}"

    @staticmethod
    def parse(tray_id: str) -> Tray:
        _, kind, axis, across = tray_id.split(":")
        return Tray(kind, axis, int(across))

    def point(self, along_mm: int) -> Point:
        """A plan point (m) on this tray."""
        along, across = along_mm / _MM, self.across_mm / _MM
        return (along, across) if self.axis == "x" else (across, along)

    def describe(self, row: str) -> str:
        """"Row 3 tray (y 5.40 m)" or "Cross-aisle tray at x 17.60 m"."""
        other = "y" if self.axis == "x" else "x"
        where = f"{other} {self.across_mm / _MM:.2f} m"
        if self.kind == ROW:
            return f"Row {row} tray ({where})" if row else f"Row tray at {where}"
        return f"Cross-aisle tray at {where}"


@dataclass(frozen=True)
class TraySpan:
    """A stretch of a tray between two places where cables join or leave it: cable area (mm²),
    cable count, and where (mm along the tray)."""

    area_mm2: float
    cables: int
    start_mm: int
    end_mm: int


EMPTY_SPAN = TraySpan(0.0, 0, 0, 0)


def capacity_mm2(basis: DesignBasis, kind: str) -> float:
    """Usable cross-section of a tray of this kind: width × fill depth × levels, in mm²."""
    if kind == ROW:
        return basis.row_tray_width_m * basis.row_tray_depth_m * basis.row_tray_levels * _MM * _MM
    return basis.cross_tray_width_m * basis.cross_tray_depth_m * basis.cross_tray_levels * _MM * _MM


def cable_area_mm2(diameter_mm: float) -> float:
    return math.pi * diameter_mm * diameter_mm / 4


@lru_cache(maxsize=1 << 16)
def _leg(kind: str, start: Point, end: Point) -> tuple[Tray, int, int] | None:
    """The tray and span (mm) of one straight piece of a route; None when it has no length.
    Kept: a moved rack's new routes share their legs (its row's tray, the trunks)."""
    (x1, y1), (x2, y2) = start, end
    # A rack set off its row's line still cables along the row tray: the leg runs along its
    # longer extent, on the line of the end nearer the origin whichever way the cable is listed.
    if abs(y1 - y2) <= abs(x1 - x2):
        tray, lo, hi = Tray(kind, "x", round(min(y1, y2) * _MM)), round(x1 * _MM), round(x2 * _MM)
    else:
        tray, lo, hi = Tray(kind, "y", round(min(x1, x2) * _MM)), round(y1 * _MM), round(y2 * _MM)
    if lo == hi:
        return None
    return tray, min(lo, hi), max(lo, hi)


def tray_legs(polyline: list[Point]) -> list[tuple[Tray, int, int]]:
    """The trays a routed cable occupies: along the row tray, across (between pods: up its pod's
    end trunk, along the main trunk, down the other pod's end trunk), along the other row tray."""
    if len(polyline) < 2:
        return []
    kinds = [ROW] if len(polyline) == 2 else [ROW, *[CROSS] * (len(polyline) - 3), ROW]
    legs = [_leg(kind, a, b) for kind, a, b in zip(kinds, polyline, polyline[1:])]
    return [leg for leg in legs if leg is not None]


Legs = tuple[tuple[Tray, int, int, str], ...]


class TrayLoads:
    """Per-tray cable loads of a document, kept up to date from the bundles' flows (see the
    module docstring).

    Areas are kept in integer µm² so that adding and removing cables in any order gives
    exactly the sums a fresh build gives.
    """

    def __init__(self, doc: Document, bundles: CableBundles | None = None) -> None:
        self.doc = doc
        self._areas = {m.key: round(cable_area_mm2(m.diameter_mm) * _MM * _MM) for m in doc.catalog.media.values()}
        self._marks: dict[Tray, dict[int, list[int]]] = {}
        self._rows: dict[Tray, Counter[str]] = {}
        self._legs: dict[Route, list] = {}
        bundles = bundles or CableBundles(doc, Router(doc))
        self.apply(bundles.flows(copied=False))

    def apply(self, flows: list[Flow]) -> set[str]:
        """Lay (and take off) the cables of ``flows`` (the bundles hold the data networks' cables
        alone: power cords and hoses stay in their rack); the ids of the trays whose load changed.

        The flows are summed leg by leg before a leg is laid: a moved rack's pairs share most of
        their legs (a row tray from the rack to its row's end, the trunks), and a rerouted pair's
        old and new routes share all but the legs at the moved end, so what is taken off and laid
        again on the same leg cancels and only the legs that changed are marked."""
        net: dict[tuple[Tray, int, int, str], list[int]] = {}
        for route, counts in flows:
            if not counts:
                continue
            area = sum(self._areas.get(media, 0) * n for (media, _tier, _rail), n in counts.items())
            cables = sum(counts.values())
            for leg in self._legs_of(route, cables):
                summed = net.get(leg)
                if summed is None:
                    net[leg] = [area, cables]
                else:
                    summed[0] += area
                    summed[1] += cables
        changed: set[Tray] = set()
        for leg, (area, cables) in net.items():
            if area or cables:
                self._load((leg,), area, cables)
                changed.add(leg[0])
        return {tray.id for tray in changed}

    def _legs_of(self, route: Route, cables: int) -> Legs:
        """The tray legs of a route, each with the row it serves; kept while cables lie along it."""
        entry = self._legs.get(route)
        if entry is None:
            points, rows = route
            legs = tuple((tray, lo, hi, rows[0] if i == 0 else rows[1])
                         for i, (tray, lo, hi) in enumerate(tray_legs(list(points))))
            entry = self._legs[route] = [legs, 0]
        entry[1] += cables
        if not entry[1]:
            del self._legs[route]
        return entry[0]

    def _load(self, legs: Legs, area: int, cables: int) -> None:
        """Add ``cables`` cables of total cross-section ``area`` along the legs (negative: take them off)."""
        all_rows = self._rows
        for tray, lo, hi, row in legs:
            self._mark(tray, lo, area, cables, cables)
            self._mark(tray, hi, -area, -cables, cables)
            rows = all_rows.get(tray)  # (get, not setdefault: no Counter made for every leg laid)
            if rows is None:
                rows = all_rows[tray] = Counter()
            rows[row] += cables
            if not rows[row]:
                del rows[row]
            if not rows:
                del all_rows[tray]
                del self._marks[tray]

    def _mark(self, tray: Tray, at_mm: int, area: int, count: int, ends: int) -> None:
        """Cable area and count stepping up or down at a position; ``ends`` counts the legs ending there."""
        marks = self._marks.get(tray)
        if marks is None:
            marks = self._marks[tray] = {}
        mark = marks.get(at_mm)
        if mark is None:
            mark = marks[at_mm] = [0, 0, 0]
        mark[0] += area
        mark[1] += count
        mark[2] += ends
        if not mark[2]:
            del marks[at_mm]

    def trays(self) -> list[str]:
        """Ids of the trays that carry at least one cable."""
        return [tray.id for tray in self._marks]

    def carries(self, tray_id: str) -> bool:
        return Tray.parse(tray_id) in self._marks

    def row_of(self, tray_id: str) -> str:
        """The row a row tray serves: the row most of its cables start or end in ("" for cross-aisle trays)."""
        tray = Tray.parse(tray_id)
        rows = self._rows.get(tray)
        if tray.kind != ROW or not rows:
            return ""
        return min(rows.items(), key=lambda kv: (-kv[1], kv[0]))[0]

    def spans(self, tray_id: str) -> Iterator[TraySpan]:
        """The tray's stretches in order along it, each with the cables it carries."""
        marks = self._marks.get(Tray.parse(tray_id), {})
        area = cables = 0
        positions = sorted(marks)
        for here, after in pairwise(positions):
            area += marks[here][0]
            cables += marks[here][1]
            yield TraySpan(area / (_MM * _MM), cables, here, after)

    def peak(self, tray_id: str) -> TraySpan:
        """The stretch with the most cable cross-section (the first one on a tie)."""
        return max(self.spans(tray_id), key=lambda s: s.area_mm2, default=EMPTY_SPAN)
