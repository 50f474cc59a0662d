"""The fields wave 2's review and as-built work keeps in the plan: hostnames, cable states,
comments, underlays. Old files load with their defaults; values outside their lists are refused
with the JSON path; a plan holding them saves and loads to the same bytes."""

from __future__ import annotations

import json

import pytest

from planner.io import HallFileError, dumps, loads
from planner.model.objects import Comment, Underlay
from planner.resources_access import example_hall_path


def _example() -> dict:
    return json.loads(example_hall_path().read_text(encoding="utf-8"))


def test_an_older_plan_loads_with_planned_cables_default_hostnames_and_no_comments():
    doc = loads(json.dumps(_example()))
    assert {link.state for link in doc.links.values()} == {"planned"}
    device = doc.devices["dev-1"]
    assert device.hostname == ""
    assert doc.hostname(device) == f"{doc.racks[device.rack].name}-{device.name}"
    assert doc.comments == {} and doc.underlays == {}


def test_a_set_hostname_wins_over_the_default():
    doc = loads(json.dumps(_example()))
    doc.set_fields("dev-1", {"hostname": "gpu-0001"})
    assert doc.hostname(doc.devices["dev-1"]) == "gpu-0001"


@pytest.mark.parametrize(("collection", "field", "value", "path"), [
    ("links", "state", "installed", "$.links[0].state"),
])
def test_a_state_outside_the_list_is_refused_with_its_path(collection, field, value, path):
    data = _example()
    data[collection][0][field] = value
    with pytest.raises(HallFileError) as error:
        loads(json.dumps(data))
    assert error.value.path == path


def test_comments_and_underlays_round_trip_one_line_each():
    doc = loads(json.dumps(_example()))
    doc.add(Comment(id="cmt-1", text="Move this rack 0.6 m east", author="A. Reviewer",
                    date="2026-12-01T09:00:00Z", x=3.0, y=4.5, target="rack-1"))
    doc.add(Comment(id="cmt-2", text="Done", author="B. Installer", reply_to="cmt-1", status="resolved"))
    doc.add(Underlay(id="ul-1", name="Architect's plan", path="drawings/hall.dxf", kind="dxf", scale=0.001))
    text = dumps(doc)
    assert dumps(loads(text)) == text
    lines = [line for line in text.splitlines() if '"cmt-' in line or '"ul-' in line]
    assert len(lines) == 3


def test_a_comment_with_an_unknown_status_is_refused():
    data = _example()
    data["comments"] = [{"id": "cmt-1", "text": "x", "status": "maybe"}]
    with pytest.raises(HallFileError) as error:
        loads(json.dumps(data))
    assert error.value.path == "$.comments[0].status"
