"""Undoable edits. Every change a user can make is a Command with apply/revert.

``apply`` and ``revert`` return a Change: which ids were added, removed or modified (and which
fields), and whether the design basis, title block, outline or catalogue changed. Validation
and the scene refresh exactly what a Change names.

Commands are the model's boundary for what users type: each checks its values against the
format's bounds when it is made (``planner.commands.checks``; a ``Refusal`` says why), so a
plan can never hold a value its file would refuse on the next load, and hands whole numbers to
the model as floats where the model says float, so save → load → save writes the same bytes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from planner.commands.checks import (
    Refusal,
    check_attributes,
    check_catalog_item,
    check_fields,
    check_objects,
    check_outline,
)
from planner.model.basis import DesignBasis
from planner.model.catalog import PORT_FACES, CatalogItem, builtin_catalog
from planner.model.change import Change
from planner.model.document import Document
from planner.model.objects import Meta, NetBoxRecord
from planner.model.typed import as_points, normalise, normalise_value

__all__ = ["AddCatalogItem", "AddObjects", "Command", "Compound", "History", "RecordNetBox", "Refusal",
           "RemoveObjects", "SetAttributes", "SetFields", "SetOutline"]


class Command:
    """Base of all edits. Subclasses set ``text`` (shown in the undo history)."""

    text = "Edit"

    def apply(self, doc: Document) -> Change:
        raise NotImplementedError

    def revert(self, doc: Document) -> Change:
        raise NotImplementedError


class AddObjects(Command):
    """Add objects (racks, devices, links …). Parents must come before their dependents.

    Refuses objects whose numbers or text lengths are out of the format's bounds."""

    def __init__(self, objects: Iterable[Any], text: str = "Add") -> None:
        self.objects = list(objects)
        self.text = text
        check_objects(self.objects)

    def apply(self, doc: Document) -> Change:
        for obj in self.objects:
            doc.add(obj)
        return Change(added={o.id for o in self.objects})

    def revert(self, doc: Document) -> Change:
        for obj in reversed(self.objects):
            doc.remove(obj.id)
        return Change(removed={o.id for o in self.objects})


class RemoveObjects(Command):
    """Remove objects by id, dependents first (see ``planner.commands.edits.delete_objects``)."""

    def __init__(self, ids: Iterable[str], text: str = "Delete") -> None:
        self.ids = list(ids)
        self.text = text
        self._removed: list[Any] = []

    def apply(self, doc: Document) -> Change:
        self._removed = [doc.remove(obj_id) for obj_id in self.ids]
        return Change(removed=set(self.ids))

    def revert(self, doc: Document) -> Change:
        for obj in reversed(self._removed):
            doc.add(obj)
        return Change(added=set(self.ids))


class SetFields(Command):
    """Set fields on one or more objects: {id: {field: value}}. Moves, renames, assignments.

    Refuses a value out of the format's bounds (``Refusal`` naming the field and the range)."""

    def __init__(self, values: dict[str, dict[str, Any]], text: str = "Edit") -> None:
        check_fields(values)
        self.values = values
        self.text = text
        self._old: dict[str, dict[str, Any]] = {}

    def apply(self, doc: Document) -> Change:
        self._old = {obj_id: doc.set_fields(obj_id, vals) for obj_id, vals in self.values.items()}
        return Change(modified={obj_id: set(vals) for obj_id, vals in self.values.items()})

    def revert(self, doc: Document) -> Change:
        for obj_id, vals in self._old.items():
            doc.set_fields(obj_id, vals)
        return Change(modified={obj_id: set(vals) for obj_id, vals in self._old.items()})


class SetAttributes(Command):
    """Set attributes of the design basis or the title block (``target`` "basis" or "meta")."""

    def __init__(self, target: str, values: dict[str, Any], text: str, current: Any = None) -> None:
        """``current``: the plan's design basis, to refuse values that put two of its fields out
        of order (editors pass it; a command built without it checks each value alone)."""
        if target not in ("basis", "meta"):
            raise ValueError(target)
        cls = DesignBasis if target == "basis" else Meta
        values = {name: normalise_value(cls, name, value) for name, value in values.items()}
        check_attributes(target, values, current)
        self.target = target
        self.values = values
        self.text = text
        self._old: dict[str, Any] = {}

    def _set(self, doc: Document, values: dict[str, Any]) -> Change:
        obj = getattr(doc, self.target)
        for name in values:
            if not hasattr(obj, name):
                raise KeyError(f"{self.target} has no {name}")
        for name, value in values.items():
            setattr(obj, name, copy.deepcopy(value))
        return Change(basis=self.target == "basis", meta=self.target == "meta")

    def apply(self, doc: Document) -> Change:
        obj = getattr(doc, self.target)
        self._old = {name: copy.deepcopy(getattr(obj, name)) for name in self.values}
        return self._set(doc, self.values)

    def revert(self, doc: Document) -> Change:
        return self._set(doc, self._old)


class SetOutline(Command):
    """Replace the hall outline polygon (corners as float pairs, as a loaded plan holds them)."""

    text = "Edit hall outline"

    def __init__(self, points: list[tuple[float, float]]) -> None:
        self.points = as_points(points)
        check_outline(self.points)
        self._old: list[tuple[float, float]] = []

    def apply(self, doc: Document) -> Change:
        self._old, doc.outline = doc.outline, list(self.points)
        return Change(outline=True)

    def revert(self, doc: Document) -> Change:
        doc.outline = self._old
        return Change(outline=True)


class AddCatalogItem(Command):
    """Add (or replace) a custom equipment type; it is saved inside the plan.

    The item is marked custom and its float fields made floats; a kind, key or value the file
    would refuse is refused here, and so is a port face other than front, rear or not given (the
    file would load it, but the installer's paper could only guess where the ports are)."""

    def __init__(self, item: CatalogItem) -> None:
        check_catalog_item(item, builtin_catalog().items)
        if item.port_face not in PORT_FACES:
            raise Refusal(f"port face: {item.port_face!r} is not one of front, rear or empty (rear)")
        self.item = normalise(item.copy())  # the command's own: the caller's object stays as it was
        self.item.custom = True
        self.text = f"Define type {item.name}"
        self._previous: Any = None

    def apply(self, doc: Document) -> Change:
        self._previous = doc.catalog.items.get(self.item.key)
        doc.catalog.add(self.item)
        return Change(catalog=True)

    def revert(self, doc: Document) -> Change:
        if self._previous is None:
            del doc.catalog.items[self.item.key]
        else:
            doc.catalog.add(self._previous)
        return Change(catalog=True)


class Compound(Command):
    """Several commands as one undo step (delete with dependents, generate fabric …)."""

    def __init__(self, children: Iterable[Command], text: str) -> None:
        self.children = [c for c in children]
        self.text = text

    def apply(self, doc: Document) -> Change:
        change = Change()
        for child in self.children:
            change.merge(child.apply(doc))
        return change

    def revert(self, doc: Document) -> Change:
        change = Change()
        for child in reversed(self.children):
            change.merge(child.revert(doc))
        return change


class History:
    """A plain undo stack for headless use (CLI, tests); the GUI uses QUndoStack instead."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._done: list[Command] = []
        self._undone: list[Command] = []

    def push(self, command: Command) -> Change:
        change = command.apply(self.doc)
        self._done.append(command)
        self._undone.clear()
        return change

    def undo(self) -> Change:
        command = self._done.pop()
        self._undone.append(command)
        return command.revert(self.doc)

    def redo(self) -> Change:
        command = self._undone.pop()
        self._done.append(command)
        return command.apply(self.doc)

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)


class RecordNetBox(Command):
    """Record where the plan met NetBox (server, site, each object's NetBox id): what a push from
    the window learnt, so the next push updates what it made; undo puts the earlier record back."""

    text = "Record NetBox ids"

    def __init__(self, record: NetBoxRecord) -> None:
        check_objects([record])
        self.record = record
        self._before = NetBoxRecord()

    def apply(self, doc: Document) -> Change:
        self._before, doc.netbox = doc.netbox, copy.deepcopy(self.record)
        return Change(meta=True)

    def revert(self, doc: Document) -> Change:
        doc.netbox = self._before
        return Change(meta=True)
