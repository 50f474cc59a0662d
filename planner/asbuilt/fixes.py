"""Why a planned cable is not as planned, and what the installer does about it at the rack.

Matching works on physical cables (the discovered links), in four passes:

1. **As planned**: a discovered cable joining a planned cable's two ports is that cable (ok; a
   link that came up slower than the ports' speed still gets a fix).
2. **Swaps**: two planned cables (e, t) and (w, u) found as (e, w) and (u, t) are one swap,
   reported once, at the device that holds both swapped ends (the higher-tier one when both do):
   "R01 N1: swap the cables in P1 and P2 (rails 1 and 2 crossed)".
3. **One end right**: every other discovered cable that touches a planned port belongs to the
   planned cable at one of its ends. When both ends are planned ports, the end on the lower tier
   is taken as placed right (node < leaf < spine < core: cables are run from the node and landed
   on the switch, so the switch end is the one that strays), then the end whose planned peer
   port is still free. The fix moves the other end: within one switch ("R05 L3: move the cable in
   12/1 to 12/2"), to another rail's leaf ("… is on the rail-2 leaf (wrong rail); move it to …")
   or to another switch.
4. What is left: a planned cable with neither port connected is **missing** ("R01 N1 P1 → R05 L1
   1/1: cable missing (10 m SR4)"); one whose port holds another cable is **miswired** and waits
   for that port; a discovered cable between ports no planned cable uses is **unexpected**.

Every data network is matched alike (issue 21): an in-band or out-of-band cable swapped at its
access switch is "R01 IB1: swap the cables in 5 and 6", as a compute pair is at its leaf. The
plan's cables checked are those of the networks the discovery covers (``diagnose``'s
``links``); a switch's tier rank is its role's place in its network (access and leaf 1,
aggregation and spine 2, core 3).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from planner.io.discovery import Discovery, End, FoundLink, outside
from planner.model.catalog import NODE, STORAGE, SWITCH
from planner.model.document import Document, natural_key
from planner.model.networks import ROLES_OF, network_of
from planner.model.objects import TIER_NODE_LEAF, Link
from planner.model.ports import COMPUTE

OK, MISWIRED, MISSING = "ok", "miswired", "missing"
STATUSES = (OK, MISWIRED, MISSING)
#: Tier rank per switch role (its place in its network's roles: leaf or access 1, spine or
#: aggregation 2, core 3); nodes and storage are 0, a device outside the plan last.
_ROLE_RANK = {role: rank for roles in ROLES_OF.values() for rank, role in enumerate(roles, start=1)}
_OUTSIDE_RANK = 9


@dataclass(slots=True)
class Diagnosis:
    """One planned cable's result: status, what was found, the fix ("" = nothing to do) and the
    rack where the installer does it."""

    status: str
    found: str
    fix: str
    rack_id: str
    #: The fix needs a port another fix frees first (walk order puts it after the others).
    waits: bool = False


class Names:
    """Ends as an installer reads them on the rack: ``R05 L3 12/1`` (made once per device)."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._device: dict[str, str] = {}

    def device(self, device_id: str) -> str:
        text = self._device.get(device_id)
        if text is None:
            if device_id.startswith("?"):
                text = f"{device_id[1:]} (not in the plan)"
            else:
                device = self.doc.devices[device_id]
                rack = self.doc.racks.get(device.rack)
                text = f"{rack.name if rack else device.rack} {device.name}"
            self._device[device_id] = text
        return text

    def end(self, end: End) -> str:
        device_id, port = end
        text = self._device.get(device_id)
        if text is not None and device_id[0] != "?":
            return f"{text} {port}"
        if device_id[0] == "?":
            return f"{device_id[1:]} {port} (not in the plan)"
        return f"{self.device(device_id)} {port}"

    def rack(self, end: End) -> str:
        device = self.doc.devices.get(end[0])
        return device.rack if device is not None else ""


def cable_words(link: Link) -> str:
    """``10 m SR4``: the stock length and media an installer takes from the store."""
    media = link.media.upper() if link.media else "cable"
    return f"{link.stock_m:g} m {media}" if link.stock_m else media


def _port_gbps(doc: Document, device_type: str, port: str) -> float:
    """A port's speed by its type (a rail 400 Gb/s, an in-band port 100, a BMC 1; 0 = none)."""
    return next((found.speed_gbps for found in doc.catalog[device_type].ports() if found.name == port), 0.0)


def planned_gbps(doc: Document, link: Link) -> float | None:
    """The speed both ports run at (the slower port's), None when a type does not say."""
    speeds = [_port_gbps(doc, doc.devices[d].type, p) for d, p in ((link.a_device, link.a_port),
                                                                     (link.b_device, link.b_port)) if d in doc.devices]
    return min(speeds) if len(speeds) == 2 and all(speeds) else None


class _Speeds:
    """``planned_gbps`` per pair of device types and ports, worked out once per pair."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._by_types: dict[tuple[str, str, str, str], float | None] = {}

    def __call__(self, link: Link) -> float | None:
        devices = self.doc.devices
        a, b = devices.get(link.a_device), devices.get(link.b_device)
        if a is None or b is None:
            return None
        key = (a.type, link.a_port, b.type, link.b_port)
        if key not in self._by_types:
            self._by_types[key] = planned_gbps(self.doc, link)
        return self._by_types[key]


def _rank(doc: Document, device_id: str, network: str = COMPUTE) -> int:
    """A cable end's tier on ``network``: a device that is not one of its switches is at the
    bottom there (a leaf's ``mgmt0`` is a device of the out-of-band network, as a node is)."""
    device = doc.devices.get(device_id)
    if device is None:
        return _OUTSIDE_RANK
    if network != COMPUTE:
        return _ROLE_RANK[device.role] if device.role in ROLES_OF[network] else 0
    kind = doc.catalog[device.type].kind
    if kind in (NODE, STORAGE):
        return 0
    return _ROLE_RANK.get(device.role, 1) if kind == SWITCH else 1


class Matcher:
    """The four passes of the module docstring over one plan and one discovery."""

    def __init__(self, doc: Document, discovery: Discovery, links: Iterable[Link] | None = None) -> None:
        self.doc = doc
        self.names = Names(doc)
        self.links = list(doc.links.values() if links is None else links)
        self.planned_at: dict[End, str] = {}
        for link in self.links:
            self.planned_at[(link.a_device, link.a_port)] = link.id
            self.planned_at[(link.b_device, link.b_port)] = link.id
        self.found_at: dict[End, FoundLink] = {}
        for found in discovery.links:
            self.found_at[found.a] = found
            self.found_at[found.b] = found
        self.discovery = discovery
        self.speed = _Speeds(doc)
        self.results: dict[str, Diagnosis] = {}
        self.used: set[FoundLink] = set()
        self.own: dict[str, list[tuple[End, FoundLink]]] = {}
        self.unexpected: list[FoundLink] = []

    def peer(self, end: End) -> End | None:
        found = self.found_at.get(end)
        if found is None:
            return None
        return found.b if found.a == end else found.a

    def run(self) -> tuple[dict[str, Diagnosis], list[FoundLink]]:
        links = self.links
        for link in links:
            self._as_planned(link)
        for link in links:
            if link.id not in self.results:
                self._swap(link)
        for found in self.discovery.links:
            if found not in self.used:
                self._assign(found)
        for link in links:
            if link.id not in self.results:
                self.results[link.id] = self._left(link)
        return self.results, self.unexpected

    # --------------------------------------------------------------- passes
    def _as_planned(self, link: Link) -> None:
        a, b = (link.a_device, link.a_port), (link.b_device, link.b_port)
        found = self.found_at.get(a)
        if found is None or self.peer(a) != b:
            return
        self.used.add(found)
        names = self.names
        text = f"{names.end(a)} → {names.end(b)}"
        fix = ""
        if found.rate:
            planned = self.speed(link)
            text += f" at {found.rate}"
            if found.rate_gbps is not None and planned is not None and abs(found.rate_gbps - planned) > 1e-6:
                fix = (f"{text}: link up at {found.rate_gbps:g} Gb/s, planned {planned:g} Gb/s: reseat both ends, "
                       f"then clean or replace the cable ({cable_words(link)})")
        self.results[link.id] = Diagnosis(OK, text, fix, names.rack(a))

    def _swap(self, link: Link) -> None:
        a, b = (link.a_device, link.a_port), (link.b_device, link.b_port)
        for e, t in ((a, b), (b, a)):
            w = self.peer(e)
            if w is None:
                continue
            other_id = self.planned_at.get(w)
            if other_id is None or other_id == link.id or other_id in self.results:
                continue
            other = self.doc.links[other_id]
            u = (other.b_device, other.b_port) if (other.a_device, other.a_port) == w else (other.a_device, other.a_port)
            if self.peer(u) != t or self.found_at[u] is self.found_at[e]:
                continue
            fix, rack_id = self._swap_words(link, e, w, u, t)
            found = f"{self.names.end(e)} → {self.names.end(w)}; {self.names.end(u)} → {self.names.end(t)}"
            self.results[link.id] = self.results[other_id] = Diagnosis(MISWIRED, found, fix, rack_id)
            self.used.update((self.found_at[e], self.found_at[u]))
            return

    def _swap_words(self, link: Link, e: End, w: End, u: End, t: End) -> tuple[str, str]:
        """Cables (e, w) and (u, t), planned (e, t) and (w, u): swap the ends at e and u, or at w and t."""
        doc, names = self.doc, self.names
        sides = [(x, y) for x, y in ((e, u), (w, t)) if x[0] == y[0]]
        if not sides:
            return ((f"swap the cable ends in {names.end(w)} and {names.end(t)} "
                    f"(each belongs in the other)"), names.rack(t))
        x, y = max(sides, key=lambda pair: _rank(doc, pair[0][0], network_of(link)))
        first, second = sorted((x[1], y[1]), key=natural_key)
        text = f"{names.device(x[0])}: swap the cables in {first} and {second}"
        if link.tier == TIER_NODE_LEAF and x in (e, u):
            rails = sorted({doc.devices[z[0]].rail for z in (w, t) if z[0] in doc.devices})
            if len(rails) == 2 and all(rails):
                text += f" (rails {rails[0]} and {rails[1]} crossed)"
        return text, names.rack(x)

    def _assign(self, found: FoundLink) -> None:
        candidates = [(end, self.planned_at[end]) for end in (found.a, found.b)
                      if end in self.planned_at and self.planned_at[end] not in self.results]
        if not candidates:
            self.unexpected.append(found)
            return
        if len(candidates) == 2:
            candidates.sort(key=lambda pair: (_rank(self.doc, pair[0][0], network_of(self.doc.links[pair[1]])),
                                              self._target_taken(pair[0], pair[1])))
        end, link_id = candidates[0]
        self.own.setdefault(link_id, []).append((end, found))

    def _target_taken(self, end: End, link_id: str) -> bool:
        return self.peer(_other_end(self.doc.links[link_id], end)) is not None

    def _left(self, link: Link) -> Diagnosis:
        names = self.names
        a, b = (link.a_device, link.a_port), (link.b_device, link.b_port)
        peers = {end: self.peer(end) for end in (a, b)}
        if all(peer is None for peer in peers.values()):
            return Diagnosis(MISSING, "not found", f"{names.end(a)} → {names.end(b)}: cable missing "
                             f"({cable_words(link)})", names.rack(a))
        found = "; ".join(f"{names.end(end)} → {names.end(peer) if peer else 'nothing'}"
                          for end, peer in peers.items())
        own = self.own.get(link.id, [])
        if not own:
            busy, holder = next((end, peer) for end, peer in peers.items() if peer is not None)
            fix = (f"{names.end(a)} → {names.end(b)}: connect a cable ({cable_words(link)}) once "
                   f"{names.end(busy)} is free (it holds the cable from {names.end(holder)})")
            return Diagnosis(MISWIRED, found, fix, names.rack(a), waits=True)
        end, cable = own[0]
        fix, rack_id = self._move_words(link, end, cable)
        extra = [f"remove the second cable, {names.end(e2)} → {names.end(_far(c2, e2))}" for e2, c2 in own[1:]]
        waits = self.peer(_other_end(link, end)) is not None
        return Diagnosis(MISWIRED, found, "; ".join([fix, *extra]), rack_id, waits)

    def _move_words(self, link: Link, end: End, cable: FoundLink) -> tuple[str, str]:
        """The fix for a cable whose ``end`` is right and whose far end strays."""
        doc, names = self.doc, self.names
        w, t = _far(cable, end), _other_end(link, end)
        taken = self.peer(t)
        after = f"; {names.end(t)} holds the cable from {names.end(taken)}: free it first" if taken else ""
        if outside(w):
            return (f"{names.end(end)}: the cable goes to {names.end(w)}; move that end to {names.end(t)}{after}",
                    names.rack(t))
        if w[0] == t[0]:
            return f"{names.device(t[0])}: move the cable in {w[1]} to {t[1]}{after}", names.rack(t)
        stray, target = doc.devices[w[0]], doc.devices[t[0]]
        if (link.tier == TIER_NODE_LEAF and stray.role == target.role == "leaf" and stray.rail and target.rail
                and stray.rail != target.rail):
            return ((f"{names.end(w)}: the cable from {names.end(end)} is on the rail-{stray.rail} leaf (wrong rail); "
                    f"move it to {names.end(t)} (rail {target.rail}){after}"), names.rack(w))
        what = "switch" if doc.catalog[stray.type].kind == SWITCH else "device"
        return ((f"{names.end(w)}: the cable from {names.end(end)} is on the wrong {what}; "
                f"move it to {names.end(t)}{after}"), names.rack(w))


def _far(cable: FoundLink, end: End) -> End:
    return cable.b if cable.a == end else cable.a


def _other_end(link: Link, end: End) -> End:
    a = (link.a_device, link.a_port)
    return (link.b_device, link.b_port) if a == end else a


def diagnose(doc: Document, discovery: Discovery,
             links: Iterable[Link] | None = None) -> tuple[dict[str, Diagnosis], list[FoundLink]]:
    """Every planned cable's Diagnosis (each exactly once; of ``links``, default every cable of
    the plan) and the unexpected discovered cables."""
    return Matcher(doc, discovery, links).run()
