"""References right in kind but wrong in detail: a feed on the other side's busbar (P6), a
coolant loop on a unit that is no CDU (C7).

The loader refuses references that name nothing or an object of another kind (a feed naming a
rack): no edit can make those. These two it lets through, because edits can make them after
the assignment was right: a busbar's side changed in the properties dock, a unit's or device's
type changed to one that is no CDU. Refusing them at load would make a plan the editor saved
unreadable; as findings they say what to fix, with the names.
"""

from __future__ import annotations

from collections.abc import Iterator

from planner.model.catalog import RACK_CDU, ROW_CDU
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, Finding
from planner.rules.scopes import RACK

_KIND_NAMES = {"rack_pdu": "a rack PDU", "cabinet": "a power cabinet", "node": "a GPU node", "switch": "a switch",
               "storage": "a storage node", "rack_manifold": "a rack manifold"}


@rule("P6", scope=RACK, reads={"rack.feed_a", "rack.feed_b", "bus.side", "bus.name"},
      source="2N A/B feeds: feed A from a side-A busbar, feed B from a side-B busbar",
      title="Feed on its own side")
def feed_side(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    rack = doc.racks[rack_id]
    for side, bus_id in (("A", rack.feed_a), ("B", rack.feed_b)):
        if bus_id is None:
            continue
        bus = doc.busbars.get(bus_id)
        if bus is not None and bus.side != side:
            yield r.finding(ctx, ERROR, (rack_id, bus_id),
                            f"{rack.name}: feed {side} is busbar {bus.name}, a side-{bus.side} run; "
                            f"assign a side-{side} busbar")


@rule("C7", scope=RACK, reads={"rack.cdu", "dev.type", "dev.name", "fu.type", "fu.name"},
      source="Direct-to-chip liquid cooling: a rack's loop runs from a row or in-rack CDU",
      title="Loop on a CDU")
def loop_on_cdu(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    rack = doc.racks[rack_id]
    if rack.cdu is None:
        return
    unit = doc.floor_units.get(rack.cdu) or doc.devices.get(rack.cdu)
    if unit is None:
        return
    item = doc.catalog[unit.type]
    if item.kind not in (ROW_CDU, RACK_CDU):
        what = _KIND_NAMES.get(item.kind, f"a {item.kind}")
        yield r.finding(ctx, ERROR, (rack_id, rack.cdu),
                        f"{rack.name}: coolant loop on {unit.name}, {what} ({item.name}), not a CDU")
