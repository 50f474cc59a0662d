"""The plan keeps where it met NetBox (``Document.netbox``): saved and loaded as written, left out
of files that never met NetBox, and held to the format's bounds like every other value."""

from __future__ import annotations

import pytest

from planner.io import hallfile
from planner.layout.templates import build_template


@pytest.fixture(scope="module")
def plan_text():
    return hallfile.dumps(build_template("pod", 4))


def test_a_plan_that_never_met_netbox_has_no_netbox_key(plan_text):
    assert '"netbox"' not in plan_text
    assert not hallfile.loads(plan_text).netbox


def test_the_netbox_ids_survive_save_and_load(plan_text):
    doc = hallfile.loads(plan_text)
    rack = next(iter(doc.racks))
    doc.netbox.url, doc.netbox.site = "http://127.0.0.1:8000", "Hall West"
    doc.netbox.ids = {rack: 17, f"{rack}/A": 3, "site": 1}
    text = hallfile.dumps(doc)
    again = hallfile.loads(text)
    assert again.netbox.ids == {rack: 17, f"{rack}/A": 3, "site": 1}
    assert (again.netbox.url, again.netbox.site) == ("http://127.0.0.1:8000", "Hall West")
    assert hallfile.dumps(again) == text


@pytest.mark.parametrize(("value", "problem"), [("0", "outside"), ('"17"', "whole number"), ("-4", "outside")])
def test_an_impossible_netbox_id_is_refused_with_its_path(plan_text, value, problem):
    doc = hallfile.loads(plan_text)
    doc.netbox.ids = {"rack-1": 5}
    text = hallfile.dumps(doc).replace('"rack-1": 5', f'"rack-1": {value}')
    with pytest.raises(hallfile.HallFileError) as caught:
        hallfile.loads(text)
    assert caught.value.path == "$.netbox.ids.rack-1" and problem in str(caught.value)
