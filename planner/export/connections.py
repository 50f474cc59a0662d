"""A connection of any network in the words paper prints (issue 21 part 5): which network it is,
the fitting at each end, and the one line an installer reads for a cord or a hose.

Paper goes by ``network_of(link)`` (the cable's tier), never by port names. A power cord's
outlet type is the connector of its PDU end (``CatalogItem.ports``: an outlet's type, C13 or
C19), so its cord is that outlet and the PSU inlet it mates (``PSU_INLETS``): "C19–C20". A
hose's size is the quick-disconnect size of either end (the device's ``qd_size``, else the
manifold's).
"""

from __future__ import annotations

from planner.model.document import Document
from planner.model.networks import NETWORK_WORDS
from planner.model.ports import (
    COMPUTE,
    COOLANT,
    INBAND,
    NETWORKS,
    OOB,
    OUTLET_TYPES,
    POWER,
    STORAGE_NET,
)

#: The order paper prints the networks in: compute first, then storage, in-band, out-of-band,
#: power cords, coolant hoses.
NETWORK_ORDER = NETWORKS
#: A section's title per network.
SECTION_TITLES = {
    COMPUTE: "Compute fabric", STORAGE_NET: "Storage fabric", INBAND: "In-band management network",
    OOB: "Out-of-band management network", POWER: "Power cords", COOLANT: "Coolant hoses",
}
#: What one connection of the network is called ("cable", "cord", "hose").
THING = {COMPUTE: "cable", STORAGE_NET: "cable", INBAND: "cable", OOB: "cable", POWER: "cord", COOLANT: "hose"}
#: The networks whose connections are not data cables: printed as one "port → far end" line.
FITTED = (POWER, COOLANT)
_INLET_OF = {"C13": "C14", "C19": "C20"}


def network_rank(network: str) -> int:
    """Position of a network in ``NETWORK_ORDER`` (an unknown one last)."""
    return NETWORK_ORDER.index(network) if network in NETWORK_ORDER else len(NETWORK_ORDER)


def network_words(network: str) -> str:
    return NETWORK_WORDS.get(network, network)


class Fittings:
    """The connector of each port by device type (an outlet's type, a QD's size), cached: a
    hall's export asks it for every cord and hose."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._by_type: dict[str, dict[str, str]] = {}

    def connector(self, device_id: str, port: str) -> str:
        device = self.doc.devices.get(device_id)
        if device is None:
            return ""
        table = self._by_type.get(device.type)
        if table is None:
            item = self.doc.catalog.items.get(device.type)
            table = self._by_type[device.type] = {p.name: p.connector for p in item.ports()} if item else {}
        return table.get(port, "")

    def fitting(self, network: str, a_device: str, a_port: str, b_device: str, b_port: str) -> str:
        """A cord's outlet type ("C19"), a hose's size ("1/2 in"), "" for a data cable."""
        if network == POWER:
            ends = (self.connector(b_device, b_port), self.connector(a_device, a_port))
            return next((c for c in ends if c in OUTLET_TYPES), "")
        if network == COOLANT:
            return self.connector(a_device, a_port) or self.connector(b_device, b_port)
        return ""


def cord_type(outlet: str) -> str:
    """The cord an outlet takes: "C19–C20" (outlet–inlet), "" for an outlet not known."""
    return f"{outlet}–{_INLET_OF[outlet]}" if outlet in _INLET_OF else ""


def kind_text(network: str, media: str, fitting: str) -> str:
    """What the connection is in a table's media column: the media, a cord type, a hose size."""
    if network == POWER:
        return cord_type(fitting) or "cord"
    if network == COOLANT:
        return f"hose {fitting}" if fitting else "hose"
    return media


def connection_line(port: str, far_device: str, far_port: str, network: str, fitting: str) -> str:
    """One end's connection as a line: "PSU1 → PDU-A1 O37 (C19)", "SUP1 → MAN1 SUP3"."""
    line = f"{port} → {far_device} {far_port}"
    return f"{line} ({fitting})" if network == POWER and fitting else line
