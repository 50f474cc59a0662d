"""What a rule's check is about (its scope) and every subject of a scope in a plan: the racks,
floor units, busbars, CDUs, zones, devices and cables of the document, the rack pairs its routed
cables join, the trays they load, and the hall itself (``planner.rules.engine``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from planner.model.catalog import RACK_CDU, ROW_CDU
from planner.model.document import Document, prefix_of
from planner.rules.context import Context

RACK, FLOOR_UNIT, BUSBAR, CDU, ZONE, DEVICE, LINK, PAIR, TRAY, HALL = (
    "rack", "floor_unit", "busbar", "cdu", "zone", "device", "link", "rack_pair", "tray", "hall")
SCOPES = (RACK, FLOOR_UNIT, BUSBAR, CDU, ZONE, DEVICE, LINK, PAIR, TRAY, HALL)
HALL_SUBJECT = "hall"

#: Scopes whose subjects are exactly one collection of the document.
_COLLECTION_OF_SCOPE = {RACK: "racks", FLOOR_UNIT: "floor_units", BUSBAR: "busbars", ZONE: "zones",
                        DEVICE: "devices", LINK: "links"}


def subjects(doc: Document, scope: str, ctx: Context | None = None) -> Iterable[str]:
    """Every subject of a scope in the document (trays come from ``ctx``'s routed loads): a list,
    or the keys of the document's collection (iterate it before editing the document)."""
    if scope == TRAY:
        return (ctx or Context(doc)).tray_loads().trays()
    if scope == PAIR:
        return (ctx or Context(doc)).cable_bundles().pair_subjects()
    if scope == HALL:
        return [HALL_SUBJECT]
    if scope == CDU:
        catalog = doc.catalog
        kinds = {key: catalog[key].kind for key in {u.type for u in doc.floor_units.values()}
                 | {d.type for d in doc.devices.values()}}
        return [*(u.id for u in doc.floor_units.values() if kinds[u.type] == ROW_CDU),
                *(d.id for d in doc.devices.values() if kinds[d.type] == RACK_CDU)]
    return getattr(doc, _COLLECTION_OF_SCOPE[scope]).keys()


def existing(ctx: Context, scope: str) -> Callable[[str], bool]:
    """Whether a subject of the scope is (still) in the plan, as a test made once per rule."""
    doc = ctx.doc
    if scope == HALL:
        return lambda _subject: True
    if scope == TRAY:
        return ctx.tray_loads().carries
    if scope == PAIR:
        return ctx.cable_bundles().pair_subjects().__contains__
    if scope == CDU:
        def is_cdu(subject: str) -> bool:
            obj = doc.find(subject)
            return obj is not None and prefix_of(subject) in ("fu", "dev") and \
                doc.catalog[obj.type].kind in (ROW_CDU, RACK_CDU)
        return is_cdu
    return getattr(doc, _COLLECTION_OF_SCOPE[scope]).__contains__
