"""Under any mix of injected faults every planned cable is classified exactly once, the counts add
up, and each fault shows where it was made; the three writers read back to the same result.

The plan is the pod template (9 nodes: 8 rail leaves, spines, 328 cables); the as-built cabling
comes from ``planner.asbuilt.simulate``, written out in each format and read back by the readers.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.asbuilt.simulate import (
    Faults,
    as_built,
    write_ibnetdiscover,
    write_links_csv,
    write_lldp,
)
from planner.asbuilt.verify import read_discovery, verify
from planner.io import dumps, loads
from planner.io.discovery import parse_ibnetdiscover, parse_links_csv, resolve
from planner.layout.templates import build_template


@pytest.fixture(scope="module")
def pod_text():
    return dumps(build_template("pod", 9))


def _check(doc, built, result):
    summary = result.summary
    compute = doc.links_in("compute")  # what ibnetdiscover sees; the cords and management cables are not checked
    assert summary["planned"] == len(compute) == len(result.cables)
    assert sorted(c.link_id for c in result.cables) == sorted(compute)  # each exactly once
    assert summary["ok"] + summary["miswired"] + summary["missing"] == summary["planned"]
    status = {c.link_id: c for c in result.cables}
    faulty = set().union(*built.expected.values()) if built.expected else set()
    for link_id in faulty:
        assert status[link_id].status != "ok", (link_id, status[link_id])
        assert status[link_id].fix
    for link_id in set(compute) - faulty - built.slow:
        assert (status[link_id].status, status[link_id].fix) == ("ok", ""), status[link_id]
    for link_id in built.slow:
        assert status[link_id].status == "ok" and "200 Gb/s" in status[link_id].fix
    for link_id in built.expected.get("missing", ()):
        assert status[link_id].status == "missing"
    for link_id in built.expected.get("swaps", set()) | built.expected.get("rail_swaps", set()):
        assert "swap the cables" in status[link_id].fix
    assert summary["unexpected"] == built.unexpected
    assert result.unknown_names == []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(faults=st.builds(Faults, swaps=st.integers(0, 3), rail_swaps=st.integers(0, 3), wrong_port=st.integers(0, 3),
                        wrong_rail=st.integers(0, 3), wrong_switch=st.integers(0, 2), missing=st.integers(0, 5),
                        unexpected=st.integers(0, 3), slow=st.integers(0, 2), seed=st.integers(0, 10_000)))
def test_every_cable_classified_once_under_random_faults(pod_text, faults):
    doc = loads(pod_text)
    built = as_built(doc, faults)
    text = io.StringIO()
    write_ibnetdiscover(doc, built.cables, text, mf0=faults.seed % 2 == 0)
    discovery = resolve(doc, parse_ibnetdiscover(text.getvalue(), "sim.ibnet"))
    _check(doc, built, verify(doc, discovery))


def test_wrong_rail_and_wrong_switch_moves_say_so(pod_text):
    doc = loads(pod_text)
    built = as_built(doc, Faults(wrong_rail=3, wrong_switch=2, seed=7))
    text = io.StringIO()
    write_ibnetdiscover(doc, built.cables, text)
    result = verify(doc, resolve(doc, parse_ibnetdiscover(text.getvalue())))
    assert sum("(wrong rail)" in c.fix for c in result.cables) == 3
    assert sum("on the wrong switch" in c.fix for c in result.cables) == 2


def test_the_three_formats_agree(pod_text, tmp_path):
    doc = loads(pod_text)
    built = as_built(doc, Faults(swaps=1, rail_swaps=1, wrong_port=1, wrong_rail=1, missing=2, unexpected=2,
                                 seed=11))
    csv_text, ib_text = io.StringIO(), io.StringIO()
    write_links_csv(doc, built.cables, csv_text)
    write_ibnetdiscover(doc, built.cables, ib_text)
    write_lldp(doc, built.cables, tmp_path / "lldp")
    results = [verify(doc, resolve(doc, parse_links_csv(csv_text.getvalue()))),
               verify(doc, resolve(doc, parse_ibnetdiscover(ib_text.getvalue()))),
               verify(doc, read_discovery(doc, lldp=[tmp_path / "lldp"]))]
    for result in results:
        _check(doc, built, result)
    verdicts = [[(c.label, c.status, c.fix) for c in result.cables] for result in results]
    assert verdicts[0] == verdicts[1] == verdicts[2]  # "found" differs: ibnetdiscover adds the speed
    assert results[0].unexpected == results[1].unexpected == results[2].unexpected
