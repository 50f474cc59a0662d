"""The cabled hall against the plan: read what the fabric reports, classify every planned cable.

``read_discovery`` reads any number of inputs of the three formats into one ``Discovery``;
``verify`` classifies each planned cable exactly once as ok, miswired or missing (``fixes``
says why and what to do) and lists what was found that no planned cable uses; ``update_command``
writes the result into the plan's cable states as one undoable step.

A plan holds the cables of every network (``planner.model.networks``), and each input sees
some: ibnetdiscover the InfiniBand compute fabric, the management switches' LLDP files the
in-band or out-of-band network. ``verify`` checks the cables of the data networks the discovery
reaches (``covered_networks``: a found cable on a port a planned cable of that network uses), or
of the ``networks`` named; the cables of the others (and power cords and hoses, which report
nothing) are left out of the verdict, not counted missing, and a found cable on one of their
ports is not reported as unexpected.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from planner.asbuilt.fixes import MISSING, MISWIRED, OK, diagnose
from planner.asbuilt.states import set_states_command
from planner.commands.base import Command
from planner.io.discovery import (
    Discovery,
    DiscoveryError,
    RawLink,
    read_ibnetdiscover,
    read_links_csv,
    read_lldp,
    resolve,
)
from planner.io.discovery.resolve import End, outside
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import CABLE_STATES
from planner.text import plural

__all__ = ["CableResult", "Discovery", "DiscoveryError", "Fix", "Verification", "covered_networks", "progress_text",
           "read_discovery", "state_counts", "update_command", "verify"]

Paths = Iterable["str | os.PathLike[str]"]


def read_discovery(doc: Document, links: Paths = (), ibnetdiscover: Paths = (), lldp: Paths = ()) -> Discovery:
    """Read every input (lldp paths may be folders of ``<hostname>.json``) and place the cables
    on the plan. Raises DiscoveryError (file and line) for the first input that cannot be read,
    or that holds no link at all (an empty file would report every planned cable missing)."""
    raws: list[RawLink] = []
    sources: list[str] = []
    for reader, paths in ((read_links_csv, links), (read_ibnetdiscover, ibnetdiscover), (read_lldp, lldp)):
        for path in paths:
            found = reader(path)
            if not found:
                raise DiscoveryError(os.fspath(path), 0, "holds no links (empty, or a header only): nothing to "
                                                          "compare with the plan")
            raws.extend(found)
            sources.append(os.fspath(path))
    return resolve(doc, raws, sources)


@dataclass(slots=True)
class CableResult:
    """One planned cable's verdict: status ok/miswired/missing, where its ends were found, the
    fix ("" when nothing to do) and the rack where the installer acts (for the walk order)."""

    link_id: str
    label: str
    status: str
    found: str
    fix: str
    rack_id: str
    #: The fix waits for a port another fix frees (it comes after the others of its rack).
    waits: bool = False


@dataclass(frozen=True, slots=True)
class Fix:
    """One thing to do at one rack (a swap fixes two cables and is listed once)."""

    rack_id: str
    rack: str
    text: str
    labels: tuple[str, ...]
    waits: bool = False


@dataclass
class Verification:
    """The result of one check of the hall against its discovery (see the module docstring)."""

    cables: list[CableResult]
    unexpected: list[dict[str, str]]
    unknown_names: list[str]
    conflicts: list[str] = field(default_factory=list)
    #: The inputs read, as given.
    sources: list[str] = field(default_factory=list)
    #: Fixes for the unexpected cables, in the same order as ``unexpected``.
    unexpected_fixes: list[Fix] = field(default_factory=list)
    #: The networks whose planned cables were checked (``covered_networks`` or as named).
    networks: list[str] = field(default_factory=list)
    _racks: dict[str, str] = field(default_factory=dict, repr=False)

    @property
    def summary(self) -> dict[str, int]:
        counts = {OK: 0, MISWIRED: 0, MISSING: 0}
        for cable in self.cables:
            counts[cable.status] += 1
        return {"planned": len(self.cables), "ok": counts[OK], "miswired": counts[MISWIRED],
                "missing": counts[MISSING], "unexpected": len(self.unexpected)}

    @property
    def as_planned(self) -> bool:
        """Every cable found as planned at its speed, nothing unexpected, every name known."""
        return (all(c.status == OK and not c.fix for c in self.cables) and not self.unexpected
                and not self.unknown_names)

    @property
    def slow(self) -> list[CableResult]:
        """Cables found as planned that came up below (or above) the ports' speed."""
        return [c for c in self.cables if c.status == OK and c.fix]

    def fixes(self) -> list[Fix]:
        """Everything to do, in rack walk order (racks by name; in a rack the fixes that free
        ports before those that wait for them, then by text), each fix once."""
        merged: dict[tuple[str, str, bool], list[str]] = {}
        for cable in self.cables:
            if cable.fix:
                merged.setdefault((cable.rack_id, cable.fix, cable.waits), []).append(cable.label)
        fixes = [Fix(rack_id, self._racks.get(rack_id, rack_id), text, tuple(labels), waits)
                 for (rack_id, text, waits), labels in merged.items()]
        fixes.extend(self.unexpected_fixes)
        return sorted(fixes, key=lambda f: (natural_key(f.rack), f.waits, natural_key(f.text)))

    def as_json(self) -> dict[str, Any]:
        """The DESIGN §7 verify object, plus the names that matched nothing in the plan."""
        return {"summary": self.summary,
                "cables": [{"label": c.label, "status": c.status, "found": c.found, "fix": c.fix}
                           for c in self.cables],
                "unexpected": list(self.unexpected),
                "unknown_names": list(self.unknown_names)}


def covered_networks(doc: Document, discovery: Discovery) -> tuple[str, ...]:
    """The data networks the discovery reaches: those of the planned cables on whose ports it
    found a cable, in ``DATA_NETWORKS`` order (compute first). When it reaches none, every data
    network: a discovery that matches nothing finds every planned cable missing."""
    found = {end for link in discovery.links for end in (link.a, link.b)}
    reached = {network_of(link) for link in doc.links.values()
               if (link.a_device, link.a_port) in found or (link.b_device, link.b_port) in found}
    return tuple(network for network in DATA_NETWORKS if network in reached or not reached)


def verify(doc: Document, discovery: Discovery, networks: Iterable[str] | None = None) -> Verification:
    """Classify every planned cable of ``networks`` (default: ``covered_networks``) exactly once
    (ok + miswired + missing = planned). Cables come in the plan's order (a loaded plan's: by id,
    the fabric's own order); ``fixes`` in walk order."""
    checked = covered_networks(doc, discovery) if networks is None else tuple(networks)
    links = [link for link in doc.links.values() if network_of(link) in checked]
    diagnoses, unexpected = diagnose(doc, discovery, links)
    # a found cable on a port a planned cable of a network not checked uses (a power cord or hose
    # in a links CSV, a storage cable when only compute is named) is that network's, left out of
    # the verdict as its planned cables are: not "not in the plan; remove it"
    others = {end for link in doc.links.values() if network_of(link) not in checked
              for end in ((link.a_device, link.a_port), (link.b_device, link.b_port))}
    unexpected = [found for found in unexpected if found.a not in others and found.b not in others]
    cables = [CableResult(link.id, cable_label(doc, link), d.status, d.found, d.fix, d.rack_id, d.waits)
              for link in links for d in (diagnoses[link.id],)]
    racks = {rack.id: rack.name for rack in doc.racks.values()}
    entries, fixes = [], []
    def key(end: End) -> tuple:
        host, port = _world(doc, end)
        return natural_key(host), natural_key(port)

    for found in sorted(unexpected, key=lambda f: min(key(f.a), key(f.b))):
        ends = sorted((found.a, found.b), key=key)  # the same order whichever end a tool printed first
        (a_device, a_port), (b_device, b_port) = _world(doc, ends[0]), _world(doc, ends[1])
        entries.append({"a_device": a_device, "a_port": a_port, "b_device": b_device, "b_port": b_port})
        rack_id = next((doc.devices[e[0]].rack for e in ends if not outside(e)), "")
        fixes.append(Fix(rack_id, racks.get(rack_id, rack_id),
                         f"{_installer(doc, ends[0])} → {_installer(doc, ends[1])}: cable not in the plan; "
                         f"remove it", ()))
    return Verification(cables, entries, list(discovery.unknown_names), list(discovery.conflicts),
                        list(discovery.sources), fixes, list(checked), racks)


def _world(doc: Document, end: End) -> tuple[str, str]:
    """An end as the world names it: (hostname, port)."""
    if outside(end):
        return end[0][1:], end[1]
    return doc.hostname(doc.devices[end[0]]), end[1]


def _installer(doc: Document, end: End) -> str:
    if outside(end):
        return f"{end[0][1:]} {end[1]} (not in the plan)"
    device = doc.devices[end[0]]
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack else device.rack} {device.name} {end[1]}"


def update_command(doc: Document, verification: Verification) -> Command:
    """Write the result into the cable states, one undo step: cables found as planned become
    verified; miswired ones, and ones found at the wrong speed, faulty with the fix as the note;
    missing ones faulty too unless nobody has marked them run yet (still ``planned``: not
    installed is not faulty). Cables already in the state and note given are left alone."""
    states: dict[str, tuple[str, str]] = {}
    verified = faulty = 0
    for cable in verification.cables:
        link = doc.links.get(cable.link_id)
        if link is None:
            continue
        if cable.status == OK and not cable.fix:
            wanted = ("verified", "")
        elif cable.status == MISSING and link.state == "planned":
            continue
        else:
            wanted = ("faulty", cable.fix)
        if wanted == ("verified", ""):
            verified += 1
        else:
            faulty += 1
        if (link.state, link.state_note) != wanted:
            states[cable.link_id] = wanted
    return set_states_command(doc, states, f"Record verification: {plural(verified, 'cable')} verified, "
                                           f"{faulty} faulty")



def state_counts(doc: Document) -> dict[str, int]:
    """How many cables are in each installation state (every state present, in work order)."""
    counts = dict.fromkeys(CABLE_STATES, 0)
    for link in doc.links.values():
        counts[link.state] = counts.get(link.state, 0) + 1
    return counts


def progress_text(doc: Document) -> str:
    """``71,204 of 98,304 cables verified (72.4 %), 12 faulty``: the installation in one line,
    from the plan's cable states (the commissioning document and the status bar quote it)."""
    counts = state_counts(doc)
    total = len(doc.links)
    if not total:
        return "No cables in the plan."
    share = 100.0 * counts["verified"] / total
    rest = [f"{counts[s]:,} {s}" for s in ("faulty", "tested", "labelled", "run") if counts[s]]
    return f"{counts['verified']:,} of {plural(total, 'cable')} verified ({share:.1f} %)" + \
        (f"; {', '.join(rest)}" if rest else "") + "."
