"""N8's findings: the cables whose stored lengths no longer match their routes, one finding per
rack pair and kind (an error naming those whose route has outgrown the stock cable bought, a
warning naming the rest), each naming every such cable of the pair, in id order.

A network rack's 0.6 m move makes 1.3k–2.1k cables stale at 32k GPUs: one finding per cable
gave the findings dock 1.3k warnings for one nudge, and wording them was a third of the edit's
validation. Per rack pair they are the few dozen bundles the move re-laid; a finding selects its
cables (in natural order for ids of the plan's own form, ``link-9`` before ``link-10``: shorter
ids first, then by text), and a pair with one stale cable of a kind names the cable as the finding
of one cable did.

The routed lengths come from ``route_lengths`` (every cable's for a full run, ``stale_in_plan``,
kept for the pass in ``ctx.memo``; an edit's, ``stale_among``). The findings are the subjects'
of scope PAIR (``planner.fabric.bundles.pair_subject``): an edit re-judges the pairs of the
stale cables among its own and the pairs whose findings named one of its cables, each over every
cable of the pair (``CableBundles.cables_between``). A message names a cable by its label
(``cable_label``), each end's "<rack>-U<nn>-<device>-" part made once per device per pass.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from operator import attrgetter, itemgetter

from planner.fabric.bundles import pair_racks
from planner.model.labels import SEPARATOR, end_text
from planner.model.objects import Link
from planner.rules.context import Context
from planner.rules.engine import Rule
from planner.rules.finding import ERROR, WARNING, Finding
from planner.rules.route_lengths import stale_among, stale_in_plan

#: ``ctx.memo`` keys: each pair's judgement of a full run's candidates, and each device's part of
#: a cable label
_FOUND = "N8 found"
_ENDS = "N8 label ends"
_FIX = "Plan ▸ Recompute cable lengths"
#: A stale cable and its routed length (m).
Stale = tuple[Link, float]
_CABLE, _NOW = itemgetter(0), itemgetter(1)
_ID, _LENGTH, _STOCK = attrgetter("id"), attrgetter("length_m"), attrgetter("stock_m")
#: Severity, subjects and message of each of a pair's findings.
Judgement = list[tuple[str, tuple[str, ...], str]]


def stale_candidates(ctx: Context) -> list[str]:
    """N8's ``candidates``: the pairs of the plan's stale cables, their judgements kept for the pass."""
    found = {pair: _judgement(ctx, pair, stale) for pair, stale in _by_pair(*stale_in_plan(ctx)).items()}
    ctx.memo(_FOUND, dict).update(found)
    return list(found)


def stale_judgement(ctx: Context, pair: str) -> Judgement:
    """N8's findings of a rack pair, as severity, subjects and message."""
    kept = ctx.memo(_FOUND, dict).get(pair)
    if kept is not None:
        return kept
    return _judgement(ctx, pair, _by_pair(*stale_among(ctx, ctx.cable_bundles().cables_between(pair))).get(pair, []))


def stale_judged(ctx: Context, cables: Collection[str], held: Collection[str], r: Rule) -> dict[str, list[Finding]]:
    """N8's ``judged``: the findings of the pairs of the stale cables among ``cables`` and of the
    ``held`` pairs, each pair judged over all its cables (the cables of a moved rack are all of
    its pairs': the others are few)."""
    found = _by_pair(*stale_among(ctx, cables))
    pairs = found.keys() | held
    bundles = ctx.cable_bundles()
    others = [i for pair in pairs for i in bundles.cables_between(pair) if i not in cables]
    for pair, stale in _by_pair(*stale_among(ctx, others)).items():
        found.setdefault(pair, []).extend(stale)
    rule_id, source = r.id, r.cited(ctx)
    return {pair: [Finding(rule_id, severity, subjects, message, source)
                   for severity, subjects, message in _judgement(ctx, pair, found.get(pair, []))]
            for pair in pairs}


def _by_pair(links: list[Link], routed: list[float], pairs: list[str]) -> dict[str, list[Stale]]:
    """The stale cables with a stored length (N8 leaves a cable of none), by rack pair."""
    found: dict[str, list[Stale]] = {}
    for link, now, pair in zip(links, routed, pairs):
        if link.length_m > 0:
            found.setdefault(pair, []).append((link, now))
    return found


def _judgement(ctx: Context, pair: str, stale: list[Stale]) -> Judgement:
    """A pair's findings: the cables outgrowing their stock (an error), the others (a warning)."""
    outgrown: list[Stale] = []
    short: list[Stale] = []
    for cable in stale:
        stock = cable[0].stock_m
        (outgrown if stock and cable[1] > stock + 1e-9 else short).append(cable)
    judged: Judgement = []
    for severity, cables in ((ERROR, outgrown), (WARNING, short)):
        if len(cables) == 1:
            link, now = cables[0]
            judged.append((severity, (link.id,), _one(link.label or _labeller(ctx)(link), link, now, severity)))
        elif cables:
            ids = sorted(map(_ID, map(_CABLE, cables)))
            ids.sort(key=len)  # natural order for the plan's own ids (link-9 before link-10), C-level
            subjects = tuple(ids)
            judged.append((severity, subjects, _many(_pair_name(ctx, pair), cables, severity)))
    return judged


#: Lengths as N8 prints them (2 decimals), kept: the same few thousand lengths recur in every
#: message; emptied past 2**16 lengths. Only lengths above 0 (0.0 and -0.0 are one key but print
#: apart).
_CM: dict[float, str] = {}


def _cm(metres: float) -> str:
    text = _CM.get(metres)
    if text is None:
        text = f"{metres:.2f}"
        if metres > 0:
            if len(_CM) >= 1 << 16:
                _CM.clear()
            _CM[metres] = text
    return text


def _one(name: str, link: Link, now: float, severity: str) -> str:
    """The finding of a pair's one stale cable of its kind, naming the cable."""
    if severity == ERROR:
        return (f"{name}: route now {_cm(now)} m, longer than its {link.stock_m:g} m stock cable "
                f"(stored {_cm(link.length_m)} m); {_FIX}")
    return f"{name}: stored length {_cm(link.length_m)} m no longer matches its route ({_cm(now)} m); {_FIX}"


def _many(pair_name: str, cables: list[Stale], severity: str) -> str:
    """The finding of a pair's stale cables of one kind, with the span of their lengths."""
    stored = _span(list(map(_LENGTH, map(_CABLE, cables))))
    routes = _span(list(map(_NOW, cables)))
    if severity == ERROR:
        stock = _span(list(map(_STOCK, map(_CABLE, cables))), lambda metres: f"{metres:g}")
        return (f"{pair_name}: {len(cables)} cables' routes now {routes} m, longer than their {stock} m stock "
                f"cables (stored {stored} m); {_FIX}")
    return f"{pair_name}: {len(cables)} cables' stored lengths {stored} m no longer match their routes ({routes} m); {_FIX}"


def _span(metres: list[float], text: Callable[[float], str] = _cm) -> str:
    """"3.00" or "3.00–3.40": the least and the greatest."""
    low, high = text(min(metres)), text(max(metres))
    return low if low == high else f"{low}–{high}"


def _pair_name(ctx: Context, pair: str) -> str:
    """"R05 ↔ R17" as the racks are named, "R05 (within the rack)" for a rack to itself."""
    racks = ctx.doc.racks
    rack_a, rack_b = pair_racks(pair)
    name_a, name_b = (racks[i].name if i in racks else i for i in (rack_a, rack_b))
    return f"{name_a} (within the rack)" if rack_a == rack_b else f"{name_a} ↔ {name_b}"


def _labeller(ctx: Context) -> Callable[[Link], str]:
    """A cable's derived label (``derived_label``) from its ends' parts, each device's made once
    per pass: ``end_text`` of a device and no port is its end's text up to the port."""
    doc = ctx.doc
    ends: dict[str, str] = ctx.memo(_ENDS, dict)

    def end(device_id: str) -> str:
        text = ends.get(device_id)
        if text is None:
            text = ends[device_id] = end_text(doc, device_id, "")
        return text

    def label(link: Link) -> str:
        return f"{end(link.a_device)}{link.a_port}{SEPARATOR}{end(link.b_device)}{link.b_port}"

    return label
