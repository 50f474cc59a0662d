"""Cable labels (DESIGN §3): a typed label that no longer names its cable's ends (N10).

A derived label follows its ends by construction (``planner.model.labels``); a typed one stays
as typed, so when an end moves (a rewire by hand, a cable list, a merge) the sticker would name
the old port: a warning with both texts, the typed label and what the ends now give.
"""

from __future__ import annotations

from collections.abc import Iterator

from planner.model.labels import derived_label, names_its_ends
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import WARNING, Finding
from planner.rules.scopes import LINK

_READS = {"link.label", "link.a_device", "link.a_port", "link.b_device", "link.b_port",
          "dev.name", "dev.u", "dev.rack", "dev.hostname", "rack.name"}


def _typed(ctx: Context) -> list[str]:
    """Cables N10 may report: those with a typed label."""
    return [link_id for link_id, link in ctx.doc.links.items() if link.label]


@rule("N10", scope=LINK, reads=_READS, title="Typed label names its cable's ends", candidates=_typed,
      source="DESIGN §3: a label is derived from its two ends unless typed; a typed one must still name them")
def typed_label_current(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    link = doc.links[link_id]
    if not link.label or link.a_device not in doc.devices or link.b_device not in doc.devices:
        return
    if not names_its_ends(doc, link):
        yield r.finding(ctx, WARNING, (link_id,), f"typed label {link.label!r} no longer names the cable's ends "
                        f"{derived_label(doc, link)}; retype it, or clear it to use the derived label")
