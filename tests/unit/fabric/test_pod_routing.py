"""Routes between pods (rows side by side, apart along the rows) run along the pods' end trunks
and the main trunk, worked by hand; edits keep the router as a fresh one would route.

Racks are 800 × 1200 mm, 52U: rack top 52 × 0.04445 = 2.3114 m; tray 0.3 m above it, so a
device at U1 rises 2.6114 m and one at U41 2.3114 − 40 × 0.04445 + 0.3 = 0.8334 m.
"""

from __future__ import annotations

import pytest

from planner.commands import edits
from planner.commands.base import History
from planner.fabric.bundles import CableBundles
from planner.fabric.routing import Router
from planner.fabric.trays import CROSS, ROW, TrayLoads, tray_legs
from planner.model.document import Document
from planner.model.objects import Device, Link, Rack

RACK = "rack-800x1200-52u"
NODE = "node-8gpu-liquid-4u"
SWITCH = "sw-64x400g-1u"


@pytest.fixture
def pods() -> Document:
    """Pod 1: rows 1 (y 2.0) and 2 (y 5.0) at x 1.0–1.8; pod 2: rows 3 (y 2.0) and 4 (y 5.0) at x 10.0–10.8."""
    doc = Document()
    for number, (x, y, row) in enumerate([(1.0, 2.0, "1"), (1.8, 2.0, "1"), (1.0, 5.0, "2"), (1.8, 5.0, "2"),
                                          (10.0, 2.0, "3"), (10.8, 2.0, "3"), (10.0, 5.0, "4"), (10.8, 5.0, "4")],
                                         start=1):
        doc.add(Rack(id=f"rack-{number}", type=RACK, name=f"R{number:02d}", x=x, y=y, row=row,
                     rotation=0 if row in "13" else 180))
    doc.add(Device(id="dev-1", type=NODE, name="N1", rack="rack-1", u=1))
    doc.add(Device(id="dev-2", type=SWITCH, name="L1", rack="rack-2", u=41, role="leaf"))
    doc.add(Device(id="dev-3", type=NODE, name="N1", rack="rack-3", u=1))
    doc.add(Device(id="dev-8", type=SWITCH, name="S1", rack="rack-8", u=41, role="spine"))
    doc.add(Device(id="dev-5", type=NODE, name="N1", rack="rack-5", u=1))
    doc.add(Link(id="link-1", a_device="dev-1", a_port="P1", b_device="dev-8", b_port="1/1", media="dr4"))
    doc.add(Link(id="link-2", a_device="dev-3", a_port="P1", b_device="dev-2", b_port="1/2", media="sr4"))
    doc.add(Link(id="link-3", a_device="dev-5", a_port="P1", b_device="dev-8", b_port="1/2", media="sr4"))
    return doc


def test_rows_apart_along_the_rows_are_two_pods_with_a_main_trunk(pods):
    router = Router(pods)
    layout = router.pods[True]
    assert [(p.lo, p.hi) for p in layout.pods] == [(1.0, 1.8), (10.0, 10.8)]
    assert layout.main == 3.5  # between the two middle rows (y 2.0 and 5.0)
    assert router.main_trunks() == [((1.0, 3.5), (10.8, 3.5))]
    # the pods' ends are crossings, as well as the network racks (x 1.8 and 10.8)
    assert router.cross_x == [1.0, 1.8, 10.0, 10.8]


def test_a_cable_between_pods_runs_along_the_trunks(pods):
    # N1 in R01 (x 1.0, y 2.0) to S1 in R08 (x 10.8, y 5.0): along row 1 to pod 1's east end
    # (x 1.8) 0.8, up its trunk to the main trunk (y 3.5) 1.5, along the main trunk to pod 2's
    # west end (x 10.0) 8.2, along its trunk to row 4 (y 5.0) 1.5, along row 4 to x 10.8 0.8:
    # 12.8 m along the trays; with the rises 2.6114 + 12.8 + 0.8334 = 16.2448 m.
    result = Router(pods).route("dev-1", "dev-8", "leaf-spine")
    assert result.run_m == pytest.approx(16.2448)
    assert result.polyline == [(1.0, 2.0), (1.8, 2.0), (1.8, 3.5), (10.0, 3.5), (10.0, 5.0), (10.8, 5.0)]
    legs = tray_legs(result.polyline)
    assert [(t.kind, t.axis, t.across_mm, lo, hi) for t, lo, hi in legs] == [
        (ROW, "x", 2000, 1000, 1800), (CROSS, "y", 1800, 2000, 3500), (CROSS, "x", 3500, 1800, 10000),
        (CROSS, "y", 10000, 3500, 5000), (ROW, "x", 5000, 10000, 10800)]


def test_a_cable_inside_a_pod_keeps_to_its_pod(pods):
    # N1 in R03 (row 2) to L1 in R02 (row 1): crosses at pod 1's west end x 1.0, never the main trunk
    result = Router(pods).route("dev-3", "dev-2", "node-leaf")
    assert result.polyline == [(1.0, 5.0), (1.0, 5.0), (1.0, 2.0), (1.8, 2.0)]
    assert result.run_m == pytest.approx(2.6114 + 3.0 + 0.8 + 0.8334)


def _paths(router: Router) -> dict:
    fresh = Router(router.doc)
    return {pair: fresh.tray_path(*pair) for pair in router._paths}


@pytest.mark.parametrize(("racks", "dx", "what"), [
    (["rack-2"], 0.8, "pod 1's east end moves: the path between pods follows it"),
    (["rack-8"], -0.8, "a network rack moves inside pod 2"),
    (["rack-5", "rack-6"], -8.0, "row 3 moves into pod 1: the pods regroup"),
    (["rack-6"], 0.8, "pod 2's far end moves"),
])
def test_edits_keep_the_router_as_a_fresh_one(pods, racks, dx, what):
    router = Router(pods)
    bundles = CableBundles(pods, router)
    loads = TrayLoads(pods, bundles)
    History(pods).push(edits.move_objects(pods, racks, dx, 0.0))
    rerouted = router.refresh(racks)
    flows, _others = bundles.update([], rerouted)
    loads.apply(flows)
    assert router._paths == _paths(router), what
    fresh = TrayLoads(pods)
    assert {t: loads.peak(t) for t in loads.trays()} == {t: fresh.peak(t) for t in fresh.trays()}, what


def test_moving_a_pods_far_end_or_an_outer_row_leaves_the_paths_between_pods():
    """Only a pod's end facing the other pod, and the main trunk over the middle row, carry the
    cables between pods: moving the far end of a pod, or a rack across the rows, re-routes none
    of them (at 131k GPUs it re-routed every one: 1.7 s for a nudge)."""
    doc = Document()
    rows = [(x, y, row) for row, y in (("1", 2.0), ("2", 5.0), ("3", 8.0)) for x in (1.0, 1.8)]
    rows += [(x, y, row) for row, y in (("4", 2.0), ("5", 5.0), ("6", 8.0)) for x in (10.0, 10.8)]
    for number, (x, y, row) in enumerate(rows, start=1):
        doc.add(Rack(id=f"rack-{number}", type=RACK, name=f"R{number:02d}", x=x, y=y, row=row))
    doc.add(Device(id="dev-1", type=NODE, name="N1", rack="rack-3", u=1))  # row 2, x 1.0
    doc.add(Device(id="dev-2", type=SWITCH, name="S1", rack="rack-9", u=41, role="spine"))  # row 5, x 10.0
    doc.add(Link(id="link-1", a_device="dev-1", a_port="P1", b_device="dev-2", b_port="1/1", media="dr4"))
    router = Router(doc)
    CableBundles(doc, router)
    assert router.pods[True].main == 5.0  # over the middle row
    between = ("rack-3", "rack-9")
    assert len(router.tray_path(*between)[1]) == 6
    # pod 2's far end, pod 1's far end, a rack of an outer row, one of the middle row (its row
    # stays where most of its racks are: median_low of y 5.0 and 5.6 is 5.0)
    for rack_id, dx, dy in (("rack-12", 0.8, 0.0), ("rack-1", -0.8, 0.0), ("rack-5", 0.0, 0.6),
                            ("rack-4", 0.0, 0.6)):
        History(doc).push(edits.move_objects(doc, [rack_id], dx, dy))
        assert between not in router.refresh([rack_id]), rack_id
        assert router._paths == _paths(router), rack_id
