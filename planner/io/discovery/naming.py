"""How the world outside the plan names its devices and ports, mapped back to the plan.

Devices are matched by hostname (``Document.hostname``: the device's own, or ``<rack>-<name>``),
ignoring case as DNS does (RFC 4343). A hostname two devices share matches neither: the
hostname rule (H1) reports the clash, and guessing would put cables on the wrong device.

Ports, per kind of device and per how the tool writes them (``records.PLAN/IB/LLDP``):

GPU nodes (rail ports ``P1`` … ``P8``)
    - the plan's own name, ``P1`` …, in every scheme;
    - the RDMA device (HCA) behind the port, in every scheme: the node type's ``hca_names`` in
      port order, or ``mlx5_0`` … ``mlx5_<n-1>`` when it gives none. This is what ibnetdiscover
      prints (``"<hostname> mlx5_3"``), and for LLDP it is the documented convention: **name
      each rail netdev after its port (``P1``) or its RDMA device (``mlx5_3``)**, e.g. with a
      udev rule; kernel names such as ``enp26s0np0`` say nothing about the rail and are listed
      as unknown ports. (The switch's own LLDP file names the switch port whatever the host
      calls its interface, so a switch-side file still places every cable.)

GPU and storage nodes, ports beyond the rails (storage ``S1`` …, in-band ``E1``/``E2``, ``BMC``)
    - the plan's own name, in every scheme: **name each in-band interface after its port**.
      A DGX-class node's in-band pair is the bond of port 2 of the two dual-port cards in slots 1
      and 2 (NVIDIA DGX BasePOD deployment guide, "Networking"; RA-11333-001 "Network Fabrics":
      bonded, 100 Gb/s); lldpd reports the bond's members, not the bond, so rename the member
      on slot 1 ``E1`` and the one on slot 2 ``E2`` (a udev rule or netplan ``set-name``), as
      the rails are named ``P1`` …. Kernel names (``enp170s0f1np1``, ``ens8f1np1``: Ubuntu and
      RHEL name the same port differently, NVIDIA Base Command Manager 11 "Troubleshooting")
      are listed as unknown ports.

Switches (plan ports ``c/l`` for twin-port cages, ``c`` for single ones; ports beyond the cages,
``mgmt0``, ``eth0``, the OOB switch's ``swp49`` … uplinks, by their plan name, which is the
network OS's own)
    - the plan's own name in every scheme;
    - IB: port number ``n`` ↔ cage ``ceil(n / k)``, lane ``(n - 1) % k + 1`` for ``k`` ports per
      cage (port 1 = ``1/1``, 2 = ``1/2``, 3 = ``2/1``), as NVIDIA Quantum switches number the
      two NDR ports of each OSFP cage;
    - LLDP, by the type's ``lldp_naming`` (all of these when it is empty; they cannot be confused
      with each other):

      ``sonic``   ``Ethernet<i>``, ``i`` the first of the port's SerDes lanes counted from 0, with
                  8 lanes per OSFP cage split evenly between its ports (cage 1 = ``Ethernet0`` and
                  ``Ethernet4``, cage 2 = ``Ethernet8`` …; SONiC ``port_config.ini`` /
                  ``platform.json`` lane numbering on OSFP platforms such as the SN5600), and the
                  front-panel alias ``etp<c>`` / ``etp<c>a``, ``etp<c>b`` … that SONiC on NVIDIA
                  platforms advertises as the LLDP port id;
      ``cumulus`` ``swp<c>`` for an unsplit cage, ``swp<c>s<l-1>`` for its breakout ports
                  (``swp1s0``, ``swp1s1``), Cumulus Linux's breakout naming.
"""

from __future__ import annotations

from collections.abc import Iterable

from planner.io.discovery.records import IB, LLDP, PLAN
from planner.model.catalog import NODE, SWITCH, CatalogItem
from planner.model.document import Document, natural_key

#: LLDP naming schemes a switch type can name (``CatalogItem.lldp_naming``).
SONIC, CUMULUS = "sonic", "cumulus"
LLDP_SCHEMES = (SONIC, CUMULUS)
#: Electrical lanes of an OSFP cage (OSFP MSA rev 5: 8 lanes), which SONiC numbers interfaces by.
OSFP_LANES = 8


def default_hca_names(ports: int) -> list[str]:
    """``mlx5_0`` … ``mlx5_<ports-1>``: the HCA order when the node type gives none."""
    return [f"mlx5_{index}" for index in range(ports)]


def hca_names(item: CatalogItem) -> list[str]:
    """The HCA behind each rail port of a node type, in port order."""
    names = list(item.hca_names)
    return names if len(names) == item.port_count else default_hca_names(item.port_count)


def ib_port_number(item: CatalogItem, port: str) -> int:
    """The IB port number of a switch's plan port (``1/1`` → 1, ``2/1`` → 3); 0 when none."""
    cage, _, lane = port.partition("/")
    try:
        return (int(cage) - 1) * item.ports_per_cage + (int(lane) if lane else 1)
    except ValueError:
        return 0


def sonic_name(item: CatalogItem, cage: int, lane: int) -> str:
    """SONiC's ``Ethernet<i>`` for a cage and lane (see the module docstring)."""
    per_port = OSFP_LANES // max(1, item.ports_per_cage)
    return f"Ethernet{(cage - 1) * OSFP_LANES + (lane - 1) * per_port}"


def cumulus_name(item: CatalogItem, cage: int, lane: int) -> str:
    return f"swp{cage}s{lane - 1}" if item.ports_per_cage > 1 else f"swp{cage}"


def sonic_alias(item: CatalogItem, cage: int, lane: int) -> str:
    return f"etp{cage}{chr(ord('a') + lane - 1)}" if item.ports_per_cage > 1 else f"etp{cage}"


def _switch_names(item: CatalogItem, scheme: str) -> dict[str, str]:
    """Lower-cased port names a tool may print → plan port, for one switch type and scheme."""
    names = {port.lower(): port for port in item.all_port_names()}
    lanes = max(1, item.ports_per_cage)
    for index, port in enumerate(item.port_names()):
        cage, lane = index // lanes + 1, index % lanes + 1
        if scheme == IB:
            names[str(index + 1)] = port
        elif scheme == LLDP:
            wanted = (item.lldp_naming,) if item.lldp_naming in LLDP_SCHEMES else LLDP_SCHEMES
            if SONIC in wanted:
                names[sonic_name(item, cage, lane).lower()] = port
                names[sonic_alias(item, cage, lane).lower()] = port
            if CUMULUS in wanted:
                names[cumulus_name(item, cage, lane).lower()] = port
    return names


def _node_names(item: CatalogItem) -> dict[str, str]:
    names = {port.lower(): port for port in item.all_port_names()}
    names.update({hca.lower(): port for hca, port in zip(hca_names(item), item.port_names())})
    return names


def port_names(item: CatalogItem, scheme: str) -> dict[str, str]:
    """Every name a tool may give a port of this type in ``scheme`` (lower case) → plan port."""
    if item.kind == NODE:
        return _node_names(item)
    if item.kind == SWITCH and scheme != PLAN:
        return _switch_names(item, scheme)
    return {port.lower(): port for port in item.all_port_names()}


class PlanNames:
    """Hostnames and port names of one plan, looked up in O(1) (tables made once per type)."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._hosts: dict[str, str] = {}
        #: Lower-cased hostnames more than one device answers to.
        self.shared: set[str] = set()
        for device in doc.devices.values():
            key = doc.hostname(device).lower()
            if key in self._hosts:
                self.shared.add(key)
            self._hosts[key] = device.id
        for key in self.shared:
            del self._hosts[key]
        self._tables: dict[tuple[str, str], dict[str, str]] = {}

    def device(self, hostname: str) -> str | None:
        """The device id a hostname names, or None (unknown, or shared by several devices)."""
        return self._hosts.get(hostname.strip().lower())

    def table(self, device_id: str, scheme: str) -> dict[str, str]:
        """Lower-cased port names → plan port for a device in ``scheme`` (one table per type)."""
        device_type = self.doc.devices[device_id].type
        table = self._tables.get((device_type, scheme))
        if table is None:
            table = self._tables[(device_type, scheme)] = port_names(self.doc.catalog[device_type], scheme)
        return table

    def port(self, device_id: str, name: str, scheme: str) -> str | None:
        """The plan port a tool's port name means on a device, or None."""
        return self.table(device_id, scheme).get(name.strip().lower())

    def describe_unknown(self, hostname: str) -> str:
        """How an unmatched hostname is listed: as given, saying when it is a shared one."""
        if hostname.strip().lower() in self.shared:
            return f"{hostname} (hostname shared by several devices)"
        return hostname


def unique_sorted(names: Iterable[str]) -> list[str]:
    """Names in a stable, readable order, each once."""
    return sorted(set(names), key=natural_key)
