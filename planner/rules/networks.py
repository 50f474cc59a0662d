"""Rules of the storage and management networks (issue 21): storage read bandwidth per GPU (N13),
management switch ports and ports left unconnected (N14), connectors and media that fit (N15).

N3 already checks speeds on every network (its speeds come from ``CatalogItem.ports()``, the
storage, in-band and out-of-band groups included); N15 checks what N3 cannot see: an RJ45 jack
cabled to a cage, or a cable whose media does not plug into its ends (a DAC on a BMC, a Cat6A
patch cord on a QSFP cage). Each rule walks one network's cables once (``doc.links_in``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import product
from operator import attrgetter

from planner.fabric.management import access_ports, management_ports
from planner.fabric.media import RJ45
from planner.model.catalog import NODE, STORAGE
from planner.model.document import Document, natural_key
from planner.model.labels import cable_label
from planner.model.networks import (
    BITS_PER_BYTE,
    NETWORK_WORDS,
    ROLE_INBAND_ACCESS,
    ROLE_OOB_ACCESS,
    ROLE_STORAGE_LEAF,
    ROLES_OF,
    TIER_INBAND_ACCESS,
    TIER_OOB_ACCESS,
    TIER_STORAGE_UPLINK,
    network_of,
)
from planner.model.objects import Device
from planner.model.ports import INBAND, OOB, STORAGE_NET
from planner.rules.context import Context
from planner.rules.engine import Rule, rule
from planner.rules.finding import ERROR, WARNING, Finding
from planner.rules.scopes import HALL, HALL_SUBJECT, LINK

_READS = {"link.a_device", "link.a_port", "link.b_device", "link.b_port", "link.tier", "link.media",
          "dev.type", "dev.role", "dev.name", "dev.rack", "dev.u", "rack.name"}
#: Networks whose ports must all be cabled once the plan has the network's switches.
_CABLED = (STORAGE_NET, INBAND, OOB)
_ACCESS = {ROLE_INBAND_ACCESS: (INBAND, TIER_INBAND_ACCESS), ROLE_OOB_ACCESS: (OOB, TIER_OOB_ACCESS)}
#: Shown in a finding: at most this many ports or switches.
SHOWN = 5
_A_DEVICE, _A_PORT, _B_DEVICE, _B_PORT = map(attrgetter, ("a_device", "a_port", "b_device", "b_port"))


def _where(doc: Document, device_id: str) -> str:
    device = doc.devices[device_id]
    rack = doc.racks.get(device.rack)
    return f"{rack.name if rack else device.rack}/{device.name}"


def _speed_of(ctx: Context) -> dict[tuple[str, str], float]:
    """Speed per (device type, port) of the plan's types, once per pass."""
    def make() -> dict[tuple[str, str], float]:
        catalog = ctx.doc.catalog
        return {(key, p.name): p.speed_gbps for key in {d.type for d in ctx.doc.devices.values()}
                for p in catalog[key].ports()}
    return ctx.memo("network speeds", make)


@dataclass
class StorageFigures:
    """What the storage fabric carries, Gb/s: GPU nodes' and storage nodes' connected storage
    ports, and per storage leaf with uplinks its uplink bandwidth and the GPUs behind it."""

    gpus: int = 0
    gpu_gbps: float = 0.0
    storage_gbps: float = 0.0
    uplink_gbps: dict[str, float] = field(default_factory=dict)
    leaf_gpus: dict[str, float] = field(default_factory=dict)


def storage_figures(ctx: Context) -> StorageFigures:
    """One pass over the storage cables (kept while the fabric's structure stands)."""
    def make() -> StorageFigures:
        doc, speeds = ctx.doc, _speed_of(ctx)
        kinds = {key: doc.catalog[key].kind for key in {d.type for d in doc.devices.values()}}
        figures = StorageFigures(gpus=sum(doc.catalog[d.type].gpus for d in doc.devices.values()
                                          if kinds[d.type] == NODE))
        node_gbps: dict[str, float] = {}  # a node type's storage bandwidth: its GPUs' share of a port
        for link in doc.links_in(STORAGE_NET).values():
            a, b = doc.devices.get(link.a_device), doc.devices.get(link.b_device)
            if a is None or b is None:
                continue
            speed = min(speeds.get((a.type, link.a_port), 0.0), speeds.get((b.type, link.b_port), 0.0))
            if link.tier == TIER_STORAGE_UPLINK:
                leaf = a if a.role == ROLE_STORAGE_LEAF else b
                figures.uplink_gbps[leaf.id] = figures.uplink_gbps.get(leaf.id, 0.0) + speed
                continue
            for end, port, other in ((a, link.a_port, b), (b, link.b_port, a)):
                if kinds[end.type] == NODE:
                    figures.gpu_gbps += speed
                    item = doc.catalog[end.type]
                    total = node_gbps.setdefault(end.type, sum(speeds.get((end.type, p), 0.0)
                                                               for p in item.port_names(STORAGE_NET)))
                    share = item.gpus * speeds.get((end.type, port), 0.0) / total if total else 0.0
                    figures.leaf_gpus[other.id] = figures.leaf_gpus.get(other.id, 0.0) + share
                elif kinds[end.type] == STORAGE:
                    figures.storage_gbps += speed
        figures.leaf_gpus = {k: v for k, v in figures.leaf_gpus.items() if k in figures.uplink_gbps}
        return figures
    return ctx.fabric_memo("storage figures", make, frozenset((STORAGE_NET,)))


@rule("N13", scope=HALL, reads=_READS, basis=("storage_read_gbps_per_gpu",), source_field="storage_read_gbps_per_gpu",
      title="Storage read bandwidth per GPU within the basis")
def storage_bandwidth(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    """Available = min(GPU nodes' connected storage ports, storage nodes' connected storage
    ports, each storage leaf's uplinks for the GPUs behind it where the reads cross the spine)
    per GPU; a warning below the basis (RA-11333-001 Table 6 grades storage performance Good,
    Better, Best: a slower store slows jobs, it breaks nothing)."""
    doc = ctx.doc
    figures = storage_figures(ctx)
    if not figures.gpus or not doc.links_in(STORAGE_NET):
        return
    wanted = doc.basis.storage_read_gbps_per_gpu
    terms: list[tuple[float, str, tuple[str, ...]]] = [(figures.gpu_gbps / figures.gpus, f"GPU nodes' storage ports {figures.gpu_gbps:,.0f} Gb/s", ()),
             (figures.storage_gbps / figures.gpus, f"storage nodes' ports {figures.storage_gbps:,.0f} Gb/s", ())]
    for leaf_id, gpus in figures.leaf_gpus.items():
        if gpus:
            up = figures.uplink_gbps[leaf_id]
            terms.append((up / gpus, f"leaf {doc.devices[leaf_id].name} uplinks {up:,.0f} Gb/s for {gpus:,.0f} GPUs",
                          (leaf_id,)))
    per_gpu, limit, subjects = min(terms, key=lambda t: t[0])
    have = per_gpu / BITS_PER_BYTE
    if have + 1e-9 < wanted:
        yield r.finding(ctx, WARNING, (HALL_SUBJECT, *subjects),
                        f"storage read {have:.3g} GB/s per GPU < {wanted:g} GB/s basis (limited by {limit}; "
                        f"{figures.gpus:,} GPUs)")


def _port_use(ctx: Context) -> tuple[dict[str, list[str]], dict[str, list[tuple[str, int, int]]]]:
    """Per network the plan has switches of: the ports to cable not cabled (``device port``), and
    the access switches holding more access cables than they have access ports (switch, cables,
    ports). Each network's part is kept through edits of the other networks' cables alone
    (``_network_port_use``): a compute cable made by hand counts none of the 5,021 access
    switches of a 131k-GPU hall again."""
    missing: dict[str, list[str]] = {}
    over: dict[str, list[tuple[str, int, int]]] = {}
    for network in _CABLED:
        use = _network_port_use(ctx, network)
        if use is not None:
            missing[network], over[network] = use
    return missing, over


def _network_port_use(ctx: Context, network: str) -> tuple[list[str], list[tuple[str, int, int]]] | None:
    """One network's ports to cable not cabled, and its overfull access switches; None when the
    plan has no switch of the network (device roles are fabric structure: ``fabric_memo``)."""
    def make() -> tuple[list[str], list[tuple[str, int, int]]] | None:
        doc = ctx.doc
        kinds = _devices_by_kind(ctx)
        if not {role for _type, role in kinds} & set(ROLES_OF[network]):
            return None
        links = list(doc.links_in(network).values())
        cabled = set(zip(map(_A_DEVICE, links), map(_A_PORT, links)))  # (device, port) pairs made in C
        cabled.update(zip(map(_B_DEVICE, links), map(_B_PORT, links)))
        to_access = [link for link in links if link.tier in (TIER_INBAND_ACCESS, TIER_OOB_ACCESS)]
        ends = Counter(map(_A_DEVICE, to_access))
        ends.update(map(_B_DEVICE, to_access))
        devices, catalog = doc.devices, doc.catalog
        ports_of_type: dict[str, int] = {}  # hundreds of switches, few types
        over: list[tuple[str, int, int]] = []
        for device_id, count in ends.items():
            device = devices.get(device_id)
            if device is not None and device.role in _ACCESS:
                if device.type not in ports_of_type:
                    ports_of_type[device.type] = len(access_ports(catalog[device.type], network)[0])
                if count > ports_of_type[device.type]:
                    over.append((device_id, count, ports_of_type[device.type]))
        left: list[tuple[str, str]] = []
        for members in kinds.values():  # a few kinds, many devices
            must = _must_cable(doc, doc.devices[members[0]], network)
            if must and (missing := set(product(members, must)) - cabled):
                left += [(device_id, p) for device_id in members for p in must if (device_id, p) in missing]
        left.sort(key=lambda end: natural_key(end[0]))
        return [f"{d} {p}" for d, p in left], over
    return ctx.fabric_memo(f"network port use {network}", make, frozenset((network,)))


def _devices_by_kind(ctx: Context) -> dict[tuple[str, str], list[str]]:
    """The plan's device ids by (type, role), once per pass."""
    def make() -> dict[tuple[str, str], list[str]]:
        kinds: dict[tuple[str, str], list[str]] = {}
        for device in ctx.doc.devices.values():
            kinds.setdefault((device.type, device.role), []).append(device.id)
        return kinds
    return ctx.memo("devices by type and role", make)


def _must_cable(doc: Document, device: Device, network: str) -> list[str]:
    """The ports of a device a network must connect: storage ports of GPU and storage nodes, every
    management port (``management_ports``)."""
    if network == STORAGE_NET:
        return doc.catalog[device.type].port_names(STORAGE_NET) if doc.catalog[device.type].kind in (NODE, STORAGE) else []
    return management_ports(doc, device, network)


@rule("N14", scope=HALL, reads=_READS, source="NVIDIA DGX SuperPOD RA-11333-001 V11, 'Network Fabrics' "
      "(every node's storage, in-band and BMC port, every device's management port is cabled)",
      title="Management switch ports and network ports cabled")
def ports_cabled(ctx: Context, _subject: str, r: Rule) -> Iterator[Finding]:
    doc = ctx.doc
    missing, over = _port_use(ctx)
    for network, switches in over.items():
        for switch_id, used, have in switches:
            yield r.finding(ctx, ERROR, (switch_id,),
                            f"{_where(doc, switch_id)}: {used} {NETWORK_WORDS[network]} access cables on a "
                            f"{doc.catalog[doc.devices[switch_id].type].name} of {have} access ports")
    for network, ports in missing.items():
        if ports:
            shown = ", ".join(_named(doc, p) for p in ports[:SHOWN])
            more = f" and {len(ports) - SHOWN:,} more" if len(ports) > SHOWN else ""
            devices = list(dict.fromkeys(p.split(" ", 1)[0] for p in ports))
            yield r.finding(ctx, WARNING, (HALL_SUBJECT, *devices),
                            f"{len(ports):,} port{'s' if len(ports) != 1 else ''} not cabled on the "
                            f"{NETWORK_WORDS[network]} network: {shown}{more}")


def _named(doc: Document, end: str) -> str:
    device_id, port = end.split(" ", 1)
    return f"{_where(doc, device_id)} {port}"


def _connectors(ctx: Context) -> dict[tuple[str, str], str]:
    def make() -> dict[tuple[str, str], str]:
        catalog = ctx.doc.catalog
        return {(key, p.name): p.connector for key in {d.type for d in ctx.doc.devices.values()}
                for p in catalog[key].ports()}
    return ctx.memo("network connectors", make)


def _connector_problem(ctx: Context, link_id: str) -> str:
    """Why a cable's ends and media do not fit ("" when they do, or are unknown: N2, N7 say so)."""
    doc = ctx.doc
    link = doc.links[link_id]
    a, b = doc.devices.get(link.a_device), doc.devices.get(link.b_device)
    if a is None or b is None:
        return ""
    connectors = _connectors(ctx)
    ca, cb = connectors.get((a.type, link.a_port), ""), connectors.get((b.type, link.b_port), "")
    if not ca or not cb:
        return ""
    if (ca == RJ45) != (cb == RJ45):
        return f"{ca} port cabled to {cb} port"
    media = doc.catalog.media.get(link.media)
    if media is None:
        return ""
    if (media.connector == RJ45) != (ca == RJ45):
        return f"{media.name} does not plug into {ca} ports"
    return ""


def _connector_candidates(ctx: Context) -> list[str]:
    """Cables N15 may report: ``_connector_problem``'s tests in one loop, the lookups hoisted."""
    doc = ctx.doc
    devices, media_of = doc.devices, doc.catalog.media
    connectors = _connectors(ctx)
    plugs = {key: media.connector == RJ45 for key, media in media_of.items()}
    found = []
    for network in _CABLED:
        for link in doc.links_in(network).values():
            a, b = devices.get(link.a_device), devices.get(link.b_device)
            if a is None or b is None:
                continue
            ca, cb = connectors.get((a.type, link.a_port), ""), connectors.get((b.type, link.b_port), "")
            if not ca or not cb:
                continue
            jack = ca == RJ45
            if jack != (cb == RJ45) or plugs.get(link.media, jack) != jack:
                found.append(link.id)
    return found


@rule("N15", scope=LINK, reads=_READS, source="TIA-568.2-D / IEEE 802.3 clause 40: RJ45 twisted pair; SFF "
      "cages take DACs and optics", title="Cable connectors and media fit its ports", candidates=_connector_candidates)
def connectors_fit(ctx: Context, link_id: str, r: Rule) -> Iterator[Finding]:
    link = ctx.doc.links[link_id]
    if network_of(link) not in _CABLED:
        return
    problem = _connector_problem(ctx, link_id)
    if problem:
        yield r.finding(ctx, ERROR, (link_id,), f"{cable_label(ctx.doc, link)}: {problem}")
