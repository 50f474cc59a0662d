"""A rack PDU's outlets (issue 21, part 3: the PDU end of a power cord): outlet groups of C13 or
C19 outlets behind one breaker on one phase, named ``O1`` … along the strip; the bundled PDU's
figures as its source cites them; the names distinct from the PDU's other ports and stable; a
custom PDU through the file byte for byte; impossible outlets refused with the field's path at
load and by AddCatalogItem."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from planner.commands import AddCatalogItem, Refusal
from planner.io import HallFileError, dumps, loads
from planner.model.catalog import RACK_PDU, CatalogItem, builtin_catalog
from planner.model.ports import (
    OOB,
    OUTLET_TYPES,
    PHASES_OF,
    POWER,
    PSU_INLETS,
    outlet_group,
    port_group,
)

PDU = "pdu-rack-3ph-63a"


def test_the_bundled_pdu_has_its_cited_outlets_breakers_and_phases():
    item = builtin_catalog()[PDU]
    outlets = item.outlets()
    assert Counter(outlet.outlet for outlet in outlets) == {"C13": 36, "C19": 6}
    assert len(item.outlet_groups) == 12 and {g["breaker_a"] for g in item.outlet_groups} == {16.0}
    per_phase = Counter()
    for group in item.outlet_groups:
        per_phase[group["phase"]] += group["breaker_a"]
    assert per_phase == {"L1": 64.0, "L2": 64.0, "L3": 64.0}  # four 16 A groups a phase: the 63 A input
    assert [g["phase"] for g in item.outlet_groups[:6]] == ["L1", "L1", "L2", "L2", "L3", "L3"]
    assert Counter(g["phase"] for g in item.outlet_groups if g["outlet"] == "C19") == {"L1": 2, "L2": 2, "L3": 2}
    assert item.pdu_inlet == "IEC 60309 3P+N+E 63 A 6h (5-pin)"
    assert (item.rating_a, item.phases, item.voltage_v) == (63.0, 3, 415.0)
    for cited in ("yiestar.com", "comms-express.com", "geistglobal.com", "Dell rPDU owner's manual",
                  "Not found: a datasheet's outlet table"):
        assert cited in item.source, cited  # the figures with their sources, what was not found said


def test_outlet_names_are_stable_distinct_and_never_meet_the_other_ports():
    item = builtin_catalog()[PDU]
    assert item.outlet_names() == [f"O{i}" for i in range(1, 43)]  # along the strip, group after group
    assert item.outlets_in_group(0) == ["O1", "O2", "O3", "O4", "O5", "O6"] and item.outlets_in_group(1) == ["O7"]
    assert item.outlets_of_type("C19") == ["O7", "O14", "O21", "O28", "O35", "O42"]
    assert len(item.outlets_of_type("C13")) == 36
    o7, o8 = item.outlet("O7"), item.outlet("O8")
    assert (o7.outlet, o7.group, o7.breaker_a, o7.phase) == ("C19", 1, 16.0, "L1")
    assert (o8.outlet, o8.group, o8.phase) == ("C13", 2, "L2")
    with pytest.raises(KeyError, match="no outlet 'O43'"):
        item.outlet("O43")
    names = item.all_port_names()
    assert len(names) == len(set(names)) and names[0] == "mgmt0" and names[1:] == item.outlet_names()
    again = builtin_catalog()[PDU].copy()
    again.outlet_groups[0]["count"] = 5  # the copy's own groups: the bundled entry keeps its names
    assert builtin_catalog()[PDU].outlet_names() == item.outlet_names() and again.outlet_names()[-1] == "O41"


def test_the_power_network_of_a_pdu_is_its_outlets():
    item = builtin_catalog()[PDU]
    assert item.port_names(POWER) == item.outlet_names()
    assert item.port_names(OOB) == ["mgmt0"]
    assert item.networks() == (OOB, POWER)
    power = [port for port in item.ports() if port.network == POWER]
    assert [(p.name, p.connector) for p in power[5:8]] == [("O6", "C13"), ("O7", "C19"), ("O8", "C13")]
    assert set(OUTLET_TYPES) == set(PSU_INLETS.values())  # a PSU's C14/C20 mates with these outlets
    assert PHASES_OF[1] == ("L1",) and "L3-L1" in PHASES_OF[3]
    node = builtin_catalog()["node-8gpu-10u"]
    assert node.outlet_names() == [] and node.port_names(POWER) == [f"PSU{i}" for i in range(1, 7)]


def _custom_pdu() -> CatalogItem:
    item = builtin_catalog()[PDU].copy()
    item.key, item.name, item.custom = "custom-pdu-delta", "Delta PDU 208 V 3-phase 60 A", True
    item.source = "Vendor datasheet rev 2, table 4"
    item.rating_a, item.voltage_v, item.pdu_inlet = 60.0, 208.0, "NEMA L15-60P"
    item.outlet_groups = [outlet_group("C13", 4, 20, "L1-L2"), outlet_group("C19", 2, 20, "L2-L3"),
                          outlet_group("C19", 2, 20, "L3-L1")]
    return item


def test_a_custom_pdu_round_trips_through_the_file_byte_for_byte(example_doc):
    item = _custom_pdu()
    AddCatalogItem(item).apply(example_doc)
    text = dumps(example_doc)
    again = loads(text)
    back = again.catalog[item.key]
    assert back == item and back.outlet_groups is not item.outlet_groups
    assert back.outlet_groups[1] == {"outlet": "C19", "count": 2, "breaker_a": 20.0, "phase": "L2-L3"}
    assert dumps(again) == text  # save → load → save: the same bytes
    assert back.outlet_names() == [f"O{i}" for i in range(1, 9)] and back.outlet("O5").phase == "L2-L3"
    record = next(entry for entry in json.loads(text)["catalog"] if entry["key"] == item.key)
    assert record["outlet_groups"][0] == {"outlet": "C13", "count": 4, "breaker_a": 20.0, "phase": "L1-L2"}
    assert record["pdu_inlet"] == "NEMA L15-60P"


def test_a_breaker_written_as_a_whole_number_saves_as_the_model_holds_it(example_doc):
    data = json.loads(dumps(example_doc))
    record = _record(_custom_pdu())
    record["outlet_groups"][0]["breaker_a"] = 20  # a hand-written file: 20, not 20.0
    data["catalog"] = [record]
    doc = loads(json.dumps(data))
    assert doc.catalog[record["key"]].outlet_groups[0]["breaker_a"] == 20.0
    assert dumps(loads(dumps(doc))) == dumps(doc)


def test_a_custom_pdu_written_before_the_fields_loads_with_no_outlets(example_doc):
    data = json.loads(dumps(example_doc))
    record = _record(_custom_pdu())
    del record["outlet_groups"], record["pdu_inlet"]
    data["catalog"] = [record]
    item = loads(json.dumps(data)).catalog[record["key"]]
    assert (item.outlet_groups, item.pdu_inlet, item.outlet_names()) == ([], "", [])
    assert item.port_names(POWER) == [] and item.networks() == (OOB,)


def _record(item: CatalogItem) -> dict:
    record = json.loads(json.dumps(vars(item)))
    record.pop("custom")
    return record


def _refusal(example_doc, item: CatalogItem) -> str:
    data = json.loads(dumps(example_doc))
    data["catalog"] = [_record(item)]
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(data))
    return str(caught.value)


def _single_phase(item: CatalogItem) -> None:
    item.phases, item.voltage_v = 1, 230.0
    item.outlet_groups = [outlet_group("C13", 8, 16, "L1"), outlet_group("C19", 2, 16, "L2")]


def _on_a_node(item: CatalogItem) -> CatalogItem:
    node = builtin_catalog()["node-8gpu-liquid-4u"].copy()
    node.key, node.custom, node.outlet_groups = item.key, True, item.outlet_groups
    return node


def _inlet_on_a_node(item: CatalogItem) -> CatalogItem:
    node = builtin_catalog()["node-8gpu-liquid-4u"].copy()
    node.key, node.custom, node.pdu_inlet = item.key, True, "IEC 60309 3P+N+E 63 A 6h"
    return node


@pytest.mark.parametrize("change, message", [
    (lambda i: i.outlet_groups[0].update(outlet="C20"), ("$.catalog[0].outlet_groups[0].outlet: C20 is a PSU's inlet; "
                                                         "the PDU outlet that mates with it is C19")),
    (lambda i: i.outlet_groups[2].update(outlet="C15"), ("$.catalog[0].outlet_groups[2].outlet: 'C15' is not one of "
                                                        "C13, C19")),
    (lambda i: i.outlet_groups[1].update(breaker_a=80.0), ("$.catalog[0].outlet_groups[1].breaker_a: 80 A is above "
                                                           "the PDU's rating 60 A")),
    (lambda i: i.outlet_groups[1].update(breaker_a=0.0), ("$.catalog[0].outlet_groups[1].breaker_a: 0 A is outside "
                                                         "1–1,000 A")),
    (lambda i: i.outlet_groups[0].update(count=0), "$.catalog[0].outlet_groups[0].count: 0 is outside 1–100"),
    (lambda i: i.outlet_groups[0].update(phase="L4"), ("$.catalog[0].outlet_groups[0].phase: 'L4' is not a phase of "
                                                      "a 3-phase PDU")),
    (_single_phase, "$.catalog[0].outlet_groups[1].phase: 'L2' is not a phase of a 1-phase PDU (one of L1)"),
    (lambda i: setattr(i, "port_groups", [port_group(OOB, "RJ45", 2, 1, "O")]),
     "$.catalog[0].port_groups[0].stem: port O1 is named twice (also a power port)"),
    (lambda i: setattr(i, "port_groups", [*i.port_groups, port_group(OOB, "RJ45", 1, 1, "O", 8)]),
     "$.catalog[0].port_groups[1].stem: port O8 is named twice (also a power port)"),
    (_on_a_node, "$.catalog[0].outlet_groups: a node has no outlets (a rack PDU has them)"),
    (_inlet_on_a_node, "$.catalog[0].pdu_inlet: a node has no PDU inlet (a rack PDU has one)"),
])
def test_impossible_outlets_are_refused_with_the_field_path_at_load_and_in_the_editor(example_doc, change, message):
    item = _custom_pdu()
    changed = change(item)
    item = changed if isinstance(changed, CatalogItem) else item
    assert _refusal(example_doc, item).startswith(message)
    field = message.split(": ", 1)[0].removeprefix("$.catalog[0].")
    with pytest.raises(Refusal, match=f"^{field.replace('_', ' ').replace('[', '.').replace(']', '.')}: "):
        AddCatalogItem(copy.deepcopy(item))


def test_an_unknown_or_missing_key_in_an_outlet_group_is_refused_with_its_path(example_doc):
    data = json.loads(dumps(example_doc))
    record = _record(_custom_pdu())
    record["outlet_groups"][2]["colour"] = "red"
    data["catalog"] = [record]
    with pytest.raises(HallFileError, match=r"^\$\.catalog\[0\]\.outlet_groups\[2\]\.colour: unknown key"):
        loads(json.dumps(data))
    del record["outlet_groups"][2]["colour"], record["outlet_groups"][2]["phase"]
    with pytest.raises(HallFileError, match=r"^\$\.catalog\[0\]\.outlet_groups\[2\]\.phase: missing"):
        loads(json.dumps(data))


def test_every_bundled_pdu_has_outlets_and_no_other_kind_has_any():
    for item in builtin_catalog().items.values():
        assert bool(item.outlet_groups) == (item.kind == RACK_PDU), item.key
        assert bool(item.pdu_inlet) == (item.kind == RACK_PDU), item.key
