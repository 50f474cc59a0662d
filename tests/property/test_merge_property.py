"""Property test of the three-way merge: for random edit sequences on disjoint parts of a plan
(ours edits row 1, theirs row 2, each through the real commands), merging the two results gives
the plan that applying both sequences one after the other gives, without a conflict.

Objects both sides add get the same ids (the next free numbers); the merge renumbers theirs
(``MergeResult.renumbered``), the sequential run hands theirs later numbers. The two plans are
compared with theirs' new ids mapped onto the sequential run's, by the order the edits made them."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.asbuilt.states import set_state_command
from planner.commands.base import Command, Refusal, SetAttributes, SetFields
from planner.commands.comments import add_comment
from planner.commands.edits import (
    assign,
    delete_objects,
    duplicate_objects,
    move_device,
    move_objects,
    place_device,
    rotate_objects,
)
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.document import Document, natural_key
from planner.model.references import REFERENCE_FIELDS
from planner.review.merge import merge_plans

BASE: list[str] = []
SIDES = {"ours": "1", "theirs": "2"}  # the row each side works in
#: Fields holding ids, rewritten with the ids.
REFERENCES = tuple(sorted(REFERENCE_FIELDS))
KINDS = ("move", "rotate", "rename", "delete", "add_device", "move_device", "swap", "state", "comment",
         "title", "assign", "rename_cdu", "duplicate")


def base_text() -> str:
    if not BASE:
        BASE.append(dumps(build_template("hall", 64)))
    return BASE[0]


def pick(ids: list[str], index: int) -> str | None:
    return ids[index % len(ids)] if ids else None


def owned(doc: Document, side: str) -> tuple[list[str], list[str], list[str]]:
    """The racks of a side's row, their devices, and the cables with both ends among them."""
    racks = sorted((r.id for r in doc.racks.values() if r.row == SIDES[side]), key=natural_key)
    mine = set(racks)
    devices = sorted((d.id for d in doc.devices.values() if d.rack in mine), key=natural_key)
    inside = set(devices)
    links = sorted((x.id for x in doc.links.values() if x.a_device in inside and x.b_device in inside),
                   key=natural_key)
    return racks, devices, links


def make_edit(doc: Document, side: str, kind: str, i: int, j: int) -> Command | None:
    """One gesture of ``side`` on its own part of the plan, chosen by the drawn numbers."""
    racks, devices, links = owned(doc, side)
    rack, device = pick(racks, i), pick(devices, i)
    if kind == "title":
        return SetAttributes("meta", {"project" if side == "ours" else "author": f"{side} {i}"}, text="Title")
    if kind == "rename_cdu":
        unit = "fu-1" if side == "ours" else "fu-2"
        return SetFields({unit: {"name": f"CDU-{side}-{i}"}}) if unit in doc.floor_units else None
    if rack is None:
        return None
    if kind == "move":
        return move_objects(doc, [rack], (i % 5) / 10, (j % 3) / 10)
    if kind == "rotate":
        return rotate_objects(doc, [rack], 180)
    if kind == "rename":
        return SetFields({rack: {"name": f"{side[0].upper()}{i}-{j}"}})
    if kind == "delete":
        return delete_objects(doc, [rack])
    if kind == "add_device":
        return place_device(doc, "storage-flash-2u", rack)
    if kind == "duplicate":
        return duplicate_objects(doc, [rack], 0.0, 3.0) if side == "ours" else None  # (names: see below)
    if kind == "comment":
        where = doc.racks[rack]
        return add_comment(doc, f"{side} note {i}", side, where.x, where.y, rack, "2026-01-01T00:00:00Z")
    if kind == "assign":
        side_bus = sorted((b.id for b in doc.busbars.values() if b.row == SIDES[side] and b.side == "A"),
                          key=natural_key)
        return assign(doc, [rack], "feed_a", pick(side_bus, j)) if side_bus else None
    if device is None:
        return None
    if kind == "move_device":
        target = pick(racks, j)
        height = doc.catalog[doc.devices[device].type].height_u
        u = doc.lowest_free_u(target, height, ignore=device)
        return move_device(doc, device, target, u) if height and u else None
    link = pick(links, j)
    if link is None:
        return None
    if kind == "state":
        return set_state_command(doc, [link], ("run", "tested", "faulty")[i % 3], "note" if i % 2 else None)
    if kind == "swap":  # two cables on one device trade their ports there
        end = doc.links[link].b_device
        others = [x for x in links if x != link and doc.links[x].b_device == end]
        other = pick(others, i)
        if other is None:
            return None
        return SetFields({link: {"b_port": doc.links[other].b_port}, other: {"b_port": doc.links[link].b_port}})
    return None


def run(doc: Document, side: str, edits: list[tuple[str, int, int]]) -> list[str]:
    """Apply a side's drawn edits; the ids they added, in the order they made them."""
    added: list[str] = []
    for kind, i, j in edits:
        try:
            command = make_edit(doc, side, kind, i, j)
        except Refusal:
            continue
        if command is not None:
            added.extend(sorted(command.apply(doc).added, key=natural_key))
    return added


def canonical(doc: Document, mapping: dict[str, str]) -> dict:
    """The plan as its file holds it, with ids (and references to them) renamed by ``mapping``."""
    data = json.loads(dumps(doc))
    for records in data.values():
        if isinstance(records, list) and records and isinstance(records[0], dict) and "id" in records[0]:
            for record in records:
                for name in ("id", *REFERENCES):
                    if isinstance(record.get(name), str):
                        record[name] = mapping.get(record[name], record[name])
            records.sort(key=lambda record: natural_key(record["id"]))
    return data


edit = st.tuples(st.sampled_from(KINDS), st.integers(0, 50), st.integers(0, 50))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edit, max_size=6), st.lists(edit, max_size=6))
def test_disjoint_edits_merge_to_sequential_application(ours_edits, theirs_edits):
    text = base_text()
    ours, theirs, both = loads(text), loads(text), loads(text)
    run(ours, "ours", ours_edits)
    theirs_added = run(theirs, "theirs", theirs_edits)
    run(both, "ours", ours_edits)
    both_added = run(both, "theirs", theirs_edits)
    assert len(theirs_added) == len(both_added)

    result = merge_plans(loads(text), ours, theirs)
    assert result.conflicts == [], [c.text for c in result.conflicts]
    assert result.renamed == []
    # theirs' new objects: their id in the merge → their id in the sequential run (one theirs
    # added and then deleted, with the rack it went into, is in neither)
    mapping = {result.renumbered.get(mine, mine): seq for mine, seq in zip(theirs_added, both_added)
               if mine in theirs}
    assert canonical(result.doc, mapping) == canonical(both, {})
    assert loads(dumps(result.doc)) is not None
