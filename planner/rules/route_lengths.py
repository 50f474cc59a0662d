"""Which cables' stored lengths may no longer be their routes' (N8's candidates), for the whole
plan at once and for the cables an edit re-checks.

``Router.length`` of 134k data cables one by one is most of N8 at 32k GPUs; here it is worked
as numpy columns: each cable's ends as device codes (``end_codes``, made once per pass for N2
and N3 too), each device's height and rise and each rack pair's tray run looked up once, the
pair of each cable found by ``np.unique`` over integer keys. The same IEEE operations in the same
order as ``Router.length``, so the same floats; a cable with an end not in the plan gets NaN and
is left out, as N8 leaves it. N8's check then decides each cable returned.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from itertools import repeat
from operator import attrgetter

import numpy as np

from planner.fabric.routing import Router
from planner.model.geometry import RACK_UNIT_M
from planner.model.networks import DATA_NETWORKS, TIERS_OF
from planner.model.objects import Device
from planner.rules.context import Context
from planner.rules.end_codes import end_codes

#: The tiers whose cables run in the trays: every data network's.
ROUTED_TIERS = frozenset(tier for network in DATA_NETWORKS for tier in TIERS_OF[network])
_LENGTH, _A_DEVICE, _B_DEVICE, _RACK, _U = map(attrgetter, ("length_m", "a_device", "b_device", "rack", "u"))


def stale_in_plan(ctx: Context) -> list[str]:
    """N8's candidates among every cable of the plan."""
    codes = end_codes(ctx)
    links = codes.links
    tier_of, tiers = codes.tiers
    routed = np.flatnonzero(np.array([tier in ROUTED_TIERS for tier in tiers], dtype=bool)[tier_of])
    lengths = codes.lengths[routed]
    stale = _stale(ctx.router(), list(ctx.doc.devices.values()), codes.device[0][routed], codes.device[1][routed],
                   lengths)
    return [links[i].id for i in routed[stale].tolist()]


def stale_among(ctx: Context, among: Collection[str]) -> list[str]:
    """N8's candidates among the cables ``among`` (2k of a moved network rack)."""
    doc = ctx.doc
    links = [link for link in map(doc.links.get, among) if link is not None and link.tier in ROUTED_TIERS]
    ends = set(map(_A_DEVICE, links))
    ends.update(map(_B_DEVICE, links))
    ends &= doc.devices.keys()  # C-level passes: this runs for each of a moved network rack's 4.7k cables
    devices = list(map(doc.devices.__getitem__, ends))
    code = dict(zip(ends, range(len(devices))))
    count, missing = len(links), len(devices)
    a_codes = np.fromiter(map(code.get, map(_A_DEVICE, links), repeat(missing)), np.int64, count)
    b_codes = np.fromiter(map(code.get, map(_B_DEVICE, links), repeat(missing)), np.int64, count)
    stale = _stale(ctx.router(), devices, a_codes, b_codes, np.fromiter(map(_LENGTH, links), float, count))
    return [links[i].id for i in np.flatnonzero(stale).tolist()]


def _stale(router: Router, devices: Sequence[Device], a_codes: np.ndarray, b_codes: np.ndarray,
           lengths: np.ndarray) -> np.ndarray:
    """Whether each cable's routed length (ends as codes into ``devices``; ``len(devices)`` for
    an end not in the plan) differs from ``lengths`` by more than half a centimetre."""
    if not len(lengths):
        return np.zeros(0, dtype=bool)
    places, tray, nan = router.places, router.tray, math.nan
    count = len(devices)
    # per device, as columns: ``Router.height_m`` (max(u - 1, 0) × a unit) and ``_rise`` (the
    # rack's top less the height, plus the tray), NaN where the rack is not routed
    rack_of = list(map(_RACK, devices))
    rack_ids = list(dict.fromkeys(rack_of))
    rack_code = {rack_id: n for n, rack_id in enumerate(rack_ids)}
    racks = np.full(count + 1, -1, dtype=np.int64)  # -1: an end not in the plan
    racks[:count] = np.fromiter(map(rack_code.__getitem__, rack_of), np.int64, count)
    tops = np.array([places[i].top_m if i in places else nan for i in rack_ids])
    heights = np.full(count + 1, nan)
    heights[:count] = np.maximum(np.fromiter(map(_U, devices), float, count) - 1, 0) * RACK_UNIT_M
    rises = np.full(count + 1, nan)
    rises[:count] = tops[racks[:count]] - heights[:count] + tray
    a_racks, b_racks = racks[a_codes], racks[b_codes]
    same = a_racks == b_racks
    # each rack pair's tray run once: the pairs as integer keys, unique'd
    keys = (a_racks + 1) * (len(rack_ids) + 1) + (b_racks + 1)
    unique, inverse = np.unique(keys, return_inverse=True)
    width = len(rack_ids) + 1
    runs = np.full(len(unique), nan)
    for n, key in enumerate(unique.tolist()):
        a, b = divmod(key, width)
        rack_a = rack_ids[a - 1] if a else None
        rack_b = rack_ids[b - 1] if b else None
        if rack_a is not None and rack_b is not None and rack_a in places and rack_b in places:
            runs[n] = router.tray_path(rack_a, rack_b)[0]
    apart = rises[a_codes] + rises[b_codes] + runs[inverse.reshape(-1)]
    together = np.abs(heights[a_codes] - heights[b_codes])
    run = np.where(same, together, apart)
    now = np.ceil((run + np.maximum(run * router.slack_fraction, router.slack_min)) * 100 - 1e-6) / 100
    return np.abs(now - lengths) > 0.005
