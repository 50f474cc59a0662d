"""Put the switches a fabric needs into network racks, in the middle or at the end of a row,
and give them power (DESIGN §5 Power).

Each switch comes with a home row (the row of the nodes it serves). Racks in that row holding
no GPU node or storage are network racks and are filled first; what does not fit goes into new
racks of the row's type, inserted after the row's existing network racks or, failing those, in
the middle of the row (the racks, row CDUs and busbar runs beyond move along to make room, and
the busbar run the new racks stand under grows by as much) or at its end. What a home row's
feeds cannot carry goes to the network racks of the nearest rows that can.

A rack takes switches while it has free rack units and power within three limits, each to the
design basis's warning margin of its derated rating: the rack's own limit (``rack_power_w``, or
its rating), the tap-off of each busbar feeding it (P2: one side carries the whole rack) and what
each of those busbars still carries with every rack on it (P2 failover; ``_Feeds``). A new rack
is fed from the busbars of the rack it is inserted beside. Every network rack that draws more
gets the 0U PDUs the templates fit for its new load and cords (``rack_pdus``, P4, P10). Switches
the feeds cannot carry raise ``FabricError`` naming the busbars and the kilowatts missing: the
user adds a busbar run, or builds fewer switches (a higher oversubscription).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from planner.commands.edits import Refusal, next_rack_name
from planner.fabric.sizing import FabricError
from planner.model.catalog import NODE, RACK_PDU, CatalogItem
from planner.model.cords import cord_current_a, cords_per_side, largest_cord_w
from planner.model.document import Document
from planner.model.objects import BusbarRun, Device, Rack

PLACEMENTS = ("middle", "end")


def row_key(rack: Rack) -> str:
    """The row a rack belongs to: its ``row`` name, else the line it stands on."""
    if rack.row:
        return rack.row
    across = rack.y if rack.rotation % 180 == 0 else rack.x
    return f"@{rack.rotation % 180}:{round(across, 2)}"


def device_power_w(doc: Document, type_key: str) -> float:
    item = doc.catalog[type_key]
    return item.power_peak_w if doc.basis.load_basis == "peak" else item.power_w


def three_phase_w(doc: Document, current_a: float) -> float:
    """P = √3 · V · I · PF at the design basis's voltage and power factor."""
    basis = doc.basis
    return math.sqrt(3) * basis.voltage_v * current_a * basis.power_factor


def tapoff_limit_w(doc: Document, bus_type: str) -> float:
    """Power one tap-off carries within the derating and the warning margin (no limit when the
    busbar type does not rate its tap-offs: P1 then says they are not checked)."""
    basis = doc.basis
    rating = doc.catalog[bus_type].tapoff_rating_a
    if rating is None:
        return math.inf
    return three_phase_w(doc, rating * basis.derating * basis.power_warn_fraction)


def busbar_limit_w(doc: Document, bus_type: str) -> float:
    """Power one busbar run carries within the derating and the warning margin."""
    basis = doc.basis
    return three_phase_w(doc, doc.catalog[bus_type].rating_a * basis.derating * basis.power_warn_fraction)


def rack_load_w(doc: Document, rack_id: str) -> float:
    """Power of everything in a rack, on the design basis's load basis."""
    return sum(device_power_w(doc, d.type) for d in doc.devices_in(rack_id))


def pdu_type(doc: Document) -> str:
    """The rack PDU the templates and the fabric generator fit: the catalogue's highest-rated."""
    return max(doc.catalog.of_kind(RACK_PDU), key=lambda i: i.rating_a).key


def pdus_per_side(doc: Document, rack_w: float, cords: dict[str, int] | None = None,
                  cord_w: dict[str, float] | None = None) -> int:
    """0U PDUs one side needs to carry the whole rack (2N), within the warning margin, and to give
    each of the side's power cords an outlet of its type (``cords``: outlet type → cords per
    side, ``planner.model.cords.cords_per_side``; 4 liquid nodes of 8 C20 PSUs are 16 C19 cords
    a side, 3 PDUs of 6 C19 outlets) on a breaker group that carries it with the other side out
    (``cord_w``: the most one cord of the type carries, ``largest_cord_w``; a group takes as many
    such cords as fit its breaker within the derating and the warning margin, at least one, P12).
    A type the PDU has no outlet of adds none (P10 reports the cords left without one)."""
    basis = doc.basis
    pdu = doc.catalog[pdu_type(doc)]
    each = three_phase_w(doc, pdu.rating_a * basis.derating * basis.power_warn_fraction)
    need = max(1, math.ceil(rack_w / each - 1e-9))
    for outlet, count in (cords or {}).items():
        room = 0
        for group in pdu.outlet_groups:
            if group["outlet"] != outlet:
                continue
            amps = cord_current_a(doc, pdu, group["phase"], (cord_w or {}).get(outlet, 0.0))
            fit = math.floor(group["breaker_a"] * basis.derating * basis.power_warn_fraction / amps + 1e-9) \
                if amps > 0 else group["count"]
            room += min(group["count"], max(fit, 1))
        if room:
            need = max(need, math.ceil(count / room))
    return need


def rack_pdus(doc: Document, rack_id: str, rack_w: float, have_per_side: int = 0,
              adding: Sequence[str] = ()) -> list[Device]:
    """The 0U PDUs a rack drawing ``rack_w`` needs beyond the ``have_per_side`` it holds: on side
    A and side B, each side able to carry the whole rack, which holds under 2N, N+1 and no
    redundancy alike (P4), and with an outlet for every cord of the side, those of the devices
    in the rack and of the types ``adding`` about to go in (P10, P12)."""
    types = [*(d.type for d in doc.devices_in(rack_id)), *adding]
    per_side = pdus_per_side(doc, rack_w, cords_per_side(doc, types), largest_cord_w(doc, types))
    return [Device(id=doc.new_id("dev"), type=pdu_type(doc), name=f"PDU-{side}{k + 1}", rack=rack_id, u=0)
            for side in ("A", "B") for k in range(have_per_side, per_side)]


@dataclass
class Placement:
    """Where the switches go: new racks, racks moved aside (``moves``), row CDUs and busbar runs
    moved or lengthened with them (``shifts``), (rack id, U) per switch, and the rack PDUs the
    new and fuller network racks need (``pdus``)."""

    new_racks: list[Rack] = field(default_factory=list)
    moves: dict[str, dict[str, float]] = field(default_factory=dict)
    slots: list[tuple[str, int]] = field(default_factory=list)
    shifts: dict[str, dict[str, float]] = field(default_factory=dict)
    pdus: list[Device] = field(default_factory=list)


class _Feeds:
    """What each busbar run still carries (2N: each side carries every rack on it alone, P2)."""

    def __init__(self, doc: Document) -> None:
        self.left = {bus.id: busbar_limit_w(doc, bus.type) for bus in doc.busbars.values()}
        for rack in doc.racks.values():
            load = rack_load_w(doc, rack.id)
            for bus in self.of(rack):
                self.left[bus] -= load

    def of(self, rack: Rack) -> list[str]:
        return [bus for bus in dict.fromkeys((rack.feed_a, rack.feed_b)) if bus in self.left]


class _RackFill:
    """Free U and power headroom of one network rack (and of its feeds) while switches are packed
    into it."""

    def __init__(self, rack_id: str, free_units: set[int], height: int, headroom_w: float, each_w: float,
                 feeds: _Feeds, buses: list[str]) -> None:
        self.rack_id = rack_id
        self.free = free_units
        self.height = height
        self.headroom = headroom_w
        self.each = each_w
        self.feeds = feeds
        self.buses = buses
        self.added = 0

    def take(self) -> int | None:
        if self.each > self.headroom + 1e-6 or any(self.each > self.feeds.left[b] + 1e-6 for b in self.buses):
            return None
        for u in sorted(self.free):
            if all(x in self.free for x in range(u, u + self.height)):
                self.free.difference_update(range(u, u + self.height))
                self.headroom -= self.each
                for bus in self.buses:
                    self.feeds.left[bus] -= self.each
                self.added += 1
                return u
        return None

    def fill(self, pending: list[int], placement: Placement) -> None:
        """Give switches of ``pending`` (in order) a U in this rack while it has room."""
        while pending:
            u = self.take()
            if u is None:
                return
            placement.slots[pending.pop(0)] = (self.rack_id, u)


def is_network_rack(doc: Document, rack_id: str) -> bool:
    """A rack without GPU nodes: where the generator puts switches (and storage nodes)."""
    return not any(doc.catalog[d.type].kind == NODE for d in doc.devices_in(rack_id))  # storage nodes go there too


def place_switches(doc: Document, switch_type: str, homes: list[str], mode: str = "middle",
                   rack_power_w: float | None = None) -> Placement:
    """Slots for ``len(homes)`` switches of ``switch_type``, switch *i* in row ``homes[i]``."""
    if mode not in PLACEMENTS:
        raise Refusal(f"placement must be one of {', '.join(PLACEMENTS)}")
    item = doc.catalog[switch_type]
    each_w = device_power_w(doc, switch_type)
    feeds = _Feeds(doc)
    rows: dict[str, list[Rack]] = {}
    for rack in doc.racks.values():
        rows.setdefault(row_key(rack), []).append(rack)
    for members in rows.values():
        members.sort(key=lambda r: (r.x, r.y) if r.rotation % 180 == 0 else (r.y, r.x))
    placement = Placement(slots=[("", 0)] * len(homes))
    wanted: dict[str, list[int]] = {}
    for index, home in enumerate(homes):
        wanted.setdefault(home, []).append(index)
    existing: dict[str, list[_RackFill]] = {}

    def network_racks(row: str) -> list[_RackFill]:
        if row not in existing:
            existing[row] = []
            for rack in rows[row]:
                if is_network_rack(doc, rack.id):
                    free = set(range(1, doc.catalog[rack.type].rack_units + 1)) - doc.used_units(rack.id)
                    headroom = _rack_limit_w(doc, rack, feeds, rack_power_w) - rack_power_w_of(doc, rack.id)
                    existing[row].append(_RackFill(rack.id, free, item.height_u, headroom, each_w, feeds,
                                                   feeds.of(rack)))
        return existing[row]

    names: set[str] = set()
    added: list[_RackFill] = []
    short: dict[str, list[int]] = {}
    for home, indices in wanted.items():
        pending = list(indices)
        fills = network_racks(home)
        for fill in fills:
            fill.fill(pending, placement)
        if pending:
            added += _new_racks(doc, rows[home], item, pending, mode, fills, feeds, rack_power_w, placement, names)
        if pending:
            short[home] = pending
    order = sorted(rows, key=_row_order)
    for home, pending in short.items():  # the nearest rows whose network racks and feeds have room
        at = order.index(home)
        for row in sorted(order, key=lambda r: abs(order.index(r) - at)):
            for fill in network_racks(row):
                fill.fill(pending, placement)
        if pending:
            raise FabricError(_short_of_power(doc, home, item.key, len(pending) * each_w, network_racks(home), feeds))
    for fill in [*(f for fills in existing.values() for f in fills), *added]:
        if fill.added:  # P4: its PDUs carry what it draws now (2N: each side all of it)
            have = sum(1 for d in doc.devices_in(fill.rack_id) if doc.catalog[d.type].kind == RACK_PDU) // 2
            load = rack_power_w_of(doc, fill.rack_id) + fill.added * each_w
            placement.pdus.extend(rack_pdus(doc, fill.rack_id, load, have, [item.key] * fill.added))
    return placement


def rack_power_w_of(doc: Document, rack_id: str) -> float:
    """Power of a rack in the plan (0 for one not in it yet)."""
    return rack_load_w(doc, rack_id) if rack_id in doc.racks else 0.0


def _row_order(row: str) -> tuple:
    return (0, int(row), "") if row.isdigit() else (1, 0, row)


def _new_racks(doc: Document, racks: list[Rack], item: CatalogItem, pending: list[int], mode: str, fills: list[_RackFill],
               feeds: _Feeds, rack_power_w: float | None, placement: Placement, names: set[str]) -> list[_RackFill]:
    """New network racks in the row for the switches ``pending`` (as many as their feeds carry)."""
    each_w = device_power_w(doc, item.key)
    index = _insert_index(racks, mode, fills[-1].rack_id if fills else None)
    beside = racks[min(index, len(racks) - 1)]
    buses = feeds.of(beside)
    limit = _rack_limit_w(doc, beside, feeds, rack_power_w)
    rack_type = doc.catalog[beside.type]
    per_rack = min(rack_type.rack_units // max(item.height_u, 1), math.floor(limit / each_w + 1e-9))
    if per_rack < 1:
        raise Refusal(f"a {item.name} does not fit in a {rack_type.name} within {limit / 1000:.1f} kW")
    carried = min([len(pending), *(math.floor(feeds.left[b] / each_w + 1e-9) for b in buses)])
    count = math.ceil(carried / per_rack)
    if count < 1:
        return []
    made = []
    for rack in _insert_racks(doc, racks, count, index, placement, names):
        fill = _RackFill(rack.id, set(range(1, rack_type.rack_units + 1)), item.height_u, limit, each_w, feeds, buses)
        fill.fill(pending, placement)
        made.append(fill)
    return made


def _short_of_power(doc: Document, row: str, what: str, need_w: float, fills: list[_RackFill], feeds: _Feeds) -> str:
    """The one line saying which feeds are short and by how much."""
    buses = sorted({b for fill in fills for b in fill.buses}) or sorted(feeds.left)
    left = ", ".join(f"{doc.busbars[b].name} {max(feeds.left[b], 0) / 1000:.1f} kW" for b in buses[:4])
    return (f"row {row}: {need_w / 1000:.1f} kW of {what} switches more than the busbars of its network racks "
            f"carry within {doc.basis.power_warn_fraction:.0%} of their derated rating (left: {left or 'no busbar'}), "
            f"and no other row's network racks have room; add a busbar run for the network racks, or build "
            f"fewer switches (a higher oversubscription)")


def _rack_limit_w(doc: Document, rack: Rack, feeds: _Feeds, rack_power_w: float | None) -> float:
    """Power a network rack may carry: ``rack_power_w``, else its rating, and what a tap-off of each
    busbar feeding it carries, each less the design warning margin."""
    rated = doc.catalog[rack.type].max_power_kw
    limit = rack_power_w if rack_power_w is not None else \
        math.inf if rated is None else rated * 1000 * doc.basis.power_warn_fraction
    for bus in feeds.of(rack):
        limit = min(limit, tapoff_limit_w(doc, doc.busbars[bus].type))
    return limit


def _insert_index(racks: list[Rack], mode: str, after: str | None) -> int:
    """Where new racks go in the row: after ``after``, else in the middle or at the end."""
    if after:
        return next(i for i, r in enumerate(racks) if r.id == after) + 1
    return len(racks) // 2 if mode == "middle" else len(racks)


def _insert_racks(doc: Document, racks: list[Rack], count: int, index: int, placement: Placement,
                  names: set[str]) -> list[Rack]:
    """``count`` new racks in the row before ``racks[index]`` (or at its end); what stands beyond
    moves along, and the busbar run over the gap grows."""
    along_x = racks[0].rotation % 180 == 0
    rack_type = doc.catalog[racks[0].type]
    pitch = rack_type.width_m

    def along(rack: Rack) -> float:
        return rack.x if along_x else rack.y

    def half(rack: Rack) -> float:
        return doc.catalog[rack.type].width_m / 2

    if index < len(racks):
        edge = along(racks[index]) - half(racks[index])
        start = edge + pitch / 2
        for rack in racks[index:]:
            moved = round(along(rack) + count * pitch, 6)
            placement.moves[rack.id] = {"x": moved} if along_x else {"y": moved}
        if racks[0].row:
            _shift_row(doc, racks[0].row, along_x, edge, count * pitch, placement)
    else:
        start = along(racks[-1]) + half(racks[-1]) + pitch / 2
    template = racks[min(index, len(racks) - 1)]
    new = []
    for k in range(count):
        name = next_rack_name(doc, names)
        names.add(name)
        position = round(start + k * pitch, 6)
        x, y = (position, template.y) if along_x else (template.x, position)
        rack = Rack(id=doc.new_id("rack"), type=template.type, name=name, x=x, y=y,
                    rotation=template.rotation, row=template.row, feed_a=template.feed_a,
                    feed_b=template.feed_b)
        new.append(rack)
    placement.new_racks.extend(new)
    return new


def _shift_row(doc: Document, row: str, along_x: bool, edge: float, shift: float, placement: Placement) -> None:
    """Row CDUs and busbar runs of ``row`` beyond ``edge`` move by ``shift`` along the row; a
    busbar run over ``edge`` grows by as much (its racks beyond moved; S1, P5)."""
    axis = "x" if along_x else "y"
    for unit in doc.floor_units.values():
        if unit.row == row and getattr(unit, axis) > edge + 1e-6:
            placement.shifts[unit.id] = {axis: round(getattr(unit, axis) + shift, 6)}
    for bus in doc.busbars.values():
        if bus.row != row:
            continue
        ends = _ends(bus, axis)
        lo, hi = min(ends), max(ends)
        if hi <= edge + 1e-6:
            continue
        moved = [round(e + shift, 6) if lo >= edge - 1e-6 or e == hi else e for e in ends]
        placement.shifts[bus.id] = {f"{axis}1": moved[0], f"{axis}2": moved[1]}


def _ends(bus: BusbarRun, axis: str) -> tuple[float, float]:
    return (bus.x1, bus.x2) if axis == "x" else (bus.y1, bus.y2)
