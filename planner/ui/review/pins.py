"""Review comments on the floor plan: one numbered pin per top-level comment.

A pin is a map pin of constant size on screen (it ignores the view's zoom): its tip is on the
pinned point, its head carries the comment's number (``planner.commands.comments.numbers``, the
same number the dock, ``planner comments`` and the review PDF give it). Open and resolved read
apart without colour: an open pin's head is solid (yellow, black ring, black number), a resolved
one is hollow (white, dashed grey ring, grey number, a tick under it). The comment shown in the
Comments dock gets a blue halo.

Pins hold only a comment id and draw from the model. A pin on an object follows it: its place is
the object's anchor plus the stored offset (``pin_position``), so after any edit the layer
re-reads the pins' places (a moved rack carries its pins on release, as its footprint moves).
There are few comments, so every edit re-reads all of them; pins are not plan items, so they
never block a drop, a paste or a rubber band.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QStyleOptionGraphicsItem,
    QWidget,
)

from planner.commands.comments import OPEN, RESOLVED, numbers, pin_position, top_level
from planner.model.change import Change
from planner.ui.plan.items import SELECTION_COLOUR
from planner.ui.plan.units import to_scene
from planner.ui.session import DocumentSession

#: Above the plan, its overlays (60), a highlighted route (65) and the drag preview (70): a pin
#: is never hidden under what it comments on.
Z_PINS = 90
#: The pin on screen, pixels: head radius and the height of the tip below the head's centre.
HEAD_RADIUS = 11.0
TIP = 26.0
OPEN_FILL, OPEN_EDGE = QColor(255, 205, 40), QColor(20, 20, 20)
RESOLVED_FILL, RESOLVED_EDGE = QColor(255, 255, 255), QColor(120, 120, 120)
#: Which statuses are shown, by the dock's filter.
SHOWN = {"open": (OPEN,), "resolved": (RESOLVED,), "all": (OPEN, RESOLVED)}

_NUMBER_FONT = QFont("DejaVu Sans")
_NUMBER_FONT.setPixelSize(12)
_NUMBER_FONT.setBold(True)


def _head_path() -> QPainterPath:
    """The pin's outline with its tip at (0, 0): a disc above a point."""
    path = QPainterPath()
    path.addEllipse(QPointF(0, -TIP), HEAD_RADIUS, HEAD_RADIUS)
    tail = QPainterPath()
    tail.moveTo(0, 0)
    tail.lineTo(-HEAD_RADIUS * 0.55, -TIP + HEAD_RADIUS * 0.6)
    tail.lineTo(HEAD_RADIUS * 0.55, -TIP + HEAD_RADIUS * 0.6)
    tail.closeSubpath()
    return path.united(tail)


_SHAPE = _head_path()


class PinItem(QGraphicsItem):
    """One comment's pin; ``sync`` re-reads its place, number and status."""

    def __init__(self, comment_id: str) -> None:
        super().__init__()
        self.comment_id = comment_id
        self.number = 0
        self.status = OPEN
        self.current = False
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setZValue(Z_PINS)
        self.setToolTip("")

    def boundingRect(self) -> QRectF:
        margin = 4.0
        return QRectF(-HEAD_RADIUS - margin, -TIP - HEAD_RADIUS - margin, 2 * (HEAD_RADIUS + margin),
                      TIP + HEAD_RADIUS + 2 * margin + 8)

    def shape(self) -> QPainterPath:
        return _SHAPE

    def set_state(self, number: int, status: str, tooltip: str) -> None:
        if (number, status) != (self.number, self.status):
            self.number, self.status = number, status
            self.update()
        self.setToolTip(tooltip)

    def set_current(self, current: bool) -> None:
        if current != self.current:
            self.current = current
            self.update()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.current:
            painter.setPen(QPen(SELECTION_COLOUR, 4))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, -TIP), HEAD_RADIUS + 3, HEAD_RADIUS + 3)
        resolved = self.status == RESOLVED
        edge = QPen(RESOLVED_EDGE if resolved else OPEN_EDGE, 1.5 if resolved else 2,
                    Qt.PenStyle.DashLine if resolved else Qt.PenStyle.SolidLine)
        painter.setPen(edge)
        painter.setBrush(QBrush(RESOLVED_FILL if resolved else OPEN_FILL))
        painter.drawPath(_SHAPE)
        painter.setPen(RESOLVED_EDGE if resolved else OPEN_EDGE)
        painter.setFont(_NUMBER_FONT)
        head = QRectF(-HEAD_RADIUS, -TIP - HEAD_RADIUS, 2 * HEAD_RADIUS, 2 * HEAD_RADIUS)
        painter.drawText(head, Qt.AlignmentFlag.AlignCenter, str(self.number))
        if resolved:  # a tick beside the tip: resolved reads in grey too
            painter.setPen(QPen(RESOLVED_EDGE, 2))
            painter.drawPolyline([QPointF(5, -4), QPointF(8, 0), QPointF(14, -9)])


class CommentPins(QObject):
    """Keeps one PinItem per top-level comment with a place on the plan, in step with the model."""

    def __init__(self, session: DocumentSession, scene: QGraphicsScene) -> None:
        super().__init__(scene)
        self.session = session
        self.scene = scene
        self.pins: dict[str, PinItem] = {}
        self.filter = "open"
        self.visible = True
        self._current = ""
        session.changed.connect(self._on_change)
        session.reset.connect(self.refresh)
        self.refresh()

    def _on_change(self, change: Change) -> None:
        if not change.is_empty() and (self.session.doc.comments or self.pins):
            self.refresh()

    def refresh(self) -> None:
        """Re-read every pin: which comments have one, their numbers, places and status."""
        doc = self.session.doc
        shown = SHOWN[self.filter] if self.visible else ()
        wanted: dict[str, tuple[int, QPointF]] = {}
        number_of = numbers(doc)
        for comment in top_level(doc):
            place = pin_position(doc, comment)
            if place is not None and comment.status in shown:
                wanted[comment.id] = (number_of[comment.id], to_scene(*place))
        for comment_id in list(self.pins):
            if comment_id not in wanted:
                self.scene.removeItem(self.pins.pop(comment_id))
        for comment_id, (number, spot) in wanted.items():
            pin = self.pins.get(comment_id)
            if pin is None:
                pin = self.pins[comment_id] = PinItem(comment_id)
                self.scene.addItem(pin)
            comment = doc.comments[comment_id]
            first_line = comment.text.splitlines()[0] if comment.text else ""
            pin.set_state(number, comment.status, f"{number}. {first_line[:120]}")
            pin.set_current(comment_id == self._current)
            if pin.pos() != spot:
                pin.setPos(spot)

    def set_filter(self, status: str) -> None:
        """Show the pins of "open", "resolved" or "all" comments (the dock's filter)."""
        self.filter = status
        self.refresh()

    def set_visible(self, visible: bool) -> None:
        self.visible = visible
        self.refresh()

    def set_current(self, comment_id: str) -> None:
        """Halo the pin of the comment the dock shows ("" for none)."""
        self._current = comment_id
        for pin_id, pin in self.pins.items():
            pin.set_current(pin_id == comment_id)

    def pin_at(self, view: QGraphicsView, viewport_pos) -> str:
        """The comment whose pin is under a point of the view's viewport ("" for none)."""
        for item in view.items(viewport_pos):
            if isinstance(item, PinItem):
                return item.comment_id
        return ""
