"""The fabric's protocol (issue 18): switches state theirs, templates and the generator set the
design basis from it, media reaches follow it, and a plan whose switches and basis disagree is
a finding (N11)."""

from __future__ import annotations

from pathlib import Path

from planner.commands.base import History
from planner.fabric.hall import cable_hall
from planner.fabric.media import choose_media, media_order
from planner.fabric.sizing import default_switch
from planner.io import dumps, load, loads
from planner.layout.templates import build_template
from planner.model.catalog import ETHERNET, INFINIBAND, SWITCH, builtin_catalog
from planner.model.document import Document
from planner.rules.engine import validate
from planner.rules.finding import ERROR

DATA = Path(__file__).parents[2] / "data"
ETH = "sw-64x800g-2u-eth"


def test_every_catalogue_switch_states_its_protocol():
    catalog = builtin_catalog()
    protocols = {item.key: item.protocol for item in catalog.fabric_switches()}
    assert protocols == {"sw-64x400g-1u": INFINIBAND, ETH: ETHERNET}
    management = [item for item in catalog.of_kind(SWITCH) if item.network]  # in-band and OOB: Ethernet
    assert management and all(item.protocol == ETHERNET for item in management)


def test_default_switch_follows_the_basis_not_the_key():
    doc = Document()
    assert default_switch(doc) == "sw-64x400g-1u"
    doc.basis.fabric_kind = ETHERNET
    assert default_switch(doc) == ETH


def test_an_ethernet_template_says_ethernet_and_buys_dr4_to_500_m():
    doc = build_template("hall", 256, switch_type=ETH)
    assert doc.basis.fabric_kind == ETHERNET
    assert not [f for f in validate(doc) if f.severity == ERROR]
    ordered = media_order(doc.catalog.media)
    # DESIGN §5 Cables: DR4 reaches 100 m on InfiniBand, 500 m on Ethernet, FR4 2 km
    assert choose_media(ordered, 150.0, True, ethernet=True).media == "dr4"
    assert choose_media(ordered, 150.0, True, ethernet=False).media == "fr4"


def test_generating_with_the_other_protocol_sets_the_basis_in_the_same_step():
    doc = build_template("pod", 32)
    assert doc.basis.fabric_kind == INFINIBAND
    history = History(doc)
    history.push(cable_hall(doc, ETH))  # Plan ▸ Generate fabric: every network
    assert doc.basis.fabric_kind == ETHERNET
    assert not [f for f in validate(doc) if f.severity == ERROR]
    history.undo()
    assert doc.basis.fabric_kind == INFINIBAND


def test_switches_and_basis_that_disagree_are_an_error_with_both_values():
    doc = build_template("pod", 32, switch_type=ETH)
    doc.basis.fabric_kind = INFINIBAND
    found = [f for f in validate(doc) if f.rule == "N11"]
    assert len(found) == 1 and found[0].severity == ERROR
    assert "ethernet" in found[0].message and "fabric_kind infiniband" in found[0].message


def test_a_custom_switch_saved_without_a_protocol_loads_with_its_plans_fabric_kind():
    doc = load(DATA / "discovery" / "tiny_eth.hall")  # written before switches stated a protocol
    assert {i.key: i.protocol for i in doc.catalog.custom_items()} == {"sw-sonic": ETHERNET, "sw-cumulus": ETHERNET}
    assert not [f for f in validate(doc) if f.rule == "N11"]
    again = loads(dumps(doc))
    assert again.catalog["sw-sonic"].protocol == ETHERNET
