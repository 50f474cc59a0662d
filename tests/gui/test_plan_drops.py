"""Drags from the palette onto the plan, through synthetic drag-enter/move/drop events."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QByteArray, QCoreApplication, QMimeData, QPointF, QRectF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent, QDropEvent

from planner.commands import AddCatalogItem
from planner.model.catalog import CatalogItem
from planner.ui.plan.palette import PaletteWidget
from planner.ui.plan.units import snap_m, to_scene
from planner.ui.plan.view import MIME_TYPE, PlanView
from planner.ui.session import DocumentSession

# Qt 6 offers only the QPoint constructors of drag events, which PySide6 flags as deprecated.
pytestmark = pytest.mark.filterwarnings("ignore:Function.*QDrag.*Event:DeprecationWarning")

NODE = "node-8gpu-liquid-4u"
BIG_NODE = "node-8gpu-10u"


@pytest.fixture
def session(example_doc):
    return DocumentSession(example_doc)


@pytest.fixture
def view(make_view, session):
    return make_view(session)


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
    custom = CatalogItem(key="custom-node", kind="node", name="Lab node 6U", height_u=6, width_m=0.48, depth_m=0.9,
                         weight_kg=90, power_w=9000, gpus=8, port_cages=8, port_speed_gbps=400, custom=True)
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
    x, y = view.plan_scene.free_spot(1.2, 1.8)
    assert drop(view, palette_mime(palette, NODE), x + 0.05, y - 0.05)
    (rack_id,) = set(doc.racks) - racks_before
    rack = doc.racks[rack_id]
    default = doc.catalog.default_rack()
    assert rack.type == default.key
    # the 0.6 × 1.2 m footprint's corner snaps to the tile grid
    corner = (snap_m(x + 0.05 - default.width_m / 2), snap_m(y - 0.05 - default.depth_m / 2))
    assert doc.rack_bounds(rack)[:2] == pytest.approx(corner)
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
    rack = doc.racks["rack-1"]
    before = {d.id for d in doc.devices_in("rack-1")}
    lowest = doc.lowest_free_u("rack-1", doc.catalog[NODE].height_u)
    assert drop(view, palette_mime(palette, NODE), rack.x, rack.y + 0.1)
    (added,) = [d for d in doc.devices_in("rack-1") if d.id not in before]
    assert added.type == NODE and added.u == lowest
    session.undo_stack.undo()
    assert {d.id for d in doc.devices_in("rack-1")} == before
    session.undo_stack.redo()
    assert added.id in doc.devices


def test_device_that_does_not_fit_is_refused_with_a_message(view, palette, session, qtbot):
    doc = session.doc
    rack = doc.racks["rack-1"]
    mime = palette_mime(palette, BIG_NODE)
    height = doc.catalog[BIG_NODE].height_u
    while doc.lowest_free_u("rack-1", height) is not None:
        drop(view, mime, rack.x, rack.y)
    count = session.undo_stack.count()
    with qtbot.waitSignal(view.status_message) as blocker:
        drop(view, mime, rack.x, rack.y)
    assert f"does not fit in {rack.name}" in blocker.args[0]
    assert session.undo_stack.count() == count


def test_rack_cdu_and_cabinet_snap_to_tiles(view, palette, session):
    doc = session.doc
    scene = view.plan_scene
    x, y = scene.free_spot(1.6, 1.8)
    drop(view, palette_mime(palette, "rack-800x1200-52u"), x + 0.13, y + 0.07)
    rack = doc.racks[next(iter(session.selection))]
    # corner (x + 0.13 − 0.4, y + 0.07 − 0.6) snapped to the tile lines
    assert doc.rack_bounds(rack)[:2] == pytest.approx((snap_m(x - 0.27), snap_m(y - 0.53)))
    existing = {u.name for u in doc.floor_units.values()}
    x, y = scene.free_spot(1.2, 1.8)
    drop(view, palette_mime(palette, "cdu-row-800kw"), x, y)
    unit = doc.floor_units[next(iter(session.selection))]
    assert unit.type == "cdu-row-800kw" and unit.name.startswith("CDU-") and unit.name not in existing
    x, y = scene.free_spot(1.2, 1.2)
    drop(view, palette_mime(palette, "cabinet-630a"), x, y)
    assert doc.floor_units[next(iter(session.selection))].name.startswith("PDC-")
    view.set_snap_enabled(False)
    x, y = scene.free_spot(1.2, 1.8)
    drop(view, palette_mime(palette, "rack-600x1200-48u"), x + 0.07, y + 0.07)
    rack = doc.racks[next(iter(session.selection))]
    tolerance = 2 / view.pixels_per_m()
    assert (rack.x, rack.y) == pytest.approx((x + 0.07, y + 0.07), abs=tolerance)


def test_busbar_drop_alternates_sides(view, palette, session):
    doc = session.doc
    sides = [b.side for b in doc.busbars.values()]
    x, y = view.plan_scene.free_spot(1.2, 1.2)
    drop(view, palette_mime(palette, "busbar-400a"), x + 0.1, y - 0.1)
    first = doc.busbars[next(iter(session.selection))]
    # a new run goes on the side with fewer runs (A on a tie), 7.2 m long from the snapped drop point
    assert first.side == ("B" if sides.count("A") > sides.count("B") else "A")
    assert (first.x1, first.y1, first.x2) == pytest.approx((snap_m(x + 0.1), snap_m(y - 0.1), snap_m(x + 0.1) + 7.2))
    drop(view, palette_mime(palette, "busbar-400a"), x + 0.1, y + 0.5)
    second = doc.busbars[next(iter(session.selection))]
    if sides.count("A") == sides.count("B"):
        assert second.side == "B"


def test_foreign_drags_are_ignored(view, session):
    mime = QMimeData()
    mime.setText("rack-600x1200-48u")
    assert not drop(view, mime, 14.0, 10.0)
    other = QMimeData()
    other.setData(MIME_TYPE, QByteArray(b"no-such-type"))
    drop(view, other, 14.0, 10.0)
    assert session.undo_stack.count() == 0


def test_drag_over_previews_the_drop(view, palette, session, qtbot):
    doc = session.doc
    rack = doc.racks["rack-1"]
    mime = palette_mime(palette, NODE)
    point = view.mapFromScene(to_scene(rack.x, rack.y))
    viewport = view.viewport()
    QCoreApplication.sendEvent(viewport, QDragEnterEvent(point, Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    with qtbot.waitSignal(view.status_message) as blocker:
        QCoreApplication.sendEvent(viewport, QDragMoveEvent(point, Qt.CopyAction, mime, Qt.LeftButton,
                                                            Qt.NoModifier))
    lowest = doc.lowest_free_u("rack-1", doc.catalog[NODE].height_u)
    assert blocker.args[0].endswith(f"→ {rack.name} U{lowest}")
    x0, y0, x1, y1 = doc.rack_bounds(rack)
    assert view.preview.boundingRect().contains(QRectF(to_scene(x0, y0), to_scene(x1, y1)))
    QCoreApplication.sendEvent(viewport, QDragLeaveEvent())
    assert view.preview.boundingRect().width() < 50  # nothing but the item's margin left
    assert session.undo_stack.count() == 0


def test_a_rack_dropped_beside_a_rows_end_joins_that_row(view, palette, session):
    """The example's row 1 runs from R01 (x 3.6) to R09 (ends at x 10.8), y 2.4–3.6. A 0.6 m rack
    dropped just east of R09 snaps to x 10.8–11.4, touching it in line: it takes row "1"."""
    doc = session.doc
    end = max(doc.racks.values(), key=lambda r: r.x)
    assert end.row == "1" and doc.rack_bounds(end)[2] == pytest.approx(10.8)
    assert drop(view, palette_mime(palette, "rack-600x1200-48u"), 11.1 + 0.05, end.y + 0.05)
    rack = doc.racks[next(iter(session.selection))]
    assert doc.rack_bounds(rack)[0] == pytest.approx(10.8) and rack.y == pytest.approx(end.y)
    assert rack.row == "1" and rack.feed_a is rack.feed_b is rack.cdu is None
    assert session.undo_stack.text(session.undo_stack.count() - 1) == f"Add rack {rack.name} to row 1"
    session.undo_stack.undo()
    assert rack.id not in doc.racks
    # a node dropped there comes in a new rack of that row too
    assert drop(view, palette_mime(palette, NODE), 11.1, end.y)
    (rack_id,) = {i for i in session.selection}
    assert doc.racks[rack_id].row == "1"
    session.undo_stack.undo()
    # a rack dropped a tile away from the row's line stays on its own
    assert drop(view, palette_mime(palette, "rack-600x1200-48u"), 11.1, end.y + 1.8)
    assert doc.racks[next(iter(session.selection))].row == ""
