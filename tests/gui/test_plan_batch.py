"""Zoomed out, racks and floor units are drawn by one batch item instead of one paint call each
(issue 9): the plan must look the same, follow selection, finding marks and drags, and an export
rendered at any scale must still show every item's own drawing (names included)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsItem

from planner.layout.templates import build_template
from planner.ui.plan import canvas as plan_canvas
from planner.ui.plan import items as plan_items
from planner.ui.plan.items import SELECTION_COLOUR, SEVERITY_COLOURS, FootprintItem
from planner.ui.plan.overlays import BATCH_BELOW_LOD
from planner.ui.plan.units import to_scene


def zoomed_out(make_view):
    """A view of a 256-node template hall, fitted: far below the level of detail where names show."""
    view = make_view(build_template("hall", 256), size=(700, 600))
    assert view.pixels_per_m() / 100 < BATCH_BELOW_LOD
    return view


def footprints(scene) -> list[FootprintItem]:
    return [i for i in scene.plan_items() if isinstance(i, FootprintItem)]


def differing(a: QImage, b: QImage) -> int:
    return sum(a.pixel(x, y) != b.pixel(x, y) for y in range(a.height()) for x in range(a.width()))


def test_zoomed_out_the_batch_draws_what_the_items_would(make_view, monkeypatch):
    view = zoomed_out(make_view)
    scene = view.plan_scene
    racks = sorted(scene.session.doc.racks, key=lambda r: int(r.split("-")[1]))
    scene.set_findings({racks[3]: "error", racks[10]: "warning"})
    view.session.select({racks[20]})
    batched = view.grab().toImage()
    assert scene.footprints.active
    assert all(i.flags() & QGraphicsItem.ItemHasNoContents for i in footprints(scene))
    monkeypatch.setattr(plan_canvas, "BATCH_BELOW_LOD", 0.0)  # every item paints itself
    itemised = view.grab().toImage()
    assert not scene.footprints.active
    assert not any(i.flags() & QGraphicsItem.ItemHasNoContents for i in footprints(scene))
    assert differing(batched, itemised) < batched.width() * batched.height() // 500


def test_selection_marks_and_drags_show_zoomed_out(make_view, count_colour):
    view = zoomed_out(make_view)
    scene, doc = view.plan_scene, view.session.doc
    rack = doc.racks[sorted(doc.racks, key=lambda r: int(r.split("-")[1]))[12]]
    item = scene.item_for(rack.id)
    centre = view.mapFromScene(to_scene(rack.x, rack.y))
    QTest.mouseClick(view.viewport(), Qt.LeftButton, Qt.NoModifier, centre)
    assert view.session.selection == {rack.id}  # picked by its shape, though it paints nothing

    def area():
        return view.mapFromScene(item.sceneBoundingRect()).boundingRect().adjusted(-2, -2, 2, 2)

    assert count_colour(view.grab().toImage(), area(), SELECTION_COLOUR) > 10
    view.session.select(set())
    scene.set_findings({rack.id: "error"})
    assert count_colour(view.grab().toImage(), area(), SEVERITY_COLOURS["error"]) > 10
    scene.set_findings({})
    assert count_colour(view.grab().toImage(), area(), SEVERITY_COLOURS["error"]) == 0
    # a drag displaces the item as a preview: the batch draws it where it is dragged
    x0 = rack.x
    start = view.grab().toImage()
    far = centre + (centre - view.mapFromScene(to_scene(rack.x - 3.0, rack.y)))
    QTest.mousePress(view.viewport(), Qt.LeftButton, Qt.NoModifier, centre)
    for k in range(1, 7):
        QTest.mouseMove(view.viewport(), centre + (far - centre) * (k / 6))
    dragged = view.grab().toImage()
    assert count_colour(dragged, area(), SELECTION_COLOUR) > 10
    assert differing(start, dragged) > 0
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, Qt.NoModifier, far)
    assert doc.racks[rack.id].x == pytest.approx(x0 + 3.0, abs=0.35)


def test_an_export_render_draws_each_item_whatever_the_view_zoom(make_view, monkeypatch):
    view = zoomed_out(make_view)
    scene = view.plan_scene
    view.grab()
    assert scene.footprints.active
    labelled: list[str] = []
    original = plan_items.RackItem.paint_labels
    monkeypatch.setattr(plan_items.RackItem, "paint_labels",
                        lambda self, painter, lod: labelled.append(self.obj_id) or original(self, painter, lod))
    rack = next(iter(scene.session.doc.racks.values()))
    source = QRectF(to_scene(rack.x - 1.0, rack.y - 1.0), to_scene(rack.x + 1.0, rack.y + 1.0))
    image = QImage(800, 800, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 800, 800), source)
    painter.end()
    assert rack.id in labelled  # at 4 px per cm the rack's own paint wrote its name
    assert scene.footprints.active  # and the view is back to the batch
