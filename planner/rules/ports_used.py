"""Ports used twice or not on their device (N2), over the cables of every network: a port of
any network (a rail, a storage or management port, a PSU, an outlet, a quick-disconnect) takes
one cable. Apart from ``network`` so that module stays small; ``FabricIndex`` answers the same
after an edit of cables only.
"""

from __future__ import annotations

from collections import Counter
from itertools import repeat
from operator import attrgetter

import numpy as np

from planner.model.document import natural_key
from planner.model.objects import Link
from planner.rules.context import Context

_A_DEVICE, _A_PORT, _B_DEVICE, _B_PORT = map(attrgetter, ("a_device", "a_port", "b_device", "b_port"))


def _ports_sound(ctx: Context, links: list[Link], a_devices: list[str], b_devices: list[str]) -> bool:
    """Whether every cable end is a port of its device and no port has two cables (a sound plan),
    decided on integer codes (device × port) with numpy rather than on 786k (device, port) tuples
    at 131k GPUs. False means only: look closer (an end on a device not in the plan counts too)."""
    doc, devices, count = ctx.doc, ctx.doc.devices, len(links)
    cabled = list(devices)  # every device has a code (cheaper than the set of 393k cable ends)
    device_code = {d: i for i, d in enumerate(cabled)}
    types = list({device.type for device in devices.values()})
    names = [doc.catalog[key].all_port_names() for key in types]
    port_code: dict[str, int] = {}
    for ports in names:
        for port in ports:
            port_code.setdefault(port, len(port_code))
    missing, unknown = len(cabled), len(port_code)
    valid = np.zeros((len(types) + 1, unknown + 1), dtype=bool)
    valid[-1, :] = True  # an end on a device not in the plan: never a problem (see _port_problems)
    for row, ports in enumerate(names):
        valid[row, [port_code[p] for p in ports]] = True
    type_code = {key: i for i, key in enumerate(types)}
    type_of = np.array([type_code[device.type] for device in devices.values()] + [len(types)], dtype=np.int64)
    keys = []
    for ends, port_of in ((a_devices, _A_PORT), (b_devices, _B_PORT)):
        device_codes = np.fromiter(map(device_code.get, ends, repeat(missing)), np.int64, count)
        port_codes = np.fromiter(map(port_code.get, map(port_of, links), repeat(unknown)), np.int64, count)
        if not valid[type_of[device_codes], port_codes].all():
            return False
        keys.append(device_codes * (unknown + 1) + port_codes)
    every = np.sort(np.concatenate(keys))
    return not (every[1:] == every[:-1]).any()


def port_problems(ctx: Context) -> list[tuple[str, str, tuple[str, ...]]]:
    """(device, port, links) of every port used by more than one cable or not on its device."""
    if (index := ctx.fabric_index()) is not None:
        return index.port_problems()
    doc = ctx.doc
    links = list(doc.links.values())
    a_devices, b_devices = list(map(_A_DEVICE, links)), list(map(_B_DEVICE, links))
    if _ports_sound(ctx, links, a_devices, b_devices):
        return []
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
