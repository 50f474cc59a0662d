"""What an edit touched: the change set every command returns and everything downstream reads.

Validation re-checks, the scene redraws and the merge compares exactly what a ``Change`` names.
It lives with the model, not with the commands, so that the rules and the review, which read
changes, do not depend on the commands that make them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Change:
    """What an edit touched."""

    added: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)
    modified: dict[str, set[str]] = field(default_factory=dict)
    basis: bool = False
    meta: bool = False
    outline: bool = False
    catalog: bool = False

    def merge(self, other: Change) -> Change:
        """Fold a later change into this one (an object added then removed is just gone)."""
        for obj_id in other.added:
            self.removed.discard(obj_id)
            self.added.add(obj_id)
        for obj_id in other.removed:
            if obj_id in self.added:
                self.added.discard(obj_id)
            else:
                self.removed.add(obj_id)
            self.modified.pop(obj_id, None)
        for obj_id, names in other.modified.items():
            if obj_id not in self.added:
                self.modified.setdefault(obj_id, set()).update(names)
        self.basis |= other.basis
        self.meta |= other.meta
        self.outline |= other.outline
        self.catalog |= other.catalog
        return self

    @property
    def touched(self) -> set[str]:
        return self.added | self.removed | set(self.modified)

    def is_empty(self) -> bool:
        return not (self.touched or self.basis or self.meta or self.outline or self.catalog)
