"""Scene coordinates: 1 scene unit = 1 cm, so text and pens behave at plan scale.

The model is in metres; only these helpers convert.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF

SCENE_PER_M = 100.0


def to_scene(x_m: float, y_m: float) -> QPointF:
    return QPointF(x_m * SCENE_PER_M, y_m * SCENE_PER_M)


def to_model(point: QPointF) -> tuple[float, float]:
    return point.x() / SCENE_PER_M, point.y() / SCENE_PER_M


def m(value_m: float) -> float:
    """A length in metres as scene units."""
    return value_m * SCENE_PER_M

#: Offset between neighbouring rails across a tray, metres, and of the whole bundle from the
#: rack centre line (so rack names stay readable under it): where the cable layer, a cable's
#: route and the tray overlays draw.
RAIL_OFFSET_M = 0.035
BUNDLE_OFFSET_M = 0.22
#: Pitch of the floor tile grid the plan snaps to: the 600 mm raised-floor tile (DESIGN §3).
TILE_M = 0.6


def snap_m(value_m: float) -> float:
    """A length in metres rounded to the nearest tile line."""
    return round(round(value_m / TILE_M) * TILE_M, 6)
