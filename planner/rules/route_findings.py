"""N8's findings: a cable whose stored length no longer matches its route, an error where the
route has outgrown the stock cable bought, a warning otherwise.

A network rack's move makes 700–2,100 cables stale at 32k GPUs. Their routed lengths come from
``route_lengths`` (the candidates of a full run, ``stale_in_plan``, and of an edit, ``stale_among``)
and each cable's severity and message are made there and then, in one loop, kept for the pass
(``ctx.memo``): the check only looks its cable up, and routes it on its own only when it is asked
about a cable the pass's candidates did not name. A message names the cable by its label
(``cable_label``), each end's "<rack>-U<nn>-<device>-" part made once per device per pass.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from planner.model.labels import SEPARATOR, cable_label, end_text
from planner.model.objects import Link
from planner.rules.context import Context
from planner.rules.finding import ERROR, WARNING
from planner.rules.route_lengths import ROUTED_TIERS, TOLERANCE_M, stale_among, stale_in_plan

#: ``ctx.memo`` keys: the severity and message of each cable this pass's candidates found stale,
#: and each device's part of a cable label
_FOUND = "N8 found"
_ENDS = "N8 label ends"
_FIX = "Plan ▸ Recompute cable lengths"


def stale_candidates(ctx: Context) -> list[str]:
    """N8's ``candidates``: the stale cables of the plan, their findings kept for the pass."""
    return _keep(ctx, *stale_in_plan(ctx))


def stale_narrowed(ctx: Context, among: Collection[str]) -> list[str]:
    """N8's ``narrowed``: the stale cables among an edit's, their findings kept for the pass."""
    return _keep(ctx, *stale_among(ctx, among))


def stale_finding(ctx: Context, link_id: str) -> tuple[str, str] | None:
    """The severity and message of N8's finding on a cable, None where its length is current."""
    kept = ctx.memo(_FOUND, dict).get(link_id)
    if kept is not None:
        return kept
    doc = ctx.doc
    link = doc.links[link_id]
    if link.tier not in ROUTED_TIERS or link.length_m <= 0 or link.a_device not in doc.devices \
            or link.b_device not in doc.devices:
        return None
    now = ctx.router().length(link.a_device, link.b_device)
    if abs(now - link.length_m) <= TOLERANCE_M:
        return None
    return _finding(cable_label(doc, link), link, now)


def _keep(ctx: Context, links: list[Link], routed: list[float]) -> list[str]:
    """Make the finding of each stale cable (but those of no stored length, which N8 leaves) and
    keep it for the pass; the cables' ids."""
    label = _labeller(ctx)
    found = {link.id: _finding(link.label or label(link), link, now)
             for link, now in zip(links, routed) if link.length_m > 0}
    ctx.memo(_FOUND, dict).update(found)
    return list(found)


#: Lengths as N8 prints them (2 decimals), kept: the same few thousand lengths recur in every
#: message (a float's formatting is a third of a message's making); emptied past 2**16 lengths.
#: Only lengths above 0 (0.0 and -0.0 are one key but print apart).
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


def _finding(name: str, link: Link, now: float) -> tuple[str, str]:
    if link.stock_m and now > link.stock_m + 1e-9:
        return ERROR, (f"{name}: route now {_cm(now)} m, longer than its {link.stock_m:g} m stock cable "
                       f"(stored {_cm(link.length_m)} m); {_FIX}")
    return WARNING, f"{name}: stored length {_cm(link.length_m)} m no longer matches its route ({_cm(now)} m); {_FIX}"


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
