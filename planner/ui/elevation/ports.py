"""Port markers of the rack elevation and its cabling menu (issue 18).

Each device with network ports shows them as a strip of small markers at the right of its box,
in hardware order: a GPU node's rail ports ``P1`` … ``P8`` in one row, a switch's cages left to
right with each cage's ports stacked (``1/1`` over ``1/2``). A cabled port is filled with its
cable's rail colour (grey outside the fabric), a free one is white, the port picked for cabling
has a blue ring. Hit-testing uses whole cells, so a 1U switch's 2-pixel rows stay clickable.

``port_menu`` is the elevation's right-click menu on a device: connect the picked port to this
device, connect / rewire / delete on the port under the pointer, and "Connect port" listing
every port, free or with the far end it is cabled to. A device's tooltip lists the outlet each
of its PSUs is on (``power_cord_lines``: "PSU1 → PDU-A1 O37").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QMenu

from planner.fabric.hand import rail_of_port
from planner.fabric.hand_commands import cabled_ports, end_words
from planner.model.catalog import CatalogItem
from planner.model.document import Document
from planner.model.labels import cable_label
from planner.model.ports import psu_names
from planner.ui.cables.layer import rail_colour

if TYPE_CHECKING:
    from planner.ui.cables.hand import HandCabling

#: Widest and tallest a marker cell gets (pixels), and the share of the box the strip may take.
MAX_CELL_W = 12.0
MAX_CELL_H = 10.0
STRIP_SHARE = 0.62
MIN_CELL_W = 2.0
FREE_FILL = QColor("#ffffff")
NO_RAIL_FILL = QColor("#9e9e9e")
OUTLINE = QColor("#6b6b6b")
PICKED = QColor("#1f5fbf")

End = tuple[str, str]


def port_cells(box: QRectF, item: CatalogItem) -> dict[str, QRectF]:
    """Cell of each port of a device drawn in ``box`` (empty when it has none or they do not fit)."""
    names = item.port_names()
    if not names or box.width() < 20 or box.height() < 4:
        return {}
    lanes = max(item.ports_per_cage, 1)
    columns = -(-len(names) // lanes)
    width = min(MAX_CELL_W, box.width() * STRIP_SHARE / columns)
    if width < MIN_CELL_W:
        return {}
    height = min(MAX_CELL_H * (1 if lanes == 1 else 0.8), (box.height() - 4) / lanes)
    right = box.right() - 4
    top = box.center().y() - height * lanes / 2
    left = right - width * columns
    return {name: QRectF(left + (i // lanes) * width, top + (i % lanes) * height, width, height)
            for i, name in enumerate(names)}


def strip_left(cells: dict[str, QRectF], box: QRectF) -> float:
    """Where the strip starts (the label is elided before it)."""
    return min((c.left() for c in cells.values()), default=box.right())


def paint_ports(painter: QPainter, doc: Document, device_id: str, cells: dict[str, QRectF],
                picked: End | None) -> None:
    """Draw a device's port markers: rail colour when cabled, white when free, blue ring when picked."""
    used = cabled_ports(doc, device_id)
    links = doc.links
    painter.save()
    for port, cell in cells.items():
        marker = cell.adjusted(0.5, 0.5, -0.5, -0.5) if cell.width() >= 4 else cell
        link_id = used.get(port)
        if link_id is None:
            fill = FREE_FILL
        else:
            rail = links[link_id].rail
            fill = rail_colour(rail) if links[link_id].tier else NO_RAIL_FILL
        painter.setBrush(fill)
        painter.setPen(QPen(OUTLINE, 0.6) if cell.width() >= 4 else QPen(fill.darker(130), 0.4))
        painter.drawRect(marker)
    if picked is not None and picked[0] == device_id and picked[1] in cells:
        painter.setBrush(QColor(0, 0, 0, 0))
        painter.setPen(QPen(PICKED, 2))
        painter.drawRect(cells[picked[1]].adjusted(-1.5, -1.5, 1.5, 1.5))
    painter.restore()


def port_tooltip(doc: Document, device_id: str, port: str) -> str:
    """"P1 (rail 1): free" or "P1 (rail 1) → R02 L1 7/1, R01-U17-N5-P1 ↔ …"."""
    rail = rail_of_port(doc, device_id, port)
    head = f"{end_words(doc, device_id, port)}" + (f" (rail {rail})" if rail else "")
    link_id = cabled_ports(doc, device_id).get(port)
    if link_id is None:
        return f"{head}: free — click to pick it, then Enter (or right-click) to connect"
    link = doc.links[link_id]
    far = (link.b_device, link.b_port) if (link.a_device, link.a_port) == (device_id, port) \
        else (link.a_device, link.a_port)
    return f"{head} → {end_words(doc, *far)}\n{cable_label(doc, link)}, {link.media} {link.stock_m:g} m, {link.state}"


def power_cord_lines(doc: Document, device_id: str) -> list[str]:
    """Which outlet each PSU of a device is on, for its tooltip: "PSU1 → PDU-A1 O37", or
    "PSU3: no cord"."""
    used = cabled_ports(doc, device_id)
    lines = []
    for psu in psu_names(doc.catalog[doc.devices[device_id].type].psu_count):
        if psu not in used:
            lines.append(f"{psu}: no cord")
            continue
        far_id, outlet = far_end(doc, used[psu], (device_id, psu))[1]
        far = doc.devices.get(far_id)
        lines.append(f"{psu} → {far.name if far is not None else far_id} {outlet}")
    return lines


def far_end(doc: Document, link_id: str, end: End) -> tuple[str, End]:
    """(the cable's end letter at ``end``, the other end) of a cable."""
    link = doc.links[link_id]
    if (link.a_device, link.a_port) == end:
        return "a", (link.b_device, link.b_port)
    return "b", (link.a_device, link.a_port)


def _cable_actions(menu: QMenu, doc: Document, cabling: HandCabling, link_id: str, end: End,
                   prefix: str = "") -> None:
    letter, other = far_end(doc, link_id, end)
    this = menu.addAction(f"{prefix}Rewire this end ({end_words(doc, *end)})…")
    this.setObjectName("rewire-this-end")
    this.triggered.connect(lambda: cabling.rewire(link_id, letter))
    far = menu.addAction(f"{prefix}Rewire the other end ({end_words(doc, *other)})…")
    far.setObjectName("rewire-other-end")
    far.triggered.connect(lambda: cabling.rewire(link_id, "b" if letter == "a" else "a"))
    delete = menu.addAction(f"{prefix}Delete cable")
    delete.setObjectName("delete-cable")
    delete.triggered.connect(lambda: cabling.delete([link_id]))


def port_menu(doc: Document, cabling: HandCabling, device_id: str, port: str | None,
              picked: End | None, parent: QMenu | None = None) -> QMenu:
    """The right-click menu on a device (``port``: the marker under the pointer, or None)."""
    menu = QMenu(parent)
    item = doc.catalog[doc.devices[device_id].type]
    used = cabled_ports(doc, device_id)
    if picked is not None and picked[0] != device_id and picked[0] in doc.devices \
            and picked[1] not in cabled_ports(doc, picked[0]):
        target = f"{end_words(doc, device_id, port)}" if port and port not in used else \
            end_words(doc, device_id, "").strip()
        join = menu.addAction(f"Connect {end_words(doc, *picked)} to {target}…")
        join.setObjectName("connect-picked-here")
        join.triggered.connect(lambda: cabling.connect_from(*picked, to_device=device_id,
                                                            to_port=port if port not in used else None))
        menu.addSeparator()
    if port is not None:
        if port in used:
            _cable_actions(menu, doc, cabling, used[port], (device_id, port))
        else:
            connect = menu.addAction(f"Connect {end_words(doc, device_id, port)}…")
            connect.setObjectName("connect-port")
            connect.triggered.connect(lambda: cabling.connect_from(device_id, port))
        menu.addSeparator()
    ports = menu.addMenu("Connect port")
    ports.setObjectName("connect-port-menu")
    names = item.port_names()
    ports.setEnabled(bool(names))
    for name in names:
        link_id = used.get(name)
        if link_id is None:
            action = ports.addAction(f"{name} — free…")
            action.triggered.connect(lambda _checked=False, p=name: cabling.connect_from(device_id, p))
            continue
        _letter, other = far_end(doc, link_id, (device_id, name))
        sub = ports.addMenu(f"{name} — to {end_words(doc, *other)}")
        _cable_actions(sub, doc, cabling, link_id, (device_id, name))
    if not names:
        ports.setTitle("Connect port (no network ports)")
    return menu
