"""The rack elevation dock: the selected rack's front, U by U, devices to scale with names.

Drag a device up or down to another U (one ``move_device`` command on release, refused with a
status message when it does not fit); drop a type from the palette onto a U to mount it there
(``place_device``). Like every view it draws from the model and refreshes from ``changed``, but
only for edits of the rack shown (its name, type, devices or their cables): moving racks around
the plan, or editing any of the other 11k devices of a large hall, leaves it alone.

Cabling by hand (issue 18, ``planner.ui.elevation.ports``): each device shows its ports; click
one to pick it, then Enter (or right-click ▸ Connect…) opens the port picker for the far end; on
a cabled port Enter rewires this end and Delete deletes the cable; Esc drops the pick. The pick
stays while another rack is shown, so Ctrl+click on a port of a device there (or right-click ▸
Connect … to …) opens the picker with that device and port chosen.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QDockWidget, QMenu, QScrollArea, QWidget

from planner.commands import Refusal
from planner.commands.edits import move_device, place_device
from planner.fabric.hand_commands import cabled_ports, end_words
from planner.model.catalog import IN_RACK_KINDS
from planner.model.change import Change
from planner.model.document import Document, prefix_of
from planner.model.objects import Device
from planner.ui.cables.hand import HandCabling
from planner.ui.elevation.front import BAY_WIDTH, CHANNEL_WIDTH, LEFT, TOP, FrontPicture
from planner.ui.elevation.ports import End, port_cells, port_menu, port_tooltip, power_cord_lines
from planner.ui.session import DocumentSession

MIME_TYPE = "application/x-hallplanner-type"
#: Height of one U on screen: the elevation fills the dock between these bounds (pixels).
MIN_PX_PER_U = 9.0
MAX_PX_PER_U = 20.0
BOTTOM = 10
#: Fields of a rack the elevation shows (the title, and the number of U from the type).
SHOWN_RACK_FIELDS = {"name", "type"}


class ElevationWidget(QWidget):
    """Paints one rack's front elevation and turns drags and drops into commands."""

    status_message = Signal(str)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.rack_id: str | None = None
        #: The devices of the rack shown when it was last set, to recognise edits that take one out.
        self.device_ids: set[str] = set()
        self.setAcceptDrops(True)
        self.setMouseTracking(True)
        self._drag: tuple[str, int] | None = None  # device id, grab offset in U
        self._ghost: tuple[int, int] | None = None  # bottom U, height U
        self._ghost_ok = True
        #: The cables of the devices shown, to recognise edits of their ports.
        self.link_ids: set[str] = set()
        #: The port picked for cabling (kept while other racks are shown), and the open menu.
        self.picked: End | None = None
        self.menu: QMenu | None = None
        self.cabling = HandCabling(session, self)
        self.cabling.status_message.connect(self.status_message)
        self.cabling.cabled.connect(lambda _link_id: self.pick(None))
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # a click on a port gives it the keys
        #: The front as last painted (``planner.ui.elevation.front``), made again after set_rack.
        self.front = FrontPicture()

    @property
    def doc(self) -> Document:
        return self.session.doc

    def set_rack(self, rack_id: str | None) -> None:
        self.rack_id = rack_id if rack_id in self.doc.racks else None
        self.device_ids = {d.id for d in self.doc.devices_in(self.rack_id)} if self.rack_id else set()
        self.link_ids = {i for d in self.device_ids for i in self.doc.link_ids_of(d)}
        picked = self.picked
        if picked is not None and (picked[0] not in self.doc.devices
                                   or picked[1] not in self.doc.item_type(self.doc.devices[picked[0]]).all_port_names()):
            self.picked = None  # its device went (deleted, undone) or changed type
        self._drag = self._ghost = None
        self.front.forget()
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def rack_units(self) -> int:
        if self.rack_id is None:
            return 0
        return self.doc.catalog[self.doc.racks[self.rack_id].type].rack_units

    def sizeHint(self) -> QSize:
        return QSize(LEFT + BAY_WIDTH + CHANNEL_WIDTH + 8, int(TOP + max(self.rack_units(), 8) * 14 + BOTTOM))

    def minimumSizeHint(self) -> QSize:
        return QSize(LEFT + BAY_WIDTH + CHANNEL_WIDTH + 8,
                     int(TOP + max(self.rack_units(), 8) * MIN_PX_PER_U + BOTTOM))

    @property
    def px_per_u(self) -> float:
        """Pixels per U: the rack fills the widget's height, within readable bounds."""
        units = max(self.rack_units(), 1)
        return max(MIN_PX_PER_U, min(MAX_PX_PER_U, (self.height() - TOP - BOTTOM) / units))

    # -------------------------------------------------------------- geometry
    def u_rect(self, u: int, height: int) -> QRectF:
        """Rectangle of ``height`` units whose lowest unit is ``u`` (U1 at the bottom)."""
        total = self.rack_units()
        top = TOP + (total - (u + height - 1)) * self.px_per_u
        return QRectF(LEFT, top, BAY_WIDTH, height * self.px_per_u)

    def channel_rect(self, index: int, count: int) -> QRectF:
        """Slot ``index`` of ``count`` 0U devices sharing the side channel top to bottom."""
        share = self.rack_units() * self.px_per_u / max(count, 1)
        return QRectF(LEFT + BAY_WIDTH + 4, TOP + index * share + 2, CHANNEL_WIDTH - 8, share - 4)

    def u_at(self, y: float) -> int:
        """The U number under a widget y coordinate, clamped to the rack."""
        total = self.rack_units()
        return max(1, min(total, total - int((y - TOP) // self.px_per_u)))

    def device_at(self, point: QPointF) -> Device | None:
        if self.rack_id is None:
            return None
        zero_u = [d for d in self.doc.devices_in(self.rack_id) if self.doc.catalog[d.type].height_u == 0]
        for index, device in enumerate(zero_u):
            if self.channel_rect(index, len(zero_u)).contains(point):
                return device
        if not LEFT <= point.x() <= LEFT + BAY_WIDTH:
            return None
        u = self.u_at(point.y())
        for device in self.doc.devices_in(self.rack_id):
            height = self.doc.catalog[device.type].height_u
            if height and device.u <= u < device.u + height:
                return device
        return None

    def port_cells(self, device: Device) -> dict[str, QRectF]:
        """Cell of each port marker of a device shown (empty for 0U devices and when none fit)."""
        item = self.doc.catalog[device.type]
        if not item.height_u or not item.port_count:
            return {}
        return port_cells(self.u_rect(device.u, item.height_u).adjusted(2, 1, -2, -1), item)

    def port_at(self, point: QPointF) -> End | None:
        """(device id, port) of the port marker under a point."""
        device = self.device_at(point)
        if device is None:
            return None
        port = next((p for p, cell in self.port_cells(device).items() if cell.contains(point)), None)
        return (device.id, port) if port is not None else None

    # --------------------------------------------------------------- cabling
    def pick(self, end: End | None) -> None:
        """Pick a port for cabling (None: drop the pick) and say what can be done with it."""
        self.picked = end
        self.update()
        if end is None:
            return
        taken = end[1] in cabled_ports(self.doc, end[0])
        self.status_message.emit(f"{end_words(self.doc, *end)} picked: "
                                 + ("Enter rewires this end, Delete deletes the cable" if taken else
                                    "Enter to connect it, or Ctrl+click a port of another device"))

    def act_on_picked(self) -> None:
        """Enter: connect the picked free port (the picker opens), or rewire the picked cabled end."""
        if self.picked is None or self.picked[0] not in self.doc.devices:
            self.status_message.emit("Click a port of a device first")
            return
        link_id = cabled_ports(self.doc, self.picked[0]).get(self.picked[1])
        if link_id is None:
            self.cabling.connect_from(*self.picked)
            return
        link = self.doc.links[link_id]
        self.cabling.rewire(link_id, "a" if (link.a_device, link.a_port) == self.picked else "b")

    def delete_picked(self) -> None:
        link_id = cabled_ports(self.doc, self.picked[0]).get(self.picked[1]) \
            if self.picked is not None and self.picked[0] in self.doc.devices else None
        if link_id is None:
            self.status_message.emit("No cable on the picked port to delete")
            return
        self.cabling.delete([link_id])

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter: connect or rewire the picked port; Delete: delete its cable; Esc: drop the pick."""
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.picked is not None:
            self.act_on_picked()
        elif key == Qt.Key.Key_Delete and self.picked is not None:
            self.delete_picked()
        elif key == Qt.Key.Key_Escape and self.picked is not None:
            self.pick(None)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        device = self.device_at(QPointF(event.pos()))
        if device is None:
            return
        end = self.port_at(QPointF(event.pos()))
        self.menu = port_menu(self.doc, self.cabling, device.id, end[1] if end else None, self.picked)
        self.menu.popup(event.globalPos())
        event.accept()

    # ---------------------------------------------------------------- paint
    def dragged_device(self) -> str | None:
        """The device being dragged to another U (drawn darker), if any."""
        return self._drag[0] if self._drag is not None else None

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self.front.pixmap(self))  # ``planner.ui.elevation.front``
        if self._ghost is not None:
            u, height = self._ghost
            colour = QColor("#2e7d32") if self._ghost_ok else QColor("#c62828")
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(QPen(colour, 2, Qt.PenStyle.DashLine))
            painter.drawRect(self.u_rect(u, max(height, 1)).adjusted(1, 0, -1, 0))

    # ----------------------------------------------------------- device drags
    def mousePressEvent(self, event: QMouseEvent) -> None:
        device = self.device_at(event.position())
        if event.button() != Qt.MouseButton.LeftButton or device is None:
            super().mousePressEvent(event)
            return
        end = self.port_at(event.position())
        if end is not None:  # a port: pick it (no drag), or Ctrl: connect the pick to it
            picked = self.picked
            self.session.select({device.id})
            if event.modifiers() & Qt.KeyboardModifier.ControlModifier and picked is not None \
                    and picked[0] != device.id and picked[0] in self.doc.devices:
                free = end[1] not in cabled_ports(self.doc, device.id)
                self.cabling.connect_from(*picked, to_device=device.id, to_port=end[1] if free else None)
            else:
                self.pick(end)
            event.accept()
            return
        self.session.select({device.id})
        if self.doc.catalog[device.type].height_u:
            self._drag = (device.id, self.u_at(event.position().y()) - device.u)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag is None:
            device, end = self.device_at(event.position()), self.port_at(event.position())
            self.setToolTip(port_tooltip(self.doc, *end) if end else self._tooltip(device) if device else "")
            return
        device = self.doc.devices.get(self._drag[0])
        if device is None:
            self._drag = None
            return
        height = self.doc.catalog[device.type].height_u
        u = self._target_u(event.position().y(), height, self._drag[1])
        self._ghost = (u, height)
        self._ghost_ok = self.doc.fits_at(device.rack, height, u, ignore=device.id)
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        drag, self._drag, self._ghost = self._drag, None, None
        self.update()
        if drag is None or event.button() != Qt.MouseButton.LeftButton:
            return
        device = self.doc.devices.get(drag[0])
        if device is None:
            return
        u = self._target_u(event.position().y(), self.doc.catalog[device.type].height_u, drag[1])
        if u == device.u:
            return
        try:
            self.session.push(move_device(self.doc, device.id, device.rack, u))
        except Refusal as exc:
            self.status_message.emit(str(exc))

    def _target_u(self, y: float, height: int, offset: int = 0) -> int:
        """The lowest U of a ``height``-U device whose grabbed unit (``offset`` above its bottom) is at y."""
        return max(1, min(self.rack_units() - height + 1, self.u_at(y) - offset))

    def _tooltip(self, device: Device) -> str:
        item = self.doc.catalog[device.type]
        where = f"U{device.u}" if item.height_u else "side channel (0U)"
        size = f"{where}, {item.height_u}U, {item.weight_kg:g} kg, {item.power_peak_w / 1000:g} kW peak"
        return "\n".join([f"{device.name}: {item.name}", size, *power_cord_lines(self.doc, device.id)])

    # -------------------------------------------------------- palette drops
    def _dropped_type(self, event: QDragEnterEvent | QDragMoveEvent | QDropEvent) -> str | None:
        if self.rack_id is None or not event.mimeData().hasFormat(MIME_TYPE):
            return None
        key = bytes(event.mimeData().data(MIME_TYPE).data()).decode("utf-8")
        item = self.doc.catalog.items.get(key)
        return key if item is not None and item.kind in IN_RACK_KINDS else None

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._dropped_type(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        key = self._dropped_type(event)
        if key is None or self.rack_id is None:
            event.ignore()
            return
        height = self.doc.catalog[key].height_u
        if height:
            u = self._target_u(event.position().y(), height)
            self._ghost = (u, height)
            self._ghost_ok = self.doc.fits_at(self.rack_id, height, u)
            self.update()
        event.acceptProposedAction()

    def dragLeaveEvent(self, event) -> None:
        self._ghost = None
        self.update()

    def dropEvent(self, event: QDropEvent) -> None:
        key = self._dropped_type(event)
        self._ghost = None
        self.update()
        if key is None or self.rack_id is None:
            event.ignore()
            return
        height = self.doc.catalog[key].height_u
        u = self._target_u(event.position().y(), height) if height else None
        try:
            self.session.push(place_device(self.doc, key, self.rack_id, u))
        except Refusal as exc:
            self.status_message.emit(str(exc))
        event.acceptProposedAction()


class ElevationDock(QDockWidget):
    """Shows the elevation of the rack that is selected, or that holds the selected device."""

    status_message = Signal(str)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__("Rack elevation", parent)
        self.setObjectName("elevation_dock")
        self.session = session
        self.elevation = ElevationWidget(session)
        self.elevation.status_message.connect(self.status_message)
        scroll = QScrollArea()
        scroll.setWidget(self.elevation)
        scroll.setWidgetResizable(True)
        self.setWidget(scroll)
        session.selection_changed.connect(self._follow_selection)
        session.changed.connect(self._on_changed)
        session.reset.connect(lambda: self.elevation.set_rack(None))

    def _follow_selection(self, ids: set[str]) -> None:
        racks = set()
        for obj_id in ids:
            obj = self.session.doc.find(obj_id)
            if obj is not None and obj_id.startswith("rack-"):
                racks.add(obj_id)
            elif isinstance(obj, Device):
                racks.add(obj.rack)
        if len(racks) == 1:
            self.elevation.set_rack(racks.pop())
        elif racks:
            self.elevation.set_rack(None)
        else:
            self.elevation.update()

    def _on_changed(self, change: Change) -> None:
        rack_id = self.elevation.rack_id
        if rack_id is None:
            return
        if rack_id not in self.session.doc.racks:
            self.elevation.set_rack(None)
        elif change.catalog or self._concerns(change, rack_id):
            self.elevation.set_rack(rack_id)

    def _concerns(self, change: Change, rack_id: str) -> bool:
        """Whether an edit changes what the elevation of ``rack_id`` shows: the rack's name or type,
        or a device that is, or was, in it."""
        if rack_id in change.added or change.modified.get(rack_id, set()) & SHOWN_RACK_FIELDS:
            return True
        doc = self.session.doc
        devices, links, shown, cabled = doc.devices, doc.links, self.elevation.device_ids, self.elevation.link_ids
        for i in change.touched:
            prefix = prefix_of(i)
            if prefix == "dev" and (i in shown or (i in devices and devices[i].rack == rack_id)):
                return True
            if prefix == "link" and (i in cabled or (i in links and (links[i].a_device in shown
                                                                     or links[i].b_device in shown))):
                return True  # a port of the rack was cabled, rewired or freed
        return False
