"""The port picker: choose the far end of a cable made by hand (issue 18).

One end is fixed (the port picked in the rack elevation, or the end of a cable that stays when
the other is rewired). The dialog lists the other devices of the plan, searchable by rack,
name, hostname, role and type (every word must match: "R05 leaf"), and for the chosen device its
free ports, each with its rail and, where the catalogue says, its cage and rack face. The port
that fits the fixed end (the same rail) is chosen first, and a line under the lists says what
the cable would be: its tier and rail, its routed length and media, or the wrong-rail finding
N1 will report.

Keyboard: the filter has the focus, so typing filters; Up/Down there move through the devices;
Tab reaches the ports; Enter accepts (OK is the default button); Esc cancels. The dialog only
chooses: ``chosen()`` gives (device id, port), and the caller builds the command.

At 16k nodes a plan has 20k devices, so the device list is a plain list model over prepared
search texts, filtered with a list comprehension and shown with one model reset.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.fabric.hand import oriented, rail_of_port, tier_and_rail
from planner.fabric.hand_commands import end_words, free_ports
from planner.fabric.routing import Router
from planner.model.catalog import NODE
from planner.model.document import Document, natural_key
from planner.model.objects import TIER_NODE_LEAF
from planner.ui.dialogs.parts import ok_cancel

_ROOT = QModelIndex()
_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
_DEVICE_ROLE = int(Qt.ItemDataRole.UserRole.value)
_PORT_ROLE = int(Qt.ItemDataRole.UserRole.value)
#: Rows a key moves the current device in the filter box.
_STEPS = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -10, Qt.Key.Key_PageDown: 10}
_FULL = QColor("#8a8a8a")
_WARN = "color: #b00020"


class DeviceListModel(QAbstractListModel):
    """Devices with ports as rows "R05 L1 · leaf, rail 1 · 20 free", filtered by words."""

    def __init__(self, doc: Document, exclude: str, first: set[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        rows: list[tuple[tuple, str, str, str, bool]] = []
        for device in doc.devices.values():
            item = doc.catalog[device.type]
            if device.id == exclude or not item.port_count:
                continue
            rack = doc.racks.get(device.rack)
            rack_name = rack.name if rack is not None else ""
            free = item.port_count - len(doc.link_ids_of(device.id))
            role = device.role or ("GPU node" if item.kind == NODE else item.kind)
            rail = f", rail {device.rail}" if device.rail else ""
            text = f"{rack_name} {device.name} · {role}{rail} · {f'{free} free' if free > 0 else 'no free port'}"
            hostname = doc.hostname(device)
            if hostname != f"{rack_name}-{device.name}":
                text += f" · {hostname}"
            search = f"{text} {hostname} {item.name} {device.id} u{device.u}".lower()
            # first the suggested devices (the leaf of a node port's rail), then those with a free
            # port, in rack order
            key = (device.id not in first, free <= 0, natural_key(rack_name), device.u, natural_key(device.name))
            rows.append((key, device.id, text, search, free > 0))
        rows.sort(key=lambda row: row[0])
        self._all = [(device_id, text, search, free) for _key, device_id, text, search, free in rows]
        self._rows = self._all

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        if not index.isValid():
            return None
        device_id, text, _search, free = self._rows[index.row()]
        if role == _DISPLAY:
            return text
        if role == _DEVICE_ROLE:
            return device_id
        if role == _FOREGROUND and not free:
            return _FULL
        return None

    def set_filter(self, text: str) -> None:
        words = text.lower().split()
        self.beginResetModel()
        self._rows = [row for row in self._all if all(w in row[2] for w in words)] if words else self._all
        self.endResetModel()

    def row_of(self, device_id: str) -> int:
        return next((r for r, row in enumerate(self._rows) if row[0] == device_id), -1)

    def device_at(self, row: int) -> str | None:
        return self._rows[row][0] if 0 <= row < len(self._rows) else None


def port_text(doc: Document, device_id: str, port: str) -> str:
    """A port as the picker lists it: "7/1 · rail 2 · cage 7 · rear", "P1 · rail 1 (GPU 1)"."""
    item = doc.catalog[doc.devices[device_id].type]
    rail = rail_of_port(doc, device_id, port)
    parts = [port]
    if item.kind == NODE:
        parts.append(f"rail {rail} (GPU {rail})" if rail else "no rail")
    else:
        parts.append(f"rail {rail}" if rail else "no rail")
        if item.ports_per_cage > 1 and "/" in port:
            parts.append(f"cage {port.split('/', 1)[0]} of {item.port_cages}")
    if item.port_face:
        parts.append(item.port_face)
    return " · ".join(parts)


class PortPickerDialog(QDialog):
    """Choose the device and free port at the far end of a cable from ``fixed`` (device, port)."""

    def __init__(self, doc: Document, fixed: tuple[str, str], *, title: str = "Connect port",
                 ok_text: str = "Connect", device: str | None = None, port: str | None = None,
                 router: Router | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("port_picker")
        self.doc, self.fixed, self.router = doc, fixed, router
        fixed_device, fixed_port = fixed
        fixed_rail = rail_of_port(doc, fixed_device, fixed_port)
        self._fixed_rail = fixed_rail
        heading = QLabel(f"From <b>{end_words(doc, fixed_device, fixed_port)}</b>"
                         + (f" (rail {fixed_rail})" if fixed_rail else "") + " to:")
        self.filter = QLineEdit()
        self.filter.setObjectName("port_picker_filter")
        self.filter.setPlaceholderText("Type to filter devices: rack, name, hostname, role (e.g. R05 leaf)")
        self.filter.setClearButtonEnabled(True)
        self.filter.installEventFilter(self)
        self.model = DeviceListModel(doc, fixed_device, self._suggested(), self)
        self.devices = QListView()
        self.devices.setObjectName("port_picker_devices")
        self.devices.setModel(self.model)
        self.devices.setUniformItemSizes(True)
        self.ports = QListWidget()
        self.ports.setObjectName("port_picker_ports")
        self.ports_heading = QLabel("Free ports")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setObjectName("port_picker_hint")
        self.buttons = ok_cancel(self, ok_text)
        self.ok = self.buttons.button(self.buttons.StandardButton.Ok)
        self.ok.setDefault(True)

        lists = QHBoxLayout()
        left, right = QVBoxLayout(), QVBoxLayout()
        left.addWidget(QLabel("Devices"))
        left.addWidget(self.devices)
        right.addWidget(self.ports_heading)
        right.addWidget(self.ports)
        lists.addLayout(left, 3)
        lists.addLayout(right, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.filter)
        layout.addLayout(lists, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.buttons)
        self.resize(620, 440)

        self.filter.textChanged.connect(self._filter)
        self.devices.selectionModel().currentChanged.connect(lambda current, _prev: self._show_ports())
        self.ports.currentItemChanged.connect(lambda _current, _prev: self._update_hint())
        self.ports.itemDoubleClicked.connect(lambda _item: self.accept())
        self.devices.doubleClicked.connect(lambda _index: self.ports.setFocus())
        self.select_device(device, port)
        self.filter.setFocus()

    # ------------------------------------------------------------- choosing
    def _suggested(self) -> set[str]:
        """Devices the fixed end is meant to reach: a GPU port's rail leaves."""
        device_id = self.fixed[0]
        if self.doc.catalog[self.doc.devices[device_id].type].kind != NODE or not self._fixed_rail:
            return set()
        return {d.id for d in self.doc.devices.values() if d.role == "leaf" and d.rail == self._fixed_rail}

    def select_device(self, device_id: str | None, port: str | None = None) -> None:
        """Make ``device_id`` the current device (the first one listed when None or not listed)
        and ``port`` its chosen port (else the one that fits the fixed end best)."""
        row = self.model.row_of(device_id) if device_id else -1
        if row < 0 and device_id:
            self.filter.clear()
            row = self.model.row_of(device_id)
        self._wanted_port = port
        self.devices.setCurrentIndex(self.model.index(max(row, 0), 0))
        if self.model.rowCount() == 0:
            self._show_ports()

    def current_device(self) -> str | None:
        return self.model.device_at(self.devices.currentIndex().row())

    def chosen(self) -> tuple[str, str] | None:
        """The far end chosen: (device id, port), or None."""
        device, item = self.current_device(), self.ports.currentItem()
        if device is None or item is None:
            return None
        return device, item.data(_PORT_ROLE)

    def _filter(self, text: str) -> None:
        keep = self.current_device()
        self.model.set_filter(text)
        row = self.model.row_of(keep) if keep else -1
        self._wanted_port = self.ports.currentItem().data(_PORT_ROLE) if row >= 0 and self.ports.currentItem() \
            else None
        self.devices.setCurrentIndex(self.model.index(max(row, 0), 0))
        if self.model.rowCount() == 0:
            self._show_ports()

    def _show_ports(self) -> None:
        device = self.current_device()
        self.ports.clear()
        wanted, self._wanted_port = getattr(self, "_wanted_port", None), None
        if device is None:
            self.ports_heading.setText("Free ports")
            self._update_hint()
            return
        doc = self.doc
        free = free_ports(doc, device)
        total = doc.catalog[doc.devices[device].type].port_count
        self.ports_heading.setText(f"Free ports of {end_words(doc, device, '').strip()}: {len(free)} of {total}")
        best = None
        for port in free:
            entry = QListWidgetItem(port_text(doc, device, port))
            entry.setData(_PORT_ROLE, port)
            self.ports.addItem(entry)
            if port == wanted or (best is None and wanted is None and self._fits(device, port)):
                best = entry
        self.ports.setCurrentItem(best or self.ports.item(0))
        self._update_hint()

    def _fits(self, device: str, port: str) -> bool:
        """Whether a port is on the fixed end's rail (any port when either has no rail)."""
        rail = rail_of_port(self.doc, device, port)
        return not (self._fixed_rail and rail) or rail == self._fixed_rail

    # ----------------------------------------------------------------- hint
    def _update_hint(self) -> None:
        end = self.chosen()
        self.ok.setEnabled(end is not None)
        if end is None:
            device = self.current_device()
            self.hint.setStyleSheet(_WARN if device else "")
            self.hint.setText("This device has no free port." if device else "No device matches the filter.")
            return
        doc = self.doc
        a_dev, a_port, b_dev, b_port = oriented(doc, *self.fixed, *end)
        tier, rail = tier_and_rail(doc, a_dev, a_port, b_dev, b_port)
        words = [tier or "outside the fabric (no tier)"]
        if rail:
            words.append(f"rail {rail}")
        if self.router is not None:
            result = self.router.route(a_dev, b_dev, tier)
            words.append(f"{result.length_m:.1f} m routed → {result.media or 'no media'}"
                         + (f", {result.stock_m:g} m stock" if result.stock_m else ""))
        text, style = " · ".join(words), ""
        leaf = doc.devices[b_dev]
        if tier == TIER_NODE_LEAF and leaf.role == "leaf" and leaf.rail and rail and leaf.rail != rail:
            text += f"\nGPU {rail} on the rail-{leaf.rail} leaf {leaf.name}: the wrong rail (N1 will report it)"
            style = _WARN
        self.hint.setStyleSheet(style)
        self.hint.setText(text)

    # ------------------------------------------------------------- keyboard
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up/Down (and Page Up/Down) in the filter box move through the devices."""
        if watched is self.filter and isinstance(event, QKeyEvent) and event.type() == QEvent.Type.KeyPress:
            step = _STEPS.get(Qt.Key(event.key()))
            if step is not None and self.model.rowCount():
                row = max(0, min(self.model.rowCount() - 1, self.devices.currentIndex().row() + step))
                self.devices.setCurrentIndex(self.model.index(row, 0))
                return True
        return super().eventFilter(watched, event)

    def accept(self) -> None:
        if self.chosen() is not None:
            super().accept()
