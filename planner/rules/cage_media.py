"""One plug per twin-port cage (N16): a twin-port OSFP cage takes one plug for both its ports
(``planner.model.cages``), so a cage whose two cables are a DAC and a fibre, or SR4 and DR4
fibre, cannot be built as planned; nor can copper cables (DAC, ACC: their plugs are their own)
that join more than two ports through their cages into one assembly (``planner.model.copper``:
a leaf cage's two ports on copper to two spines' cages).

Asked of the whole plan on the cables' end codes (``end_codes``, made once per pass for N2 and
N3): each end at a shared cage as an integer (device × cage) beside its media's code, and the
keys with more than one media found with ``np.unique``. A sound plan costs a few array passes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import numpy as np

from planner.model.cages import SOURCE, CageLookup, cage_numbers
from planner.model.copper import MOST_PER_ASSEMBLY, copper_groups, plugs_attached
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import DATA_NETWORKS, network_of
from planner.model.objects import Link
from planner.rules.context import Context
from planner.rules.end_codes import end_codes
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, Finding
from planner.rules.scopes import HALL

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


def _cage_table(ctx: Context) -> np.ndarray:
    """Each end's twin-port cage number (0 for none) as an ``end_codes`` table, once per pass (the
    media and the copper check both read it)."""
    codes, catalog = end_codes(ctx), ctx.doc.catalog
    return ctx.memo("twin-port cage table", lambda: codes.table(
        {key: {p: float(c) for p, c in cage_numbers(catalog, key).items()} for key in codes.types}))


def overfull_copper(ctx: Context) -> list[list[Link]]:
    """Each group of copper cables joined through their twin-port cages into more than one
    assembly serves, its cables by id, the groups by their first cable. Kept as ``mixed_cages``."""
    def find() -> list[list[Link]]:
        doc = ctx.doc
        index = ctx.fabric_index()
        if index is not None:
            groups = [[doc.links[i] for i in group] for group in index.copper_groups()]
        else:
            groups = [group for group in copper_groups(_copper_not_closed(ctx), CageLookup(doc.catalog, doc.devices))
                      if len(group) > MOST_PER_ASSEMBLY]
        ordered = [sorted(group, key=lambda link: natural_key(link.id)) for group in groups]
        return sorted(ordered, key=lambda group: natural_key(group[0].id))
    return ctx.fabric_memo("N16 copper groups", find)


def _copper_not_closed(ctx: Context) -> list[Link]:
    """The data cables on copper at a twin-port cage, less those a closed pair accounts for: two
    cables between the same two cages, each cage holding just them (most copper in a hall), or a
    cable alone at its one cage. What is left is few enough to group one by one."""
    codes, doc = end_codes(ctx), ctx.doc
    media_of, keys = codes.media
    copper = [code for code, key in enumerate(keys) if plugs_attached(doc.catalog.media.get(key))]
    a_cage, b_cage = codes.at_ends(_cage_table(ctx))
    at = np.flatnonzero(np.isin(media_of, copper) & ((a_cage > 0) | (b_cage > 0)))
    width = int(max(a_cage.max(initial=0), b_cage.max(initial=0))) + 1
    ends = []
    for side, cage in enumerate((a_cage, b_cage)):
        ends.append(np.where(cage[at] > 0, codes.device[side][at] * width + cage[at].astype(np.int64), -1))
    a_key, b_key = ends
    held = np.bincount(np.concatenate([a_key[a_key >= 0], b_key[b_key >= 0]]),
                       minlength=(len(doc.devices) + 1) * width)
    both = (a_key >= 0) & (b_key >= 0)
    pair = np.where(both, np.minimum(a_key, b_key) * held.size + np.maximum(a_key, b_key), -1)
    _, inverse, twice = np.unique(pair, return_inverse=True, return_counts=True)
    straight = both & (twice[inverse] == 2) & (held[np.maximum(a_key, 0)] == 2) & (held[np.maximum(b_key, 0)] == 2)
    one = np.where(a_key >= 0, a_key, b_key)
    alone = ~both & (held[one] == 1)
    left = at[~(straight | alone)]
    return [link for link in map(codes.links.__getitem__, left.tolist()) if network_of(link) in DATA_NETWORKS]


def _from_codes(ctx: Context) -> list[tuple[str, int, list[tuple[str, Link]]]]:
    codes = end_codes(ctx)
    doc = ctx.doc
    cages = _cage_table(ctx)
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
    # each (cage, media) once, as one integer (a unique over rows sorts them as bytes, 4× slower)
    span = int(code.max(initial=0)) + 1
    cage_keys, counts = np.unique(np.unique(key * span + code) // span, return_counts=True)
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


@rule("N16", scope=HALL, reads=_READS, source=SOURCE, title="One plug per twin-port cage: one media, copper to one assembly")
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

    lookup = CageLookup(doc.catalog, doc.devices)
    fibre = min((m for m in doc.catalog.media.values() if m.transceivers_per_link), key=lambda m: m.reach_m, default=None)
    for group in overfull_copper(ctx):
        cages = list(dict.fromkeys(cage for link in group for cage in lookup.cages_of(link)))
        first = f"{_place(doc, cages[0][0])} cage {cages[0][1]}"
        others = f" and {len(cages) - 1} more cage{'s' if len(cages) > 2 else ''}" if len(cages) > 1 else ""
        cables = ", ".join(cable_label(doc, link) for link in group[:_LISTED])
        media = "/".join(sorted({link.media.upper() for link in group}))
        instead = f"put them on fibre ({fibre.key.upper()})" if fibre else "put them on fibre"
        yield r.finding(ctx, ERROR, tuple(dict.fromkeys((*(c[0] for c in cages), *(link.id for link in group)))),
                        f"{first}{others} take one plug each, but {len(group)} {media} cables join them into one "
                        f"copper assembly ({cables}{', …' if len(group) > _LISTED else ''}): a DAC or ACC serves "
                        f"at most two ports, cage to cage or as a splitter; {instead}, or cable each cage's two "
                        "ports to one cage")


#: How many cables an N16 copper finding names before "…".
_LISTED = 2


def _place(doc: Document, device_id: str) -> str:
    device = doc.devices[device_id]
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack else device.rack}/{device.name}"
