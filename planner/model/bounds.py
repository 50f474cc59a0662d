"""The bounds of the .hall format (DESIGN §6): one table of every field's physical range.

Every number a plan holds must be finite and within a physical range, every string at most a
stated length without control characters, every list within a stated size. The loader refuses
anything else with its JSON path, and every editor (dialogs, the properties dock, the commands
they push) refuses it with the same words, so a plan can never hold a value the file format
would refuse on the next load. ``BOUNDS`` is that single table, keyed by the model's class
name and field (class names, not classes, so this module imports nothing of the model and
``typed.py`` can derive the loader's msgspec constraints from it without an import circle).

The ranges are wide on purpose: they refuse what cannot be physical (1e308 m, −5 kg, a zero
tray width that fill divides by, a port list of 10^12 ports), never an unusual but real plan.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Range:
    """Numbers from ``low`` to ``high`` inclusive, in ``unit``; ``why`` says where the range comes from."""

    low: float
    high: float
    unit: str
    why: str

    def text(self) -> str:
        """The range as a reader writes it: ``0–10,000 m``, ``-50 to 150 °C``."""
        unit = f" {self.unit}" if self.unit else ""
        if self.low < 0:
            return f"{format_number(self.low)} to {format_number(self.high)}{unit}"
        return f"{format_number(self.low)}–{format_number(self.high)}{unit}"


@dataclass(frozen=True)
class Text:
    """Strings of at most ``max_chars`` characters without control characters; ``multiline`` text
    (notes, sources) may hold line breaks (LF, CR) and tabs."""

    max_chars: int
    why: str
    multiline: bool = False


@dataclass(frozen=True)
class Items:
    """A list (or mapping) of ``low`` to ``high`` entries, counted as ``noun``."""

    low: int
    high: int
    noun: str
    why: str


Limit = Range | Text | Items

# ------------------------------------------------------------- shared limits
COORD = Range(-10_000, 10_000, "m", "plan coordinates: a hall lies within 10 km of its origin either way")
LENGTH = Range(0, 10_000, "m", "lengths and reaches: the longest single-mode optic reaches 10 km")
CABLE = Range(0, 100_000, "m", "routed cable lengths: across the widest hall the coordinates allow (20 km each "
              "way, tray route |Δx| + |Δy|) with slack, so no placement makes a route the file refuses")
SIZE = Range(0, 100, "m", "equipment sizes: no rack, unit or tray is 100 m across")
CLEARANCE = Range(0, 100, "m", "clearances, heights and slack: metres, far below 100 m")
MIN_CLEARANCE = Range(0.1, 100, "m", "a required clearance: above 0, a zero minimum would switch its check off "
                      "(NEC 110.26 asks 0.9–1.2 m of working space)")
RATED = "above 0 (null = not rated: the check that needs it says it did not run)"
MASS = Range(0, 100_000, "kg", "masses: 100 t (a loaded AI rack is about 1.4 t, a row CDU a few t)")
POWER_W = Range(0, 100e6, "W", "power: 100 MW is a whole campus; one device draws tens of kW")
POWER_KW = Range(0, 100_000, "kW", "power and heat: 100 MW is a whole campus")
CURRENT = Range(0, 100_000, "A", "currents: busbars are rated up to 6,300 A; 100 kA bounds any run")
VOLTAGE = Range(1, 100_000, "V", "a supply voltage: above 0 (null = the design basis's); 100 kV bounds any supply")
TEMPERATURE = Range(-50, 150, "°C", "coolant and room temperatures, frozen to boiling with margin")
KELVIN = Range(0, 100, "K", "temperature differences: a few kelvin, far below 100 K")
FRACTION = Range(0, 1, "", "a share or threshold from 0 to 100 %")
COUNT = Range(0, 100_000, "", "counts: a plan holds at most 65,536 GPUs (three-tier fat-tree limit)")
PRESSURE = Range(0, 1_000, "kPa", "floor loads: TIA-942 asks 7.2–12 kPa, heavy slabs ~50 kPa")
FLOOR_RATING = Range(0.5, 1_000, "kPa", "a floor rating: TIA-942 asks 7.2–12 kPa, heavy slabs ~50 kPa; "
                     "above 0, a floor rated 0 kPa holds nothing")
FORCE = Range(0.1, 1_000, "kN", "tile ratings: raised-floor tiles carry a few kN; above 0 (null = not given)")
U_POSITION = Range(0, 100, "U", "rack units: the tallest racks have 58U")
ROTATION = Range(0, 270, "°", "quarter turns: 0, 90, 180 or 270")

ID = Text(64, "ids are <kind>-<number> (rack-12)")
KEY = Text(256, "catalogue keys: custom-<name> from a name of at most 200 characters")
NAME = Text(200, "names, rows and title-block entries: one line a person reads")
WORD = Text(40, "a word from a short list: kind, side, tier, role, phases, port, unit system")
LABEL = Text(1_000, "cable labels quote both ends' rack, U, device and port names")
NOTES = Text(10_000, "notes and sources: a few paragraphs", multiline=True)
HOSTNAME = Text(253, "host names: at most 253 characters (RFC 1123 §2.1, RFC 1035 §2.3.4)")
SOURCE_NOTE = Text(2_000, "a design-basis field's name and the note on where its value comes from")

#: Every field of every class the file holds → its limits (a container field lists the limits of
#: what it holds and of its size). ``tests/unit/model/test_bounds.py`` checks that every field of
#: every model dataclass is here.
BOUNDS: dict[str, dict[str, Limit | tuple[Limit, ...]]] = {
    "HallFileContent": {
        "format": WORD,
        "version": Range(0, 1_000_000, "", "format versions count up from 1"),
        "outline": (COORD, Items(0, 10_000, "corners", "an outline is drawn corner by corner")),
        "catalog": Items(0, 10_000, "types", "custom equipment types defined by hand"),
        **{attr: Items(0, 1_000_000, "objects", "a 32,768-GPU hall holds about 100,000 cables")
           for attr in ("zones", "obstacles", "doors", "handoffs", "racks", "devices", "floor_units",
                        "busbars", "links", "comments", "underlays")},
    },
    "NetBoxRecord": {
        "url": Text(2_000, "a server address: browsers keep URLs to about 2,000 characters"),
        "site": NAME,
        "ids": (ID, Range(1, 999_999_999_999, "", "NetBox ids: database keys counting up from 1"),
                Items(0, 2_000_000, "ids", "one per rack, device, cable, panel and feed of a 131k-GPU hall")),
    },
    "Meta": {"project": NAME, "hall": NAME, "revision": NAME, "author": NAME, "notes": NOTES},
    "Zone": {
        "id": ID, "name": NAME,
        "polygon": (COORD, Items(3, 10_000, "corners", "an area needs at least three corners")),
        "rating_kpa": FLOOR_RATING,
        "tile_rating_kn": FORCE,
        "rolling_rating_kn": FORCE,
        "tile_size_m": Range(0.1, 10, "m", "raised-floor tile edge (0.6 m, 24 in); never zero"),
        "air_capacity_kw": Range(0.1, 100_000, "kW", f"air cooling of a zone: {RATED}"),
    },
    "Obstacle": {"id": ID, "name": NAME, "kind": WORD,
                 "polygon": (COORD, Items(3, 10_000, "corners", "an area needs at least three corners"))},
    "Door": {"id": ID, "name": NAME, "x1": COORD, "y1": COORD, "x2": COORD, "y2": COORD},
    "HandOff": {"id": ID, "name": NAME, "kind": WORD, "x": COORD, "y": COORD},
    "Rack": {
        "id": ID, "type": KEY, "name": NAME, "x": COORD, "y": COORD, "rotation": ROTATION, "row": NAME,
        "feed_a": ID, "feed_b": ID, "cdu": ID, "phases": WORD, "notes": NOTES,
    },
    "Device": {
        "id": ID, "type": KEY, "name": NAME, "rack": ID, "u": U_POSITION, "role": WORD,
        "su": COUNT, "pod": COUNT, "rail": COUNT, "notes": NOTES, "hostname": HOSTNAME,
    },
    "FloorUnit": {"id": ID, "type": KEY, "name": NAME, "x": COORD, "y": COORD, "rotation": ROTATION,
                  "row": NAME, "notes": NOTES},
    "BusbarRun": {"id": ID, "type": KEY, "name": NAME, "x1": COORD, "y1": COORD, "x2": COORD, "y2": COORD,
                  "side": WORD, "row": NAME},
    "Link": {
        "id": ID, "a_device": ID, "a_port": WORD, "b_device": ID, "b_port": WORD, "tier": WORD,
        "rail": COUNT, "media": KEY, "length_m": CABLE, "stock_m": CABLE, "label": LABEL,
        "state": WORD, "state_note": NOTES,
    },
    "Comment": {
        "id": ID, "text": NOTES, "author": NAME, "date": WORD, "x": COORD, "y": COORD, "target": ID,
        "status": WORD, "reply_to": ID,
    },
    "Underlay": {
        "id": ID, "name": NAME, "path": Text(4_096, "a file path: PATH_MAX on Linux is 4,096 bytes"),
        "kind": WORD, "page": Range(0, 100_000, "", "a page of a PDF drawing set, counted from 0"),
        "x": COORD, "y": COORD,
        "scale": Range(1e-9, 1_000, "m per unit", "metres per drawing unit: 0.001 for a DXF in mm, "
                                                   "about 0.01–0.1 for a scanned plan's pixels; above 0"),
        "rotation": Range(-360, 360, "°", "a drawing turned to the plan: one full turn either way"),
        "opacity": FRACTION,
    },
    "DesignBasis": {
        "voltage_v": Range(1, 100_000, "V", "supply voltage; above 0 because currents divide by it"),
        "power_factor": Range(0.01, 1, "", "power factor; above 0 because currents divide by it"),
        "derating": Range(0.01, 1, "", "continuous-load derating: NEC 0.8, IEC 1.0; above 0, it scales ratings"),
        "redundancy": WORD, "load_basis": WORD, "fluid": WORD,
        "delta_t_k": Range(0.1, 100, "K", "coolant ΔT; above 0 because flow divides by it"),
        "facility_supply_c": Range(2, 70, "°C", "facility water supply: above freezing; ASHRAE W17–W45 and W+ "
                                                "classes reach about 70 °C"),
        "max_supply_c": Range(5, 70, "°C", "cold-plate supply limits: ASHRAE W17–W45 and W+ classes, up to "
                                           "about 70 °C (the vendor limit here is 45 °C)"),
        "dew_point_c": TEMPERATURE,
        "dew_point_margin_k": KELVIN,
        "front_aisle_min_m": MIN_CLEARANCE, "rear_aisle_min_m": MIN_CLEARANCE,
        "front_aisle_vendor_min_m": MIN_CLEARANCE, "rear_aisle_vendor_min_m": MIN_CLEARANCE,
        "working_space_m": MIN_CLEARANCE,
        "floor_method": WORD,
        "floor_warn_fraction": FRACTION,
        "ibm_service_load_kpa": PRESSURE, "ibm_raised_floor_load_kpa": PRESSURE,
        "ibm_service_depth_m": CLEARANCE,
        "rack_feet": Range(1, 100, "", "feet a rack stands on (4); at least 1, the point load divides by it"),
        "power_warn_fraction": FRACTION,
        "phase_imbalance_warn": Range(0, 2, "", "imbalance max|I − I_avg| / I_avg is at most 2 (one phase loaded)"),
        "phase_imbalance_error": Range(0, 2, "", "imbalance max|I − I_avg| / I_avg is at most 2 (one phase loaded)"),
        "cable_slack_fraction": FRACTION,
        "cable_slack_min_m": CLEARANCE,
        "tray_height_m": CLEARANCE,
        "row_tray_width_m": Range(0.001, 10, "m", "tray width; above 0 because tray fill divides by it"),
        "row_tray_depth_m": Range(0.001, 10, "m", "tray fill depth; above 0 because tray fill divides by it"),
        "row_tray_levels": Range(1, 100, "", "stacked tray levels; at least 1, tray fill divides by it"),
        "cross_tray_width_m": Range(0.001, 10, "m", "tray width; above 0 because tray fill divides by it"),
        "cross_tray_depth_m": Range(0.001, 10, "m", "tray fill depth; above 0 because tray fill divides by it"),
        "cross_tray_levels": Range(1, 100, "", "stacked tray levels; at least 1, tray fill divides by it"),
        "tray_fill_warn": FRACTION, "tray_fill_error": FRACTION,
        "oversubscription": Range(0.01, 100, "", "leaf downlink:uplink ratio (1 = non-blocking); above 0"),
        "fabric_kind": WORD, "units": WORD, "paper": WORD,
        "scaling_efficiency_target": FRACTION,
        "scaling_min_gpus": Range(1, 100_000, "", "GPUs in a scaling test step: at least 1, each step doubles it"),
        "scaling_max_gpus": Range(1, 100_000, "", "GPUs in a scaling test step: at least 1, each step doubles it"),
        "nccl_efficiency": Range(0.01, 1, "", "NCCL busBw pass floor as a share of line rate (0.80); above 0, "
                                              "a zero floor would pass a dead link"),
        "loop_pressure_drop_kpa": Range(1, 2_000, "kPa", "coolant loop pressure drop: 150–250 kPa for cold-plate "
                                                         "loops; above 0, a zero drop would hide the pump power"),
        "pump_efficiency": Range(0.01, 1, "", "pump wire-to-water efficiency (0.6–0.7); above 0 because pump "
                                              "power divides by it"),
        "air_cooling_cop": Range(0.1, 100, "", "air cooling COP (3–6); above 0 because air-side power divides by it"),
        "busbar_efficiency": Range(0.5, 1, "", "busbar efficiency (99.5 %): the losses divide by it, and no "
                                               "busway loses half its power"),
        "rack_pdu_efficiency": Range(0.5, 1, "", "rack PDU efficiency (99 %): the losses divide by it, and no "
                                                 "rack PDU loses half its power"),
        "ppue_target": Range(1, 10, "", "partial PUE target: at least 1 (no boundary uses less than its IT power)"),
        "idle_power_fraction": FRACTION,
        "ashrae_class": WORD,
        "storage_read_gbps_per_gpu": Range(0.001, 1_000, "GB/s", "read bandwidth per GPU from shared storage: "
                                           "above 0, a zero target would pass a plan with no storage at all"),
        "inband_switch_per": WORD, "oob_switch_per": WORD,
        "sources": (SOURCE_NOTE, Items(0, 200, "entries", "one note per design-basis field")),
    },
    "CatalogItem": {
        "key": KEY, "kind": WORD, "name": NAME, "source": NOTES,
        "width_m": SIZE, "depth_m": SIZE,
        "height_u": U_POSITION,
        "weight_kg": MASS,
        "rack_units": U_POSITION,
        "max_load_kg": Range(1, 100_000, "kg", f"a rack's static load rating: {RATED}"),
        "max_power_kw": Range(0.1, 100_000, "kW", f"a rack's power rating: {RATED}"),
        "power_w": POWER_W, "power_peak_w": POWER_W,
        "liquid_fraction": FRACTION,
        "gpus": Range(0, 1_024, "", "GPUs in one device (8 in today's nodes)"),
        "port_cages": Range(0, 1_024, "", "port cages on one device: 64 on the largest switches (a port list "
                                          "is built from them)"),
        "ports_per_cage": Range(0, 16, "", "ports per cage: twin-port OSFP has 2, breakouts up to 8"),
        "port_speed_gbps": Range(0, 100_000, "Gb/s", "port speed: 400–1,600 Gb/s today"),
        "capacity_kw": POWER_KW,
        "rated_flow_lpm": Range(0, 100_000, "L/min", "coolant flow: a row CDU moves a few thousand L/min"),
        "pumps": Range(0, 100, "", "pumps in one CDU"),
        "redundant_pumps": Range(0, 100, "", "pumps in one CDU"),
        "approach_k": KELVIN,
        "reach_m": LENGTH,
        "rating_a": CURRENT,
        "voltage_v": VOLTAGE,
        "phases": Range(0, 3, "", "0 = not given, 1 or 3 phases"),
        "tapoff_rating_a": Range(1, 100_000, "A", f"a busbar tap-off's rating: {RATED}"),
        "tapoff_whip_m": Range(0.1, 100, "m", "a tap-off's cord drop: a few metres; above 0 (null = not given: "
                                              "rack reach is not checked)"),
        "port_face": WORD,
        "hca_names": (WORD, Items(0, 1_024, "names", "one HCA per rail port")),
        "lldp_naming": WORD,
        "protocol": WORD, "network": WORD,
        "manufacturer": NAME,
        "port_connector": WORD,
        "port_groups": Items(0, 64, "port groups", "storage, in-band and management ports by connector: a "
                                                   "DGX-class node has 3–5 groups"),
        "psu_count": Range(1, 100, "", f"PSUs in one device (6 in a DGX-class node, 2 in a switch): {RATED}"),
        "psu_inlet": WORD,
        "psu_rating_w": Range(1, 100_000, "W", f"one PSU's rating (3.3 kW in a DGX-class node): {RATED}"),
        "psu_redundancy": WORD,
        "coolant_ports": Range(1, 64, "", "coolant quick-disconnect pairs (a supply and a return each): above 0 "
                                          "(null = none, or not given on a liquid-cooled type)"),
        "qd_size": WORD,
        "outlet_groups": Items(0, 64, "outlet groups", "a rack PDU's outlets by breaker: 3–12 groups (one or more "
                                                       "per phase)"),
        "pdu_inlet": NAME,
        "console_port": WORD,
    },
    "PortGroup": {
        "network": WORD, "connector": WORD,
        "count": Range(1, 1_024, "", "ports in one group: at least 1 (a DGX-class node has 4 storage ports)"),
        "speed_gbps": Range(0.01, 100_000, "Gb/s", "port speed: 10 Mb/s (a BMC's slowest) to 1,600 Gb/s today; "
                                                   "above 0"),
        "stem": Text(16, "a port name's stem (S, E, BMC, mgmt): the number is added"),
        "first": Range(0, 1_000, "", "the number of a group's first port (S1: 1, mgmt0: 0)"),
    },
    "OutletGroup": {
        "outlet": WORD,
        "count": Range(1, 100, "", "outlets behind one breaker: at least 1 (a 42-outlet PDU has 6–12 per group)"),
        "breaker_a": Range(1, 1_000, "A", "a group's breaker: 16 A (IEC) or 20 A (UL) in rack PDUs; above 0, "
                                          "a 0 A breaker carries nothing"),
        "phase": WORD,
    },
    "MediaType": {
        "key": KEY, "name": NAME, "source": NOTES,
        "reach_m": LENGTH, "switch_to_switch_reach_m": LENGTH, "ethernet_reach_m": LENGTH,
        "stock_lengths_m": (LENGTH, Items(0, 100, "lengths", "stock lengths a cable is sold in")),
        "transceivers_per_link": Range(0, 16, "", "optics per cable: 2"),
        "diameter_mm": Range(0, 1_000, "mm", "cable outer diameter: a few mm"),
        "part": NAME, "connector": WORD,
    },
}

#: What a string may not hold: control characters (C0, DEL, C1) and lone surrogates (they cannot
#: be written as UTF-8, so a plan holding one could not be saved).
_BAD_LINE = "\x00-\x1f\x7f-\x9f\ud800-\udfff"
_BAD_MULTILINE = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff"
#: Patterns a whole string must match (msgspec ``Meta(pattern=…)`` and the editors).
LINE_PATTERN = rf"\A[^{_BAD_LINE}]*\Z"
MULTILINE_PATTERN = rf"\A[^{_BAD_MULTILINE}]*\Z"
BAD_LINE_CHAR = re.compile(f"[{_BAD_LINE}]")
BAD_MULTILINE_CHAR = re.compile(f"[{_BAD_MULTILINE}]")


def limits(cls_name: str, field: str) -> tuple[Limit, ...]:
    """The limits of a field (none when the table does not name it)."""
    found = BOUNDS.get(cls_name, {}).get(field, ())
    return found if isinstance(found, tuple) else (found,)


def limit_of(cls_name: str, field: str, kind: type[Range | Text | Items]) -> Limit | None:
    """The field's limit of one kind (its Range, Text or Items), or None."""
    return next((limit for limit in limits(cls_name, field) if isinstance(limit, kind)), None)


# ----------------------------------------------------------------- messages
def format_number(value: float) -> str:
    """A number as a message shows it: 10,000 · 0.6 · 1e308 · a 4,301-digit number."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10 ** 4000 else int(abs(value).bit_length() * 0.30103) + 1
        return f"{value:,}" if digits <= 15 else f"a {digits:,}-digit number"
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "infinity" if value > 0 else "-infinity"
    if value == int(value) and abs(value) < 1e15:
        return f"{int(value):,}"
    if 1e-4 <= abs(value) < 1e6:
        return repr(value)
    if 1e6 <= abs(value) < 1e15:
        return f"{value:,.1f}"
    return repr(value).replace("e+", "e")


def number_problem(value: float, limit: Range) -> str | None:
    """Why ``value`` does not fit ``limit`` (None when it does): ``1e308 m is outside 0–10,000 m``."""
    if isinstance(value, float) and math.isnan(value):
        return f"NaN is not a number; expected {limit.text()}"
    if limit.low <= value <= limit.high:
        return None
    shown = format_number(value)
    unit = f" {limit.unit}" if limit.unit and not shown.startswith("a ") else ""
    return f"{shown}{unit} is outside {limit.text()}"


def text_problem(value: str, limit: Text) -> str | None:
    """Why ``value`` does not fit ``limit`` (None when it does)."""
    if len(value) > limit.max_chars:
        return f"{len(value):,} characters, at most {limit.max_chars:,}"
    bad = (BAD_MULTILINE_CHAR if limit.multiline else BAD_LINE_CHAR).search(value)
    if bad is None:
        return None
    char = bad.group()
    code = f"U+{ord(char):04X}"
    where = f"at character {bad.start() + 1:,}"
    if "\ud800" <= char <= "\udfff":
        return f"holds a lone surrogate ({code}) {where}: not text"
    if char in "\n\r":
        return f"holds a line break ({code}) {where}: one line only"
    return f"holds a control character ({code}) {where}"


def items_problem(count: int, limit: Items) -> str | None:
    """Why a list of ``count`` entries does not fit ``limit`` (None when it does)."""
    if count < limit.low:
        return f"{count:,} {limit.noun}, at least {limit.low:,}"
    if count > limit.high:
        return f"{count:,} {limit.noun}, at most {limit.high:,}"
    return None


def value_problem(value: object, found: tuple[Limit, ...]) -> str | None:
    """Why a value (number, string, list, tuple or mapping of them) breaks the limits, or None."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number_limit = next((x for x in found if isinstance(x, Range)), None)
        return number_problem(value, number_limit) if number_limit else None
    if isinstance(value, str):
        text_limit = next((x for x in found if isinstance(x, Text)), None)
        return text_problem(value, text_limit) if text_limit else None
    if isinstance(value, list | tuple | dict):
        size = next((x for x in found if isinstance(x, Items)), None)
        if size is not None and isinstance(value, list | dict):
            problem = items_problem(len(value), size)
            if problem:
                return problem
        inner = [x for x in found if not isinstance(x, Items)]
        members = [*value.keys(), *value.values()] if isinstance(value, dict) else value
        for member in members:
            problem = value_problem(member, tuple(inner))
            if problem:
                return problem
    return None


def field_problem(cls_name: str, field: str, value: object) -> str | None:
    """Why ``value`` cannot be field ``field`` of a ``cls_name`` (None when it fits the table)."""
    return value_problem(value, limits(cls_name, field))
