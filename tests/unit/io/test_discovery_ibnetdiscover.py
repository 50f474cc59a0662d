"""The ibnetdiscover reader on files shaped like the tool's output (infiniband-diags
ibnetdiscover.c and its man page): tests/data/discovery/*.ibnet were written by hand from them."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.io.discovery import DiscoveryError, parse_ibnetdiscover, read_ibnetdiscover
from planner.io.discovery.ibnetdiscover import ca_end, rate_of, switch_hostname

DATA = Path(__file__).parents[2] / "data" / "discovery"


def _pairs(links):
    return {frozenset({(link.a_host, link.a_port), (link.b_host, link.b_port)}) for link in links}


def test_each_cable_is_read_once_with_names_ports_and_speed():
    links = read_ibnetdiscover(DATA / "as_planned.ibnet")
    # 6 cables, each printed from both ends; the SHARP aggregation node on port 65 is no cable
    assert len(links) == 6
    assert _pairs(links) == {
        frozenset({("R05-L1", "1"), ("R01-N1", "mlx5_0")}),
        frozenset({("R05-L1", "2"), ("R01-N2", "mlx5_0")}),
        frozenset({("R05-L2", "1"), ("R01-N1", "mlx5_3")}),
        frozenset({("R05-L2", "2"), ("R01-N2", "mlx5_1")}),
        frozenset({("R05-L1", "33"), ("R05-S1", "1")}),
        frozenset({("R05-L2", "33"), ("R05-S1", "2")}),
    }
    assert {link.rate for link in links} == {"4xNDR"}
    assert {link.rate_gbps for link in links} == {400.0}
    first = links[0]
    assert first.source == f"{DATA / 'as_planned.ibnet'}:11"  # the first port line of R05-L1's block
    assert first.scheme == "ib"


def test_speed_and_width_are_read_per_link():
    links = read_ibnetdiscover(DATA / "faults.ibnet")
    slow = [link for link in links if {link.a_host, link.b_host} == {"R05-L1", "R05-S1"}]
    assert [(link.rate, link.rate_gbps) for link in slow] == [("4xHDR", 200.0)]


@pytest.mark.parametrize(("width", "speed", "gbps"), [
    ("4x", "NDR", 400.0), ("4x", "HDR", 200.0), ("2x", "NDR", 200.0), ("4x", "EDR", 100.0),
    ("1x", "SDR", 2.5), ("4x", "XDR", 800.0), ("??", "NDR", None), ("4x", "???", None)])
def test_rates(width, speed, gbps):
    assert rate_of(width, speed) == gbps


@pytest.mark.parametrize(("description", "host"), [
    ("MF0;R05-L1:MQM9700/U1", "R05-L1"), ("R05-L2", "R05-L2"), ("MF0;leaf-a.dc1:MQM9790/U1", "leaf-a.dc1"),
    ("Quantum Mellanox Technologies", "Quantum Mellanox Technologies")])
def test_switch_names_as_set_or_nvidia_default(description, host):
    assert switch_hostname(description) == host


def test_hca_names():
    assert ca_end("R01-N1 mlx5_3") == ("R01-N1", "mlx5_3")
    assert ca_end("lonely") == ("lonely", "")


def test_a_file_cut_short_names_the_line():
    with pytest.raises(DiscoveryError) as caught:
        read_ibnetdiscover(DATA / "truncated.ibnet")
    assert caught.value.line == 52
    assert str(caught.value).startswith(f"{DATA / 'truncated.ibnet'}:52: ")


def test_a_switch_line_cut_short_is_refused():
    text = 'vendid=0x2c9\nSwitch\t65 "S-fc6a1c0300a0b001"\t\t# "MF0;R05-L1:MQM97\n'
    with pytest.raises(DiscoveryError, match=":2: "):
        parse_ibnetdiscover(text, "cut.ibnet")
    text = 'Switch\t65 "S-fc6a1c0300a0b001"\t\t# "MF0;R05-L1:MQM9700/U1" enhanced port 0 li\n'
    with pytest.raises(DiscoveryError, match="cut short"):
        parse_ibnetdiscover(text, "cut.ibnet")


def test_other_text_is_refused_with_its_line():
    with pytest.raises(DiscoveryError, match=r"x\.txt:3: not an ibnetdiscover line"):
        parse_ibnetdiscover("#\n\nhello world\n", "x.txt")
    with pytest.raises(DiscoveryError, match="before any Switch or Ca line"):
        parse_ibnetdiscover('[1]\t"S-0002c9e400000011"[1]\t\t# "R05-S1" lid 1 4xNDR\n', "x.txt")
    with pytest.raises(DiscoveryError, match="no Switch or Ca lines"):
        parse_ibnetdiscover("#\n# Topology file: generated on Tue Jun  4 10:12:31 2024\n#\n", "x.txt")


def test_grouping_output_is_read_past():
    """``ibnetdiscover -g``: chassis headings, Hostname lines and [ext n] port marks."""
    text = (
        "#\n# Topology file: generated on Tue Jun  4 10:12:31 2024\n#\n\nNon-Chassis Nodes\n\n"
        "vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0xfc6a1c0300a0b001\n"
        "switchguid=0xfc6a1c0300a0b001(fc6a1c0300a0b001)\t# \n"
        'Switch\t65 "S-fc6a1c0300a0b001"\t\t# "R05-L1" enhanced port 0 lid 3 lmc 0\n'
        '[33][ext 33]\t"S-fc6a1c0300a0b100"[1][ext 1]\t\t# "R05-S1" lid 1 4xNDR\n'
        "\nChassis 2 (guid 0xfc6a1c0300a0b100)\n"
    )
    links = parse_ibnetdiscover(text, "g.ibnet")
    assert _pairs(links) == {frozenset({("R05-L1", "33"), ("R05-S1", "1")})}
