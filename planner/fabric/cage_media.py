"""One media per twin-port cage for the cables a generator or a move routes (N16's rule,
``planner.model.cages``): the router picks each cable's cheapest media by its own length, so the
two cables of a leaf's cage can come out a DAC to a node in the next rack and an SR4 fibre to one
four racks on, which no plug can serve. Every cable of such a cage takes the longest-reaching of
its cage's media, re-stocked from that media's lengths, and the cage at its other end is looked
at again (a media only ever moves up, so this ends). Copper cables (DAC, ACC) that would join
more than two ports through their cages into one assembly go onto fibre, whose twin-port
transceivers take each port's fibre anywhere (``planner.model.copper``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from planner.fabric.media import NO_MEDIA, MediaChoice, choose_media
from planner.fabric.routing import Router
from planner.model.cages import Cage, CageLookup
from planner.model.catalog import SWITCH
from planner.model.copper import MOST_PER_ASSEMBLY, copper_groups, plugs_attached
from planner.model.objects import TIER_NODE_LEAF, Link

#: A routed length this close to the stored one is the same cable (N8's tolerance).
LENGTH_TOLERANCE_M = 0.005


def restock(router: Router, link: Link, media_key: str) -> MediaChoice:
    """``link`` on ``media_key``: the stock length the router would give it on that media alone
    (NO_MEDIA when that media does not reach it)."""
    media = next((m for m in router.media if m.key == media_key), None)
    if media is None or link.length_m <= 0:
        return NO_MEDIA
    switch_to_switch = link.tier != TIER_NODE_LEAF and all(
        router.doc.catalog[router.devices[d].type].kind == SWITCH for d in (link.a_device, link.b_device))
    return choose_media([media], link.length_m, switch_to_switch, router.ethernet)


#: A cable's two ends, either way round.
Ends = frozenset[tuple[str, str]]


def ends_of(link: Link) -> Ends:
    return frozenset(((link.a_device, link.a_port), (link.b_device, link.b_port)))


def held_ends(links: Iterable[Link]) -> dict[Ends, Link]:
    """The cables past planned (run … verified, faulty) by their ends: a cable the hall has is
    not re-stocked on paper; where its cage cannot then take one media, N16 says so."""
    return {ends_of(link): link for link in links if link.state != "planned"}


def one_media_per_cage(router: Router, links: list[Link], held: dict[Ends, Link] | None = None) -> int:
    """Give the cables ``links`` (changed in place) one media per twin-port cage. A cable whose
    ends are ``held`` (``held_ends``) keeps the media and stock length the hall has while its
    routed length stands. The number of cables changed."""
    held = held or {}
    movable = set()
    for link in links:
        had = held.get(ends_of(link))
        if had is None:
            movable.add(id(link))
        elif abs(had.length_m - link.length_m) <= LENGTH_TOLERANCE_M:
            link.media, link.stock_m = had.media, had.stock_m
    lookup = CageLookup(router.doc.catalog, router.devices)
    members: dict[Cage, list[Link]] = defaultdict(list)
    for link in links:
        for cage in lookup.cages_of(link):
            members[cage].append(link)
    rank = {m.key: i for i, m in enumerate(router.media)}
    changed: set[int] = set()
    pending = [cage for cage, cables in members.items() if len(cables) > 1]
    while pending:
        _even_out(router, lookup, members, rank, pending, movable, changed)
        pending = _onto_fibre(router, lookup, links, movable, changed)
    return len(changed)


def _even_out(router: Router, lookup: CageLookup, members: dict[Cage, list[Link]], rank: dict[str, int],
              pending: list[Cage], movable: set[int], changed: set[int]) -> None:
    """Each cage of ``pending`` and the cages its changes reach on one media, the longest-reaching."""
    while pending:
        cage = pending.pop()
        cables = members[cage]
        media = {link.media for link in cables}
        if len(media) < 2 or "" in media:
            continue  # one media already, or a cable nothing reaches (N7 reports it)
        target = max(media, key=lambda key: rank.get(key, -1))
        for link in cables:
            if link.media == target or id(link) not in movable:
                continue
            choice = restock(router, link, target)
            if not choice.media:
                continue
            link.media, link.stock_m = choice.media, choice.stock_m
            changed.add(id(link))
            pending += [other for other in lookup.cages_of(link) if other != cage]


def _onto_fibre(router: Router, lookup: CageLookup, links: list[Link], movable: set[int],
                changed: set[int]) -> list[Cage]:
    """The copper cables of each group that more than one assembly would have to serve
    (``planner.model.copper``) on the shortest-reaching fibre that reaches each; the cages they
    are in, to even out again."""
    media = router.doc.catalog.media
    copper = [link for link in links if plugs_attached(media.get(link.media)) and lookup.cages_of(link)]
    fibres = [m.key for m in router.media if m.transceivers_per_link]
    touched: list[Cage] = []
    for group in copper_groups(copper, lookup):
        if len(group) <= MOST_PER_ASSEMBLY:
            continue
        for link in group:
            if id(link) not in movable:
                continue
            choice = next((c for c in (restock(router, link, key) for key in fibres) if c.media), None)
            if choice is not None:
                link.media, link.stock_m = choice.media, choice.stock_m
                changed.add(id(link))
                touched += lookup.cages_of(link)
    return touched


def with_cage_partners(router: Router, link: Link) -> Link:
    """A new cable (by hand) on the media of the cables already in its twin-port cages where they
    reach further: the cage's plug is there. Where the new cable needs the further reach, it keeps
    its own and N16 asks for the cage's other cables to follow."""
    doc = router.doc
    lookup = CageLookup(doc.catalog, doc.devices)
    media = {link.media}
    for cage in lookup.cages_of(link):
        media.update(other.media for _port, other in lookup.cables_in(doc, cage) if other.id != link.id and other.media)
    rank = {m.key: i for i, m in enumerate(router.media)}
    target = max(media, key=lambda key: rank.get(key, -1))
    if target == link.media or not link.media:
        return link
    choice = restock(router, link, target)
    if choice.media:
        link.media, link.stock_m = choice.media, choice.stock_m
    return link
