"""Cabling by hand as undoable commands: connect two ports, rewire one end of a cable, delete cables.

The window's port picker, the rack elevation and the Cables dock build their edits here, so each
gesture is one command (one undo step) that the live N-rules check like a generated cable. A new
or rewired cable comes from ``planner.fabric.hand.hand_cable``: oriented as the generator writes
them, tier and rail from its ends, routed with media and stock length, and its label derived
from the ends (``Link.label`` ""), so it follows the ends without an edit of its own.

A command refuses (``Refusal``, the reason a user reads in the status bar) a port the device's
type does not have, a port that is already cabled, or a cable from a device to itself. Pass the
router the live validation keeps (``Context.router()``) to route without building one per edit.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import groupby

from planner.commands.base import AddObjects, Command, RemoveObjects, SetFields
from planner.commands.checks import Refusal
from planner.commands.edits import subject
from planner.fabric.hand import hand_cable
from planner.fabric.routing import Router
from planner.model.catalog import CatalogItem
from planner.model.document import Document, natural_key
from planner.model.networks import DATA_NETWORKS
from planner.model.objects import Link
from planner.model.ports import Port
from planner.text import plural

__all__ = ["END_FIELDS", "PLANNED", "cabled_ports", "connect_command", "delete_cables_command", "end_words",
           "free_ports", "past_planned", "port_names", "rewire_command"]

#: The state every new or rewired cable starts in.
PLANNED = "planned"
#: What a rewire may change on a cable: its ends and everything derived from them.
END_FIELDS = ("a_device", "a_port", "b_device", "b_port", "tier", "rail", "media", "length_m", "stock_m")


def end_words(doc: Document, device_id: str, port: str) -> str:
    """One end as the undo history and the status bar name it: ``R01 N1 P1``."""
    device = doc.devices.get(device_id)
    if device is None:
        return f"{device_id} {port}"
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack is not None else device.rack} {device.name} {port}"


def port_names(doc: Document, device_id: str) -> list[str]:
    """The ports a device's type has on every network (rails, storage, management, PSUs and
    outlets, quick-disconnects), in hardware order ([] when it has none)."""
    return doc.catalog[doc.devices[device_id].type].all_port_names()


def cabled_ports(doc: Document, device_id: str) -> dict[str, str]:
    """Port → id of the cable on it, for every cabled port of a device."""
    used: dict[str, str] = {}
    for link in doc.links_of(device_id):
        if link.a_device == device_id:
            used.setdefault(link.a_port, link.id)
        if link.b_device == device_id:
            used.setdefault(link.b_port, link.id)
    return used


def free_ports(doc: Document, device_id: str) -> list[str]:
    """The ports of a device no cable uses, in hardware order."""
    used = cabled_ports(doc, device_id)
    return [port for port in port_names(doc, device_id) if port not in used]


def past_planned(doc: Document, link_ids: Iterable[str]) -> list[str]:
    """The cables among ``link_ids`` whose installation state is past planned (run, tested …)."""
    return [i for i in link_ids if i in doc.links and doc.links[i].state != PLANNED]


def _check_end(doc: Document, device_id: str, port: str, ignore: str = "") -> None:
    """Refuse an end that is not a free port of a device of the plan (``ignore``: a cable that may
    hold it, the one being rewired)."""
    device = doc.devices.get(device_id)
    if device is None:
        raise Refusal(f"no device {device_id!r} in the plan")
    names = port_names(doc, device_id)
    if port not in names:
        item = doc.catalog[device.type]
        what = f"its ports are {_ranges(item)}" if names else "it has no ports"
        raise Refusal(f"{end_words(doc, device_id, '').strip()} ({item.name}) has no port {port!r}: {what}")
    taken = cabled_ports(doc, device_id).get(port)
    if taken is not None and taken != ignore:
        other = doc.links[taken]
        far = (other.b_device, other.b_port) if (other.a_device, other.a_port) == (device_id, port) \
            else (other.a_device, other.a_port)
        raise Refusal(f"{end_words(doc, device_id, port)} is already cabled to {end_words(doc, *far)}")


def _ranges(item: CatalogItem) -> str:
    """A type's ports, each run of one network and connector first … last: ``P1 … P8, S1 … S2,
    BMC, PSU1 … PSU8`` (an OOB switch's ``1 … 48, swp49 … swp52, eth0``)."""
    def kind(port: Port) -> tuple[str, str]:
        return port.network, port.connector if port.network in DATA_NETWORKS else ""  # outlets: one run

    runs = [[port.name for port in run] for _key, run in groupby(item.ports(), key=kind)]
    return ", ".join(f"{names[0]} … {names[-1]}" if len(names) > 1 else names[0] for names in runs)


def _check_two_devices(doc: Document, a_device: str, b_device: str) -> None:
    if a_device == b_device:
        name = end_words(doc, a_device, "").strip()
        raise Refusal(f"a cable joins two devices: both ends are on {name}")


def connect_command(doc: Document, a_device: str, a_port: str, b_device: str, b_port: str,
                    router: Router | None = None) -> Command:
    """A new cable between two free ports, routed, with media, stock length and a derived label:
    "Connect R01 N1 P1 to R05 L1 1/1". Refusal for a port that is missing or already cabled."""
    _check_end(doc, a_device, a_port)
    _check_end(doc, b_device, b_port)
    _check_two_devices(doc, a_device, b_device)
    link = hand_cable(doc, a_device, a_port, b_device, b_port, router=router)
    text = f"Connect {end_words(doc, a_device, a_port)} to {end_words(doc, b_device, b_port)}"
    return AddObjects([link], text=text)


def rewire_command(doc: Document, link_id: str, end: str, device: str, port: str,
                   router: Router | None = None) -> Command:
    """Move one end (``end`` "a" or "b") of a cable to another free port: the cable keeps its id
    and typed label, is re-routed (tier, rail, media and lengths from its new ends), and goes back
    to planned if it was past planned (its note with it). "Rewire R01 N1 P1 from R05 L3 1/1 to
    R05 L2 1/1" names the end that stays, then the moved end before and after."""
    link = doc.links.get(link_id)
    if link is None:
        raise Refusal(f"no cable {link_id!r} in the plan")
    if end not in ("a", "b"):
        raise ValueError(f"end must be 'a' or 'b', not {end!r}")
    fixed = (link.b_device, link.b_port) if end == "a" else (link.a_device, link.a_port)
    moved = (link.a_device, link.a_port) if end == "a" else (link.b_device, link.b_port)
    if (device, port) == moved:
        raise Refusal(f"the cable already ends at {end_words(doc, device, port)}")
    _check_end(doc, device, port, ignore=link_id)
    _check_two_devices(doc, fixed[0], device)
    ends = (fixed[0], fixed[1], device, port) if end == "b" else (device, port, fixed[0], fixed[1])
    new = hand_cable(doc, *ends, link_id=link.id, label=link.label, router=router)
    values: dict[str, object] = {name: getattr(new, name) for name in END_FIELDS
                                 if getattr(new, name) != getattr(link, name)}
    if link.state != PLANNED:
        values["state"] = PLANNED
        if link.state_note:
            values["state_note"] = ""
    text = (f"Rewire {end_words(doc, *fixed)} from {end_words(doc, *moved)} "
            f"to {end_words(doc, device, port)}")
    return SetFields({link.id: values}, text=text)


def delete_cables_command(doc: Document, link_ids: Iterable[str]) -> Command:
    """Delete cables as one step: "Delete 3 cables", or one named by its label. Refusal for none
    or a cable not in the plan."""
    ids = sorted(dict.fromkeys(link_ids), key=natural_key)
    if not ids:
        raise Refusal("select the cables to delete first")
    missing = [i for i in ids if i not in doc.links]
    if missing:
        raise Refusal(f"no cable {missing[0]!r} in the plan")
    links: list[Link] = [doc.links[i] for i in ids]
    return RemoveObjects(ids, text=f"Delete {subject(doc, links) if len(ids) == 1 else plural(len(ids), 'cable')}")

