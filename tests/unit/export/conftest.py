"""A cabled plan for the export tests: the pod template (16 nodes, leaves and spines, every link
routed and labelled), with user text that carries markup characters and non-Latin letters so
every export must print it verbatim.
"""

from __future__ import annotations

import pytest

from planner.export.options import ExportOptions
from planner.layout.templates import build_template
from planner.model.document import Document, natural_key

PROJECT = "Зал №1 <A&B>"
HALL = "机房 & hall"
ODD_DEVICE = "N<1>&Ж"
ODD_LABEL = "<A&B> 机房-1"


def cabled_plan() -> Document:
    doc = build_template("pod", nodes=16)
    doc.meta.project = PROJECT
    doc.meta.hall = HALL
    doc.meta.author = "Ана Ли"
    first_node = min((d for d in doc.devices.values() if d.name == "N1"), key=lambda d: natural_key(d.rack))
    doc.set_fields(first_node.id, {"name": ODD_DEVICE})
    first_link = doc.links_of(first_node.id)[0]
    doc.set_fields(first_link.id, {"label": ODD_LABEL})
    return doc


@pytest.fixture
def cabled_doc() -> Document:
    return cabled_plan()


@pytest.fixture
def few_cables_doc() -> Document:
    """The same plan with every sixth cable only (labels are slow to encode: a QR code each)."""
    doc = cabled_plan()
    for index, link_id in enumerate(sorted(doc.links, key=natural_key)):
        if index % 6:
            doc.remove(link_id)
    return doc


@pytest.fixture
def options() -> ExportOptions:
    return ExportOptions(revision="B", author="Ана Ли", date="2026-11-30", file_name="pod.hall")
