"""The fabric's protocol (issue 18): the design basis names the protocol its switches speak (N11).

The design basis's ``fabric_kind`` decides the media reaches (DESIGN §5 Cables: single-mode DR4
reaches 100 m on InfiniBand, 500 m on Ethernet), the NetBox interface types and what discovery
expects; each switch type states the protocol it speaks (``CatalogItem.protocol``). A fabric
switch whose protocol is not the basis's means cables chosen by the wrong reaches (FR4 optics
bought where DR4 reaches, or DR4 planned beyond its InfiniBand reach) and exports typed for the
wrong fabric: an error naming both, with the switch types and how many of each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from planner.model.catalog import ETHERNET, INFINIBAND, SWITCH
from planner.model.networks import in_compute_fabric
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, Finding
from planner.rules.scopes import HALL, HALL_SUBJECT

#: Shown in a finding: at most this many switch types of the other protocol.
SHOWN = 4


@rule("N11", scope=HALL, reads={"dev.type", "dev.role"}, basis=("fabric_kind",), source_field="fabric_kind",
      title="Fabric switches speak the design basis's protocol")
def protocol_matches(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    basis_kind = doc.basis.fabric_kind
    wanted = INFINIBAND if basis_kind == INFINIBAND else ETHERNET  # as the router reads the basis
    others: Counter[str] = Counter()
    devices: list[str] = []
    for device in doc.devices.values():
        item = doc.catalog[device.type]
        # a switch that states no protocol (made in code, not loaded) takes the plan's
        # the compute fabric's switches only: management switches are Ethernet in any plan
        if in_compute_fabric(device.role) and item.kind == SWITCH and item.protocol and item.protocol != wanted:
            others[device.type] += 1
            devices.append(device.id)
    if not others:
        return
    protocols = sorted({doc.catalog[key].protocol for key in others})
    listed = ", ".join(f"{n} × {key} ({doc.catalog[key].protocol})" for key, n in others.most_common(SHOWN))
    more = f" and {len(others) - SHOWN} more types" if len(others) > SHOWN else ""
    yield r.finding(ctx, ERROR, (HALL_SUBJECT, *devices),
                    f"the fabric's switches speak {' and '.join(protocols)} ({listed}{more}) but the design "
                    f"basis says fabric_kind {basis_kind}: media reaches and NetBox types follow the basis; "
                    f"set it to {protocols[0]} or use {basis_kind} switches")
