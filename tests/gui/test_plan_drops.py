"""Drags from the palette onto the plan, through synthetic drag-enter/move/drop events."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, QCoreApplication, QMimeData, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent

from planner.commands import AddCatalogItem
from planner.model.catalog import CatalogItem
from planner.ui.plan.palette import PaletteWidget
from planner.ui.plan.units import to_scene
from planner.ui.plan.view import MIME_TYPE, PlanView
from planner.ui.session import DocumentSession

NODE = "node-8gpu-liquid-4u"
BIG_NODE = "node-8gpu-10u"


@pytest.fixture
def session(example_doc):
    return DocumentSession(example_doc)


@pytest.fixture
def view(qtbot, session):
    plan = PlanView(session)
    qtbot.addWidget(plan)
    plan.resize(1000, 700)
    plan.show()
    qtbot.waitExposed(plan)
    plan.fit_to_hall()
    return plan


@pytest.fixture
def palette(qtbot, session):
    widget = PaletteWidget(session)
    qtbot.addWidget(widget)
    return widget


def palette_mime(palette: PaletteWidget, key: str) -> QMimeData:
    """The mime data the palette's own drag would carry for ``key``."""
    tree = palette.tree
    for g in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(g)
        for c in range(group.childCount()):
            if group.child(c).data(0, Qt.UserRole + 1) == key:
                return tree.mimeData([group.child(c)])
    raise KeyError(key)


def drop(view: PlanView, mime: QMimeData, x_m: float, y_m: float) -> bool:
    """Send enter, move and drop at (x, y) metres; True when the view accepted the drag."""
    point = QPointF(view.mapFromScene(to_scene(x_m, y_m)))
    viewport = view.viewport()
    enter = QDragEnterEvent(point.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QCoreApplication.sendEvent(viewport, enter)
    if not enter.isAccepted():
        return False
    move = QDragMoveEvent(point.toPoint(), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QCoreApplication.sendEvent(viewport, move)
    event = QDropEvent(point, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier)
    QCoreApplication.sendEvent(viewport, event)
    return event.isAccepted()


def test_palette_groups_icons_and_filter(palette):
    tree = palette.tree
    groups = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount())]
    assert groups == ["Racks", "GPU nodes", "Switches", "Cooling", "Power", "Storage"]
    assert not tree.topLevelItem(1).child(0).icon(0).isNull()
    palette.filter_edit.setText("liquid 4u")
    assert palette.type_keys(visible_only=True) == [NODE]
    palette.filter_edit.setText("")
    assert len(palette.type_keys(visible_only=True)) == len(palette.session.doc.catalog.items)


def test_palette_lists_custom_types_and_follows_undo(palette, session):
    custom = CatalogItem(key="custom-node", kind="node", name="Lab node 6U", height_u=6,
                         weight_kg=90, power_w=9000, gpus=8, custom=True)
    session.push(AddCatalogItem(custom))
    assert "custom-node" in palette.type_keys()
    session.undo_stack.undo()
    assert "custom-node" not in palette.type_keys()


def test_palette_drag_carries_the_catalogue_key(palette):
    mime = palette_mime(palette, NODE)
    assert bytes(mime.data(MIME_TYPE)).decode() == NODE


def test_node_on_empty_floor_makes_a_rack_in_one_step(view, palette, session):
    doc = session.doc
    racks_before = set(doc.racks)
    assert drop(view, palette_mime(palette, NODE), 14.05, 9.95)
    (rack_id,) = set(doc.racks) - racks_before
    rack = doc.racks[rack_id]
    assert rack.type == doc.catalog.default_rack().key
    # 0.6 × 1.2 m default rack: corner (13.75, 9.35) snaps to (13.8, 9.6)
    assert (rack.x, rack.y) == pytest.approx((14.1, 10.2))
    (device,) = doc.devices_in(rack_id)
    assert device.type == NODE and device.u == 1
    assert session.undo_stack.count() == 1
    assert view.plan_scene.item_for(rack_id) is not None
    session.undo_stack.undo()
    assert set(doc.racks) == racks_before and device.id not in doc.devices
    assert view.plan_scene.item_for(rack_id) is None
    session.undo_stack.redo()
    assert rack_id in doc.racks and device.id in doc.devices


def test_node_on_a_rack_goes_to_the_lowest_free_units(view, palette, session):
    doc = session.doc
    assert drop(view, palette_mime(palette, NODE), 2.8, 4.9)
    added = [d for d in doc.devices_in("rack-1") if d.type == NODE]
    assert [d.u for d in added] == [1, 5, 9, 13, 17]
    session.undo_stack.undo()
    assert [d.u for d in doc.devices_in("rack-1") if d.type == NODE] == [1, 5, 9, 13]
    session.undo_stack.redo()
    assert len(doc.devices_in("rack-1")) == 6


def test_device_that_does_not_fit_is_refused_with_a_message(view, palette, session, qtbot):
    mime = palette_mime(palette, BIG_NODE)
    for _ in range(3):  # 52U rack, 16U used: three 10U nodes fit (U17–U46)
        drop(view, mime, 2.8, 4.9)
    count = session.undo_stack.count()
    with qtbot.waitSignal(view.status_message) as blocker:
        drop(view, mime, 2.8, 4.9)
    assert "does not fit in R01" in blocker.args[0]
    assert session.undo_stack.count() == count


def test_rack_cdu_and_cabinet_snap_to_tiles(view, palette, session):
    doc = session.doc
    drop(view, palette_mime(palette, "rack-800x1200-52u"), 20.13, 8.07)
    rack = doc.racks[next(iter(session.selection))]
    # corner (19.73, 7.47) → (19.8, 7.2); centre 0.4, 0.6 further
    assert (rack.x, rack.y) == pytest.approx((20.2, 7.8))
    drop(view, palette_mime(palette, "cdu-row-800kw"), 22.0, 8.0)
    unit = doc.floor_units[next(iter(session.selection))]
    assert unit.type == "cdu-row-800kw" and unit.name == "CDU-02"
    drop(view, palette_mime(palette, "cabinet-630a"), 24.0, 14.0)
    assert doc.floor_units[next(iter(session.selection))].name == "PDC-01"
    view.set_snap_enabled(False)
    drop(view, palette_mime(palette, "rack-600x1200-48u"), 15.5, 15.5)
    rack = doc.racks[next(iter(session.selection))]
    tolerance = 2 / view.pixels_per_m()
    assert (rack.x, rack.y) == pytest.approx((15.5, 15.5), abs=tolerance)


def test_busbar_drop_alternates_sides(view, palette, session):
    doc = session.doc
    drop(view, palette_mime(palette, "busbar-400a"), 12.1, 7.9)
    bus = doc.busbars[next(iter(session.selection))]
    # the example has one A and one B run: a new run starts on side A
    assert bus.side == "A" and (bus.x1, bus.y1, bus.x2) == pytest.approx((12.0, 7.8, 19.2))
    drop(view, palette_mime(palette, "busbar-400a"), 12.1, 9.1)
    assert doc.busbars[next(iter(session.selection))].side == "B"


def test_foreign_drags_are_ignored(view, session):
    mime = QMimeData()
    mime.setText("rack-600x1200-48u")
    assert not drop(view, mime, 14.0, 10.0)
    other = QMimeData()
    other.setData(MIME_TYPE, QByteArray(b"no-such-type"))
    drop(view, other, 14.0, 10.0)
    assert session.undo_stack.count() == 0
