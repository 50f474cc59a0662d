"""The plan's scene in a view: zoom, fitting and centring, a highlighted cable route, snapping
to the tile grid and the scale bar. ``PlanView`` adds the gestures that edit; the editor
(``planner.ui.plan.editing``) needs only this much of a view, so it does not import the view.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QRegion
from PySide6.QtWidgets import QGraphicsView, QStyleOptionGraphicsItem, QWidget

from planner.model.geometry import extents
from planner.ui.plan import scale_bar
from planner.ui.plan.items import FootprintItem
from planner.ui.plan.overlays import BATCH_BELOW_LOD
from planner.ui.plan.route import RouteItem
from planner.ui.plan.scene import PlanScene
from planner.ui.plan.units import SCENE_PER_M, m, snap_m, to_scene
from planner.ui.session import DocumentSession

ZOOM_STEP = 1.25
#: Zoom limits in screen pixels per metre.
MIN_PIXELS_PER_M, MAX_PIXELS_PER_M = 0.5, 2000.0
#: Objects a finding or search brings into view are zoomed to at least this size on screen (px).
MIN_SHOWN_PIXELS = 40.0
#: A picked cable's route is fitted with this margin (m), but zoomed in no further than rack
#: names and the racks around it read well (pixels per metre).
ROUTE_MARGIN_M, ROUTE_MAX_PIXELS_PER_M = 1.5, 90.0


class PlanCanvas(QGraphicsView):
    """Shows a PlanScene: zoom, fit, centring, the route highlight, snapping, the scale bar."""

    status_message = Signal(str)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.plan_scene = PlanScene(session)
        self.setScene(self.plan_scene)
        self._route: RouteItem | None = None
        self._route_ends: tuple[str, ...] = ()
        self._snap = True
        self._scale_box: QRectF | None = None
        #: The viewport region the paint under way draws (empty between paints).
        self._painting = QRegion()
        self._set_auto_fit(True)

    # ------------------------------------------------------------------- zoom
    def pixels_per_m(self) -> float:
        return self.transform().m11() * SCENE_PER_M

    def _zoom(self, factor: float) -> None:
        self._set_auto_fit(False)
        target = self.pixels_per_m() * factor
        if MIN_PIXELS_PER_M <= target <= MAX_PIXELS_PER_M:
            self.scale(factor, factor)
            self.viewport().update()

    def zoom_in(self) -> None:
        self._zoom(ZOOM_STEP)

    def zoom_out(self) -> None:
        self._zoom(1 / ZOOM_STEP)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_fit:
            self.fit_to_hall()

    def _set_auto_fit(self, fitted: bool) -> None:
        """Fitted, the whole hall is in view and there is nothing to scroll, so the scrollbars are
        off. Left on, they fed back: a fit showed one (the scene's margin is wider than the fit's),
        which narrowed the viewport, which refitted and hid it, and so on (95,000 resizes in 10 s
        with a 131k-GPU hall's docks open). Zoomed or panned, they come back."""
        self._auto_fit = fitted
        policy = Qt.ScrollBarPolicy.ScrollBarAlwaysOff if fitted else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        self.setHorizontalScrollBarPolicy(policy)
        self.setVerticalScrollBarPolicy(policy)

    def fit_to_hall(self) -> None:
        """Show the whole hall; until the user zooms or pans the view keeps it fitted on resize."""
        self._set_auto_fit(True)
        self.fitInView(self.plan_scene.hall_rect().adjusted(-m(1), -m(1), m(1), m(1)), Qt.AspectRatioMode.KeepAspectRatio)
        self.viewport().update()

    def centre_on_ids(self, ids) -> None:
        """Bring the plan items of ``ids`` (a device by its rack) into view."""
        rect = QRectF()
        for obj_id in ids:
            item = self.plan_scene.item_for(obj_id)
            if item is None and obj_id in self.session.doc.devices:
                item = self.plan_scene.item_for(self.session.doc.devices[obj_id].rack)
            if item is not None:
                rect = rect.united(item.sceneBoundingRect())
        self._centre_on_scene_rect(rect, MIN_SHOWN_PIXELS)

    def centre_on_rect(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Bring a plan rectangle in metres into view (a line, e.g. a stretch of tray, is fine)."""
        rect = QRectF(to_scene(min(x0, x1), min(y0, y1)), to_scene(max(x0, x1), max(y0, y1)))
        if rect.width() == 0 and rect.height() == 0:
            return
        self._centre_on_scene_rect(rect.adjusted(-m(0.05), -m(0.05), m(0.05), m(0.05)))

    def _centre_on_scene_rect(self, rect: QRectF, min_pixels: float = 0.0) -> None:
        """Centre on ``rect``, zooming out to fit it (with 1 m around) when it does not fit, and in
        until its smaller side is ``min_pixels`` on screen (objects: a rack a few pixels wide at
        fit view is not found by looking) as far as it still fits."""
        if rect.isEmpty():
            return
        self._set_auto_fit(False)
        visible = self.mapToScene(self.viewport().rect()).boundingRect()
        if rect.width() > visible.width() or rect.height() > visible.height():
            self.fitInView(rect.adjusted(-m(1), -m(1), m(1), m(1)), Qt.AspectRatioMode.KeepAspectRatio)
            return
        side = min(rect.width(), rect.height()) * self.transform().m11()
        if 0 < side < min_pixels:
            fits = min(visible.width() / rect.width(), visible.height() / rect.height())
            self._zoom(min(min_pixels / side, fits))
        self.centerOn(rect.center())

    def wheelEvent(self, event) -> None:
        """One wheel notch (120) zooms one step; a touchpad's finer deltas zoom in proportion."""
        notches = event.angleDelta().y() / 120
        if notches:
            self._zoom(ZOOM_STEP ** notches)
        event.accept()

    def paintEvent(self, event: QPaintEvent) -> None:
        # decided here, as the one place every change of zoom (wheel, fit, centring) passes through
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(self.transform())
        self.plan_scene.batch_footprints(lod < BATCH_BELOW_LOD)
        self._painting = event.region()
        try:
            super().paintEvent(event)
        finally:
            self._painting = QRegion()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.viewport().update()

    # ------------------------------------------------------------ snapping
    def snapping(self) -> bool:
        return self._snap

    def snap_point(self, x: float, y: float) -> tuple[float, float]:
        if not self._snap:
            return round(x, 3), round(y, 3)
        return snap_m(x), snap_m(y)

    def snap_centre(self, x: float, y: float, width: float, depth: float, rotation: int) -> tuple[float, float]:
        """Centre for a footprint dropped at (x, y): its corner on a tile line when snapping."""
        ex, ey = extents(width, depth, rotation)
        if not self._snap:
            return round(x, 3), round(y, 3)
        return round(snap_m(x - ex / 2) + ex / 2, 6), round(snap_m(y - ey / 2) + ey / 2, 6)
    # ----------------------------------------------------------------- routes
    def show_route(self, points_m: list[tuple[float, float]], ends: tuple[str, ...] = (),
                   focus: bool = False) -> None:
        """Highlight a cable's route: ``points_m`` is its tray path (``Router.route(...).polyline``),
        ``ends`` its two devices (their racks are outlined and named at the drops). With ``focus``
        (the user picked the cable) the view fits the route and end A's device is selected, so
        the elevation dock shows it; a redraw after an edit leaves view and selection alone."""
        self.clear_route()
        doc = self.session.doc
        devices = [doc.devices[d] for d in ends if d in doc.devices]
        racks, labels = [], None
        for device in devices:
            item = self.plan_scene.item_for(device.rack)
            if isinstance(item, FootprintItem):
                racks.append(item.footprint()[0])
        if len(devices) == 2:
            labels = tuple(f"{side} · {doc.racks[d.rack].name} U{d.u} {d.name}" if d.rack in doc.racks
                           else f"{side} · {d.name}" for side, d in zip("AB", devices))
        self._route = RouteItem(points_m, racks, labels)
        self._route_ends = tuple(d.rack for d in devices)
        self.plan_scene.addItem(self._route)
        if focus:
            self.fit_scene_rect(self._route.route_rect(), ROUTE_MARGIN_M, ROUTE_MAX_PIXELS_PER_M)
            if devices:
                self.session.select({devices[0].id})

    def route_ends(self) -> tuple[str, ...]:
        """The racks at the ends of the highlighted route (outlined on the plan)."""
        return self._route_ends if self._route is not None else ()

    def clear_route(self) -> None:
        if self._route is not None:
            self.plan_scene.removeItem(self._route)
            self._route = None
            self._route_ends = ()

    def fit_scene_rect(self, rect: QRectF, margin_m: float, max_pixels_per_m: float) -> None:
        """Centre on ``rect`` and zoom to fit it with ``margin_m`` around, but no closer than
        ``max_pixels_per_m`` (a short route is shown with its surroundings)."""
        if rect.isNull():
            return
        self._set_auto_fit(False)
        self.fitInView(rect.adjusted(-m(margin_m), -m(margin_m), m(margin_m), m(margin_m)), Qt.AspectRatioMode.KeepAspectRatio)
        ppm = self.pixels_per_m()
        limit = min(max_pixels_per_m, MAX_PIXELS_PER_M)
        if ppm > limit or ppm < MIN_PIXELS_PER_M:
            factor = min(max(ppm, MIN_PIXELS_PER_M), limit) / ppm
            self.scale(factor, factor)
        self.centerOn(rect.center())
        self.viewport().update()
    # -------------------------------------------------------------- scale bar
    def scale_bar_rect(self) -> QRectF:
        """Where the scale bar is drawn (viewport pixels): clear of the plan's items and labels
        where the view leaves a place for it (``planner.ui.plan.scale_bar``).

        When it moves, its old and new places must be painted afresh. A paint of the whole
        viewport (every pan and zoom frame) already does that; only a partial one (an edit's
        stretch) asks for those two boxes again. It used to ask for the whole viewport every
        time the bar moved or changed length, which is on most pan and zoom frames: each frame
        was painted twice."""
        box = scale_bar.place(self, self.pixels_per_m(), self._scale_box)
        if box != self._scale_box and self._scale_box is not None:
            moved = QRegion(self._scale_box.toAlignedRect()).united(box.toAlignedRect())
            if not moved.subtracted(self._painting).isEmpty():
                self.viewport().update(moved.boundingRect().adjusted(-1, -1, 1, 1))
        self._scale_box = box
        return box

    def drawForeground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        if self.pixels_per_m() > 0:
            scale_bar.paint(painter, self.scale_bar_rect(), self.pixels_per_m())

