"""The handles of the selected hall features: small squares a shape is reshaped by.

One container item over the plan holds a child square per handle; the squares ignore the
view's zoom, so a handle is as big on screen at 1:500 as at 1:20 and stays easy to take. Where
the handles are comes from the model (``planner.commands.features.handles``); the container
only draws them, the view's feature tools hit-test them in screen pixels.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QStyleOptionGraphicsItem, QWidget

from planner.model.objects import Point
from planner.ui.plan.items import SELECTION_COLOUR
from planner.ui.plan.units import to_scene

#: Side of a drawn handle and how near (screen pixels) a press must be to take it.
HANDLE_PIXELS = 9
HANDLE_REACH_PIXELS = 8
#: Above everything on the plan but the gesture preview.
Z_HANDLES = 68


class HandleLayer(QGraphicsItem):
    """Squares at the handles of the selected features; draws nothing itself."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_HANDLES)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._squares: list[QGraphicsRectItem] = []
        self._pen = QPen(SELECTION_COLOUR, 1.5)
        self._pen.setCosmetic(True)
        self._fill = QColor("white")

    def set_points(self, points: list[Point]) -> None:
        """Show one square per handle point (plan metres); extra squares are reused or removed."""
        while len(self._squares) > len(points):
            square = self._squares.pop()
            square.setParentItem(None)  # type: ignore[arg-type]  # unparent: PySide6's stubs leave out None
            if square.scene() is not None:
                square.scene().removeItem(square)
        half = HANDLE_PIXELS / 2
        while len(self._squares) < len(points):
            square = QGraphicsRectItem(QRectF(-half, -half, HANDLE_PIXELS, HANDLE_PIXELS), self)
            square.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
            square.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            square.setPen(self._pen)
            square.setBrush(self._fill)
            self._squares.append(square)
        for square, (x, y) in zip(self._squares, points):
            square.setPos(to_scene(x, y))

    def count(self) -> int:
        return len(self._squares)

    def boundingRect(self) -> QRectF:
        return QRectF()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Nothing: the squares are children."""
