"""Names the world gives devices and ports, mapped onto the plan (planner.io.discovery.naming)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from planner.io import load
from planner.io.discovery import IB, LLDP, PLAN
from planner.io.discovery.naming import (
    PlanNames,
    cumulus_name,
    ib_port_number,
    port_names,
    sonic_name,
)
from planner.model.catalog import builtin_catalog

DATA = Path(__file__).parents[2] / "data" / "discovery"


@pytest.fixture
def names():
    return PlanNames(load(DATA / "tiny.hall"))


@pytest.mark.parametrize(("number", "port"), [("1", "1/1"), ("2", "1/2"), ("3", "2/1"), ("33", "17/1"),
                                               ("64", "32/2"), ("65", None), ("0", None)])
def test_ib_port_numbers_are_twin_port_cages(names, number, port):
    assert names.port("dev-3", number, IB) == port


def test_ib_port_number_of_a_plan_port():
    item = builtin_catalog()["sw-64x400g-1u"]
    assert [ib_port_number(item, p) for p in ("1/1", "1/2", "2/1", "32/2")] == [1, 2, 3, 64]


def test_hca_order_per_node_type(names):
    # N1 is DGX H100-class: GPU order mlx5_0, mlx5_3, mlx5_4 … (user guide, table 6); N2 the default
    assert [names.port("dev-1", hca, IB) for hca in ("mlx5_0", "mlx5_3", "mlx5_4", "mlx5_11")] == \
        ["P1", "P2", "P3", "P8"]
    assert names.port("dev-1", "mlx5_1", IB) is None  # a storage NIC, no rail port
    assert [names.port("dev-2", hca, IB) for hca in ("mlx5_0", "mlx5_1", "mlx5_7")] == ["P1", "P2", "P8"]
    assert names.port("dev-2", "p3", LLDP) == "P3"  # the plan's own name, any case


def test_sonic_and_cumulus_interface_names():
    eth = builtin_catalog()["sw-64x800g-2u-eth"]
    assert [sonic_name(eth, 1, 1), sonic_name(eth, 1, 2), sonic_name(eth, 2, 1), sonic_name(eth, 64, 2)] == \
        ["Ethernet0", "Ethernet4", "Ethernet8", "Ethernet508"]
    assert [cumulus_name(eth, 1, 1), cumulus_name(eth, 1, 2), cumulus_name(eth, 17, 1)] == ["swp1s0", "swp1s1", "swp17s0"]
    sonic = port_names(replace(eth, lldp_naming="sonic"), LLDP)
    assert (sonic["ethernet4"], sonic["etp17a"], sonic["17/1"]) == ("1/2", "17/1", "17/1")
    assert "swp1s0" not in sonic  # the type says SONiC: Cumulus names are not taken for it
    cumulus = port_names(replace(eth, lldp_naming="cumulus"), LLDP)
    assert cumulus["swp2s1"] == "2/2" and "ethernet0" not in cumulus
    either = port_names(eth, LLDP)  # no naming given: every scheme (they cannot be confused)
    assert (either["ethernet8"], either["swp2s0"]) == ("2/1", "2/1")
    assert port_names(eth, PLAN) == {p.lower(): p for p in eth.all_port_names()}


def test_hostnames_ignore_case_and_shared_ones_match_nothing():
    doc = load(DATA / "tiny.hall")
    names = PlanNames(doc)
    assert names.device("r05-l1") == "dev-3"
    assert names.device("R05-L9") is None
    doc.set_fields("dev-6", {"hostname": "R05-S1"})  # S2 set by hand to S1's name
    names = PlanNames(doc)
    assert names.device("R05-S1") is None
    assert names.describe_unknown("R05-S1") == "R05-S1 (hostname shared by several devices)"
