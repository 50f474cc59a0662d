"""The devices and one network's cables of a validation pass as columns (lists of their fields,
numpy arrays of row numbers and codes), for the hall-scope rules that read every power cord or
coolant hose (P10–P13 in ``power_cords`` with ``cord_columns``, C10–C11 in ``hoses``) and for
their records' signatures.

Why columns: at 4,096 nodes those rules read 49k cords, 8k hoses and 19k devices. Reading each
field once into a list, and each end's device as a row number, lets a rule test every cord at
once (numpy) and run its per-object code only for the few devices, PDUs or manifolds the test
leaves; the signature that decides whether records are still good is the same lists as tuples.
Each is made once per pass (``Context.memo``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import repeat

import numpy as np

from planner.model.codes import Codes
from planner.rules.context import Context


@dataclass
class DeviceColumns:
    """Every device of the plan in ``doc.devices`` order (its row): its fields (lists no one
    changes: signatures hold them), and (made when first asked: a signature reads the fields
    alone) the rows by id and the rows as codes.

    Row ``len(ids)`` is one more, for an end whose device is not in the plan: ``row`` maps such an
    id there, its type code is ``len(type_keys)`` (a type row every per-type array adds at its
    end) and its rack code -1."""

    ids: list[str]
    types: list[str]
    racks: list[str]
    names: list[str]

    @property
    def missing(self) -> int:
        """The row of an end whose device is not in the plan."""
        return len(self.ids)

    @cached_property
    def row(self) -> dict[str, int]:
        return dict(zip(self.ids, range(len(self.ids))))

    @cached_property
    def type_keys(self) -> list[str]:
        """The device types present, in order of first use (``type_of`` indexes them)."""
        return list(dict.fromkeys(self.types))

    @cached_property
    def type_of(self) -> np.ndarray:
        """Each row's type as an index into ``type_keys``."""
        return _codes_of(self.types, self.type_keys, len(self.type_keys))

    @cached_property
    def rack_of(self) -> np.ndarray:
        """Each row's rack as a code (the same code for the same rack id)."""
        return _codes_of(self.racks, list(dict.fromkeys(self.racks)), -1)

    def rows(self, ids: list[str]) -> np.ndarray:
        """The rows of the devices ``ids`` names, ``missing`` for one not in the plan."""
        try:
            return np.fromiter(map(self.row.__getitem__, ids), np.intp, len(ids))
        except KeyError:  # a cable's end on a device not in the plan
            return np.fromiter(map(self.row.get, ids, repeat(len(self.ids))), np.intp, len(ids))


def _codes_of(values: list[str], distinct: list[str], last: int) -> np.ndarray:
    """Each value's index in ``distinct``, and ``last`` after them (the missing row's)."""
    code = {value: i for i, value in enumerate(distinct)}
    found = np.empty(len(values) + 1, np.intp)
    found[:-1] = np.fromiter(map(code.__getitem__, values), np.intp, len(values))
    found[-1] = last
    return found


def device_columns(ctx: Context) -> DeviceColumns:
    def build() -> DeviceColumns:
        devices = list(ctx.doc.devices.values())
        return DeviceColumns([d.id for d in devices], [d.type for d in devices], [d.rack for d in devices],
                             [d.name for d in devices])
    return ctx.memo("columns: devices", build)


@dataclass
class CableColumns:
    """One network's cables in ``links_in`` order: ids, both ends' devices and ports (lists no one
    changes: signatures hold them), and (made when first asked: a signature does not) the rows of
    both ends' devices (``DeviceColumns.row``)."""

    ids: list[str]
    a_device: list[str]
    a_port: list[str]
    b_device: list[str]
    b_port: list[str]
    devices: DeviceColumns

    @cached_property
    def a_row(self) -> np.ndarray:
        return self.devices.rows(self.a_device)

    @cached_property
    def b_row(self) -> np.ndarray:
        return self.devices.rows(self.b_device)

    def ends(self) -> tuple[list[str], ...]:
        """The ids and ends: what a signature holds of the cables (the lists themselves, which no
        one changes: a copy would cost as much again)."""
        return self.ids, self.a_device, self.a_port, self.b_device, self.b_port


def cable_columns(ctx: Context, network: str) -> CableColumns:
    def build() -> CableColumns:
        links = list(ctx.doc.links_in(network).values())
        return CableColumns([c.id for c in links], [c.a_device for c in links], [c.a_port for c in links],
                            [c.b_device for c in links], [c.b_port for c in links], device_columns(ctx))
    return ctx.memo(f"columns: {network} cables", build)


def codes(values: list[str]) -> tuple[np.ndarray, list[str]]:
    """Each value's code (its index among the distinct values, in order of first use) and the
    distinct values."""
    numbered: Codes[str] = Codes()
    return np.fromiter(map(numbered.__getitem__, values), np.intp, len(values)), list(numbered)
