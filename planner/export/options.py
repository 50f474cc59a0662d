"""What one export run is asked for: paper, title-block overrides, the label stock, a selection of
racks, progress reporting and cancelling."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from reportlab.lib.pagesizes import A4, LETTER, landscape

from planner.model.document import Document

PAPER_SIZES: dict[str, tuple[float, float]] = {"A4": A4, "Letter": LETTER}


class ExportCancelled(Exception):
    """Raised from a progress callback to stop an export; the target file is left untouched."""


@dataclass(frozen=True)
class LabelSheet:
    """The label stock: a grid of rows × columns of labels of one size, centred on the paper.

    The default is the common 3 × 10 address-label sheet (66.7 × 25.4 mm labels).
    """

    columns: int = 3
    rows: int = 10
    width_mm: float = 66.7
    height_mm: float = 25.4
    gap_x_mm: float = 3.2
    gap_y_mm: float = 0.0

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    @classmethod
    def parse(cls, text: str) -> LabelSheet:
        """``"3x10"`` (columns × rows, default label size) or ``"3x10:66.7x25.4"`` (label size in mm)."""
        grid, _, size = text.lower().replace("×", "x").partition(":")
        columns, rows = (int(v) for v in grid.split("x"))
        if columns < 1 or rows < 1:
            raise ValueError("a label sheet needs at least one column and one row")
        if not size:
            return cls(columns=columns, rows=rows)
        width, height = (float(v) for v in size.split("x"))
        if width <= 0 or height <= 0:
            raise ValueError("label width and height must be above 0 mm")
        return cls(columns=columns, rows=rows, width_mm=width, height_mm=height)


@dataclass
class ExportOptions:
    """Title-block overrides, paper and progress reporting for one export run.

    ``None`` fields fall back to the plan (meta revision/author, basis paper). ``progress`` gets
    a fraction 0..1 now and then and may raise ExportCancelled.
    """

    paper: str | None = None
    revision: str | None = None
    author: str | None = None
    date: str = field(default_factory=lambda: date.today().isoformat())
    file_name: str = ""
    label_sheet: LabelSheet = field(default_factory=lambda: LabelSheet())
    progress: Callable[[float], None] | None = None
    #: review-pdf: the earlier revision (.hall path) the review compares with (None: comments only).
    against: str | None = None
    #: netbox: the site and location names NetBox files the hall under (None: from the title block).
    site: str | None = None
    location: str | None = None
    #: netbox: the site in front of each default hostname (``dc-west-R01-N1``), for names unique
    #: across the halls of one NetBox; off: hostnames as the plan gives them.
    site_in_hostnames: bool = False
    #: cabling-pdf: only the cables not yet verified, and only the racks that have any (what is left to do).
    remaining_only: bool = False
    #: Paper exports: only these racks (ids) and the cables and labels at them (None: the whole hall).
    racks: frozenset[str] | None = None

    def report(self, fraction: float) -> None:
        if self.progress is not None:
            self.progress(min(1.0, max(0.0, fraction)))


def page_size(doc: Document, options: ExportOptions, wide: bool = False) -> tuple[float, float]:
    paper = options.paper or doc.basis.paper
    size = PAPER_SIZES.get(paper, A4)
    return landscape(size) if wide else size
