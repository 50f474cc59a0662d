"""Place rack-mounted devices the way the fabric generator places its switches, as commands.

``place_switches`` says where (network racks of a row with room and power, new racks when they
are full, the PDUs a fuller rack needs); ``place_devices`` turns that into the commands that
make it so, for the storage nodes a template gives a hall and the storage and management
switches the other networks need.
"""

from __future__ import annotations

from typing import Any

from planner.commands.base import AddObjects, Command, SetFields
from planner.fabric.placement import place_switches
from planner.model.document import Document
from planner.model.objects import Device


def place_devices(doc: Document, type_key: str, fields: list[dict[str, Any]], homes: list[str],
                  mode: str = "middle", rack_power_w: float | None = None,
                  text: str = "Place devices") -> tuple[list[Command], list[Device]]:
    """Commands that place one device of ``type_key`` per entry of ``fields`` (its name, role …),
    device *i* in row ``homes[i]``, and the devices they add. Raises ``FabricError`` when no
    rack of the rows near a home has room and power for one."""
    where = place_switches(doc, type_key, homes, mode, rack_power_w)
    devices = [Device(id=doc.new_id("dev"), type=type_key, rack=rack_id, u=u, **values)
               for values, (rack_id, u) in zip(fields, where.slots)]
    commands: list[Command] = []
    moved = {oid: dict(values) for oid, values in {**where.moves, **where.shifts}.items()}
    if moved:
        commands.append(SetFields(moved, text="Move racks aside"))
    if devices or where.new_racks or where.pdus:
        commands.append(AddObjects([*where.new_racks, *devices, *where.pdus], text=text))
    return commands, devices
