"""The equipment palette: catalogue entries grouped like the hall is built, dragged onto the plan.

Built-in and the plan's custom types are listed under Racks, GPU nodes, Switches, Cooling,
Power and Storage with an icon per kind; a filter box narrows the list by name. A drag carries
the catalogue key as ``application/x-hallplanner-type``, which the plan and the rack elevation
accept. The list follows catalogue changes (Change.catalog) and new documents.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PySide6.QtCore import (
    QByteArray,
    QMargins,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QSize,
    Qt,
)
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from planner.model.catalog import PALETTE_GROUPS, CatalogItem
from planner.model.change import Change
from planner.model.document import natural_key
from planner.resources_access import resource
from planner.ui.plan.view import MIME_TYPE
from planner.ui.session import DocumentSession
from planner.ui.trees import children, top_items

GROUP_ORDER = ("Racks", "GPU nodes", "Switches", "Cooling", "Power", "Storage")
KEY_ROLE = Qt.ItemDataRole.UserRole + 1
#: Indentation per level (px): narrower than Qt's 20, so the names have the room.
INDENT = 14


@cache
def kind_icon(kind: str) -> QIcon:
    """The bundled SVG icon of a catalogue kind (an empty icon when there is none)."""
    node = resource("icons", f"{kind}.svg")
    if not node.is_file():
        return QIcon()
    pixmap = QPixmap()
    pixmap.loadFromData(node.read_bytes(), "SVG")
    return QIcon(pixmap)


def describe(item: CatalogItem) -> str:
    """A one-line tooltip with the figures that matter when choosing the type."""
    parts = [item.name]
    if item.width_m and item.depth_m:
        parts.append(f"{item.width_m * 1000:.0f} × {item.depth_m * 1000:.0f} mm")
    if item.rack_units:
        parts.append(f"{item.rack_units}U")
    elif item.height_u:
        parts.append(f"{item.height_u}U")
    if item.power_w:
        parts.append(f"{item.power_w / 1000:.1f} kW")
    if item.capacity_kw:
        parts.append(f"{item.capacity_kw:.0f} kW cooling")
    if item.rating_a:
        parts.append(f"{item.rating_a:.0f} A")
    if item.weight_kg:
        parts.append(f"{item.weight_kg:.0f} kg")
    if item.custom:
        parts.append("custom type")
    return " · ".join(parts)


class _MiddleElide(QStyledItemDelegate):
    """Writes a name too long for its row with "…" in the middle: the start (the kind) and the
    end (U, power, tap-offs: what tells two types apart) stay; the tooltip has it whole."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        widget = option.widget
        style = widget.style() if widget is not None else QApplication.style()
        margin = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        room = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, option, widget).width() - 2 * margin
        metrics = option.fontMetrics
        text = option.text
        if text and metrics.horizontalAdvance(text) > room:
            option.text = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, room)


class _PaletteTree(QTreeWidget):
    """A tree whose drags carry catalogue keys."""

    def shown_text(self, entry: QTreeWidgetItem) -> str:
        """The text the row of ``entry`` shows at the tree's width now (elided or whole)."""
        index = self.indexFromItem(entry)
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        option.rect = self.visualRect(index)
        delegate = self.itemDelegate()
        assert isinstance(delegate, _MiddleElide)
        delegate.initStyleOption(option, index)
        return option.text

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:
        data = QMimeData()
        keys = [item.data(0, KEY_ROLE) for item in items if item.data(0, KEY_ROLE)]
        if keys:
            data.setData(MIME_TYPE, QByteArray(keys[0].encode("utf-8")))
        return data


class PaletteWidget(QWidget):
    """Left-dock palette of equipment types to drag onto the plan or into a rack."""

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("Filter equipment…")
        self.filter_edit.setClearButtonEnabled(True)
        self.tree = _PaletteTree(self)
        self.tree.setHeaderHidden(True)
        self.tree.setIconSize(QSize(24, 24))
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QTreeWidget.DragDropMode.DragOnly)
        self.tree.setRootIsDecorated(True)
        self.tree.setIndentation(INDENT)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.tree.setItemDelegate(_MiddleElide(self.tree))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.tree)
        self.filter_edit.textChanged.connect(self.apply_filter)
        session.changed.connect(self._on_change)
        session.reset.connect(self.refresh)
        self.refresh()

    def _on_change(self, change: Change) -> None:
        if change.catalog:
            self.refresh()

    def refresh(self) -> None:
        """Rebuild the list from the document's catalogue (built-in and custom types)."""
        self.tree.clear()
        groups: dict[str, QTreeWidgetItem] = {}
        for name in GROUP_ORDER:
            group = QTreeWidgetItem([name])
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            groups[name] = group
        items = sorted(self.session.doc.catalog.items.values(), key=lambda i: natural_key(i.name))
        for item in items:
            listed = groups.get(PALETTE_GROUPS.get(item.kind, ""))
            if listed is None:
                continue
            entry = QTreeWidgetItem([item.name + (" (custom)" if item.custom else "")])
            entry.setIcon(0, kind_icon(item.kind))
            entry.setData(0, KEY_ROLE, item.key)
            entry.setToolTip(0, describe(item))
            entry.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled)
            listed.addChild(entry)
        for name in GROUP_ORDER:
            if groups[name].childCount():
                self.tree.addTopLevelItem(groups[name])
                groups[name].setExpanded(True)
        self.apply_filter(self.filter_edit.text())

    def apply_filter(self, text: str) -> None:
        """Show only entries whose name or key contains every word of ``text``."""
        words = text.lower().split()
        for group in top_items(self.tree):
            shown = 0
            for entry in children(group):
                haystack = f"{entry.text(0)} {entry.data(0, KEY_ROLE)}".lower()
                visible = all(word in haystack for word in words)
                entry.setHidden(not visible)
                shown += visible
            group.setHidden(shown == 0)

    def wanted_width(self) -> int:
        """Width (px) that shows every entry's name whole, beside a vertical scroll bar."""
        tree = self.tree
        metrics = tree.fontMetrics()
        style = tree.style()
        text = max((metrics.horizontalAdvance(entry.text(0)) for group in top_items(tree) for entry in children(group)),
                   default=0)
        item = 2 * INDENT + tree.iconSize().width() + 4 * (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1)
        layout = self.layout()
        margins = layout.contentsMargins() if layout is not None else QMargins()
        scroll = style.pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        return text + item + scroll + 2 * tree.frameWidth() + margins.left() + margins.right() + 4

    def type_keys(self, visible_only: bool = False) -> list[str]:
        """Catalogue keys listed, in display order."""
        result = []
        for group in top_items(self.tree):
            for entry in children(group):
                if not (visible_only and (entry.isHidden() or group.isHidden())):
                    result.append(entry.data(0, KEY_ROLE))
        return result
