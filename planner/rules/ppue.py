"""Design partial PUE at the rack (DESIGN §5 wave 3; The Green Grid PUE, EN 50600-4-2 pPUE).

pPUE = (P_IT + P_pump + P_air + P_loss) / P_IT at steady load, over the boundary ``BOUNDARY``:

- P_IT: the rack's devices at steady draw (``power_w``), less any in-rack CDU (its pumps are
  counted as P_pump instead, so no pump is counted twice).
- P_pump = Q · Δp / η: Q the rack's coolant flow (m³/s, from its liquid heat, the plan's fluid and
  ΔT), Δp the loop's pressure drop, η the pumps' wire-to-water efficiency. A CDU's pump power is
  Q_cdu · Δp / η, so each rack's share by flow is exactly its own Q · Δp / η.
- P_air = residual air heat (steady power × (1 − liquid fraction)) / COP of the hall's air cooling.
- P_loss = P_IT · (1 / (η_busbar · η_rack-PDU) − 1): what the busbar and rack PDUs lose on the way.

Every input is a design-basis entry with its source; a row's and the hall's figure is the sum of
their racks' numerators over the sum of their IT power (not a mean of ratios).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from planner.model.basis import DesignBasis
from planner.model.catalog import RACK_CDU
from planner.model.document import Document, natural_key
from planner.model.objects import Rack
from planner.rules.context import Context
from planner.rules.figures import flow_lpm

#: The boundary printed beside every pPUE figure.
BOUNDARY = ("Boundary: rack IT at steady load; CDU pumps (Q·Δp/η); air cooling of the residual heat "
            "(heat / COP); busbar and rack-PDU losses. Outside it: facility water heat rejection "
            "(chillers, dry coolers), UPS, transformers, lighting.")
#: Litres per minute in one m³/s.
LPM_PER_M3S = 60_000.0


def pump_power_w(flow_l_per_min: float, basis: DesignBasis) -> float:
    """P = Q · Δp / η with Q in m³/s and Δp in Pa."""
    return flow_l_per_min / LPM_PER_M3S * basis.loop_pressure_drop_kpa * 1000.0 / basis.pump_efficiency


def loss_factor(basis: DesignBasis) -> float:
    """Distribution loss per watt of IT: 1 / (η_busbar · η_rack-PDU) − 1."""
    return 1.0 / (basis.busbar_efficiency * basis.rack_pdu_efficiency) - 1.0


@dataclass(frozen=True)
class Ppue:
    """The terms of one pPUE (a rack, a row or the hall), watts at steady load."""

    it_w: float
    pump_w: float
    air_w: float
    loss_w: float

    @property
    def total_w(self) -> float:
        return self.it_w + self.pump_w + self.air_w + self.loss_w

    @property
    def ppue(self) -> float | None:
        """None when the boundary holds no IT power (the ratio is undefined)."""
        return self.total_w / self.it_w if self.it_w > 0 else None

    def __add__(self, other: Ppue) -> Ppue:
        return Ppue(self.it_w + other.it_w, self.pump_w + other.pump_w, self.air_w + other.air_w,
                    self.loss_w + other.loss_w)

    def text(self) -> str:
        """The sum as a message prints it: (IT + pump + air + loss) / IT = pPUE."""
        value = self.ppue
        ratio = "—" if value is None else f"{value:.3f}"
        return (f"({_kw(self.it_w)} IT + {_kw(self.pump_w)} pumps + {_kw(self.air_w)} air cooling + "
                f"{_kw(self.loss_w)} losses) / {_kw(self.it_w)} = {ratio}")


ZERO = Ppue(0.0, 0.0, 0.0, 0.0)


def _kw(watts: float) -> str:
    return f"{watts / 1000.0:,.2f} kW"


def rack_ppue(ctx: Context, rack_id: str) -> Ppue:
    """One rack's pPUE terms (see the module docstring)."""
    doc, basis = ctx.doc, ctx.doc.basis
    figs = ctx.rack(rack_id)
    it, liquid = figs.power_steady_w, figs.liquid_steady_w
    catalog = doc.catalog
    if any(catalog[d.type].kind == RACK_CDU for d in doc.devices_in(rack_id, ordered=False)):
        for device in doc.devices_in(rack_id):  # in rack order, so the same sums
            item = catalog[device.type]
            if item.kind == RACK_CDU:
                it -= item.power_w
                liquid -= item.power_w * item.liquid_fraction
    return Ppue(it_w=it, pump_w=pump_power_w(flow_lpm(liquid, basis), basis),
                air_w=(it - liquid) / basis.air_cooling_cop, loss_w=it * loss_factor(basis))


def total(ctx: Context, rack_ids: Iterable[str]) -> Ppue:
    """The summed terms of several racks (a row, a CDU's loop, the hall)."""
    result = ZERO
    for rack_id in rack_ids:
        result = result + rack_ppue(ctx, rack_id)
    return result


def by_row(ctx: Context) -> dict[str, Ppue]:
    """Each row's summed terms, rows in natural order ("" for racks on no row)."""
    rows: dict[str, list[str]] = {}
    for rack in ctx.doc.racks.values():
        rows.setdefault(rack.row, []).append(rack.id)
    return {row: total(ctx, rows[row]) for row in sorted(rows, key=natural_key)}


def hall_ppue(doc: Document, ctx: Context | None = None) -> Ppue:
    ctx = ctx or Context(doc)
    return total(ctx, doc.racks)


def ppue_rows(doc: Document, obj_id: str) -> list[tuple[str, str]]:
    """The Properties dock's row for a rack: its design pPUE against the target (the sum is in
    ``planner report`` and the commissioning document; the dock keeps to one line a figure)."""
    if obj_id not in doc.racks:
        return []
    figure = rack_ppue(Context(doc), obj_id)
    value = "no IT load" if figure.ppue is None else f"{figure.ppue:.3f}"
    return [("Design pPUE", f"{value} (target {doc.basis.ppue_target:g})")]


def ppue_boxes(ctx: Context) -> Iterator[tuple[Rack, float, str]]:
    """Each rack's pPUE for the plan's overlay: (rack, overhead (pPUE − 1) as a share of what the
    target allows (target − 1), text); a rack with no IT load is left out."""
    target = ctx.doc.basis.ppue_target
    for rack in ctx.doc.racks.values():
        value = rack_ppue(ctx, rack.id).ppue
        if value is not None:
            yield rack, (value - 1) / (target - 1) if target > 1 else float(value > 1), f"pPUE {value:.3f}"
