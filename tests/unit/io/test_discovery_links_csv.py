"""The plain links CSV: a_device,a_port,b_device,b_port with hostnames and plan port names."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.io.discovery import DiscoveryError, parse_links_csv, read_links_csv

DATA = Path(__file__).parents[2] / "data" / "discovery"


def test_header_comments_and_either_end_first():
    links = read_links_csv(DATA / "links_faults.csv")
    assert len(links) == 6
    assert (links[1].a_host, links[1].a_port, links[1].b_host, links[1].b_port) == ("R05-L1", "2/2", "R01-N2", "P1")
    assert links[0].source == f"{DATA / 'links_faults.csv'}:3"  # line 1 is a comment, line 2 the header
    assert {link.scheme for link in links} == {"plan"}


def test_columns_in_any_order_and_without_a_header():
    text = "b_port,b_device,note,a_port,a_device\n1/1,R05-L1,fibre 7,P1,R01-N1\n"
    (link,) = parse_links_csv(text)
    assert (link.a_host, link.a_port, link.b_host, link.b_port) == ("R01-N1", "P1", "R05-L1", "1/1")
    (link,) = parse_links_csv("\ufeffR01-N1,P1,R05-L1,1/1\n\n")
    assert link.b_port == "1/1"


def test_a_short_row_names_its_line():
    with pytest.raises(DiscoveryError) as caught:
        read_links_csv(DATA / "links_short_row.csv")
    assert (caught.value.line, caught.value.problem) == (3, "3 columns, expected a_device, a_port, b_device, b_port")


def test_an_empty_cell_is_refused():
    with pytest.raises(DiscoveryError, match=r"x\.csv:2: b_port is empty"):
        parse_links_csv("a_device,a_port,b_device,b_port\nR01-N1,P1,R05-L1, \n", "x.csv")


def test_a_missing_file_is_a_discovery_error(tmp_path):
    with pytest.raises(DiscoveryError, match="cannot read"):
        read_links_csv(tmp_path / "absent.csv")
