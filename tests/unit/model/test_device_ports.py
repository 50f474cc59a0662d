"""Ports beyond the rails (issue 21, part 1): every catalogue entry's ports by network and
connector, its PSUs and its coolant quick-disconnects; names that never collide with the rail
names cables use; the PSU redundancy parser; the cited DGX-class figures; custom types that carry
the new fields through the file; impossible values refused with the field's path."""

from __future__ import annotations

import copy
import json

import pytest

from planner.commands import AddCatalogItem, Refusal
from planner.io import HallFileError, dumps, loads
from planner.layout.templates import build_template
from planner.model.catalog import NODE, STORAGE, CatalogItem, builtin_catalog, default_stem
from planner.model.ports import (
    COMPUTE,
    COOLANT,
    INBAND,
    NETWORKS,
    OOB,
    POWER,
    STORAGE_NET,
    port_group,
    qd_size_mm,
    redundancy_spares,
)


def _old_port_names(item: CatalogItem) -> list[str]:
    """``CatalogItem.port_names()`` as it was before networks: the names files and cables hold."""
    if item.kind == NODE:
        return [f"P{i}" for i in range(1, item.port_cages * item.ports_per_cage + 1)]
    if item.ports_per_cage > 1:
        return [f"{c}/{lane}" for c in range(1, item.port_cages + 1) for lane in range(1, item.ports_per_cage + 1)]
    return [str(c) for c in range(1, item.port_cages + 1)]


@pytest.mark.parametrize("key", sorted(builtin_catalog().items))
def test_port_names_are_distinct_and_never_meet_the_rail_names(key):
    item = builtin_catalog()[key]
    names = item.all_port_names()
    assert len(names) == len(set(names)), names
    rails = set(item.port_names())
    for network in NETWORKS:
        own = item.port_names(network)
        assert len(own) == len(set(own))
        if network != item.cage_network:
            assert not rails & set(own), (network, own)
    assert item.port_names() == _old_port_names(item)  # unchanged: files and cables name these
    assert set(item.networks()) == {port.network for port in item.ports()}


def test_rail_names_are_those_the_pod_template_cables():
    doc = build_template("pod", 32)
    used: dict[str, set[str]] = {}
    for link in doc.links_in(COMPUTE).values():  # the rails; other networks' cables name their own ports
        for device_id, port in ((link.a_device, link.a_port), (link.b_device, link.b_port)):
            used.setdefault(doc.devices[device_id].type, set()).add(port)
    for type_key, ports in used.items():
        item = doc.catalog[type_key]
        assert ports <= set(item.port_names()) == set(_old_port_names(item))
        assert not ports & set(item.all_port_names()[item.port_count:])  # no cable names a new port
    node_type = next(key for key in used if doc.catalog[key].kind == NODE)
    assert used[node_type] == {f"P{i}" for i in range(1, 9)}


@pytest.mark.parametrize("text, count, spares", [
    ("5+1", 6, 1), ("5 + 1", None, 1), ("4+2", 6, 2), ("1+1", 2, 1), ("N+1", 6, 1), ("n+2", 6, 2),
    ("N+N", 6, 3), ("2N", 4, 2), ("N", 6, 0), ("N+N", None, None), ("", 6, None), ("3+3 (N+N)", 6, 3),
])
def test_psu_redundancy_says_how_many_may_fail(text, count, spares):
    assert redundancy_spares(text, count) == spares


@pytest.mark.parametrize("text, count, words", [
    ("5+1", 4, "'5+1' is 6 PSUs, the type has 4"),
    ("N+N", 5, "N+N splits the PSUs in two equal halves"),
    ("N+6", 6, "at least one PSU must carry the load"),
    ("0+2", 2, "at least one PSU carries the load"),
    ("lots", 6, "is not a redundancy such as 5+1, N+1, N+N or 2N"),
])
def test_psu_redundancy_that_cannot_be_is_an_error(text, count, words):
    with pytest.raises(ValueError, match=words.replace("+", r"\+").replace("(", r"\(")):
        redundancy_spares(text, count)


@pytest.mark.parametrize("text, mm", [
    ("1/2 in", 12.7), ('3/4"', 19.05), ("0.5 in", 12.7), ("12.7 mm", 12.7), ("DN15", 15.0), ("UQD08", 12.7),
    ("UQDB04", 6.35), ("", None),
])
def test_quick_disconnect_sizes(text, mm):
    assert qd_size_mm(text) == mm


def test_the_dgx_b200_class_node_has_its_cited_ports_and_psus():
    item = builtin_catalog()["node-8gpu-10u"]
    storage = [g for g in item.port_groups if g["network"] == STORAGE_NET]
    # Port 1 of each dual-port card on the storage fabric, port 2 the bonded in-band pair (SuperPOD RA-11333-001)
    assert [(g["count"], g["connector"], g["speed_gbps"]) for g in storage] == [(2, "QSFP112", 400.0)]
    inband = [g for g in item.port_groups if g["network"] == INBAND]
    assert [(g["count"], g["connector"], g["speed_gbps"]) for g in inband] == [(2, "QSFP112", 100.0)]
    assert item.port_names(STORAGE_NET) == ["S1", "S2"]
    assert item.port_names(INBAND) == ["E1", "E2"] and item.port_names(OOB) == ["BMC"]
    assert "RA-11333-001" in item.source and "bonded" in item.source
    bmc = next(g for g in item.port_groups if g["network"] == OOB)
    assert (bmc["connector"], bmc["speed_gbps"]) == ("RJ45", 1.0)
    assert (item.psu_count, item.psu_inlet, item.psu_rating_w, item.psu_redundancy) == (6, "C20", 3300.0, "5+1")
    assert item.port_names(POWER) == [f"PSU{i}" for i in range(1, 7)]
    assert item.psu_spares() == 1 and item.psu_capacity_w(1) == 16_500.0 and item.psu_shortfall_w() == 0.0
    assert "dgxb200-user-guide" in item.source and "5+1 redundancy" in item.source
    h100 = builtin_catalog()["node-8gpu-air-8u"]
    assert (h100.psu_count, h100.psu_redundancy, h100.psu_spares()) == (6, "4+2", 2)
    assert h100.port_names(STORAGE_NET) == ["S1", "S2"] and h100.port_names(INBAND) == ["E1", "E2"]
    assert h100.networks() == (COMPUTE, STORAGE_NET, INBAND, OOB, POWER)


def test_switches_pdus_cdus_and_storage_have_their_management_ports():
    catalog = builtin_catalog()
    for item in catalog.of_kind("switch", "rack_pdu", "rack_cdu", "row_cdu"):
        if item.network:  # a management switch: its own network's ports, and Cumulus Linux's eth0
            assert item.port_names(OOB)[-1:] == ["eth0"] and item.lldp_naming == "cumulus", item.key
        else:
            assert item.port_names(OOB) == ["mgmt0"], item.key
    oob, inband = catalog.management_switch(OOB), catalog.management_switch(INBAND)
    assert oob is not None and inband is not None
    assert oob.port_names(OOB)[:48] == [str(n) for n in range(1, 49)] and oob.port_names(OOB)[48:52] == [
        "swp49", "swp50", "swp51", "swp52"]
    assert (inband.port_count, inband.port_speed_gbps, inband.cage_network) == (64, 100.0, INBAND)
    assert {item.key for item in catalog.fabric_switches()} == {"sw-64x400g-1u", "sw-64x800g-2u-eth"}
    for item in catalog.of_kind("switch"):
        assert (item.psu_count, item.psu_spares()) == (2, 1)
    flash = catalog["storage-flash-2u"]
    assert flash.port_names(STORAGE_NET) == ["1", "2"] and flash.port_names(COMPUTE) == []  # its cages
    assert flash.port_names(OOB) == ["BMC"]
    liquid, cdu = catalog["node-8gpu-liquid-4u"], catalog["cdu-rack-250kw"]
    assert liquid.port_names(COOLANT) == ["SUP1", "RET1"]
    assert cdu.port_names(COOLANT) == ["SUP1", "RET1", "SUP2", "RET2"]
    # A class assumption, said as one: 5+5 so one feed carries the 12 kW peak alone
    assert (liquid.psu_count, liquid.psu_inlet, liquid.psu_redundancy) == (10, "C20", "5+5")
    assert "class assumption" in liquid.source and liquid.psu_capacity_w(4) >= liquid.power_peak_w
    assert default_stem(NODE, OOB) == ("BMC", None) and default_stem("switch", OOB) == ("mgmt", 0)
    assert default_stem(STORAGE, STORAGE_NET) == ("S", 1)


def _custom(base: str = "node-8gpu-liquid-4u") -> CatalogItem:
    item = builtin_catalog()[base].copy()
    item.key, item.name, item.custom = "custom-ports", "Node with every port", True
    item.port_groups = [port_group(STORAGE_NET, "QSFP112", 2, 400, "S"), port_group(INBAND, "SFP28", 2, 25, "E"),
                        port_group(OOB, "RJ45", 1, 1, "BMC", None)]
    item.psu_count, item.psu_inlet, item.psu_rating_w, item.psu_redundancy = 4, "C20", 3000, "N+N"
    item.coolant_ports, item.qd_size = 1, "UQD08"
    return item


def test_a_custom_type_with_the_new_fields_round_trips_through_the_file(example_doc):
    item = _custom()
    AddCatalogItem(item).apply(example_doc)
    text = dumps(example_doc)
    again = loads(text)
    back = again.catalog["custom-ports"]
    assert back == item
    assert back.port_groups[1] == {"network": "inband", "connector": "SFP28", "count": 2, "speed_gbps": 25.0,
                                   "stem": "E", "first": 1}
    assert dumps(again) == text  # save → load → save: the same bytes
    assert back.all_port_names()[8:] == ["S1", "S2", "E1", "E2", "BMC", "PSU1", "PSU2", "PSU3", "PSU4", "SUP1", "RET1"]
    assert back.psu_spares() == 2 and back.psu_shortfall_w() == 6_000.0  # 2 × 3 kW left for a 12 kW peak: a finding


def test_a_custom_type_written_before_the_fields_loads_with_them_not_given(example_doc):
    data = json.loads(dumps(example_doc))
    entry = {k: v for k, v in json.loads(json.dumps(vars(builtin_catalog()["sw-64x400g-1u"]))).items()
             if k not in ("custom", "port_groups", "psu_count", "psu_inlet", "psu_rating_w", "psu_redundancy",
                          "coolant_ports", "qd_size", "port_connector", "console_port")}
    entry.update(key="custom-old", name="Old switch")
    data["catalog"] = [entry]
    item = loads(json.dumps(data)).catalog["custom-old"]
    assert (item.port_groups, item.psu_count, item.psu_rating_w, item.coolant_ports, item.qd_size,
            item.console_port) == ([], None, None, None, "", "")
    assert item.port_names() == _old_port_names(item) and item.networks() == (COMPUTE,)


def _refusal(example_doc, item: CatalogItem) -> str:
    data = json.loads(dumps(example_doc))
    record = json.loads(json.dumps(vars(item)))
    record.pop("custom")
    data["catalog"] = [record]
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(data))
    return str(caught.value)


@pytest.mark.parametrize("change, message", [
    (lambda i: i.port_groups[1].update(count=0), "$.catalog[0].port_groups[1].count: 0 is outside 1–1,024"),
    (lambda i: i.port_groups[0].update(speed_gbps=0.0), "$.catalog[0].port_groups[0].speed_gbps: 0 Gb/s is outside"),
    (lambda i: i.port_groups[0].update(network="compute"), "$.catalog[0].port_groups[0].network: 'compute' is not"),
    (lambda i: i.port_groups[0].update(connector="SC"), "$.catalog[0].port_groups[0].connector: 'SC' is not one of"),
    (lambda i: i.port_groups[0].update(stem="P"), ("$.catalog[0].port_groups[0].stem: port P1 is named twice (also a "
                                                  "compute port)")),
    (lambda i: i.port_groups[1].update(stem="S", first=2), "$.catalog[0].port_groups[1].stem: port S2 is named twice"),
    (lambda i: i.port_groups[0].update(stem="S1"), "$.catalog[0].port_groups[0].stem: 'S1' is not a name stem"),
    (lambda i: i.port_groups[0].update(first=None), "$.catalog[0].port_groups[0].count: 2 ports named 'S' alone"),
    (lambda i: setattr(i, "psu_count", 0), "$.catalog[0].psu_count: 0 is outside 1–100"),
    (lambda i: setattr(i, "psu_rating_w", 0.0), "$.catalog[0].psu_rating_w: 0 W is outside 1–100,000 W"),
    (lambda i: setattr(i, "psu_rating_w", 2000.0), ("$.catalog[0].psu_rating_w: 4 × 2,000 W = 8,000 W cannot carry "
                                                   "the peak draw 12,000 W even with every PSU working")),
    (lambda i: setattr(i, "psu_redundancy", "5+1"), "$.catalog[0].psu_redundancy: '5+1' is 6 PSUs, the type has 4"),
    (lambda i: setattr(i, "psu_inlet", "C19"), ("$.catalog[0].psu_inlet: C19 is the cord's and outlet's connector; "
                                               "the PSU inlet it mates with is C20")),
    (lambda i: setattr(i, "coolant_ports", 0), "$.catalog[0].coolant_ports: 0 is outside 1–64"),
    (lambda i: setattr(i, "liquid_fraction", 0.0), "$.catalog[0].coolant_ports: an air-cooled unit"),
    (lambda i: setattr(i, "qd_size", "large"), "$.catalog[0].qd_size: 'large' is not a size"),
    (lambda i: setattr(i, "port_connector", "RJ11"), "$.catalog[0].port_connector: 'RJ11' is not one of"),
    (lambda i: setattr(i, "console_port", "RS232"), "$.catalog[0].console_port: 'RS232' is not one of RJ45, USB"),
])
def test_impossible_ports_are_refused_with_the_field_path_at_load_and_in_the_editor(example_doc, change, message):
    item = _custom()
    change(item)
    assert _refusal(example_doc, item).startswith(message)
    field = message.split(": ", 1)[0].removeprefix("$.catalog[0].")
    with pytest.raises(Refusal, match=f"^{field.replace('_', ' ').replace('[', '.').replace(']', '.')}: "):
        AddCatalogItem(copy.deepcopy(item))


def test_an_unknown_key_in_a_port_group_is_refused_with_its_path(example_doc):
    data = json.loads(dumps(example_doc))
    record = json.loads(json.dumps(vars(_custom())))
    record.pop("custom")
    record["port_groups"][2]["colour"] = "blue"
    data["catalog"] = [record]
    with pytest.raises(HallFileError, match=r"^\$\.catalog\[0\]\.port_groups\[2\]\.colour: unknown key"):
        loads(json.dumps(data))
    del record["port_groups"][2]["colour"]
    record["port_groups"][2]["stem"] = "B\x07"
    data["catalog"] = [record]
    with pytest.raises(HallFileError, match=r"^\$\.catalog\[0\]\.port_groups\[2\]\.stem: holds a control character"):
        loads(json.dumps(data))


def test_ports_of_a_rack_and_coolant_on_a_pdu_are_refused():
    rack = builtin_catalog()["rack-600x1200-48u"].copy()
    rack.key, rack.custom, rack.port_groups = "custom-rack", True, [port_group(OOB, "RJ45", 1, 1, "mgmt", 0)]
    with pytest.raises(Refusal, match="^port groups: a rack has no ports"):
        AddCatalogItem(rack)
    pdu = builtin_catalog()["pdu-rack-3ph-63a"].copy()
    pdu.key, pdu.custom, pdu.coolant_ports = "custom-pdu", True, 1
    with pytest.raises(Refusal, match="^coolant ports: a rack pdu has no coolant connections"):
        AddCatalogItem(pdu)
    rack.port_groups, rack.console_port = [], "RJ45"
    with pytest.raises(Refusal, match="^console port: a rack has no console port"):
        AddCatalogItem(rack)


def test_a_control_character_in_a_port_group_is_found_on_the_fast_path(example_doc):
    item = _custom()
    AddCatalogItem(item).apply(example_doc)
    text = dumps(example_doc).replace('"stem": "BMC"', '"stem": "BM\u0085"')  # a raw C1 control, no escape
    with pytest.raises(HallFileError, match=r"^\$\.catalog\[0\]\.port_groups\[2\]\.stem: holds a control character"):
        loads(text.encode("utf-8"))
