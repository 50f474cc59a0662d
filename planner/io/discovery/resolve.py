"""Discovered cables placed on the plan: tools' names turned into device ids and plan ports.

One ``Discovery`` holds what every input said, each cable once (a cable reported from both
ends, or by two inputs, is one cable). An end whose hostname or port matches nothing in the plan
stays in as an ``outside`` end (``?<hostname>``, the port as printed) so that the planned cable
at its other end is seen to be connected, to something the plan does not know; the name is
listed in ``unknown_names``. A port reported connected to two different places keeps the first
report and the second is listed in ``conflicts`` (a port holds one cable: one input is stale).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from planner.io.discovery.naming import PlanNames, unique_sorted
from planner.io.discovery.records import RawLink
from planner.model.document import Document

#: A link end: (device id, plan port), or (``?`` + hostname, port as printed) outside the plan.
End = tuple[str, str]
OUTSIDE = "?"


def outside(end: End) -> bool:
    """Whether an end is on a device the plan does not know (or a port it does not have)."""
    return end[0].startswith(OUTSIDE)


@dataclass(slots=True, eq=False)
class FoundLink:
    """A cable discovery found, ends in plan terms; ``rate_gbps``/``rate`` as the tool said.
    Compared and hashed by identity: one object per physical cable."""

    a: End
    b: End
    source: str
    rate_gbps: float | None = None
    rate: str = ""


@dataclass
class Discovery:
    """Everything the inputs reported, placed on one plan (see the module docstring)."""

    links: list[FoundLink] = field(default_factory=list)
    unknown_names: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)


def resolve(doc: Document, raws: Iterable[RawLink], sources: Iterable[str] = ()) -> Discovery:
    """Place every raw link on the plan (see the module docstring)."""
    place = _Placer(PlanNames(doc))
    by_end: dict[End, FoundLink] = {}
    links: list[FoundLink] = []
    conflicts: list[str] = []
    for raw in raws:
        a = place(raw.a_host, raw.a_port, raw.scheme)
        b = place(raw.b_host, raw.b_port, raw.scheme)
        if outside(a) and outside(b):
            continue
        if a == b:
            conflicts.append(f"{raw.source}: {raw.a_host} {raw.a_port} is reported cabled to itself")
            continue
        first = by_end.get(a) or by_end.get(b)
        if first is not None:
            if {first.a, first.b} != {a, b}:
                shared = a if a in (first.a, first.b) else b
                conflicts.append(f"{raw.source}: {_says(doc, shared)} is reported cabled to "
                                 f"{_says(doc, b if shared == a else a)} here and to "
                                 f"{_says(doc, first.b if shared == first.a else first.a)} at {first.source}")
            continue
        link = FoundLink(a, b, raw.source, raw.rate_gbps, raw.rate)
        by_end[a] = by_end[b] = link
        links.append(link)
    return Discovery(links, unique_sorted(place.unknown), conflicts, list(sources))


class _Placer:
    """A tool's (hostname, port) as a plan end, with each hostname and device's table looked up
    once (98k cables name 5k hosts), collecting what matches nothing."""

    def __init__(self, names: PlanNames) -> None:
        self.names = names
        self.unknown: set[str] = set()
        self._hosts: dict[str, str | None] = {}
        self._tables: dict[tuple[str, str], dict[str, str]] = {}

    def __call__(self, host: str, port: str, scheme: str) -> End:
        try:
            device_id = self._hosts[host]
        except KeyError:
            device_id = self._hosts[host] = self.names.device(host)
        if device_id is None:
            self.unknown.add(self.names.describe_unknown(host))
            return (OUTSIDE + host, port)
        table = self._tables.get((device_id, scheme))
        if table is None:
            table = self._tables[(device_id, scheme)] = self.names.table(device_id, scheme)
        plan_port = table.get(port.lower()) or table.get(port.strip().lower())
        if plan_port is None:
            self.unknown.add(f"{host} {port}")
            return (OUTSIDE + host, port)
        return (device_id, plan_port)


def _says(doc: Document, end: End) -> str:
    """An end as the tools name it: hostname and port."""
    if outside(end):
        return f"{end[0][len(OUTSIDE):]} {end[1]}"
    return f"{doc.hostname(doc.devices[end[0]])} {end[1]}"
