"""The plan's cable layer follows the validator's cable bundles: after any edit its segments
equal a fresh build, and an edit re-routes the cables it touched, never the whole plan."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QAction

from planner.commands import edits
from planner.fabric import routing
from planner.io import loads
from planner.layout.templates import build_template
from planner.model.catalog import SWITCH
from planner.model.networks import in_compute_fabric
from planner.rules.context import Context
from planner.ui.cables.layer import CableLayer


@pytest.fixture(scope="module")
def hall_text():
    from planner.io.hallfile import dumps
    return dumps(build_template("hall", 128))


def _fresh_segments(doc):
    layer = CableLayer()
    layer.follow(Context(doc))
    return dict(layer.segments)


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
