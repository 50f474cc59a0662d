"""``lldpcli -f json show neighbors`` (lldpd), one file per host or switch.

The neighbours command prints no local system name, so **a file is named after the host it was
taken on**: ``<hostname>.json`` (``for h in …; do ssh $h lldpcli -f json show neighbors > $h.json``).

lldpd's JSON writer (``src/client/json_writer.c``) turns a one-member list into the member and a
``name`` key into the object's key, so the shape depends on the count:

    {"lldp": {"interface": {"Ethernet0": {"via": "LLDP", "rid": "1", "age": "…",
        "chassis": {"R01-N1": {"id": {"type": "mac", "value": "…"}, "descr": "…", …}},
        "port": {"id": {"type": "mac", "value": "…"}, "descr": "P1", "ttl": "120"}}}}}

for one interface, and ``"interface": [{"Ethernet0": {…}}, {"Ethernet4": {…}}]`` for several.
``-f json0`` keeps every list (``{"lldp": [{"interface": [{"name": "Ethernet0", "chassis":
[{"name": [{"value": "R01-N1"}], …}], "port": [{"id": [{"type": …, "value": …}], "descr":
[{"value": …}]}]}]}]}``); both are read. The neighbour's port is its port id when that is an
interface name (id type ``ifname``, ``local`` or ``ifalias``) and its port description otherwise
(lldpd on Linux sends the MAC as port id and the interface name as description).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from planner.io.discovery.records import LLDP, DiscoveryError, RawLink, read_text

#: Port id subtypes (IEEE 802.1AB table 8-3, as lldpd names them) that carry an interface name.
NAME_ID_TYPES = ("ifname", "local", "ifalias")


#: lldpcli's deepest output (``-f json0``: lldp, interface, chassis, id, value, each in a list)
#: nests about 10 levels; anything past this is not its output.
MAX_DEPTH = 64


def _depth(data: Any) -> int:
    """How deep lists and objects nest in parsed JSON (iterative: no recursion to run out of);
    stops counting past MAX_DEPTH."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return depth
        deepest = max(deepest, depth)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


class _Malformed(Exception):
    """JSON that parsed but is not shaped like lldpcli's output (the message says where)."""


def lldp_files(path: str | os.PathLike[str]) -> list[Path]:
    """A file, or every ``*.json`` in a folder (sorted); DiscoveryError for an empty folder."""
    target = Path(path)
    if target.is_dir():
        files = sorted(p for p in target.iterdir() if p.suffix.lower() == ".json" and p.is_file())
        if not files:
            raise DiscoveryError(os.fspath(path), 0, "no .json files in this folder")
        return files
    return [target]


def read_lldp(path: str | os.PathLike[str]) -> list[RawLink]:
    """Every neighbour of every file ``path`` names (a file or a folder of them)."""
    links: list[RawLink] = []
    for file in lldp_files(path):
        name, text = read_text(file, kind="LLDP")
        links.extend(parse_lldp(text, host_of(file), name))
    return links


def host_of(file: Path) -> str:
    """The hostname a file was taken on: its name without ``.json``."""
    return file.name[:-5] if file.name.lower().endswith(".json") else file.name


def _line_of(text: str, needle: str) -> int:
    """The line a key first appears on, for errors in a file that parsed as JSON."""
    at = text.find(json.dumps(needle))
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def _value(node: Any) -> str:
    """A json0 leaf ``[{"value": x}]`` or a json leaf ``x`` as text ("" when absent)."""
    while isinstance(node, list) and node:
        node = node[0]
    if isinstance(node, dict):
        node = node.get("value", "")
    return node if isinstance(node, str) else ""


def _interfaces(lldp: Any) -> list[tuple[str, dict]]:
    """(local interface, neighbour object) pairs from either shape; _Malformed when not lldpcli's."""
    if isinstance(lldp, list):  # json0
        result = []
        for block in lldp:
            for entry in _as_list(block.get("interface", []) if isinstance(block, dict) else None):
                if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                    raise _Malformed("an interface without a name")
                result.append((entry["name"], entry))
        return result
    if not isinstance(lldp, dict):
        raise _Malformed('"lldp" is neither an object nor a list')
    entries = lldp.get("interface", [])
    result = []
    for entry in entries if isinstance(entries, list) else [entries]:
        if not isinstance(entry, dict):
            raise _Malformed('"interface" holds something other than objects')
        for local, neighbour in entry.items():
            if not isinstance(neighbour, dict):
                raise _Malformed(f"interface {local!r} is not an object")
            result.append((local, neighbour))
    return result


def _as_list(node: Any) -> list:
    if node is None:
        raise _Malformed("an lldp block is not an object")
    return node if isinstance(node, list) else [node]


def _chassis_name(chassis: Any) -> str:
    """The neighbour's system name: the chassis key (json) or its ``name`` (json0)."""
    if isinstance(chassis, list):
        chassis = chassis[0] if chassis else {}
    if not isinstance(chassis, dict):
        return ""
    if "name" in chassis:
        return _value(chassis["name"])
    if "id" in chassis:  # no system name sent: the chassis object itself
        return ""
    return next(iter(chassis), "") if len(chassis) == 1 else ""


def _port_name(port: Any) -> str:
    if isinstance(port, list):
        port = port[0] if port else {}
    if not isinstance(port, dict):
        return ""
    ident = port.get("id")
    while isinstance(ident, list) and ident:
        ident = ident[0]
    if isinstance(ident, dict) and ident.get("type") in NAME_ID_TYPES and _value(ident):
        return _value(ident)
    return _value(port.get("descr", ""))


def parse_lldp(text: str, host: str, name: str = "<lldp>") -> list[RawLink]:
    """The neighbours in one file taken on ``host``; a neighbour without a system name or port
    name is kept under a placeholder that says so, so that it is listed, not dropped."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DiscoveryError(name, exc.lineno, f"not JSON: {exc.msg}") from None
    except RecursionError:  # the C parser recurses once per bracket: 50,000 "[" end here
        raise DiscoveryError(name, 1, f"not lldpcli JSON: nested deeper than {MAX_DEPTH} levels") from None
    if _depth(data) > MAX_DEPTH:
        raise DiscoveryError(name, 1, f"not lldpcli JSON: nested deeper than {MAX_DEPTH} levels "
                             "(lldpcli's json0 output nests about 10)") from None
    if not isinstance(data, dict) or "lldp" not in data:
        raise DiscoveryError(name, 1, 'not lldpcli JSON: no "lldp" object at the top')
    try:
        interfaces = _interfaces(data["lldp"])
    except _Malformed as exc:
        raise DiscoveryError(name, _line_of(text, "interface"), f"not lldpcli JSON: {exc}") from None
    links = []
    for local, neighbour in interfaces:
        line = _line_of(text, local)
        peer = _chassis_name(neighbour.get("chassis")) or f"(no system name, on {host} {local})"
        peer_port = _port_name(neighbour.get("port")) or "?"
        links.append(RawLink(host, local, peer, peer_port, LLDP, f"{name}:{line}"))
    return links
