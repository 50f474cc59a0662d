"""What the fabric generator writes, the validator accepts: the network racks it adds hold rack
PDUs on sides A and B (P4: a rack drawing power needs a way in)."""

from __future__ import annotations

import pytest

from planner.fabric.generate import generate_fabric
from planner.layout.templates import build_template
from planner.model.catalog import RACK_PDU
from planner.rules.engine import validate


def _nodes_only(nodes: int):
    doc = build_template("pod", nodes)
    switch = next(d.type for d in doc.devices.values() if d.role)
    for link_id in list(doc.links):
        doc.remove(link_id)
    for rack in list(doc.racks.values()):
        if not any(doc.catalog[d.type].kind == "node" for d in doc.devices_in(rack.id)):
            for device in doc.devices_in(rack.id):
                doc.remove(device.id)
            doc.remove(rack.id)
    return doc, switch


@pytest.mark.parametrize("oversubscription", [1.0, 2.0])
def test_generated_network_racks_hold_pdus_and_validate(oversubscription):
    doc, switch = _nodes_only(12)
    before = set(doc.racks)
    generate_fabric(doc, switch, oversubscription=oversubscription).apply(doc)
    new = [r for r in doc.racks if r not in before]
    assert new, "the generator added network racks"
    for rack_id in new:
        pdus = [d for d in doc.devices_in(rack_id) if doc.catalog[d.type].kind == RACK_PDU]
        per_side = len(pdus) // 2
        assert per_side >= 1 and sorted(d.name for d in pdus) == sorted(
            f"PDU-{side}{k + 1}" for side in "AB" for k in range(per_side))
    assert [f for f in validate(doc) if f.severity == "error"] == []
