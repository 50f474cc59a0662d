"""Which subjects an edit can affect, per scope (``Validator.update`` re-checks only these): the
objects changed, their racks, devices and cables, the busbars and CDUs they are and were assigned
to and the racks on those, and the spatial neighbours of their old and new footprints within the
largest clearance a rule probes. It keeps where things were (each device's rack, each footprint)
as of the last full run and the edits since, to know what an edit moved away from."""

from __future__ import annotations

from planner.model.catalog import RACK_CDU
from planner.model.change import Change
from planner.model.document import Document, prefix_of
from planner.rules.context import SPATIAL_PREFIXES, Context, object_bounds
from planner.rules.scopes import (
    BUSBAR,
    CDU,
    DEVICE,
    FLOOR_UNIT,
    HALL,
    HALL_SUBJECT,
    LINK,
    RACK,
    SCOPES,
    ZONE,
)


class Affected:
    """What an edit of ``doc`` can affect, with the context whose indices it asks and refreshes."""

    def __init__(self, doc: Document, ctx: Context) -> None:
        self.doc, self.ctx = doc, ctx
        self._device_rack: dict[str, str] = {}
        self._bounds: dict[str, tuple[float, float, float, float]] = {}

    def reset(self) -> None:
        """Take the plan as it is now (a full run)."""
        doc = self.doc
        self._device_rack = {d.id: d.rack for d in doc.devices.values()}
        self._bounds = {i: object_bounds(doc, i) for i in [*doc.racks, *doc.floor_units, *doc.obstacles]}

    def margin(self) -> float:
        """How far a footprint change can reach: the largest clearance any rule probes."""
        b = self.doc.basis
        return max(b.front_aisle_min_m, b.rear_aisle_min_m, b.front_aisle_vendor_min_m,
                   b.rear_aisle_vendor_min_m, b.working_space_m) + 0.01

    def of(self, change: Change) -> dict[str, set[str]]:
        """Subjects per scope an edit can affect (old and new neighbourhoods)."""
        doc, ctx = self.doc, self.ctx
        dirty: dict[str, set[str]] = {scope: set() for scope in SCOPES}
        dirty[HALL].add(HALL_SUBJECT)
        direct: set[str] = set()
        spatial: set[str] = set()
        zones_changed = False
        for obj_id in change.touched:
            prefix = prefix_of(obj_id)
            if prefix == "rack":
                direct.add(obj_id)
            elif prefix == "dev":
                direct.update(r for r in (self._device_rack.get(obj_id), getattr(doc.find(obj_id), "rack", None)) if r)
                dirty[DEVICE].add(obj_id)
                dirty[CDU].add(obj_id)
                dirty[LINK].update(doc.link_ids_of(obj_id))
            elif prefix == "fu":
                dirty[FLOOR_UNIT].add(obj_id)
                dirty[CDU].add(obj_id)
            elif prefix == "bus":
                dirty[BUSBAR].add(obj_id)
            elif prefix == "zone":
                zones_changed = True
            elif prefix == "link":
                dirty[LINK].add(obj_id)
            if prefix in SPATIAL_PREFIXES:
                spatial.add(obj_id)
        regions = [self._bounds[i] for i in spatial if i in self._bounds]
        owners = set(dirty[BUSBAR]) | set(dirty[CDU])

        def collect_assignments() -> None:
            for rack_id in direct:
                feed_a, feed_b, cdu = ctx.assignments(rack_id)
                dirty[BUSBAR].update(f for f in (feed_a, feed_b) if f)
                if cdu:
                    dirty[CDU].add(cdu)
            for owner in owners:
                if prefix_of(owner) != "bus":
                    dirty[RACK].update(ctx.racks_on_cdu(owner))
                    continue
                for rack_id in ctx.racks_on_feed(owner):  # and the partner busbars of its racks
                    dirty[RACK].add(rack_id)
                    dirty[BUSBAR].update(f for f in ctx.assignments(rack_id)[:2] if f)

        collect_assignments()  # the old assignments, before the index forgets them
        ctx.forget(racks=direct, spatial=spatial, assignments=direct, zones_changed=zones_changed)
        for obj_id in spatial:
            if obj_id in doc:
                self._bounds[obj_id] = object_bounds(doc, obj_id)
                regions.append(self._bounds[obj_id])
            else:
                self._bounds.pop(obj_id, None)
        for obj_id in change.touched:
            if prefix_of(obj_id) == "dev":
                device = doc.devices.get(obj_id)
                if device is None:
                    self._device_rack.pop(obj_id, None)
                else:
                    self._device_rack[obj_id] = device.rack
        for rack_id in direct:
            if rack_id not in doc.racks:
                continue
            for device in doc.devices_in(rack_id):
                dirty[DEVICE].add(device.id)
                dirty[LINK].update(doc.link_ids_of(device.id))
                if doc.catalog[device.type].kind == RACK_CDU:
                    owners.add(device.id)
                    dirty[CDU].add(device.id)
        collect_assignments()  # the new ones
        margin = self.margin()
        for region in regions:
            for obj_id in ctx.near(region, margin):
                prefix = prefix_of(obj_id)
                if prefix == "rack":
                    dirty[RACK].add(obj_id)
                elif prefix == "fu":
                    dirty[FLOOR_UNIT].add(obj_id)
        dirty[RACK] |= direct
        if direct or zones_changed:
            dirty[ZONE].update(doc.zones)
        dirty[ZONE].update(i for i in change.touched if prefix_of(i) == "zone")
        if zones_changed:
            dirty[RACK].update(doc.racks)
            dirty[FLOOR_UNIT].update(doc.floor_units)
        return dirty
