"""Copper cables with their plugs on (DAC, ACC): what one assembly serves at twin-port cages.

A DAC or an ACC is made with its plugs: a twin-port cage's one plug (``planner.model.cages``) is
one end of one such cable for both of the cage's ports. So the port-cables of a twin-port cage on
such a media are one assembly, and the plan's copper cables come in three shapes:

- **single**: a cable whose twin-port plug, if it has one, serves no other cable;
- **straight**: two cables between the same two twin-port cages, one twin cable 2 × the speed;
- **splitter**: two cables from one twin-port cage to two other ends, one twin plug and two legs
  (NVIDIA's twin-port OSFP to 2 × OSFP splitter DACs and ACCs, ``planner.model.cages.SOURCE``).

A group of copper cables joined through shared cages that is more than two cables (a leaf cage
whose two ports go to two spines' cages, whose other ports go on to other leaves) is no assembly
anyone makes: N16 says so, and the BOM counts each of its cables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from planner.model.cages import Cage, CageLookup
from planner.model.catalog import MediaType
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import Link

SINGLE, STRAIGHT, SPLITTER = "single", "straight", "splitter"
#: The most port-cables one copper assembly serves (a twin plug's two ports).
MOST_PER_ASSEMBLY = 2


def plugs_attached(media: MediaType | None) -> bool:
    """A media whose cables carry their own plugs (no transceiver to order: DAC, ACC, patch cord)."""
    return media is not None and media.transceivers_per_link == 0


@dataclass(frozen=True)
class Assembly:
    """One copper cable to order: its port-cables (in plan order) and its shape."""

    links: tuple[Link, ...]
    shape: str

    @property
    def stock_m(self) -> float:
        return max(link.stock_m for link in self.links)


def on_copper(link: Link, media: Mapping[str, MediaType]) -> bool:
    """A data cable on a media with plugs attached (``media``: the catalogue's by key)."""
    return plugs_attached(media.get(link.media)) and network_of(link) in DATA_NETWORKS


def copper_links(doc: Document) -> list[Link]:
    """The plan's data cables on a media with plugs attached, in plan order."""
    media = doc.catalog.media
    return [link for link in doc.links.values() if on_copper(link, media)]


def copper_groups(links: list[Link], lookup: CageLookup) -> list[list[Link]]:
    """``links`` (copper, ``copper_links``) joined through the twin-port cages they share, each
    group in the order of ``links`` (a cable that shares no cage is a group of its own)."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    at_cage: dict[Cage, str] = {}
    for link in links:
        parent[link.id] = link.id
        for cage in lookup.cages_of(link):
            a, b = root(at_cage.setdefault(cage, link.id)), root(link.id)
            if a != b:
                parent[b] = a
    groups: dict[str, list[Link]] = defaultdict(list)
    for link in links:
        groups[root(link.id)].append(link)
    return list(groups.values())


class CopperCages:
    """The copper cables at twin-port cages, patched cable by cable (``FabricIndex``): each cage's
    cables, each cable's cages, and the cages ``over`` whose cables with those of the cages they
    reach are more than one assembly serves. A group of more than two cables always has such a
    cage (two of its cables share a cage, and a third is at the far cage of one of them), so
    ``groups`` finds every one by walking out from them."""

    def __init__(self) -> None:
        self.at: defaultdict[Cage, set[str]] = defaultdict(set)
        self.cages_of: dict[str, list[Cage]] = {}
        self.over: set[Cage] = set()

    def add(self, link_id: str, cages: list[Cage]) -> None:
        if cages:
            self.cages_of[link_id] = cages
            for cage in cages:
                self.at[cage].add(link_id)
            self._flag(self._around(cages))

    def remove(self, link_id: str) -> None:
        cages = self.cages_of.get(link_id)
        if cages:
            around = self._around(cages)
            del self.cages_of[link_id]
            for cage in cages:
                self.at[cage].discard(link_id)
                if not self.at[cage]:
                    del self.at[cage]
            self._flag(around)

    def _around(self, cages: list[Cage]) -> set[Cage]:
        """The cages whose flag reads these cages' cables: they and the far cages of their cables."""
        found = set(cages)
        for cage in cages:
            for link_id in self.at.get(cage, ()):
                found.update(self.cages_of[link_id])
        return found

    def _flag(self, cages: set[Cage]) -> None:
        for cage in cages:
            cables = self.at.get(cage, set())
            reached = set(cables)
            for link_id in cables:
                for other in self.cages_of[link_id]:
                    if other != cage:
                        reached |= self.at.get(other, set())
            if len(reached) > MOST_PER_ASSEMBLY:
                self.over.add(cage)
            else:
                self.over.discard(cage)

    def groups(self) -> list[set[str]]:
        """The cables of each group of more than two (a set of cable ids per group)."""
        found: list[set[str]] = []
        seen: set[Cage] = set()
        for start in self.over:
            if start in seen:
                continue
            group: set[str] = set()
            todo = [start]
            seen.add(start)
            while todo:
                for link_id in self.at.get(todo.pop(), ()):
                    if link_id not in group:
                        group.add(link_id)
                        for cage in self.cages_of[link_id]:
                            if cage not in seen:
                                seen.add(cage)
                                todo.append(cage)
            found.append(group)
        return found


def copper_assemblies(doc: Document) -> list[Assembly]:
    """The copper cables to order (module docstring): a group of two a straight cable or a
    splitter, a group of one a single cable, each cable of a larger group (N16) a single."""
    lookup = CageLookup(doc.catalog, doc.devices)
    found: list[Assembly] = []
    for group in copper_groups(copper_links(doc), lookup):
        if len(group) == MOST_PER_ASSEMBLY:
            first, second = (set(lookup.cages_of(link)) for link in group)
            found.append(Assembly(tuple(group), STRAIGHT if len(first & second) == 2 else SPLITTER))
        else:
            found += [Assembly((link,), SINGLE) for link in group]
    return found
