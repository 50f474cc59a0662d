"""The cables of a push (``planner.netbox.push``): every data cable, power cord and PDU-to-feed
cable of the plan, matched with the site's cables in NetBox.

A plan cable is the NetBox cable whose id the plan recorded at the last push, else the one on
the same two ends, else the one with its label. A matched cable whose ends differ is rewired in
place (PATCH of its terminations, so it keeps its NetBox id, history and journal). NetBox refuses
a cable on a port another cable holds, so the order matters: cables the plan took out go first;
then rewires whose new ports are free, pass by pass, as earlier ones free theirs; rewires that
wait on each other in a circle (two cables swapping ports) are opened by parking one end on a
free component for a moment, so that they too keep their ids; then the new cables. A site cable
the plan does not know is left as it is, unless it holds a port a plan cable needs: then it is
deleted, and the summary names how many.

A twin-port copper cable is one NetBox cable of two port-cables (``planner.export.netbox_twins``):
its ends are compared in order, since the order pairs them. NetBox keeps the pairing of the ends
a PATCH keeps, so a twin cable whose kept ends would pair otherwise is made again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.export.netbox_twins import cable_of, port_number
from planner.netbox.compare import differing
from planner.netbox.wanted import CABLES, COMPONENTS, DEVICES, FEEDS, POWER_FEED_END, End, Wanted

if TYPE_CHECKING:
    from planner.netbox.push import Sync

Term = tuple[str, int]
Ends = tuple[tuple[Term, ...], tuple[Term, ...]]
FIELDS = ("id", "label", "type", "status", "profile", "color", "length", "length_unit", "description", "tags",
          "a_terminations", "b_terminations")


def _ends_of(cable: dict[str, Any]) -> Ends:
    """A cable's ends as NetBox lists them (a profiled cable's by connector)."""
    def side(name: str) -> tuple[Term, ...]:
        return tuple((t["object_type"], t["object_id"]) for t in cable.get(name) or ())
    return side("a_terminations"), side("b_terminations")


def _key(ends: Ends) -> Ends:
    """Ends in an order of their own: two cables on the same ends have the same key."""
    return tuple(sorted(ends[0])), tuple(sorted(ends[1]))


def _same_ends(now: Ends, wanted: Ends, paired: bool) -> bool:
    """Whether a cable on ``now`` is on ``wanted`` (either way round; in the same order where
    the order pairs them)."""
    if not paired:
        return _key(now) in (_key(wanted), _key((wanted[1], wanted[0])))
    return now in (wanted, (wanted[1], wanted[0]))


def _keeps_pairs(now: Ends, wanted: Ends) -> bool:
    """Whether a PATCH from ``now`` to ``wanted`` pairs a twin cable's ends as wanted: NetBox
    keeps the connector of every end it keeps, so each must stay at its place."""
    for side_now, side_wanted in zip(now, wanted, strict=True):
        for place, term in enumerate(side_wanted):
            if term in side_now and side_now.index(term) != place:
                return False
    return True


def _record(sync: Sync, item: Wanted, number: int) -> None:
    """Record a plan cable's NetBox cable id, each port-cable of a twin cable by its place."""
    for place, link_id in enumerate(item.extra.get("links", (item.plan_key,))):
        sync.new_ids[link_id] = port_number(number, place)


def _terminations(ends: Ends) -> dict[str, list[dict[str, Any]]]:
    return {side: [{"object_type": kind, "object_id": number} for kind, number in terms]
            for side, terms in (("a_terminations", ends[0]), ("b_terminations", ends[1]))}


class _Components:
    """The site's device components in NetBox by (device id, name), read once per push."""

    def __init__(self, sync: Sync, site_id: int) -> None:
        self.sync = sync
        self.by_name: dict[str, dict[tuple[int, str], int]] = {}
        if site_id > 0:
            for kind, endpoint in COMPONENTS.items():
                found = sync.client.get_all(endpoint, fields=("id", "name", "device"), site_id=site_id)
                self.by_name[kind] = {((c.get("device") or {}).get("id", 0), c["name"]): c["id"] for c in found}

    def all_of(self, kind: str) -> list[Term]:
        """Every component of ``kind`` in the site, as cable ends."""
        return [(kind, number) for number in self.by_name.get(kind, {}).values()]

    def ends(self, a: tuple[End, ...], b: tuple[End, ...]) -> Ends | None:
        """The cable ends of a wanted cable's two sides; None while a component is not there."""
        sides = []
        for side in (a, b):
            terms = [self.term(end) for end in side]
            if any(term is None for term in terms):
                return None
            sides.append(tuple(term for term in terms if term is not None))
        return sides[0], sides[1]

    def term(self, end: End) -> Term | None:
        if end.kind == POWER_FEED_END:
            number = self.sync.ids.get(FEEDS, {}).get(end.device)
        else:
            device = self.sync.ids.get(DEVICES, {}).get(end.device)
            number = self.by_name.get(end.kind, {}).get((device, end.name)) if device is not None and device > 0 else None
        return (end.kind, number) if number is not None and number > 0 else None


def push_cables(sync: Sync, site_id: int) -> None:
    """Make the site's cables the plan's (module docstring)."""
    report, client = sync.report, sync.client
    wanted = sync.hall.objects.get(CABLES, [])
    components = _Components(sync, site_id)
    there = client.get_all(CABLES, fields=FIELDS, site_id=site_id) if site_id > 0 else []
    by_id = {c["id"]: c for c in there}
    ends_there = {c["id"]: _ends_of(c) for c in there}
    on_ends: dict[Ends, int] = {}
    for number, held in ends_there.items():
        on_ends.setdefault(_key(held), number)
        on_ends.setdefault(_key((held[1], held[0])), number)
    labels: dict[str, list[int]] = {}
    for cable in there:
        labels.setdefault(cable.get("label") or "", []).append(cable["id"])
    creates: list[tuple[Wanted, Ends | None]] = []
    rewires: list[tuple[Wanted, int, Ends]] = []
    updates: list[dict[str, Any]] = []
    matched: dict[int, Wanted] = {}
    repaired: list[tuple[Wanted, int, Ends]] = []
    for item in wanted:
        ends = components.ends(item.extra["a"], item.extra["b"])
        paired = "profile" in item.fields
        found = sync.recorded.get(item.plan_key)
        found = cable_of(found) if found is not None else None
        if found not in by_id or found in matched:
            found = on_ends.get(_key(ends)) if ends is not None else None
        if found is None or found in matched:
            same = [n for n in labels.get(item.fields["label"], []) if n not in matched]
            found = same[0] if len(same) == 1 else None
        if found is None:
            creates.append((item, ends))
            continue
        matched[found] = item
        _record(sync, item, found)
        change = differing(sync.resolve(item.fields), by_id[found])
        if ends is not None and paired and not _same_ends(ends_there[found], ends, True) \
                and not _keeps_pairs(ends_there[found], ends):
            repaired.append((item, found, ends))
            report.updated[CABLES] += 1
        elif ends is not None and not _same_ends(ends_there[found], ends, paired):
            rewires.append((item, found, ends))
            report.updated[CABLES] += 1
            if change:
                updates.append({"id": found, **change})
        elif change:
            updates.append({"id": found, **change})
            report.updated[CABLES] += 1
        else:
            report.unchanged[CABLES] += 1
    recorded = sync.recorded_ids(CABLES)
    gone = [n for n in by_id if n not in matched and n in recorded]
    needed = {term for _item, ends in creates if ends for term in (*ends[0], *ends[1])}
    needed |= {term for _item, _n, ends in rewires for term in (*ends[0], *ends[1])}
    strangers = [n for n in by_id if n not in matched and n not in recorded]
    taken_over = [n for n in strangers if needed.intersection((*ends_there[n][0], *ends_there[n][1]))]
    if len(strangers) > len(taken_over):
        report.notes.append(f"{len(strangers) - len(taken_over):,} cable(s) in the site that the plan does not have "
                            "were left as they are")
    if taken_over:
        report.notes.append(f"{len(taken_over):,} cable(s) the plan does not have held a port a plan cable needs: "
                            "deleted")
    unresolved = [item for item, ends in creates if ends is None]
    if unresolved and not report.dry_run:
        report.notes.append(f"{len(unresolved):,} cable(s) end on a component NetBox does not have (a device type "
                            f"that existed before without that port?), e.g. {unresolved[0].fields['label']}: left out")
    report.deleted[CABLES] += len(gone) + len(taken_over)
    report.created[CABLES] += len(creates) - (0 if report.dry_run else len(unresolved))
    if repaired and not report.dry_run:
        report.notes.append(f"{len(repaired):,} twin cable(s) whose ends pair otherwise now: made again (new NetBox ids)")
    if report.dry_run:
        return
    dropped = {*gone, *taken_over, *(number for _item, number, _ends in repaired)}
    if dropped:
        client.delete(CABLES, sorted(dropped))
    remade = _rewire(sync, rewires, {n: e for n, e in ends_there.items() if n not in dropped}, components)
    if updates:
        client.update(CABLES, [u for u in updates if u["id"] not in dropped])
    fresh = [(item, ends) for item, ends in creates if ends is not None] + remade
    fresh += [(item, ends) for item, _number, ends in repaired]
    if fresh:
        made = client.create(CABLES, [{**sync.resolve(item.fields), **_terminations(ends)} for item, ends in fresh])
        for (item, _ends), obj in zip(fresh, made, strict=True):
            _record(sync, item, obj["id"])


def _rewire(sync: Sync, rewires: list[tuple[Wanted, int, Ends]], ends_now: dict[int, Ends],
            components: _Components) -> list[tuple[Wanted, Ends]]:
    """PATCH the rewired cables onto their new ends, those whose ports are free first, pass by
    pass. Cables that wait on each other in a circle (a swap) are opened by parking one of them:
    its changing end moves to a free component of the same kind, which frees the port the next
    one waits for (NetBox keeps both sides on an existing cable: a PATCH of an empty side is
    ignored). So every rewired cable keeps its NetBox id. Returns the cables that found no free
    component to park on, deleted here to be made again."""
    holder = {term: number for number, ends in ends_now.items() for term in (*ends[0], *ends[1])}
    waiting = list(rewires)
    parked: set[int] = set()
    while waiting:
        batch: list[tuple[int, Ends]] = []
        claimed: set[Term] = set()
        later = []
        for item, number, ends in waiting:
            terms = {*ends[0], *ends[1]}
            if all(holder.get(t, number) == number for t in terms) and claimed.isdisjoint(terms):
                batch.append((number, ends))
                claimed |= terms
            else:
                later.append((item, number, ends))
        if not batch:
            _item, number, ends = later[0]
            spot = None if number in parked else _park(number, ends, ends_now, holder, waiting, components)
            if spot is None:
                break
            parked.add(number)
            batch = [(number, spot)]
            later = [*later[1:], later[0]]
        sync.client.update(CABLES, [{"id": number, **_terminations(ends)} for number, ends in batch])
        for number, ends in batch:
            for term in (*ends_now[number][0], *ends_now[number][1]):
                if holder.get(term) == number:
                    del holder[term]
            ends_now[number] = ends
            holder.update({term: number for term in (*ends[0], *ends[1])})
        waiting = later
    if waiting:
        sync.client.delete(CABLES, [number for _item, number, _ends in waiting])
        sync.report.notes.append(f"{len(waiting)} cable(s) swapped ports and no free port was there to park one "
                                 "on: made again (new NetBox ids)")
    return [(item, ends) for item, _number, ends in waiting]


def _park(number: int, ends: Ends, ends_now: dict[int, Ends], holder: dict[Term, int],
          waiting: list[tuple[Wanted, int, Ends]], components: _Components) -> Ends | None:
    """Cable ``number``'s ends with each side that must change moved to a free component of the
    same kind (one no cable holds and no waiting cable wants); None when there is none."""
    wanted = {term for _item, _n, target in waiting for term in (*target[0], *target[1])}
    now = ends_now[number]
    sides = []
    for old, new in zip(now, ends, strict=True):
        if old == new or not old:
            sides.append(old)
            continue
        kind = old[0][0]
        free = next((term for term in components.all_of(kind) if term not in holder and term not in wanted), None)
        if free is None:
            return None
        sides.append((free,))
    return sides[0], sides[1]
