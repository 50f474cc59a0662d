"""Fabrics above 1:1: SUs filled evenly, the design basis set to the ratio built, and
`planner fabric -o` refusing a plan with errors. Counts by hand for 64-port switches, 8 rails."""

from __future__ import annotations

from collections import Counter

import pytest

from planner.cli import main
from planner.commands.base import History
from planner.fabric import FabricError, design_fabric, generate_fabric
from planner.io import dumps, load, loads
from planner.layout.templates import build_template
from planner.rules.engine import validate
from planner.rules.finding import ERROR


def test_256_nodes_at_2_to_1_spread_evenly_over_seven_sus():
    # d = ⌊64 × 2 / 3⌋ = 42 downlinks, 22 uplinks; ⌈256 / 42⌉ = 7 SUs; 256 = 4 × 37 + 3 × 36
    design = design_fabric(256, 8, 64, 2.0)
    assert (design.down, design.up, design.sus) == (42, 22, 7)
    assert design.su_sizes() == [37, 37, 37, 37, 36, 36, 36]
    # the same switches and cables as before: 56 leaves × 22 uplinks = 1,232 → 22 spines (divisor of 22 ≥ 19.25)
    assert design.counts()["switches"] == {"leaf": 56, "spine": 22, "core": 0}
    assert design.counts()["links"] == {"node-leaf": 2048, "leaf-spine": 1232, "spine-core": 0}
    slots = design.node_slots()
    assert slots[:2] == [0, 1] and slots[36:38] == [36, 42]  # node 37 opens SU 2 at leaf port 0
    assert slots[-1] == 6 * 42 + 35


def test_at_1_to_1_sus_fill_in_order_as_design_section_4_says():
    # 100 nodes: 3 full SUs of 32 and one of 4 on 8 full leaves (build for the full SU)
    design = design_fabric(100, 8, 64)
    assert design.su_sizes() == [32, 32, 32, 4]
    assert design.node_slots() == list(range(100))
    assert design_fabric(256, 8, 64).su_sizes() == [32] * 8
    assert design_fabric(4096, 8, 64).su_sizes() == [32] * 128
    assert design_fabric(8, 8, 64).su_sizes() == [8]  # one switch


def test_oversubscription_below_one_is_refused_even_for_one_switch():
    with pytest.raises(FabricError, match="below 1"):
        design_fabric(4, 8, 64, 0.5)


@pytest.fixture(scope="module")
def hall_256():
    return dumps(build_template("hall", 256))


def test_generating_at_2_to_1_sets_the_basis_in_the_same_undo_step(hall_256):
    doc = loads(hall_256)
    assert doc.basis.oversubscription == 1.0
    history = History(doc)
    history.push(generate_fabric(doc, "sw-64x400g-1u", 2.0))
    assert doc.basis.oversubscription == 2.0
    assert not [f for f in validate(doc) if f.severity == ERROR]  # was 48 N5 errors
    per_su = Counter(doc.devices[link.b_device].su for link in doc.links.values() if link.tier == "node-leaf")
    assert sorted(n // 8 for n in per_su.values()) == [36, 36, 36, 37, 37, 37, 37]
    history.undo()
    assert doc.basis.oversubscription == 1.0
    assert not [f for f in validate(doc) if f.severity == ERROR]


def test_cli_fabric_writes_the_ratio_into_the_basis(tmp_path, hall_256, capsys):
    src, out = tmp_path / "hall.hall", tmp_path / "out.hall"
    src.write_text(hall_256, encoding="utf-8")
    assert main(["fabric", str(src), "-o", str(out), "--oversubscription", "2"]) == 0
    written = load(out)
    assert written.basis.oversubscription == 2.0
    assert not [f for f in validate(written) if f.severity == ERROR]
    assert "56 leaf, 22 spine, 0 core" in capsys.readouterr().out


def test_cli_fabric_refuses_a_plan_with_errors_and_leaves_the_target(tmp_path, capsys):
    doc = build_template("pod", 12)
    doc.zones[next(iter(doc.zones))].rating_kpa = 3.0  # every rack above the floor rating (F1)
    src, out = tmp_path / "pod.hall", tmp_path / "out.hall"
    src.write_text(dumps(doc), encoding="utf-8")
    assert main(["fabric", str(src), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("planner: fabric: the plan would have errors: ")
    assert not out.exists()
    out.write_text("before", encoding="utf-8")
    assert main(["fabric", str(src), "-o", str(out)]) == 1
    assert out.read_text(encoding="utf-8") == "before"
