"""Efficiency rule (DESIGN §5 wave 3): the design partial PUE at the rack against the basis target
(E1), with the sum that makes it and the boundary it covers. The figures are
``planner.rules.ppue``'s, the same as ``planner report`` prints per rack, row and hall.

The target is the design figure of the liquid-cooled training rack ("design PUE at the rack",
product brief), so E1 holds each rack with liquid-cooled IT to it. An air-cooled rack (the network
racks of a liquid hall) cannot reach a liquid-cooling figure by design: its pPUE and its weight in
its row's and the hall's figure are reported, not warned, so a plan built as the product intends
is not flagged for its switches. The hall's figure is a weighted mean of its racks', so every
liquid-cooled rack within the target also keeps their share of the hall within it."""

from __future__ import annotations

from collections.abc import Iterator

from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import WARNING, Finding
from planner.rules.ppue import BOUNDARY, rack_ppue
from planner.rules.scopes import RACK

_BASIS = ("loop_pressure_drop_kpa", "pump_efficiency", "air_cooling_cop", "busbar_efficiency",
          "rack_pdu_efficiency", "ppue_target", "fluid", "delta_t_k")


@rule("E1", scope=RACK, reads={"dev.type", "dev.rack", "rack.name"}, basis=_BASIS, source_field="ppue_target",
      title="Liquid-cooled rack's partial PUE within the target")
def rack_ppue_target(ctx: Context, rack_id: str, r: Rule) -> Iterator[Finding]:
    figure = rack_ppue(ctx, rack_id)
    value, target = figure.ppue, ctx.doc.basis.ppue_target
    if figure.pump_w > 0 and value is not None and value > target:  # pumps coolant: liquid-cooled IT
        yield r.finding(ctx, WARNING, (rack_id,),
                        f"{ctx.doc.racks[rack_id].name}: pPUE {figure.text()}, target {target:g}. {BOUNDARY}")
