"""Hostnames (DESIGN §3): unique in the hall (H1) and usable as host names outside it (H2).

Discovery files, NetBox, Slurm and DNS know a device only by its hostname (``Document.hostname``:
the one set, or ``<rack name>-<device name>``). Two devices answering to one name make every
cable of both unverifiable and put two machines on one Slurm node line, so a hostname shared by
devices with network ports (nodes, switches, storage) is an error; one shared only by devices
without (rack PDUs, in-rack CDUs: NetBox and DNS names, no fabric) is a warning. Names are
compared without case, as DNS compares them (RFC 4343).

A hostname that is not an RFC 1123 host name (labels of letters, digits and hyphens, 1–63
characters each, not starting or ending with a hyphen, 253 characters in all; RFC 1123 §2.1
relaxing RFC 952 to allow a leading digit) is a warning: a rack called "Row A 01" gives
``Row A 01-N1``, which no resolver, ``slurm.conf`` NodeName or DNS-derived NetBox name takes.
The plan still works; the world around it cannot name the device.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from weakref import WeakKeyDictionary

from planner.model.document import Document, natural_key, prefix_of
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, WARNING, Finding
from planner.rules.scopes import DEVICE, HALL

_READS = {"dev.hostname", "dev.name", "dev.rack", "dev.type", "rack.name"}
#: RFC 1123 §2.1 / RFC 952: a label, and the whole name's length limit.
_LABEL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?")
MAX_HOSTNAME = 253
MAX_LABEL = 63
#: Host names, one a line, every one of them valid (``hostname_problem`` finds nothing): a hall's
#: 18k names checked by one match, not a call each.
_HOST = rf"(?=[^\n]{{1,{MAX_HOSTNAME}}}(?:\n|\Z)){_LABEL.pattern}(?:\.{_LABEL.pattern})*"
_ALL_VALID = re.compile(rf"{_HOST}(?:\n{_HOST})*")
#: Findings of H1 that list a group's devices name at most this many.
SHOWN = 6


class _Names:
    """Each device's hostname (lower case) and the devices answering to each, kept between passes
    and brought up to date for the devices an edit touched (a rack renamed: its devices), so a
    rename does not name every device of the hall again (27 ms a pass at 32k GPUs)."""

    def __init__(self, doc: Document) -> None:
        hostname = doc.hostname
        self.name_of = {device_id: hostname(device).lower() for device_id, device in doc.devices.items()}
        self.holders: dict[str, set[str]] = {}
        for device_id, name in self.name_of.items():
            self.holders.setdefault(name, set()).add(device_id)
        self.shared = {name for name, ids in self.holders.items() if len(ids) > 1}

    def update(self, doc: Document, touched: set[str]) -> None:
        affected = {i for i in touched if prefix_of(i) == "dev"}
        for obj_id in touched:
            if prefix_of(obj_id) == "rack":
                affected.update(device.id for device in doc.devices_in(obj_id, ordered=False))
        for device_id in affected:
            old = self.name_of.pop(device_id, None)
            if old is not None:
                self._leave(old, device_id)
            device = doc.devices.get(device_id)
            if device is not None:
                name = self.name_of[device_id] = doc.hostname(device).lower()
                ids = self.holders.setdefault(name, set())
                ids.add(device_id)
                if len(ids) > 1:
                    self.shared.add(name)

    def _leave(self, name: str, device_id: str) -> None:
        ids = self.holders[name]
        ids.discard(device_id)
        if len(ids) < 2:
            self.shared.discard(name)
        if not ids:
            del self.holders[name]


_NAMES: WeakKeyDictionary[Context, _Names] = WeakKeyDictionary()


def _names(ctx: Context) -> _Names:
    """The hostnames, from scratch in a full run, else updated for the edit's objects."""
    names = _NAMES.get(ctx)
    if names is None or ctx.changed_ids is None:
        names = _NAMES[ctx] = _Names(ctx.doc)
    else:
        names.update(ctx.doc, ctx.changed_ids)
    return names


@rule("H1", scope=HALL, reads=_READS, title="Hostnames unique in the hall",
      source="DESIGN §3: one hostname per device, unique per hall (DNS names compare without case, RFC 4343)")
def unique_hostnames(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    names = _names(ctx)
    for shared in sorted(names.shared, key=lambda name: min(natural_key(i) for i in names.holders[name])):
        ids = sorted(names.holders[shared], key=lambda i: (doc.devices[i].rack, doc.devices[i].u, i))
        name = doc.hostname(doc.devices[ids[0]])
        where = ", ".join(_place(ctx, i) for i in ids[:SHOWN]) + (f" and {len(ids) - SHOWN} more" if len(ids) > SHOWN
                                                                   else "")
        severity = ERROR if any(doc.catalog[doc.devices[i].type].port_count for i in ids) else WARNING
        yield r.finding(ctx, severity, ids, f"hostname {name} is shared by {len(ids)} devices: {where}; "
                        f"give each its own")


def _place(ctx: Context, device_id: str) -> str:
    device = ctx.doc.devices[device_id]
    rack = ctx.doc.racks.get(device.rack)
    return f"{rack.name if rack else device.rack}/{device.name}"


def hostname_problem(name: str) -> str:
    """Why ``name`` is not an RFC 1123 host name ("" when it is one)."""
    if len(name) > MAX_HOSTNAME:
        return f"{len(name)} characters, at most {MAX_HOSTNAME}"
    for label in name.split("."):
        if not label:
            return "an empty label (two dots, or a dot at an end)"
        if len(label) > MAX_LABEL:
            return f"a label of {len(label)} characters, at most {MAX_LABEL}"
        if not _LABEL.fullmatch(label):
            bad = next((c for c in label if not (c.isascii() and (c.isalnum() or c == "-"))), None)
            if bad is not None:
                return f"{'a space' if bad == ' ' else repr(bad)}: only letters, digits and hyphens"
            return "a label starting or ending with a hyphen"
    return ""


def _invalid_hostnames(ctx: Context) -> list[str]:
    """Devices H2 may report: none when one match finds every host name valid."""
    doc = ctx.doc
    devices = list(doc.devices.values())
    names = list(map(doc.hostname, devices))
    joined = "\n".join(names)
    if joined.count("\n") == len(names) - 1 and (not names or _ALL_VALID.fullmatch(joined)):
        return []
    return [device.id for device, name in zip(devices, names) if hostname_problem(name)]


@rule("H2", scope=DEVICE, reads=_READS, title="Hostname a valid host name", candidates=_invalid_hostnames,
      source="RFC 1123 §2.1 host names (letters, digits, hyphens; labels 1–63, 253 in all)")
def valid_hostname(ctx: Context, device_id: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    device = doc.devices[device_id]
    name = doc.hostname(device)
    problem = hostname_problem(name)
    if problem:
        own = "its hostname" if device.hostname else "its default hostname (<rack>-<device>)"
        yield r.finding(ctx, WARNING, (device_id,), f"{_place(ctx, device_id)}: {own} {name[:80]!r} is not a host "
                        f"name DNS, Slurm or NetBox take: {problem}")
