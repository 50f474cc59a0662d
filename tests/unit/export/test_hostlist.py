"""Slurm hostlist expressions, written by ``planner.export.hostlist`` and read back here by an
expander that follows Slurm's own parser (src/common/hostlist.c), not ours."""

from __future__ import annotations

import random
import re

import pytest

from planner.export.hostlist import MAX_RANGE, compress, is_hostname


def split_items(expression: str) -> list[str]:
    """Items separated by commas outside brackets (hostlist.c ``_next_tok``)."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(expression):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(expression[start:index])
            start = index + 1
    items.append(expression[start:])
    return [item for item in items if item]


def expand_item(item: str) -> list[str]:
    """Every name of one item: each bracket list in turn, outer first (``_push_range_list``); a
    range lo-hi is lo..hi written at least as wide as lo is (``_parse_single_range`` sets the
    width from lo; names are formatted ``%0*lu``). Slurm's limits are checked, not assumed."""
    match = re.search(r"\[([^\]]*)\]", item)
    if match is None:
        assert "[" not in item and "]" not in item, item
        return [item]
    head, tail = item[:match.start()], item[match.end():]
    rest = expand_item(tail)
    names = []
    for part in match.group(1).split(","):
        lo, _, hi = part.partition("-")
        hi = hi or lo
        assert lo.isdigit() and hi.isdigit() and int(lo) <= int(hi), part
        assert int(hi) - int(lo) + 1 <= MAX_RANGE, part
        names += [head + str(n).zfill(len(lo)) + name for n in range(int(lo), int(hi) + 1) for name in rest]
    return names


def expand(expression: str) -> list[str]:
    """The names of a Slurm hostlist expression, in Slurm's order, duplicates kept."""
    return [name for item in split_items(expression) for name in expand_item(item)]


def test_the_expander_reads_slurms_own_examples():
    # topology.conf(5): "Nodes=tux[0-3,12,18-20]"; topology.yaml(5): node[01-02].
    assert expand("tux[0-3,12,18-20]") == ["tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20"]
    assert expand("node[01-02]") == ["node01", "node02"]
    assert expand("n[098-100],x") == ["n098", "n099", "n100", "x"]
    assert expand("n[8-10]") == ["n8", "n9", "n10"]
    assert expand("rack[1-2]-n[1-2]") == ["rack1-n1", "rack1-n2", "rack2-n1", "rack2-n2"]


def round_trip(names: list[str]) -> str:
    expression = compress(names)
    expanded = expand(expression)
    assert sorted(expanded) == sorted(set(names)), expression
    assert len(expanded) == len(set(names)), "a name written twice"
    return expression


def test_racks_of_nodes_fold_to_one_item():
    assert round_trip([f"R{r:02d}-N{n}" for r in range(1, 13) for n in range(1, 5)]) == "R[01-12]-N[1-4]"
    assert round_trip([f"R{r:02d}-N1" for r in range(1, 13)]) == "R[01-12]-N1"
    assert round_trip(["R01-N1", "R01-N2", "R01-N3", "R01-N4"]) == "R01-N[1-4]"
    assert round_trip(["a"]) == "a" and round_trip([]) == ""


def test_padding_follows_slurm_names_of_different_widths_stay_apart():
    # R01…R99 then R100…: two-digit padding carries on past 99 ("%02lu" of 100 is "100").
    assert round_trip([f"R{r:02d}" for r in range(1, 151)]) == "R[01-150]"
    expression = round_trip(["n8", "n9", "n10", "n08", "n1", "n001"])
    assert "08" in expression and "001" in expression
    assert round_trip(["n9", "n10", "n11"]) == "n[9-11]"


def test_a_hall_of_4096_nodes_is_one_short_item():
    network = {17, 18, 52, 53}  # racks holding switches, not nodes
    racks = [r for r in range(1, 1040) if r not in network][:1024]
    names = [f"R{r:02d}-N{n}" for r in racks for n in range(1, 5)]
    expression = round_trip(names)
    assert expression.count("-N[1-4]") == 1 and len(expression) < 60, expression


def test_irregular_sets_of_several_numbers_round_trip():
    chance = random.Random(14)
    for _ in range(150):
        names = {f"{chance.choice(['R', 'rack', 'gpu-'])}{chance.randint(0, 30):0{chance.choice([1, 2, 3])}d}"
                 f"-{chance.choice(['N', 'n'])}{chance.randint(1, 9)}" for _ in range(chance.randint(1, 60))}
        names |= {f"x{chance.randint(1, 5)}.y{chance.randint(1, 3)}_z{chance.randint(7, 12)}" for _ in range(5)}
        round_trip(sorted(names))


def test_runs_longer_than_slurms_limit_are_split():
    names = [f"n{i}" for i in range(1, MAX_RANGE + 5001)]
    expression = round_trip(names)  # the expander asserts every range within MAX_RANGE
    assert expression.count("-") == 2
    wide = [f"r{r}-n1" for r in range(1, MAX_RANGE + 11)]  # one bracket list before the last
    assert len(split_items(round_trip(wide))) == 2


@pytest.mark.parametrize("name", ["bad name", "a,b", "x[1]", "n=1", "#1", "-lead", "Ж1", "a{b}", "", "a" * 64,
                                  "tab\there"])
def test_names_slurm_cannot_read_back_are_refused(name):
    assert not is_hostname(name)
    with pytest.raises(ValueError):
        compress(["ok1", name])


def test_dns_lengths_bound_a_hostname():
    assert is_hostname("a" * 63) and is_hostname(".".join(["a" * 63] * 3) + ".b")
    assert not is_hostname(".".join(["a" * 63] * 4) + ".b")  # 257 characters
