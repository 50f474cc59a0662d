"""The in-band and out-of-band management networks: access switches per rack or per row,
uplinked to an aggregation pair (issue 21, DESIGN §3 Networks).

NVIDIA's DGX SuperPOD (RA-11333-001 V11, "In-Band Management Network", "Out-of-Band Management
Network", Table 1) builds the in-band network of SN4600C-class 64 × 100 GbE switches (the DGX
in-band ports, bonded, at 100 Gb/s) and the out-of-band network of SN2201-class 48 × 1 GbE
switches that "connect the management ports of all devices including DGX and management
servers, storage, networking gear, rack PDUs". Here:

- an access switch per rack or per row, as the design basis says (``inband_switch_per``,
  ``oob_switch_per``), more where the ports exceed one switch's access ports; per rack it goes
  at the highest free U of the rack when the rack has the power headroom, else (and per row) in
  a network rack of the row (``place_switches``);
- every access switch uplinks once to each switch of an aggregation pair of the catalogue's
  in-band switch (more pairs when the access switches exceed a pair's ports), in a network rack
  of the row holding most compute switches; an out-of-band switch uplinks on its 100 GbE ports
  (``swp49``/``swp50``), an in-band access switch on its last two cages;
- in-band connects every device port on the in-band network (a GPU node's ``E1``/``E2``);
  out-of-band every port on it: BMCs, every switch's ``mgmt0``/``eth0`` (compute, storage,
  in-band), rack PDUs' and rack CDUs' ``mgmt0``. A row CDU is a floor unit, not a device in a
  rack: its ``mgmt0`` is left to the site network. The out-of-band network's own switches are
  managed over their uplinks, so their ``eth0`` is not cabled.

Names: in-band access ``MI1`` …, aggregation ``MIA1``/``MIA2``; out-of-band ``MO1`` …, ``MOA1``/``MOA2``.
"""

from __future__ import annotations

import math
from collections import Counter

from planner.commands.base import SetFields
from planner.fabric.network_build import (
    Cabler,
    Staged,
    Wanted,
    add_at,
    current_peers,
    finish,
    place,
    retire,
)
from planner.fabric.placement import device_power_w, rack_load_w, row_key, tapoff_limit_w
from planner.fabric.reconcile import keep_or_deal
from planner.fabric.sizing import FabricError
from planner.fabric.stages import NetworkGeneration
from planner.model.catalog import CatalogItem
from planner.model.document import Document, natural_key
from planner.model.networks import (
    ROLE_INBAND_ACCESS,
    ROLE_INBAND_AGG,
    ROLE_OOB_ACCESS,
    ROLE_OOB_AGG,
    ROLES_OF,
    TIER_INBAND_ACCESS,
    TIER_INBAND_UPLINK,
    TIER_OOB_ACCESS,
    TIER_OOB_UPLINK,
    in_compute_fabric,
)
from planner.model.objects import Device
from planner.model.ports import INBAND, OOB

#: Per network: access role, aggregation role, access and uplink tiers, name stems, basis field.
_SPEC = {
    INBAND: (ROLE_INBAND_ACCESS, ROLE_INBAND_AGG, TIER_INBAND_ACCESS, TIER_INBAND_UPLINK, "MI", "MIA",
             "inband_switch_per"),
    OOB: (ROLE_OOB_ACCESS, ROLE_OOB_AGG, TIER_OOB_ACCESS, TIER_OOB_UPLINK, "MO", "MOA", "oob_switch_per"),
}
End = tuple[Device, str]


def plan_inband(doc: Document) -> NetworkGeneration:
    """The in-band management network's generation (``planner.fabric.stages`` step)."""
    return _plan(doc, INBAND)


def plan_oob(doc: Document) -> NetworkGeneration:
    """The out-of-band management network's generation (``planner.fabric.stages`` step)."""
    return _plan(doc, OOB)


def access_ports(item: CatalogItem, network: str) -> tuple[list[str], list[str]]:
    """A management switch's access ports and its two uplinks: the two fastest ports of the
    network beyond its cages (an SN2201's ``swp49``, ``swp50``), else its last two cages."""
    cages = item.port_names()
    extra = sorted((p for p in item.ports() if p.network == network and p.name not in cages),
                   key=lambda p: -p.speed_gbps)
    cage_speed = item.port_speed_gbps
    fast = [p.name for p in extra if p.speed_gbps > cage_speed][:2]
    if len(fast) == 2:
        return cages, fast
    return cages[:-2], cages[-2:]


def management_ports(doc: Document, device: Device, network: str) -> list[str]:
    """The ports of a device to cable on a management network: every port it has on it, but
    none of a management switch's own network or of a switch of this network's roles."""
    item = doc.catalog[device.type]
    if device.role in ROLES_OF[network] or item.network == network:
        return []
    ports = item.port_names(network)
    if item.network:  # a management switch of the other network: its management port only
        return [p for p in ports if p not in item.port_names()]
    return ports


def _ends(doc: Document, network: str, scope: str) -> dict[str, list[End]]:
    """Every port to cable, grouped by rack or row (in rack and U order)."""
    groups: dict[str, list[End]] = {}
    racks = sorted(doc.racks.values(), key=lambda r: (natural_key(row_key(r)), natural_key(r.name)))
    for rack in racks:
        key = rack.id if scope == "rack" else row_key(rack)
        for device in sorted(doc.devices_in(rack.id), key=lambda d: (d.u, natural_key(d.name))):
            ends = [(device, port) for port in management_ports(doc, device, network)]
            if ends:
                groups.setdefault(key, []).extend(ends)
    return groups


def _agg_row(doc: Document) -> str:
    """The row holding most compute-fabric switches (the middle row when there are none)."""
    rows = Counter(row_key(doc.racks[d.rack]) for d in doc.devices.values() if in_compute_fabric(d.role))
    if rows:
        return max(rows, key=lambda row: (rows[row], row))
    keys = sorted({row_key(r) for r in doc.racks.values()}, key=natural_key)
    return keys[len(keys) // 2]


def _plan(doc: Document, network: str) -> NetworkGeneration:
    access_role, agg_role, access_tier, uplink_tier, stem, agg_stem, field = _SPEC[network]
    access_item, agg_item = doc.catalog.management_switch(network), doc.catalog.management_switch(INBAND)
    if access_item is None or agg_item is None:
        raise FabricError(f"the catalogue has no {network} management switch to build the {network} network of")
    scope = getattr(doc.basis, field)
    down, up = access_ports(access_item, network)
    agg_ports = agg_item.port_names()
    staged = Staged(doc)

    def wanted_access() -> list[tuple[Wanted, str]]:
        groups = _ends(doc, network, scope)
        count = [(key, math.ceil(len(ends) / len(down))) for key, ends in groups.items()]
        names = iter(range(1, sum(n for _, n in count) + 1))
        return [(Wanted(access_role, f"{stem}{next(names)}",
                        row_key(doc.racks[key]) if scope == "rack" else key), key)
                for key, n in count for _ in range(n)]

    pairs = math.ceil(len(wanted_access()) / len(agg_ports))
    aggs = place(staged, agg_item.key, [Wanted(agg_role, f"{agg_stem}{i + 1}", _agg_row(doc))
                                        for i in range(2 * pairs)])
    access: list[Device] = []
    for _ in range(3):  # switches placed may bring PDUs whose management ports need room too
        wanted = wanted_access()
        access = _place_access(staged, access_item, wanted, scope)
        if len(wanted_access()) == len(wanted):
            break
    retire(staged, (access_role, agg_role), [*aggs, *access])
    cabler = Cabler(doc)
    wanted = wanted_access()
    by_group: dict[str, list[Device]] = {}
    for device, (_, key) in zip(access, wanted):
        by_group.setdefault(key, []).append(device)
    peers = current_peers(doc, network, access_tier, access)
    for key, ends in _ends(doc, network, scope).items():
        slots = [(switch.id, port) for switch in by_group.get(key, ()) for port in down]
        for (device, port), slot in zip(ends, keep_or_deal([(d.id, p) for d, p in ends], slots, peers)):
            if slot is not None:
                cabler.connect(device, port, doc.devices[slot[0]], slot[1], access_tier)
    for switch, place_at in zip(access, _uplink_slots(doc, network, uplink_tier, access, aggs, len(agg_ports), up)):
        if place_at is not None:
            pair, at = place_at
            for side, port in enumerate(up):
                cabler.connect(switch, port, aggs[2 * pair + side], agg_ports[at], uplink_tier)
    return finish(staged, network, cabler, f"Generate {network} management network",
                  {access_role: len(access), agg_role: len(aggs)})


def _uplink_slots(doc: Document, network: str, tier: str, access: list[Device], aggs: list[Device],
                  agg_ports: int, up: list[str]) -> list[tuple[int, int] | None]:
    """Each access switch's (pair, port index) on the aggregation pairs: the one its uplinks use
    now where still offered, else the next free one in order (``keep_or_deal``), so a switch
    added in one row does not move every later switch's uplinks."""
    slots = [(pair, at) for pair in range(len(aggs) // 2) for at in range(agg_ports)]
    where = {agg.id: i for i, agg in enumerate(aggs)}
    held: dict[str, tuple[int, int]] = {}
    for (switch_id, port), (agg_id, agg_port) in current_peers(doc, network, tier, aggs).items():
        item = doc.catalog[doc.devices[agg_id].type]
        names = item.port_names()
        if port in up and agg_port in names[:agg_ports]:
            held.setdefault(switch_id, (where[agg_id] // 2, names.index(agg_port)))
    return keep_or_deal([s.id for s in access], slots, held)


def _place_access(staged: Staged, item: CatalogItem, wanted: list[tuple[Wanted, str]], scope: str) -> list[Device]:
    """Access switches: the plan's own reused (``_reuse_access``); new ones per rack at the
    highest free U of the rack with power headroom, the rest (and per row) in network racks of
    their rows."""
    doc = staged.doc
    plain = [w for w, _ in wanted]
    kept = _reuse_access(staged, item.key, wanted, scope)
    missing = [i for i in range(len(wanted)) if i not in kept]
    tops: dict[int, Device] = {}
    if scope == "rack":
        load: dict[str, float] = {}
        used: dict[str, set[int]] = {}
        for i in missing:
            rack_id = wanted[i][1]
            taken = used.setdefault(rack_id, set(doc.used_units(rack_id)))
            u = _top_slot(doc, rack_id, item.height_u, taken)
            draw = load.setdefault(rack_id, rack_load_w(doc, rack_id)) + device_power_w(doc, item.key)
            if u is not None and draw <= _rack_limit_w(doc, rack_id) + 1e-6:
                load[rack_id] = draw
                taken.update(range(u, u + item.height_u))
                tops[i] = Device(id=doc.new_id("dev"), type=item.key, name=plain[i].name, role=plain[i].role,
                                 rack=rack_id, u=u)
    add_at(staged, list(tops.values()))
    rest = [i for i in missing if i not in tops]
    placed = dict(zip(rest, place(staged, item.key, [plain[i] for i in rest]))) if rest else {}
    return [kept[i] if i in kept else tops[i] if i in tops else placed[i] for i in range(len(wanted))]


def _reuse_access(staged: Staged, switch_type: str, wanted: list[tuple[Wanted, str]], scope: str) -> dict[int, Device]:
    """The plan's access switches for the wanted ones: by role and name where the switch stands
    in its rack or row (so regenerating changes nothing), then by rack or row, renamed (a rack
    needing one more switch renumbers those after it: each keeps its rack), then by role and
    name wherever it stands (placed in another rack when its own was full)."""
    doc = staged.doc

    def group_of(device: Device) -> str:
        return device.rack if scope == "rack" else row_key(doc.racks[device.rack])

    pool = [d for d in doc.devices.values() if d.type == switch_type and d.role == wanted[0][0].role] if wanted else []
    free = {d.id: d for d in pool}
    kept: dict[int, Device] = {}
    by_name = {(d.name, group_of(d)): d for d in pool}
    for i, (w, key) in enumerate(wanted):
        if (found := by_name.get((w.name, key))) is not None:
            kept[i] = free.pop(found.id)
    by_group: dict[str, list[Device]] = {}
    for device in sorted(free.values(), key=lambda d: -d.u):
        by_group.setdefault(group_of(device), []).append(device)
    renames: dict[str, dict[str, str]] = {}
    for i, (w, key) in enumerate(wanted):
        if i not in kept and by_group.get(key):
            kept[i] = device = by_group[key].pop(0)
            del free[device.id]
            renames[device.id] = {"name": w.name}
    anywhere = {d.name: d for d in free.values()}
    for i, (w, _) in enumerate(wanted):
        if i not in kept and w.name in anywhere:
            kept[i] = anywhere.pop(w.name)
    if renames:
        staged.run(SetFields(renames, text="Renumber access switches"))
    return {i: doc.devices[d.id] for i, d in kept.items()}


def _top_slot(doc: Document, rack_id: str, height: int, used: set[int]) -> int | None:
    """The highest U where ``height`` units are free in the rack."""
    top = doc.catalog[doc.racks[rack_id].type].rack_units
    for u in range(top - height + 1, 0, -1):
        if not any(x in used for x in range(u, u + height)):
            return u
    return None


def _rack_limit_w(doc: Document, rack_id: str) -> float:
    """What a rack may draw within the warning margin: its rating and each feed's tap-off."""
    rack = doc.racks[rack_id]
    rated = doc.catalog[rack.type].max_power_kw
    limit = math.inf if rated is None else rated * 1000 * doc.basis.power_warn_fraction
    for bus in (rack.feed_a, rack.feed_b):
        if bus in doc.busbars:
            limit = min(limit, tapoff_limit_w(doc, doc.busbars[bus].type))
    return limit
