"""The transceivers of a push (``planner.netbox.push``): a module of the plug's module type in the
module bay of its cage (``planner.export.netbox_modules``), after the devices, whose bays NetBox
made from their types' module-bay templates.

A bay holds one module, so the site's modules are matched by bay. A module in a bay the plan
wants is kept, its type set to the plan's where it differs; its status and serial are the DCIM
team's (a push creates modules as planned and never resets them). A module of a planner type
(the module type's comments begin "Hall Planner:") in a bay of the plan's devices where the plan
has no optic is deleted; anything else the site holds is left as it is. A device whose type came
into NetBox without bays (an earlier planner's push: shared types are never changed) gets no
modules, and the summary says how many could not be placed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.netbox.compare import differing
from planner.netbox.wanted import DEVICES, MODULE_BAYS, MODULE_TYPES, MODULES

if TYPE_CHECKING:
    from planner.netbox.push import Sync

#: How the planner's module types say whose they are (``netbox_modules.module_type``).
PLANNER_COMMENTS = "Hall Planner:"


def push_modules(sync: Sync, site_id: int) -> None:
    """Make the modules in the site's bays the plan's transceivers (module docstring)."""
    report, client = sync.report, sync.client
    wanted = sync.hall.objects.get(MODULES, [])
    if site_id <= 0:  # a dry run for a new site: every module is new
        report.created[MODULES] += len(wanted)
        return
    devices = sync.ids.get(DEVICES, {})
    bays = {((b.get("device") or {}).get("id", 0), b["name"]): b["id"]
            for b in client.get_all(MODULE_BAYS, fields=("id", "name", "device"), site_id=site_id)}
    there = {(m.get("module_bay") or {}).get("id", 0): m
             for m in client.get_all(MODULES, fields=("id", "device", "module_bay", "module_type"), site_id=site_id)}
    creates, updates, unplaced, wanted_bays = [], [], 0, set()
    for item in wanted:
        device = devices.get(item.fields["device"].key, 0)
        fields = sync.resolve(item.fields)
        if device < 0:  # a device a dry run would create: its bays come with it
            report.created[MODULES] += 1
            continue
        bay = bays.get((device, item.key[1]))
        if bay is None:
            unplaced += 1
            continue
        wanted_bays.add(bay)
        found = there.get(bay)
        if found is None:
            creates.append({**fields, "module_bay": bay})
        elif change := differing({"module_type": fields["module_type"]}, found):
            updates.append({"id": found["id"], **change})
        else:
            report.unchanged[MODULES] += 1
    ours = {t["id"] for t in client.get_all(MODULE_TYPES, fields=("id", "comments"))
            if str(t.get("comments") or "").startswith(PLANNER_COMMENTS)}
    plan_devices = {number for number in devices.values() if number > 0}
    gone = [m["id"] for bay, m in there.items() if bay not in wanted_bays and _id(m, "module_type") in ours
            and _id(m, "device") in plan_devices]
    report.created[MODULES] += len(creates)
    report.updated[MODULES] += len(updates)
    report.deleted[MODULES] += len(gone)
    if unplaced:
        report.notes.append(f"{unplaced:,} transceiver module(s) not placed: their devices' types in NetBox "
                            "have no module bays for the cages (types an earlier push made; delete the "
                            "types' devices or add the bays to place them)")
    if report.dry_run:
        return
    if gone:
        client.delete(MODULES, gone)
    if updates:
        client.update(MODULES, updates)
    if creates:
        client.create(MODULES, creates)


def _id(obj: dict[str, Any], name: str) -> int:
    return int((obj.get(name) or {}).get("id", 0))
