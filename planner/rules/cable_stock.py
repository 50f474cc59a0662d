"""A cable bought shorter than its own routed length (N12).

N8 compares a cable's stored length with its route now; a cable whose stored length is its
route but whose stock length (the cable taken from the store) is shorter — a 2.53 m run bought
as a 0.5 m DAC, typed in a cable list or picked by hand — passes N8 and cannot be installed.
"""

from __future__ import annotations

from collections.abc import Iterator

from planner.model.labels import cable_label
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, Finding
from planner.rules.scopes import LINK

#: Lengths are kept to the centimetre (``planner.fabric.routing``): a stock length within half a
#: centimetre of the route is the route.
_TOLERANCE_M = 0.005


def _short(ctx: Context) -> list[str]:
    """Cables N12 may report: a stock length given and shorter than the stored length."""
    return [link.id for link in ctx.doc.links.values()
            if link.stock_m and link.stock_m < link.length_m - _TOLERANCE_M]


@rule("N12", scope=LINK, reads={"link.length_m", "link.stock_m", "link.a_device", "link.a_port", "link.b_device",
                                "link.b_port", "link.label", "dev.name", "dev.u", "dev.rack", "dev.hostname",
                                "rack.name"},
      title="Stock cable at least its routed length", candidates=_short,
      source="DESIGN §5 Cables: routed length rounded up to the next stock length")
def stock_covers_route(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    link = ctx.doc.links[link_id]
    if link.stock_m and link.stock_m < link.length_m - _TOLERANCE_M:
        yield r.finding(ctx, ERROR, (link_id,), f"{cable_label(ctx.doc, link)}: routed {link.length_m:.2f} m, "
                                                f"but its stock cable is {link.stock_m:g} m")
