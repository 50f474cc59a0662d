"""Installation progress on the plan (issue 13): each rack coloured by the share of its cables
verified, racks holding a faulty cable hatched and outlined in red, and the hall's count for the
status bar ("71,204 of 98,304 cables verified").

``InstallTally`` keeps the counts by difference: a Change names the cables whose state, ends or
existence changed, and only those are re-counted, so marking a rack's cables costs that rack's
cables, not the hall's 98k. The per-rack figures the overlay needs are built the first time it is
shown (the status bar needs only the hall's totals, made at open with one pass over the states).

A cable counts for the racks of both its ends (once when both are in one rack): an installer
walking to a rack wants to know whether everything plugged in there is done.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QGraphicsItem,
    QLabel,
    QStyleOptionGraphicsItem,
    QWidget,
)

from planner.model.change import Change
from planner.model.document import Document, prefix_of
from planner.ui.plan.items import lod_of
from planner.ui.plan.units import m, to_scene

PLANNED, VERIFIED, FAULTY = "planned", "verified", "faulty"
#: Where a state is counted in a rack's [cables, verified, faulty].
_SLOTS = {VERIFIED: 1, FAULTY: 2}
#: Share of a rack's cables verified: (upper bound, colour, legend text). A light-to-dark blue
#: ramp (reads in grey and for red-green colour blindness); red is kept for faulty racks.
PROGRESS_BANDS: list[tuple[float, QColor, str]] = [
    (0.0, QColor(236, 236, 236), "none verified"),
    (0.25, QColor(198, 219, 239), "under 25 %"),
    (0.5, QColor(158, 202, 225), "25–50 %"),
    (0.75, QColor(107, 174, 214), "50–75 %"),
    (0.999999, QColor(49, 130, 189), "75–99 %"),
    (1.0, QColor(8, 69, 148), "all verified"),
]
FAULTY_COLOUR = QColor(215, 30, 30)
Z_INSTALL = 61
#: Figures written on racks from this text height on screen (pixels), as on the other overlays.
LABEL_MIN_PIXELS = 8.0
_TEXT = QColor(20, 20, 30)
#: Painted around a rack's box (scene units): the faulty outline is 3 px wide at any zoom.
_MARGIN = m(0.5)
#: Beyond this many racks changed, one repaint of the layer is cheaper than one per rack.
_DIRTY_LIMIT = 64


def progress_colour(verified: int, total: int) -> QColor:
    share = verified / total if total else 0.0
    return next(colour for limit, colour, _text in PROGRESS_BANDS if share <= limit)


def verified_text(tally: InstallTally) -> str:
    """The status bar's line: "71,204 of 98,304 cables verified · 12 faulty"."""
    counts = tally.counts
    text = f"{counts[VERIFIED]:,} of {tally.total:,} cables verified"
    return text + (f" · {counts[FAULTY]:,} faulty" if counts[FAULTY] else "")


class InstallTally:
    """Cables by installation state, for the hall and (built on first use) per rack.

    Only cables past ``planned`` are held (``states``): a hall opens before anyone has cabled it,
    and a plan's every cable starts there.
    """

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.states: dict[str, str] = {i: link.state for i, link in doc.links.items() if link.state != PLANNED}
        self.counts: Counter[str] = Counter(self.states.values())
        #: rack id → [cables, verified, faulty] counting for it; None until asked for.
        self._racks: dict[str, list[int]] | None = None
        self._ends: dict[str, tuple[str, ...]] = {}  # link id → the racks it counts for

    @property
    def total(self) -> int:
        return len(self.doc.links)

    def per_rack(self) -> dict[str, list[int]]:
        """[cables, verified, faulty] per rack id."""
        if self._racks is None:
            self._racks = {}
            self._ends = {}
            rack_of = {device.id: device.rack for device in self.doc.devices.values()}
            for link_id, link in self.doc.links.items():
                self._add(link_id, link.a_device, link.b_device, link.state, rack_of)
        return self._racks

    def _add(self, link_id: str, a_device: str, b_device: str, state: str, rack_of: dict[str, str]) -> None:
        """Count a cable for the racks of its ends (once when both are in one rack)."""
        a, b = rack_of.get(a_device), rack_of.get(b_device)
        ends = tuple(r for r in ((a,) if a == b else (a, b)) if r is not None)
        self._ends[link_id] = ends
        slot = _SLOTS.get(state)
        racks = self._racks
        assert racks is not None
        for rack_id in ends:
            counts = racks.get(rack_id)
            if counts is None:
                counts = racks[rack_id] = [0, 0, 0]
            counts[0] += 1
            if slot:
                counts[slot] += 1

    def _take(self, link_id: str, state: str) -> tuple[str, ...]:
        """Take a cable out of its racks' figures; returns those racks."""
        assert self._racks is not None
        ends = self._ends.pop(link_id, ())
        slot = _SLOTS.get(state)
        for rack_id in ends:
            counts = self._racks[rack_id]
            counts[0] -= 1
            if slot:
                counts[slot] -= 1
        return ends

    def _set_state(self, link_id: str, state: str | None) -> str:
        """Note a cable's state (None: it is gone); returns the one it had. ``counts`` holds the
        states past planned only."""
        old = self.states.pop(link_id, PLANNED)
        if old != PLANNED:
            self.counts[old] -= 1
        if state is not None and state != PLANNED:
            self.states[link_id] = state
            self.counts[state] += 1
        return old

    def apply(self, change: Change) -> set[str]:
        """Re-count the cables a Change concerns; returns the racks whose figures changed (none
        while the per-rack figures were never asked for)."""
        links, devices = self.doc.links, self.doc.devices
        moved = {i for i in change.removed | change.added if i in self._ends or i in links or i in self.states}
        restated: list[str] = []
        for obj_id, names in change.modified.items():
            if obj_id.startswith("link-"):  # 98k of them when a verification is recorded
                if "a_device" in names or "b_device" in names:
                    moved.add(obj_id)
                elif "state" in names:
                    restated.append(obj_id)
            elif "rack" in names and prefix_of(obj_id) == "dev" and obj_id in devices:
                moved |= self.doc.link_ids_of(obj_id)
        racks: set[str] = set()
        per_rack = self._racks
        for link_id in restated:
            state = links[link_id].state
            old = self._set_state(link_id, state)
            if per_rack is not None and old != state:
                old_slot, new_slot = _SLOTS.get(old), _SLOTS.get(state)
                for rack_id in self._ends.get(link_id, ()):
                    counts = per_rack[rack_id]
                    if old_slot:
                        counts[old_slot] -= 1
                    if new_slot:
                        counts[new_slot] += 1
                    racks.add(rack_id)
        rack_of = {} if per_rack is None or not moved else {d: devices[d].rack for i in moved if i in links
                                                             for d in (links[i].a_device, links[i].b_device)
                                                             if d in devices}
        for link_id in moved:
            link = links.get(link_id)
            old = self._set_state(link_id, link.state if link is not None else None)
            if per_rack is not None:
                racks.update(self._take(link_id, old))
                if link is not None:
                    self._add(link_id, link.a_device, link.b_device, link.state, rack_of)
                    racks.update(self._ends[link_id])
        return racks


#: What the layer draws for one rack: box, fill, whether it holds a faulty cable, its figures.
_RackMark = tuple[QRectF, QColor, bool, str]


@lru_cache(maxsize=32)
def _font(pixels: int) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, pixels))
    return font


class InstallLayer(QGraphicsItem):
    """Racks filled by the share of their cables verified; a faulty cable's racks hatched and
    outlined in red (so they read without colour too), with "62 % · 3 faulty" where legible."""

    def __init__(self, doc: Document, tally: InstallTally) -> None:
        super().__init__()
        self.setZValue(Z_INSTALL)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.doc, self.tally = doc, tally
        self._rect = QRectF()
        #: rack id → (box, fill, holds a faulty cable, figures); patched per edit for its racks.
        self._plan: dict[str, _RackMark] = {}
        self._batches: tuple[list[tuple[QColor, list[QRectF]]], list[QRectF]] | None = None
        self.refresh()

    def follow(self, doc: Document, tally: InstallTally) -> None:
        """Draw another plan (File ▸ Open)."""
        self.doc, self.tally = doc, tally
        self.refresh()

    def refresh(self, racks: set[str] | None = None) -> None:
        """Work out again the marks of ``racks`` (every rack when None) from the tally."""
        per_rack = self.tally.per_rack()
        everything = racks is None
        if racks is None:
            self._plan = {}
            racks = set(per_rack)
        dirty: list[QRectF] = []
        for rack_id in racks:
            old = self._plan.pop(rack_id, None)
            mark = self._mark(rack_id, per_rack.get(rack_id))
            if mark is not None:
                self._plan[rack_id] = mark
            if mark != old:
                dirty.extend(drawn[0] for drawn in (old, mark) if drawn is not None)
        rect = QRectF()
        for mark in self._plan.values():
            rect = rect.united(mark[0])
        if rect != self._rect:
            self.prepareGeometryChange()
            self._rect = rect
            everything = True
        self._batches = None
        if everything or len(dirty) > _DIRTY_LIMIT:
            self.update()
        else:  # only the racks that changed, each its own area (a repaint of the hall is ~15 ms)
            for box in dirty:
                self.update(box.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN))

    def _mark(self, rack_id: str, counts: list[int] | None) -> _RackMark | None:
        rack = self.doc.racks.get(rack_id)
        if rack is None or not counts or counts[0] <= 0:
            return None
        total, verified, faulty = counts
        x0, y0, x1, y1 = self.doc.rack_bounds(rack)
        text = f"{rack.name}\n{verified / total:.0%}" + (f" · {faulty} faulty" if faulty else "")
        return QRectF(to_scene(x0, y0), to_scene(x1, y1)), progress_colour(verified, total), faulty > 0, text

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._batches is None:  # once per edit: a pan or zoom repaints from the batches
            fills: dict[int, tuple[QColor, list[QRectF]]] = {}
            for box, colour, _faulty, _text in self._plan.values():
                fills.setdefault(colour.rgb(), (colour, []))[1].append(box)
            self._batches = list(fills.values()), [mark[0] for mark in self._plan.values() if mark[2]]
        fills_list, faulty = self._batches
        painter.setPen(Qt.PenStyle.NoPen)
        for colour, boxes in fills_list:
            painter.setBrush(colour)
            painter.drawRects(boxes)
        if faulty:
            outline = QPen(FAULTY_COLOUR, 3)
            outline.setCosmetic(True)
            painter.setPen(outline)
            painter.setBrush(QBrush(FAULTY_COLOUR, Qt.BrushStyle.BDiagPattern))
            painter.drawRects(faulty)
        lod = lod_of(painter)
        exposed = option.exposedRect
        for box, colour, _bad, text in self._plan.values():
            size = min(box.width(), box.height()) / 5
            if lod * size < LABEL_MIN_PIXELS or not box.intersects(exposed):
                continue
            painter.setFont(_font(round(size)))
            painter.setPen(QColor(255, 255, 255) if colour.lightness() < 110 else _TEXT)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)


class InstallLegend(QLabel):
    """The overlay's key, pinned to the view's upper-right corner (the other overlays' key is in
    the lower right, the scale bar in the lower left)."""

    def __init__(self, view: QAbstractScrollArea) -> None:
        super().__init__(view)
        self.view = view
        self.setObjectName("install_legend")
        self.setStyleSheet("QLabel { background: rgba(255, 255, 255, 235); border: 1px solid #888;"
                           " padding: 6px; color: #111; }")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        swatches = "".join(f"<tr><td style='background:{colour.name()}'>&nbsp;&nbsp;&nbsp;&nbsp;</td>"
                           f"<td>&nbsp;{text}</td></tr>" for _limit, colour, text in PROGRESS_BANDS)
        faulty = (f"<tr><td style='border: 2px solid {FAULTY_COLOUR.name()}; color: {FAULTY_COLOUR.name()}'>"
                  "&nbsp;╱╱&nbsp;</td><td>&nbsp;holds a faulty cable (red edge, hatched)</td></tr>")
        self.setText("<b>Installation progress</b><br><small>share of the rack's cables verified</small>"
                     f"<table cellspacing='2'>{swatches}{faulty}</table>")
        self.adjustSize()
        view.installEventFilter(self)
        self.hide()

    def showEvent(self, event) -> None:
        self._place()
        super().showEvent(event)

    def _place(self) -> None:
        area = self.view.viewport().geometry()
        self.move(max(area.left() + 10, area.right() - self.width() - 10), area.top() + 10)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._place()
        return False
