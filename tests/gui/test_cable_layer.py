"""The plan's cable layer follows the validator's cable bundles: after any edit its segments
equal a fresh build, and an edit re-routes the cables it touched, never the whole plan."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtGui import QAction

from planner.commands import edits
from planner.fabric import routing
from planner.io import loads
from planner.layout.templates import build_template
from planner.model.catalog import SWITCH
from planner.model.networks import in_compute_fabric
from planner.rules.context import Context
from planner.ui.cables.layer import CableLayer, _width


@pytest.fixture(scope="module")
def hall_text():
    from planner.io.hallfile import dumps
    return dumps(build_template("hall", 128))


def _fresh_segments(doc):
    layer = CableLayer()
    layer.follow(Context(doc))
    return dict(layer.segments)


def _drawn(layer):
    """Each batch's lines as the next paint draws them, as sorted (x1, y1, x2, y2)."""
    return {batch: sorted((ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ln in lines)
            for batch, lines in layer.drawn_lines().items()}


def _fresh_drawn(doc):
    layer = CableLayer()
    layer.follow(Context(doc))
    return _drawn(layer)


def _racks(doc):
    """(the racks of compute fabric switches, the other racks with devices: the node racks, which
    hold an out-of-band access switch of their own, PDUs and a manifold)."""
    network = sorted({d.rack for d in doc.devices.values()
                      if doc.catalog[d.type].kind == SWITCH and in_compute_fabric(d.role)})
    compute = sorted(r for r in doc.racks if r not in network and doc.devices_in(r))
    return network, compute


def test_segments_follow_moves_undo_and_new_documents(make_window, hall_text):
    from planner.io.hallfile import loads
    window = make_window(loads(hall_text))
    doc, layer = window.session.doc, window.cable_layer
    assert layer.segments and dict(layer.segments) == _fresh_segments(doc)
    network, compute = _racks(doc)
    before = dict(layer.segments)
    for rack_id in (network[0], compute[0], compute[-1]):
        window.session.push(edits.move_objects(doc, [rack_id], 0.6, 0.0))
        assert dict(layer.segments) == _fresh_segments(doc)
    assert dict(layer.segments) != before  # the moves really moved bundles
    window.session.push(edits.delete_objects(doc, [compute[1]]))
    assert dict(layer.segments) == _fresh_segments(doc)
    while window.session.undo_stack.canUndo():
        window.session.undo_stack.undo()
    assert dict(layer.segments) == before
    window.files.set_document(loads(hall_text), None, "again")
    assert dict(window.cable_layer.segments) == before


def test_a_rack_move_routes_only_that_racks_cables(qtbot, make_window, hall_text, monkeypatch):
    from planner.io.hallfile import loads
    window = make_window(loads(hall_text))
    doc = window.session.doc
    _network, compute = _racks(doc)
    rack_id = compute[len(compute) // 2]
    own = {link_id for d in doc.devices_in(rack_id) for link_id in doc.link_ids_of(d.id)}
    calls = []
    for name in ("run", "length"):  # every way to route one cable
        real = getattr(routing.Router, name)
        monkeypatch.setattr(routing.Router, name,
                            lambda self, a, b, real=real: calls.append((a, b)) or real(self, a, b))
    from planner.rules import route_lengths  # N8 routes its stale candidates in one array pass
    batch = route_lengths._routed
    monkeypatch.setattr(route_lengths, "_routed", lambda router, devices, a, b:
                        calls.extend(zip(a, b, strict=True)) or batch(router, devices, a, b))
    window.session.select({rack_id})
    window.plan_view.editor.nudge(0, 1)
    window.undo_action.trigger()
    qtbot.wait(300)  # and whatever the edit left for later
    assert 0 < len(calls) <= 2 * len(own) < len(doc.links) / 10


def test_view_cables_menu_toggles_networks_tiers_and_rails(make_window, hall_text):
    """View ▸ Cables: each action hides its part of the layer and shows it again."""
    window = make_window(loads(hall_text))
    layer = window.cable_layer
    actions = {a.text(): a for a in window.findChildren(QAction) if a.isCheckable()}
    assert layer.isVisible() and "storage-access" in layer.tiers and 3 in layer.rails
    actions["Network storage"].setChecked(False)
    assert not {"storage-access", "storage-uplink"} & layer.tiers and "node-leaf" in layer.tiers
    actions["Tier node-leaf"].setChecked(False)
    actions["Rail 3"].setChecked(False)
    assert "node-leaf" not in layer.tiers and 3 not in layer.rails and 4 in layer.rails
    actions["Show cables"].setChecked(False)
    assert not layer.isVisible()
    for name in ("Network storage", "Tier node-leaf", "Rail 3", "Show cables"):
        actions[name].setChecked(True)
    assert layer.isVisible() and {"storage-access", "node-leaf"} <= layer.tiers and 3 in layer.rails


def test_a_batch_draws_each_stretch_of_tray_once_and_follows_edits(make_window, hall_text):
    """Every rack of a row has its own segment to the row's end, so the segments of one batch
    overlap; the batch draws their union, one line per stretch of tray: each segment lies within
    one of its batch's lines, each line starts and ends where segments do, no two lines of a batch
    overlap (a dashed pen's pattern is drawn once, not over copies of itself), and after edits and
    their undo the layer draws what a fresh build draws."""
    from planner.io.hallfile import loads
    window = make_window(loads(hall_text))
    doc, layer = window.session.doc, window.cable_layer
    drawn = _drawn(layer)
    assert sum(map(len, drawn.values())) < len(layer.segments) / 2  # the overlaps are joined
    ends: dict[tuple, set] = {}
    for key, count in layer.segments.items():
        batch = (key[0], key[1], _width(count))
        line = CableLayer._line(key)
        a, b = sorted([(line.x1(), line.y1()), (line.x2(), line.y2())])
        ends.setdefault(batch, set()).update((a, b))
        assert any(x1 <= a[0] <= b[0] <= x2 and y1 <= a[1] <= b[1] <= y2 and (x1 == x2 or y1 == y2 == a[1] == b[1])
                   for x1, y1, x2, y2 in drawn[batch]), key
    for batch, lines in drawn.items():
        assert all({(x1, y1), (x2, y2)} <= ends[batch] for x1, y1, x2, y2 in lines), batch
        runs = sorted((y1, x1, x2) for x1, y1, x2, y2 in lines if y1 == y2)  # along x, by y then x
        assert all(not (p[0] == q[0] and q[1] <= p[2]) for p, q in itertools.pairwise(runs)), batch
        runs = sorted((x1, y1, y2) for x1, y1, x2, y2 in lines if x1 == x2 and y1 != y2)
        assert all(not (p[0] == q[0] and q[1] <= p[2]) for p, q in itertools.pairwise(runs)), batch
    assert drawn == _fresh_drawn(doc)
    network, compute = _racks(doc)
    for rack_id in (network[0], compute[0], compute[-1]):
        window.session.push(edits.move_objects(doc, [rack_id], 0.6, 0.0))
        assert _drawn(layer) == _fresh_drawn(doc)
    window.session.push(edits.delete_objects(doc, [compute[1]]))
    assert _drawn(layer) == _fresh_drawn(doc)
    while window.session.undo_stack.canUndo():
        window.session.undo_stack.undo()
    assert _drawn(layer) == drawn


def test_the_repaint_area_is_the_box_around_the_lines():
    """What an edit repaints: the box around the touched segments' lines, widened by the pen."""
    from PySide6.QtCore import QRectF

    keys = {("node-leaf", 3, 1.0, 2.0, 9.5, 2.0): 1, ("leaf-spine", 0, 4.0, 1.0, 4.0, 7.25): 2,
            ("storage-access", 1, 2.0, 8.0, 3.0, 8.0): 1}
    area = QRectF()
    for key in keys:
        line = CableLayer._line(key)
        area = area.united(QRectF(line.p1(), line.p2()).normalized())
    pad = 150.0  # REPAINT_MARGIN_M at 100 scene units a metre
    expected = area.adjusted(-pad, -pad, pad, pad)
    got = CableLayer._area(keys)
    assert [round(v, 6) for v in got.getRect()] == [round(v, 6) for v in expected.getRect()]
