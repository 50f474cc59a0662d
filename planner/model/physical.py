"""What a field's own range cannot refuse: what each kind of equipment needs, and how fields
relate (peak ≥ steady, a warning before its error, a zone's corners enclosing an area).

The bounds table (``planner.model.bounds``) gives every field a range on its own. A custom busbar
rated 0 A, a rack 0 m wide, a node of 0 U or a CDU with more redundant pumps than pumps fit those
ranges and are still impossible: each would switch a check off (a rule skips a zero rating) or
crash one (floor load divides by the rack's footprint). The loader, the custom-type dialog, the
design-basis dialog and the outline and feature editors (through ``planner.commands.checks``)
refuse what this module finds, with one message naming the field, its value and the range; what
an edit in progress may pass through (a busbar dragged to 0 m) is a finding instead.

Ports beyond the rails (``ports_problem``, issue 21) follow the same line: a refusal for what
cannot be (port names that meet, "5+1" on four PSUs, PSUs that cannot carry the peak draw with
all of them working, coolant connections on an air-cooled unit); a redundancy the PSUs cannot
hold at the peak draw is a validation finding, since vendors promise redundancy at capped power.
A rack PDU's outlets (``outlets_problem``, issue 21 part 3) are refused where they cannot be: an
outlet that is no C13/C19, a group breaker above the PDU's rating, a phase the PDU does not
have, outlets on a kind that is no PDU, outlet names that meet its other ports.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from planner.model.bounds import Range, format_number, number_problem
from planner.model.catalog import (
    BUSBAR,
    CABINET,
    COOLED_KINDS,
    MANAGEMENT_SWITCH_NETWORKS,
    NODE,
    RACK,
    RACK_CDU,
    RACK_MANIFOLD,
    RACK_PDU,
    ROW_CDU,
    STORAGE,
    SWITCH,
)
from planner.model.ports import (
    CONNECTORS,
    CONSOLE_CONNECTORS,
    POWER,
    groups_problem,
    outlets_problem,
    psu_problem,
    qd_size_mm,
)

#: The widest hall a plan may outline, either way (m). The largest single data halls are a few
#: hundred metres long (a 131,072-GPU hall of this planner's templates is about 300 m); 2 km is
#: a campus, not a hall, and a 20 km outline is a unit mistake (mm read as m).
MAX_HALL_M = 2_000.0
#: The least area a zone, column or hall encloses (m²): a slender column is 0.1 m × 0.1 m.
MIN_AREA_M2 = 1e-4
#: The shortest busbar run (m): a run shorter than one tap-off box feeds nothing.
MIN_BUSBAR_M = 0.1

_FOOTPRINT = "above 0: floor load divides by the footprint and placement needs a size"
_MOUNTED = (NODE, SWITCH, STORAGE, RACK_CDU)
#: Kinds whose compute ports are the rails (``CatalogItem.port_names()``).
_PORTED = (NODE, SWITCH, STORAGE)
_ELECTRICAL = (BUSBAR, RACK_PDU, CABINET)


def _size(what: str) -> Range:
    return Range(0.05, 10, "m", f"{what}: {_FOOTPRINT}")


def _ranges() -> dict[str, dict[str, Range]]:
    weight = Range(0.1, 100_000, "kg", "a unit's weight: above 0, floor and rack loads add it up")
    height = Range(1, 100, "U", "a rack-mounted unit takes at least 1U (EIA-310); the tallest racks have 58U")
    power = Range(1, 200_000, "W", "a rack-mounted unit's steady draw: above 0, a 0 W unit would pass every power "
                                   "check; at most 200 kW (an 8-GPU node draws about 10–15 kW, a whole rack 130 kW)")
    peak = Range(0, 200_000, "W", "a rack-mounted unit's peak draw (0 = its steady draw): at most 200 kW")
    unit_power = Range(0, 1e6, "W", "a floor unit's own draw: a row CDU's pumps draw tens of kW; at most 1 MW")
    rating = Range(1, 100_000, "A", "a current rating: above 0, a 0 A rating carries nothing")
    ports = Range(1, 1_024, "", "a networked unit has at least one port cage")
    speed = Range(1, 100_000, "Gb/s", "port speed: 400–1,600 Gb/s today; above 0")
    cooling = {"capacity_kw": Range(0.1, 100_000, "kW", "a CDU's heat capacity: above 0"),
               "rated_flow_lpm": Range(0.1, 100_000, "L/min", "a CDU's rated flow: above 0, flow checks divide by it"),
               "pumps": Range(1, 100, "", "a CDU has at least one pump")}
    table: dict[str, dict[str, Range]] = {
        RACK: {"width_m": _size("a rack's width (600–800 mm)"), "depth_m": _size("a rack's depth (1,000–1,200 mm)"),
               "rack_units": Range(1, 100, "U", "a rack's mounting units: 42–58U"), "weight_kg": weight},
        ROW_CDU: {"width_m": _size("a row CDU's width"), "depth_m": _size("a row CDU's depth"), "weight_kg": weight,
                  "power_w": unit_power, "power_peak_w": unit_power, **cooling},
        CABINET: {"width_m": _size("a power cabinet's width"), "depth_m": _size("a power cabinet's depth"),
                  "weight_kg": weight, "rating_a": rating},
        BUSBAR: {"rating_a": rating},
        RACK_PDU: {"rating_a": rating, "weight_kg": weight},
        RACK_MANIFOLD: {"weight_kg": weight, "height_u": Range(0, 0, "U", "a rack manifold is 0U: it hangs at the "
                                                          "rack's rear like a 0U PDU"),
                        "rated_flow_lpm": Range(0.1, 100_000, "L/min", "a rack manifold's rated flow: above 0, "
                                                                       "C11 divides by it")},
    }
    for kind in _MOUNTED:
        table[kind] = {"height_u": height, "weight_kg": weight, "width_m": _size("a rack-mounted unit's width"),
                       "depth_m": _size("a rack-mounted unit's depth"), "power_w": power, "power_peak_w": peak}
    table[NODE] |= {"gpus": Range(1, 1_024, "", "a GPU node holds at least one GPU"), "port_cages": ports,
                    "port_speed_gbps": speed}
    table[SWITCH] |= {"port_cages": ports, "port_speed_gbps": speed}
    table[RACK_CDU] |= cooling
    return table


#: Kind → field → the range that kind needs (beyond the field's own range in the bounds table).
KIND_RANGES: dict[str, dict[str, Range]] = _ranges()


def item_problem(item: Any) -> tuple[str, str] | None:
    """(field, why) for the first thing a catalogue entry of its kind cannot be, or None."""
    kind = item.kind
    for name, limit in KIND_RANGES.get(kind, {}).items():
        problem = number_problem(getattr(item, name), limit)
        if problem:
            return name, f"{problem} for a {kind.replace('_', ' ')} ({limit.why})"
    if kind in _ELECTRICAL and item.phases not in (1, 3):
        return "phases", f"{format_number(item.phases)} is not 1 or 3 (single- or three-phase supply)"
    if item.power_peak_w and item.power_peak_w < item.power_w:
        return "power_peak_w", (f"{format_number(item.power_peak_w)} W is below the steady draw "
                                f"{format_number(item.power_w)} W (peak is at least steady; 0 = the steady draw)")
    if kind in (RACK_CDU, ROW_CDU) and item.redundant_pumps >= item.pumps:
        return "redundant_pumps", (f"{format_number(item.redundant_pumps)} of {format_number(item.pumps)} pumps: "
                                   f"at least one pump must run (N+1 is 1 of 2)")
    return ports_problem(item)


def ports_problem(item: Any) -> tuple[str, str] | None:
    """(field, why) for ports beyond the rails that cannot be (``planner.model.ports``): port
    groups on a rack, or whose names meet; PSU figures that contradict themselves or cannot carry
    the peak draw all working; coolant ports on a unit with no liquid to carry, or a QD size
    that is no size. A refusal only for what cannot be: PSUs that carry the peak with all of
    them working but not after the failures their redundancy promises are a finding (part 3 of
    issue 21), as a vendor may promise redundancy at a capped power. A rack PDU's outlets: see
    ``planner.model.ports.outlets_problem``."""
    kind = item.kind
    if item.port_groups and kind == RACK:
        return "port_groups", "a rack has no ports of its own (its devices and PDUs have them)"
    if item.network and (kind != SWITCH or item.network not in MANAGEMENT_SWITCH_NETWORKS):
        return "network", (f"{item.network!r}: only a switch is made for a management network "
                           f"({', '.join(MANAGEMENT_SWITCH_NETWORKS)}; '' = a fabric switch)")
    if item.port_connector and item.port_connector not in CONNECTORS:
        return "port_connector", f"{item.port_connector!r} is not one of {', '.join(CONNECTORS)}"
    if item.console_port and item.console_port not in CONSOLE_CONNECTORS:
        return "console_port", f"{item.console_port!r} is not one of {', '.join(CONSOLE_CONNECTORS)}"
    if item.console_port and kind in (RACK, BUSBAR):
        return "console_port", f"a {kind} has no console port (its devices and PDUs may have one)"
    found = outlets_problem(item)
    if found:
        return found
    compute = item.port_names() if kind in _PORTED else []
    found = groups_problem(item.port_groups, compute, dict.fromkeys(item.outlet_names(), POWER))
    if found:
        return found
    found = psu_problem(item)
    if found:
        return found
    if kind == RACK_MANIFOLD and not item.coolant_ports:
        return "coolant_ports", "a rack manifold has at least one quick-disconnect pair (8–12 on an ORv3-class one)"
    if item.coolant_ports is not None:
        if kind not in COOLED_KINDS:
            return "coolant_ports", f"a {kind.replace('_', ' ')} has no coolant connections"
        if kind in _MOUNTED and kind != RACK_CDU and item.liquid_fraction <= 0:
            return "coolant_ports", ("an air-cooled unit (liquid-cooled share 0) has no coolant connections; "
                                     "give its liquid-cooled share first")
    try:
        qd_size_mm(item.qd_size)
    except ValueError as exc:
        return "qd_size", str(exc)
    return None


_AISLES = "the vendor's minimum is the error, the recommended width the warning above it"
#: Design-basis fields that must not exceed another: (lower, upper, why).
BASIS_ORDER: tuple[tuple[str, str, str], ...] = (
    ("phase_imbalance_warn", "phase_imbalance_error", "a warning comes before its error"),
    ("tray_fill_warn", "tray_fill_error", "a warning comes before its error"),
    ("front_aisle_vendor_min_m", "front_aisle_min_m", _AISLES),
    ("rear_aisle_vendor_min_m", "rear_aisle_min_m", _AISLES),
    ("scaling_min_gpus", "scaling_max_gpus", "the scaling test runs from the smaller step to the larger"),
)


def basis_problem(basis: Any) -> tuple[str, str] | None:
    """(field, why) for the first pair of design-basis fields out of order, or None."""
    for low, high, why in BASIS_ORDER:
        a, b = getattr(basis, low), getattr(basis, high)
        if a > b:
            return low, (f"{format_number(a)} is above {high.replace('_', ' ')} {format_number(b)} "
                         f"({why})")
    return None


def polygon_problem(points: Sequence[Sequence[float]]) -> str | None:
    """Why a zone's, column's or hall's corners make no area (too few, no area, crossing
    itself), or None. Shapely is imported here, on first use: opening a plan needs it anyway."""
    if len(points) < 3:
        return f"{len(points)} corners: an area needs at least 3"
    from shapely import is_valid_reason
    from shapely.geometry import Polygon

    polygon = Polygon([(float(x), float(y)) for x, y in points])
    if polygon.area < MIN_AREA_M2:
        return f"its corners enclose {polygon.area:.2g} m², no area (at least {MIN_AREA_M2:g} m²)"
    reason = is_valid_reason(polygon)
    if reason == "Valid Geometry":
        return None
    what, _, where = reason.partition("[")  # "Self-intersection[2.857142 2.857142]"
    try:
        x, y = map(float, where.rstrip("]").split())
    except ValueError:
        return f"its edges cross ({what})"
    return f"its edges cross ({what.lower()} at {x:.2f}, {y:.2f} m)"


def outline_problem(points: Sequence[Sequence[float]]) -> str | None:
    """Why corners cannot be a hall's outline (no area, or wider than any hall), or None.
    No outline at all is allowed (a plan begun without a survey): S5 reports it."""
    if not points:
        return None
    problem = polygon_problem(points)
    if problem:
        return problem
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    width, depth = max(xs) - min(xs), max(ys) - min(ys)
    if max(width, depth) > MAX_HALL_M:
        return (f"{format_number(round(width, 1))} m × {format_number(round(depth, 1))} m is wider than a hall "
                f"(at most {format_number(MAX_HALL_M)} m either way; the largest halls are a few hundred metres)")
    return None


def busbar_problem(bus: Any) -> str | None:
    """Why a busbar run cannot be (shorter than a tap-off box, or longer than a hall), or None.
    A finding (P9), not a refusal: dragging one end onto the other is an edit in progress."""
    length = math.hypot(bus.x2 - bus.x1, bus.y2 - bus.y1)
    if length < MIN_BUSBAR_M:
        return f"a run of {length:.2f} m feeds nothing (at least {MIN_BUSBAR_M:g} m)"
    if length > MAX_HALL_M:
        return f"a run of {format_number(round(length))} m is longer than a hall (at most {format_number(MAX_HALL_M)} m)"
    return None
