"""Every port a device has, by network and connector: the compute rails (``CatalogItem.port_cages``)
and the declared groups beyond them (storage, in-band, out-of-band), its PSUs (the power network)
and its coolant quick-disconnects (the coolant network), as DESIGN §3 "Networks" names them.

Port names are stable and never collide with the compute rail names (nodes ``P1`` … ``P8``,
switches ``1/1`` … or ``1`` …): a group's ports are its ``stem`` numbered from ``first``
(``S1`` … ``S4``, ``mgmt0``) or, with ``first`` null, the stem alone (``BMC``); PSUs are
``PSU1`` …, coolant pairs ``SUP1``/``RET1`` …, a rack PDU's outlets ``O1`` … ``O42`` (numbered
along the strip, its outlet groups in order). A stem is letters (and ``-``/``_``), so no name
is all digits or slash-separated as switch rail names are, and a catalogue entry whose names
would still meet (a node stem ``P``) is refused (``ports_problem``).

This module imports nothing of the model but the bounds table, so ``catalog`` can use it.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple, TypedDict

from planner.model.bounds import field_problem, format_number

#: Networks a link may belong to (DESIGN §3). Compute ports are the rails (``port_cages``).
COMPUTE = "compute"
STORAGE_NET = "storage"
INBAND = "inband"
OOB = "oob"
POWER = "power"
COOLANT = "coolant"
#: Networks a declared port group may be on: compute stays the rails, power the PSUs, coolant the QDs.
GROUP_NETWORKS = (STORAGE_NET, INBAND, OOB)
NETWORKS = (COMPUTE, STORAGE_NET, INBAND, OOB, POWER, COOLANT)

#: Data connectors a port group may have (the cage or jack on the device).
CONNECTORS = ("OSFP", "QSFP-DD", "QSFP112", "QSFP56", "QSFP28", "QSFP+", "SFP56", "SFP28", "SFP+", "RJ45")

#: A device's serial console port, by connector (``CatalogItem.console_port``): RJ45 (RS-232 on an
#: RJ45 jack, the switches' usual), USB Mini-B or USB-C (a USB serial bridge), DE-9 (RS-232).
CONSOLE_CONNECTORS = ("RJ45", "USB Mini-B", "USB-C", "DE-9")
#: The console port's name on the device (its NetBox console port's).
CONSOLE_PORT = "console"

#: PSU inlets (IEC 60320 appliance inlets, male) → the cord connector and PDU outlet that mate
#: with them: a C14 inlet takes a C13 cord end (10 A), a C20 inlet a C19 (16 A).
PSU_INLETS = {"C14": "C13", "C20": "C19"}
_MATES = {outlet: inlet for inlet, outlet in PSU_INLETS.items()}
#: The outlets a rack PDU may have: the PDU side of ``PSU_INLETS`` (IEC 60320 C13 10 A, C19 16 A).
OUTLET_TYPES = tuple(PSU_INLETS.values())
#: The phase (line to neutral) or phase pair (line to line) an outlet group is on, by the PDU's
#: phases: a single-phase PDU has L1 (to neutral); a three-phase wye PDU (3P+N+E) has L1, L2, L3 to
#: neutral and may feed a group line to line, a delta PDU (3P+E, no neutral) line to line only. The
#: catalogue does not say wye or delta, so a three-phase PDU may have any of the six.
PHASES_OF = {1: ("L1",), 3: ("L1", "L2", "L3", "L1-L2", "L2-L3", "L3-L1")}

#: Names of the PSU and coolant ports, numbered from 1.
PSU_STEM = "PSU"
OUTLET_STEM = "O"
SUPPLY_STEM = "SUP"
RETURN_STEM = "RET"

_STEM = re.compile(r"[A-Za-z][A-Za-z_-]*\Z")


class PortGroup(TypedDict):
    """Ports of one network and connector on a device: ``count`` ports at ``speed_gbps``, named
    ``stem`` + number from ``first`` (``S1`` …), or the stem alone when ``first`` is null (one
    port: ``BMC``). A plain mapping, so a catalogue entry's record writes it as a JSON object;
    its fields' bounds are ``BOUNDS["PortGroup"]``."""

    network: str
    connector: str
    count: int
    speed_gbps: float
    stem: str
    first: int | None


def port_group(network: str, connector: str, count: int, speed_gbps: float, stem: str,
               first: int | None = 1) -> PortGroup:
    """A port group, its speed a float as the file holds it."""
    return PortGroup(network=network, connector=connector, count=int(count), speed_gbps=float(speed_gbps),
                     stem=stem, first=first)


class OutletGroup(TypedDict):
    """Outlets of one kind behind one breaker on a rack PDU: ``count`` outlets of type ``outlet``
    ("C13" or "C19", ``OUTLET_TYPES``) on ``phase`` ("L1", or "L1-L2" line to line;
    ``PHASES_OF``), protected together by a breaker of ``breaker_a`` A (the group's overcurrent
    protection, which P1's derating applies to). A plain mapping, so a catalogue entry's record
    writes it as a JSON object; its fields' bounds are ``BOUNDS["OutletGroup"]``."""

    outlet: str
    count: int
    breaker_a: float
    phase: str


def outlet_group(outlet: str, count: int, breaker_a: float, phase: str) -> OutletGroup:
    """An outlet group, its breaker rating a float as the file holds it."""
    return OutletGroup(outlet=outlet, count=int(count), breaker_a=float(breaker_a), phase=phase)


class Outlet(NamedTuple):
    """One outlet of a rack PDU: its name (``O7``), type, the index of its group in
    ``outlet_groups``, that group's breaker (A) and phase."""

    name: str
    outlet: str
    group: int
    breaker_a: float
    phase: str


def outlets_of(groups: list[OutletGroup]) -> list[Outlet]:
    """Every outlet of the groups, numbered ``O1`` … along the strip, group after group."""
    found: list[Outlet] = []
    for index, group in enumerate(groups):
        start = len(found)
        found += [Outlet(f"{OUTLET_STEM}{start + i}", group["outlet"], index, group["breaker_a"], group["phase"])
                  for i in range(1, group["count"] + 1)]
    return found


#: Default stems of the groups the custom-type dialog makes: (stem, first).
DEFAULT_STEMS = {STORAGE_NET: ("S", 1), INBAND: ("E", 1), OOB: ("BMC", None)}
#: Switches, PDUs and CDUs call their out-of-band port a management port (``mgmt0``).
MGMT_STEM = ("mgmt", 0)


def group_names(group: PortGroup) -> list[str]:
    """The names of a group's ports: ``S1`` … ``S4``, ``mgmt0``, ``BMC``."""
    if group["first"] is None:
        return [group["stem"]]
    return [f"{group['stem']}{group['first'] + i}" for i in range(group["count"])]


def psu_names(count: int | None) -> list[str]:
    """``PSU1`` … ``PSU<n>`` (none when the count is not given)."""
    return [f"{PSU_STEM}{i}" for i in range(1, (count or 0) + 1)]


def coolant_names(pairs: int | None) -> list[str]:
    """``SUP1``, ``RET1``, ``SUP2``, ``RET2`` …: each quick-disconnect pair's supply then return."""
    return [name for i in range(1, (pairs or 0) + 1) for name in (f"{SUPPLY_STEM}{i}", f"{RETURN_STEM}{i}")]


class Port(NamedTuple):
    """One port of a device: its name, network, connector and speed (Gb/s; 0 for power and coolant)."""

    name: str
    network: str
    connector: str
    speed_gbps: float


# ------------------------------------------------------------ PSU redundancy
_N_PLUS = re.compile(r"N\s*\+\s*(\d{1,3})\Z", re.IGNORECASE)
_COUNTED = re.compile(r"(\d{1,3})\s*\+\s*(\d{1,3})\Z")
_HALF = re.compile(r"(N\s*\+\s*N|2\s*N|\d{1,3}\s*\+\s*\d{1,3}\s*\(N\s*\+\s*N\))\Z", re.IGNORECASE)


def redundancy_spares(text: str, count: int | None) -> int | None:
    """How many of ``count`` PSUs may fail, by the redundancy text: "5+1" → 1, "4+2" → 2, "N+1"
    → 1, "N+N" or "2N" → half of them (6 → 3), "N" → 0. None when the text is empty (not
    given) or is "N+N" without a count. Raises ValueError for text it cannot read or that cannot
    describe ``count`` PSUs ("5+1" of 4, "N+N" of 5, "N+6" of 6)."""
    spec = text.strip()
    if not spec:
        return None
    if spec.upper() == "N":
        return 0
    if _HALF.match(spec) and not _COUNTED.match(spec):
        if count is None:
            return None
        if count % 2:
            raise ValueError(f"{spec!r} of {count} PSUs: N+N splits the PSUs in two equal halves")
        return count // 2
    counted = _COUNTED.match(spec)
    if counted:
        working, spare = int(counted.group(1)), int(counted.group(2))
        if working < 1:
            raise ValueError(f"{spec!r}: at least one PSU carries the load")
        if count is not None and working + spare != count:
            raise ValueError(f"{spec!r} is {working + spare} PSUs, the type has {count}")
        return spare
    plus = _N_PLUS.match(spec)
    if plus:
        spare = int(plus.group(1))
        if count is not None and spare >= count:
            raise ValueError(f"{spec!r} of {count} PSUs: at least one PSU must carry the load")
        return spare
    raise ValueError(f"{spec!r} is not a redundancy such as 5+1, N+1, N+N or 2N")


# ------------------------------------------------------- quick-disconnect size
_INCH = re.compile(r"(\d+)\s*/\s*(\d+)\s*(?:in|inch|\")\Z|(\d+(?:\.\d+)?)\s*(?:in|inch|\")\Z", re.IGNORECASE)
_MM = re.compile(r"(?:DN\s*)?(\d+(?:\.\d+)?)\s*mm\Z|DN\s*(\d+)\Z", re.IGNORECASE)
_UQD = re.compile(r"UQDB?\s*-?\s*(\d{1,2})\Z", re.IGNORECASE)


def qd_size_mm(text: str) -> float | None:
    """A quick-disconnect size in millimetres: "1/2 in", "0.5 in", "12.7 mm", "DN15" or an OCP UQD
    size ("UQD08": the number counts sixteenths of an inch, so 1/2 in). None when not given;
    ValueError for text it cannot read."""
    spec = text.strip()
    if not spec:
        return None
    inch = _INCH.match(spec)
    if inch:
        if inch.group(1):
            denominator = int(inch.group(2))
            if denominator == 0:
                raise ValueError(f"{spec!r}: a fraction of 0")
            return round(int(inch.group(1)) / denominator * 25.4, 2)
        return round(float(inch.group(3)) * 25.4, 2)
    mm = _MM.match(spec)
    if mm:
        return float(mm.group(1) or mm.group(2))
    uqd = _UQD.match(spec)
    if uqd:
        return round(int(uqd.group(1)) / 16 * 25.4, 2)
    raise ValueError(f"{spec!r} is not a size such as 1/2 in, 12.7 mm, DN15 or UQD08")


# ----------------------------------------------------------------- checks
def groups_problem(groups: list[PortGroup], compute: list[str],
                   others: dict[str, str] | None = None) -> tuple[str, str] | None:
    """(field path, why) for the first port group that cannot be, or None: a field out of its
    bounds, an unknown network or connector, a stem that is not letters, an unnumbered group of
    more than one port, or a port name met twice (among the groups, with a compute rail or with
    ``others``: name → its network, a PDU's outlets)."""
    seen = {name: "compute" for name in compute} | (others or {})
    for index, group in enumerate(groups):
        where = f"port_groups[{index}]"
        for key, value in group.items():
            problem = field_problem("PortGroup", key, value)
            if problem:
                return f"{where}.{key}", problem
        if group["network"] not in GROUP_NETWORKS:
            return f"{where}.network", (f"{group['network']!r} is not one of {', '.join(GROUP_NETWORKS)} "
                                        f"(compute ports are the port cages, power the PSUs, coolant the QDs)")
        if group["connector"] not in CONNECTORS:
            return f"{where}.connector", f"{group['connector']!r} is not one of {', '.join(CONNECTORS)}"
        if not _STEM.match(group["stem"]):
            return f"{where}.stem", (f"{group['stem']!r} is not a name stem (letters, then letters, '-' or '_'; "
                                     f"the number is added)")
        if group["first"] is None and group["count"] != 1:
            return f"{where}.count", (f"{group['count']} ports named {group['stem']!r} alone: a group without "
                                      f"a first number has one port")
        for name in group_names(group):
            if name in seen:
                return f"{where}.stem", f"port {name} is named twice (also a {seen[name]} port)"
            seen[name] = group["network"]
    return None


def psu_problem(item: Any) -> tuple[str, str] | None:
    """(field, why) for PSU figures that cannot be, or None: an inlet that is no PSU inlet, a
    redundancy the count cannot have, or PSUs that cannot carry the peak draw even all working.

    That the PSUs left after the promised failures carry the peak is a finding, not a refusal
    (``psu_shortfall_w``): a vendor may promise redundancy at a capped power."""
    if item.psu_inlet and item.psu_inlet not in PSU_INLETS:
        mate = _MATES.get(item.psu_inlet)
        why = (f"{item.psu_inlet} is the cord's and outlet's connector; the PSU inlet it mates with is {mate}"
               if mate else f"{item.psu_inlet!r} is not one of {', '.join(PSU_INLETS)}")
        return "psu_inlet", why
    try:
        redundancy_spares(item.psu_redundancy, item.psu_count)
    except ValueError as exc:
        return "psu_redundancy", str(exc)
    peak = item.power_peak_w or item.power_w
    if item.psu_count and item.psu_rating_w and item.psu_count * item.psu_rating_w < peak:
        return "psu_rating_w", (f"{item.psu_count} × {format_number(item.psu_rating_w)} W = "
                                f"{format_number(item.psu_count * item.psu_rating_w)} W cannot carry the peak draw "
                                f"{format_number(peak)} W even with every PSU working")
    return None


def psu_shortfall_w(item: Any) -> float | None:
    """How many watts of the peak draw the PSUs left after the promised failures cannot carry
    (0 when they carry it; None when the count, rating or redundancy is not given)."""
    spares = _spares(item)
    if spares is None or not item.psu_count or not item.psu_rating_w:
        return None
    peak = item.power_peak_w or item.power_w
    return max(0.0, peak - (item.psu_count - spares) * item.psu_rating_w)


def _spares(item: Any) -> int | None:
    try:
        return redundancy_spares(item.psu_redundancy, item.psu_count)
    except ValueError:
        return None


def outlets_problem(item: Any) -> tuple[str, str] | None:
    """(field path, why) for a rack PDU's outlets or inlet that cannot be, or None: outlets or an
    inlet on a kind that is no rack PDU, a field out of its bounds, an outlet type that is no
    PDU outlet (a C20 is the PSU's inlet), a group breaker above the PDU's own rating, or a
    phase the PDU does not have (L2 on a single-phase PDU). That the outlet names never meet
    the PDU's other ports is ``groups_problem``'s (it is given the outlet names)."""
    if item.kind != "rack_pdu":
        if item.outlet_groups:
            return "outlet_groups", f"a {item.kind.replace('_', ' ')} has no outlets (a rack PDU has them)"
        if item.pdu_inlet:
            return "pdu_inlet", f"a {item.kind.replace('_', ' ')} has no PDU inlet (a rack PDU has one)"
        return None
    phases = PHASES_OF.get(item.phases, ())
    for index, group in enumerate(item.outlet_groups):
        where = f"outlet_groups[{index}]"
        for key, value in group.items():
            problem = field_problem("OutletGroup", key, value)
            if problem:
                return f"{where}.{key}", problem
        if group["outlet"] not in OUTLET_TYPES:
            inlet = group["outlet"] in PSU_INLETS
            why = (f"{group['outlet']} is a PSU's inlet; the PDU outlet that mates with it is "
                   f"{PSU_INLETS[group['outlet']]}" if inlet
                   else f"{group['outlet']!r} is not one of {', '.join(OUTLET_TYPES)}")
            return f"{where}.outlet", why
        if item.rating_a and group["breaker_a"] > item.rating_a:
            return f"{where}.breaker_a", (f"{format_number(group['breaker_a'])} A is above the PDU's rating "
                                          f"{format_number(item.rating_a)} A (a group's breaker is fed through "
                                          f"the PDU's inlet)")
        if group["phase"] not in phases:
            return f"{where}.phase", (f"{group['phase']!r} is not a phase of a {format_number(item.phases)}-phase "
                                      f"PDU (one of {', '.join(phases) or 'none: give its phases first'})")
    return None
