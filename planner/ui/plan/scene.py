"""The floor-plan scene: one item per plan object, refreshed from the session's Changes.

The hall outline and the tile grid are background (cached by the view); zones, columns,
doors, hand-offs, racks, floor units and busbars are items holding ids; assignment lines
are one overlay item. Other parts add overlays through ``add_layer`` and mark findings
through ``set_findings`` / ``update_findings``. Selection lives in the session; the scene
mirrors it both ways.

At 32k GPUs (1,100 racks, 11k devices, 98k cables) nothing here walks the whole plan after an
edit: assignment lines are redrawn for the racks a change touched (and the racks assigned to a
touched busbar or CDU), and a finding mark is placed on the items its subject maps to (a device
or a cable marks its racks) and counted there, so a severity change or a moved device re-marks
only the items concerned.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from planner.model.change import Change
from planner.model.document import Document, prefix_of
from planner.model.geometry import bounds_of, point_in_polygon
from planner.ui.plan.hall_items import DoorItem, HandOffItem, ObstacleItem, ZoneItem
from planner.ui.plan.items import (
    SEVERITY_COLOURS,
    BusbarItem,
    FloorUnitItem,
    FootprintItem,
    PlanItem,
    RackItem,
    lod_of,
)
from planner.ui.plan.overlays import AssignmentLayer, FootprintBatch
from planner.ui.plan.units import TILE_M, m, to_model, to_scene
from planner.ui.session import DocumentSession

Z_LAYER = 50
#: Gap kept around an area found by ``free_spot`` (a paste with nowhere to point at).
CLEARANCE_M = 0.3
#: Grid lines closer than this on screen (pixels) are thinned out.
MIN_GRID_PIXELS = 6.0
#: A mark's slot in an item's [errors, warnings] count.
_SLOT = {"error": 0, "warning": 1}
#: The plan item of each kind of object, by id prefix.
ITEM_CLASSES: dict[str, type[PlanItem]] = {
    "rack": RackItem, "fu": FloorUnitItem, "bus": BusbarItem, "zone": ZoneItem,
    "obs": ObstacleItem, "door": DoorItem, "ho": HandOffItem,
}


class PlanScene(QGraphicsScene):
    """Draws the session's document to scale and keeps in step with every Change."""

    def __init__(self, session: DocumentSession) -> None:
        super().__init__()
        self.session = session
        self._items: dict[str, PlanItem] = {}
        self._device_rack: dict[str, str] = {}
        self._findings: dict[str, str] = {}  # subject → "error" / "warning"
        self._placed: dict[str, tuple[str, ...]] = {}  # subject → the item ids its mark is on
        self._marks: dict[str, list[int]] = {}  # item id → [errors, warnings] placed on it
        self._layers: list[QGraphicsItem] = []
        self._syncing_selection = False
        self._grid_cache: tuple[QRectF, list[QLineF], list[QLineF]] | None = None
        self.assignments = AssignmentLayer()
        self.footprints = FootprintBatch()
        self._batched = False
        self._selected_footprints: set[str] = set()
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        session.changed.connect(self.apply_change)
        session.reset.connect(self.rebuild)
        session.selection_changed.connect(self._select_from_session)
        self.selectionChanged.connect(self._push_selection)
        self.selectionChanged.connect(self._track_selection)
        self.rebuild()

    @property
    def doc(self) -> Document:
        return self.session.doc

    # ------------------------------------------------------------- building
    def _doc(self) -> Document:
        return self.session.doc

    def rebuild(self) -> None:
        """Recreate every item from the document (a new plan was opened)."""
        for item in list(self._items.values()):
            self.removeItem(item)
        self._items.clear()
        for layer in (self.assignments, self.footprints):
            if layer.scene() is self:
                self.removeItem(layer)
        self._placed, self._marks, self._selected_footprints = {}, {}, set()
        doc = self.doc
        for collection in (doc.zones, doc.obstacles, doc.doors, doc.handoffs, doc.racks,
                           doc.floor_units, doc.busbars):
            for obj_id in collection:
                self._create(obj_id)
        self._device_rack = {d.id: d.rack for d in doc.devices.values()}
        self.addItem(self.assignments)
        self.assignments.rebuild(doc)
        self.addItem(self.footprints)
        self.footprints.reset(i for i in self._items.values() if isinstance(i, FootprintItem))
        self._update_hall()
        self._refresh_marks(self._place(self._findings))
        self._select_from_session(self.session.selection)

    def _create(self, obj_id: str) -> None:
        cls = ITEM_CLASSES.get(prefix_of(obj_id))
        if cls is None:
            return
        item = cls(self._doc, obj_id)
        item.set_severity(self._mark_of(obj_id))
        self._items[obj_id] = item
        if isinstance(item, FootprintItem):
            item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, self._batched)
            item.observer = self.footprints.track
            self.footprints.track(item)
        self.addItem(item)

    def _update_hall(self) -> None:
        self._grid_cache = None
        self.setSceneRect(self.hall_rect().adjusted(-m(5), -m(5), m(5), m(5)))
        self.invalidate(self.sceneRect(), QGraphicsScene.SceneLayer.BackgroundLayer)

    def hall_rect(self) -> QRectF:
        """The hall outline's bounding box in scene units (or everything, without an outline)."""
        if self.doc.outline:
            x0, y0, x1, y1 = bounds_of(self.doc.outline)
            return QRectF(to_scene(x0, y0), to_scene(x1, y1))
        box = self.itemsBoundingRect()
        return box if not box.isEmpty() else QRectF(0, 0, m(20), m(12))

    # ------------------------------------------------------------ refreshing
    def apply_change(self, change: Change) -> None:
        """Refresh exactly the ids a Change names (and the racks whose devices changed)."""
        if change.outline:
            self._update_hall()
        racks_to_sync: set[str] = set()
        for obj_id in change.removed:
            item = self._items.pop(obj_id, None)
            if item is not None:
                self.removeItem(item)
                self.footprints.forget(obj_id)
            rack_id = self._device_rack.pop(obj_id, None)
            if rack_id:
                racks_to_sync.add(rack_id)
        for obj_id in change.added:
            if prefix_of(obj_id) == "dev":
                device = self.doc.devices[obj_id]
                self._device_rack[obj_id] = device.rack
                racks_to_sync.add(device.rack)
            elif obj_id not in self._items:
                self._create(obj_id)
        for obj_id in change.modified:
            if prefix_of(obj_id) == "dev":
                racks_to_sync.add(self._device_rack.get(obj_id, ""))
                device = self.doc.devices[obj_id]
                self._device_rack[obj_id] = device.rack
                racks_to_sync.add(device.rack)
            elif obj_id in self._items:
                self._items[obj_id].sync()
        if change.catalog:
            racks_to_sync.update(i for i in self._items if prefix_of(i) in ("rack", "fu"))
        for rack_id in racks_to_sync:
            if rack_id in self._items:
                self._items[rack_id].sync()
        if change.catalog:
            self.assignments.rebuild(self.doc)
        else:
            self.assignments.update_racks(self.doc, change.touched)
        if self._findings:
            self._move_marks(change)

    # ----------------------------------------------------------------- lookup
    def item_for(self, obj_id: str) -> PlanItem | None:
        return self._items.get(obj_id)

    def plan_items(self) -> list[PlanItem]:
        return list(self._items.values())

    def plan_item_at(self, point, kinds: tuple[str, ...] | None = None) -> PlanItem | None:
        """The topmost plan item under a scene point (optionally only of some id prefixes)."""
        for item in self.items(point, Qt.ItemSelectionMode.IntersectsItemShape, Qt.SortOrder.DescendingOrder):
            if isinstance(item, PlanItem) and (kinds is None or prefix_of(item.obj_id) in kinds):
                return item
        return None

    def is_free(self, x0: float, y0: float, x1: float, y1: float, margin: float = 0.0) -> bool:
        """Whether the floor rectangle (metres) lies in the hall and, widened by ``margin``, is
        clear of everything drawn on the plan except floor zones."""
        outline = self.doc.outline
        inset = 1e-3  # points on the outline itself count as inside
        corners = ((x0 + inset, y0 + inset), (x1 - inset, y0 + inset),
                   (x1 - inset, y1 - inset), (x0 + inset, y1 - inset))
        if outline and not all(point_in_polygon(x, y, outline) for x, y in corners):
            return False
        rect = QRectF(to_scene(x0 - margin, y0 - margin), to_scene(x1 + margin, y1 + margin))
        return not any(isinstance(item, PlanItem) and prefix_of(item.obj_id) != "zone"
                       for item in self.items(rect, Qt.ItemSelectionMode.IntersectsItemShape))

    def free_spot(self, width: float, depth: float, margin: float = CLEARANCE_M) -> tuple[float, float] | None:
        """The centre of the first clear ``width`` × ``depth`` area with ``margin`` around it,
        scanning the hall row by row in half tiles; None when there is no such room."""
        box = self.hall_rect()
        x_min, y_min = to_model(box.topLeft())
        x_max, y_max = to_model(box.bottomRight())
        step = TILE_M / 2
        y = y_min
        while y + depth <= y_max + 1e-9:
            x = x_min
            while x + width <= x_max + 1e-9:
                if self.is_free(x, y, x + width, y + depth, margin):
                    return round(x + width / 2, 6), round(y + depth / 2, 6)
                x += step
            y += step
        return None

    def rack_at(self, x_m: float, y_m: float) -> str | None:
        item = self.plan_item_at(to_scene(x_m, y_m), kinds=("rack",))
        return item.obj_id if item else None

    # -------------------------------------------------------------- selection
    def _select_from_session(self, ids: set[str]) -> None:
        """Mirror the session's selection, touching only the items whose state changes (Qt keeps
        the selected items, so this does not walk the 1,000+ racks of a large hall)."""
        self._syncing_selection = True
        try:
            for item in self.selectedItems():
                if not isinstance(item, PlanItem) or item.obj_id not in ids:
                    item.setSelected(False)
            for obj_id in ids:
                selected = self._items.get(obj_id)
                if selected is not None:
                    selected.setSelected(True)
        finally:
            self._syncing_selection = False
        self._track_selection()

    def _track_selection(self) -> None:
        """Tell the footprint batch which racks and floor units were selected or deselected
        (once per selection: Qt signals each item set while the session's selection is mirrored)."""
        if self._syncing_selection:
            return
        selected = {i.obj_id for i in self.selectedItems() if isinstance(i, FootprintItem)}
        self.footprints.restate(item for i in selected ^ self._selected_footprints
                                if isinstance(item := self._items.get(i), FootprintItem))
        self._selected_footprints = selected

    def _push_selection(self) -> None:
        if self._syncing_selection:
            return
        ids = {item.obj_id for item in self.selectedItems() if isinstance(item, PlanItem)}
        self.session.select(ids)

    # --------------------------------------------------------------- findings
    def set_findings(self, severity_by_id: dict[str, str]) -> None:
        """Outline items with findings: "error" red, "warning" amber. Devices and cables mark
        their racks. Re-marks only the subjects whose severity differs from the last call."""
        changes = {s: "" for s in self._findings if s not in severity_by_id}
        changes.update((s, v) for s, v in severity_by_id.items() if self._findings.get(s, "") != v)
        self.update_findings(changes)

    def update_findings(self, severities: dict[str, str]) -> None:
        """Apply changed severities only: subject → new worst severity ("" for none)."""
        dirty = self._unplace(severities)
        for subject, severity in severities.items():
            if severity in SEVERITY_COLOURS:
                self._findings[subject] = severity
            else:
                self._findings.pop(subject, None)
        dirty |= self._place(severities)
        self._refresh_marks(dirty)

    def _move_marks(self, change: Change) -> None:
        """Re-place the marks of devices and cables an edit may have moved to other racks."""
        moved = {i for i in change.touched if prefix_of(i) in ("dev", "link")}
        for device_id in [i for i in moved if prefix_of(i) == "dev"]:
            moved.update(self.doc.link_ids_of(device_id))
        moved &= self._findings.keys()
        if moved:
            self._refresh_marks(self._unplace(moved) | self._place(moved))

    def _targets(self, subject: str) -> tuple[str, ...]:
        """The items a subject's mark goes on: a device's rack, a cable's racks, else itself."""
        doc = self.doc
        prefix = prefix_of(subject)
        if prefix == "link":  # the most marked (every cable a rack's move lengthens), so first
            link = doc.links.get(subject)
            if link is None:
                return ()
            devices = doc.devices
            a, b = devices.get(link.a_device), devices.get(link.b_device)
            if a is None or b is None:
                return (a.rack,) if a is not None else (b.rack,) if b is not None else ()
            return (a.rack,) if a.rack == b.rack else (a.rack, b.rack)
        if prefix == "dev":
            device = doc.devices.get(subject)
            return (device.rack,) if device is not None else ()
        return (subject,)

    def _place(self, subjects) -> set[str]:
        """Count the marks of ``subjects`` that have a severity on their items; returns the items."""
        dirty: set[str] = set()
        findings, placed, marks, targets_of = self._findings, self._placed, self._marks, self._targets
        for subject in subjects:
            severity = findings.get(subject)
            if severity is None:
                continue
            targets = placed[subject] = targets_of(subject)
            slot = _SLOT[severity]
            for target in targets:
                counts = marks.get(target)
                if counts is None:
                    counts = marks[target] = [0, 0]
                counts[slot] += 1
            dirty.update(targets)
        return dirty

    def _unplace(self, subjects) -> set[str]:
        """Take the marks of ``subjects`` off the items they were placed on; returns the items."""
        dirty: set[str] = set()
        findings, placed, marks = self._findings, self._placed, self._marks
        for subject in subjects:
            targets = placed.pop(subject, ())
            if not targets:
                continue
            slot = _SLOT[findings[subject]]
            for target in targets:
                counts = marks[target]
                counts[slot] -= 1
                if counts == [0, 0]:
                    del marks[target]
            dirty.update(targets)
        return dirty

    def _mark_of(self, obj_id: str) -> str:
        counts = self._marks.get(obj_id)
        if counts is None:
            return ""
        return "error" if counts[0] else "warning"

    def _refresh_marks(self, obj_ids: set[str]) -> None:
        footprints = []
        for obj_id in obj_ids:
            item = self._items.get(obj_id)
            if item is not None:
                item.set_severity(self._mark_of(obj_id))
                if isinstance(item, FootprintItem):
                    footprints.append(item)
        self.footprints.restate(footprints)

    # ------------------------------------------------------- level of detail
    def batch_footprints(self, batched: bool) -> None:
        """Zoomed out (the view decides, see ``overlays.BATCH_BELOW_LOD``) the footprint batch
        draws racks and floor units and their items paint nothing: Qt then skips them without
        calling into Python, which is most of a full repaint's cost at 1,000+ racks."""
        if batched == self._batched:
            return
        self._batched = batched
        for item in self._items.values():
            if isinstance(item, FootprintItem):
                item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, batched)
        self.footprints.set_active(batched)

    def render(self, painter: QPainter, target: QRectF | QRect = QRectF(), source: QRectF | QRect = QRectF(),  # noqa: B008
               mode: Qt.AspectRatioMode = Qt.AspectRatioMode.KeepAspectRatio) -> None:
        """Render with every item painting itself: an export may be drawn at any scale, whatever
        the zoom of the view on screen."""
        batched = self._batched
        self.batch_footprints(False)
        try:
            super().render(painter, target, source, mode)
        finally:
            self.batch_footprints(batched)

    # ----------------------------------------------------------------- layers
    def add_layer(self, item: QGraphicsItem) -> None:
        """Add an overlay (heat map, cable routes) above the plan; it takes no mouse input."""
        if item.zValue() == 0:
            item.setZValue(Z_LAYER)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._layers.append(item)
        self.addItem(item)

    def remove_layer(self, item: QGraphicsItem) -> None:
        if item in self._layers:
            self._layers.remove(item)
            self.removeItem(item)

    def set_assignments_visible(self, visible: bool) -> None:
        self.assignments.setVisible(visible)

    # ------------------------------------------------------------- background
    def _grid(self) -> tuple[QRectF, list[QLineF], list[QLineF]]:
        """Tile lines over the hall, and every fifth line (metre-ish majors), computed once."""
        if self._grid_cache is None:
            box = self.hall_rect()
            step = m(TILE_M)
            minor: list[QLineF] = []
            major: list[QLineF] = []
            x0, y0 = to_model(box.topLeft())
            first_x = math.ceil(x0 / TILE_M - 1e-6)
            first_y = math.ceil(y0 / TILE_M - 1e-6)
            for k in range(first_x, first_x + int(box.width() / step) + 2):
                x = k * step
                if x <= box.right() + 0.01:
                    (major if k % 5 == 0 else minor).append(QLineF(x, box.top(), x, box.bottom()))
            for k in range(first_y, first_y + int(box.height() / step) + 2):
                y = k * step
                if y <= box.bottom() + 0.01:
                    (major if k % 5 == 0 else minor).append(QLineF(box.left(), y, box.right(), y))
            self._grid_cache = (box, minor, major)
        return self._grid_cache

    def drawBackground(self, painter: QPainter, rect: QRectF | QRect) -> None:
        painter.fillRect(rect, QColor(200, 202, 206))
        outline = QPolygonF([to_scene(x, y) for x, y in self.doc.outline])
        if outline.isEmpty():
            return
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(252, 252, 250))
        painter.drawPolygon(outline)
        clip = QPainterPath()
        clip.addPolygon(outline)
        painter.save()
        painter.setClipPath(clip, Qt.ClipOperation.IntersectClip)
        _box, minor, major = self._grid()
        pixels_per_tile = lod_of(painter) * m(TILE_M)
        if pixels_per_tile >= MIN_GRID_PIXELS:
            pen = QPen(QColor(205, 208, 214), 0)
            painter.setPen(pen)
            painter.drawLines(minor)
        if pixels_per_tile * 5 >= MIN_GRID_PIXELS:
            painter.setPen(QPen(QColor(165, 170, 180), 0))
            painter.drawLines(major)
        painter.restore()
        wall = QPen(QColor(30, 30, 35), 3)
        wall.setCosmetic(True)
        painter.setPen(wall)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(outline)
