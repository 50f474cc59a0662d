"""A merge taken into the open plan as one command (planner.review.merge_command): applied to ours
it gives exactly the plan ``planner merge`` writes, undo gives ours back, a conflict keeps ours,
and theirs' new objects, basis, title block and custom types come along."""

from __future__ import annotations

import pytest

from planner.commands.base import AddCatalogItem, History, SetAttributes, SetFields
from planner.commands.edits import move_objects, place_rack
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.catalog import CatalogItem
from planner.review.merge_command import merge_command, merged_result, summary


@pytest.fixture(scope="module")
def base_text() -> str:
    return dumps(build_template("pod", 8))


def _rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def _sides(base_text):
    base, ours, theirs = loads(base_text), loads(base_text), loads(base_text)
    first, second = sorted(ours.racks.values(), key=lambda r: r.name)[:2]
    History(ours).push(move_objects(ours, [first.id], 0.6, 0.0))
    History(theirs).push(SetFields({second.id: {"name": "R-THEIRS"}}, "Rename"))
    History(theirs).push(place_rack(theirs, next(iter(theirs.racks.values())).type, 40.0, 40.0))
    History(theirs).push(SetAttributes("meta", {"revision": "B"}, "Revision"))
    History(theirs).push(SetAttributes("basis", {"floor_warn_fraction": 0.85}, "Basis"))
    item = CatalogItem(key="my-rack", name="My rack", kind="rack", width_m=0.6, depth_m=1.2,
                       rack_units=48, weight_kg=150.0, max_load_kg=1500.0, max_power_kw=40.0)
    History(theirs).push(AddCatalogItem(item))
    return base, ours, theirs


def test_the_command_makes_the_plan_the_cli_merge_writes_and_undo_gives_ours_back(base_text):
    base, ours, theirs = _sides(base_text)
    ours_text = dumps(ours)
    result = merged_result(base, ours, theirs)
    assert not result.conflicts and result.from_theirs >= 3
    command = merge_command(ours, result, "theirs.hall")
    assert command is not None and command.text == "Merge theirs.hall"
    history = History(ours)
    change = history.push(command)
    assert dumps(ours) == dumps(result.doc)
    assert _rack(ours, "R-THEIRS") and ours.meta.revision == "B" and ours.basis.floor_warn_fraction == 0.85
    assert "my-rack" in ours.catalog.items and change.catalog and change.basis and change.meta
    assert len(ours.racks) == len(base.racks) + 1
    history.undo()
    assert dumps(ours) == ours_text
    history.redo()
    assert dumps(ours) == dumps(result.doc)


def test_a_conflict_keeps_the_open_plans_value_and_is_listed(base_text):
    base, ours, theirs = loads(base_text), loads(base_text), loads(base_text)
    rack_id = min(base.racks.values(), key=lambda r: r.name).id
    History(ours).push(SetFields({rack_id: {"name": "OURS"}}, "Rename"))
    History(theirs).push(SetFields({rack_id: {"name": "THEIRS"}}, "Rename"))
    result = merged_result(base, ours, theirs)
    assert len(result.conflicts) == 1
    assert merge_command(ours, result, "theirs.hall") is None  # ours kept: nothing to change
    head, lines = summary(result, "theirs.hall")
    assert head == "theirs.hall: 0 changes to take in, 1 conflict (the open plan's value is kept there)"
    assert "OURS" in lines[1] and "THEIRS" in lines[1]


def test_an_unchanged_theirs_merges_to_nothing(base_text):
    base, ours = loads(base_text), loads(base_text)
    result = merged_result(base, ours, loads(base_text))
    assert merge_command(ours, result, "same.hall") is None
    assert summary(result, "same.hall") == ("same.hall: 0 changes to take in, 0 conflicts", [])
