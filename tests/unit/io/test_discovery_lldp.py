"""The lldpcli JSON reader on files shaped like lldpd's output (json_writer.c, tests/integration/
test_lldpcli.py): one interface prints as an object, several as a list of one-key objects, and
``-f json0`` keeps every list. tests/data/discovery/lldp/ was written by hand from them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from planner.io.discovery import DiscoveryError, parse_lldp, read_lldp
from planner.io.discovery.lldp import host_of

DATA = Path(__file__).parents[2] / "data" / "discovery"


def _ends(links):
    return sorted(((link.a_host, link.a_port), (link.b_host, link.b_port)) for link in links)


def test_several_interfaces_print_as_a_list():
    links = read_lldp(DATA / "lldp" / "R05-L1.json")
    assert _ends(links) == [
        (("R05-L1", "Ethernet0"), ("R01-N1", "mlx5_0")),     # host: port id is a MAC, description the netdev
        (("R05-L1", "Ethernet128"), ("R05-S1", "swp1s0")),   # switch: port id is the interface name
        (("R05-L1", "Ethernet4"), ("R01-N2", "P1")),
    ]
    assert {link.scheme for link in links} == {"lldp"}
    assert all(link.rate_gbps is None for link in links)


def test_one_interface_prints_as_an_object():
    links = read_lldp(DATA / "lldp" / "R05-L2.json")
    assert _ends(links) == [(("R05-L2", "Ethernet0"), ("R01-N1", "mlx5_3"))]
    assert links[0].source == f"{DATA / 'lldp' / 'R05-L2.json'}:4"  # the line naming the interface


def test_json0_keeps_every_list():
    links = read_lldp(DATA / "lldp" / "R05-S1.json")
    assert _ends(links) == [(("R05-S1", "swp1s0"), ("R05-L1", "etp17a")),
                            (("R05-S1", "swp1s1"), ("R05-L2", "Ethernet128"))]


def test_a_folder_reads_every_json_file_named_after_its_host():
    links = read_lldp(DATA / "lldp")
    assert {link.a_host for link in links} == {"R01-N1", "R05-L1", "R05-L2", "R05-S1"}
    assert len(links) == 3 + 1 + 2 + 2
    assert host_of(Path("/x/R05-L1.json")) == "R05-L1"


def test_no_neighbours_and_a_neighbour_without_a_name():
    assert parse_lldp('{"lldp": {}}', "R05-L1") == []
    text = json.dumps({"lldp": {"interface": {"Ethernet8": {
        "chassis": {"id": {"type": "mac", "value": "00:11:22:33:44:55"}},
        "port": {"id": {"type": "mac", "value": "00:11:22:33:44:55"}}}}}})
    (link,) = parse_lldp(text, "R05-L1", "x.json")
    assert link.b_host == "(no system name, on R05-L1 Ethernet8)"
    assert link.b_port == "?"


def test_cut_short_json_names_the_line():
    with pytest.raises(DiscoveryError) as caught:
        read_lldp(DATA / "lldp_truncated.json")
    assert caught.value.line == 28
    assert "lldp_truncated.json:28: not JSON" in str(caught.value)


@pytest.mark.parametrize(("text", "problem"), [
    ('{"interfaces": {}}', 'no "lldp" object'),
    ('[1, 2]', 'no "lldp" object'),
    ('{"lldp": {"interface": [1]}}', "holds something other than objects"),
    ('{"lldp": {"interface": {"eth0": "up"}}}', "is not an object"),
    ('{"lldp": "none"}', "neither an object nor a list"),
    ('{"lldp": [{"interface": [{"via": "LLDP"}]}]}', "without a name")])
def test_other_json_is_refused(text, problem):
    with pytest.raises(DiscoveryError, match=problem):
        parse_lldp(text, "R05-L1", "x.json")


def test_a_folder_without_json_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here\n")
    with pytest.raises(DiscoveryError, match="no .json files"):
        read_lldp(tmp_path)
