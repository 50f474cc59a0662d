"""A cached view of one document for the rules: per-rack figures, who is on which busbar and
CDU, which zone an object stands in, a spatial index (shapely STRtree) of footprints, and the
cable loads of the trays.

The incremental validator keeps one Context alive and tells it what changed (``forget``), so
a drag re-computes the figures of one rack, not of the hall.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.strtree import STRtree

from planner.fabric.bundles import CableBundles, Listener
from planner.fabric.routing import RackPair, Router
from planner.fabric.trays import TrayLoads
from planner.model.document import Document, natural_key, prefix_of
from planner.model.geometry import bounds_of, point_in_polygon
from planner.model.long_lived import long_lived_objects
from planner.model.networks import network_of_tier
from planner.model.objects import Zone
from planner.rules.fabric_index import FabricIndex, still_connected
from planner.rules.figures import RackFigures, rack_figures

#: The fabric memo of N6 (nodes cut off from the rest), kept across an edit that cannot change it.
CUT_OFF = "N6 cut off"
#: Collections whose footprints are in the spatial index.
SPATIAL_PREFIXES = ("rack", "fu", "obs")
#: Objects moved since the STRtree was built that ``near`` checks one by one before it rebuilds.
_MOVED_BEFORE_REBUILD = 64


def object_bounds(doc: Document, obj_id: str) -> tuple[float, float, float, float]:
    """(min_x, min_y, max_x, max_y) of a rack's or floor unit's footprint or an obstacle."""
    obj = doc.get(obj_id)
    if prefix_of(obj_id) == "obs":
        return bounds_of(obj.polygon)
    return doc.rack_bounds(obj)


class Context:
    """Figures and indices over a document, built lazily and kept up to date by ``forget``."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._route_listeners: list[Listener] = []
        #: The ``prefix.field`` inputs of the edit being validated (``edit_kinds.changed_keys``); None
        #: in a full run.
        self.changed_keys: set[str] | None = None
        #: The networks whose cables the edit being validated changed, when it changed cables and
        #: nothing else and each one's network is known (``cables_changed``); None otherwise.
        self.changed_networks: set[str] | None = None
        #: The ids the edit being validated added, removed or changed; None in a full run.
        self.changed_ids: set[str] | None = None
        self.forget_all()

    def forget_all(self) -> None:
        """Drop every cached figure and index (a full run follows)."""
        self._racks: dict[str, RackFigures] = {}
        self._feed_index: dict[str, set[str]] | None = None
        self._cdu_index: dict[str, set[str]] | None = None
        self._assigned: dict[str, tuple[str | None, str | None, str | None]] = {}
        self._sorted_on: dict[str, list[str]] = {}
        self._zone_of: dict[str, Zone | None] = {}
        self._zone_air: dict[str, dict[str, float]] = {}  # zone → its racks' residual air heat (W)
        self._air_zone: dict[str, str] = {}  # rack → the zone whose sum counts it
        self._air_pending: set[str] = set()  # racks changed since: counted again when asked
        self._rack_order: tuple[list[str], set[str]] | None = None
        self._tree: STRtree | None = None
        self._tree_ids: list[str] = []
        self._moved: dict[str, tuple[float, float, float, float] | None] = {}
        self._shapes: dict[str, Any] = {}
        self._outline: Polygon | None = None
        self._outline_built = False
        self._memo: dict[str, Any] = {}
        self._fabric: dict[str, Any] = {}
        self._fabric_networks: dict[str, frozenset[str] | None] = {}
        self._index: FabricIndex | None = None
        self._kept_cut_off: Any = None
        self._router: Router | None = None
        self._rerouted: dict[RackPair, bool] = {}
        self._bundles: CableBundles | None = None
        self._trays: TrayLoads | None = None
        if self._route_listeners:
            self.cable_bundles()  # the watchers start again from the bundles as they are now

    def memo(self, key: str, factory: Callable[[], Any]) -> Any:
        """A value computed once per validation pass (a full run or one update), e.g. a router."""
        if key not in self._memo:
            self._memo[key] = factory()
        return self._memo[key]

    def fabric_memo(self, key: str, factory: Callable[[], Any], networks: frozenset[str] | None = None) -> Any:
        """A value computed from the fabric's structure alone (which ports the cables join, device
        types and roles), kept across passes until ``forget_fabric``: a rename, a rack move or a
        design-basis-free edit elsewhere does not recompute it. A value that reads the cables of
        ``networks`` only is also kept through an edit of other networks' cables alone (a compute
        cable made by hand does not recount the storage fabric)."""
        if key not in self._fabric:
            self._fabric[key] = factory()
            self._fabric_networks[key] = networks
        return self._fabric[key]

    def forget_fabric(self) -> None:
        self._fabric.clear()
        self._fabric_networks.clear()
        self.changed_networks = None
        self._index = None
        self._kept_cut_off = None

    def cables_changed(self, link_ids: set[str]) -> None:
        """After an edit that changed cables and nothing else: the fabric values are made again
        from the patched ``FabricIndex`` (built now if there is none yet), and N6's last answer is
        kept when every cable removed left its ends connected (``planner.rules.fabric_index``)."""
        cut_off = self._fabric.get(CUT_OFF)
        links = self.doc.links
        if self._index is None:
            self.changed_networks = None  # a removed cable's network is not known
            self._index, gone = FabricIndex(self.doc), None
        else:
            ends = self._index.ends
            self.changed_networks = {network_of_tier(links[i].tier) for i in link_ids if i in links}
            self.changed_networks.update(network_of_tier(ends[i][4]) for i in link_ids if i in ends)
            if any(i not in links and i not in ends for i in link_ids):
                self.changed_networks = None
            gone = self._index.patch(link_ids)
        changed = self.changed_networks
        for key, networks in list(self._fabric_networks.items()):
            if changed is None or networks is None or networks & changed:
                self._fabric.pop(key, None)
                del self._fabric_networks[key]
        keep = gone is not None and cut_off is not None and not cut_off[0] and still_connected(self.doc, gone)
        self._kept_cut_off = cut_off if keep else None

    def fabric_index(self) -> FabricIndex | None:
        """The patched index of the fabric's structure, while only cables have changed."""
        return self._index

    def kept_cut_off(self) -> Any:
        """N6's answer from before an edit that could not have changed it, else None."""
        return self._kept_cut_off

    def router(self) -> Router:
        """The cable router over the plan as it stands, kept current across edits by ``forget``."""
        if self._router is None:
            self._router = Router(self.doc)
        return self._router

    def end_pass(self) -> None:
        """Forget the per-pass values: the next edit may have changed what they were made from."""
        self._memo.clear()

    # ------------------------------------------------------------------ figures
    def rack(self, rack_id: str) -> RackFigures:
        figs = self._racks.get(rack_id)
        if figs is None:
            figs = self._racks[rack_id] = rack_figures(self.doc, rack_id)
        return figs

    # -------------------------------------------------------------- assignments
    def _build_assignments(self) -> None:
        self._feed_index, self._cdu_index, self._assigned = {}, {}, {}
        for rack in self.doc.racks.values():
            self._index_rack(rack.id)

    def _index_rack(self, rack_id: str) -> None:
        assert self._feed_index is not None and self._cdu_index is not None
        rack = self.doc.racks[rack_id]
        self._assigned[rack_id] = (rack.feed_a, rack.feed_b, rack.cdu)
        self._forget_sorted(rack.feed_a, rack.feed_b, rack.cdu)
        for target in (rack.feed_a, rack.feed_b):
            if target is not None:
                self._feed_index.setdefault(target, set()).add(rack_id)
        if rack.cdu is not None:
            self._cdu_index.setdefault(rack.cdu, set()).add(rack_id)

    def _forget_sorted(self, *targets: str | None) -> None:
        for target in targets:
            if target is not None:
                self._sorted_on.pop(target, None)

    def _unindex_rack(self, rack_id: str) -> None:
        assert self._feed_index is not None and self._cdu_index is not None
        feed_a, feed_b, cdu = self._assigned.pop(rack_id, (None, None, None))
        self._forget_sorted(feed_a, feed_b, cdu)
        for target in (feed_a, feed_b):
            if target is not None:
                self._feed_index.get(target, set()).discard(rack_id)
        if cdu is not None:
            self._cdu_index.get(cdu, set()).discard(rack_id)

    def index(self) -> None:
        """Build the assignment index now, so it holds the state before the next edit."""
        if self._feed_index is None:
            self._build_assignments()

    def assignments(self, rack_id: str) -> tuple[str | None, str | None, str | None]:
        """(feed A, feed B, CDU) of a rack as last indexed (the old values right after a change)."""
        if self._feed_index is None:
            self._build_assignments()
        return self._assigned.get(rack_id, (None, None, None))

    def racks_on_feed(self, bus_id: str) -> list[str]:
        if self._feed_index is None:
            self._build_assignments()
        assert self._feed_index is not None
        return self._sorted(bus_id, self._feed_index)

    def racks_on_cdu(self, cdu_id: str) -> list[str]:
        if self._cdu_index is None:
            self._build_assignments()
        assert self._cdu_index is not None
        return self._sorted(cdu_id, self._cdu_index)

    def _sorted(self, target: str, index: dict[str, set[str]]) -> list[str]:
        """The racks on a busbar or CDU in name order, kept until one of them is re-indexed
        (several rules ask per rack after a move; do not change the list returned)."""
        racks = self._sorted_on.get(target)
        if racks is None:
            racks = self._sorted_on[target] = sorted(index.get(target, ()), key=natural_key)
        return racks

    # -------------------------------------------------------------------- zones
    def zone_of(self, obj_id: str) -> Zone | None:
        """The zone under an object's centre; where zones overlap, the one with the lowest rating."""
        if obj_id not in self._zone_of:
            obj = self.doc.get(obj_id)
            zones = [z for z in self.doc.zones.values() if point_in_polygon(obj.x, obj.y, z.polygon)]
            zones.sort(key=lambda z: (z.rating_kpa, natural_key(z.id)))
            self._zone_of[obj_id] = zones[0] if zones else None
        return self._zone_of[obj_id]

    def zone_air(self, zone_id: str) -> tuple[float, int]:
        """The residual air heat (W) of a zone's racks and how many they are (C6). Each zone's
        racks are counted once; an edit takes the racks it changed or moved out of their zone's
        count (``forget``) and puts them back where they now stand when next asked, so a move
        does not walk the 1,143 racks of a 4,096-node hall's zone. ``math.fsum`` is exactly
        rounded, so the sum does not depend on the order the racks were counted in."""
        basis = self.doc.basis
        if self._air_pending:
            for rack_id in self._air_pending:
                zone = self.zone_of(rack_id) if rack_id in self.doc.racks else None
                if zone is not None and zone.id in self._zone_air:
                    self._zone_air[zone.id][rack_id] = self.rack(rack_id).air_w(basis)
                    self._air_zone[rack_id] = zone.id
            self._air_pending.clear()
        members = self._zone_air.get(zone_id)
        if members is None:
            members = self._zone_air[zone_id] = {r: self.rack(r).air_w(basis) for r in self.racks_in_zone(zone_id)}
            self._air_zone.update(dict.fromkeys(members, zone_id))
        return math.fsum(members.values()), len(members)

    def _forget_zone_air(self, racks: list[str]) -> None:
        """Take ``racks`` (changed or moved) out of their zone's count, to be counted again."""
        for rack_id in racks:
            zone_id = self._air_zone.pop(rack_id, None)
            if zone_id is not None:
                self._zone_air[zone_id].pop(rack_id, None)
        self._air_pending.update(racks)

    def racks_in_zone(self, zone_id: str) -> list[str]:
        if self._rack_order is None:  # kept until a rack is added or removed (``forget``)
            self._rack_order = sorted(self.doc.racks, key=natural_key), set(self.doc.racks)
        return [r for r in self._rack_order[0] if (z := self.zone_of(r)) is not None and z.id == zone_id]

    # ------------------------------------------------------------------ spatial
    def shape(self, obj_id: str) -> Any:
        """The footprint of a rack or floor unit (a box) or an obstacle's polygon."""
        shape = self._shapes.get(obj_id)
        if shape is None:
            obj = self.doc.get(obj_id)
            if prefix_of(obj_id) == "obs":
                shape = shapely.make_valid(Polygon(obj.polygon)) if len(obj.polygon) >= 3 else Polygon()
            else:
                shape = box(*self.doc.rack_bounds(obj))
            self._shapes[obj_id] = shape
        return shape

    def _build_tree(self) -> None:
        ids = [*self.doc.racks, *self.doc.floor_units, *self.doc.obstacles]
        self._tree_ids = ids
        self._tree = STRtree([self.shape(i) for i in ids])
        self._moved = {}

    def near(self, bounds: tuple[float, float, float, float], margin: float) -> list[str]:
        """Ids of racks, floor units and obstacles whose footprint comes within ``margin`` of ``bounds``.

        The STRtree is built once; objects moved, added or removed since are left out of its
        answers and checked one by one, so a drag does not rebuild the tree of the whole hall.
        """
        if self._tree is None:
            self._build_tree()
        assert self._tree is not None
        x0, y0, x1, y1 = bounds[0] - margin, bounds[1] - margin, bounds[2] + margin, bounds[3] + margin
        hits = [self._tree_ids[i] for i in self._tree.query(shapely.box(x0, y0, x1, y1))]
        if not self._moved:
            return hits
        hits = [i for i in hits if i not in self._moved]
        for obj_id, now in self._moved.items():
            if now is not None and now[0] <= x1 and x0 <= now[2] and now[1] <= y1 and y0 <= now[3]:
                hits.append(obj_id)
        return hits

    def near_each(self, boxes: list[tuple[float, float, float, float]]) -> tuple[list[int], list[str]]:
        """``near(box, 0.0)`` of many boxes in one STRtree query (a full run's space rules ask it of
        every rack): the index of the box and the id of each hit."""
        if self._tree is None:
            self._build_tree()
        assert self._tree is not None
        if self._moved or not boxes:
            found = [(n, i) for n, b in enumerate(boxes) for i in self.near(b, 0.0)]
            return [n for n, _i in found], [i for _n, i in found]
        x0, y0, x1, y1 = np.array(boxes, dtype=float).T
        which, hits = self._tree.query(shapely.box(x0, y0, x1, y1))
        ids = self._tree_ids
        return which.tolist(), [ids[i] for i in hits.tolist()]

    def outline_covers(self, boxes: list[tuple[float, float, float, float]]) -> list[bool]:
        """Whether the hall outline covers each box (all True without an outline), in one call."""
        outline = self.outline()
        if outline is None or not boxes:
            return [True] * len(boxes)
        if outline.geom_type == "GeometryCollection":  # no covers test: take none as covered
            return [False] * len(boxes)
        x0, y0, x1, y1 = np.array(boxes, dtype=float).T
        return shapely.covers(outline, shapely.box(x0, y0, x1, y1)).tolist()

    def outline(self) -> Polygon | None:
        if not self._outline_built:
            pts = self.doc.outline
            self._outline = shapely.make_valid(Polygon(pts)) if len(pts) >= 3 else None
            self._outline_built = True
        return self._outline

    # -------------------------------------------------------------------- trays
    def cable_bundles(self) -> CableBundles:
        """The cables counted per rack pair along the router's paths, built on first use and
        then kept up to date by ``update_routes``. Their 134k entries at 32k GPUs live as long
        as the plan: made where the collector leaves them be (the GUI's cable layer asks first)."""
        if self._bundles is None:
            with long_lived_objects():
                self._bundles = CableBundles(self.doc, self.router(), self._route_listeners)
        return self._bundles

    def prepare_edits(self) -> None:
        """Make now what the first edit would otherwise make (each cable's bundle and the plan's
        cables per device: 60 ms each at 32k GPUs; the next id numbers, 30 ms), for a caller
        with a moment to spare after a full run."""
        self.doc.links_by_device()
        self.doc.number_ids()
        if self._bundles is not None:
            self._bundles.index_cables()

    def watch_routes(self, listener: Listener) -> None:
        """Tell ``listener`` every bundle's flow now and whenever the bundles are built again (a
        full run), then each edit's flows (the plan's cable layer draws from them)."""
        self._route_listeners.append(listener)
        if self._bundles is None:
            self.cable_bundles()  # made now, it tells its listeners, this one among them
        else:
            self._bundles.listen(listener)

    def tray_loads(self) -> TrayLoads:
        """Cable loads of every tray, built on first use and then kept up to date by ``update_routes``."""
        if self._trays is None:
            self._trays = TrayLoads(self.doc, self.cable_bundles())
        return self._trays

    def update_routes(self, link_ids: set[str]) -> tuple[set[str], set[str]]:
        """Re-count the cables whose bundle an edit changed and re-lay the rack pairs the router
        re-routed (``forget`` refreshed it). Returns the ids of the trays whose load changed and
        of the cables whose length along the trays changed (both empty until something has
        asked for the bundles)."""
        rerouted, self._rerouted = self._rerouted, {}
        if self._bundles is None:
            return set(), set()
        flows, others = self._bundles.update(link_ids, rerouted)
        trays = self._trays.apply(flows) if self._trays is not None else set()
        return trays, others

    # ------------------------------------------------------------ invalidation
    def forget(self, racks: set[str], spatial: set[str], assignments: set[str], zones_changed: bool) -> None:
        """Drop what a change made stale: figures of ``racks``, footprints of ``spatial`` ids,
        the assignment index entries of ``assignments`` racks, and zone membership."""
        zoned = [i for i in racks | spatial if prefix_of(i) == "rack"]
        if self._zone_air:
            self._forget_zone_air(zoned)
        for rack_id in racks:
            self._racks.pop(rack_id, None)
        if self._rack_order is not None and any((i in self.doc.racks) != (i in self._rack_order[1]) for i in racks):
            self._rack_order = None
        if self._router is not None and racks:
            self._rerouted.update(self._router.refresh(racks))
        if spatial:
            for obj_id in spatial:
                self._shapes.pop(obj_id, None)
                self._zone_of.pop(obj_id, None)
            self._moved.update((i, object_bounds(self.doc, i) if i in self.doc else None) for i in spatial)
            if len(self._moved) > _MOVED_BEFORE_REBUILD:
                self._tree = None
        if zones_changed:
            self._zone_of.clear()
            self._zone_air.clear()
            self._air_zone.clear()
            self._air_pending.clear()
        if self._feed_index is not None:
            for rack_id in assignments:
                self._unindex_rack(rack_id)
                if rack_id in self.doc.racks:
                    self._index_rack(rack_id)
