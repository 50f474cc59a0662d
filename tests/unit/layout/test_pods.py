"""Halls of more rows than a pod holds are pods side by side, routed along their trunks, and
validate clean; the hall's size limits follow the fabric's (DESIGN §4), refused in one line."""

from __future__ import annotations

import math

import pytest

from planner.export.plan_drawing import plan_shapes
from planner.fabric.routing import Router
from planner.fabric.sizing import FabricError, design_fabric
from planner.layout.rows import Site
from planner.layout.templates import MAX_NODES, TemplateError, build_template
from planner.rules.engine import validate
from planner.rules.finding import ERROR


@pytest.fixture(scope="module")
def two_pods():
    """256 nodes, 4 rows of 17–18 racks, two rows to a pod."""
    return build_template("hall", 256, site=Site(rows_per_pod=2))


def test_pods_stand_side_by_side_a_main_aisle_apart(two_pods):
    doc = two_pods
    pod_of = {"1": 0, "2": 0, "3": 1, "4": 1}
    edges: list[list[float]] = [[math.inf, -math.inf], [math.inf, -math.inf]]
    for obj in [*doc.racks.values(), *doc.floor_units.values()]:
        x0, _y0, x1, _y1 = doc.rack_bounds(obj)
        edge = edges[pod_of[obj.row]]
        edge[0], edge[1] = min(edge[0], x0), max(edge[1], x1)
    aisle = edges[1][0] - edges[0][1]
    assert 2.4 - 1e-9 <= aisle < 2.4 + 0.6  # the loading door's width, up to the next tile
    assert round(edges[1][0] / 0.6, 6) % 1 == 0  # the second pod starts on the tile grid
    ys = {row: {r.y for r in doc.racks.values() if r.row == row} for row in pod_of}
    assert ys["3"] == ys["1"] and ys["4"] == ys["2"]  # rows line up across the pods
    assert doc.outline[2][0] >= edges[1][1] + Site().wall_margin_m


def test_pods_validate_clean_and_cables_between_pods_use_the_main_trunk(two_pods):
    doc = two_pods
    assert [f.message for f in validate(doc) if f.severity == ERROR] == []
    router = Router(doc)
    assert len(router.pods[True].pods) == 2
    between = [link for link in doc.links.values()
               if {doc.racks[doc.devices[link.a_device].rack].row, doc.racks[doc.devices[link.b_device].rack].row}
               & {"1", "2"} and {doc.racks[doc.devices[link.a_device].rack].row,
                                 doc.racks[doc.devices[link.b_device].rack].row} & {"3", "4"}]
    assert between  # the core tier spans the pods
    for link in between:
        result = router.route(link.a_device, link.b_device, link.tier)
        assert len(result.polyline) == 6 and result.polyline[2][1] == router.pods[True].main
        assert link.length_m == result.length_m  # lengths were routed again once the pods moved


def test_one_pod_hall_is_laid_out_as_before():
    doc = build_template("hall", 256)
    assert Router(doc).pods[True].pods == ()


@pytest.mark.parametrize(("nodes", "ports"), [(8192, 64), (8192, 128), (16384, 128)])
def test_largest_halls_count_as_design_section_4(nodes, ports):
    # k-port leaves hold k/2 nodes an SU; one leaf per rail per SU; every spine and core gives
    # half its ports down at the top tier's limit of k³/4 GPUs; one cable per leaf port.
    design = design_fabric(nodes, 8, ports, 1.0)
    counts = design.counts()
    sus = math.ceil(nodes / (ports // 2))
    assert counts["switches"]["leaf"] == sus * 8
    assert counts["links"]["node-leaf"] == nodes * 8
    assert counts["links"]["leaf-spine"] == sus * 8 * ports // 2
    assert design.tiers == 3
    if nodes * 8 == ports ** 3 // 4:  # full three-tier fat-tree: 5k²/4 … k/2 spines per leaf
        assert counts["switches"]["spine"] == sus * 8 and counts["switches"]["core"] == sus * 4
        assert counts["links"]["spine-core"] == nodes * 8


def test_the_64_port_limit_is_refused_naming_the_switch_that_holds_it():
    with pytest.raises(FabricError):
        design_fabric(8193, 8, 64, 1.0)
    with pytest.raises(TemplateError, match=r"65,536 GPUs.*use --switch sw-64x800g-2u-eth \(128 ports\)$"):
        build_template("hall", 8193)
    with pytest.raises(TemplateError, match="takes 1 to 16,384 nodes"):
        build_template("hall", MAX_NODES["hall"] + 1, switch_type="sw-64x800g-2u-eth")


def test_drawings_show_the_main_trunk_between_pods(two_pods):
    router = Router(two_pods)
    (trunk,) = router.main_trunks()
    assert trunk in plan_shapes(two_pods).trays  # the cabling PDF's and review's floor plan
