"""`planner new` and `planner fabric` through the entry point (DESIGN §7)."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from planner.io import load, save
from planner.model.networks import in_compute_fabric
from planner.model.ports import COMPUTE


def test_new_then_fabric_json(tmp_path, capsys):
    out = tmp_path / "pod.hall"
    assert main(["new", "--template", "pod", "--nodes", "20", "-o", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"Wrote {out}: 20 nodes")
    assert main(["fabric", str(out), "--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    networks = counts.pop("networks")
    assert counts == {"nodes": 20, "gpus": 160, "tiers": 2,
                      "switches": {"leaf": 8, "spine": 4, "core": 0},
                      "links": {"node-leaf": 160, "leaf-spine": 256, "spine-core": 0},
                      "oversubscription": 1.0}
    assert networks["compute"] == {"switches": counts["switches"], "links": counts["links"]}
    # every other network of the 20 nodes: two storage and two in-band ports, one hose pair, 10 PSUs each
    assert networks["storage"]["links"]["storage-access"] >= 2 * 20
    assert networks["inband"]["links"] == {"inband-access": 2 * 20, "inband-uplink": 2}
    assert networks["coolant"] == {"switches": {}, "links": {"coolant-hose": 2 * 20}}
    assert networks["power"]["links"]["power-cord"] >= 10 * 20


def test_new_refuses_with_one_line_and_writes_nothing(tmp_path, capsys):
    out = tmp_path / "x.hall"
    assert main(["new", "--template", "hall", "--rack-kw", "100", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tap-off" in err
    assert not out.exists()


def test_fabric_counts_a_plan_without_fabric_and_generates_one(tmp_path, capsys):
    src = tmp_path / "pod.hall"
    main(["new", "--template", "pod", "--nodes", "12", "-o", str(src)])
    doc = load(src)
    every_cable = len(doc.links)
    for link_id in list(doc.links_in(COMPUTE)):  # the compute fabric only; the other networks stay
        doc.remove(link_id)
    for device in [d for d in doc.devices.values() if in_compute_fabric(d.role)]:
        doc.set_fields(device.id, {"role": ""})
    save(doc, src)
    capsys.readouterr()
    assert main(["fabric", str(src), "--json"]) == 0  # the design the generator would build
    assert json.loads(capsys.readouterr().out)["switches"] == {"leaf": 8, "spine": 4, "core": 0}
    out = tmp_path / "cabled.hall"
    assert main(["fabric", str(src), "-o", str(out), "--placement", "end"]) == 0
    out_text = capsys.readouterr().out
    assert "8 leaf, 4 spine, 0 core" in out_text
    # one SU: a rail leaf joins every pair of nodes in one hop; 12 nodes: 6 × 8 rails × 400 Gb/s = 19.2 Tb/s across the cut, non-blocking
    assert "bisection bandwidth: 19.2 Tb/s (half the GPUs at full rate: 19.2 Tb/s)" in out_text
    assert "every GPU node reaches every other; at most 1 switch hop between nodes" in out_text
    cabled = load(out)
    assert len(cabled.links_in(COMPUTE)) == 96 + 256
    assert len(cabled.links) == every_cable  # the other networks' cables kept as they were
    assert len(cabled.racks) == len(doc.racks)  # the network rack's switches were reused in place


def test_fabric_unreadable_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.hall"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["fabric", str(bad), "--json"])
    assert info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
