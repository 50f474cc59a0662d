"""Drawings under the plan: one scene item per underlay, below every plan item.

An item draws from the model (``doc.underlays[id]``): its transform is the underlay's
(``planner.commands.underlays.matrix``), so the drawing's own units are the item's coordinates;
its opacity and visibility are the underlay's. What the file holds is read once and kept per
file (path, page, modification time): a DXF's line work as a QPicture replayed by Qt in one call
(texts drawn apart, at their height, only where legible), a PDF page rendered by PDFium
(pypdfium2) to a pixmap, an image as a pixmap. A file that is missing or unreadable is drawn as
a labelled empty frame around the hall, and the plan opens all the same.

A locked drawing takes no mouse input, so clicks reach the floor (box selection) through it;
an unlocked one is dragged to move it, previewed while dragging and committed on release as one
command, as racks are.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QImage,
    QPainter,
    QPen,
    QPicture,
    QPixmap,
    QPolygonF,
    QTransform,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSceneMouseEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from planner.commands.underlays import matrix, resolve, set_transform
from planner.io.dxf import Drawing, DxfError, read_dxf
from planner.model.change import Change
from planner.model.document import prefix_of
from planner.model.objects import Underlay
from planner.ui.plan.items import lod_of
from planner.ui.plan.scene import PlanScene
from planner.ui.plan.units import SCENE_PER_M, m, to_model
from planner.ui.session import DocumentSession

#: Below zones (0) and everything else; above the floor and grid the scene paints as background.
Z_UNDERLAY = -100
#: A rendered PDF page's longest side, pixels: about 100 dpi on A1, sharp enough to trace a hall
#: and 40 MB of memory at most.
PDF_MAX_SIDE = 3200
LINE_COLOUR = QColor(40, 60, 110)
MISSING_COLOUR = QColor(200, 60, 40)
#: Texts of a DXF are drawn only when at least this many pixels tall, and at most this many.
MIN_TEXT_PIXELS = 4.0
MAX_TEXTS = 5000
_TEXT_FONT_PX = 100


@dataclass
class Content:
    """What one drawing file shows: a DXF's line work and texts, or a picture, in drawing units."""

    rect: QRectF
    picture: QPicture | None = None
    drawing: Drawing | None = None
    pixmap: QPixmap | None = None
    error: str = ""


def load_content(path: Path, kind: str, page: int) -> Content:
    """Read a drawing file; a file that cannot be used gives a Content with ``error`` set."""
    if not path.is_file():
        return Content(QRectF(), error="file missing")
    try:
        if kind == "dxf":
            return _dxf_content(read_dxf(path, sketch=True))
        if kind == "pdf":
            return _pdf_content(path, page)
        image = QImage(str(path))
        if image.isNull():
            return Content(QRectF(), error="not an image Qt can read")
        return Content(QRectF(0, 0, image.width(), image.height()), pixmap=QPixmap.fromImage(image))
    except DxfError as exc:
        return Content(QRectF(), error=str(exc))
    except Exception as exc:  # noqa: BLE001 (PDFium's errors; the plan opens whatever the drawing holds)
        return Content(QRectF(), error=f"unreadable ({type(exc).__name__}: {str(exc)[:120]})")


def _dxf_content(drawing: Drawing) -> Content:
    picture = QPicture()
    painter = QPainter(picture)
    pen = QPen(LINE_COLOUR, 0)
    pen.setCosmetic(True)
    painter.setPen(pen)
    for points in drawing.lines:
        painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in points]))
    painter.end()
    if drawing.extents is None:
        rect = QRectF()
    else:
        x0, y0, x1, y1 = drawing.extents
        rect = QRectF(x0, y0, x1 - x0, y1 - y0)
    return Content(rect, picture=picture, drawing=drawing)


def _pdf_content(path: Path, page_number: int) -> Content:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        if not 0 <= page_number < len(pdf):
            return Content(QRectF(), error=f"has no page {page_number + 1} (it has {len(pdf)})")
        page = pdf[page_number]
        width, height = page.get_size()
        bitmap = page.render(scale=PDF_MAX_SIDE / max(width, height, 1.0), prefer_bgrx=True)
        image = QImage(bitmap.buffer, bitmap.width, bitmap.height, bitmap.stride, QImage.Format.Format_RGB32).copy()
    finally:
        pdf.close()
    return Content(QRectF(0, 0, width, height), pixmap=QPixmap.fromImage(image))


def page_count(path: str | Path) -> int:
    """Pages in a PDF (0 when it cannot be read)."""
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(str(path))
    except Exception:  # noqa: BLE001
        return 0
    try:
        return len(pdf)
    finally:
        pdf.close()


class UnderlayItem(QGraphicsItem):
    """One drawing under the plan; holds its id and draws from the model."""

    def __init__(self, layer: UnderlayLayer, ul_id: str) -> None:
        super().__init__()
        self.layer = layer
        self.ul_id = ul_id
        self.setZValue(Z_UNDERLAY)
        self._content: Content = Content(QRectF())
        self._press: QPointF | None = None
        self._rect = QRectF()
        self.sync()

    def model(self) -> Underlay:
        return self.layer.session.doc.underlays[self.ul_id]

    @property
    def missing(self) -> str:
        """Why the drawing is not shown ("" when it is)."""
        return self._content.error

    @property
    def content(self) -> Content:
        return self._content

    def sync(self) -> None:
        """Follow the model: file (re-read only when path, page or the file changed), transform,
        opacity, visibility and lock."""
        under = self.model()
        self._content = self.layer.content_for(under)
        self.prepareGeometryChange()
        if self._content.error:
            self.setTransform(QTransform())
            self._rect = self.layer.frame_rect(under)
        else:
            a, b, c, d, tx, ty = matrix(under)
            k = SCENE_PER_M
            self.setTransform(QTransform(a * k, b * k, c * k, d * k, tx * k, ty * k))
            self._rect = self._content.rect
        self.setPos(0, 0)
        self.setOpacity(under.opacity if not self._content.error else 1.0)
        self.setVisible(under.visible)
        movable = not under.locked and not self._content.error
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton if movable else Qt.MouseButton.NoButton)
        self.update()

    def boundingRect(self) -> QRectF:
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        content = self._content
        if content.error:
            self._paint_missing(painter)
        elif content.pixmap is not None:
            painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
            painter.drawPixmap(content.rect, content.pixmap, QRectF(content.pixmap.rect()))
        elif content.picture is not None:
            content.picture.play(painter)
            if content.drawing is not None:
                self._paint_texts(painter, content.drawing)

    def _paint_texts(self, painter: QPainter, drawing: Drawing) -> None:
        """DXF texts upright (the item's transform flips y), where they are legible."""
        lod = lod_of(painter)
        font = QFont("DejaVu Sans")
        font.setPixelSize(_TEXT_FONT_PX)
        painter.setFont(font)
        painter.setPen(LINE_COLOUR)
        for text in drawing.texts[:MAX_TEXTS]:
            if text.height * lod < MIN_TEXT_PIXELS:
                continue
            painter.save()
            painter.translate(text.x, text.y)
            painter.rotate(text.rotation)
            factor = text.height / _TEXT_FONT_PX
            painter.scale(factor, -factor)
            painter.drawText(QPointF(0, 0), text.text)
            painter.restore()

    def _paint_missing(self, painter: QPainter) -> None:
        pen = QPen(MISSING_COLOUR, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self._rect)
        under = self.model()
        font = QFont("DejaVu Sans")
        font.setPixelSize(max(1, round(m(0.35))))
        painter.setFont(font)
        painter.drawText(self._rect.adjusted(m(0.2), m(0.1), -m(0.2), 0),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop,
                         f"Drawing {under.name}: {self._content.error} ({under.path})")

    # ------------------------------------------------------------ dragging
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        self._press = event.scenePos()
        event.accept()

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._press is not None:
            self.setPos(event.scenePos() - self._press)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        if self._press is None:
            return
        dx, dy = to_model(event.scenePos() - self._press)
        self._press = None
        self.setPos(0, 0)
        if dx or dy:
            under = self.model()
            self.layer.session.push(set_transform(self.layer.session.doc, self.ul_id,
                                                  x=under.x + dx, y=under.y + dy))


class UnderlayLayer(QObject):
    """The underlay items of one plan scene, kept in step with the session's Changes."""

    def __init__(self, session: DocumentSession, scene: PlanScene,
                 plan_folder: Callable[[], Path | None]) -> None:
        super().__init__(scene)
        self.session = session
        self.scene = scene
        self.plan_folder = plan_folder
        self.items: dict[str, UnderlayItem] = {}
        self._cache: dict[tuple[str, str, int], tuple[float, Content]] = {}
        session.changed.connect(self.apply_change)
        session.reset.connect(self.rebuild)
        self.rebuild()

    def path_of(self, under: Underlay) -> Path:
        return resolve(under.path, self.plan_folder())

    def content_for(self, under: Underlay) -> Content:
        """The file's content, read again only when it changed on disk (or appeared)."""
        return self.preload(self.path_of(under), under.kind, under.page)

    def preload(self, path: Path, kind: str, page: int) -> Content:
        """Read a drawing file into the cache (an import reads it once, before its item exists)."""
        path = Path(os.path.abspath(path))
        key = (str(path), kind, page)
        try:
            stamp = os.stat(path).st_mtime
        except OSError:
            stamp = -1.0
        cached = self._cache.get(key)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        content = load_content(path, kind, page)
        self._cache[key] = (stamp, content)
        return content

    def frame_rect(self, under: Underlay) -> QRectF:
        """Where a missing drawing's frame goes (its own size is not known without the file):
        around the hall, 1 m out, or 20 × 12 m from the drawing's origin in a plan with no hall."""
        if self.session.doc.outline:
            return self.scene.hall_rect().adjusted(-m(1), -m(1), m(1), m(1))
        return QRectF(m(under.x), m(under.y), m(20), m(12))

    def rebuild(self) -> None:
        for item in self.items.values():
            self.scene.removeItem(item)
        self.items = {}
        for ul_id in self.session.doc.underlays:
            self._create(ul_id)
        self._reach()

    def _reach(self) -> None:
        """Widen the scene to the drawings shown, so the view scrolls and fits to them too (the
        scene spans the hall only; a drawing may be imported before there is a hall)."""
        rect = self.scene.sceneRect()
        for item in self.items.values():
            if item.isVisible() and not item.missing:
                rect = rect.united(item.sceneBoundingRect())
        if rect != self.scene.sceneRect():
            self.scene.setSceneRect(rect)

    def refresh(self) -> None:
        """Look at the files again (the plan's folder changed, or a file was located)."""
        for item in self.items.values():
            item.sync()
        self._reach()

    def _create(self, ul_id: str) -> None:
        item = UnderlayItem(self, ul_id)
        self.items[ul_id] = item
        self.scene.addItem(item)

    def apply_change(self, change: Change) -> None:
        for obj_id in change.removed:
            item = self.items.pop(obj_id, None)
            if item is not None:
                self.scene.removeItem(item)
        for obj_id in change.added:
            if prefix_of(obj_id) == "ul" and obj_id not in self.items:
                self._create(obj_id)
        for obj_id in change.modified:
            if obj_id in self.items:
                self.items[obj_id].sync()
        if change.outline:
            for item in self.items.values():
                if item.missing:
                    item.sync()
        if change.outline or any(prefix_of(obj_id) == "ul" for obj_id in change.touched):
            self._reach()
