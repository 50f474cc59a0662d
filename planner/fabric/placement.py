"""Put the switches a fabric needs into network racks, in the middle or at the end of a row.

Each switch comes with a home row (the row of the nodes it serves). Racks in that row holding
no GPU node or storage are network racks and are filled first; what does not fit goes into new
racks of the row's type, inserted after the row's existing network racks or, failing those, in
the middle of the row (the racks beyond move along to make room) or at its end. A rack takes
switches up to its free rack units and the power limit given, so a generated network rack
stays within its rack and tap-off ratings, and it gets rack PDUs on sides A and B as the
templates fit them (``rack_pdus``), so that its power has a way in (P4).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from planner.commands.edits import Refusal, next_rack_name
from planner.model.catalog import NODE, RACK_PDU, STORAGE
from planner.model.document import Document
from planner.model.objects import Device, Rack

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


def pdu_type(doc: Document) -> str:
    """The rack PDU the templates and the fabric generator fit: the catalogue's highest-rated."""
    return max(doc.catalog.of_kind(RACK_PDU), key=lambda i: i.rating_a).key


def pdus_per_side(doc: Document, rack_w: float) -> int:
    """0U PDUs one side needs to carry the whole rack (2N), within the warning margin."""
    basis = doc.basis
    pdu = doc.catalog[pdu_type(doc)]
    each = three_phase_w(doc, pdu.rating_a * basis.derating * basis.power_warn_fraction)
    return max(1, math.ceil(rack_w / each - 1e-9))


def rack_pdus(doc: Document, rack_id: str, rack_w: float) -> list[Device]:
    """The 0U PDUs a rack drawing ``rack_w`` needs: on side A and side B, each side able to carry
    the whole rack, which holds under 2N, N+1 and no redundancy alike (P4)."""
    per_side = pdus_per_side(doc, rack_w)
    return [Device(id=doc.new_id("dev"), type=pdu_type(doc), name=f"PDU-{side}{k + 1}", rack=rack_id, u=0)
            for side in ("A", "B") for k in range(per_side)]


@dataclass
class Placement:
    """Where the switches go: new racks, racks moved aside, and (rack id, U) per switch."""

    new_racks: list[Rack] = field(default_factory=list)
    moves: dict[str, dict[str, float]] = field(default_factory=dict)
    slots: list[tuple[str, int]] = field(default_factory=list)


class _RackFill:
    """Free U and power headroom of one network rack while switches are packed into it."""

    def __init__(self, free_units: set[int], height: int, headroom_w: float, each_w: float) -> None:
        self.free = free_units
        self.height = height
        self.headroom = headroom_w
        self.each = each_w

    def take(self) -> int | None:
        if self.each > self.headroom + 1e-6:
            return None
        for u in sorted(self.free):
            if all(x in self.free for x in range(u, u + self.height)):
                self.free.difference_update(range(u, u + self.height))
                self.headroom -= self.each
                return u
        return None


def _is_network_rack(doc: Document, rack_id: str) -> bool:
    return not any(doc.catalog[d.type].kind in (NODE, STORAGE) for d in doc.devices_in(rack_id))


def place_switches(doc: Document, switch_type: str, homes: list[str], mode: str = "middle",
                   rack_power_w: float | None = None) -> Placement:
    """Slots for ``len(homes)`` switches of ``switch_type``, switch *i* in row ``homes[i]``."""
    if mode not in PLACEMENTS:
        raise Refusal(f"placement must be one of {', '.join(PLACEMENTS)}")
    item = doc.catalog[switch_type]
    each_w = device_power_w(doc, switch_type)
    rows: dict[str, list[Rack]] = {}
    for rack in doc.racks.values():
        rows.setdefault(row_key(rack), []).append(rack)
    placement = Placement(slots=[("", 0)] * len(homes))
    wanted: dict[str, list[int]] = {}
    for index, home in enumerate(homes):
        wanted.setdefault(home, []).append(index)
    names: set[str] = set()
    for home, indices in wanted.items():
        racks = sorted(rows[home], key=lambda r: (r.x, r.y) if r.rotation % 180 == 0 else (r.y, r.x))
        limit = rack_power_w if rack_power_w is not None else _rack_limit_w(doc, racks[0].type)
        fills = []
        for rack in racks:
            if _is_network_rack(doc, rack.id):
                total = doc.catalog[rack.type].rack_units
                free = set(range(1, total + 1)) - doc.used_units(rack.id)
                load = sum(device_power_w(doc, d.type) for d in doc.devices_in(rack.id))
                fills.append((rack.id, _RackFill(free, item.height_u, limit - load, each_w)))
        pending = list(indices)
        for rack_id, fill in fills:
            while pending:
                u = fill.take()
                if u is None:
                    break
                placement.slots[pending.pop(0)] = (rack_id, u)
        if not pending:
            continue
        rack_type = doc.catalog[racks[0].type]
        per_rack = min(rack_type.rack_units // max(item.height_u, 1), math.floor(limit / each_w + 1e-9))
        if per_rack < 1:
            raise Refusal(f"a {item.name} does not fit in a {rack_type.name} within {limit / 1000:.1f} kW")
        count = math.ceil(len(pending) / per_rack)
        after = fills[-1][0] if fills else None
        new = _insert_racks(doc, racks, count, mode, after, placement, names)
        for rack in new:
            fill = _RackFill(set(range(1, rack_type.rack_units + 1)), item.height_u, limit, each_w)
            while pending:
                u = fill.take()
                if u is None:
                    break
                placement.slots[pending.pop(0)] = (rack.id, u)
    return placement


def _rack_limit_w(doc: Document, rack_type: str) -> float:
    """Default power a network rack may carry: its rating less the design warning margin."""
    return doc.catalog[rack_type].max_power_kw * 1000 * doc.basis.power_warn_fraction


def _insert_racks(doc: Document, racks: list[Rack], count: int, mode: str, after: str | None,
                  placement: Placement, names: set[str]) -> list[Rack]:
    """``count`` new racks in the row: after ``after``, else in the middle or at the end."""
    along_x = racks[0].rotation % 180 == 0
    rack_type = doc.catalog[racks[0].type]
    pitch = rack_type.width_m

    def along(rack: Rack) -> float:
        return rack.x if along_x else rack.y

    def half(rack: Rack) -> float:
        return doc.catalog[rack.type].width_m / 2

    if after:
        index = next(i for i, r in enumerate(racks) if r.id == after) + 1
    elif mode == "middle":
        index = len(racks) // 2
    else:
        index = len(racks)
    if index < len(racks):
        start = along(racks[index]) - half(racks[index]) + pitch / 2
        for rack in racks[index:]:
            moved = round(along(rack) + count * pitch, 6)
            placement.moves[rack.id] = {"x": moved} if along_x else {"y": moved}
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
