"""Which cables' stored lengths may no longer be their routes' (N8's candidates), for the whole
plan at once and for the cables an edit re-checks, with the routed length of each.

``Router.length`` of 134k data cables one by one is most of N8 at 32k GPUs; here it is worked
as numpy columns: each cable's ends as device codes (``end_codes``, made once per pass for N2
and N3 too), each device's height and rise and each rack pair's tray run looked up once, the
pair of each cable found by ``np.unique`` over integer keys. The same IEEE operations in the same
order as ``Router.length``, so the same floats (N8 reports them without routing the cable
again); a cable with an end not in the plan gets NaN and is left out, as N8 leaves it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from itertools import chain, compress
from operator import attrgetter

import numpy as np

from planner.fabric.bundles import pair_subject
from planner.fabric.routing import Router
from planner.model.geometry import RACK_UNIT_M
from planner.model.networks import DATA_NETWORKS, TIERS_OF
from planner.model.objects import Device, Link
from planner.rules.context import Context
from planner.rules.end_codes import end_codes

#: The tiers whose cables run in the trays: every data network's.
ROUTED_TIERS = frozenset(tier for network in DATA_NETWORKS for tier in TIERS_OF[network])
_LENGTH, _A_DEVICE, _B_DEVICE, _RACK, _U, _TIER = map(
    attrgetter, ("length_m", "a_device", "b_device", "rack", "u", "tier"))
#: Cables whose stored length is more than this off their routed length are stale.
TOLERANCE_M = 0.005
#: Stale cables, the routed length of each (m) and the ``pair_subject`` of each one's racks.
Stale = tuple[list[Link], list[float], list[str]]


def stale_in_plan(ctx: Context) -> Stale:
    """N8's candidates among every cable of the plan, with their routed lengths and rack pairs."""
    codes = end_codes(ctx)
    links = codes.links
    tier_of, tiers = codes.tiers
    routed = np.flatnonzero(np.array([tier in ROUTED_TIERS for tier in tiers], dtype=bool)[tier_of])
    lengths = codes.lengths[routed]
    now, pair_of, pairs = _routed(ctx.router(), list(ctx.doc.devices.values()), codes.device[0][routed],
                                  codes.device[1][routed])
    stale = np.flatnonzero(np.abs(now - lengths) > TOLERANCE_M)
    return [links[i] for i in routed[stale].tolist()], now[stale].tolist(), _pairs_of(pairs, pair_of[stale])


def stale_among(ctx: Context, among: Collection[str]) -> Stale:
    """N8's candidates among the cables ``among`` (2k of a moved network rack), with their
    routed lengths and rack pairs."""
    doc = ctx.doc
    # C-level passes (no Python loop per cable: this runs for each of a moved network rack's 3.8k
    # cables, cold in memory): the cables of a routed tier, each end's device as a code in order
    # of first sight; ends not in the plan are given the last code after
    present = list(filter(None, map(doc.links.get, among)))
    links = list(compress(present, map(ROUTED_TIERS.__contains__, map(_TIER, present))))
    if not links:
        return [], [], []
    a_ends, b_ends = list(map(_A_DEVICE, links)), list(map(_B_DEVICE, links))
    code = {device: n for n, device in enumerate(dict.fromkeys(chain(a_ends, b_ends)))}
    a_codes = np.fromiter(map(code.__getitem__, a_ends), np.int64, len(links))
    b_codes = np.fromiter(map(code.__getitem__, b_ends), np.int64, len(links))
    found = list(map(doc.devices.get, code))
    devices = [device for device in found if device is not None]
    if len(devices) < len(found):
        known = np.array([device is not None for device in found], dtype=bool)
        recode = np.cumsum(known) - 1
        recode[~known] = len(devices)
        a_codes, b_codes = recode[a_codes], recode[b_codes]
    now, pair_of, pairs = _routed(ctx.router(), devices, a_codes, b_codes)
    lengths = np.fromiter(map(_LENGTH, links), float, len(links))
    stale = np.flatnonzero(np.abs(now - lengths) > TOLERANCE_M)
    return [links[i] for i in stale.tolist()], now[stale].tolist(), _pairs_of(pairs, pair_of[stale])


def _pairs_of(pairs: list[str], codes: np.ndarray) -> list[str]:
    """The ``pair_subject`` of each stale cable from its pair's code: a lookup, where naming the
    pair of each of a moved rack's 2k cables took a tenth of its validation."""
    return list(map(pairs.__getitem__, codes.tolist()))


def _routed(router: Router, devices: Sequence[Device], a_codes: np.ndarray,
            b_codes: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Each cable's routed length, ``Router.length`` (ends as codes into ``devices``;
    ``len(devices)`` for an end not in the plan, NaN for its cable and for a cable with an end
    in a rack the router does not place), and its racks' pair: a code into the ``pair_subject``s
    that follow ("" where an end is not in the plan), each made once, not once per cable."""
    if not len(a_codes):
        return np.zeros(0), np.zeros(0, dtype=np.int64), []
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
    pair_a, pair_b = np.divmod(unique, len(rack_ids) + 1)
    placed = [rack_id if rack_id in places else None for rack_id in rack_ids] + [None]  # [-1]: not in the plan
    tray_path = router.tray_path
    runs = np.array([tray_path(rack_a, rack_b)[0]
                     if (rack_a := placed[a - 1]) is not None and (rack_b := placed[b - 1]) is not None else nan
                     for a, b in zip(pair_a.tolist(), pair_b.tolist())], dtype=float)
    apart = rises[a_codes] + rises[b_codes] + runs[inverse.reshape(-1)]
    together = np.abs(heights[a_codes] - heights[b_codes])
    run = np.where(same, together, apart)
    subjects = [pair_subject(rack_ids[a - 1], rack_ids[b - 1]) if a and b else ""
                for a, b in zip(pair_a.tolist(), pair_b.tolist())]
    return (np.ceil((run + np.maximum(run * router.slack_fraction, router.slack_min)) * 100 - 1e-6) / 100,
            inverse.reshape(-1), subjects)
