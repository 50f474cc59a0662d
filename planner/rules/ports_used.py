"""Ports used twice or not on their device (N2), over the cables of every network: a port of
any network (a rail, a storage or management port, a PSU, an outlet, a quick-disconnect) takes
one cable. Apart from ``network`` so that module stays small; ``FabricIndex`` answers the same
after an edit of cables only.
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter

import numpy as np

from planner.model.document import natural_key
from planner.rules.context import Context
from planner.rules.end_codes import end_codes

_A_PORT, _B_PORT = map(attrgetter, ("a_port", "b_port"))


def _ports_sound(ctx: Context) -> bool:
    """Whether every cable end is a port of its device and no port has two cables (a sound plan),
    decided on integer codes (device × port) with numpy rather than on 786k (device, port) tuples
    at 131k GPUs. False means only: look closer (an end on a device not in the plan counts too)."""
    codes = end_codes(ctx)
    doc = ctx.doc
    valid = codes.table({key: dict.fromkeys(doc.catalog[key].all_port_names(), 1.0) for key in codes.types}) > 0
    valid[-1, :] = True  # an end on a device not in the plan: never a problem (see _port_problems)
    a_valid, b_valid = codes.at_ends(valid)
    if not (a_valid.all() and b_valid.all()):
        return False
    width = len(codes.port_code) + 1
    every = np.sort(np.concatenate([device * width + port for device, port in zip(codes.device, codes.port)]))
    return not (every[1:] == every[:-1]).any()


def port_problems(ctx: Context) -> list[tuple[str, str, tuple[str, ...]]]:
    """(device, port, links) of every port used by more than one cable or not on its device."""
    if (index := ctx.fabric_index()) is not None:
        return index.port_problems()
    if _ports_sound(ctx):
        return []
    doc = ctx.doc
    codes = end_codes(ctx)
    links, a_devices, b_devices = codes.links, codes.a_devices, codes.b_devices
    a_ends = list(zip(a_devices, map(_A_PORT, links)))
    b_ends = list(zip(b_devices, map(_B_PORT, links)))
    used = set(a_ends)
    used.update(b_ends)
    shared: set[tuple[str, str]] = set()
    if len(used) < len(a_ends) + len(b_ends):  # some port is used twice: name its cables
        counts = Counter(a_ends)
        counts.update(b_ends)
        shared = {end for end, n in counts.items() if n > 1}
    devices = doc.devices
    type_of = {d: devices[d].type for d in {*a_devices, *b_devices} if d in devices}
    names = {key: set(doc.catalog[key].all_port_names()) for key in set(type_of.values())}
    # (device type, port) of every end: a few hundred, so only a type's unknown ports cost a look per end
    typed = set(zip(map(type_of.get, a_devices), map(_A_PORT, links)))
    typed.update(zip(map(type_of.get, b_devices), map(_B_PORT, links)))
    if any(key is not None and port not in names[key] for key, port in typed):
        checked = used
    else:
        checked = shared
    problems: dict[tuple[str, str], list[str]] = {
        end: [] for end in checked
        if (key := type_of.get(end[0])) is not None and (end in shared or end[1] not in names[key])}
    if problems:
        for link in links:
            for end in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
                if end in problems:
                    problems[end].append(link.id)
    return sorted(((d, p, tuple(ids)) for (d, p), ids in problems.items()), key=lambda p: (natural_key(p[0]), p[1]))
