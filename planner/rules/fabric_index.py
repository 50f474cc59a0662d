"""The fabric's structure cable by cable, patched after an edit that changes only cables.

N2 (each port used once), N4 (even spread), N5 (uplink bandwidth) and N6 (reachability) read
values that depend on every cable: recounted from all 98k cables of a 32k-GPU hall they cost
110–170 ms, so connecting, rewiring or deleting one cable by hand missed the edit target. After
an edit that touches cables and nothing else (no device added, removed or changed beyond its
name and place), the engine patches this index instead (``Context.cables_changed``): each cable's
ends and tier, the cables on each port, the uplinks per leaf and spine and the node-facing cables
per device, so N2, N4 and N5 are read from it in about a millisecond. N6 keeps its last answer
when it was "every node reaches every other" and every cable removed left its two ends connected
(a two-sided breadth-first search from both ends, over fabric cables only: a few hundred devices
in a fat-tree); anything else recounts it in full, as before.

N2 covers the cables of every network (a port of any network used twice, or not on its device);
the uplinks, node-facing counts and N6's search read compute tiers only (``node-leaf``,
``leaf-spine``, ``spine-core``), so storage, management, power and coolant cables never count.

The index is built on the first such edit and dropped with the other fabric values on any edit
that changes devices, so it never sees a device role it did not count with.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from planner.model.cages import Cage, CageLookup
from planner.model.copper import CopperCages, on_copper
from planner.model.document import Document, natural_key
from planner.model.objects import TIER_LEAF_SPINE, TIER_NODE_LEAF, TIERS, Link

End = tuple[str, str]
#: a_device, a_port, b_device, b_port, tier
Record = tuple[str, str, str, str, str]


class FabricIndex:
    """Per cable its ends and tier; per port its cable (``owner``; ``extra`` holds every cable of
    a port used twice); per leaf its uplinks by spine; per device its node-facing cables; ends on
    a port their device does not have (``bad``). ``patch`` brings it up to date for the cables an
    edit touched."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.ends: dict[str, Record] = {}
        #: The cable on each port, and for a port with more than one the set of them (``shared``).
        self.owner: dict[End, str] = {}
        self.extra: dict[End, set[str]] = {}
        self.bad: set[End] = set()
        self.uplinks: defaultdict[str, Counter[str]] = defaultdict(Counter)
        #: ``uplinks_by_leaf``'s answer, kept until an uplink is counted: a cable made by hand to
        #: a node does not sort and copy 2,048 leaves' uplinks again (5 ms at 131k GPUs).
        self._by_leaf: dict[str, Counter[str]] | None = None
        self.down: Counter[str] = Counter()
        self._ports: dict[str, frozenset[str]] = {}
        #: N16's twin-port cages (media, copper assemblies), made on first ask and patched after.
        self._cage_media: dict[Cage, tuple[str, int] | Counter[str]] | None = None
        self._cages_of: dict[str, tuple[tuple[Cage, ...], str]] = {}
        self._mixed: set[Cage] = set()
        self._copper = CopperCages()
        self._cages = CageLookup(doc.catalog, doc.devices)
        self._build()

    def _build(self) -> None:
        """Every cable at once, the loop of ``_add`` inlined (at 98k cables a call per cable and
        end was most of the build)."""
        ends, owner, devices = self.ends, self.owner, self.doc.devices
        node_leaf: list[str] = []
        leaf_spine: list[Record] = []
        for link_id, link in self.doc.links.items():
            record = ends[link_id] = (link.a_device, link.a_port, link.b_device, link.b_port, link.tier)
            for end in ((record[0], record[1]), (record[2], record[3])):
                if owner.setdefault(end, link_id) != link_id:
                    self.extra.setdefault(end, {owner[end]}).add(link_id)
            if record[4] == TIER_NODE_LEAF:
                node_leaf += (record[0], record[2])
            elif record[4] == TIER_LEAF_SPINE:
                leaf_spine.append(record)
        self.down.update(node_leaf)
        for record in leaf_spine:
            self._count(record, 1)
        ports = {(devices[d].type, p) for (d, p) in owner if d in devices}
        unknown = {(key, port) for key, port in ports if port not in self._names(key)}
        if unknown:
            self.bad = {(d, p) for (d, p) in owner if d in devices and (devices[d].type, p) in unknown}

    def users(self, end: End) -> set[str]:
        return self.extra.get(end) or {self.owner[end]}

    # ---------------------------------------------------------------- patching
    def patch(self, link_ids: set[str]) -> list[tuple[str, str]]:
        """Re-index the cables ``link_ids`` (added, removed or changed); returns the device pairs
        of the fabric cables that were removed or moved away (N6 checks those still connect)."""
        gone: list[tuple[str, str]] = []
        links = self.doc.links
        for link_id in link_ids:
            old = self._remove(link_id) if link_id in self.ends else None
            link = links.get(link_id)
            if link is not None:
                self._add(link)
            if self._cage_media is not None:
                self._uncage(link_id)
                if link is not None:
                    self._cage(link)
            if old is not None and old[4] in TIERS and (link is None or self.ends[link_id] != old):
                gone.append((old[0], old[2]))
        return gone

    def _names(self, device_type: str) -> frozenset[str]:
        names = self._ports.get(device_type)
        if names is None:
            names = self._ports[device_type] = frozenset(self.doc.catalog[device_type].all_port_names())
        return names

    def _port_ok(self, device_id: str, port: str) -> bool:
        device = self.doc.devices.get(device_id)
        # an end on a device not in the plan: N2 does not report it (the reference rules do)
        return device is None or port in self._names(device.type)

    def _add(self, link: Link) -> None:
        record = (link.a_device, link.a_port, link.b_device, link.b_port, link.tier)
        self.ends[link.id] = record
        for end in ((record[0], record[1]), (record[2], record[3])):
            if self.owner.setdefault(end, link.id) != link.id:
                self.extra.setdefault(end, {self.owner[end]}).add(link.id)
            if not self._port_ok(*end):
                self.bad.add(end)
        self._count(record, 1)

    def _remove(self, link_id: str) -> Record:
        record = self.ends.pop(link_id)
        for end in ((record[0], record[1]), (record[2], record[3])):
            others = self.extra.get(end)
            if others is None:
                del self.owner[end]
                self.bad.discard(end)
                continue
            others.discard(link_id)
            self.owner[end] = next(iter(others))
            if len(others) == 1:
                del self.extra[end]
        self._count(record, -1)
        return record

    def _count(self, record: Record, step: int) -> None:
        a_id, _a_port, b_id, _b_port, tier = record
        if tier == TIER_NODE_LEAF:
            self.down[a_id] += step
            self.down[b_id] += step
        elif tier == TIER_LEAF_SPINE:
            a, b = self.doc.devices.get(a_id), self.doc.devices.get(b_id)
            if a is None or b is None:
                return
            leaf, spine = (a, b) if a.role == "leaf" else (b, a)
            self._by_leaf = None
            counts = self.uplinks[leaf.id]
            counts[spine.id] += step
            if counts[spine.id] <= 0:
                del counts[spine.id]
                if not counts:
                    del self.uplinks[leaf.id]

    # ---------------------------------------------------------------- twin-port cages (N16)
    def mixed_cages(self) -> set[Cage]:
        """(device, cage) of every twin-port cage whose cables are on more than one media."""
        self._index_cages()
        return set(self._mixed)

    def copper_groups(self) -> list[set[str]]:
        """The cable ids of each group of copper cables joined through their cages that is more
        than one assembly serves (``planner.model.copper``)."""
        self._index_cages()
        return self._copper.groups()

    def _index_cages(self) -> None:
        if self._cage_media is None:
            self._cage_media = {}
            for link in self.doc.links.values():
                self._cage(link)

    def _cage(self, link: Link) -> None:
        """Count the cable's media in its cages: a (media, count) pair while a cage has one media
        (nearly every cage: 346k of them at 16,384 nodes, a Counter each was 100 MB), a Counter
        once it has more."""
        cage_media = self._cage_media
        if cage_media is None:
            return
        cages = tuple(self._cages.cages_of(link))
        medium = link.media
        for key in cages:
            held = cage_media.get(key)
            if held is None:
                cage_media[key] = (medium, 1)
            elif isinstance(held, tuple):
                if held[0] == medium:
                    cage_media[key] = (medium, held[1] + 1)
                else:
                    cage_media[key] = Counter({held[0]: held[1], medium: 1})
                    self._mixed.add(key)
            else:
                held[medium] += 1
                self._mixed.add(key)
        if cages:
            self._cages_of[link.id] = (cages, medium)
            if on_copper(link, self.doc.catalog.media):
                self._copper.add(link.id, list(cages))

    def _uncage(self, link_id: str) -> None:
        cages, medium = self._cages_of.pop(link_id, ((), ""))
        cage_media = self._cage_media
        if cage_media is None:
            return
        self._copper.remove(link_id)
        for key in cages:
            held = cage_media[key]
            if isinstance(held, tuple):
                if held[1] > 1:
                    cage_media[key] = (held[0], held[1] - 1)
                else:
                    del cage_media[key]
                continue
            held[medium] -= 1
            if held[medium] <= 0:
                del held[medium]
            if len(held) < 2:
                self._mixed.discard(key)
                if held:
                    cage_media[key] = next(iter(held.items()))
                else:
                    del cage_media[key]

    # ---------------------------------------------------------------- reading
    def port_problems(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """As ``ports_used.port_problems``: (device, port, cables) of every port used twice or not
        on its device, the cables in plan order, sorted by device and port."""
        problems = [end for end in self.extra.keys() | self.bad if end[0] in self.doc.devices]
        if not problems:
            return []
        order = {link_id: n for n, link_id in enumerate(self.doc.links)}
        found = [(d, p, tuple(sorted(self.users((d, p)), key=order.__getitem__))) for d, p in problems]
        return sorted(found, key=lambda problem: (natural_key(problem[0]), problem[1]))

    def uplinks_by_leaf(self) -> dict[str, Counter[str]]:
        """As ``network._uplinks``: leaf → uplinks per spine, in leaf order (a copy, for reading)."""
        if self._by_leaf is None:
            self._by_leaf = {leaf: Counter(counts) for leaf, counts in sorted(self.uplinks.items(),
                                                                               key=lambda kv: natural_key(kv[0]))}
        return self._by_leaf

    def downlinks(self, leaves: dict[str, Counter[str]]) -> dict[str, int]:
        """As ``network._downlinks``: node-facing cables of each leaf with uplinks."""
        return {leaf: self.down[leaf] for leaf in leaves}


def still_connected(doc: Document, pairs: list[tuple[str, str]]) -> bool:
    """Whether the two devices of every pair are still joined by fabric cables."""
    return all(_connected(doc, a, b) for a, b in pairs if a in doc.devices and b in doc.devices)


def _connected(doc: Document, a: str, b: str) -> bool:
    """Two-sided breadth-first search, always widening the smaller side: it ends as soon as the
    sides meet, or when the smaller side has run out (then ``a`` and ``b`` are apart)."""
    if a == b:
        return True
    devices, links = doc.devices, doc.links
    seen: tuple[set[str], set[str]] = ({a}, {b})
    frontier: list[list[str]] = [[a], [b]]
    while frontier[0] and frontier[1]:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        mine, theirs = seen[side], seen[1 - side]
        step: list[str] = []
        for device_id in frontier[side]:
            for link_id in doc.link_ids_of(device_id):
                link = links[link_id]
                if link.tier not in TIERS:
                    continue
                other = link.b_device if link.a_device == device_id else link.a_device
                if other in theirs:
                    return True
                if other not in mine and other in devices:
                    mine.add(other)
                    step.append(other)
        frontier[side] = step
    return False
