"""Write tiny.hall and tiny_eth.hall: the small fabrics the discovery fixtures beside them describe.

Two racks: R01 with two GPU nodes (N1 a DGX H100-class node, whose rail ports map to the HCAs
mlx5_0, mlx5_3 …; N2 a liquid-cooled node, mlx5_0, mlx5_1 …) and R05 with two rail leaves (L1
rail 1, L2 rail 2) and two spines (S1, S2). Six planned cables: N1/N2 P1 on L1 1/1 and 1/2, N1/N2
P2 on L2 1/1 and 1/2, L1 17/1 and L2 17/1 on S1 1/1 and 1/2. tiny.hall has InfiniBand switches;
tiny_eth.hall the same fabric on Ethernet switches whose LLDP names are SONiC's (leaves) and
Cumulus's (spines). Run from the repository root.
"""

from dataclasses import replace

from planner.io import save
from planner.model import Device, Document, Link, Rack


def plan(leaf_type: str, spine_type: str) -> Document:
    doc = Document()
    doc.meta.project = "Discovery fixtures"
    doc.outline = [(0.0, 0.0), (12.0, 0.0), (12.0, 8.0), (0.0, 8.0)]
    doc.add(Rack(id="rack-1", type="rack-600x1200-48u", name="R01", x=1.0, y=2.0, row="1"))
    doc.add(Rack(id="rack-2", type="rack-600x1200-48u", name="R05", x=4.0, y=2.0, row="1"))
    doc.add(Device(id="dev-1", type="node-8gpu-air-8u", name="N1", rack="rack-1", u=1))
    doc.add(Device(id="dev-2", type="node-8gpu-liquid-4u", name="N2", rack="rack-1", u=9))
    doc.add(Device(id="dev-3", type=leaf_type, name="L1", rack="rack-2", u=1, role="leaf", su=1, pod=1, rail=1))
    doc.add(Device(id="dev-4", type=leaf_type, name="L2", rack="rack-2", u=3, role="leaf", su=1, pod=1, rail=2))
    doc.add(Device(id="dev-5", type=spine_type, name="S1", rack="rack-2", u=10, role="spine", pod=1))
    doc.add(Device(id="dev-6", type=spine_type, name="S2", rack="rack-2", u=12, role="spine", pod=1))
    cables = [("dev-1", "P1", "dev-3", "1/1", 1), ("dev-2", "P1", "dev-3", "1/2", 1),
              ("dev-1", "P2", "dev-4", "1/1", 2), ("dev-2", "P2", "dev-4", "1/2", 2),
              ("dev-3", "17/1", "dev-5", "1/1", 1), ("dev-4", "17/1", "dev-5", "1/2", 2)]
    for number, (a, pa, b, pb, rail) in enumerate(cables, start=1):
        node_leaf = a in ("dev-1", "dev-2")
        da, db = doc.devices[a], doc.devices[b]
        label = (f"{doc.racks[da.rack].name}-U{da.u:02d}-{da.name}-{pa} ↔ "
                 f"{doc.racks[db.rack].name}-U{db.u:02d}-{db.name}-{pb}")
        doc.add(Link(id=f"link-{number}", a_device=a, a_port=pa, b_device=b, b_port=pb,
                     tier="node-leaf" if node_leaf else "leaf-spine", rail=rail,
                     media="sr4" if node_leaf else "dac", length_m=6.2 if node_leaf else 0.8,
                     stock_m=10.0 if node_leaf else 1.0, label=label))
    return doc


save(plan("sw-64x400g-1u", "sw-64x400g-1u"), "tests/data/discovery/tiny.hall")
eth = Document().catalog["sw-64x800g-2u-eth"]
doc = plan("sw-sonic", "sw-cumulus")
doc.catalog.add(replace(eth, key="sw-sonic", name="Ethernet leaf (SONiC)", lldp_naming="sonic", custom=True))
doc.catalog.add(replace(eth, key="sw-cumulus", name="Ethernet spine (Cumulus)", lldp_naming="cumulus", custom=True))
doc.basis.fabric_kind = "ethernet"
save(doc, "tests/data/discovery/tiny_eth.hall")
