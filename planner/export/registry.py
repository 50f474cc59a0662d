"""The export kinds by name: one table the CLI (`planner export --to KIND`) and the GUI menu share.

Each kind names its writer as "module:function", imported on first use: the writers bring in
reportlab's page layout and openpyxl (0.4 s), which opening a plan in the window need not wait for.
"""

from __future__ import annotations

import importlib
import io
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from planner.export.options import ExportOptions
from planner.io.atomic import write_atomic
from planner.io.atomic_folder import write_folder_atomic
from planner.model.document import Document

#: A writer gets the open output file, or for a folder kind the folder's Path.
Writer = Callable[[Document, "io.BufferedIOBase | Path", ExportOptions], object]


def _bom_csv(doc: Document, out: BinaryIO, options: ExportOptions) -> None:
    from planner.export.bom import write_bom_csv

    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    write_bom_csv(doc, text)
    text.flush()
    text.detach()
    options.report(1.0)


@dataclass(frozen=True)
class ExportKind:
    """One document a plan can be exported to: its menu title, file suffix and writer."""

    key: str
    title: str
    suffix: str
    target: str
    paper: bool = True
    #: The output is a folder of files (NetBox, Slurm): the writer gets the folder's Path.
    folder: bool = False

    @property
    def writer(self) -> Writer:
        module, function = self.target.split(":")
        return getattr(importlib.import_module(module), function)


EXPORT_KINDS: dict[str, ExportKind] = {kind.key: kind for kind in (
    ExportKind("cabling-pdf", "Cabling plan (PDF)", ".pdf", "planner.export.cabling_pdf:write_cabling_pdf"),
    ExportKind("cables-csv", "Cable schedule (CSV)", ".csv", "planner.export.schedule:write_csv", paper=False),
    ExportKind("cables-xlsx", "Cable schedule (XLSX)", ".xlsx", "planner.export.schedule:write_xlsx", paper=False),
    ExportKind("tick-sheet-csv", "Installation tick sheet (CSV)", ".csv", "planner.export.schedule:write_tick_csv",
               paper=False),
    ExportKind("labels-pdf", "Cable labels (PDF)", ".pdf", "planner.export.labels_pdf:write_labels_pdf"),
    ExportKind("commissioning-pdf", "Commissioning document (PDF)", ".pdf",
               "planner.export.commissioning_pdf:write_commissioning_pdf"),
    ExportKind("bom-csv", "Bill of materials (CSV)", ".csv", "planner.export.registry:_bom_csv", paper=False),
    ExportKind("floorplan-svg", "Floor plan (SVG)", ".svg", "planner.export.floorplan_svg:write_svg", paper=False),
    ExportKind("floorplan-svg-sheets", "Floor plan on sheets (SVG folder)", "",
               "planner.export.floorplan_svg:write_svg_sheets", folder=True),
    ExportKind("review-pdf", "Review document (PDF)", ".pdf", "planner.export.review_pdf:write_review_pdf"),
    ExportKind("floorplan-dxf", "Floor plan (DXF)", ".dxf", "planner.export.floorplan_dxf:write_dxf", paper=False),
    ExportKind("slurm", "Slurm topology (folder)", "", "planner.export.slurm:write_slurm", paper=False, folder=True),
    ExportKind("netbox", "NetBox import set (folder)", "", "planner.export.netbox:write_netbox", paper=False, folder=True),
    ExportKind("nccl-topo", "NCCL topology files (folder)", "", "planner.export.nccl_topo:write_nccl_topo",
               paper=False, folder=True),
    ExportKind("ufm-cvt", "UFM cable validation files (folder)", "", "planner.export.ufm_cvt:write_ufm_cvt",
               paper=False, folder=True),
    ExportKind("facility-pdf", "Facility hand-off (PDF)", ".pdf", "planner.export.facility_handoff:write_facility_pdf"),
    ExportKind("facility-csv", "Facility hand-off (CSV)", ".csv", "planner.export.facility_handoff:write_facility_csv",
               paper=False),
)}


def export_to(doc: Document, kind: str, path: str | os.PathLike, options: ExportOptions | None = None) -> None:
    """Write one export kind to ``path`` atomically (nothing is left behind on failure or cancel)."""
    options = options or ExportOptions()
    export_kind = EXPORT_KINDS[kind]
    writer = export_kind.writer
    if export_kind.folder:
        write_folder_atomic(path, lambda folder: writer(doc, folder, options))
    else:
        write_atomic(path, lambda out: writer(doc, out, options), backup=False)
