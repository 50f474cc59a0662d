"""One media per twin-port cage (N16): a twin-port OSFP cage takes one plug for both its ports
(``planner.model.cages``), so a cage whose two cables are a DAC and a fibre, or SR4 and DR4
fibre, cannot be built as planned.

Asked of the whole plan on the cables' end codes (``end_codes``, made once per pass for N2 and
N3): each end at a shared cage as an integer (device × cage) beside its media's code, and the
keys with more than one media found with ``np.unique``. A sound plan costs a few array passes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import numpy as np

from planner.model.cages import SOURCE, CageLookup, cage_numbers
from planner.model.document import natural_key
from planner.model.labels import cable_label
from planner.model.objects import Link
from planner.rules.context import Context
from planner.rules.end_codes import end_codes
from planner.rules.engine import HALL, Rule, rule
from planner.rules.finding import ERROR, Finding

_READS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.media", "dev.type", "dev.name",
          "dev.rack", "rack.name"}


def mixed_cages(ctx: Context) -> list[tuple[str, int, list[tuple[str, Link]]]]:
    """(device, cage, [(port, cable) …] in port order) of every twin-port cage whose cables are
    not all on one media, by device and cage. Kept while the fabric stands (a rename, a move);
    after an edit of cables only, read from the patched ``FabricIndex``."""
    def find() -> list[tuple[str, int, list[tuple[str, Link]]]]:
        index = ctx.fabric_index()
        found = _from_index(ctx, index.mixed_cages()) if index is not None else _from_codes(ctx)
        return sorted(found, key=lambda cage: (natural_key(cage[0]), cage[1]))
    return ctx.fabric_memo("N16 mixed cages", find)


def _from_index(ctx: Context, cages: set[tuple[str, int]]) -> list[tuple[str, int, list[tuple[str, Link]]]]:
    doc = ctx.doc
    lookup = CageLookup(doc.catalog, doc.devices)
    return [(device_id, number, sorted(lookup.cables_in(doc, (device_id, number)), key=_end_order))
            for device_id, number in cages]


def _from_codes(ctx: Context) -> list[tuple[str, int, list[tuple[str, Link]]]]:
    codes = end_codes(ctx)
    doc = ctx.doc
    cages = codes.table({key: {p: float(c) for p, c in cage_numbers(doc.catalog, key).items()}
                         for key in codes.types})
    if not cages.any():
        return []
    media_of, _ = codes.media
    width = int(cages.max()) + 1
    keys, media, where = [], [], []
    for side, cage in enumerate(codes.at_ends(cages)):
        at = np.flatnonzero(cage > 0)
        keys.append(codes.device[side][at] * width + cage[at].astype(np.int64))
        media.append(media_of[at])
        where.append(np.stack([at, np.full(len(at), side)], axis=1))
    key, code = np.concatenate(keys), np.concatenate(media)
    pairs = np.unique(np.stack([key, code], axis=1), axis=0)
    cage_keys, counts = np.unique(pairs[:, 0], return_counts=True)
    mixed = set(cage_keys[counts > 1].tolist())
    if not mixed:
        return []
    found: dict[int, list[tuple[str, Link]]] = defaultdict(list)
    for k, (index, side) in zip(key.tolist(), np.concatenate(where).tolist()):
        if k in mixed:
            link = codes.links[index]
            found[k].append((link.b_port if side else link.a_port, link))
    devices = list(doc.devices)
    return [(devices[k // width], k % width, sorted(ends, key=_end_order)) for k, ends in found.items()]


def _end_order(end: tuple[str, Link]) -> tuple:
    """Port, then cable id: a port two cables share (N2) lists them in one order either way."""
    return end[0], natural_key(end[1].id)


@rule("N16", scope=HALL, reads=_READS, source=SOURCE, title="One media per twin-port cage")
def one_media_per_cage(ctx: Context, subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    names = {key: media.name for key, media in doc.catalog.media.items()}
    reach = {key: media.reach_m for key, media in doc.catalog.media.items()}
    for device_id, cage, ends in mixed_cages(ctx):
        device = doc.devices[device_id]
        rack = doc.racks.get(device.rack)
        parts = [f"{(link.media or 'no media').upper()} ({port}, {cable_label(doc, link)}, {link.length_m:.2f} m)"
                 for port, link in ends]
        longest = max((link.media for _, link in ends), key=lambda m: reach.get(m, 0.0))
        yield r.finding(ctx, ERROR, (device_id, *(link.id for _, link in ends)),
                        f"{rack.name if rack else device.rack}/{device.name} cage {cage} takes one plug for both "
                        f"its ports, but its cables are " + " and ".join(parts)
                        + f": put them on one media, {longest.upper()} ({names.get(longest, longest)}) reaching "
                        "the longer")
