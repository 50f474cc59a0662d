"""Generate fabric as one undo step, the cable list (sort, filter, select → route) and the
cable bundles layer, in a real main window (offscreen)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from planner.fabric.hall import refusal, summary
from planner.fabric.routing import route
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.networks import network_of
from planner.ui.cables.index import LENGTH, MEDIA
from planner.ui.fabric.dialog import GenerateFabricDialog
from planner.ui.jobs.template_dialog import TemplateDialog
from planner.ui.main_window import MainWindow
from planner.ui.plan.route import route_on_tray
from planner.ui.session import DocumentSession

#: Every network's cables of the 12-node pod template: the 352 of the compute fabric (96
#: node-leaf + 256 leaf-spine) and the storage, management, coolant and power ones, as the
#: planner cables every network (issue 21).
POD_CABLES = 663


@pytest.fixture(scope="module")
def pod_text():
    return dumps(build_template("pod", 12))


def _bare(pod_text):
    """The pod without its fabric: no links, no switches, no network rack."""
    doc = loads(pod_text)
    for link_id in list(doc.links):
        doc.remove(link_id)
    for device in [d for d in doc.devices.values() if d.role]:
        doc.remove(device.id)
    for rack in list(doc.racks.values()):
        if not any(d.type.startswith("node") for d in doc.devices_in(rack.id)):
            for device in doc.devices_in(rack.id):
                doc.remove(device.id)
            doc.remove(rack.id)
    return doc


@pytest.fixture
def window(qtbot, pod_text):
    session = DocumentSession(_bare(pod_text))
    win = MainWindow(session)
    qtbot.addWidget(win)
    win.show()
    return win


def test_generate_fabric_is_one_undo_step(window, qtbot):
    session = window.session
    racks_before = set(session.doc.racks)
    dialog = GenerateFabricDialog(session, window)
    qtbot.addWidget(dialog)
    assert "12 nodes, 96 GPUs → 2 tier(s): 8 leaf, 4 spine, 0 core" in dialog.summary.text()
    dialog.placement.setCurrentIndex(dialog.placement.findData("end"))
    dialog.accept()
    doc = session.doc
    assert len(doc.links_in("compute")) == 96 + 256
    # … and every other network in the same step: 24 storage (12 nodes × 2 storage ports, one
    # storage leaf so no uplinks), 26 in-band (24 node ports + 2 uplinks to the aggregation
    # pair), 66 out-of-band (58 device management ports + 8 uplinks), 24 hoses (12 nodes ×
    # supply and return) and 164 cords (12 nodes × 10 PSUs + 22 switches × 2 PSUs)
    by_network = {network: len(doc.links_in(network)) for network in
                  ("compute", "storage", "inband", "oob", "coolant", "power")}
    assert by_network == {"compute": 352, "storage": 24, "inband": 26, "oob": 66, "coolant": 24, "power": 164}
    assert len(doc.links) == sum(by_network.values()) == 656
    assert session.undo_stack.count() == 1
    new_racks = set(doc.racks) - racks_before
    assert len(new_racks) == 1  # the network rack, added at the row end
    (rack_id,) = new_racks
    assert doc.racks[rack_id].x > max(doc.racks[r].x for r in racks_before)
    assert window.cable_dock.model.rowCount() == 656  # the dock lists every network
    session.undo_stack.undo()
    assert not session.doc.links and set(session.doc.racks) == racks_before
    assert window.cable_dock.model.rowCount() == 0
    session.undo_stack.redo()
    assert window.cable_dock.model.rowCount() == 656


def test_generate_refusal_stays_in_dialog(qtbot):
    from planner.model.document import Document

    session = DocumentSession(Document())
    dialog = GenerateFabricDialog(session)
    qtbot.addWidget(dialog)
    dialog.accept()
    assert "no GPU nodes" in dialog.error.text()
    assert session.undo_stack.count() == 0


def test_regenerating_an_unchanged_plan_says_so_and_changes_nothing(qtbot, pod_text):
    session = DocumentSession(loads(pod_text))
    dialog = GenerateFabricDialog(session)
    qtbot.addWidget(dialog)
    dialog.confirm = lambda cables: pytest.fail("nothing to confirm")
    before = dict(session.doc.links)
    dialog.accept()
    # every network kept whole, with its count: 352 compute (96 node-leaf + 256 leaf-spine), then the others
    doc = session.doc
    counts = [len(doc.links_in(network)) for network in ("storage", "inband", "oob", "power", "coolant")]
    assert dialog.error.text() == (
        f"Nothing to change: the plan already has this fabric and every other network ({POD_CABLES:,} cables "
        f"kept: 352 compute, {counts[0]} storage, {counts[1]} in-band management, {counts[2]} out-of-band "
        f"management, {counts[3]} power, {counts[4]} coolant).")
    assert 352 + sum(counts) == POD_CABLES and all(counts)
    assert session.doc.links == before and len(before) == POD_CABLES
    assert session.undo_stack.count() == 0 and not session.doc.is_modified if hasattr(session.doc, "is_modified") \
        else session.undo_stack.count() == 0


def test_a_generation_that_undoes_installed_work_asks_first(qtbot, pod_text):
    """Another switch type re-plugs the node cables and drops the switch-to-switch ones: with
    cables verified, the dialog shows the numbers and applies only when the user says so."""
    doc = loads(pod_text)
    for link_id in doc.links:
        doc.set_fields(link_id, {"state": "verified"})
    session = DocumentSession(doc)
    dialog = GenerateFabricDialog(session)
    qtbot.addWidget(dialog)
    dialog.switch.setCurrentIndex(dialog.switch.findData("sw-64x800g-2u-eth"))
    asked = []
    dialog.confirm = lambda command: asked.append((summary(command), refusal(command))) and False
    dialog.accept()
    assert session.undo_stack.count() == 0 and {l.state for l in doc.links.values()} == {"verified"}
    ((lines, risk),) = asked
    # the compute fabric's line comes first; the other networks follow it
    assert lines[0] == "cables: kept 0, rewired 96 (96 past planned), removed 256 (256 verified), added 0"
    assert [line.split(":")[0] for line in lines[1:]] == ["storage", "inband", "oob", "coolant", "power"]
    assert risk.startswith("352 cable(s) already past planned would be removed or rewired")
    dialog.confirm = lambda command: True
    dialog.accept()
    compute = doc.links_in("compute")
    assert session.undo_stack.count() == 1 and len(compute) == 96
    assert {l.state for l in compute.values()} == {"planned"}
    session.undo_stack.undo()
    assert len(doc.links_in("compute")) == 352 and len(doc.links) == POD_CABLES
    assert {l.state for l in doc.links.values()} == {"verified"}


def test_cable_list_sort_filter_and_select_highlights_route(qtbot, pod_text):
    session = DocumentSession(loads(pod_text))
    win = MainWindow(session)
    qtbot.addWidget(win)
    dock = win.cable_dock
    assert dock.count.text() == f"{POD_CABLES} cables"
    dock.table.sortByColumn(LENGTH, Qt.DescendingOrder)  # longest first
    lengths = [float(dock.model.index(r, LENGTH).data()) for r in range(dock.model.rowCount())]
    assert lengths == sorted(lengths, reverse=True)
    spine = next(d for d in session.doc.devices.values() if d.role == "spine")
    dock.filter.setText(f"leaf-spine {session.doc.racks[spine.rack].name}")
    assert dock.count.text() == f"256 of {POD_CABLES} cables"
    dock.filter.setText("")
    longest = dock.model.index(0, 0).data(Qt.UserRole)
    dock.table.selectRow(0)
    link = session.doc.links[longest]
    expected = route_on_tray(route(session.doc, link).polyline)
    assert win.plan_view._route is not None
    path = win.plan_view._route.path()
    assert path.elementCount() == len(expected)
    first = path.elementAt(0)
    assert (round(first.x / 100, 3), round(first.y / 100, 3)) == tuple(round(v, 3) for v in expected[0])
    dock.select_link("link-3")
    assert dock.selected_link() == "link-3"


def test_cable_layer_by_tier_and_rail(qtbot, pod_text):
    session = DocumentSession(loads(pod_text))
    win = MainWindow(session)
    qtbot.addWidget(win)
    layer = win.cable_layer
    assert layer.scene() is win.plan_view.plan_scene
    counts = layer.visible_counts()
    # the compute rails, and rail 0: the storage and management networks' cables (no rails; the
    # pod has no core tier)
    assert set(counts) == set(range(9))
    for network in ("storage", "inband", "oob"):
        layer.set_network_visible(network, False)
    counts = layer.visible_counts()
    assert set(counts) == set(range(1, 9))
    layer.set_tier_visible("leaf-spine", False)
    layer.set_rail_visible(3, False)
    counts = layer.visible_counts()
    assert 3 not in counts and set(counts) == {1, 2, 4, 5, 6, 7, 8}
    assert len(layer.segments) < len(session.doc.links)  # bundled, not one item per cable


def test_new_from_template_dialog(qtbot):
    dialog = TemplateDialog()
    qtbot.addWidget(dialog)
    dialog.template.setCurrentIndex(dialog.template.findData("pod"))
    assert dialog.nodes.maximum() == 32 and dialog.rack_kw.value() == 48.0
    dialog.nodes.setValue(16)
    dialog.accept()
    doc = dialog.document()
    assert doc is not None and len(doc.links_in("compute")) == 16 * 8 + 256
    dialog = TemplateDialog()
    qtbot.addWidget(dialog)
    dialog.template.setCurrentIndex(dialog.template.findData("hall"))
    dialog.rack_kw.setValue(100)
    dialog.accept()
    assert "tap-off" in dialog.error.text() and dialog.document() is None


def test_editing_a_link_updates_its_row(qtbot, pod_text):
    from planner.commands import SetFields

    session = DocumentSession(loads(pod_text))
    win = MainWindow(session)
    qtbot.addWidget(win)
    dock = win.cable_dock
    dock.table.sortByColumn(LENGTH, Qt.AscendingOrder)
    session.push(SetFields({"link-1": {"length_m": 99.0, "media": "dr4", "stock_m": 100.0}}))
    row = dock.model.row_of("link-1")
    assert dock.model.index(row, LENGTH).data() == "99.00" and dock.model.index(row, MEDIA).data() == "dr4"
    dock.table.sortByColumn(LENGTH, Qt.DescendingOrder)
    assert dock.model.index(0, 0).data(Qt.UserRole) == "link-1"


def test_renaming_a_device_patches_only_its_cables(qtbot, pod_text):
    from planner.commands import SetFields

    session = DocumentSession(loads(pod_text))
    win = MainWindow(session)
    qtbot.addWidget(win)
    model = win.cable_dock.model
    resets = []
    model.modelReset.connect(lambda: resets.append(1))
    node = next(d for d in session.doc.devices.values() if d.type.startswith("node"))
    own = session.doc.link_ids_of(node.id)
    session.push(SetFields({node.id: {"name": "GPU-A"}}))
    assert not resets  # patched in place, not rebuilt
    texts = {model.index(model.row_of(link_id), 1).data() + model.index(model.row_of(link_id), 2).data()
             for link_id in own}
    # its 8 compute cables and its 17 others: 2 storage, 2 in-band, 1 out-of-band, 2 hoses, 10 cords
    networks = sorted(network_of(session.doc.links[link_id]) for link_id in own)
    assert networks.count("compute") == 8 and len(own) == 8 + 17
    assert all("GPU-A" in text for text in texts)
    other = next(i for i in session.doc.links if i not in own)
    assert "GPU-A" not in model.index(model.row_of(other), 1).data()
