"""Which fields of which objects hold another object's id, read from the ``Ref`` each such field
declares (``planner.model.objects.ref``).

Everything that follows references — the loader's checks, delete and its undo, copy and paste,
assignment, the properties dock, diff, merge and its checks — asks here, so a new kind of object
or reference (a power cord, a hose) is declared on its field once and every one of them knows it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any

from planner.model.objects import ASSIGNED, COLLECTIONS, OWNED, REF, Ref


@dataclass(frozen=True)
class Reference:
    """One reference field: the class and collection that hold it, its name and its ``Ref``."""

    cls: type
    attr: str
    field: str
    ref: Ref

    @property
    def label(self) -> str:
        """What a conflict on it is listed under."""
        return self.ref.label or self.field

    def sentence(self, obj: str, target: str) -> str:
        """The relation in words: "R12-N1 is in rack R12", "R10's feed a is BB-A01"."""
        says = self.ref.says or "{obj}'s " + self.field.replace("_", " ") + " is {target}"
        return says.format(obj=obj, target=target)


def _declared(attr: str, cls: type) -> tuple[Reference, ...]:
    return tuple(Reference(cls, attr, f.name, f.metadata[REF]) for f in fields(cls) if REF in f.metadata)


_BY_CLASS: dict[type, tuple[Reference, ...]] = {cls: _declared(attr, cls) for attr, cls in COLLECTIONS.values()}


def references_of(cls: type) -> tuple[Reference, ...]:
    """The reference fields of a class of ``COLLECTIONS``, in field order (none for another class)."""
    return _BY_CLASS.get(cls, ())


def reference_names(cls: type) -> tuple[str, ...]:
    """The names of a class's reference fields."""
    return tuple(r.field for r in references_of(cls))


def all_references() -> Iterator[Reference]:
    """Every reference field of every collection, in collection order."""
    for declared in _BY_CLASS.values():
        yield from declared


#: Every field name that holds an id somewhere: a value under one of these names is shown by name.
REFERENCE_FIELDS = frozenset(r.field for r in all_references())
#: Field names in words ("feed_a" → "feed A"), for undo texts and the review's lists.
REFERENCE_WORDS = {r.field: r.ref.word for r in all_references() if r.ref.hold != OWNED}


def assignable(cls: type) -> tuple[Reference, ...]:
    """The references of a class that the user assigns and that clear when their target goes."""
    return tuple(r for r in references_of(cls) if r.ref.hold == ASSIGNED)


def reference_of(cls: type, name: str) -> Reference | None:
    """The reference field ``name`` of ``cls``, or None when that field holds no id."""
    return next((r for r in references_of(cls) if r.field == name), None)


def reference_fields(cls: type, name: str) -> tuple[str, ...]:
    """The fields that are one choice with reference ``name`` of ``cls`` (``Ref.moves_with``)."""
    found = reference_of(cls, name)
    if found is None:
        raise KeyError(f"{cls.__name__}.{name} holds no id")
    return found.ref.moves_with or (name,)


def follow_copies(obj: Any, new_ids: dict[str, str], doc: Any) -> None:
    """A copy's references follow the copies made with it (``new_ids``: original id → copy's id):
    a copied device goes into the copied rack (an owned target must have been copied along); an
    assignment to an object that was not copied stays when the object is in ``doc``, else it is
    cleared; a note keeps its target."""
    for reference in references_of(type(obj)):
        target = getattr(obj, reference.field)
        if reference.ref.hold == OWNED or target in new_ids:
            setattr(obj, reference.field, new_ids[target])
        elif target and reference.ref.hold == ASSIGNED and target not in doc:
            setattr(obj, reference.field, None)


def in_targets(doc: Any, reference: Reference, target: str) -> bool:
    """Whether ``target`` is in one of the collections the reference may name (any, for ``to=()``)."""
    if not reference.ref.to:
        return target in doc
    return any(target in getattr(doc, attr) for attr in reference.ref.to)


def why_not_target(doc: Any, reference: Reference, target: str) -> str | None:
    """Why ``target`` cannot be assigned to the reference (it is no CDU, its busbar is on the
    other side), or None when it can. ``doc`` is a Document (duck-typed: model.document imports
    this module)."""
    ref = reference.ref
    obj = next((getattr(doc, attr).get(target) for attr in ref.to if target in getattr(doc, attr)), None)
    if obj is None or (ref.kinds and getattr(doc.catalog.items.get(getattr(obj, "type", "")), "kind", None)
                       not in ref.kinds):
        return f"{target} is not a {ref.noun}"
    if ref.side and getattr(obj, "side", ref.side) != ref.side:
        return f"{obj.name} is on side {obj.side}, not {ref.side}"
    return None
