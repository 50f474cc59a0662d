"""Drawings under the plan in the main window (listed in ``EXTENSIONS``): File ▸ Import drawing…,
the Drawings panel (show, dim, lock, locate, remove), the two-point scale tool and "Use outline
and columns" for a DXF (issue 14).

Where a drawing goes when imported: a DXF at its own units with the north-west corner of its
outline (or of its extents) on the plan's origin, as ``planner new --from-dxf`` places it, and
locked (it is to scale and in place); a PDF page or an image fitted to the hall's width at the
hall's north-west corner (1:100 or 2 cm a pixel without a hall) and unlocked, to be scaled by two
points, dragged into place and locked.

Paths follow the plan: a drawing in the plan's folder or below is recorded relative to it, so
the two move together; when Save as… puts the plan in another folder the paths are re-made for
it (``planner.commands.underlays.relink``, one undo step) and the plan is written once more, so
the file on disk names its drawings from where it now lies.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from planner.commands import Refusal
from planner.commands.underlays import (
    KIND_OF_SUFFIX,
    add_underlay,
    origin_for,
    outline_from_drawing,
    relink,
    remove_underlay,
    scale_by_two_points,
    set_display,
    set_path,
    stored_path,
)
from planner.io.dxf import UNITS, Drawing, DxfError, metres_per_unit, north_west, pick_outline
from planner.model.change import Change
from planner.model.geometry import bounds_of
from planner.ui.busy import busy
from planner.ui.dialogs.underlay import LayersDialog, ScaleDialog
from planner.ui.plan.units import to_model, to_scene
from planner.ui.underlay.layer import UnderlayLayer, page_count

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

IMPORT_FILTER = "Drawings (*.dxf *.pdf *.png *.jpg *.jpeg);;All files (*)"
#: Without a hall to fit: a PDF page at 1:100 (metres per point), an image at 2 cm a pixel.
PDF_DEFAULT_SCALE = 0.0254 / 72 * 100
IMAGE_DEFAULT_SCALE = 0.02
DEFAULT_OPACITY = 0.5
TITLE = "Import drawing"


def plan_folder(window: MainWindow) -> Path | None:
    return window.files.path.parent if window.files.path is not None else None


# ------------------------------------------------------------------ import
def import_drawing(window: MainWindow, path: str | None = None) -> str | None:
    """Place a DXF, a PDF page or an image under the plan (module docstring); returns its id."""
    if path is None:
        start = str(plan_folder(window) or Path.home())
        path, _filter = QFileDialog.getOpenFileName(window, TITLE, start, IMPORT_FILTER)
        if not path:
            return None
    kind = KIND_OF_SUFFIX.get(Path(path).suffix.lower())
    if kind is None:
        QMessageBox.warning(window, TITLE, f"{Path(path).name}: a drawing is a .dxf, .pdf, .png or .jpg file")
        return None
    page = 0
    if kind == "pdf":
        pages = page_count(path)
        if pages > 1:
            number, ok = QInputDialog.getInt(window, TITLE, f"Page of {Path(path).name} (1–{pages}):", 1, 1, pages)
            if not ok:
                return None
            page = number - 1
    with busy(window, f"Reading {Path(path).name}…"):
        content = window.underlay_layer.preload(Path(path), kind, page)
    if content.error:
        QMessageBox.warning(window, TITLE, f"{Path(path).name} cannot be shown: {content.error}")
        return None
    doc = window.session.doc
    if content.drawing is not None:
        placed = _dxf_placement(window, content.drawing)
        if placed is None:
            return None
        scale, (x, y), locked, note = placed
    else:
        scale, (x, y), locked, note = _picture_placement(window, kind, content.rect.width())
    try:
        command = add_underlay(doc, stored_path(path, plan_folder(window)), kind, page=page, x=x, y=y,
                               scale=scale, opacity=DEFAULT_OPACITY, locked=locked)
    except Refusal as exc:
        QMessageBox.warning(window, TITLE, f"{Path(path).name} cannot be placed: {exc}")
        return None
    window.session.push(command)
    under = command.objects[0]
    window.underlay_panel.select(under.id)
    window.show_status(f"Imported {under.name}: {note}")
    return under.id


def _dxf_placement(window: MainWindow, drawing: Drawing) -> tuple[float, tuple[float, float], bool, str] | None:
    try:
        scale, units = metres_per_unit(drawing)
    except DxfError:
        choice, ok = QInputDialog.getItem(window, TITLE, f"{Path(drawing.path).name} does not say its units. "
                                          "One drawing unit is:", list(UNITS), 0, False)
        if not ok:
            return None
        scale, units = UNITS[choice], choice
    try:
        corner = north_west(pick_outline(drawing)[0])
    except DxfError:
        x0, _y0, _x1, y1 = drawing.extents or (0.0, 0.0, 0.0, 0.0)
        corner = (x0, y1)
    note = (f"units {units.split(' (')[0]}, the north-west corner of its outline on the plan's origin; "
            "Drawings panel ▸ Use outline and columns takes them (and zones and doors from their layers) "
            "into the plan")
    return scale, origin_for("dxf", scale, corner), True, note


def _picture_placement(window: MainWindow, kind: str, width: float) -> tuple[float, tuple[float, float], bool, str]:
    outline = window.session.doc.outline
    if outline and width > 0:
        x0, y0, x1, _y1 = bounds_of(outline)
        return (x1 - x0) / width, (x0, y0), False, ("fitted to the hall's width; Drawings panel ▸ Scale by two "
                                                     "points sets its true scale, then drag it into place and lock it")
    scale = PDF_DEFAULT_SCALE if kind == "pdf" else IMAGE_DEFAULT_SCALE
    return scale, (0.0, 0.0), False, "Drawings panel ▸ Scale by two points sets its true scale"


# --------------------------------------------------------------- the panel
class UnderlayPanel(QDockWidget):
    """The plan's drawings: tick to show, a slider to dim, lock, locate a missing file, remove;
    scale by two points; take a DXF's outline and columns."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__("Drawings", window)
        self.setObjectName("drawings_dock")
        self.window_ = window
        self.session = window.session
        self.list = QListWidget()
        self.list.currentItemChanged.connect(lambda *_: self._show_current())
        self.list.itemChanged.connect(self._ticked)
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.sliderReleased.connect(self._opacity_set)
        self.opacity.valueChanged.connect(lambda _v: None if self.opacity.isSliderDown() else self._opacity_set())
        self.lock = QCheckBox("Locked (clicks go through to the floor)")
        self.lock.toggled.connect(self._lock_set)
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.buttons: dict[str, QPushButton] = {}
        grid = QGridLayout()
        for index, (name, text, slot) in enumerate((
                ("import", "Import…", lambda: import_drawing(window)),
                ("scale", "Scale by two points", self._scale),
                ("outline", "Use outline and columns…", lambda: use_outline(window, self.current_id())),
                ("locate", "Locate…", self._locate),
                ("remove", "Remove", self._remove))):
            button = QPushButton(text)
            button.clicked.connect(slot)
            self.buttons[name] = button
            grid.addWidget(button, index // 2, index % 2)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.list)
        form = QFormLayout()
        form.addRow("Opacity", self.opacity)
        layout.addLayout(form)
        layout.addWidget(self.lock)
        layout.addWidget(self.state)
        layout.addLayout(grid)
        self.setWidget(body)
        self._filling = False
        self.session.changed.connect(self._changed)
        self.session.reset.connect(self.refresh)
        self.refresh()

    def current_id(self) -> str | None:
        item = self.list.currentItem()
        return item.data(Qt.ItemDataRole.UserRole) if item is not None else None

    def select(self, ul_id: str) -> None:
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == ul_id:
                self.list.setCurrentRow(row)

    def _changed(self, change: Change) -> None:
        if any(obj_id.startswith("ul-") for obj_id in change.touched):
            self.refresh()

    def refresh(self) -> None:
        """Rebuild the list from the model (keeping the current drawing)."""
        current = self.current_id()
        layer: UnderlayLayer = self.window_.underlay_layer
        self._filling = True
        self.list.clear()
        for under in self.session.doc.underlays.values():
            item_ = layer.items.get(under.id)
            missing = item_.missing if item_ is not None else ""
            words = [under.kind.upper() if under.kind != "image" else "image"]
            if under.locked:
                words.append("locked")
            if missing:
                words.append(missing if missing == "file missing" else "cannot be shown")
            item = QListWidgetItem(f"{under.name} ({', '.join(words)})")
            item.setData(Qt.ItemDataRole.UserRole, under.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if under.visible else Qt.CheckState.Unchecked)
            item.setToolTip(str(layer.path_of(under)))
            self.list.addItem(item)
        self._filling = False
        if current in self.session.doc.underlays:
            self.select(current)
        elif self.list.count():
            self.list.setCurrentRow(0)
        self._show_current()

    def _show_current(self) -> None:
        ul_id = self.current_id()
        under = self.session.doc.underlays.get(ul_id) if ul_id else None
        item = self.window_.underlay_layer.items.get(ul_id) if ul_id else None
        self._filling = True
        self.opacity.setValue(round(under.opacity * 100) if under else 50)
        self.lock.setChecked(bool(under and under.locked))
        self._filling = False
        for name in ("scale", "locate", "remove"):
            self.buttons[name].setEnabled(under is not None)
        self.buttons["outline"].setEnabled(under is not None and under.kind == "dxf" and not (item and item.missing))
        self.opacity.setEnabled(under is not None)
        self.lock.setEnabled(under is not None)
        if under is None:
            self.state.setText("No drawing under the plan. Import a DXF, a PDF page or an image.")
        elif item is not None and item.missing:
            self.state.setText(f"<b>{under.name}</b>: {item.missing}. Locate… points it at the file.")
        else:
            self.state.setText(f"{under.name}: {under.scale:.6g} m per drawing unit, origin at "
                               f"({under.x:.3f}, {under.y:.3f}) m, turned {under.rotation:g}°")

    def _push(self, make) -> None:
        ul_id = self.current_id()
        if ul_id is None or self._filling:
            return
        try:
            self.session.push(make(ul_id))
        except Refusal as exc:
            self.window_.show_status(str(exc))

    def _ticked(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        ul_id = item.data(Qt.ItemDataRole.UserRole)
        visible = item.checkState() == Qt.CheckState.Checked
        if self.session.doc.underlays[ul_id].visible != visible:
            self.session.push(set_display(self.session.doc, ul_id, visible=visible))

    def _opacity_set(self) -> None:
        value = self.opacity.value() / 100
        ul_id = self.current_id()
        if ul_id is not None and not math.isclose(self.session.doc.underlays[ul_id].opacity, value):
            self._push(lambda i: set_display(self.session.doc, i, opacity=value))

    def _lock_set(self, locked: bool) -> None:
        ul_id = self.current_id()
        if ul_id is not None and self.session.doc.underlays[ul_id].locked != locked:
            self._push(lambda i: set_display(self.session.doc, i, locked=locked))

    def _scale(self) -> None:
        ul_id = self.current_id()
        if ul_id is not None:
            self.window_.scale_tool.start(ul_id)

    def _locate(self) -> None:
        ul_id = self.current_id()
        if ul_id is None:
            return
        under = self.session.doc.underlays[ul_id]
        start = str(self.window_.underlay_layer.path_of(under).parent)
        name, _filter = QFileDialog.getOpenFileName(self, f"Locate {under.name}", start, IMPORT_FILTER)
        if name:
            self._push(lambda i: set_path(self.session.doc, i, stored_path(name, plan_folder(self.window_))))

    def _remove(self) -> None:
        self._push(lambda i: remove_underlay(self.session.doc, i))


# --------------------------------------------------------- outline from DXF
def use_outline(window: MainWindow, ul_id: str | None, layers: tuple[str | None, ...] | None = None) -> bool:
    """Take a DXF underlay's outline and columns (and zones and doors from the layers chosen) into
    the plan (one undo step); ``layers`` (outline, column[, zone, door] layer) skips the dialog."""
    doc = window.session.doc
    item = window.underlay_layer.items.get(ul_id or "")
    drawing = item.content.drawing if item is not None else None
    if ul_id is None or drawing is None:
        window.show_status("Choose a DXF drawing that is shown to take its outline and columns")
        return False
    if layers is None:
        dialog = LayersDialog(drawing, window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        layers = dialog.layers()
    try:
        command = outline_from_drawing(doc, doc.underlays[ul_id], drawing, *layers)
    except (DxfError, Refusal) as exc:
        QMessageBox.warning(window, "Use outline and columns", str(exc))
        return False
    window.session.push(command)
    window.plan_view.fit_to_hall()
    window.show_status(command.text)
    return True


# --------------------------------------------------------- two-point scale
class TwoPointTool(QObject):
    """Click two points on the plan, type their real distance: the drawing is scaled about the
    first point (and optionally moved). Esc cancels. While it is on, clicks are taken before the
    view sees them (an event filter, installed only then)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.view = window.plan_view
        self.ul_id: str | None = None
        self.points: list[tuple[float, float]] = []

    def start(self, ul_id: str) -> None:
        if self.ul_id is None:
            self.view.viewport().installEventFilter(self)
            self.view.installEventFilter(self)
        self.ul_id = ul_id
        self.points = []
        self.view.setFocus()
        self.window_.show_status("Scale: click the first end of a distance you know on the drawing (Esc cancels)")

    def cancel(self) -> None:
        if self.ul_id is not None:
            self.view.viewport().removeEventFilter(self)
            self.view.removeEventFilter(self)
        self.ul_id = None
        self.points = []
        self.view.preview.clear()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.ul_id is None:
            return False
        kind = event.type()
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape:
            self.cancel()
            self.window_.show_status("Scaling cancelled")
            return True
        if not isinstance(event, QMouseEvent) or watched is not self.view.viewport():
            return False
        scene_pos = self.view.mapToScene(event.position().toPoint())
        if kind == QEvent.Type.MouseMove and self.points:
            self.view.preview.set_shape([to_scene(*self.points[0]), scene_pos])
            return False
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        if kind == QEvent.Type.MouseButtonPress:
            self.points.append(to_model(scene_pos))
            if len(self.points) == 1:
                self.window_.show_status("Scale: click the other end")
            else:
                self._finish()
            return True
        return kind in (QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick)

    def _finish(self) -> None:
        ul_id, (first, second) = self.ul_id, self.points
        self.cancel()
        doc = self.window_.session.doc
        if ul_id not in doc.underlays:
            return
        measured = math.dist(first, second)
        dialog = ScaleDialog(measured, first, self.window_)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        try:
            command = scale_by_two_points(doc, ul_id, first, second, dialog.distance.value(), dialog.place())
        except Refusal as exc:
            self.window_.show_status(str(exc))
            return
        self.window_.session.push(command)
        self.window_.show_status(command.text)


# ------------------------------------------------------------------ wiring
def attach(window: MainWindow) -> None:
    window.underlay_layer = UnderlayLayer(window.session, window.plan_view.plan_scene, lambda: plan_folder(window))
    window.scale_tool = TwoPointTool(window)
    window.underlay_panel = UnderlayPanel(window)
    window.add_dock(window.underlay_panel)
    window.tabifyDockWidget(window.undo_dock, window.underlay_panel)
    window.undo_dock.raise_()

    action = QAction("Import &drawing…", window)
    action.setObjectName("import-drawing")
    action.setStatusTip("Put an architect's DXF, a PDF page or an image under the plan")
    action.triggered.connect(lambda: import_drawing(window))
    file_menu = window.menu("&File")
    before = window.save_action
    file_menu.insertAction(before, action)
    file_menu.insertSeparator(before)
    window.import_drawing_action = action

    followed_doc, followed_folder = window.session.doc, plan_folder(window)

    def follow_path() -> None:
        """After Save as… into another folder, re-make the drawings' paths and write them."""
        nonlocal followed_doc, followed_folder
        doc, folder = window.session.doc, plan_folder(window)
        moved = doc is followed_doc and folder != followed_folder
        command = relink(doc, followed_folder, folder) if moved else None
        followed_doc, followed_folder = doc, folder
        if command is not None:
            window.session.push(command)
            window.files.save()
        window.underlay_layer.refresh()
        window.underlay_panel.refresh()

    window.files.path_changed.connect(follow_path)
