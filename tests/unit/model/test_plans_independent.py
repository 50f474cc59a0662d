"""Two plans in one process share no mutable state (issue 19: "One plan's edit must not change
another"): editing one — through the model or through commands — changes nothing in the other,
in a plan loaded from the same text, or in a fresh ``builtin_catalog()``."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from planner.commands import AddCatalogItem, History, SetAttributes, SetOutline
from planner.io import dumps, loads
from planner.model.basis import FLUID_PROPERTIES, DesignBasis
from planner.model.catalog import NODE, RACK, SWITCH, builtin_catalog
from planner.model.document import Document
from planner.model.objects import Meta

NODE_KEY = "node-8gpu-liquid-4u"
SQUARE = [(0.0, 0.0), (20.0, 0.0), (20.0, 10.0), (0.0, 10.0)]


def snapshot(doc: Document) -> str:
    """Everything a plan holds that the file does not (built-in entries) plus the file itself."""
    entries = [repr(item) for item in doc.catalog.items.values()]
    media = [repr(medium) for medium in doc.catalog.media.values()]
    return "\n".join([dumps(doc), *entries, *media])


@pytest.fixture
def pair() -> tuple[Document, Document]:
    return Document(), Document()


def test_a_built_in_entry_edited_in_one_plan_is_unchanged_in_the_other(pair):
    a, b = pair
    before_b, before_fresh = snapshot(b), repr(builtin_catalog()[NODE_KEY])
    item = a.catalog[NODE_KEY]
    item.power_w = 1.0
    item.name = "edited"
    item.hca_names.append("mlx5_99")  # a list inside the entry: copied, not shared
    medium = next(iter(a.catalog.media.values()))
    medium.stock_lengths_m.append(999.0)
    medium.reach_m = 0.5
    assert a.catalog[NODE_KEY].power_w == 1.0  # the edit did happen
    assert snapshot(b) == before_b
    assert repr(builtin_catalog()[NODE_KEY]) == before_fresh
    assert 999.0 not in next(iter(builtin_catalog().media.values())).stock_lengths_m
    assert Document().catalog[NODE_KEY].power_w == b.catalog[NODE_KEY].power_w != 1.0


def test_every_built_in_entry_is_an_object_of_its_own(pair):
    a, b = pair
    fresh = builtin_catalog()
    for key in a.catalog.items:
        assert a.catalog[key] is not b.catalog[key] is not fresh[key]
        assert a.catalog[key].hca_names is not b.catalog[key].hca_names
    for key in a.catalog.media:
        assert a.catalog.media[key] is not b.catalog.media[key]
        assert a.catalog.media[key].stock_lengths_m is not b.catalog.media[key].stock_lengths_m


def test_two_plans_loaded_from_the_same_text_are_independent():
    source = Document()
    custom = dataclasses.replace(builtin_catalog()[NODE_KEY], key="custom-node", name="Custom node")
    History(source).push(AddCatalogItem(custom))
    text = dumps(source)
    a, b = loads(text), loads(text)
    before = snapshot(b)
    a.catalog["custom-node"].power_w = 7.0
    a.catalog["custom-node"].hca_names.append("mlx5_7")
    a.catalog["rack-600x1200-48u"].max_power_kw = 1.0
    a.basis.delta_t_k = 3.0
    a.basis.sources["delta_t_k"] = "edited"
    a.meta.project = "edited"
    assert snapshot(b) == before
    assert loads(text).catalog["custom-node"].power_w == custom.power_w
    assert builtin_catalog()["rack-600x1200-48u"].max_power_kw != 1.0


def test_a_custom_type_added_by_command_belongs_to_that_plan_alone(pair):
    a, b = pair
    item = dataclasses.replace(builtin_catalog()[NODE_KEY], key="custom-n", name="N")
    given = copy.deepcopy(item)
    ha, hb = History(a), History(b)
    ha.push(AddCatalogItem(item))
    hb.push(AddCatalogItem(item))  # the same object handed to both plans
    assert item == given  # the command took a copy: the caller's object is as it was
    a.catalog["custom-n"].power_w = 5.0
    a.catalog["custom-n"].hca_names.append("mlx5_5")
    assert b.catalog["custom-n"].power_w == given.power_w
    assert b.catalog["custom-n"].hca_names == given.hca_names
    assert "custom-n" not in builtin_catalog()
    # replacing a built-in key's neighbour by command, then undoing, leaves the other plan alone
    before_b = snapshot(b)
    ha.undo()
    assert "custom-n" not in a.catalog
    assert snapshot(b) == before_b


def test_basis_and_meta_edits_by_command_and_by_model_stay_in_their_plan(pair):
    a, b = pair
    before_b = snapshot(b)
    History(a).push(SetAttributes("basis", {"delta_t_k": 4.0, "sources": {"delta_t_k": "site survey"}},
                                  "Edit basis"))
    History(a).push(SetAttributes("meta", {"project": "Project A"}, "Edit title block"))
    a.basis.sources["voltage_v"] = "edited in place"
    a.basis.voltage_v = 230.0
    a.meta.hall = "Hall A"
    assert (a.basis.delta_t_k, a.meta.project, a.meta.hall) == (4.0, "Project A", "Hall A")
    assert snapshot(b) == before_b
    assert dataclasses.asdict(DesignBasis()) == dataclasses.asdict(b.basis)
    assert dataclasses.asdict(Meta()) == dataclasses.asdict(b.meta)


def test_a_command_value_is_not_shared_with_the_plan_it_set():
    a, b = Document(), Document()
    sources = {"delta_t_k": "site survey"}
    command = SetAttributes("basis", {"sources": sources}, "Edit basis")
    History(a).push(command)
    History(b).push(command)
    a.basis.sources["delta_t_k"] = "edited"
    assert b.basis.sources == {"delta_t_k": "site survey"} == sources


def test_the_outline_of_one_plan_is_not_the_other(pair):
    a, b = pair
    command = SetOutline(SQUARE)
    History(a).push(command)
    History(b).push(command)
    a.outline.append((5.0, 5.0))
    assert b.outline == SQUARE
    History(a).push(SetOutline([(0.0, 0.0), (3.0, 0.0), (0.0, 3.0)]))
    assert b.outline == SQUARE


def test_lists_handed_out_by_catalogue_helpers_are_the_callers_own(pair):
    a, b = pair
    node, switch = a.catalog[NODE_KEY], a.catalog["sw-64x400g-1u"]
    for names in (node.port_names(), switch.port_names()):
        names.clear()
    assert node.port_names() and switch.port_names()
    assert b.catalog[NODE_KEY].port_names() == node.port_names()
    racks = a.catalog.of_kind(RACK)
    racks.clear()
    assert a.catalog.of_kind(RACK)
    customs = a.catalog.custom_items()
    customs.append(node)
    assert a.catalog.custom_items() == []
    assert len(b.catalog.of_kind(NODE, SWITCH)) == len(a.catalog.of_kind(NODE, SWITCH)) > 0


def test_shared_coolant_properties_cannot_be_edited_through_a_plan(pair):
    a, b = pair
    properties = a.basis.fluid_properties
    with pytest.raises(TypeError):
        properties["cp_kj_per_kg_k"] = 1.0  # type: ignore[index]
    with pytest.raises(TypeError):
        FLUID_PROPERTIES["water"] = {}  # type: ignore[index]
    assert b.basis.fluid_properties["cp_kj_per_kg_k"] == 4.18
