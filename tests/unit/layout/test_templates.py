"""Templates give error-free plans under the full rule catalogue, or refuse with one line."""

from __future__ import annotations

import itertools
import math

import pytest

from planner.io import dumps, loads
from planner.layout.templates import TemplateError, build_template
from planner.model.networks import network_of
from planner.model.ports import COMPUTE, COOLANT, POWER
from planner.rules.engine import validate
from planner.rules.finding import ERROR


def _errors(doc):
    return [f.message for f in validate(doc) if f.severity == ERROR]


@pytest.mark.parametrize(("name", "nodes"), [("starter", 1), ("starter", 4), ("pod", 9), ("pod", 32),
                                             ("hall", 1), ("hall", 100), ("hall", 257), ("hall", 1000)])
def test_templates_validate_clean(name, nodes):
    doc = build_template(name, nodes)
    assert _errors(doc) == []
    assert sum(1 for d in doc.devices.values() if doc.catalog[d.type].kind == "node") == nodes
    for rack in doc.racks.values():  # every rack assigned: A and B feed, and a coolant loop
        assert rack.feed_a and rack.feed_b and rack.cdu, rack.name
    assert loads(dumps(doc)).links.keys() == doc.links.keys()
    hostnames = [doc.hostname(device) for device in doc.devices.values()]
    assert len(set(hostnames)) == len(hostnames)  # network racks keep the generator's PDUs only


def test_starter_is_one_rack_with_leaf_storage_and_cdu():
    doc = build_template("starter")
    assert len(doc.racks) == 1 and not doc.floor_units
    kinds = sorted(doc.catalog[d.type].kind for d in doc.devices.values() if doc.catalog[d.type].kind != "rack_pdu")
    assert kinds == ["node"] * 4 + ["rack_cdu", "rack_manifold", "storage", "switch"]
    compute = doc.links_in(COMPUTE)
    assert len(compute) == 32 and all(link.media == "dac" for link in compute.values())
    # one rack: only the in-rack steps run (hoses and cords), no management or storage switches
    assert {network_of(link) for link in doc.links.values()} == {COMPUTE, COOLANT, POWER}


def test_pod_is_one_row_with_network_rack_in_the_middle():
    doc = build_template("pod", 32)
    assert {r.row for r in doc.racks.values()} == {"1"}
    racks = sorted(doc.racks.values(), key=lambda r: r.x)
    network = [i for i, r in enumerate(racks) if all(doc.catalog[d.type].kind != "node" for d in doc.devices_in(r.id))]
    assert all(d.role for d in doc.devices_in(racks[network[0]].id)
               if doc.catalog[d.type].kind not in ("rack_pdu", "storage"))  # switches, PDUs and the storage nodes
    assert network == [len(racks) // 2]


def test_hall_rows_alternate_for_hot_and_cold_aisles():
    doc = build_template("hall", 300)
    rows = {}
    for rack in doc.racks.values():
        rows.setdefault(int(rack.row), set()).add((rack.y, rack.rotation))
    ys = [next(iter(rows[r]))[0] for r in sorted(rows)]
    rotations = [next(iter(rows[r]))[1] for r in sorted(rows)]
    assert rotations == [0 if i % 2 == 0 else 180 for i in range(len(rows))]
    gaps = [round(b - a - 1.2, 6) for a, b in itertools.pairwise(ys)]
    assert gaps == [1.2 if i % 2 == 0 else 1.8 for i in range(len(gaps))]  # hot 1.2 m, cold 1.8 m


def test_nodes_per_rack_follow_rack_kw():
    # 12 kW peak nodes: 48 kW → 4 per rack, 36 kW → 3 per rack
    for kw, per_rack in ((48, 4), (36, 3)):
        doc = build_template("hall", 24, rack_kw=kw)
        compute = [r for r in doc.racks.values() if any(d.type.startswith("node") for d in doc.devices_in(r.id))]
        assert len(compute) == math.ceil(24 / per_rack)


@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"name": "pod", "nodes": 33}, "1 to 32 nodes"),
    ({"name": "starter", "nodes": 5}, "1 to 4 nodes"),
    ({"name": "hall", "nodes": 16385}, "1 to 16,384"),
    ({"name": "hall", "nodes": 8193}, "use --switch sw-64x800g-2u-eth"),
    ({"name": "hall", "rack_kw": 100}, "tap-off"),
    ({"name": "hall", "rack_kw": 6}, "limited by power"),
    ({"name": "hall", "node_type": "sw-64x400g-1u"}, "not a GPU node"),
    ({"name": "starter", "rack_kw": 40}, "above --rack-kw 40"),
    ({"name": "campus"}, "unknown template"),
])
def test_refusals_are_one_line(kwargs, reason):
    with pytest.raises(TemplateError, match=reason) as info:
        build_template(**kwargs)
    assert "\n" not in str(info.value)


def test_hall_stacks_tray_levels_for_its_cabling():
    doc = build_template("hall", 1000)
    assert doc.basis.row_tray_levels >= 2  # one 600 × 100 mm row tray would be over the 25 % warning
    assert "stacked trays keep the busiest row tray" in doc.basis.source("row_tray_levels")
    assert [f for f in validate(doc) if f.rule == "N9"] == []
    doc.basis.row_tray_levels -= 1
    assert [f.severity for f in validate(doc) if f.rule == "N9" and ":row:" in f.subjects[0]]
