"""A hall is kept, not regenerated (issue 18): cables keep id, typed label, state and note
through every regeneration; only cables whose ends differ are removed or added. Since issue 21
the hall has every network cabled (storage, management, power cords, hoses): regenerating the
whole hall (``cable_hall``: Plan ▸ Generate fabric, ``planner fabric -o``) keeps every cable of
every network."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from planner.commands.base import History, RemoveObjects, SetFields
from planner.fabric import generate_fabric
from planner.fabric.hall import cable_hall, compute_generation, refusal, summary
from planner.fabric.sizing import default_switch, node_devices
from planner.io import dumps, loads, save
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.networks import TIERS_OF, is_compute
from planner.model.ports import COMPUTE, POWER
from planner.review.diff import diff_plans
from planner.rules.engine import Validator

STATES = ("run", "labelled", "tested", "verified", "faulty")


def _mark(doc: Document) -> dict[str, tuple]:
    """Give the cables states, notes and some typed labels; return every cable as it stands."""
    for n, link_id in enumerate(list(doc.links)):
        values = {"state": STATES[n % len(STATES)]}
        if n % 97 == 0:
            values["state_note"] = f"note {n}"
        if n % 101 == 0:
            values["label"] = f"C-{n:05d}"  # a site's own numbering
        doc.set_fields(link_id, values)
    return _cables(doc)


def _cables(doc: Document) -> dict[str, tuple]:
    return {i: (l.a_device, l.a_port, l.b_device, l.b_port, l.label, l.state, l.state_note, l.media, l.length_m,
                l.stock_m) for i, l in doc.links.items()}


def _add_nodes(doc: Document, count: int) -> list[str]:
    """``count`` more nodes in new racks beside the last rack of the last row, like its racks."""
    nodes = node_devices(doc)
    template_rack = doc.racks[nodes[-1].rack]
    filling = [d for d in nodes if d.rack == template_rack.id]
    last = max((r for r in doc.racks.values() if r.row == template_rack.row), key=lambda r: r.x)
    added: list[str] = []
    step = 0
    while len(added) < count:
        step += 1
        rack = replace(template_rack, id=doc.new_id("rack"), name=f"X{step:02d}", x=last.x + 0.6 * step)
        doc.add(rack)
        for node in filling[:count - len(added)]:
            device = replace(node, id=doc.new_id("dev"), rack=rack.id, hostname="")
            doc.add(device)
            added.append(device.id)
    return added


@pytest.mark.parametrize(("template", "nodes"), [("pod", 32), ("hall", 1024), ("hall", 4096)])
def test_regenerating_an_unchanged_plan_changes_nothing(template, nodes):
    """The whole hall regenerated as it stands: every network keeps every cable, nothing moves."""
    doc = build_template(template, nodes)
    before = _mark(doc)
    counts = {network: len(doc.links_in(network)) for network in TIERS_OF}
    assert all(counts.values()), counts  # the template cabled every network
    old = loads(dumps(doc))
    command = cable_hall(doc, default_switch(doc), doc.basis.oversubscription)
    History(doc).push(command)
    assert command.changes_nothing, summary(command)
    kept = {COMPUTE: compute_generation(command).cables.summary()}
    kept.update((generation.network, generation.cables.summary()) for generation in command.networks)
    assert kept == {network: f"kept {n:,}, rewired 0, removed 0, added 0" for network, n in counts.items()}
    assert _cables(doc) == before
    assert diff_plans(old, doc, consequences=False).is_empty


@pytest.mark.parametrize(("template", "nodes", "more"), [("pod", 16, 16), ("hall", 1000, 24)])
def test_adding_nodes_adds_only_their_cables(template, nodes, more):
    """A partly filled SU has its leaves and uplinks built whole: the new nodes land on free leaf
    ports of the compute fabric, and every existing cable of every network keeps its id, ends and
    state."""
    doc = build_template(template, nodes)
    before = _mark(doc)
    compute = len(doc.links_in(COMPUTE))
    new_nodes = set(_add_nodes(doc, more))
    command = generate_fabric(doc, default_switch(doc))
    rails = 8
    assert command.cables.summary() == f"kept {compute:,}, rewired 0, removed 0, added {more * rails:,}"
    History(doc).push(command)
    after = _cables(doc)
    assert {i: after[i] for i in before} == before
    added = set(after) - set(before)
    assert len(added) == more * rails
    assert all(doc.links[i].a_device in new_nodes and doc.links[i].state == "planned" for i in added)
    assert all(is_compute(doc.links[i]) for i in added)


# Not the pod (16 + 16): the racks ``_add_nodes`` copies share the row's busbars and leave them
# no headroom, so the storage step rightly refuses to place the leaf the 32 nodes need.
@pytest.mark.parametrize(("template", "nodes", "more"), [("hall", 1000, 24)])
def test_adding_nodes_to_the_whole_hall_keeps_every_cable(template, nodes, more):
    """The same growth through Plan ▸ Generate fabric (``cable_hall``): the new nodes get their
    cables on every network, and no existing cable of any network changes ends or state."""
    doc = build_template(template, nodes)
    before = _mark(doc)
    compute = len(doc.links_in(COMPUTE))
    new_nodes = set(_add_nodes(doc, more))
    command = cable_hall(doc, default_switch(doc), doc.basis.oversubscription)
    History(doc).push(command)
    rails = 8
    assert compute_generation(command).cables.summary() == \
        f"kept {compute:,}, rewired 0, removed 0, added {more * rails:,}"
    after = _cables(doc)
    assert {i: after[i] for i in before if after.get(i) != before[i]} == {}, summary(command)
    added = set(after) - set(before)
    assert all(doc.links[i].state == "planned" for i in added)
    assert sum(1 for i in added if is_compute(doc.links[i]) and doc.links[i].a_device in new_nodes) == more * rails


def _rewired(command) -> dict[str, list[str]]:
    generations = [compute_generation(command), *command.networks]
    return {getattr(g, "network", COMPUTE): g.cables.rewired for g in generations}


@pytest.mark.parametrize("installed", [False, True])
def test_a_node_taken_out_and_put_back_mid_hall_moves_no_other_cable(installed):
    """Storage leaves, management access switches and manifold pairs keep the ports they hold
    (``keep_or_deal``): a node taken out of the first rack and put back moves no other device's
    cable on any network but power, where a rack whose kept cords would leave a PDU's phases
    out of balance has its cords still on paper placed anew (P13), so only that rack's planned
    cords may move; cords already in the hall (``installed``) stay where they are."""
    doc = build_template("pod", 16)
    if installed:
        _mark(doc)
    victim = node_devices(doc)[2]
    own = {link.id for link in doc.links_of(victim.id)}
    History(doc).push(RemoveObjects([*own, victim.id]))
    out = cable_hall(doc, default_switch(doc), doc.basis.oversubscription)
    History(doc).push(out)
    moved = _rewired(out)
    assert {n: ids for n, ids in moved.items() if n != POWER and ids} == {}, summary(out)
    assert all(doc.racks[doc.devices[doc.links[i].a_device].rack].id == victim.rack for i in moved[POWER])
    if installed:  # taking a node out leaves a PDU's phases beyond P13's error limit: the cords in
        # the hall are placed anew too, and applying that asks first (the CLI needs --force)
        assert moved[POWER] and refusal(out).startswith(f"{len(moved[POWER])} cable(s) already past planned")
    else:  # on paper the rack's phases are evened out, and nothing past planned moves
        assert moved[POWER] and refusal(out) == ""
    before = _cables(doc)
    doc.add(replace(victim))
    back = cable_hall(doc, default_switch(doc), doc.basis.oversubscription)
    History(doc).push(back)
    assert {n: ids for n, ids in _rewired(back).items() if ids} == {}, summary(back)
    assert {i: _cables(doc)[i] for i in before} == before
    assert {doc.links[i].a_device for i in set(doc.links) - set(before)} == {victim.id}
    assert len(doc.links_of(victim.id)) == len(own)


def test_a_rack_rebalanced_moves_its_cords_on_paper_around_those_in_the_hall():
    """The last node's cords verified, another node taken out of the rack: the cords still only planned
    are placed anew to even the PDUs' phases (P13), the verified ones stay on their outlets, and
    nothing asks for confirmation."""
    doc = build_template("pod", 16)
    first, victim = node_devices(doc)[3], node_devices(doc)[2]
    verified = [link.id for link in doc.links_of(first.id) if link.id in doc.links_in(POWER)]
    for link_id in verified:
        doc.set_fields(link_id, {"state": "verified"})
    outlets = {i: (doc.links[i].b_device, doc.links[i].b_port, "verified") for i in verified}
    History(doc).push(RemoveObjects([*doc.link_ids_of(victim.id), victim.id]))
    out = cable_hall(doc, default_switch(doc), doc.basis.oversubscription)
    History(doc).push(out)
    assert _rewired(out)[POWER] and refusal(out) == ""
    assert {i: (doc.links[i].b_device, doc.links[i].b_port, doc.links[i].state) for i in verified} == outlets
    assert not [f for f in Validator(doc).findings if f.rule == "P13"]


def test_a_cable_on_the_wrong_port_is_rewired_keeping_its_id_and_typed_label():
    doc = build_template("pod", 16)
    link = next(l for l in doc.links.values() if l.tier == "node-leaf")
    leaf = doc.devices[link.b_device]
    spare = next(p for p in doc.catalog[leaf.type].port_names()
                 if not any(l.b_port == p or l.a_port == p for l in doc.links_of(leaf.id)))
    History(doc).push(SetFields({link.id: {"b_port": spare, "state": "verified", "label": "SITE-7"}}))
    command = generate_fabric(doc, default_switch(doc))
    plan = command.cables
    assert (plan.kept, plan.rewired, plan.removed, len(plan.added)) == (len(doc.links_in(COMPUTE)) - 1, [link.id], [], 0)
    assert plan.at_risk == [link.id] and "1 past planned" in plan.summary()
    History(doc).push(command)
    back = doc.links[link.id]
    assert (back.b_port, back.label, back.state) != (spare, "SITE-7", "verified")
    assert back.label == "SITE-7" and back.state == "planned" and back.b_port != spare


def _planner(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "planner", *args], capture_output=True, text=True, cwd=cwd,
                          check=False)


def _verified_pod(tmp_path) -> Document:
    doc = build_template("pod", 12)
    for link_id in doc.links:
        doc.set_fields(link_id, {"state": "verified"})
    save(doc, tmp_path / "v.hall")
    return doc


def _written(path) -> dict[str, dict]:
    return {link["id"]: link for link in json.loads(path.read_text())["links"]}


def test_cli_regenerate_keeps_states_and_removing_verified_cables_needs_force(tmp_path):
    doc = _verified_pod(tmp_path)
    result = _planner("fabric", "v.hall", "-o", "r.hall", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"cables: kept {len(doc.links_in(COMPUTE)):,}, rewired 0, removed 0, added 0"
    # then one line per other network, each keeping every cable ("storage: 1 switch; cables kept 26, …")
    others = [network for network in TIERS_OF if network != COMPUTE]
    held = {line.split(":")[0]: line for line in lines[1:1 + len(others)]}
    assert sorted(held) == sorted(others)
    for network, line in held.items():
        assert line.endswith(f"cables kept {len(doc.links_in(network)):,}, rewired 0, removed 0, added 0"), line
    ids = {i: link["state"] for i, link in _written(tmp_path / "v.hall").items()}
    assert {i: link["state"] for i, link in _written(tmp_path / "r.hall").items()} == ids
    assert _planner("diff", "v.hall", "r.hall", cwd=tmp_path).returncode == 0

    # another switch type: the node cables move to the new leaf (rewired: their node end stays),
    # the switch-to-switch cables of the old switches go
    refused = _planner("fabric", "v.hall", "--switch", "sw-64x800g-2u-eth", "-o", "out.hall", cwd=tmp_path)
    assert refused.returncode == 1 and not (tmp_path / "out.hall").exists()
    total, gpus = len(doc.links_in(COMPUTE)), 12 * 8
    assert f"rewired {gpus} ({gpus} past planned), removed {total - gpus} ({total - gpus} verified)" in refused.stdout
    assert f"{total:,} cable(s) already past planned would be removed or rewired" in refused.stderr
    assert "--force" in refused.stderr


def test_cli_forced_switch_type_change_writes_planned_compute_cables(tmp_path):
    _verified_pod(tmp_path)
    forced = _planner("fabric", "v.hall", "--switch", "sw-64x800g-2u-eth", "-o", "out.hall", "--force",
                      cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    old, new = _written(tmp_path / "v.hall"), _written(tmp_path / "out.hall")
    # every compute cable was removed or rewired: back to planned; a cable of another network
    # whose ends stay keeps its state
    assert {link["state"] for link in new.values() if link.get("tier", "") in TIERS_OF[COMPUTE] + ("",)} == {"planned"}
    ends = ("a_device", "a_port", "b_device", "b_port")
    assert all(link["state"] == "verified" for i, link in new.items()
               if i in old and link.get("tier", "") not in TIERS_OF[COMPUTE]
               and all(old[i][k] == link[k] for k in ends))
