"""Setting cables' installation state (DESIGN §3: planned, run, labelled, tested, verified,
faulty, with a note) as one undoable step, however many cables it touches."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from planner.commands.base import SetFields
from planner.commands.checks import Refusal
from planner.model.document import Document
from planner.model.objects import CABLE_STATES
from planner.text import plural


def set_state_command(doc: Document, link_ids: Iterable[str], state: str, note: str | None = None) -> SetFields:
    """Mark the cables ``state`` (with ``note``; None keeps each cable's own, and a state other
    than faulty clears it). Refusal for an unknown state or a cable that is not in the plan."""
    ids = list(dict.fromkeys(link_ids))
    if state not in CABLE_STATES:
        raise Refusal(f"{state!r} is not an installation state ({', '.join(CABLE_STATES)})")
    missing = [link_id for link_id in ids if link_id not in doc.links]
    if missing:
        raise Refusal(f"no cable {missing[0]!r} in the plan")
    values = {}
    for link_id in ids:
        fields: dict[str, str] = {"state": state}
        if note is not None:
            fields["state_note"] = note
        elif state != "faulty" and doc.links[link_id].state_note:
            fields["state_note"] = ""
        values[link_id] = fields
    return SetFields(values, f"Mark {plural(len(ids), 'cable')} {state}")


def set_states_command(doc: Document, states: Mapping[str, tuple[str, str]], text: str) -> SetFields:
    """Give each cable its own (state, note) in one step: a verification's result, a tick sheet."""
    for link_id, (state, _note) in states.items():
        if state not in CABLE_STATES:
            raise Refusal(f"{state!r} is not an installation state ({', '.join(CABLE_STATES)})")
        if link_id not in doc.links:
            raise Refusal(f"no cable {link_id!r} in the plan")
    return SetFields({link_id: {"state": state, "state_note": note} for link_id, (state, note) in states.items()},
                     text)
