"""Labels follow their ends (issue 18): derived unless typed; a typed label that no longer names
its ends is N10, with both texts."""

from __future__ import annotations

import pytest

from planner.commands.base import History, SetFields
from planner.export.schedule import cable_rows
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.labels import cable_label, derived_label, names_its_ends
from planner.rules.engine import Validator, validate


@pytest.fixture(scope="module")
def pod_text() -> str:
    return dumps(build_template("pod", 12))


@pytest.fixture
def pod(pod_text):
    return loads(pod_text)


def _node_leaf(doc):
    link = next(l for l in doc.links.values() if l.tier == "node-leaf")
    leaf = doc.devices[link.b_device]
    used = {l.b_port for l in doc.links_of(leaf.id)} | {l.a_port for l in doc.links_of(leaf.id)}
    spare = next(p for p in doc.catalog[leaf.type].port_names() if p not in used)
    return link, spare


def test_a_derived_label_follows_a_rewire_and_a_rack_rename(pod):
    link, spare = _node_leaf(pod)
    node, leaf = pod.devices[link.a_device], pod.devices[link.b_device]
    node_rack, leaf_rack = pod.racks[node.rack].name, pod.racks[leaf.rack].name
    assert link.label == "" and cable_label(pod, link) == (
        f"{node_rack}-U{node.u:02d}-{node.name}-{link.a_port} ↔ {leaf_rack}-U{leaf.u:02d}-{leaf.name}-{link.b_port}")
    History(pod).push(SetFields({link.id: {"b_port": spare}, leaf.rack: {"name": "NET1"}}))
    expected = f"{node_rack}-U{node.u:02d}-{node.name}-{link.a_port} ↔ NET1-U{leaf.u:02d}-{leaf.name}-{spare}"
    assert cable_label(pod, link) == expected
    row = next(r for r in cable_rows(pod) if r.link_id == link.id)
    assert row.label == expected  # what the labels PDF and the schedule print
    assert not [f for f in validate(pod) if f.rule == "N10"]


def test_a_typed_label_is_kept_and_flagged_once_it_no_longer_names_its_ends(pod):
    link, spare = _node_leaf(pod)
    typed = derived_label(pod, link)
    validator = Validator(pod)
    history = History(pod)
    validator.update(history.push(SetFields({link.id: {"label": typed}})))
    assert not [f for f in validator.findings if f.rule == "N10"]
    validator.update(history.push(SetFields({link.id: {"b_port": spare}})))
    (finding,) = [f for f in validator.findings if f.rule == "N10"]
    assert finding.severity == "warning" and finding.subjects == (link.id,)
    assert finding.message == (f"typed label {typed!r} no longer names the cable's ends {derived_label(pod, link)}; "
                               "retype it, or clear it to use the derived label")
    assert cable_label(pod, link) == typed  # a typed label is never rewritten
    assert [f.message for f in validate(pod) if f.rule == "N10"] == [finding.message]  # incremental = full
    validator.update(history.undo())
    assert not [f for f in validator.findings if f.rule == "N10"]


def test_a_rack_rename_flags_a_typed_label_naming_the_old_rack(pod):
    link, _spare = _node_leaf(pod)
    validator = Validator(pod)
    history = History(pod)
    validator.update(history.push(SetFields({link.id: {"label": derived_label(pod, link)}})))
    node_rack = pod.devices[link.a_device].rack
    validator.update(history.push(SetFields({node_rack: {"name": "Q99"}})))
    assert [f.subjects for f in validator.findings if f.rule == "N10"] == [(link.id,)]


@pytest.mark.parametrize("text", ["C-00123", "Rail 3 / spare", "SITE-7"])
def test_a_site_numbering_names_no_end_and_is_left_alone(pod, text):
    link, spare = _node_leaf(pod)
    pod.set_fields(link.id, {"label": text, "b_port": spare})
    assert names_its_ends(pod, link)
    assert not [f for f in validate(pod) if f.rule == "N10"]


def test_a_typed_label_naming_the_ends_by_hostname_and_port_fits(pod):
    link, _spare = _node_leaf(pod)
    a, b = pod.devices[link.a_device], pod.devices[link.b_device]
    pod.set_fields(link.id, {"label": f"{pod.hostname(a)}:{link.a_port} to {pod.hostname(b)}:{link.b_port}"})
    assert names_its_ends(pod, link)
    pod.set_fields(link.id, {"label": f"{pod.hostname(a)}:{link.a_port} to {pod.hostname(b)}:9/9"})
    assert not names_its_ends(pod, link)
