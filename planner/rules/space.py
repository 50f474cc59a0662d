"""Space rules (DESIGN §5 Space): inside the hall and clear of obstacles and other equipment (S1),
front and rear aisles (S2), electrical working space in front of power cabinets (S3), devices
that fit the rack's units and size without overlapping (S4), and an outline to check S1 against (S5)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from shapely.geometry import LineString, box

from planner.model.catalog import CABINET
from planner.model.document import natural_key, prefix_of
from planner.model.geometry import FRONT_DIRECTION
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, WARNING, Finding
from planner.rules.scopes import FLOOR_UNIT, HALL, HALL_SUBJECT, RACK

#: Overlaps smaller than this (m²) are edges touching, not equipment standing on each other.
_AREA_EPS = 1e-6
#: Clearances are compared to a micrometre, so a gap drawn at exactly the limit passes.
_GAP_EPS = 1e-6
#: Probes are narrowed by this much (m) so side-by-side neighbours in a row do not count.
_SIDE_EPS = 1e-3

_PLACE_READS = {"rack.x", "rack.y", "rack.rotation", "rack.type", "fu.x", "fu.y", "fu.rotation", "fu.type", "obs.*"}


def _bounds(ctx: Context) -> dict[str, tuple[float, float, float, float]]:
    """The bounds of every footprint in the spatial index (racks, floor units, obstacles), once per pass."""
    def make() -> dict[str, tuple[float, float, float, float]]:
        doc = ctx.doc
        return {i: ctx.shape(i).bounds for i in [*doc.racks, *doc.floor_units, *doc.obstacles]}
    return ctx.memo("footprint bounds", make)


def _bound_of(ctx: Context, whole_plan: bool) -> Callable[[str], tuple[float, float, float, float]]:
    """A footprint's bounds: from ``_bounds`` for a full run's candidates, else shape by shape
    (an edit's dozen racks and their neighbours, not the bounds of the whole hall)."""
    if whole_plan:
        return _bounds(ctx).__getitem__
    return lambda obj_id: ctx.shape(obj_id).bounds


def _placement_candidates(ctx: Context, ids: list[str], whole_plan: bool = True) -> list[str]:
    """Objects S1 may report: not covered by the outline, or whose bounds overlap another's by
    more than half the area S1 counts (bounds hold the shape, so a real overlap always shows; the
    check decides each one). One STRtree query and one outline test for all of them; for a full
    run, and (``whole_plan`` false) for the objects an edit re-checks."""
    bound_of = _bound_of(ctx, whole_plan)
    boxes = [bound_of(i) for i in ids]
    found = {ids[n] for n, covered in enumerate(ctx.outline_covers(boxes)) if not covered}
    for n, other in zip(*ctx.near_each(boxes)):
        obj_id = ids[n]
        if other == obj_id or obj_id in found:
            continue
        (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[n], bound_of(other)
        if (min(ax1, bx1) - max(ax0, bx0)) * (min(ay1, by1) - max(ay0, by0)) > _AREA_EPS / 2 \
                and min(ax1, bx1) > max(ax0, bx0):
            found.add(obj_id)
    return list(found)


def _name(ctx: Context, obj_id: str) -> str:
    obj = ctx.doc.get(obj_id)
    return f"column {obj.name}" if prefix_of(obj_id) == "obs" and obj.kind == "column" else obj.name


@rule("S1", scope=RACK, reads=_PLACE_READS, source="Hall survey: outline, columns and equipment footprints",
      title="Rack inside the hall, clear of obstacles and equipment",
      candidates=lambda ctx: _placement_candidates(ctx, list(ctx.doc.racks)),
      narrowed=lambda ctx, ids: _placement_candidates(ctx, [i for i in ids if i in ctx.doc.racks], False))
def rack_placement(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    yield from _placement(ctx, rack_id, r)


@rule("S1", scope=FLOOR_UNIT, reads=_PLACE_READS, source="Hall survey: outline, columns and equipment footprints",
      title="Floor unit inside the hall, clear of obstacles and equipment",
      candidates=lambda ctx: _placement_candidates(ctx, list(ctx.doc.floor_units)),
      narrowed=lambda ctx, ids: _placement_candidates(ctx, [i for i in ids if i in ctx.doc.floor_units], False))
def unit_placement(ctx: Context, unit_id: str, r: Rule) -> Iterator[Finding]:
    yield from _placement(ctx, unit_id, r)


def _placement(ctx: Context, obj_id: str, r: Rule) -> Iterator[Finding]:
    shape = ctx.shape(obj_id)
    name = _name(ctx, obj_id)
    outline = ctx.outline()
    if outline is not None:
        outside = shape.difference(outline).area
        if outside > _AREA_EPS:
            yield r.finding(ctx, ERROR, (obj_id,), f"{name}: {outside:.2f} m² outside the hall outline")
    own = prefix_of(obj_id)
    for other in sorted(ctx.near(shape.bounds, 0.0), key=natural_key):
        if other == obj_id:
            continue
        kind = prefix_of(other)
        # report each pair once: rack–rack and unit–unit from the lower id, rack–unit from the rack
        if kind == own and natural_key(other) < natural_key(obj_id) or (own == "fu" and kind == "rack"):
            continue
        area = shape.intersection(ctx.shape(other)).area
        if area <= _AREA_EPS:
            continue
        verb = "stands on" if kind == "obs" else "overlaps"
        yield r.finding(ctx, ERROR, (obj_id, other), f"{name} {verb} {_name(ctx, other)} ({area:.2f} m²)")


def _strip(bounds: tuple[float, float, float, float], direction: tuple[float, float],
           depth: float) -> tuple[float, float, float, float]:
    """The bounds of the strip of floor ``depth`` deep in front of the face looking along ``direction``."""
    x0, y0, x1, y1 = bounds
    e = _SIDE_EPS
    if direction == (0.0, -1.0):
        return x0 + e, y0 - depth, x1 - e, y0
    if direction == (0.0, 1.0):
        return x0 + e, y1, x1 - e, y1 + depth
    if direction == (1.0, 0.0):
        return x1, y0 + e, x1 + depth, y1 - e
    return x0 - depth, y0 + e, x0, y1 - e


def _gap_at_least(strip: tuple[float, float, float, float], direction: tuple[float, float],
                  other: tuple[float, float, float, float]) -> float:
    """How far from the face the bounds ``other`` begin inside its strip: no more than the gap to
    the shape they hold (the face is the strip's edge on the rack's side)."""
    x0, y0, x1, y1 = strip
    if direction == (0.0, -1.0):
        return y1 - min(y1, other[3])
    if direction == (0.0, 1.0):
        return max(y0, other[1]) - y0
    if direction == (1.0, 0.0):
        return max(x0, other[0]) - x0
    return x1 - min(x1, other[2])


def _probe(bounds: tuple[float, float, float, float], direction: tuple[float, float],
           depth: float) -> tuple[Any, LineString]:
    """The strip of floor ``depth`` deep in front of the face looking along ``direction``, and that face."""
    x0, y0, x1, y1 = bounds
    strip = box(*_strip(bounds, direction, depth))
    if direction == (0.0, -1.0):
        return strip, LineString([(x0, y0), (x1, y0)])
    if direction == (0.0, 1.0):
        return strip, LineString([(x0, y1), (x1, y1)])
    if direction == (1.0, 0.0):
        return strip, LineString([(x1, y0), (x1, y1)])
    return strip, LineString([(x0, y0), (x0, y1)])


def clearance(ctx: Context, obj_id: str, direction: tuple[float, float], depth: float) -> tuple[float, str | None]:
    """Free distance in front of a face, up to ``depth``, and what ends it (None: the hall wall or nothing).

    Equipment overlapping the object itself is left to S1.
    """
    own = ctx.shape(obj_id)
    probe, face = _probe(own.bounds, direction, depth)
    best, blocker = depth, None
    for other in ctx.near(probe.bounds, 0.0):
        if other == obj_id:
            continue
        shape = ctx.shape(other)
        if shape.intersection(own).area > _AREA_EPS:
            continue  # standing on each other is S1's finding, not an aisle
        if shape.intersects(probe):
            gap = face.distance(shape.intersection(probe))
            if gap < best or (gap == best and blocker is not None and natural_key(other) < natural_key(blocker)):
                best, blocker = gap, other
    outline = ctx.outline()
    if outline is not None:
        outside = probe.difference(outline)
        if outside.area > _AREA_EPS:
            gap = face.distance(outside)
            if gap < best:
                best, blocker = gap, None
    return best, blocker


def _aisle_sides(ctx: Context, rack_id: str) -> tuple[tuple[str, tuple[float, float], float, float, str], ...]:
    """(label, direction, recommended, vendor minimum, basis side) of a rack's front and rear."""
    basis = ctx.doc.basis
    fx, fy = FRONT_DIRECTION[ctx.doc.racks[rack_id].rotation % 360]
    return (("front (cold) aisle", (fx + 0.0, fy + 0.0), basis.front_aisle_min_m, basis.front_aisle_vendor_min_m,
             "front"),
            ("rear (hot) aisle", (-fx + 0.0, -fy + 0.0), basis.rear_aisle_min_m, basis.rear_aisle_vendor_min_m, "rear"))


def _aisle_candidates(ctx: Context, rack_ids: Iterable[str] | None = None) -> list[str]:
    """Racks S2 may report: a strip in front or behind that the outline does not cover, or that
    the bounds of another footprint enter nearer than the aisle it needs (less half the margin S2
    compares to). One STRtree query and one outline test for every rack's two strips; of the
    plan, or of the racks ``rack_ids`` an edit re-checks (without them each rack costs S2 four
    shapely probes)."""
    bound_of = _bound_of(ctx, rack_ids is None)
    racks = ctx.doc.racks
    owners: list[tuple[str, tuple[float, float], float]] = []
    strips = []
    for rack_id in racks if rack_ids is None else [i for i in rack_ids if i in racks]:
        for _label, direction, recommended, vendor, _side in _aisle_sides(ctx, rack_id):
            depth = max(recommended, vendor)
            owners.append((rack_id, direction, depth))
            strips.append(_strip(bound_of(rack_id), direction, depth))
    found = {owners[n][0] for n, covered in enumerate(ctx.outline_covers(strips)) if not covered}
    for n, other in zip(*ctx.near_each(strips)):
        rack_id, direction, depth = owners[n]
        if other != rack_id and rack_id not in found and \
                _gap_at_least(strips[n], direction, bound_of(other)) < depth - _GAP_EPS / 2:
            found.add(rack_id)
    return list(found)


@rule("S2", scope=RACK, reads=_PLACE_READS,
      basis=("front_aisle_min_m", "rear_aisle_min_m", "front_aisle_vendor_min_m", "rear_aisle_vendor_min_m"),
      source_field="front_aisle_min_m", title="Front and rear aisle widths", candidates=_aisle_candidates,
      narrowed=_aisle_candidates)
def aisles(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    rack = ctx.doc.racks[rack_id]
    for label, direction, recommended, vendor, side in _aisle_sides(ctx, rack_id):
        gap, blocker = clearance(ctx, rack_id, direction, max(recommended, vendor))
        what = _name(ctx, blocker) if blocker else "the hall wall"
        subjects = (rack_id, blocker) if blocker else (rack_id,)
        if gap < vendor - _GAP_EPS:
            yield r.finding(ctx, ERROR, subjects, f"{rack.name}: {label} {gap:.2f} m to {what}, vendor minimum {vendor:.2f} m",
                            f"{side}_aisle_vendor_min_m")
        elif gap < recommended - _GAP_EPS:
            yield r.finding(ctx, WARNING, subjects, f"{rack.name}: {label} {gap:.2f} m to {what}, recommended {recommended:.2f} m",
                            f"{side}_aisle_min_m")


@rule("S3", scope=FLOOR_UNIT, reads=_PLACE_READS, basis=("working_space_m",), source_field="working_space_m",
      title="Electrical working space in front of power cabinets")
def working_space(ctx: Context, unit_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    unit = doc.floor_units[unit_id]
    if doc.catalog[unit.type].kind != CABINET:
        return
    fx, fy = FRONT_DIRECTION[unit.rotation % 360]
    need = doc.basis.working_space_m
    gap, blocker = clearance(ctx, unit_id, (fx, fy), need)
    if gap < need - _GAP_EPS:
        what = _name(ctx, blocker) if blocker else "the hall wall"
        subjects = (unit_id, blocker) if blocker else (unit_id,)
        yield r.finding(ctx, ERROR, subjects, f"{unit.name}: working space in front {gap:.2f} m to {what}, "
                                              f"required {need:.2f} m")


def _unit_candidates(ctx: Context) -> list[str]:
    """Racks S4 may report: a device too wide or deep, outside the rack's units or on a unit
    another device takes; one loop over the devices with each type's figures looked up once."""
    doc = ctx.doc
    catalog, racks = doc.catalog, doc.racks
    sizes = {key: (catalog[key].width_m, catalog[key].depth_m, catalog[key].height_u)
             for key in {d.type for d in doc.devices.values()}}
    limits = {key: (catalog[key].width_m, catalog[key].depth_m, catalog[key].rack_units)
              for key in {r.type for r in racks.values()}}
    used: dict[str, set[int]] = {}
    found = set()
    for device in doc.devices.values():
        rack = racks.get(device.rack)
        if rack is None or device.rack in found:
            continue
        width, depth, height = sizes[device.type]
        rack_width, rack_depth, total = limits[rack.type]
        if width > rack_width or depth > rack_depth:
            found.add(device.rack)
        elif height:
            units = range(device.u, device.u + height)
            taken = used.setdefault(device.rack, set())
            if device.u < 1 or device.u + height - 1 > total or not taken.isdisjoint(units):
                found.add(device.rack)
            taken.update(units)
    return list(found)


@rule("S4", scope=RACK, reads={"rack.type", "dev.*"}, source="EIA-310 rack units (catalogue heights and sizes)",
      title="Devices fit the rack's units and size without overlapping", candidates=_unit_candidates)
def rack_units(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    rack = doc.racks[rack_id]
    rack_type = doc.catalog[rack.type]
    total = rack_type.rack_units
    owner: dict[int, str] = {}
    for device in doc.devices_in(rack_id):
        item = doc.catalog[device.type]
        for size, limit, what in ((item.width_m, rack_type.width_m, "wide"), (item.depth_m, rack_type.depth_m, "deep")):
            if size > limit:
                yield r.finding(ctx, ERROR, (rack_id, device.id),
                                f"{rack.name}: {device.name} is {size:.3f} m {what}, the rack {limit:.3f} m")
        height = item.height_u
        if height == 0:
            continue
        top = device.u + height - 1
        span = f"U{device.u}" if top == device.u else f"U{device.u}–U{top}"
        if device.u < 1 or top > total:
            yield r.finding(ctx, ERROR, (rack_id, device.id), f"{rack.name}: {device.name} at {span} is outside the rack's {total}U")
        clash = sorted({owner[u] for u in range(device.u, top + 1) if u in owner}, key=natural_key)
        for other in clash:
            yield r.finding(ctx, ERROR, (rack_id, other, device.id),
                            f"{rack.name}: {device.name} ({span}) overlaps {doc.devices[other].name}")
        for u in range(device.u, top + 1):
            owner.setdefault(u, device.id)


@rule("S5", scope=HALL, reads={"rack.*", "fu.*"}, source="Hall survey: the hall outline", title="Hall outline given")
def outline_given(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    """A plan without an outline (begun before the survey) cannot be checked for equipment
    outside the hall; a warning says so instead of S1 passing every rack (outline edits re-run
    every rule; it reads the racks and units for their count)."""
    doc = ctx.doc
    if doc.outline:
        return
    placed = len(doc.racks) + len(doc.floor_units)
    if placed:
        yield r.finding(ctx, WARNING, (HALL_SUBJECT,),
                        f"The plan has no hall outline: S1 did not check that its {placed:,} racks and floor units "
                        f"stand inside the hall (Plan ▸ Hall features ▸ Outline, or new --from-dxf)")
