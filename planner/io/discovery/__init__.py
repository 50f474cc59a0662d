"""Readers of what a cabled fabric reports about itself (DESIGN §9 "Discovery").

Three formats, one result: ``links_csv`` (a plain ``a_device,a_port,b_device,b_port`` CSV),
``ibnetdiscover`` (infiniband-diags' topology file) and ``lldp`` (``lldpcli -f json show
neighbors``). Each reader turns a file into ``RawLink`` records in the tool's own names;
``naming`` maps hostnames and port names onto the plan and ``resolve`` places the links on it.
``planner.asbuilt.verify`` compares the result with the planned cables.
"""

from planner.io.discovery.ibnetdiscover import parse_ibnetdiscover, read_ibnetdiscover
from planner.io.discovery.links_csv import parse_links_csv, read_links_csv
from planner.io.discovery.lldp import parse_lldp, read_lldp
from planner.io.discovery.records import IB, LLDP, PLAN, DiscoveryError, RawLink
from planner.io.discovery.resolve import Discovery, End, FoundLink, outside, resolve

__all__ = ["IB", "LLDP", "PLAN", "Discovery", "DiscoveryError", "End", "FoundLink", "RawLink", "outside",
           "parse_ibnetdiscover", "parse_links_csv", "parse_lldp", "read_ibnetdiscover", "read_links_csv",
           "read_lldp", "resolve"]
