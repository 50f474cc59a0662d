"""The pod grouping of the router (``planner.fabric.routing``): which rows form one block of a
hall laid out in several rooms, where each block's end trunks run, and where the main trunk
joining them runs. Kept apart from the routing so each stays one reader's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

#: A row of racks for the pod grouping: (runs along x, row name or the line it stands on).
RowKey = tuple[bool, object]


class RowSpan(NamedTuple):
    """A row's extent: rack centres along it (lo, hi), across it (lo, hi), footprint along it
    (west, east), and the median of its racks across it (where the row is, whichever rack is
    nudged)."""

    lo: float
    hi: float
    across_lo: float
    across_hi: float
    west: float
    east: float
    median: float


@dataclass
class _Group:
    """Rows being gathered into one pod: their extent so far and their keys."""

    lo: float
    hi: float
    across_lo: float
    across_hi: float
    east: float
    keys: list[RowKey]


@dataclass(frozen=True)
class Pod:
    """A block of rows: its extent along the rows (rack centres at its ends, where its end
    trunks run) and across them."""

    lo: float
    hi: float
    across_lo: float
    across_hi: float


@dataclass(frozen=True)
class PodLayout:
    """The pods of one row direction, which pod each row is in, and where the main trunk runs
    across the rows (over the middle row)."""

    pods: tuple[Pod, ...]
    pod_of: dict[RowKey, int]
    main: float


ONE_POD = PodLayout((), {}, 0.0)


def pod_layout(spans: list[tuple[RowKey, RowSpan]], gap_m: float) -> PodLayout:
    """The pods of the rows running one way (``Router._span`` of each): rows whose footprints
    along the rows come within ``gap_m`` of each other are one pod, in order along the rows; a
    pod's ends are its outer rack centres."""
    merged: list[_Group] = []
    for key, span in sorted(spans, key=lambda kv: kv[1].west):
        if merged and span.west < merged[-1].east + gap_m - 1e-9:
            group = merged[-1]
            group.lo, group.hi = min(group.lo, span.lo), max(group.hi, span.hi)
            group.across_lo, group.across_hi = min(group.across_lo, span.across_lo), max(group.across_hi, span.across_hi)
            group.east = max(group.east, span.east)
            group.keys.append(key)
        else:
            merged.append(_Group(span.lo, span.hi, span.across_lo, span.across_hi, span.east, [key]))
    if len(merged) < 2:
        return ONE_POD
    pods = tuple(Pod(group.lo, group.hi, group.across_lo, group.across_hi) for group in merged)
    pod_of = {key: index for index, group in enumerate(merged) for key in group.keys}
    # over the middle row (between the two middle rows of an even count), each row where most of
    # its racks stand, not the middle of the rows' extent: moving one rack, of an outer row or of
    # the middle one, must not move the trunk every cable between pods runs along (at 131k GPUs
    # that re-routed them all: 1.7 s for one nudge)
    centres = sorted(span.median for _key, span in spans)
    half = len(centres) // 2
    main = round(centres[half] if len(centres) % 2 else (centres[half - 1] + centres[half]) / 2, 6)
    return PodLayout(pods, pod_of, main)
