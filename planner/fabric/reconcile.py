"""Keep a hall's cables through regeneration and cable lists: match new cabling to the old by ends.

Review (diff, merge, compare) and as-built work (cable states, verify) rest on a cable keeping
its identity while its ends stay the same (DESIGN §3). The generator and a cable list both say
what the cabling *should* be; ``reconcile`` turns that into the smallest change to what it *is*:

- a wanted cable whose two ends (device, port; either way round) an existing cable already joins
  is **kept** whole: id, typed label, state and note; only its routed fields (tier, rail, media,
  lengths) are updated, and only where they differ;
- a wanted cable that shares one end with an existing cable no kept cable claims **rewires** that
  cable: same id and typed label, the other end moved; its state goes back to ``planned`` (what
  was run, tested or verified is no longer what the plan says);
- every other existing cable in scope is **removed**, every other wanted cable **added** with a
  fresh id.

The generators choose ports the same way (``keep_or_deal``): an end stays on the switch port,
outlet or manifold pair it holds while that is still one it may have, and only the others are
dealt the free ones, so growth rewires only what must move.

Removing or rewiring a cable past ``planned`` undoes work done in the hall, so ``at_risk`` lists
those, and callers ask (GUI) or need ``--force`` (CLI) before applying them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from planner.commands.base import AddObjects, Command, RemoveObjects, SetFields
from planner.model.document import Document
from planner.model.objects import CABLE_STATES, Link

#: Fields a regeneration or cable list may update on a kept cable (what the route and design say).
ROUTED_FIELDS = ("tier", "rail", "media", "length_m", "stock_m")
End = tuple[str, str]
PLANNED = CABLE_STATES[0]
Key = TypeVar("Key", bound=Hashable)
Slot = TypeVar("Slot", bound=Hashable)


def _ends(link: Link) -> frozenset[End]:
    return frozenset(((link.a_device, link.a_port), (link.b_device, link.b_port)))


@dataclass
class CablePlan:
    """What applying the wanted cabling does, and the commands that do it.

    ``remove`` runs before anything else is added or moved (it frees ports), ``update`` (rewires
    and routed fields of kept cables) and ``add`` after the devices they need exist.
    """

    kept: int = 0
    rewired: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    added: list[Link] = field(default_factory=list)
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)
    at_risk: list[str] = field(default_factory=list)
    states: dict[str, str] = field(default_factory=dict)

    def summary(self) -> str:
        """One line in numbers: "kept 24,560, rewired 0, removed 16 (3 verified), added 32"."""
        risky: dict[str, int] = {}
        for link_id in self.removed:
            if link_id in self.states:
                risky[self.states[link_id]] = risky.get(self.states[link_id], 0) + 1
        removed = f"removed {len(self.removed):,}"
        if risky:
            removed += " (" + ", ".join(f"{n:,} {state}" for state, n in sorted(risky.items())) + ")"
        rewired = f"rewired {len(self.rewired):,}"
        past = sum(1 for link_id in self.rewired if link_id in self.states)
        if past:
            rewired += f" ({past:,} past planned)"
        return f"kept {self.kept:,}, {rewired}, {removed}, added {len(self.added):,}"

    def is_empty(self) -> bool:
        return not (self.removed or self.added or self.updates)

    def remove_command(self) -> Command | None:
        return RemoveObjects(self.removed, text="Remove cables") if self.removed else None

    def update_command(self) -> Command | None:
        return SetFields(self.updates, text="Rewire and re-route cables") if self.updates else None

    def add_command(self) -> Command | None:
        return AddObjects(self.added, text="Add cables") if self.added else None

    def commands(self) -> list[Command]:
        """The three steps in order, those that do something."""
        return [c for c in (self.remove_command(), self.update_command(), self.add_command()) if c is not None]

    def refusal(self) -> str:
        """Why applying needs confirmation ("" when it does not): cables past planned it removes or rewires."""
        if not self.at_risk:
            return ""
        shown = ", ".join(self.at_risk[:5]) + (f" and {len(self.at_risk) - 5:,} more" if len(self.at_risk) > 5 else "")
        return (f"{len(self.at_risk):,} cable(s) already past planned would be removed or rewired ({shown})")


def reconcile(doc: Document, wanted: Iterable[Link], scope: Iterable[str]) -> CablePlan:
    """The change from the cables ``scope`` (ids of ``doc``) to ``wanted`` (ids ignored; a typed
    ``label`` is kept as given, "" keeps an existing cable's label). Cables outside ``scope``
    are left alone and never matched."""
    plan = CablePlan()
    scope = set(scope)
    old = {link_id: link for link_id, link in doc.links.items() if link_id in scope}  # in plan order
    by_ends = {_ends(link): link_id for link_id, link in old.items()}
    unmatched_new: list[Link] = []
    matched: set[str] = set()
    for link in wanted:
        link_id = by_ends.pop(_ends(link), None)
        if link_id is None:
            unmatched_new.append(link)
            continue
        matched.add(link_id)
        plan.kept += 1
        current = old[link_id]
        values = {name: getattr(link, name) for name in ROUTED_FIELDS if getattr(link, name) != getattr(current, name)}
        if link.label and link.label != current.label:
            values["label"] = link.label
        if values:
            plan.updates[link_id] = values
    free: dict[End, str] = {}
    for link_id, link in old.items():
        if link_id not in matched:
            for end in _ends(link):
                free.setdefault(end, link_id)
    rewired: set[str] = set()
    added: list[Link] = []
    for link in unmatched_new:
        link_id = next((free[end] for end in ((link.a_device, link.a_port), (link.b_device, link.b_port))
                        if end in free and free[end] not in rewired), None)
        if link_id is None:
            added.append(link)
            continue
        rewired.add(link_id)
        plan.rewired.append(link_id)
        current = old[link_id]
        values = {name: getattr(link, name) for name in ("a_device", "a_port", "b_device", "b_port", *ROUTED_FIELDS)
                  if getattr(link, name) != getattr(current, name)}
        if link.label and link.label != current.label:
            values["label"] = link.label
        if current.state != PLANNED:
            values["state"] = PLANNED
            plan.states[link_id] = current.state
            plan.at_risk.append(link_id)
        plan.updates[link_id] = values
    for link_id, link in old.items():
        if link_id not in matched and link_id not in rewired:
            plan.removed.append(link_id)
            if link.state != PLANNED:
                plan.states[link_id] = link.state
                plan.at_risk.append(link_id)
    plan.added = [replace(link, id=doc.new_id("link"), state=PLANNED, state_note="") for link in added]
    return plan


def keep_or_deal(ends: Sequence[Key], slots: Sequence[Slot], current: Mapping[Key, Slot]) -> list[Slot | None]:
    """A slot for each end, in the order of ``ends``: the one it holds now where that is still
    offered and no earlier end took it, else the first free slot in order (None when none is
    left). With nothing held, the i-th end gets the i-th slot: a fresh plan deals by position;
    a grown one keeps every end that may stay, so regeneration rewires only what must move."""
    offered = set(slots)
    taken: set[Slot] = set()
    chosen: list[Slot | None] = []
    for end in ends:
        slot = current.get(end)
        if slot is not None and slot in offered and slot not in taken:
            taken.add(slot)
            chosen.append(slot)
        else:
            chosen.append(None)
    free = (slot for slot in slots if slot not in taken)
    return [slot if slot is not None else next(free, None) for slot in chosen]
