"""Every edit as an undoable command over the document."""

from planner.commands.base import (
    AddCatalogItem,
    AddObjects,
    Command,
    Compound,
    History,
    RecordNetBox,
    RemoveObjects,
    SetAttributes,
    SetFields,
    SetOutline,
)
from planner.commands.checks import Refusal

__all__ = [
    "AddCatalogItem",
    "AddObjects",
    "Command",
    "Compound",
    "History",
    "RecordNetBox",
    "Refusal",
    "RemoveObjects",
    "SetAttributes",
    "SetFields",
    "SetOutline",
]
