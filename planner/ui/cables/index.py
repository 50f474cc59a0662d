"""Search texts and sort orders of a plan's cables, kept up to date by difference (issue 9).

Qt-free so it can be tested and timed without a window; ``planner.ui.cables.dock`` presents it.
At 98k cables the costly parts are the texts themselves (the end text "R100 U12 N3 P1" of
each cable) and natural-order keys, so none is built at open:

- every link has a *slot* (its position in plan order when the index was built; links added
  later are appended). Display text is derived from the document on demand (``display``), so
  only the rows the table paints are ever formatted;
- the lower-case search text of every slot is built when first needed, or before that in
  idle-time chunks (``prepare``); a filter is a list comprehension of ``word in text`` per
  word, 5-10 ms over 98k slots in C-level string search;
- per-column sort keys and the ascending order of each column (ties by label, natural order:
  R2 before R10) are built on the first sort by that column and cached; the label keys, every
  sort's tie-break, are also built in idle time;
- the installation state of every slot is an int8 array (``states``), built on the first state
  filter; a state change patches it and no search text; the network of every slot (issue 21,
  ``network_of``: by tier) likewise (``networks``), built on the first network filter;
- ``apply(change)`` recomputes the texts and keys of the slots a Change touches — a renamed
  rack's cables, a deleted cable — and drops only the cached orders whose column changed.
  ``rows_computed`` counts recomputed texts, so tests can check that per-edit work follows
  the edit, not the plan.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from planner.model.change import Change
from planner.model.document import Document, prefix_of
from planner.model.labels import SEPARATOR
from planner.model.labels import end_text as end_label_text
from planner.model.networks import network_of
from planner.model.objects import CABLE_STATES, Link
from planner.model.ports import NETWORKS
from planner.ui.cables.keys import ASCII_FORM, Decimals, NaturalKeys, text_key
from planner.ui.cables.texts import end_text, link_number, state_text

COLUMNS = ("Label", "End A", "End B", "Network", "Tier", "Rail", "Media", "Length m", "Stock m", "State")
LABEL, END_A, END_B, NETWORK, TIER, RAIL, MEDIA, LENGTH, STOCK, STATE = range(len(COLUMNS))
#: Sorting by this "column" is plan order (by link number), as the list opens.
PLAN_ORDER = -1
NUMERIC = frozenset({RAIL, LENGTH, STOCK})
#: The link fields each column shows (the end columns also show rack and device fields).
COLUMN_FIELDS: dict[int, frozenset[str]] = {
    LABEL: frozenset({"label", "a_device", "a_port", "b_device", "b_port"}), END_A: frozenset({"a_device", "a_port"}),
    END_B: frozenset({"b_device", "b_port"}), NETWORK: frozenset({"tier"}), TIER: frozenset({"tier"}),
    RAIL: frozenset({"rail"}),
    MEDIA: frozenset({"media"}), LENGTH: frozenset({"length_m"}), STOCK: frozenset({"stock_m"}),
    STATE: frozenset({"state", "state_note"}),
}
#: Columns whose text is in a cable's search text. The installation state is filtered by its own
#: mask (``state_mask``), so marking 98k cables verified recomputes no search text.
SEARCHED = frozenset(COLUMN_FIELDS) - {STATE}
#: Code of each installation state in ``CableIndex.states`` (-1: a removed slot).
STATE_CODES = {state: code for code, state in enumerate(CABLE_STATES)}
#: Code of each network in ``CableIndex.networks`` (-1: a removed slot).
NETWORK_CODES = {network: code for code, network in enumerate(NETWORKS)}
#: Fields of racks and devices that appear in a cable's end text.
END_FIELDS = frozenset({"name", "u", "rack"})
#: Above this many added or changed cables a fresh index is cheaper than patching slots.
PATCH_LIMIT = 5000


@lru_cache(maxsize=64)
def _columns_showing(fields: frozenset[str]) -> tuple[int, ...]:
    """The columns that show any of a link's ``fields`` (an edit sets the same few sets over and over)."""
    return tuple(column for column, shown in COLUMN_FIELDS.items() if shown & fields)


@dataclass
class Update:
    """Slots an applied Change removed, added and changed (texts and keys already patched)."""

    removed: list[int] = field(default_factory=list)
    added: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)
    #: The changed slots whose search text changed (a state alone changes none).
    retexted: list[int] = field(default_factory=list)


class CableIndex:
    """The links of one document by slot, with lazily built search texts and sort orders."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        ids: list[str | None] = list(doc.links)
        try:  # every id is "link-N" (the document files links by prefix): skip the general parse
            numbers = [int(link_id[5:]) for link_id in ids]  # type: ignore[index]
        except ValueError:
            numbers = [link_number(link_id) for link_id in ids]  # type: ignore[arg-type]
        if len(numbers) > 1 and not bool(np.all(np.diff(np.asarray(numbers)) > 0)):
            plan = sorted(range(len(ids)), key=numbers.__getitem__)
            ids, numbers = [ids[n] for n in plan], [numbers[n] for n in plan]
        #: Link id of each slot; None once the link is removed (slots are never reused).
        self.ids = ids
        self.numbers = numbers
        self._slot_of: dict[str, int] | None = None
        self.alive = np.ones(len(self.ids), dtype=bool)
        #: Lower-case search text per slot, built up to ``len(texts)`` ("" for removed slots).
        self.texts: list[str] = []
        #: Search texts computed so far (the bulk build and every patched slot).
        self.rows_computed = 0
        self._prefix: dict[str, str] = {}
        self._label_prefix: dict[str, str] = {}
        self._device_key: dict[str, str] = {}
        self._natural = NaturalKeys()
        self._decimals = Decimals()
        self._keys: dict[int, list[Any]] = {}
        self._labels: list[str] = []  # label keys while they are built in idle time
        self._orders: dict[int, np.ndarray] = {PLAN_ORDER: np.arange(len(self.ids))}
        self._states: np.ndarray | None = None
        self._networks: np.ndarray | None = None

    # ---------------------------------------------------------------- reading
    @property
    def slot_of(self) -> dict[str, int]:
        """Slot of every live link id, built on first use (25 ms at 98k: not while opening)."""
        return self._slot_of if self._slot_of is not None else self._build_slots()

    def _build_slots(self) -> dict[str, int]:
        self._slot_of = {link_id: n for n, link_id in enumerate(self.ids) if link_id is not None}
        return self._slot_of

    @property
    def count(self) -> int:
        """Cables in the plan (removed slots not counted)."""
        return int(self.alive.sum())

    def link(self, slot: int) -> Link | None:
        link_id = self.ids[slot]
        return self.doc.links.get(link_id) if link_id is not None else None

    def display(self, slot: int, column: int) -> str:
        """The text a cell shows, derived from the document as it stands now."""
        link = self.link(slot)
        if link is None:
            return ""
        if column == LABEL:
            return self.label(link)
        if column == END_A:
            return end_text(self.doc, link.a_device, link.a_port)
        if column == END_B:
            return end_text(self.doc, link.b_device, link.b_port)
        if column == NETWORK:
            return network_of(link)
        if column == TIER:
            return link.tier
        if column == RAIL:
            return str(link.rail)
        if column == MEDIA:
            return link.media
        if column == STATE:
            return state_text(link)
        return f"{link.length_m if column == LENGTH else link.stock_m:.2f}"

    # ----------------------------------------------------------------- states
    def states(self) -> np.ndarray:
        """Installation state code (``STATE_CODES``) of every slot, -1 for removed ones; built on
        first use (a state filter) and patched on edits."""
        if self._states is None:
            links, codes = self.doc.links, STATE_CODES
            self._states = np.fromiter(
                (codes.get(links[i].state, 0) if i is not None and i in links else -1 for i in self.ids),
                dtype=np.int8, count=len(self.ids))
        return self._states

    def state_mask(self, states: Iterable[str], slots: list[int] | None = None) -> np.ndarray:
        """Whether each slot (or each of ``slots``) is a live cable in one of ``states``."""
        codes = [STATE_CODES[state] for state in states]
        held = self.states()
        return np.isin(held if slots is None else held[slots], codes)

    def networks(self) -> np.ndarray:
        """Network code (``NETWORK_CODES``) of every slot, -1 for removed ones; built on first use
        (a network filter) and patched when a tier changes."""
        if self._networks is None:
            self._networks = np.asarray(self._network_codes(range(len(self.ids))), dtype=np.int8)
        return self._networks

    def _network_codes(self, slots: Iterable[int]) -> list[int]:
        links, ids, codes = self.doc.links, self.ids, NETWORK_CODES
        found = [links.get(ids[slot]) if ids[slot] is not None else None for slot in slots]  # type: ignore[arg-type]
        return [codes[network_of(link)] if link is not None else -1 for link in found]

    def network_mask(self, networks: Iterable[str], slots: list[int] | None = None) -> np.ndarray:
        """Whether each slot (or each of ``slots``) is a live cable on one of ``networks``."""
        held = self.networks()
        return np.isin(held if slots is None else held[slots], [NETWORK_CODES[n] for n in networks])

    # ----------------------------------------------------------------- search
    @property
    def complete(self) -> bool:
        """Whether every slot has its search text."""
        return len(self.texts) == len(self.ids)

    @property
    def ready(self) -> bool:
        """Whether ``prepare`` has nothing left to do."""
        return self._slot_of is not None and self.complete and LABEL in self._keys

    def prepare(self, limit: int) -> bool:
        """One idle-time step of what a first filter or sort would otherwise wait for: the id
        lookup, then ``limit`` more search texts, then ``limit`` more label sort keys (every
        sort's tie-break). True once nothing is left."""
        if self._slot_of is None:
            self._build_slots()
        elif not self.complete:
            self.build_texts(limit)
        elif LABEL not in self._keys:
            self._build_labels(limit)
        else:
            return True
        return False

    def build_texts(self, limit: int | None = None) -> bool:
        """Build the search texts of up to ``limit`` more slots (all if None); True when done."""
        start = len(self.texts)
        stop = len(self.ids) if limit is None else min(len(self.ids), start + limit)
        self.texts.extend(self._texts_of(range(start, stop)))
        return self.complete

    def matches(self, words: list[str], within: np.ndarray | None = None) -> np.ndarray:
        """Mask over slots of the live cables whose text contains every word.

        ``within`` (slots) narrows the search when the words only add to an earlier filter.
        """
        self.build_texts()
        texts = self.texts
        words = [word.translate(ASCII_FORM) for word in words]
        found = np.flatnonzero(self.alive) if within is None else within
        candidates: list[int] = found.tolist()
        for word in words:
            candidates = [slot for slot in candidates if word in texts[slot]]
        mask = np.zeros(len(self.ids), dtype=bool)
        mask[candidates] = True
        return mask

    def matches_slot(self, words: list[str], slot: int) -> bool:
        if self.ids[slot] is None:
            return False
        text = self.texts[slot] if slot < len(self.texts) else self._texts_of([slot])[0]
        return all(word.translate(ASCII_FORM) in text for word in words)

    def label(self, link: Link) -> str:
        """The cable's label: typed, else derived from its ends ("R01-U01-N1-" cached per device)."""
        if link.label:
            return link.label
        starts, start = self._label_prefix, self._label_start
        return f"{starts.get(link.a_device) or start(link.a_device)}{link.a_port}{SEPARATOR}" \
               f"{starts.get(link.b_device) or start(link.b_device)}{link.b_port}"

    def _label_start(self, device_id: str) -> str:
        text = self._label_prefix[device_id] = end_label_text(self.doc, device_id, "")
        return text

    def _end_prefix(self, device_id: str) -> str:
        """Lower-case "r100 u12 n3" of a device, cached until its rack or itself changes."""
        text = self._prefix.get(device_id)
        if text is None:
            device = self.doc.devices.get(device_id)
            if device is None:
                text = device_id.lower()
            else:
                rack = self.doc.racks.get(device.rack)
                text = f"{rack.name if rack else '?'} u{device.u} {device.name}".lower()
            self._prefix[device_id] = text
        return text

    def _texts_of(self, slots: Iterable[int]) -> list[str]:
        """Search texts of some slots: what their rows show, lower-case, space-separated.

        One loop for the bulk build and for patches; inlined because at 98k slots a method call
        per slot would be a fifth of the build.
        """
        links, ids, prefix, decimals = self.doc.links, self.ids, self._prefix, self._decimals
        texts = []
        for slot in slots:
            link_id = ids[slot]
            link = links.get(link_id) if link_id is not None else None
            if link is None:
                texts.append("")
                continue
            a = prefix.get(link.a_device) or self._end_prefix(link.a_device)
            b = prefix.get(link.b_device) or self._end_prefix(link.b_device)
            texts.append(f"{self.label(link).lower().translate(ASCII_FORM)} {a} {link.a_port.lower()} {b} {link.b_port.lower()} "
                         f"{network_of(link)} {link.tier.lower()} {link.rail} {link.media.lower()} {decimals[link.length_m]} "
                         f"{decimals[link.stock_m]}")
        self.rows_computed += len(texts)
        return texts

    # ------------------------------------------------------------------- sort
    def keys(self, column: int) -> list[Any]:
        """Sort key of every slot for a column (built on first use, patched on edits)."""
        if column == PLAN_ORDER:
            return self.numbers
        if column == LABEL and LABEL not in self._keys:
            self._build_labels()
        keys = self._keys.get(column)
        if keys is None:
            keys = self._keys[column] = self._keys_of(column, range(len(self.ids)))
        return keys

    def _build_labels(self, limit: int | None = None) -> None:
        """Label keys of up to ``limit`` more slots; filed under ``_keys`` once all are there."""
        labels = self._labels
        stop = len(self.ids) if limit is None else min(len(self.ids), len(labels) + limit)
        labels.extend(self._keys_of(LABEL, range(len(labels), stop)))
        if len(labels) == len(self.ids):
            self._keys[LABEL] = labels

    def sort_key(self, column: int, slot: int) -> Any:
        """What ``order`` sorts a slot by: the column's key, ties broken by label."""
        if column == PLAN_ORDER:
            return self.numbers[slot]
        return (self.keys(column)[slot], self.keys(LABEL)[slot])

    def order(self, column: int) -> np.ndarray:
        """Live slots in ascending order of a column, ties by label (cached until it changes)."""
        order = self._orders.get(column)
        if order is None:
            if column == PLAN_ORDER:
                order = np.argsort(np.asarray(self.numbers), kind="stable")
            elif column == LABEL:
                labels = self.keys(LABEL)
                live = np.flatnonzero(self.alive).tolist()
                order = np.asarray(sorted(live, key=labels.__getitem__), dtype=np.intp)
            else:
                by_label = self.order(LABEL)
                keys = self.keys(column)
                if column in NUMERIC:
                    values = np.asarray(keys, dtype=float)[by_label]
                    order = by_label[np.argsort(values, kind="stable")]
                else:
                    order = np.asarray(sorted(by_label.tolist(), key=keys.__getitem__), dtype=np.intp)
        if not self.alive[order].all():
            order = order[self.alive[order]]
        self._orders[column] = order
        return order

    def _keys_of(self, column: int, slots: Iterable[int]) -> list[Any]:
        """Sort keys of some slots for a column (a removed slot's is a placeholder).

        One comprehension per column for the bulk build and for patches, inlined like
        ``_texts_of``: a generic per-slot call made the first sort twice as slow.
        """
        links, ids = self.doc.links, self.ids
        if isinstance(slots, range) and len(slots) == len(ids):
            rows = list(map(links.get, ids))  # type: ignore[arg-type]
        else:
            rows = [links.get(ids[slot]) for slot in slots]  # type: ignore[arg-type]
        if column in NUMERIC:
            name = {RAIL: "rail", LENGTH: "length_m", STOCK: "stock_m"}[column]
            return [getattr(link, name) if link else 0 for link in rows]
        natural = self._natural
        if column == LABEL:
            token = natural.__getitem__
            label = self.label
            return ["-".join(map(token, label(link).split("-"))) if link else "" for link in rows]
        if column in (TIER, MEDIA):
            return [natural[link.tier if column == TIER else link.media] if link else "" for link in rows]
        if column == NETWORK:
            return [natural[network_of(link)] if link else "" for link in rows]
        if column == STATE:
            return [(natural[ln.state] if not ln.state_note else text_key(state_text(ln))) if ln else ""
                    for ln in rows]
        known, key = self._device_key, self._end_key
        if column == END_A:
            return [f"{known.get(ln.a_device) or key(ln.a_device)} {natural[ln.a_port]}" if ln else "" for ln in rows]
        return [f"{known.get(ln.b_device) or key(ln.b_device)} {natural[ln.b_port]}" if ln else "" for ln in rows]

    def _end_key(self, device_id: str) -> str:
        """Natural key of "R100 U12 N3"; with " " + the port's key it is the end text's key."""
        key = self._device_key.get(device_id)
        if key is None:
            device = self.doc.devices.get(device_id)
            if device is None:
                key = self._natural.joined(device_id, " ")
            else:
                rack = self.doc.racks.get(device.rack)
                key = self._natural.joined(f"{rack.name if rack else '?'} U{device.u} {device.name}", " ")
            self._device_key[device_id] = key
        return key

    # ---------------------------------------------------------------- updates
    def apply(self, change: Change) -> Update | None:
        """Patch the slots a Change touches; None when so many changed that a new index is cheaper."""
        doc = self.doc
        update = Update()
        for obj_id in change.removed:
            slot = self.slot_of.pop(obj_id, None)
            if slot is not None:
                update.removed.append(slot)
            elif prefix_of(obj_id) == "dev":
                self._forget_device(obj_id)
        added = sorted((i for i in change.added if i in doc.links and i not in self.slot_of), key=link_number)
        # a link removed and added again within one change comes back with new values
        again = {self.slot_of[i] for i in change.added if i in self.slot_of}
        columns: dict[int, set[int]] = {column: set(again) for column in COLUMN_FIELDS} if again else {}
        slot_of, shown_by = self.slot_of, _columns_showing
        for obj_id, names in change.modified.items():
            if obj_id.startswith("link-"):  # 98k of them when every cable is marked verified
                slot = slot_of.get(obj_id)
                if slot is not None:
                    for column in shown_by(frozenset(names)):
                        columns.setdefault(column, set()).add(slot)
                continue
            kind = prefix_of(obj_id)
            if kind in ("rack", "dev") and names & END_FIELDS and obj_id in doc:
                devices = doc.devices_in(obj_id) if kind == "rack" else [doc.devices[obj_id]]
                ends: set[int] = set()
                for device in devices:
                    self._forget_device(device.id)
                    ends.update(self.slot_of[i] for i in doc.link_ids_of(device.id) if i in self.slot_of)
                columns.setdefault(END_A, set()).update(ends)
                columns.setdefault(END_B, set()).update(ends)
                columns.setdefault(LABEL, set()).update(ends)  # a derived label names its ends
        retext = set().union(*(slots for column, slots in columns.items() if column in SEARCHED))
        if len(added) + len(retext) > PATCH_LIMIT:
            return None
        self._remove(update.removed)
        self._patch(columns, retext)
        update.added = self._add(added)
        update.changed = sorted(set().union(*columns.values()))
        update.retexted = sorted(retext)
        return update

    def _forget_device(self, device_id: str) -> None:
        self._prefix.pop(device_id, None)
        self._label_prefix.pop(device_id, None)
        self._device_key.pop(device_id, None)

    def _remove(self, slots: list[int]) -> None:
        for slot in slots:
            self.ids[slot] = None
            if slot < len(self.texts):
                self.texts[slot] = ""
        self.alive[slots] = False
        if self._states is not None:
            self._states[slots] = -1
        if self._networks is not None:
            self._networks[slots] = -1

    def _patch(self, columns: dict[int, set[int]], retext: set[int]) -> None:
        """New search texts for ``retext``, and for each column new sort keys of its slots."""
        built = sorted(slot for slot in retext if slot < len(self.texts))
        for slot, text in zip(built, self._texts_of(built), strict=True):
            self.texts[slot] = text
        partial = {LABEL: self._labels} if LABEL not in self._keys else {}
        for column, keys in {**self._keys, **partial}.items():
            if column in columns:
                head = sorted(slot for slot in columns[column] if slot < len(keys))
                for slot, key in zip(head, self._keys_of(column, head), strict=True):
                    keys[slot] = key
        if STATE in columns and self._states is not None:
            slots = sorted(columns[STATE])
            links, ids = self.doc.links, self.ids
            self._states[slots] = [STATE_CODES.get(links[ids[slot]].state, 0) for slot in slots]  # type: ignore[index]
        if NETWORK in columns and self._networks is not None:
            slots = sorted(columns[NETWORK])
            self._networks[slots] = self._network_codes(slots)
        # the cached orders of changed columns are stale; a label is every column's tie-break
        for column in ({*self._orders} - {PLAN_ORDER} if LABEL in columns else set(columns)):
            self._orders.pop(column, None)

    def _add(self, link_ids: list[str]) -> list[int]:
        if not link_ids:
            return []
        complete = self.complete
        first = len(self.ids)
        for link_id in link_ids:
            self.slot_of[link_id] = len(self.ids)
            self.ids.append(link_id)
            self.numbers.append(link_number(link_id))
        slots = list(range(first, len(self.ids)))
        self.alive = np.concatenate([self.alive, np.ones(len(slots), dtype=bool)])
        if self._states is not None:
            links = self.doc.links
            self._states = np.concatenate([self._states, np.asarray(
                [STATE_CODES.get(links[i].state, 0) for i in link_ids], dtype=np.int8)])
        if self._networks is not None:
            self._networks = np.concatenate([self._networks, np.asarray(self._network_codes(slots), dtype=np.int8)])
        if complete:
            self.build_texts()
        for column, keys in self._keys.items():
            keys.extend(self._keys_of(column, slots))
        self._orders.clear()  # they lack the new slots; rebuilt on the next sort
        return slots
