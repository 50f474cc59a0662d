"""What an edit touched, as the validation engine (``planner.rules.engine``) asks it: whether it
can change the fabric's structure, whether it touched cables alone, and which ``prefix.field``
inputs it touched. Kept apart from the engine so each stays one reader's size.
"""

from __future__ import annotations

from planner.model.change import Change
from planner.model.document import prefix_of

#: Device fields no fabric structure depends on (see ``Context.fabric_memo``).
_PLACEMENT_FIELDS = {"name", "u", "rack", "hostname", "notes"}
#: Cable fields the fabric structure depends on: which ports it joins, its tier (N2, N4, N5, N6)
#: and its media (N16: one media per twin-port cage); a label or length edit changes none of them.
_LINK_STRUCTURE = {"a_device", "a_port", "b_device", "b_port", "tier", "media"}


def changes_fabric(change: Change) -> bool:
    """Whether an edit can change the fabric's structure: cables added, removed or edited, or
    devices added, removed or changed beyond their name and place."""
    if any(prefix_of(i) in ("link", "dev") for i in change.added | change.removed):
        return True
    return any((prefix_of(obj_id) == "link" and names & _LINK_STRUCTURE)
               or (prefix_of(obj_id) == "dev" and names - _PLACEMENT_FIELDS)
               for obj_id, names in change.modified.items())


def cables_only(change: Change) -> set[str] | None:
    """The cables an edit touched when it touched nothing else (the fabric values are patched,
    not recounted: ``Context.cables_changed``); None otherwise."""
    touched = change.touched
    return touched if all(obj_id.startswith("link-") for obj_id in touched) else None


def changed_keys(change: Change) -> set[str]:
    """The ``prefix.field`` inputs a change touched (``prefix.*`` for added or removed objects,
    and for renames: messages quote names, so a rename concerns every rule reading that kind)."""
    keys = {f"{prefix_of(i)}.*" for i in change.added | change.removed}
    for obj_id, names in change.modified.items():
        keys.update(f"{prefix_of(obj_id)}.{'*' if name == 'name' else name}" for name in names)
    return keys
