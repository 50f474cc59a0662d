"""Where the racks of a NetBox import stand: NetBox records racks, not where they are on the floor,
so ``planner import --from netbox`` lays them out and says so.

Racks are grouped into rows by their NetBox location (the export writes one location per row of
racks) and, within one, by the name without its trailing number (``A01``, ``A02`` → row A;
``DH1-R07`` → row DH1-R), each in name order (``R2`` before ``R10``). When every rack is in one
location (nothing says where rows break), a group longer than ``MAX_ROW_RACKS`` is cut into rows
of that many. Rows run east-west, side by side, fronts in line,
and alternate as the templates lay them (``planner.layout.rows``): the first faces north, the next
south, so they share a hot aisle, then a cold aisle, each the design basis's minimum rounded up to
whole floor tiles (a cold aisle exactly at its minimum gets a tile more). A busbar run (a NetBox
power panel) spans the racks it feeds in the row where most of them stand, over their front (side A)
or rear (side B) edge as the templates hang them. A racked device NetBox holds without a position
goes to the lowest free U of its rack. A floor unit (a row CDU, a power cabinet: a NetBox device in
no rack) stands at the east end of the row of its location. The hall is drawn around it all with the
templates' wall margin, as one floor zone at the default rating.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

from planner.model.basis import DesignBasis
from planner.model.catalog import Catalog
from planner.model.document import natural_key
from planner.model.objects import BusbarRun, Device, FloorUnit, Point, Rack

TILE_M = 0.6
#: Space between the racks and the walls, as the templates draw halls (``layout.rows.Site``).
WALL_MARGIN_M = 2.4
#: The longest row the layout makes: a planning assumption (a row of 20 racks of 600–800 mm is
#: 12–16 m long), not something NetBox records. Move racks to where they stand.
MAX_ROW_RACKS = 20
_TRAILING_NUMBER = re.compile(r"[\s._-]*\d+$")


def rows_by_name(racks: list[Rack], locations: dict[str, str]) -> list[list[Rack]]:
    """The racks in rows: grouped by location (rack id → location name) and name stem, in name
    order; at most MAX_ROW_RACKS a row when the locations say nothing of rows."""
    groups: dict[tuple, list[Rack]] = {}
    for rack in sorted(racks, key=lambda r: natural_key(r.name)):
        key = (natural_key(locations.get(rack.id, "")), natural_key(_TRAILING_NUMBER.sub("", rack.name)))
        groups.setdefault(key, []).append(rack)
    size = MAX_ROW_RACKS if len(set(locations.values())) <= 1 else len(racks)
    return [groups[key][start:start + size] for key in sorted(groups) for start in range(0, len(groups[key]), size)]


def _aisle(minimum: float, extra_when_exact: bool) -> float:
    width = math.ceil(minimum / TILE_M - 1e-9) * TILE_M
    if extra_when_exact and abs(width - minimum) < 1e-9:
        width += TILE_M
    return round(width, 6)


def place_rows(catalog: Catalog, basis: DesignBasis, rows: list[list[Rack]]) -> tuple[float, float]:
    """Set position, rotation and row of every rack; returns the far corner of the racks (m)."""
    cold = _aisle(basis.front_aisle_min_m, True)
    hot = _aisle(basis.rear_aisle_min_m, False)
    y = far_x = far_y = WALL_MARGIN_M
    for index, row in enumerate(rows):
        depth = max(catalog[rack.type].depth_m for rack in row)
        north = index % 2 == 0
        x = WALL_MARGIN_M
        for rack in row:
            item = catalog[rack.type]
            rack.x = round(x + item.width_m / 2, 6)
            # fronts in line: the north edge of a north-facing row, the south edge of the next
            rack.y = round(y + item.depth_m / 2 if north else y + depth - item.depth_m / 2, 6)
            rack.rotation = 0 if north else 180
            rack.row = str(index + 1)
            x += item.width_m
        far_x, far_y = max(far_x, x), y + depth
        y += depth + (hot if north else cold)
    return far_x, far_y


def place_floor_units(catalog: Catalog, racks: list[Rack], units: list[FloorUnit], far_x: float,
                      far_y: float) -> tuple[float, float]:
    """Stand each floor unit (a row CDU, a power cabinet) at the east end of its row, against the
    last rack as the templates stand a row CDU, the next against it; a unit of no row in a column
    east of everything. Returns the new far corner of what stands on the floor (m)."""
    ends: dict[str, tuple[float, float, int]] = {}  # row → east edge, centre line, rotation
    for rack in racks:
        east = rack.x + catalog[rack.type].width_m / 2
        if rack.row not in ends or east > ends[rack.row][0]:
            ends[rack.row] = (east, rack.y, rack.rotation)
    column_x = far_x + TILE_M
    column_y = WALL_MARGIN_M
    for unit in sorted(units, key=lambda u: natural_key(u.name)):
        item = catalog[unit.type]
        if unit.row in ends:
            east, centre, rotation = ends[unit.row]
            unit.x, unit.y, unit.rotation = round(east + item.width_m / 2, 6), round(centre, 6), rotation
            ends[unit.row] = (east + item.width_m, centre, rotation)
        else:
            unit.x, unit.y = round(column_x + item.width_m / 2, 6), round(column_y + item.depth_m / 2, 6)
            column_y += item.depth_m + TILE_M
        far_x = max(far_x, unit.x + item.width_m / 2)
        far_y = max(far_y, unit.y + item.depth_m / 2)
    return far_x, far_y


def place_at_lowest_free_u(catalog: Catalog, devices: list[Device], unplaced: list[Device],
                           racks: list[Rack]) -> None:
    """Racked devices NetBox holds without a position go to the lowest free U of their rack."""
    used: dict[str, set[int]] = defaultdict(set)
    for device in devices:
        if device.u:
            used[device.rack].update(range(device.u, device.u + catalog[device.type].height_u))
    sizes = {rack.id: catalog[rack.type].rack_units for rack in racks}
    for device in unplaced:
        height = catalog[device.type].height_u
        free = (u for u in range(1, sizes[device.rack] - height + 2) if used[device.rack].isdisjoint(range(u, u + height)))
        device.u = next(free, 1)
        used[device.rack].update(range(device.u, device.u + height))


def hang_busbar(catalog: Catalog, busbar: BusbarRun, fed: list[Rack]) -> None:
    """Put a busbar run over the racks it feeds that stand in its commonest row."""
    if not fed:
        return
    row = Counter(rack.row for rack in fed).most_common(1)[0][0]
    racks = sorted((r for r in fed if r.row == row), key=lambda r: r.x)
    first = racks[0]
    half_depth = catalog[first.type].depth_m / 2
    y = first.y - half_depth if busbar.side == "A" else first.y + half_depth
    busbar.x1 = round(first.x - catalog[first.type].width_m / 2, 6)
    busbar.x2 = round(racks[-1].x + catalog[racks[-1].type].width_m / 2, 6)
    busbar.y1 = busbar.y2 = round(y, 6)
    busbar.row = row


def hall_outline(far_x: float, far_y: float) -> list[Point]:
    """The hall rectangle around the racks, wall margin added, on whole tiles."""
    width = round(math.ceil((far_x + WALL_MARGIN_M) / TILE_M - 1e-9) * TILE_M, 6)
    depth = round(math.ceil((far_y + WALL_MARGIN_M) / TILE_M - 1e-9) * TILE_M, 6)
    return [(0.0, 0.0), (width, 0.0), (width, depth), (0.0, depth)]
