"""The plan's cables as bundles: the cables between one pair of racks share one routed path, so
tray loads and the plan's cable drawing are kept per rack pair, not per cable.

A bundle is a rack pair with one (media, tier, rail): the media gives the cable's cross-section
in the trays, tier and rail its colour on the plan. ``CableBundles.update`` takes the cables an
edit touched and the rack pairs the router re-routed, and returns the *flows* that changed: a
pair's route with signed cable counts per (media, tier, rail), taken off along the route they
were laid on and laid again along the new one. Consumers (``trays.TrayLoads``, the GUI's cable
layer) apply flows and never walk every cable after an edit. Listeners are called with every
flow once the bundles are built (``fresh`` true: start again from these), then with each update's.

Only the data networks' cables are bundled: power cords and coolant hoses stay in their rack,
no tray carries them (``trays.TrayLoads``), the plan draws none of them and N8 routes none, and
at 32k GPUs they are 58k of the 192k cables.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from itertools import repeat
from operator import attrgetter

import numpy as np

from planner.fabric.routing import RackPair, Router
from planner.model.codes import Codes
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import Link, Point

#: What a cable shows in a bundle: media, tier, rail.
Attrs = tuple[str, str, int]
#: A rack pair's route as laid: the plan polyline and the rows of its two racks.
Route = tuple[tuple[Point, ...], tuple[str, str]]
#: Cables laid along (or, with negative counts, taken off) one route.
Flow = tuple[Route, Counter[Attrs]]
_ID, _A_DEVICE, _B_DEVICE = map(attrgetter, ("id", "a_device", "b_device"))
_ATTRS: Callable[[Link], Attrs] = attrgetter("media", "tier", "rail")
#: Told the flows of the bundles as built (``fresh``) and then of every update.
Listener = Callable[[list[Flow], bool], None]
#: Joins a rack pair's two ids into one subject (N8 reports per rack pair): the loader refuses
#: control characters in any string of a plan, so no rack id holds it.
PAIR_JOIN = "\x1f"


def pair_subject(rack_a: str, rack_b: str) -> str:
    """The subject of the racks' pair, either way round: the two ids in order, joined."""
    return f"{rack_a}{PAIR_JOIN}{rack_b}" if rack_a <= rack_b else f"{rack_b}{PAIR_JOIN}{rack_a}"


def pair_racks(subject: str) -> RackPair:
    """The two rack ids of a ``pair_subject``, in id order."""
    rack_a, _join, rack_b = subject.partition(PAIR_JOIN)
    return rack_a, rack_b


class CableBundles:
    """Cable counts per rack pair and (media, tier, rail), each pair laid along one route."""

    def __init__(self, doc: Document, router: Router, listeners: Iterable[Listener] = ()) -> None:
        self.doc = doc
        self.router = router
        self._attrs_of: dict[str, tuple[RackPair, Attrs]] = {}
        self._pairs: dict[RackPair, Counter[Attrs]] = defaultdict(Counter)
        self._links: dict[RackPair, set[str]] = defaultdict(set)
        #: The cables as counted (ids, each one's bundle as a place in the bundles, the bundles'
        #: (pair, attrs)) until the first update indexes them: a full validation never needs the
        #: index, an edit does.
        self._unindexed: tuple[list[str], np.ndarray, list[tuple[RackPair, Attrs]]] | None = None
        self._routes: dict[RackPair, Route] = {}
        self.listeners = list(listeners)
        self._count_all([link for network in DATA_NETWORKS for link in doc.links_in(network).values()])
        for pair in self._pairs:
            self._routes[pair] = self._route(pair)
        if self.listeners:
            everything = self.flows()
            for listener in self.listeners:
                listener(everything, True)

    def _count_all(self, cables: list[Link]) -> None:
        """Count every cable (393k at 131k GPUs) on integer columns: each cable's two racks and
        its (media, tier, rail) as codes (numbered as first seen), one key per cable, ``np.unique``
        for the bundles, so that the Python loop runs once per bundle, not once per cable. The
        bundles come out in the order their first cables are in (as ``Counter`` would count)."""
        racks: Codes[str] = Codes()
        rack_of = {d.id: racks[d.rack] for d in self.router.devices.values()}
        count = len(cables)
        a_racks = np.fromiter(map(rack_of.get, map(_A_DEVICE, cables), repeat(-1)), np.int64, count)
        b_racks = np.fromiter(map(rack_of.get, map(_B_DEVICE, cables), repeat(-1)), np.int64, count)
        kinds: Codes[Attrs] = Codes()
        kind = np.fromiter(map(kinds.__getitem__, map(_ATTRS, cables)), np.int64, count)
        key = (a_racks * len(racks) + b_racks) * len(kinds) + kind
        kept = np.flatnonzero((a_racks >= 0) & (b_racks >= 0))  # a cable to a device not in the plan: not counted
        unique, first, inverse, counts = np.unique(key[kept], return_index=True, return_inverse=True,
                                                   return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        pair_code, kind_code = np.divmod(unique[order], len(kinds))  # the keys taken apart again
        a_codes, b_codes = np.divmod(pair_code, len(racks))
        rack_ids = list(racks)
        pair_list = zip(map(rack_ids.__getitem__, a_codes.tolist()), map(rack_ids.__getitem__, b_codes.tolist()))
        entries: list[tuple[RackPair, Attrs]] = list(zip(pair_list, map(list(kinds).__getitem__, kind_code.tolist())))
        pairs = self._pairs
        for (pair, attrs), n in zip(entries, counts[order].tolist()):
            pairs[pair][attrs] = n
        ids = list(map(_ID, cables)) if len(kept) == count else [cables[i].id for i in kept.tolist()]
        self._unindexed = ids, rank[inverse.reshape(-1)], entries

    def index_cables(self) -> None:
        """Each cable's (pair, attrs) and each pair's cables, from the counted columns (an
        edit needs them; made on the first, or before it when the caller has a moment)."""
        if self._unindexed is None:
            return
        ids, bundle_of, bundles = self._unindexed
        self._unindexed = None
        entries = list(map(bundles.__getitem__, bundle_of.tolist()))
        self._attrs_of.update(zip(ids, entries))
        links = self._links
        for link_id, (pair, _attrs) in zip(ids, entries):
            links[pair].add(link_id)

    def pair_subjects(self) -> set[str]:
        """Every rack pair some cable joins, as ``pair_subject``s."""
        return {pair_subject(*pair) for pair in self._pairs}

    def cables_between(self, subject: str) -> set[str]:
        """The cables of a ``pair_subject``'s pair, whichever end is in which rack (for a rack to
        itself, the bundles' own set: read it, do not change it)."""
        self.index_cables()
        rack_a, rack_b = pair_racks(subject)
        there = self._links.get((rack_a, rack_b), set())
        return there if rack_a == rack_b else there | self._links.get((rack_b, rack_a), set())

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every flow now, then with each update's."""
        self.listeners.append(listener)
        listener(self.flows(), True)

    def flows(self, copied: bool = True) -> list[Flow]:
        """Every bundle as laid now (to build a consumer from scratch); ``copied`` false: the
        bundles' own counts, for a caller that reads them at once and keeps none."""
        if not copied:
            return [(self._routes[pair], counts) for pair, counts in self._pairs.items()]
        return [(self._routes[pair], Counter(counts)) for pair, counts in self._pairs.items()]

    def _route(self, pair: RackPair) -> Route:
        places = self.router.places
        return tuple(self.router.tray_path(*pair)[1]), (places[pair[0]].row, places[pair[1]].row)

    def _count_in(self, link_id: str) -> tuple[RackPair, Attrs] | None:
        link = self.doc.links.get(link_id)
        devices = self.router.devices
        if link is None or link.a_device not in devices or link.b_device not in devices \
                or network_of(link) not in DATA_NETWORKS:
            return None
        entry = (devices[link.a_device].rack, devices[link.b_device].rack), (link.media, link.tier, link.rail)
        self._attrs_of[link_id] = entry
        pair, attrs = entry
        self._pairs[pair][attrs] += 1
        self._links[pair].add(link_id)
        return entry

    def _count_out(self, link_id: str) -> tuple[RackPair, Attrs] | None:
        entry = self._attrs_of.pop(link_id, None)
        if entry is not None:
            pair, attrs = entry
            counts = self._pairs[pair]
            counts[attrs] -= 1
            if not counts[attrs]:
                del counts[attrs]
            self._links[pair].discard(link_id)
        return entry

    def update(self, link_ids: Iterable[str], rerouted: dict[RackPair, bool]) -> tuple[list[Flow], set[str]]:
        """Re-count ``link_ids`` (cables added, removed or changed, or whose devices changed rack)
        and lay the ``rerouted`` pairs (from ``Router.refresh``: pair → whether its length along
        the trays changed) along their routes again. Returns the flows that changed and the
        cables of the pairs whose length changed."""
        self.index_cables()
        taken: dict[RackPair, Counter[Attrs]] = defaultdict(Counter)
        laid: dict[RackPair, Counter[Attrs]] = defaultdict(Counter)
        others: set[str] = set()
        for pair, length_changed in rerouted.items():
            counts = self._pairs.get(pair)
            if counts:
                taken[pair].update(counts)
                laid[pair].update(counts)
                if length_changed:
                    others |= self._links[pair]
        for link_id in link_ids:
            old = self._count_out(link_id)
            if old is not None:
                pair, attrs = old
                if pair in rerouted:
                    laid[pair][attrs] -= 1
                else:
                    taken[pair][attrs] += 1
            new = self._count_in(link_id)
            if new is not None:
                laid[new[0]][new[1]] += 1
        touched = taken.keys() | laid.keys()
        flows: list[Flow] = []
        for pair in touched:
            before = self._routes.get(pair)
            if before is not None and taken.get(pair):
                flows.append((before, Counter({a: -n for a, n in taken[pair].items()})))
            if self._pairs.get(pair):
                self._routes[pair] = self._route(pair)
                if laid.get(pair):
                    flows.append((self._routes[pair], laid[pair]))
            else:
                self._pairs.pop(pair, None)
                self._links.pop(pair, None)
                self._routes.pop(pair, None)
        flows = _net(flows)
        for listener in self.listeners:
            listener(flows, False)
        return flows, others


def _net(flows: list[Flow]) -> list[Flow]:
    """Flows with what cancels out removed (a cable taken off and laid again on the same route).
    The counts of ``flows`` are ``update``'s own: a route's first is kept, not copied (a moved
    network rack's 700 flows run on routes of their own)."""
    by_route: dict[Route, Counter[Attrs]] = {}
    for route, counts in flows:
        total = by_route.get(route)
        if total is None:
            by_route[route] = counts
        else:
            by_route[route] = total = Counter(total)
            total.update(counts)
    result = []
    for route, counts in by_route.items():
        kept = counts if all(counts.values()) else Counter({a: n for a, n in counts.items() if n})
        if kept:
            result.append((route, kept))
    return result
