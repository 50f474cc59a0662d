"""Verification on hand-written discovery files: every fault the issue names, with its fix text.

The plan (tests/data/discovery/make_plans.py): R01 N1 (DGX-class) and N2; R05 L1 (rail 1), L2
(rail 2), S1, S2. link-1 N1 P1–L1 1/1, link-2 N2 P1–L1 1/2, link-3 N1 P2–L2 1/1, link-4 N2 P2–L2 1/2,
link-5 L1 17/1–S1 1/1, link-6 L2 17/1–S1 1/2.
"""

from __future__ import annotations

from pathlib import Path

from planner.asbuilt.verify import read_discovery, update_command, verify
from planner.commands.base import History
from planner.io.discovery import Discovery, FoundLink

DATA = Path(__file__).parents[2] / "data" / "discovery"


def _by_link(result):
    return {cable.link_id: cable for cable in result.cables}


def test_as_planned_is_all_ok(tiny):
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "as_planned.ibnet"]))
    assert result.summary == {"planned": 6, "ok": 6, "miswired": 0, "missing": 0, "unexpected": 0}
    assert result.as_planned and not result.fixes() and not result.unknown_names
    assert _by_link(result)["link-1"].found == "R01 N1 P1 → R05 L1 1/1 at 4xNDR"


def test_every_fault_in_one_ibnetdiscover_file(tiny):
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "faults.ibnet"]))
    cables = _by_link(result)
    # counts add up: 1 ok (slow) + 4 miswired + 1 missing = 6 planned
    assert result.summary == {"planned": 6, "ok": 1, "miswired": 4, "missing": 1, "unexpected": 3}
    assert not result.as_planned
    # swapped pair at L1: one swap, the same fix for both cables, listed once
    assert cables["link-1"].status == cables["link-2"].status == "miswired"
    assert cables["link-1"].fix == cables["link-2"].fix == "R05 L1: swap the cables in 1/1 and 1/2"
    assert sum(fix.text == "R05 L1: swap the cables in 1/1 and 1/2" for fix in result.fixes()) == 1
    assert cables["link-1"].found == "R01 N1 P1 → R05 L1 1/2; R01 N2 P1 → R05 L1 1/1"
    # N1 P2's HCA (mlx5_3) is down: neither end connected
    assert (cables["link-3"].status, cables["link-3"].found) == ("missing", "not found")
    assert cables["link-3"].fix == "R01 N1 P2 → R05 L2 1/1: cable missing (10 m SR4)"
    # N2 P2 landed on the rail-1 leaf
    assert cables["link-4"].status == "miswired"
    assert cables["link-4"].fix == ("R05 L1 2/1: the cable from R01 N2 P2 is on the rail-1 leaf (wrong rail); "
                                    "move it to R05 L2 1/2 (rail 2)")
    assert cables["link-4"].found == "R01 N2 P2 → R05 L1 2/1; R05 L2 1/2 → nothing"
    # 4xHDR where 400 Gb/s ports are planned: connected right, still a fix
    assert cables["link-5"].status == "ok"
    assert cables["link-5"].fix.endswith("link up at 200 Gb/s, planned 400 Gb/s: reseat both ends, then clean or "
                                         "replace the cable (1 m DAC)")
    assert [c.link_id for c in result.slow] == ["link-5"]
    # L2's uplink on the other spine
    assert cables["link-6"].fix == "R05 S2 1/2: the cable from R05 L2 17/1 is on the wrong switch; move it to R05 S1 1/2"
    # between ports no planned cable uses, by hostname; names that match nothing are listed
    assert result.unexpected == [  # each end pair in name order, whichever end the tool printed first
        {"a_device": "R01-N1", "a_port": "mlx5_1", "b_device": "R05-L2", "b_port": "4/1"},
        {"a_device": "R05-L2", "a_port": "3/1", "b_device": "gpu-spare-07", "b_port": "mlx5_0"},
        {"a_device": "R05-L2", "a_port": "17/2", "b_device": "R05-S1", "b_port": "2/1"},
    ]
    assert result.unknown_names == ["R01-N1 mlx5_1", "gpu-spare-07"]
    assert "R05 L2 17/2 → R05 S1 2/1: cable not in the plan; remove it" in [f.text for f in result.fixes()]


def test_fixes_come_in_rack_walk_order(tiny):
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "faults.ibnet"]))
    racks = [fix.rack for fix in result.fixes()]
    assert racks == sorted(racks)
    assert racks[0] == "R01" and racks[-1] == "R05"  # the missing cable is run from N1's rack


def test_links_csv_wrong_port_and_unknown_device(tiny):
    result = verify(tiny, read_discovery(tiny, links=[DATA / "links_faults.csv"]))
    cables = _by_link(result)
    assert result.summary == {"planned": 6, "ok": 4, "miswired": 2, "missing": 0, "unexpected": 0}
    assert cables["link-2"].fix == "R05 L1: move the cable in 2/2 to 1/2"
    assert cables["link-4"].fix == ("R05 L2 1/2: the cable goes to R09-N1 P1 (not in the plan); move that end to "
                                    "R01 N2 P2")
    assert result.unknown_names == ["R09-N1"]


def test_lldp_from_switches_and_hosts(tiny_eth):
    """SONiC leaves, Cumulus spines, a host file; one interface as an object, several as a list,
    json0; each cable reported from both ends counts once."""
    result = verify(tiny_eth, read_discovery(tiny_eth, lldp=[DATA / "lldp"]))
    assert result.summary == {"planned": 6, "ok": 5, "miswired": 0, "missing": 1, "unexpected": 0}
    assert _by_link(result)["link-4"].status == "missing"
    assert result.unknown_names == [] and result.conflicts == []


def test_several_inputs_at_once(tiny, tmp_path):
    extra = tmp_path / "n2p2.csv"
    extra.write_text("R01-N1,P2,R05-L2,1/1\n", encoding="utf-8")
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "faults.ibnet"], links=[extra]))
    assert _by_link(result)["link-3"].status == "ok"
    assert result.sources == [str(extra), str(DATA / "faults.ibnet")]


def test_a_port_reported_in_two_places_keeps_the_first(tiny, tmp_path):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text("R01-N1,P1,R05-L1,1/1\n", encoding="utf-8")
    second.write_text("R01-N1,P1,R05-L1,3/1\n", encoding="utf-8")
    discovery = read_discovery(tiny, links=[first, second])
    assert len(discovery.links) == 1
    assert discovery.conflicts == [(f"{second}:1: R01-N1 P1 is reported cabled to R05-L1 3/1 here and to "
                                   f"R05-L1 1/1 at {first}:1")]


def test_a_wrong_port_taken_by_another_planned_cable(tiny):
    """N1 P1 plugged into 1/2 (N2 P1's port), N2 P1 not plugged: N1's cable moves, then N2's goes in."""
    found = [FoundLink(("dev-1", "P1"), ("dev-3", "1/2"), "t:1")]
    cables = _by_link(verify(tiny, Discovery(links=found)))
    assert cables["link-1"].fix == "R05 L1: move the cable in 1/2 to 1/1"
    assert cables["link-2"].status == "miswired"
    assert cables["link-2"].fix == ("R01 N2 P1 → R05 L1 1/2: connect a cable (10 m SR4) once R05 L1 1/2 is free "
                                    "(it holds the cable from R01 N1 P1)")
    assert cables["link-2"].waits and not cables["link-1"].waits


def test_rails_crossed_at_the_node_are_one_swap(tiny):
    found = [FoundLink(("dev-1", "P1"), ("dev-4", "1/1"), "t:1"), FoundLink(("dev-1", "P2"), ("dev-3", "1/1"), "t:2")]
    cables = _by_link(verify(tiny, Discovery(links=found)))
    assert cables["link-1"].fix == cables["link-3"].fix == "R01 N1: swap the cables in P1 and P2 (rails 1 and 2 crossed)"
    assert cables["link-1"].rack_id == "rack-1"


def test_update_marks_verified_and_faulty_in_one_undo_step(tiny):
    tiny.set_fields("link-3", {"state": "run"})
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "faults.ibnet"]))
    history = History(tiny)
    command = update_command(tiny, result)
    assert command.text == "Record verification: 0 cables verified, 6 faulty"
    history.push(command)
    states = {link_id: (link.state, link.state_note) for link_id, link in tiny.links.items()}
    assert states["link-1"] == ("faulty", "R05 L1: swap the cables in 1/1 and 1/2")
    assert states["link-3"] == ("faulty", "R01 N1 P2 → R05 L2 1/1: cable missing (10 m SR4)")  # it was run
    assert states["link-5"][0] == "faulty"  # the slow link
    history.undo()
    assert tiny.links["link-1"].state == "planned" and tiny.links["link-3"].state == "run"


def test_update_leaves_unrun_missing_cables_planned(tiny):
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "as_planned.ibnet"]))
    History(tiny).push(update_command(tiny, result))
    assert {link.state for link in tiny.links.values()} == {"verified"}
    result = verify(tiny, Discovery())
    assert {c.status for c in result.cables} == {"missing"}
    command = update_command(tiny, result)  # verified before, now gone: faulty
    assert set(command.values) == set(tiny.links)
    tiny.set_fields("link-1", {"state": "planned"})
    assert "link-1" not in update_command(tiny, result).values


def test_as_json_is_the_contract(tiny):
    result = verify(tiny, read_discovery(tiny, ibnetdiscover=[DATA / "faults.ibnet"]))
    data = result.as_json()
    assert list(data) == ["summary", "cables", "unexpected", "unknown_names"]
    assert list(data["summary"]) == ["planned", "ok", "miswired", "missing", "unexpected"]
    assert all(list(cable) == ["label", "status", "found", "fix"] for cable in data["cables"])
    assert data["cables"][0]["label"] == "R01-U01-N1-P1 ↔ R05-U01-L1-1/1"
    assert all(list(entry) == ["a_device", "a_port", "b_device", "b_port"] for entry in data["unexpected"])
