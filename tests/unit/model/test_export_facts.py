"""Issue 11 loose end: facts the exports need live in the model, with bounds and defaults that let
older files load: ``DesignBasis.nccl_efficiency``, ``CatalogItem.port_face`` and ``MediaType.part``."""

from __future__ import annotations

import dataclasses
import json

import pytest

from planner.commands import AddCatalogItem, Refusal, SetAttributes
from planner.io import HallFileError, dumps, loads
from planner.model.basis import BASIS_SOURCES, DesignBasis
from planner.model.bounds import BOUNDS, Range, Text
from planner.model.catalog import PORT_FACES, CatalogItem, MediaType, builtin_catalog


def test_defaults_and_sources():
    basis = DesignBasis()
    assert basis.nccl_efficiency == 0.80
    assert BASIS_SOURCES["nccl_efficiency"] == \
        "Commissioning: NCCL bus bandwidth floor as a share of line rate (planning assumption)"
    assert basis.source("nccl_efficiency") == BASIS_SOURCES["nccl_efficiency"]
    assert CatalogItem(key="k", kind="node", name="n").port_face == ""
    assert MediaType(key="m", name="M", reach_m=3.0, stock_lengths_m=[1.0]).part == ""
    assert PORT_FACES == ("front", "rear", "")
    catalog = builtin_catalog()
    assert all(item.port_face == "" for item in catalog.items.values())
    assert all(medium.part == "" for medium in catalog.media.values())


def test_each_new_field_has_its_bounds():
    efficiency = BOUNDS["DesignBasis"]["nccl_efficiency"]
    assert isinstance(efficiency, Range) and (efficiency.low, efficiency.high) == (0.01, 1)
    assert isinstance(BOUNDS["CatalogItem"]["port_face"], Text)
    assert isinstance(BOUNDS["MediaType"]["part"], Text)


def test_a_file_written_before_the_fields_existed_loads_with_their_defaults(example_doc):
    data = json.loads(dumps(example_doc))
    data["basis"].pop("nccl_efficiency")
    data["catalog"] = [{"key": "custom-old", "kind": "node", "name": "Old custom node", "height_u": 4, "gpus": 8,
                        "port_cages": 8, "port_speed_gbps": 400.0, "weight_kg": 130.0, "width_m": 0.482,
                        "depth_m": 0.897, "power_w": 10_200.0}]
    doc = loads(json.dumps(data))
    assert doc.basis.nccl_efficiency == 0.80
    assert doc.catalog["custom-old"].port_face == ""
    # and a plan saved now keeps what it says
    doc.basis.nccl_efficiency = 0.85
    doc.catalog["custom-old"].port_face = "front"
    again = loads(dumps(doc))
    assert again.basis.nccl_efficiency == 0.85 and again.catalog["custom-old"].port_face == "front"


@pytest.mark.parametrize("value", [0.0, 1.5, -0.2])
def test_the_loader_and_the_basis_command_refuse_an_efficiency_out_of_range(example_doc, value):
    data = json.loads(dumps(example_doc))
    data["basis"]["nccl_efficiency"] = value
    with pytest.raises(HallFileError, match=r"\$\.basis\.nccl_efficiency"):
        loads(json.dumps(data))
    with pytest.raises(Refusal, match="nccl efficiency"):
        SetAttributes("basis", {"nccl_efficiency": value}, "NCCL floor")
    SetAttributes("basis", {"nccl_efficiency": 0.9}, "NCCL floor")  # within 1–100 %


def test_a_custom_type_says_front_rear_or_nothing():
    base = dataclasses.replace(builtin_catalog()["node-8gpu-liquid-4u"], key="custom-n", name="N", custom=True)
    for face in PORT_FACES:
        assert AddCatalogItem(dataclasses.replace(base, port_face=face)).item.port_face == face
    with pytest.raises(Refusal, match="port face: 'top'"):
        AddCatalogItem(dataclasses.replace(base, port_face="top"))
