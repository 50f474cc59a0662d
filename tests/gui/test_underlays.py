"""Drawings under the plan in the main window: import, draw below everything, take a DXF's outline
and columns, scale an image by two real clicks, drag, hide/dim/lock, a missing file, Save as…"""

from __future__ import annotations

import math
from pathlib import Path

import ezdxf
import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from planner.commands.underlays import add_underlay, to_plan
from planner.io import load, save
from planner.model.document import Document
from planner.model.objects import Zone
from planner.ui.dialogs.underlay import ScaleDialog
from planner.ui.main_window import MainWindow
from planner.ui.plan.units import to_scene
from planner.ui.session import DocumentSession
from planner.ui.underlay.attach import import_drawing, use_outline
from planner.ui.underlay.layer import Z_UNDERLAY


def hall_doc(outline: bool = True) -> Document:
    doc = Document()
    if outline:
        doc.outline = [(0.0, 0.0), (36.0, 0.0), (36.0, 24.0), (0.0, 24.0)]
        doc.add(Zone(id="zone-1", name="Floor", polygon=list(doc.outline)))
    return doc


def architect_dxf(path: Path) -> Path:
    """36 × 24 m in millimetres, its south-west corner at (250 m, 100 m); three columns."""
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 4
    msp = doc.modelspace()
    msp.add_lwpolyline([(250_000, 100_000), (286_000, 100_000), (286_000, 124_000), (250_000, 124_000)],
                       close=True, dxfattribs={"layer": "A-WALL"})
    for x in (256_000, 268_000):
        msp.add_circle((x, 112_000), 300, dxfattribs={"layer": "S-COLS"})
    msp.add_lwpolyline([(279_700, 111_700), (280_300, 111_700), (280_300, 112_300), (279_700, 112_300)],
                       close=True, dxfattribs={"layer": "S-COLS"})
    msp.add_text("DATA HALL", dxfattribs={"height": 600, "insert": (251_000, 101_000)})
    doc.saveas(path)
    return path


def scan_png(path: Path) -> Path:
    """An 800 × 600 scan with a dimension line from pixel (100, 550) to (700, 550)."""
    image = QImage(800, 600, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setPen(QPen(QColor("black"), 4))
    painter.drawRect(100, 100, 600, 400)
    painter.drawLine(100, 550, 700, 550)
    painter.end()
    assert image.save(str(path))
    return path


@pytest.fixture
def open_plan(qtbot):
    """Factory: a shown MainWindow on a plan file (so drawings resolve beside it)."""
    def make(path: Path) -> MainWindow:
        window = MainWindow(DocumentSession(load(path)), path)
        qtbot.addWidget(window, before_close_func=lambda w: w.session.undo_stack.setClean())
        window.resize(1400, 900)
        window.show()
        qtbot.waitExposed(window)
        window.plan_view.fit_to_hall()
        return window

    return make


def saved(doc: Document, path: Path) -> Path:
    save(doc, path)
    return path


def view_point(window: MainWindow, x: float, y: float) -> QPoint:
    return window.plan_view.mapFromScene(to_scene(x, y))


def test_dxf_imported_under_everything_and_its_outline_taken(open_plan, tmp_path, monkeypatch):
    source = architect_dxf(tmp_path / "hall.dxf")
    window = open_plan(saved(hall_doc(outline=False), tmp_path / "plan.hall"))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(source), "")))
    window.import_drawing_action.trigger()
    doc = window.session.doc
    under = next(iter(doc.underlays.values()))
    assert (under.path, under.kind, under.scale, under.locked) == ("hall.dxf", "dxf", 0.001, True)
    item = window.underlay_layer.items[under.id]
    assert item.missing == "" and item.zValue() == Z_UNDERLAY
    # the north-west corner of the drawing's outline lies on the plan's origin
    assert item.mapToScene(250_000, 124_000).toPoint() == QPoint(0, 0)
    assert window.underlay_panel.list.count() == 1

    assert use_outline(window, under.id, layers=(None, None))
    assert sorted(doc.outline) == [(0.0, 0.0), (0.0, 24.0), (36.0, 0.0), (36.0, 24.0)]
    assert len(doc.obstacles) == 3 and len(doc.zones) == 1
    assert all(item.zValue() < plan_item.zValue() for plan_item in window.plan_view.plan_scene.plan_items())
    window.grab().save(str(tmp_path / "dxf-underlay.png"))  # for a person to look at
    window.session.undo_stack.undo()
    assert doc.outline == [] and not doc.obstacles and not doc.zones


def test_underlay_is_drawn_and_hidden_dimmed_locked_from_the_panel(open_plan, tmp_path):
    scan = scan_png(tmp_path / "scan.png")
    window = open_plan(saved(hall_doc(), tmp_path / "plan.hall"))
    ul_id = import_drawing(window, str(scan))
    doc, stack, panel = window.session.doc, window.session.undo_stack, window.underlay_panel
    item = window.underlay_layer.items[ul_id]
    shown = window.plan_view.grab().toImage()
    row = panel.list.item(0)
    row.setCheckState(Qt.CheckState.Unchecked)
    assert not doc.underlays[ul_id].visible and not item.isVisible()
    assert stack.undoText() == "Hide drawing scan.png"
    hidden = window.plan_view.grab().toImage()
    assert shown != hidden  # the scan's frame and line were on screen
    stack.undo()
    assert item.isVisible()

    panel.opacity.setValue(20)
    assert doc.underlays[ul_id].opacity == 0.2 and item.opacity() == pytest.approx(0.2)
    panel.lock.setChecked(True)
    assert doc.underlays[ul_id].locked and item.acceptedMouseButtons() == Qt.MouseButton.NoButton
    stack.undo()
    stack.undo()
    assert doc.underlays[ul_id].opacity == 0.5 and not doc.underlays[ul_id].locked
    assert item.acceptedMouseButtons() == Qt.MouseButton.LeftButton
    panel.buttons["remove"].click()
    assert not doc.underlays and ul_id not in window.underlay_layer.items and panel.list.count() == 0
    stack.undo()
    assert ul_id in window.underlay_layer.items and panel.list.count() == 1


def _answer_scale_dialog(distance_m: float) -> None:
    """Type the distance into the scale dialog once it is up, and press Scale."""
    def answer() -> None:
        dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, ScaleDialog) and w.isVisible()]
        if not dialogs:
            QTimer.singleShot(10, answer)
            return
        dialogs[0].distance.setValue(distance_m)
        dialogs[0].accept()

    QTimer.singleShot(0, answer)


def test_two_point_scale_through_real_clicks(open_plan, tmp_path):
    window = open_plan(saved(hall_doc(), tmp_path / "plan.hall"))
    ul_id = import_drawing(window, str(scan_png(tmp_path / "scan.png")))
    doc = window.session.doc
    under = doc.underlays[ul_id]
    assert under.scale == pytest.approx(36.0 / 800)  # fitted to the hall's width
    ends = [to_plan(under, 100.0, 550.0), to_plan(under, 700.0, 550.0)]
    window.underlay_panel.buttons["scale"].click()
    viewport = window.plan_view.viewport()
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view_point(window, *ends[0]))
    QTest.mouseMove(viewport, view_point(window, *ends[1]))
    _answer_scale_dialog(15.0)
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view_point(window, *ends[1]))
    under = doc.underlays[ul_id]
    measured = math.dist(to_plan(under, 100.0, 550.0), to_plan(under, 700.0, 550.0))
    # a click lands on a whole pixel: half a pixel at each end, about 0.2 % over the 486 px clicked
    assert measured == pytest.approx(15.0, rel=0.005)
    assert window.session.undo_stack.undoText().startswith("Scale drawing scan.png")
    assert not doc.racks and not doc.obstacles  # the clicks went to the tool, not the plan
    window.session.undo_stack.undo()
    assert doc.underlays[ul_id].scale == pytest.approx(36.0 / 800)


def test_unlocked_drawing_dragged_in_one_step_locked_one_stays(open_plan, tmp_path):
    window = open_plan(saved(hall_doc(), tmp_path / "plan.hall"))
    ul_id = import_drawing(window, str(scan_png(tmp_path / "scan.png")))
    doc, stack = window.session.doc, window.session.undo_stack
    viewport = window.plan_view.viewport()

    def drag(start: tuple[float, float], end: tuple[float, float]) -> None:
        p0, p1 = view_point(window, *start), view_point(window, *end)
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p0)
        for k in range(1, 7):
            QTest.mouseMove(viewport, p0 + (p1 - p0) * (k / 6))
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p1)

    before, steps = (doc.underlays[ul_id].x, doc.underlays[ul_id].y), stack.count()
    drag((12.0, 10.0), (15.0, 12.0))
    under = doc.underlays[ul_id]
    pixel = 1 / window.plan_view.pixels_per_m()
    assert under.x - before[0] == pytest.approx(3.0, abs=2 * pixel)
    assert under.y - before[1] == pytest.approx(2.0, abs=2 * pixel)
    assert stack.count() == steps + 1 and stack.undoText() == "Move drawing scan.png"
    stack.undo()
    assert (doc.underlays[ul_id].x, doc.underlays[ul_id].y) == before

    window.underlay_panel.lock.setChecked(True)
    drag((12.0, 10.0), (15.0, 12.0))
    assert (doc.underlays[ul_id].x, doc.underlays[ul_id].y) == before


def test_missing_drawing_does_not_stop_the_plan_opening(open_plan, tmp_path, monkeypatch):
    doc = hall_doc()
    doc.add(add_underlay(doc, "drawings/gone.png", "image", scale=0.05).objects[0])
    path = saved(doc, tmp_path / "plan.hall")
    window = open_plan(path)
    assert window.session.doc.outline  # the plan opened
    under = next(iter(window.session.doc.underlays.values()))
    item = window.underlay_layer.items[under.id]
    assert item.missing == "file missing"
    assert not item.boundingRect().isEmpty()  # a labelled empty frame around the hall
    panel = window.underlay_panel
    assert "file missing" in panel.state.text() and "Locate" in panel.state.text()
    assert "file missing" in panel.list.item(0).text()
    window.grab().save(str(tmp_path / "missing-drawing.png"))

    (tmp_path / "drawings").mkdir()
    found = scan_png(tmp_path / "drawings" / "found.png")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *_a, **_k: (str(found), "")))
    panel.buttons["locate"].click()
    assert window.session.doc.underlays[under.id].path == "drawings/found.png"
    assert item.missing == "" and "missing" not in panel.list.item(0).text()
    window.session.undo_stack.undo()
    assert item.missing == "file missing"


def test_save_as_in_another_folder_keeps_the_drawing_found(open_plan, tmp_path, monkeypatch):
    (tmp_path / "a" / "drawings").mkdir(parents=True)
    scan = scan_png(tmp_path / "a" / "drawings" / "scan.png")
    window = open_plan(saved(hall_doc(), tmp_path / "a" / "plan.hall"))
    ul_id = import_drawing(window, str(scan))
    assert window.session.doc.underlays[ul_id].path == "drawings/scan.png"
    (tmp_path / "b").mkdir()
    target = tmp_path / "b" / "plan.hall"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(target), "")))
    assert window.files.save_as()
    assert window.session.doc.underlays[ul_id].path == str(scan)
    assert window.session.undo_stack.isClean()  # written again with the new path
    assert next(iter(load(target).underlays.values())).path == str(scan)
    assert window.underlay_layer.items[ul_id].missing == ""
