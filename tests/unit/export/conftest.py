"""A cabled plan for the export tests: the bundled example hall with its rail cabling.

Every node's GPU i goes to port (node index) of leaf SW i in R05, as the fabric generator
does for a single scalable unit; names carry markup characters and non-Latin letters so every
export must print them verbatim.
"""

from __future__ import annotations

import pytest

from planner.export.common import ExportOptions
from planner.model.catalog import NODE
from planner.model.document import Document, natural_key
from planner.model.objects import Link

PROJECT = "Зал №1 <A&B>"
HALL = "机房 & hall"
ODD_DEVICE = "N<1>&Ж"


def cable_plan(doc: Document) -> Document:
    catalog = doc.catalog
    doc.meta.project = PROJECT
    doc.meta.hall = HALL
    doc.meta.author = "Ана Ли"
    racks = sorted(doc.racks.values(), key=lambda r: natural_key(r.name))
    leaves = sorted((d for d in doc.devices.values() if d.type.startswith("sw-")), key=lambda d: d.u)
    leaf_rack = doc.racks[leaves[0].rack]
    switch_ports = catalog[leaves[0].type].port_names()
    nodes = [d for rack in racks for d in doc.devices_in(rack.id) if catalog[d.type].kind == NODE]
    doc.set_fields(nodes[0].id, {"name": ODD_DEVICE})
    for index, node in enumerate(nodes):
        node_rack = doc.racks[node.rack]
        for rail, port in enumerate(catalog[node.type].port_names(), start=1):
            leaf = leaves[rail - 1]
            run = abs(node_rack.x - leaf_rack.x) + (node.u + leaf.u) * 0.04445 + 0.6
            length = round(run * 1.1 + 0.3, 2)
            media = "dac" if length <= 3 else "sr4"
            stock = next(s for s in catalog.media[media].stock_lengths_m if s >= length)
            label = f"{node_rack.name}-{node.name}-{port}/{leaf.name}-{switch_ports[index]}"
            doc.add(Link(id=doc.new_id("link"), a_device=node.id, a_port=port, b_device=leaf.id,
                         b_port=switch_ports[index], tier="node-leaf", rail=rail, media=media,
                         length_m=length, stock_m=stock, label=label))
    return doc


@pytest.fixture
def cabled_doc(example_doc) -> Document:
    return cable_plan(example_doc)


@pytest.fixture
def options() -> ExportOptions:
    return ExportOptions(revision="B", author="Ана Ли", date="2026-11-30", file_name="pod.hall")
