"""The topology file ``ibnetdiscover`` prints (infiniband-diags, linux-rdma/rdma-core).

What a real file holds (``infiniband-diags/ibnetdiscover.c``, man page "TOPOLOGY FILE FORMAT"):

    #
    # Topology file: generated on Tue Jun  5 14:15:10 2024
    #
    # Initiated from node 0c42a10300a1b2c4 port 0c42a10300a1b2c4

    vendid=0x2c9
    devid=0xd2f0
    sysimgguid=0xfc6a1c0300e4a0c0
    switchguid=0xfc6a1c0300e4a0c0(fc6a1c0300e4a0c0)
    Switch	65 "S-fc6a1c0300e4a0c0"		# "MF0;R05-L1:MQM9700/U1" enhanced port 0 lid 12 lmc 0
    [1]	"H-0c42a10300a1b2c4"[1](c42a10300a1b2c4) 		# "R01-N1 mlx5_0" lid 41 4xNDR
    [33]	"S-fc6a1c0300e4b100"[1]		# "R05-S1" lid 20 4xNDR

    vendid=0x2c9
    devid=0x1021
    sysimgguid=0xc42a10300a1b2c4
    caguid=0xc42a10300a1b2c4
    Ca	1 "H-0c42a10300a1b2c4"		# "R01-N1 mlx5_0"
    [1](c42a10300a1b2c4) 	"S-fc6a1c0300e4a0c0"[1]		# lid 41 lmc 0 "MF0;R05-L1:MQM9700/U1" lid 12 4xNDR

A node line gives the port count (for a switch it counts port 0 as well: ``Switch 65`` on a
64-port Quantum-2), the node GUID and the NodeDescription; each port line the local port, the
peer's GUID and port, the peer's NodeDescription and the link's width and speed. Ports that are
down are not printed. Every link is printed from both ends; the two are one cable here. With
``-g`` (grouping) there are also ``Chassis`` / ``Non-Chassis Nodes`` / ``Hostname:`` lines and
``[ext n]`` marks, read past.

Names: a switch's NodeDescription is its hostname as an administrator set it, or the form NVIDIA
switches report by default, ``MF0;<hostname>:<model>/U1``; an HCA's is ``<hostname> mlx5_<k>``
(the rdma-core default, set by ``rdma-ndd``). SHARP aggregation nodes (a CA inside a Quantum
switch, NodeDescription "Mellanox Technologies Aggregation Node", on the port past the front
panel) are not cables and are left out.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from planner.io.discovery.records import IB, DiscoveryError, RawLink, read_lines

#: Per-lane data rate, Gb/s, by the speed names ibnetdiscover prints (IBTA Architecture
#: Specification vol. 2, link speeds SDR … XDR; FDR10 is NVIDIA's 10 Gb/s FDR-coded lane; the
#: marketed 4x rates: 4xEDR 100, 4xHDR 200, 4xNDR 400, 4xXDR 800 Gb/s).
LANE_GBPS = {"SDR": 2.5, "DDR": 5.0, "QDR": 10.0, "FDR10": 10.0, "FDR": 14.0, "EDR": 25.0, "HDR": 50.0,
             "NDR": 100.0, "XDR": 200.0}
#: Link widths ibnetdiscover prints (``dump_linkwidth_compat``): lanes per link.
WIDTHS = {"1x": 1, "2x": 2, "4x": 4, "8x": 8, "12x": 12}
AGGREGATION_NODE = "Aggregation Node"

_NODE = re.compile(r'(Switch|Ca|Rt)\s+(\d+)\s+"([SHR?])-([0-9A-Fa-f]{1,16})"\s*#\s*"(.*)"(.*)$')
#: A port line: local port, peer kind, GUID and port, then after "#" (a CA's own LID and LMC and)
#: the peer's NodeDescription, its LID, and the link's width and speed (``-f`` adds s=/w=/v=).
_PORT = re.compile(r'\[(\d+)\](?:\[ext \d+\])?(?:\([0-9A-Fa-f]+\))?\s*"([SHR?])-([0-9A-Fa-f]{1,16})"\[(\d+)\]'
                   r'(?:\[ext \d+\])?\s*(?:\([0-9A-Fa-f]+\))?\s*#\s*(?:lid \d+ lmc \d+ )?"(.*)"\s+lid\s+\d+\s+'
                   r'(\d+x|\?\?)(\w+|\?\?\?)(?:\s.*)?$')
_SWITCH_TAIL = re.compile(r'\s*(?:enhanced|base) port 0 lid \d+ lmc \d+\s*$')
_IDS = re.compile(r'(?:vendid|devid|sysimgguid|switchguid|caguid|rtguid)=0x[0-9A-Fa-f]+(?:\([0-9A-Fa-f]+\))?'
                  r'(?:\s*#.*)?$')
_GROUPING = re.compile(r'(?:Chassis \d+.*|Non-Chassis Nodes|Hostname: .*)$')
_MF0 = re.compile(r'MF0;([^:;]+):')


def switch_hostname(description: str) -> str:
    """A switch's hostname from its NodeDescription: ``MF0;R05-L1:MQM9700/U1`` → ``R05-L1``."""
    match = _MF0.match(description)
    return match.group(1) if match else description.strip()


def ca_end(description: str) -> tuple[str, str]:
    """(hostname, HCA) from an HCA's NodeDescription ``R01-N1 mlx5_0``; HCA "" when not given."""
    host, _, hca = description.strip().rpartition(" ")
    return (host.strip(), hca) if host else (hca, "")


def rate_of(width: str, speed: str) -> float | None:
    """Gb/s of a link printed as width + speed (``4x`` ``NDR`` → 400), None for ``??``/``???``."""
    lanes, lane = WIDTHS.get(width), LANE_GBPS.get(speed)
    return lanes * lane if lanes and lane else None


def read_ibnetdiscover(path: str | os.PathLike[str]) -> list[RawLink]:
    # read line by line (a 131k-GPU fabric's file is 90 MB); NodeDescriptions are 64 raw bytes,
    # so a line that is not UTF-8 is read as Latin-1
    name, lines = read_lines(path, "ibnetdiscover", latin1=True)
    return _parse(lines, name)


def _names(kind: str, description: str, cache: dict[str, tuple[str, str]]) -> tuple[str, str]:
    """(hostname, HCA or "") of a node by its kind letter and NodeDescription, parsed once each."""
    key = kind + description
    names = cache.get(key)
    if names is None:
        names = cache[key] = (switch_hostname(description), "") if kind == "S" else ca_end(description)
    return names


def _port_name(kind: str, hca: str, port: int) -> str:
    """A link end's port as printed: a switch's port number, a CA's HCA (``/n`` past port 1)."""
    if kind == "S":
        return str(port)
    return hca if port == 1 else f"{hca}/{port}"


def parse_ibnetdiscover(text: str, name: str = "<ibnetdiscover>") -> list[RawLink]:
    """Every cable in the file, each once. DiscoveryError naming the line for anything else
    (a line cut short by a truncated file, a port line before any node).

    One regex per line and each NodeDescription parsed once: a 98k-cable fabric prints 200k port
    lines (every cable from both ends)."""
    return _parse(text.splitlines(), name)


def _parse(lines: Iterable[str], name: str) -> list[RawLink]:
    links: dict[tuple[tuple[str, int], tuple[str, int]], RawLink] = {}
    node: tuple[str, str, str, str, str] | None = None  # (kind letter, guid, description, host, hca)
    nodes = 0
    names: dict[str, tuple[str, str]] = {}
    rates: dict[tuple[str, str], float | None] = {}
    port_match, node_match = _PORT.match, _NODE.match
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            found = port_match(line)
            if found is None:
                raise DiscoveryError(name, number, f"not an ibnetdiscover port line: {line[:80]!r}")
            if node is None:
                raise DiscoveryError(name, number, "a port line before any Switch or Ca line")
            kind, guid, description, host, hca = node
            port_text, peer_kind, peer_guid, peer_port_text, peer_description, width, speed = found.groups()
            port, peer_port = int(port_text), int(peer_port_text)
            here, there = (guid, port), (peer_guid.lower(), peer_port)
            key = (here, there) if here <= there else (there, here)
            if key in links or AGGREGATION_NODE in peer_description or AGGREGATION_NODE in description:
                continue
            peer_host, peer_hca = _names(peer_kind, peer_description, names)
            rate = rates.get((width, speed), 0.0)
            if rate == 0.0:
                rate = rates[(width, speed)] = rate_of(width, speed)
            links[key] = RawLink(host, _port_name(kind, hca, port), peer_host, _port_name(peer_kind, peer_hca, peer_port),
                                 IB, f"{name}:{number}", rate, width + speed)
            continue
        found = node_match(line)
        if found:
            kind_word, _count, letter, guid, description, tail = found.groups()
            if kind_word == "Switch" and not _SWITCH_TAIL.match(tail):
                raise DiscoveryError(name, number, f"a Switch line cut short: {line[:80]!r}")
            node = (letter, guid.lower(), description, *_names(letter, description, names))
            nodes += 1
            continue
        if _IDS.match(line) or _GROUPING.match(line):
            continue
        raise DiscoveryError(name, number, f"not an ibnetdiscover line: {line[:80]!r}")
    if not nodes:
        raise DiscoveryError(name, 0, "no Switch or Ca lines: not an ibnetdiscover topology file")
    return list(links.values())
