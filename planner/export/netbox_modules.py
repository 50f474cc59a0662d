"""Transceivers as NetBox modules: a module bay for each cage a transceiver plugs into, a module
type for each kind of transceiver, and a module in each bay that holds an optic, for the import
set and the push alike.

NetBox (``dcim/models/modules.py``) installs a Module of a ModuleType into a device's ModuleBay;
the bays come from the device type's module-bay templates when the device is made. A bay here
is a cage: ``1`` … ``32`` for a switch's twin-port OSFP cages (one plug for ports ``n/1`` and
``n/2``), the port's own name (``P1``, ``S1``, ``E1``) for a single-port cage. RJ45 jacks and ports
whose connector the catalogue does not give have no bay. The modules are the plan's optical plugs
(``planner.model.cages.plugs``: one per twin-port cage, one per single-port end; copper DACs and
ACCs are cables, not modules), so NetBox's module count equals the BOM's transceivers. A module
type has no interface templates: the interfaces are the device type's, as the cables name them.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.io.netbox_names import DEFAULT_MANUFACTURER, DESCRIPTION_MAX
from planner.model.cages import (
    SOURCE,
    TWIN_PORT,
    Plug,
    TransceiverKind,
    cage_of,
    plugs,
    transceiver_name,
)
from planner.model.catalog import CatalogItem
from planner.model.document import Document
from planner.model.networks import DATA_NETWORKS

#: Connectors that take no pluggable module (an RJ45 jack) or are not given.
_NO_BAY = ("", "RJ45")
MODULE_STATUS = "planned"


def module_bays(item: CatalogItem) -> list[dict]:
    """The device type's module-bay templates (devicetype-library ``module-bays``), cage by cage."""
    bays: dict[str, dict] = {}
    for port in item.ports():
        if port.network not in DATA_NETWORKS or port.connector in _NO_BAY:
            continue
        cage = cage_of(item, port.name)
        name = str(cage) if cage else port.name
        if name in bays:
            bays[name]["description"] += f", {port.name}"
            continue
        what = f"{port.connector} twin-port cage" if cage else f"{port.connector} cage"
        bays[name] = {"name": name, "position": name, "description": f"{what}: {port.name}"}
    return list(bays.values())


def bay_of(item: CatalogItem, plug: Plug) -> str:
    """The module bay a plug goes into (``module_bays``' name); "" when its port has none."""
    if plug.connector in _NO_BAY:
        return ""
    return str(plug.cage) if plug.cage else plug.ports[0]


def module_type(kind: TransceiverKind) -> dict:
    """The module type of one kind of transceiver (the BOM's line, as its model)."""
    media, form, connector, speed = kind
    rate = f", {speed:g} Gb/s" if speed else ""
    cage = connector or "pluggable"
    what = (f"one plug for both ports of a twin-port {cage} cage{rate} each" if form == TWIN_PORT
            else f"for one {cage} port{rate}")
    return {"manufacturer": DEFAULT_MANUFACTURER, "model": transceiver_name(kind),
            "description": f"{media.upper()} optic, {what}"[:DESCRIPTION_MAX],
            "comments": f"Hall Planner: one module per optical plug. {SOURCE}."}


@dataclass(frozen=True)
class PlannedModule:
    """A transceiver in a bay of a device: its type's model (``module_type``)."""

    device: str
    bay: str
    kind: TransceiverKind

    @property
    def model(self) -> str:
        return transceiver_name(self.kind)


def planned_modules(doc: Document) -> tuple[list[PlannedModule], list[str]]:
    """The modules of the plan's optical plugs, and the problems NetBox would refuse: a cage whose
    cables are on two media (N16) would take two modules in one bay. A plug on a port with no bay
    (a connector the catalogue does not give) is left out."""
    media = doc.catalog.media
    found: dict[tuple[str, str], PlannedModule] = {}
    problems: list[str] = []
    for plug in plugs(doc):
        if not (plug.media in media and media[plug.media].transceivers_per_link):
            continue
        device = doc.devices[plug.device]
        bay = bay_of(doc.catalog[device.type], plug)
        if not bay:
            continue
        module = PlannedModule(plug.device, bay, (plug.media, plug.form, plug.connector, plug.speed_gbps))
        if (plug.device, bay) in found:
            problems.append(f"{doc.hostname(device)} cage {bay}: its cables are on two media, two transceivers "
                            "for one cage (N16)")
            continue
        found[(plug.device, bay)] = module
    return list(found.values()), problems
