"""The length of a drawing's scale bar, shared by the PDF and SVG drawings and the export
dialog's preview. Apart from ``plan_drawing`` so the dialog's module, imported when the window
opens, does not load reportlab for one rounding rule."""

from __future__ import annotations

NICE_LENGTHS_M = (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500)


def scale_bar_length(drawing_width_m: float) -> float:
    """A round length about a fifth of the drawing's width."""
    target = drawing_width_m / 5
    return max((n for n in NICE_LENGTHS_M if n <= target), default=NICE_LENGTHS_M[0])
