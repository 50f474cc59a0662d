"""Pods stay a door's width apart after the networks placed last make a row longer: the
16,384-node hall of 800G switches was refused by its own template, 'CDU-14 overlaps CDU-77',
because the storage and management racks went into the rows after the pods were spaced."""

from __future__ import annotations

from planner.layout.rows import Site, pods_of, respace_pods
from planner.layout.templates import build_template
from planner.rules.engine import validate


def _pod_edges(doc, rows, site):
    """(west, east) edge of each pod's racks and floor units, in pod order."""
    edges = []
    for members in pods_of(rows, site):
        boxes = [doc.rack_bounds(o) for o in [*doc.racks.values(), *doc.floor_units.values()] if o.row in members]
        edges.append((min(b[0] for b in boxes), max(b[2] for b in boxes)))
    return edges


def test_a_longer_row_moves_the_next_pod_along_and_the_hall_grows():
    site = Site(rows_per_pod=4)
    doc = build_template("hall", 1024, site=site)
    rows = sorted({r.row for r in doc.racks.values()}, key=int)
    assert len(pods_of(rows, site)) == 2
    assert not [f for f in validate(doc) if f.severity == "error"]
    (_w1, east1), (west2, _e2) = _pod_edges(doc, rows, site)
    assert west2 - east1 >= site.door_width_m - 1e-6
    width = doc.outline[1][0]
    # row 1's east end pushed 3 m east, as three more racks given to the row by a later step push it
    end = max((o for o in [*doc.racks.values(), *doc.floor_units.values()] if o.row == rows[0]), key=lambda o: o.x)
    doc.set_fields(end.id, {"x": end.x + 3.0})
    assert _pod_edges(doc, rows, site)[0][1] > west2  # on the next pod
    respace_pods(doc, rows, site)
    (_w1, east1), (west2, east2) = _pod_edges(doc, rows, site)
    assert site.door_width_m - 1e-6 <= west2 - east1 < site.door_width_m + site.tile_m
    assert doc.outline[1][0] > width and doc.outline[1][0] >= east2 + site.wall_margin_m - 1e-6
    slab = next(z for z in doc.zones.values() if z.name == "Slab")
    assert slab.polygon == doc.outline
    assert not [f for f in validate(doc) if f.rule == "S1"]


def test_respacing_a_hall_whose_rows_kept_their_length_moves_nothing():
    site = Site(rows_per_pod=4)
    doc = build_template("hall", 1024, site=site)
    rows = sorted({r.row for r in doc.racks.values()}, key=int)
    before = {o.id: o.x for o in [*doc.racks.values(), *doc.floor_units.values()]}, list(doc.outline)
    respace_pods(doc, rows, site)
    assert ({o.id: o.x for o in [*doc.racks.values(), *doc.floor_units.values()]}, doc.outline) == before
