"""Every cable end as integer codes (device, port, the device's type), made once per validation
pass: N2 asks whether every end is a port of its device and no port takes two cables, N3 whether
the two ends' port speeds differ. At 32k GPUs that is 192k cables, so the questions are asked of
numpy columns (a table of types × ports indexed by the ends' codes), not by a dict lookup per end
per rule; each column is made once, for both, and the tiers, media and lengths once, when N7
or N8 first asks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from operator import attrgetter

import numpy as np

from planner.model.codes import Codes
from planner.model.objects import Link
from planner.rules.context import Context

_A_DEVICE, _A_PORT, _B_DEVICE, _B_PORT, _LENGTH, _TIER, _MEDIA = map(
    attrgetter, ("a_device", "a_port", "b_device", "b_port", "length_m", "tier", "media"))


def _coded(links: list[Link], field: Callable[[Link], str]) -> tuple[np.ndarray, list[str]]:
    codes: Codes[str] = Codes()
    column = np.fromiter(map(codes.__getitem__, map(field, links)), np.int64, len(links))
    return column, list(codes)


@dataclass(frozen=True)
class EndCodes:
    """The cables in plan order, their ends' device ids, and codes: ``device`` per end (the
    number of devices for an end not in the plan), ``port`` per end (the number of port names for
    a name no type in the plan has), ``type_of`` per device code (``len(types)`` for an end not
    in the plan, so a table's last row answers for those)."""

    links: list[Link]
    a_devices: list[str]
    b_devices: list[str]
    types: list[str]
    port_code: dict[str, int]
    type_of: np.ndarray
    device: tuple[np.ndarray, np.ndarray]
    port: tuple[np.ndarray, np.ndarray]

    def table(self, value_of: dict[str, dict[str, float]], missing: float = 0.0) -> np.ndarray:
        """A types × ports table (and a last row and column for what is not in the plan, at
        ``missing``) of ``value_of[type][port]``, ``missing`` where a type has no such port."""
        table = np.full((len(self.types) + 1, len(self.port_code) + 1), missing, dtype=float)
        for row, key in enumerate(self.types):
            values = value_of.get(key, {})
            if values:
                table[row, [self.port_code[p] for p in values]] = list(values.values())
        return table

    @cached_property
    def lengths(self) -> np.ndarray:
        """Each cable's stored length (m)."""
        return np.fromiter(map(_LENGTH, self.links), float, len(self.links))

    @cached_property
    def tiers(self) -> tuple[np.ndarray, list[str]]:
        """Each cable's tier as a code, and the tiers by code."""
        return _coded(self.links, _TIER)

    @cached_property
    def media(self) -> tuple[np.ndarray, list[str]]:
        """Each cable's media key as a code, and the keys by code."""
        return _coded(self.links, _MEDIA)

    def at_ends(self, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``table``'s value at each cable's A end and B end."""
        a_end = table[self.type_of[self.device[0]], self.port[0]]
        b_end = table[self.type_of[self.device[1]], self.port[1]]
        return a_end, b_end


def end_codes(ctx: Context) -> EndCodes:
    """The plan's cable ends as codes, made once per pass."""
    def make() -> EndCodes:
        doc = ctx.doc
        devices = doc.devices
        links = list(doc.links.values())
        count = len(links)
        device_code = {d: i for i, d in enumerate(devices)}  # every device (cheaper than the set of ends)
        types = list({device.type for device in devices.values()})
        port_code: dict[str, int] = {}
        for key in types:
            for port in doc.catalog[key].all_port_names():
                port_code.setdefault(port, len(port_code))
        type_code = {key: i for i, key in enumerate(types)}
        type_of = np.array([type_code[device.type] for device in devices.values()] + [len(types)], dtype=np.int64)
        a_devices, b_devices = list(map(_A_DEVICE, links)), list(map(_B_DEVICE, links))
        missing, unknown = len(devices), len(port_code)
        codes = [np.fromiter(map(device_code.get, ends, repeat(missing)), np.int64, count)
                 for ends in (a_devices, b_devices)]
        ports = [np.fromiter(map(port_code.get, map(port_of, links), repeat(unknown)), np.int64, count)
                 for port_of in (_A_PORT, _B_PORT)]
        return EndCodes(links, a_devices, b_devices, types, port_code, type_of, (codes[0], codes[1]),
                        (ports[0], ports[1]))
    return ctx.memo("cable end codes", make)
