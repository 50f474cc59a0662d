"""``planner export --to ufm-cvt``: the files NVIDIA's UFM Cable Validation Tool (CVT) checks a
fabric against, so the vendor's own validation runs on the plan's cabling (issue 22, DESIGN §9).

Formats, from the CVT documentation (docs.nvidia.com/networking/display/cablevalidationtool150):

- **P2P file** ("P2P File"): an Excel workbook, one row per cable, columns ``A-Rack, A-U,
  A-Node Name, A-Type, A-Port, Z-Rack, Z-RU, Z-Node Name, Z-Type, Z-Port`` (the header of its
  Ethernet example, verbatim: Z-RU, not Z-U). Type is ``Host`` or ``Switch``. Ports: on an
  InfiniBand switch "a single number or a split port (e.g., 1/2)", which is the plan's own
  ``cage/lane`` name (``1/3``); on a host the interface number, read through the HCA mapping
  (default ``1 → mlx5_0 P1``, ``2 → mlx5_1 P1`` …). On Ethernet the names the switch and host
  give their interfaces (``swp1s0``, ``rail5`` in the example). Written as ``p2p.csv``, the one
  sheet's cells (``planner cables import`` reads it back); README.txt says to save it as .xlsx
  for the tool. The folder holds text files only, as the other folder exports do.
- **HCA mapping** ("Optional Files", InfiniBand and NVOS): CSV ``port,hca-name``, one row per
  host interface number. Host port numbers are chosen so that the default mapping already
  holds: HCA ``mlx5_<n>`` is interface ``n + 1`` (a DGX H100's GPU 1 NIC, ``mlx5_3``, is 4), other
  names take the next free numbers; the file lists every HCA all the same. One ``hca_mapping.csv``
  when every node type agrees, else one per type (``hca_mapping-<type>.csv``), since the tool
  takes one mapping per run.
- **Floor layout** ("Optional Files", Ethernet): a CSV mapping each rack to the layout categories
  the results are grouped by, as column headers ("Data Hall # or Pod #, Scalable Unit #, Row #,
  Line Unit #"). The documentation shows its header only as a picture, so the columns here are
  the plan's: ``Rack, Data Hall, Pod, SU, Row`` (no line units in the plan). A rack's pod and SU
  are those of the switches in it, or of the leaves its nodes are cabled to (the most of them).

Cables of every compute tier are listed, the lower tier first (node, leaf, spine). Text cells
pass through ``sheet_text`` (control characters replaced, formula-like cells neutralised).
"""

from __future__ import annotations

import csv
import re
from collections import Counter
from pathlib import Path

from planner.export.options import ExportOptions
from planner.export.pages import TitleBlock
from planner.export.printed_text import clip, one_line
from planner.export.sheet_text import sheet_text
from planner.io.discovery.naming import CUMULUS, SONIC, cumulus_name, hca_names, sonic_name
from planner.model.catalog import ETHERNET, SWITCH, CatalogItem, switch_protocol
from planner.model.document import Document, natural_key
from planner.model.networks import in_compute_fabric
from planner.model.objects import TIERS, Device
from planner.model.ports import COMPUTE

P2P_COLUMNS = ("A-Rack", "A-U", "A-Node Name", "A-Type", "A-Port",
               "Z-Rack", "Z-RU", "Z-Node Name", "Z-Type", "Z-Port")
HCA_COLUMNS = ("port", "hca-name")
LAYOUT_COLUMNS = ("Rack", "Data Hall", "Pod", "SU", "Row")
HOST, SWITCH_TYPE = "Host", "Switch"
_MLX5 = re.compile(r"mlx5_(\d+)\Z")
_ROLE_ORDER = {"": 0, "leaf": 1, "spine": 2, "core": 3}
_FILE_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


class UfmCvtError(ValueError):
    """The plan has nothing for the cable validation tool to check (no fabric cables); one line."""


def host_port_numbers(item: CatalogItem) -> list[int]:
    """The host interface number of each rail port, in port order: ``mlx5_<n>`` → n + 1 (the
    tool's default mapping), any other HCA name the next number no ``mlx5`` name takes."""
    hcas = hca_names(item)
    numbers = [int(m.group(1)) + 1 if (m := _MLX5.match(name)) else 0 for name in hcas]
    taken = {n for n in numbers if n}
    free = (n for n in range(1, len(hcas) + max(taken, default=0) + 2) if n not in taken)
    result = [n or next(free) for n in numbers]
    return result if len(set(result)) == len(result) else list(range(1, len(hcas) + 1))


def write_ufm_cvt(doc: Document, folder: Path, options: ExportOptions | None = None) -> None:
    """Fill ``folder`` with p2p.csv, the HCA mapping, floor_layout.csv and README.txt."""
    options = options or ExportOptions()
    rows = p2p_rows(doc)
    options.report(0.4)
    _write_csv(folder / "p2p.csv", P2P_COLUMNS, rows)
    options.report(0.7)
    mappings = hca_mappings(doc)
    for name, mapping in mappings.items():
        _write_csv(folder / name, HCA_COLUMNS, mapping)
    _write_csv(folder / "floor_layout.csv", LAYOUT_COLUMNS, layout_rows(doc))
    block = TitleBlock.of(doc, options, "UFM cable validation")
    facts = " — ".join(clip(one_line(fact), 80) for fact in (
        block.project, block.hall, f"revision {block.revision}", block.date, block.file_name) if fact)
    with open(folder / "README.txt", "w", encoding="utf-8", newline="\n") as out:
        out.write(_readme(facts, len(rows), mappings))
    options.report(1.0)


def p2p_rows(doc: Document) -> list[list[object]]:
    """One row per fabric cable, the lower-tier end as A; UfmCvtError when there is none."""
    ports: dict[str, dict[str, str]] = {}

    def port_of(device: Device, port: str) -> str:
        if device.type not in ports:
            ports[device.type] = _port_names(doc.catalog[device.type], _ethernet(doc, device))
        return ports[device.type].get(port, port)

    rows = []
    for link in doc.links_in(COMPUTE).values():
        if link.tier not in TIERS:
            continue
        a, b = doc.devices.get(link.a_device), doc.devices.get(link.b_device)
        if a is None or b is None:
            continue
        a_port, b_port = link.a_port, link.b_port
        if _ROLE_ORDER.get(a.role, 0) > _ROLE_ORDER.get(b.role, 0):
            a, b, a_port, b_port = b, a, b_port, a_port
        rows.append([*_end(doc, a), port_of(a, a_port), *_end(doc, b), port_of(b, b_port)])
    if not rows:
        raise UfmCvtError("the plan has no fabric cables for the cable validation tool to check: generate the "
                          "fabric first (planner fabric FILE -o OUT, or Plan ▸ Generate fabric…)")
    rows.sort(key=lambda r: (natural_key(str(r[0])), r[1], natural_key(str(r[2])), natural_key(str(r[4]))))
    return rows


def hca_mappings(doc: Document) -> dict[str, list[list[object]]]:
    """File name → ``port,hca-name`` rows: one file when every host type maps alike, else one per type."""
    by_type: dict[str, list[list[object]]] = {}
    used = {doc.devices[end].type for link in doc.links_in(COMPUTE).values() if link.tier in TIERS
            for end in (link.a_device, link.b_device) if end in doc.devices}
    for key in sorted(used):
        item = doc.catalog[key]
        if item.kind != SWITCH and item.port_count:
            by_type[key] = [[n, name] for n, name in sorted(zip(host_port_numbers(item), hca_names(item)))]
    distinct = {tuple(map(tuple, rows)) for rows in by_type.values()}
    if len(distinct) <= 1:
        return {"hca_mapping.csv": next(iter(by_type.values()), [])}
    return {f"hca_mapping-{_FILE_UNSAFE.sub('_', key)[:80]}.csv": rows for key, rows in by_type.items()}


def layout_rows(doc: Document) -> list[list[object]]:
    """Rack, data hall, pod, SU and row of every rack holding a fabric device."""
    leaves = {d.id: d for d in doc.devices.values() if d.role == "leaf"}
    placed: dict[str, Counter[tuple[int, int]]] = {}
    for device in doc.devices.values():
        if in_compute_fabric(device.role):
            placed.setdefault(device.rack, Counter())[(device.pod, device.su if device.role == "leaf" else 0)] += 1
    for link in doc.links_in(COMPUTE).values():
        for mine, other in ((link.a_device, link.b_device), (link.b_device, link.a_device)):
            host, leaf = doc.devices.get(mine), leaves.get(other)
            if host is not None and leaf is not None and not in_compute_fabric(host.role):
                placed.setdefault(host.rack, Counter())[(leaf.pod, leaf.su)] += 1
    hall = one_line(doc.meta.hall) or "hall"
    rows: list[list[object]] = []
    for rack_id in sorted(placed, key=lambda r: natural_key(doc.racks[r].name) if r in doc.racks else ()):
        rack = doc.racks.get(rack_id)
        if rack is None:
            continue
        (pod, su), _ = min(placed[rack_id].items(), key=lambda kv: (-kv[1], kv[0]))
        rows.append([rack.name, hall, pod or "", su or "", rack.row])
    return rows


def _end(doc: Document, device: Device) -> list[object]:
    rack = doc.racks.get(device.rack)
    kind = SWITCH_TYPE if in_compute_fabric(device.role) else HOST
    return [rack.name if rack else "", device.u, doc.hostname(device), kind]


def _ethernet(doc: Document, device: Device) -> bool:
    """Whether the device's cables speak Ethernet: a switch by its protocol, a host by the plan's leaves'."""
    if in_compute_fabric(device.role):
        return switch_protocol(doc.catalog[device.type]) == ETHERNET
    kinds = Counter(switch_protocol(doc.catalog[d.type]) for d in doc.devices.values() if d.role == "leaf")
    return (kinds.most_common(1)[0][0] if kinds else doc.basis.fabric_kind) == ETHERNET


def _port_names(item: CatalogItem, ethernet: bool) -> dict[str, str]:
    """Plan port → the tool's port: hosts by interface number (InfiniBand) or ``rail<k>``
    (Ethernet); InfiniBand switches by the plan's name (``1/3``); Ethernet switches by their
    network OS's interface name when the type names one (``swp1s0``, ``Ethernet8``)."""
    ports = item.port_names()
    if item.kind != SWITCH:
        if ethernet:
            return {port: f"rail{k}" for k, port in enumerate(ports, start=1)}
        return {port: str(n) for port, n in zip(ports, host_port_numbers(item))}
    if not ethernet or item.lldp_naming not in (CUMULUS, SONIC):
        return {}
    name = cumulus_name if item.lldp_naming == CUMULUS else sonic_name
    lanes = max(1, item.ports_per_cage)
    return {port: name(item, index // lanes + 1, index % lanes + 1) for index, port in enumerate(ports)}


def _write_csv(path: Path, columns: tuple[str, ...], rows: list[list[object]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        writer.writerows([sheet_text(v) for v in row] for row in rows)


def _readme(facts: str, cables: int, mappings: dict[str, list[list[object]]]) -> str:
    files = ", ".join(mappings) or "hca_mapping.csv"
    return f"""UFM Cable Validation Tool files of the hall plan
{facts}

{cables:,} fabric cables (node-leaf, leaf-spine, spine-core), lower tier as the A end.

Files
  p2p.csv            the P2P topology file, one row per cable. The tool loads P2P files as Excel
                     workbooks: open it in Excel or LibreOffice and save it as p2p.xlsx, then load
                     that as the topology to validate against. (planner cables import reads the CSV.)
  {files:<18} host interface number -> HCA (port,hca-name), optional for InfiniBand and NVOS.
                     The numbers in p2p follow the tool's default (mlx5_<n> is port n+1), so the
                     default mapping holds; load the file when a type's HCAs have other names.
  floor_layout.csv   rack -> data hall, pod, SU, row, optional (Ethernet), to group the results.

Ports
  Switches: InfiniBand ports as split ports, cage/port as the plan names them (1/2 = cage 1, its
  second port; a single-port cage is its number); Ethernet switches by the network OS's interface names
  when the switch type names its scheme. Hosts: the interface number on InfiniBand, rail<k> on
  Ethernet (name the rail netdevs so on the hosts, or edit the column).
"""
