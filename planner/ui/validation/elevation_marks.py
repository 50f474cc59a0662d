"""Red/amber marks in the rack elevation: a transparent layer over the elevation widget that
outlines the devices (and the rack) named by findings, using the widget's own geometry, and rings
the port markers of cables named by findings (a wrong-rail hand cable's two ports, issue 18).

The layer is a child of the elevation, so it repaints whenever the elevation does (a new rack,
an edit of the rack shown); on its own it repaints only when a findings update changes the
severity of the rack shown, of a device in it or of a cable of one.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QWidget

from planner.fabric.hand_commands import cabled_ports
from planner.model.document import prefix_of
from planner.ui.elevation.dock import ElevationWidget
from planner.ui.plan.items import SEVERITY_COLOURS
from planner.ui.validation.live import FindingsUpdate, LiveValidator


class ElevationMarks(QWidget):
    """Outlines devices with findings over an ElevationWidget (it exposes rack_id, u_rect, channel_rect)."""

    def __init__(self, elevation: ElevationWidget, live: LiveValidator) -> None:
        super().__init__(elevation)
        self.elevation = elevation
        self.live = live
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        elevation.installEventFilter(self)
        live.updated.connect(self._on_update)
        self.resize(elevation.size())
        self.show()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.resize(self.elevation.size())
        return False

    def _on_update(self, update: FindingsUpdate) -> None:
        rack_id = self.elevation.rack_id
        if rack_id is None:
            return
        devices = self.live.session.doc.devices
        cabled = self.elevation.link_ids
        if update.full or any(s == rack_id or s in cabled
                              or (prefix_of(s) == "dev" and s in devices and devices[s].rack == rack_id)
                              for s in update.marks):
            self.update()

    def marked(self) -> dict[str, QRectF]:
        """Rectangles to outline, by severity-bearing id: devices of the shown rack, or the rack."""
        rack_id = self.elevation.rack_id
        doc = self.live.session.doc
        if rack_id is None or rack_id not in doc.racks:
            return {}
        severity = self.live.severity
        rects: dict[str, QRectF] = {}
        devices = doc.devices_in(rack_id)
        zero_u = [d for d in devices if doc.catalog[d.type].height_u == 0]
        for device in devices:
            if not severity(device.id):
                continue
            height = doc.catalog[device.type].height_u
            if height:
                rects[device.id] = self.elevation.u_rect(device.u, height)
            else:
                rects[device.id] = self.elevation.channel_rect(zero_u.index(device), len(zero_u))
        if severity(rack_id):
            total = self.elevation.rack_units()
            rects[rack_id] = self.elevation.u_rect(1, total).adjusted(-3, -3, 3, 3)
        return rects

    def marked_ports(self) -> list[tuple[str, QRectF]]:
        """(cable id, port marker) of each port of the shown rack whose cable a finding names."""
        rack_id = self.elevation.rack_id
        doc = self.live.session.doc
        if rack_id is None or rack_id not in doc.racks or not hasattr(self.elevation, "port_cells"):
            return []
        severity = self.live.severity
        # the devices with a flagged cable (a network rack's 49 switches have 3k cables, mostly
        # without findings: each device's port table is made only where it could show a mark)
        flagged = {end for link_id in self.elevation.link_ids if severity(link_id) and (link := doc.links.get(link_id))
                   for end in (link.a_device, link.b_device)}
        marks = []
        for device in doc.devices_in(rack_id):
            if device.id not in flagged:
                continue
            cells = None
            for port, link_id in cabled_ports(doc, device.id).items():
                if severity(link_id):
                    cells = cells if cells is not None else self.elevation.port_cells(device)
                    if port in cells:
                        marks.append((link_id, cells[port]))
        return marks

    def paintEvent(self, _event: QPaintEvent) -> None:
        rects, ports = self.marked(), self.marked_ports()
        if not rects and not ports:
            return
        painter = QPainter(self)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for obj_id, rect in rects.items():
            painter.setPen(QPen(SEVERITY_COLOURS[self.live.severity(obj_id)], 3))
            painter.drawRect(rect.adjusted(1.5, 1.5, -1.5, -1.5))
        for link_id, cell in ports:
            painter.setPen(QPen(SEVERITY_COLOURS[self.live.severity(link_id)], 2))
            painter.drawRect(cell.adjusted(-1, -1, 1, 1))
