"""What the Cables dock shows of a cable as text, from the document as it stands (Qt-free: the
index, ``planner.ui.cables.index``, derives cells and search texts from these)."""

from __future__ import annotations

from planner.model.document import Document
from planner.model.objects import Link


def link_number(link_id: str) -> int:
    tail = link_id.rsplit("-", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def state_text(link: Link) -> str:
    """A cable's installation state as shown: "verified", or "faulty: bent latch" with its note."""
    return f"{link.state}: {link.state_note}" if link.state_note else link.state


def end_text(doc: Document, device_id: str, port: str) -> str:
    """A cable end as shown: rack, U, device and port ("R100 U12 N3 P1")."""
    device = doc.devices.get(device_id)
    if device is None:
        return f"{device_id} {port}"
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack else '?'} U{device.u} {device.name} {port}"
