"""Cable labels (DESIGN §3): derived from the cable's two ends unless the user typed one.

``Link.label`` holds only a typed label; "" means the label is derived, so it follows every
rename, U move and rewire of its ends without an edit of its own (as ``Device.hostname`` does).
The derived form names each end as ``<rack>-U<nn>-<device>-<port>``: ``R01-U01-N1-P1 ↔
R05-U01-L1-1/1``, the text the labels PDF, the schedule and the rack pages print.

A typed label may follow a site's own numbering ("C-00123"), which names no end; one that names
some end, or is written in the planner's own "A ↔ B" form, must name both of the cable's ends
(``names_its_ends``), or it went stale when an end moved (rule N10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.model.objects import Device, Link

if TYPE_CHECKING:
    from planner.model.document import Document

#: Between the two ends of a derived label.
SEPARATOR = " ↔ "


def end_label(rack_name: str, device: Device, port: str) -> str:
    """One end as a label names it: ``R01-U01-N1-P1``."""
    return f"{rack_name}-U{device.u:02d}-{device.name}-{port}"


def end_text(doc: Document, device_id: str, port: str) -> str:
    """One end of a cable of ``doc`` as its derived label names it (the id when the device is gone)."""
    device = doc.devices.get(device_id)
    if device is None:
        return f"{device_id}-{port}"
    rack = doc.racks.get(device.rack)
    return end_label(rack.name if rack is not None else device.rack, device, port)


def derived_label(doc: Document, link: Link) -> str:
    """The label the cable's ends give it."""
    return f"{end_text(doc, link.a_device, link.a_port)}{SEPARATOR}{end_text(doc, link.b_device, link.b_port)}"


def cable_label(doc: Document, link: Link) -> str:
    """The label printed and shown: the typed one, else the derived one."""
    return link.label or derived_label(doc, link)


def _names_end(doc: Document, text: str, device_id: str, port: str) -> bool:
    """Whether ``text`` names this end: its derived form, or the port with the device's hostname
    or with its rack and device names."""
    if end_text(doc, device_id, port) in text:
        return True
    device = doc.devices.get(device_id)
    if device is None or port not in text:
        return False
    rack = doc.racks.get(device.rack)
    return doc.hostname(device) in text or (rack is not None and rack.name in text and device.name in text)


def _mentions_an_end(doc: Document, text: str, link: Link) -> bool:
    """Whether a typed label refers to any end at all (a device of the cable by hostname)."""
    return any(doc.hostname(doc.devices[d]) in text or d in text
               for d in (link.a_device, link.b_device) if d in doc.devices)


def names_its_ends(doc: Document, link: Link) -> bool:
    """Whether a typed label still fits its cable (see the module docstring); derived labels do."""
    text = link.label
    if not text:
        return True
    if not (SEPARATOR.strip() in text or _mentions_an_end(doc, text, link)):
        return True  # a site's own numbering, not a description of the ends
    return _names_end(doc, text, link.a_device, link.a_port) and _names_end(doc, text, link.b_device, link.b_port)
