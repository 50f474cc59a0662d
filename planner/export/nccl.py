"""Expected NCCL all-reduce bus bandwidth for the commissioning test plan, from the fabric.

nccl-tests reports for all-reduce a *bus bandwidth* busBw = algBw × 2(n−1)/n (algBw = size /
time, n ranks; nccl-tests doc/PERFORMANCE.md). That factor makes it independent of n and
comparable with the bandwidth B each rank has to the rest of the ranks: a ring or tree moves
2(n−1)/n × S over n links of B at best. So the expected figure is that B, times an efficiency:

- **one rail** (one rank per node, on GPU r, using only its rail NIC): B = link rate;
- **all rails** (every GPU of the nodes): B = rails × link rate, the node's NICs being the
  bottleneck (NVLink inside an NVLink-class node is faster than its NICs together, so each of
  the parallel rings NCCL builds leaves the node on its own NIC);
- **across scalable units**: traffic leaves a leaf on its uplinks, which carry 1/r of the
  leaf's downlink bandwidth at oversubscription r:1; so × min(1, 1/r) (1 when non-blocking).

The link rate is the planned port speed of the node-leaf links (the slower end of each). The
efficiency η is the plan's ``DesignBasis.nccl_efficiency`` (0.80 by default): the share of the
line rate busBw reaches on a healthy RDMA fabric at large messages (≥ 1 GiB). A planning
assumption, not a measured figure: published nccl-tests runs on 400G InfiniBand/RoCE land between
about 80 and 95 %; below the floor a cable, NIC–GPU affinity or GPUDirect RDMA fault is likely.
It lives in the design basis so a site with its own acceptance figure prints that one.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.model.document import Document
from planner.model.objects import TIER_NODE_LEAF
from planner.model.ports import COMPUTE


@dataclass(frozen=True)
class ExpectedBusBw:
    """The figures behind the "expected" column, and the sentence that states them."""

    link_gbps: float
    rails: int
    oversubscription: float
    efficiency: float

    @property
    def per_rail_gbs(self) -> float:
        return self.link_gbps / 8 * self.efficiency

    @property
    def all_rails_gbs(self) -> float:
        return self.rails * self.per_rail_gbs

    @property
    def cross_su_factor(self) -> float:
        return min(1.0, 1.0 / self.oversubscription) if self.oversubscription > 0 else 1.0

    def formula(self) -> str:
        """The rule and its numbers, printed above the table."""
        return (
            "Expected bus bandwidth: nccl-tests reports all-reduce busBw = algBw × 2(n−1)/n (nccl-tests "
            "doc/PERFORMANCE.md), comparable with the bandwidth B each rank has to the others. Pass at "
            f"busBw ≥ B × η, η = {self.efficiency:.2f} (design basis, NCCL efficiency): one rail (one rank "
            "per node, on GPU r and its rail NIC only) B = link rate; all rails (every GPU) B = rails × link rate, the node's NICs being "
            "its bottleneck; across scalable units × min(1, 1/r), the share of a leaf's bandwidth its "
            f"uplinks carry at oversubscription r:1. Here link rate {self.link_gbps:g} Gb/s = "
            f"{self.link_gbps / 8:g} GB/s, {self.rails} rails, r = {self.oversubscription:g}. Run with large "
            "messages (all_reduce_perf -b 1G -e 8G) and record the largest size's busbw."
        )


def link_rate_gbps(doc: Document) -> float:
    """The planned speed of the node-leaf links: the slower port of each, the slowest link."""
    catalog = doc.catalog.items

    def speed(device_id: str) -> float:
        device = doc.devices.get(device_id)
        item = catalog.get(device.type) if device else None
        return item.port_speed_gbps if item and item.port_speed_gbps else 0.0

    speeds = [min(speed(link.a_device), speed(link.b_device)) for link in doc.links_in(COMPUTE).values()
              if link.tier == TIER_NODE_LEAF]
    speeds = [s for s in speeds if s > 0]
    if not speeds:
        speeds = [catalog[d.type].port_speed_gbps for d in doc.devices.values()
                  if d.type in catalog and catalog[d.type].gpus and catalog[d.type].port_speed_gbps]
    return min(speeds, default=0.0)


def expected(doc: Document, rails: int, oversubscription: float) -> ExpectedBusBw:
    """The plan's figures: its link rate, the given rails and ratio, its basis's efficiency floor."""
    return ExpectedBusBw(link_rate_gbps(doc), rails, oversubscription, doc.basis.nccl_efficiency)


def allreduce_rows(doc: Document, sus: list[int], rails: list[int],
                   oversubscription: float) -> tuple[list[list[str]], ExpectedBusBw]:
    """Rows (scope, rail, measured, expected, pass) of the all-reduce table and the figures used:
    per SU each rail and all rails; with more than one SU, across every SU too."""
    figures = expected(doc, len(rails), oversubscription)

    def at_least(value: float) -> str:
        return f"≥ {value:,.1f}" if figures.link_gbps else "—"

    rows = [[f"SU {su}", f"rail {rail}", "", at_least(figures.per_rail_gbs), ""] for su in sus for rail in rails]
    rows += [[f"SU {su}", "all rails", "", at_least(figures.all_rails_gbs), ""] for su in sus]
    if len(sus) > 1:
        factor = figures.cross_su_factor
        rows += [["all SUs", f"rail {rail}", "", at_least(figures.per_rail_gbs * factor), ""] for rail in rails]
        rows.append(["all SUs", "all rails", "", at_least(figures.all_rails_gbs * factor), ""])
    return rows, figures
