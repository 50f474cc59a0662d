"""The page set-up every flowing (platypus) document shares: a body frame above the title block,
and the PDF's own title and author. The commissioning, review and facility documents each wrote it
out; one place keeps their margins, metadata and byte-stable output (``invariant``) the same."""

from __future__ import annotations

import io
from dataclasses import dataclass

from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from planner.export.options import ExportOptions, page_size
from planner.export.pages import MARGIN, TITLE_BLOCK_HEIGHT, TitleBlock
from planner.model.document import Document


@dataclass
class TitledDocument:
    """A document template with one body frame, and the title block its pages print."""

    template: BaseDocTemplate
    frame: Frame
    block: TitleBlock


def titled_document(doc: Document, out: io.BufferedIOBase, options: ExportOptions, title: str,
                    wide: bool = False) -> TitledDocument:
    """The template for ``title`` on the plan's (or the options') paper, landscape when ``wide``."""
    block = TitleBlock.of(doc, options, title)
    size = page_size(doc, options, wide=wide) if wide else page_size(doc, options)
    bottom = MARGIN + TITLE_BLOCK_HEIGHT
    template = BaseDocTemplate(out, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN,
                               bottomMargin=bottom, title=f"{title} — {doc.meta.project}", author=block.author,
                               creator="Hall Planner", invariant=1)
    frame = Frame(MARGIN, bottom, size[0] - 2 * MARGIN, size[1] - MARGIN - bottom, id="body")
    template.addPageTemplates([PageTemplate(id="page", frames=[frame])])
    return TitledDocument(template, frame, block)
