"""Routed cable lengths (DESIGN §5 Cables): up the source rack, along trays, down the other rack.

A cable leaves its device, rises inside the rack to the overhead tray (``tray_height_m`` above
the rack top), runs along the row tray, crosses between rows on a cross-aisle tray, runs along
the destination row tray and drops to the other device. Cross-aisle trays run at both ends of
the rows and over every network rack (a rack holding switches), where the fabric trunks are;
the route takes the crossing that gives the shortest run. Cables inside one rack run in the
rack's vertical manager from U to U.

A hall larger than one room is laid out in *pods*: blocks of rows side by side, apart along the
rows by a main aisle (``planner.fabric.pods``: rows whose footprints along the row direction
come within two cold aisles, 2 × ``front_aisle_min_m``, of each other are one pod, so a gap a
row leaves for a column or a door never splits a room). Each pod has its own cross-aisle trunks (at its outer rack positions and over its network racks), and a
*main trunk* runs across the rows' direction, over the middle row of the hall, joining the
pods' end trunks: a cable between two pods runs along its row to its pod's end facing the other
pod, along that trunk to the main trunk, along the main trunk to the other pod's facing end,
and back along that pod's trunk and row (six points, five tray legs). A plan whose rows all
overlap is one pod and routes exactly as before. Slack (``cable_slack_fraction``, at least
``cable_slack_min_m``) is added and the media and stock length are chosen by ``media``.

``Router`` precomputes per-rack figures and keeps each rack pair's tray path, so every link of
a 32k-GPU hall routes in well under a second; ``refresh`` keeps one router current across edits
(live validation and the plan's cable layer share it), re-routing only the rack pairs whose
path an edit changed. ``route`` and ``recompute_lengths`` are the calls other parts use.

The kept paths that use a crossing are indexed by it (``_crossers``), so that when a network
rack's move shifts the crossing over it, ``refresh`` looks only at the paths that can change (at
4,096 nodes, a few hundred of 15k pairs) instead of testing every kept pair.
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from planner.fabric.media import NO_MEDIA, EndConnectors, MediaChoice, choose_media, media_order
from planner.fabric.pods import ONE_POD, PodLayout, RowKey, RowSpan, pod_layout
from planner.model.catalog import INFINIBAND, SWITCH
from planner.model.document import Document
from planner.model.geometry import RACK_UNIT_M
from planner.model.objects import TIER_NODE_LEAF, Link, Point, Rack


@dataclass(frozen=True)
class RouteResult:
    """One cable's route: run with slack, stock length, media and the plan polyline (m)."""

    length_m: float
    stock_m: float
    media: str
    polyline: list[Point]
    run_m: float


@dataclass(frozen=True)
class _RackPlace:
    x: float
    y: float
    along_x: bool
    row: str
    top_m: float
    half_w: float


def _along_x(rotation: int) -> bool:
    """Rows run east-west when racks face north or south."""
    return rotation % 180 == 0


RackPair = tuple[str, str]
TrayPath = tuple[float, list[Point]]
CrosserKey = tuple[bool, float | None] | None


class Router:
    """Routes links over a document's racks, optionally with racks and devices not yet in it.

    ``racks`` and ``devices`` override or extend the document's (used by the fabric generator
    before its command is applied). Without them the router reads the document's devices as
    they are, and ``refresh`` brings it up to date after racks move or change. Media reaches
    follow ``fabric_kind`` (default the design basis's; the generator passes its switch's
    protocol, which its command writes into the basis).
    """

    def __init__(self, doc: Document, racks: Iterable[Rack] = (), devices: Iterable = (),
                 fabric_kind: str | None = None) -> None:
        self.doc = doc
        basis = doc.basis
        self.slack_fraction = basis.cable_slack_fraction
        self.slack_min = basis.cable_slack_min_m
        self.tray = basis.tray_height_m
        self.ethernet = (fabric_kind or basis.fabric_kind) != INFINIBAND
        self.media = media_order(doc.catalog.media)
        self._choices: dict[tuple[float, bool, str], MediaChoice] = {}
        self.connectors = EndConnectors(doc.catalog)
        all_racks = dict(doc.racks)
        all_racks.update({r.id: r for r in racks})
        extra = {d.id: d for d in devices}
        self.devices = {**doc.devices, **extra} if extra else doc.devices
        self.places: dict[str, _RackPlace] = {r.id: self._place(r) for r in all_racks.values()}
        self._row_racks: dict[RowKey, set[str]] = {}
        for rack_id, place in self.places.items():
            self._row_racks.setdefault(_row_key(place), set()).add(rack_id)
        self._spans = {key: self._span(key) for key in self._row_racks}
        self._network = {d.rack for d in self.devices.values() if self._is_trunk_switch(d.id)}
        self.cross_x: list[float] = []
        self.cross_y: list[float] = []
        self.pods: dict[bool, PodLayout] = {True: ONE_POD, False: ONE_POD}
        self._set_crossings()
        self._paths: dict[RackPair, TrayPath] = {}
        self._pairs_of: dict[str, set[RackPair]] = {}
        #: kept paths that use a crossing: (runs along x, the crossing) for one between two rows
        #: crossing between its racks, (runs along x, None) for one crossing outside them, None
        #: for one between pods; ``_crosser_key`` is each pair's entry
        self._crossers: dict[CrosserKey, set[RackPair]] = {}
        self._crosser_key: dict[RackPair, CrosserKey] = {}
        self._rises: dict[str, float] = {}

    def _place(self, rack: Rack) -> _RackPlace:
        item = self.doc.catalog[rack.type]
        return _RackPlace(rack.x, rack.y, _along_x(rack.rotation), rack.row, item.rack_units * RACK_UNIT_M,
                          item.width_m / 2)

    def _is_switch(self, device_id: str) -> bool:
        return self.doc.catalog[self.devices[device_id].type].kind == SWITCH

    def _is_trunk_switch(self, device_id: str) -> bool:
        """A fabric switch (a management switch in every rack would put a trunk over every rack)."""
        item = self.doc.catalog[self.devices[device_id].type]
        return item.kind == SWITCH and not item.network

    def _set_crossings(self) -> tuple[bool, bool]:
        """Group the rows into pods and place the cross-aisle trays at both ends of the rows (of
        every pod) and over every network rack. Returns whether the crossings, a pod's ends or
        the main trunk moved, and whether a row changed pod."""
        places = self.places.values()
        network = [self.places[r] for r in self._network if r in self.places]
        gap = 2 * self.doc.basis.front_aisle_min_m
        pods = {along_x: pod_layout([(k, v) for k, v in self._spans.items() if k[0] == along_x], gap)
                for along_x in (True, False)}
        cross_x = self._crossings([p.x for p in places], [p.x for p in network], pods[True])
        cross_y = self._crossings([p.y for p in places], [p.y for p in network], pods[False])
        moved = (cross_x, cross_y) != (self.cross_x, self.cross_y)
        regrouped = any(pods[k].pod_of != self.pods[k].pod_of for k in pods)
        pods_moved = pods != self.pods
        self.cross_x, self.cross_y, self.pods = cross_x, cross_y, pods
        return moved or pods_moved, regrouped

    @staticmethod
    def _crossings(all_coords: list[float], network_coords: list[float], layout: PodLayout) -> list[float]:
        if not all_coords:
            return []
        ends = [c for pod in layout.pods for c in (pod.lo, pod.hi)]
        return sorted({min(all_coords), max(all_coords), *ends, *network_coords})

    def _span(self, row: RowKey) -> RowSpan:
        """A row's extent (``RowSpan``), kept per row and made again for the rows an edit touched."""
        places = [self.places[r] for r in self._row_racks[row]]
        along = [p.x if p.along_x else p.y for p in places]
        across = [p.y if p.along_x else p.x for p in places]
        return RowSpan(min(along), max(along), min(across), max(across),
                        min(a - p.half_w for a, p in zip(along, places)),
                        max(a + p.half_w for a, p in zip(along, places)), statistics.median_low(across))

    def _pod(self, place: _RackPlace) -> int:
        layout = self.pods[place.along_x]
        if not layout.pod_of:
            return 0
        return layout.pod_of.get(_row_key(place), 0)

    def main_trunks(self) -> list[tuple[Point, Point]]:
        """The main trunk of each row direction that has more than one pod, as a plan segment
        from the first pod's end trunk to the last's (for drawings)."""
        trunks = []
        for along_x, layout in self.pods.items():
            if len(layout.pods) > 1:
                lo, hi = layout.pods[0].lo, layout.pods[-1].hi
                trunks.append(((lo, layout.main), (hi, layout.main)) if along_x
                              else ((layout.main, lo), (layout.main, hi)))
        return trunks

    def refresh(self, rack_ids: Iterable[str]) -> dict[RackPair, bool]:
        """Bring the router up to date after an edit touched these racks (moved, turned, re-typed,
        re-rowed, added, removed, or devices added to or taken from them).

        Routes again the kept pairs of the touched racks, and, when the edit shifted a
        cross-aisle tray, the kept pairs whose crossing that can move (``_may_cross_elsewhere``;
        all of them when a row changed pod). Returns the pairs to lay again: those of the touched
        racks and those whose path changed, each with whether its length along the trays changed.
        """
        doc = self.doc
        stale: set[RackPair] = set()
        rows_touched: set[RowKey] = set()
        for rack_id in rack_ids:
            rack = doc.racks.get(rack_id)
            old_place = self.places.get(rack_id)
            if old_place is not None:
                old_row = _row_key(old_place)
                self._row_racks[old_row].discard(rack_id)
                rows_touched.add(old_row)
            if rack is None:
                self.places.pop(rack_id, None)
                self._network.discard(rack_id)
            else:
                self.places[rack_id] = place = self._place(rack)
                self._row_racks.setdefault(_row_key(place), set()).add(rack_id)
                rows_touched.add(_row_key(place))
                if any(self._is_trunk_switch(d.id) for d in doc.devices_in(rack_id)):
                    self._network.add(rack_id)
                else:
                    self._network.discard(rack_id)
            stale |= self._pairs_of.get(rack_id, set())
            for device in doc.devices_in(rack_id):
                self._rises.pop(device.id, None)
        for pair in [p for p in stale if p[0] not in self.places or p[1] not in self.places]:
            stale.discard(pair)
            self._forget(pair)
        for row in rows_touched:
            if self._row_racks.get(row):
                self._spans[row] = self._span(row)
            else:
                self._row_racks.pop(row, None)
                self._spans.pop(row, None)
        before = {True: set(self.cross_x), False: set(self.cross_y)}
        crossings_moved, regrouped = self._set_crossings()
        added = {True: set(self.cross_x) - before[True], False: set(self.cross_y) - before[False]}
        removed = {True: before[True] - set(self.cross_x), False: before[False] - set(self.cross_y)}
        changed: dict[RackPair, bool] = {}
        if regrouped:  # a row changing pod re-routes all
            candidates: Iterable[RackPair] = list(self._paths)
        elif crossings_moved:
            candidates = stale | self._may_cross_elsewhere(before, added, removed)
        else:
            candidates = stale
        for pair in candidates:
            old = self._paths[pair]
            # paths along one row (two points) or inside a rack (one) never use a crossing, one
            # between rows of a pod changes only where its best crossing does, one between pods
            # only when its pods' facing ends or the main trunk moved
            if pair not in stale and not regrouped and (
                    len(old[1]) < 4 or (len(old[1]) == 4 and self._keeps_crossing(pair, old[1], added, removed))
                    or (len(old[1]) > 4 and self._keeps_trunks(pair, old[1]))):
                continue
            new = self._tray_path(*pair)
            if new != old or pair in stale:
                self._keep(pair, new)
                changed[pair] = new[0] != old[0]
        return changed

    def _may_cross_elsewhere(self, before: dict[bool, set[float]], added: dict[bool, set[float]],
                             removed: dict[bool, set[float]]) -> set[RackPair]:
        """The kept paths whose crossing the crossings' change may move (``_keeps_crossing``
        decides each): those between pods, and, of a direction whose crossings changed, those
        crossing outside their racks, those on a removed crossing, and those on the first old
        crossing past an added one (a path crossing between its racks takes the first crossing
        from its near end, so an added one can only come before that one)."""
        found = set(self._crossers.get(None, ()))
        for along_x in (True, False):
            if not added[along_x] and not removed[along_x]:
                continue
            found |= self._crossers.get((along_x, None), set())
            for crossing in removed[along_x]:
                found |= self._crossers.get((along_x, crossing), set())
            old = sorted(before[along_x])
            for crossing in added[along_x]:
                i = bisect.bisect_right(old, crossing)
                if i < len(old):
                    found |= self._crossers.get((along_x, old[i]), set())
        return found

    def _keep(self, pair: RackPair, path: TrayPath) -> None:
        """Keep a pair's path, indexed in ``_crossers`` by the crossing it uses."""
        self._unindex(pair)
        self._paths[pair] = path
        points = path[1]
        if len(points) < 4:
            return
        key: CrosserKey = None
        if len(points) == 4:
            pa, pb = self.places[pair[0]], self.places[pair[1]]
            along_x = pa.along_x
            used = points[1][0] if along_x else points[1][1]
            lo, hi = (min(pa.x, pb.x), max(pa.x, pb.x)) if along_x else (min(pa.y, pb.y), max(pa.y, pb.y))
            key = (along_x, used if lo - 1e-9 <= used <= hi + 1e-9 else None)
        self._crosser_key[pair] = key
        self._crossers.setdefault(key, set()).add(pair)

    def _unindex(self, pair: RackPair) -> None:
        if pair in self._crosser_key:
            key = self._crosser_key.pop(pair)
            pairs = self._crossers[key]
            pairs.discard(pair)
            if not pairs:
                del self._crossers[key]

    def _keeps_trunks(self, pair: RackPair, points: list[Point]) -> bool:
        """Whether a path between pods still runs where its pods' facing end trunks and the main
        trunk are (``_between_pods``): moving a pod's far end, or another pair of pods' ends,
        leaves it as it is."""
        pa, pb = self.places[pair[0]], self.places[pair[1]]
        pod_a, pod_b = self._pod(pa), self._pod(pb)
        layout = self.pods[pa.along_x]
        if pod_a == pod_b or max(pod_a, pod_b) >= len(layout.pods):
            return False
        first, second = layout.pods[pod_a], layout.pods[pod_b]
        end_a, end_b = (first.hi, second.lo) if second.lo > first.hi else (first.lo, second.hi)
        along, across = (0, 1) if pa.along_x else (1, 0)
        return (points[1][along], points[3][along], points[2][across]) == (end_a, end_b, layout.main)

    def _keeps_crossing(self, pair: RackPair, points: list[Point], added: dict[bool, set[float]],
                        removed: dict[bool, set[float]]) -> bool:
        """Whether a path between rows keeps its crossing after the crossings changed: it did not
        use a removed one, and, when it crossed between its two racks (the first crossing there,
        ``_best_crossing``), no added one lies between its near end and that crossing. A path
        that crossed outside its racks is routed again."""
        pa, pb = self.places[pair[0]], self.places[pair[1]]
        along_x = pa.along_x
        used = points[1][0] if along_x else points[1][1]
        if used in removed[along_x]:
            return False
        lo = min(pa.x, pb.x) if along_x else min(pa.y, pb.y)
        hi = max(pa.x, pb.x) if along_x else max(pa.y, pb.y)
        if not lo - 1e-9 <= used <= hi + 1e-9:
            return self._crossing(pair) == used
        return not any(lo - 1e-9 <= c < used for c in added[along_x])

    def _crossing(self, pair: RackPair) -> float:
        pa, pb = self.places[pair[0]], self.places[pair[1]]
        if pa.along_x:
            return self._best_crossing(self.cross_x, pa.x, pb.x)
        return self._best_crossing(self.cross_y, pa.y, pb.y)

    def _forget(self, pair: RackPair) -> None:
        del self._paths[pair]
        self._unindex(pair)
        for rack_id in pair:
            self._pairs_of.get(rack_id, set()).discard(pair)

    def height_m(self, device_id: str) -> float:
        """Height of a device's lowest U above the rack floor."""
        return max(self.devices[device_id].u - 1, 0) * RACK_UNIT_M

    def run(self, a_device: str, b_device: str) -> tuple[float, list[Point]]:
        """Routed run in metres (no slack) and its plan polyline."""
        da, db = self.devices[a_device], self.devices[b_device]
        if da.rack == db.rack:
            place = self.places[da.rack]
            return abs(self.height_m(a_device) - self.height_m(b_device)), [(place.x, place.y)]
        horizontal, points = self.tray_path(da.rack, db.rack)
        return self._rise(a_device) + self._rise(b_device) + horizontal, points

    def _rise(self, device_id: str) -> float:
        """From a device up its rack to the tray, kept until ``refresh`` touches its rack."""
        rise = self._rises.get(device_id)
        if rise is None:
            place = self.places[self.devices[device_id].rack]
            rise = self._rises[device_id] = place.top_m - self.height_m(device_id) + self.tray
        return rise

    def tray_path(self, a_rack: str, b_rack: str) -> TrayPath:
        """Length along the trays between two racks and its plan polyline: one point in the same
        rack, two along one row tray, four when the cable crosses between rows. Kept per rack
        pair (the many cables between two racks share it); do not change the list returned."""
        key = (a_rack, b_rack)
        path = self._paths.get(key)
        if path is None:
            path = self._tray_path(a_rack, b_rack)
            self._keep(key, path)
            self._pairs_of.setdefault(a_rack, set()).add(key)
            self._pairs_of.setdefault(b_rack, set()).add(key)
        return path

    def _tray_path(self, a_rack: str, b_rack: str) -> TrayPath:
        pa, pb = self.places[a_rack], self.places[b_rack]
        if a_rack == b_rack:
            return 0.0, [(pa.x, pa.y)]
        if pa.along_x:
            a_along, a_across, b_along, b_across, crossings = pa.x, pa.y, pb.x, pb.y, self.cross_x
        else:
            a_along, a_across, b_along, b_across, crossings = pa.y, pa.x, pb.y, pb.x, self.cross_y
        pod_a, pod_b = self._pod(pa), self._pod(pb)
        if pod_a != pod_b and pa.along_x == pb.along_x:
            return self._between_pods(pa, pb, pod_a, pod_b)
        same_row = (pa.row and pa.row == pb.row) or abs(a_across - b_across) < 0.05
        if same_row:
            return abs(a_along - b_along), [(pa.x, pa.y), (pb.x, pb.y)]
        cross = self._best_crossing(crossings, a_along, b_along)
        horizontal = abs(a_along - cross) + abs(a_across - b_across) + abs(cross - b_along)
        if pa.along_x:
            points = [(pa.x, pa.y), (cross, pa.y), (cross, pb.y), (pb.x, pb.y)]
        else:
            points = [(pa.x, pa.y), (pa.x, cross), (pb.x, cross), (pb.x, pb.y)]
        return horizontal, points

    def _between_pods(self, pa: _RackPlace, pb: _RackPlace, pod_a: int, pod_b: int) -> TrayPath:
        """Row, own pod's end trunk facing the other pod, main trunk, the other pod's end trunk, row."""
        layout = self.pods[pa.along_x]
        first, second = layout.pods[pod_a], layout.pods[pod_b]
        east = second.lo > first.hi
        end_a, end_b = (first.hi, second.lo) if east else (first.lo, second.hi)
        main = layout.main
        a_along, a_across = (pa.x, pa.y) if pa.along_x else (pa.y, pa.x)
        b_along, b_across = (pb.x, pb.y) if pa.along_x else (pb.y, pb.x)
        horizontal = (abs(a_along - end_a) + abs(a_across - main) + abs(end_a - end_b) + abs(main - b_across)
                      + abs(end_b - b_along))
        steps = [(a_along, a_across), (end_a, a_across), (end_a, main), (end_b, main), (end_b, b_across),
                 (b_along, b_across)]
        return horizontal, [(u, v) if pa.along_x else (v, u) for u, v in steps]

    @staticmethod
    def _best_crossing(crossings: list[float], a: float, b: float) -> float:
        """The crossing position minimising |a − c| + |c − b|."""
        lo, hi = min(a, b), max(a, b)
        i = bisect.bisect_left(crossings, lo - 1e-9)
        if i < len(crossings) and crossings[i] <= hi + 1e-9:
            return crossings[i]
        candidates = [crossings[j] for j in (i - 1, i) if 0 <= j < len(crossings)]
        return min(candidates, key=lambda c: abs(a - c) + abs(c - b)) if candidates else a

    def with_slack(self, run_m: float) -> float:
        return run_m + max(run_m * self.slack_fraction, self.slack_min)

    def choose(self, length_m: float, switch_to_switch: bool, connector: str = "") -> MediaChoice:
        """The media and stock length for a routed length and end connector, memoised: a hall's
        cables share a few thousand lengths (regenerating 98k cables chose media 98k times)."""
        key = (length_m, switch_to_switch, connector)
        choice = self._choices.get(key)
        if choice is None:
            choice = self._choices[key] = choose_media(self.media, length_m, switch_to_switch, self.ethernet, connector)
        return choice

    def length(self, a_device: str, b_device: str) -> float:
        """The cable length to order for this route: run plus slack, rounded up to the centimetre.
        (``run`` without its polyline: N8 asks this of every cable of a moved network rack.)"""
        a_rack, b_rack = self.devices[a_device].rack, self.devices[b_device].rack
        if a_rack == b_rack:
            return self.rounded(abs(self.height_m(a_device) - self.height_m(b_device)))
        return self.rounded(self._rise(a_device) + self._rise(b_device) + self.tray_path(a_rack, b_rack)[0])

    def rounded(self, run_m: float) -> float:
        return math.ceil(self.with_slack(run_m) * 100 - 1e-6) / 100

    def route(self, a_device: str, b_device: str, tier: str = "", a_port: str = "", b_port: str = "") -> RouteResult:
        """A cable's route and media (given its ports, an RJ45 end takes twisted pair: ``choose_media``)."""
        run_m, points = self.run(a_device, b_device)
        length = self.rounded(run_m)
        s2s = tier != TIER_NODE_LEAF and self._is_switch(a_device) and self._is_switch(b_device)
        ends = self.connectors.of(self.devices[a_device].type, a_port, self.devices[b_device].type, b_port)
        choice = self.choose(length, s2s, ends) if length > 0 else NO_MEDIA
        return RouteResult(length, choice.stock_m, choice.media, points, run_m)


def _row_key(place: _RackPlace) -> RowKey:
    return place.along_x, place.row or round(place.y if place.along_x else place.x, 2)


def route(doc: Document, link: Link) -> RouteResult:
    """The route of one link in the plan as it stands."""
    return Router(doc).route(link.a_device, link.b_device, link.tier, link.a_port, link.b_port)


def link_values(result: RouteResult) -> dict[str, object]:
    return {"length_m": result.length_m, "stock_m": result.stock_m, "media": result.media}
