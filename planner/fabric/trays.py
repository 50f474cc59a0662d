"""Cable tray fill (DESIGN §5 Cables): how much of each overhead tray's cross-section the
cables routed through it take up.

A cable between two racks runs along the row tray over its rack's row and crosses between
rows on a cross-aisle tray (the routes of ``routing``). The fill of a tray at a point is the
summed cross-section π·(d/2)² of the cables passing that point, over the tray's usable
cross-section: width × fill depth × stacked levels, from the design basis (row trays and
cross-aisle trunk trays have their own sizes).

``TrayLoads`` keeps, per tray, a difference map: the cable area and count that enter and
leave the tray at each position along it (mm). Re-routing the cables of a moved rack changes
a few entries, and a tray's peak is one sweep over its positions, so live validation stays
incremental at 32k GPUs. When a move shifts where the cross-aisle trays run, every route may
change: the loads are laid again from bundles (the cables between one pair of racks with one
cross-section), one route per rack pair.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import NamedTuple

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


def _leg(kind: str, start: Point, end: Point) -> tuple[Tray, int, int] | None:
    """The tray and span (mm) of one straight piece of a route; None when it has no length."""
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
    """The trays a routed cable occupies: along the row tray, across, along the other row tray."""
    if len(polyline) < 2:
        return []
    kinds = [ROW] if len(polyline) == 2 else [ROW, CROSS, ROW]
    legs = [_leg(kind, a, b) for kind, a, b in zip(kinds, polyline, polyline[1:])]
    return [leg for leg in legs if leg is not None]


Legs = tuple[tuple[Tray, int, int, str], ...]
#: Cables that share a route and a cross-section: (source rack, destination rack), area in µm².
Bundle = tuple[tuple[str, str], int]


class TrayLoads:
    """Per-tray cable loads of a document, updated link by link (see the module docstring).

    Cables are counted in bundles of one rack pair and one cross-section, so when the
    cross-aisle trays move only the paths of the rack pairs are routed again, not every cable.
    Areas are kept in integer µm² so that adding and removing cables in any order gives
    exactly the sums a fresh build gives.
    """

    def __init__(self, doc: Document, router: Router | None = None) -> None:
        self.doc = doc
        router = router or Router(doc)
        self._areas = {m.key: round(cable_area_mm2(m.diameter_mm) * _MM * _MM) for m in doc.catalog.media.values()}
        self._bundle_of: dict[str, Bundle] = {}
        self._bundles: Counter[Bundle] = Counter()
        self._pair_links: Counter[tuple[str, str]] = Counter()
        self._paths: dict[tuple[str, str], Legs] = {}
        for link_id in doc.links:
            self._assign(router, link_id)
        self._load_all(router)

    def _load_all(self, router: Router) -> None:
        """Lay every bundle into the trays along the router's paths."""
        self._paths = {}
        self._marks: dict[Tray, dict[int, list[int]]] = {}
        self._rows: dict[Tray, Counter[str]] = {}
        self.crossings = (tuple(router.cross_x), tuple(router.cross_y))
        for (racks, area), count in self._bundles.items():
            self._load(self._path(router, racks), area, count)

    def update(self, router: Router, link_ids: Iterable[str]) -> set[str]:
        """Re-route ``link_ids``: every link added, changed or removed, and every link of a rack
        that moved. Returns the ids of the trays whose load changed."""
        link_ids = list(link_ids)
        loaded = set(self.trays())
        before: dict[str, tuple[Legs, int]] = {}
        for link_id in link_ids:  # off the trays along the paths they were laid with
            bundle = self._bundle_of.pop(link_id, None)
            if bundle is None:
                continue
            before[link_id] = (self._paths[bundle[0]], bundle[1])
            self._load(*before[link_id], -1)
            self._count(bundle, -1)
        if (tuple(router.cross_x), tuple(router.cross_y)) != self.crossings:
            for link_id in link_ids:
                self._assign(router, link_id)
            self._load_all(router)
            return loaded | set(self.trays())
        changed: set[Tray] = set()
        for link_id in link_ids:
            bundle = self._assign(router, link_id)
            after = (self._path(router, bundle[0]), bundle[1]) if bundle else ((), 0)
            if after[0]:
                self._load(*after, 1)
            if after != before.get(link_id, ((), 0)):
                changed.update(leg[0] for leg in before.get(link_id, ((), 0))[0])
                changed.update(leg[0] for leg in after[0])
        return {tray.id for tray in changed}

    def _count(self, bundle: Bundle, count: int) -> None:
        """Add to (or take from) a bundle's cable count; a rack pair no cable uses any more
        forgets its path, as one of its racks may have moved."""
        self._bundles[bundle] += count
        if not self._bundles[bundle]:
            del self._bundles[bundle]
        racks = bundle[0]
        self._pair_links[racks] += count
        if not self._pair_links[racks]:
            del self._pair_links[racks]
            self._paths.pop(racks, None)

    def _assign(self, router: Router, link_id: str) -> Bundle | None:
        """Count a link in its bundle; None when it is not in the plan or an end is missing."""
        link = self.doc.links.get(link_id)
        devices = router.devices
        if link is None or link.a_device not in devices or link.b_device not in devices:
            return None
        bundle = ((devices[link.a_device].rack, devices[link.b_device].rack), self._areas.get(link.media, 0))
        self._bundle_of[link_id] = bundle
        self._count(bundle, 1)
        return bundle

    def _load(self, placed: Legs, area: int, count: int) -> None:
        """Add ``count`` cables of one path and area to the trays (a negative count takes them off)."""
        for tray, lo, hi, row in placed:
            self._mark(tray, lo, area * count, count, count)
            self._mark(tray, hi, -area * count, -count, count)
            rows = self._rows.setdefault(tray, Counter())
            rows[row] += count
            if not rows[row]:
                del rows[row]
            if not rows:
                del self._rows[tray]
                del self._marks[tray]

    def _path(self, router: Router, racks: tuple[str, str]) -> Legs:
        """The tray legs between two racks, each with the row it serves, as laid in the trays."""
        placed = self._paths.get(racks)
        if placed is None:
            a_rack, b_rack = racks
            legs = tray_legs(router.tray_path(a_rack, b_rack)[1])
            rows = (router.places[a_rack].row, router.places[b_rack].row)
            placed = self._paths[racks] = tuple((tray, lo, hi, rows[0] if i == 0 else rows[1])
                                                for i, (tray, lo, hi) in enumerate(legs))
        return placed

    def _mark(self, tray: Tray, at_mm: int, area: int, count: int, ends: int) -> None:
        """Cable area and count stepping up or down at a position; ``ends`` counts the legs ending there."""
        marks = self._marks.setdefault(tray, {})
        mark = marks.setdefault(at_mm, [0, 0, 0])
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
