"""H1 (hostnames unique, compared without case) and H2 (RFC 1123 host names), at, under and over
their limits: one device per name; labels of 63 characters, names of 253."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.commands.base import History, SetFields
from planner.model.objects import Device
from planner.rules.engine import Validator, validate
from planner.rules.hostnames import _ALL_VALID, hostname_problem


def _rule(doc, rule_id):
    return [f for f in validate(doc) if f.rule == rule_id]


def _two_racks(plan, port_cages: int = 8):
    key = plan.type("node-x", "node", height_u=4, port_cages=port_cages, port_speed_gbps=400.0)
    r1, r2 = plan.rack(), plan.rack(x=10.0)
    ids = []
    for rack_id in (r1, r2):
        device = Device(id=plan.doc.new_id("dev"), type=key, name="N1", rack=rack_id, u=1)
        plan.doc.add(device)
        ids.append(device.id)
    return r1, r2, ids


def test_one_device_per_hostname_is_fine(plan):
    _two_racks(plan)  # R01-N1 and R02-N1: names repeat from rack to rack, hostnames do not
    assert _rule(plan.doc, "H1") == []


def test_two_devices_on_one_hostname_is_an_error(plan):
    _r1, _r2, (first, second) = _two_racks(plan)
    plan.doc.set_fields(second, {"hostname": "r01-n1"})  # DNS compares without case (RFC 4343)
    (finding,) = _rule(plan.doc, "H1")
    assert finding.severity == "error"
    assert finding.subjects == (first, second)
    assert finding.message == "hostname R01-N1 is shared by 2 devices: R01/N1, R02/N1; give each its own"
    assert "RFC 4343" in finding.source


def test_a_name_shared_only_by_devices_without_ports_is_a_warning(plan):
    _r1, _r2, (_first, second) = _two_racks(plan, port_cages=0)  # like two rack PDUs
    plan.doc.set_fields(second, {"hostname": "R01-N1"})
    (finding,) = _rule(plan.doc, "H1")
    assert finding.severity == "warning"


def test_a_rack_rename_is_seen_incrementally(plan):
    r1, r2, _ids = _two_racks(plan)
    validator = Validator(plan.doc)
    history = History(plan.doc)
    validator.update(history.push(SetFields({r2: {"name": "R01"}}, "Rename")))
    assert [f.rule for f in validator.findings if f.rule.startswith("H")] == ["H1"]
    assert [f for f in validator.findings if f.rule == "H1"] == _rule(plan.doc, "H1")
    validator.update(history.undo())
    assert [f for f in validator.findings if f.rule.startswith("H")] == []
    validator.update(history.push(SetFields({r1: {"name": "Row A 01"}}, "Rename")))
    (finding,) = [f for f in validator.findings if f.rule == "H2"]
    assert finding.severity == "warning"
    assert finding.message == ("Row A 01/N1: its default hostname (<rack>-<device>) 'Row A 01-N1' is not a host "
                               "name DNS, Slurm or NetBox take: a space: only letters, digits and hyphens")


def test_hostnames_kept_between_edits_follow_every_kind_of_edit(plan):
    """H1 keeps each device's hostname between passes and renames only what an edit touched:
    after a hostname set, a device moved to another rack, a rack renamed, a device and a rack
    deleted and each undo, its findings are a full run's."""
    from planner.commands.edits import delete_objects

    r1, r2, (first, second) = _two_racks(plan)
    doc = plan.doc
    validator, history = Validator(doc), History(doc)
    edits = [lambda: SetFields({second: {"hostname": "R01-N1"}}, "Name"),
             lambda: SetFields({first: {"rack": r2, "u": 20}}, "Move"),
             lambda: SetFields({r1: {"name": "R02"}}, "Rename"),
             lambda: delete_objects(doc, [second]),
             lambda: delete_objects(doc, [r2])]
    for make in edits:
        validator.update(history.push(make()))
        assert [f for f in validator.findings if f.rule == "H1"] == _rule(doc, "H1")
    for _ in edits:
        validator.update(history.undo())
        assert [f for f in validator.findings if f.rule == "H1"] == _rule(doc, "H1")
    assert _rule(doc, "H1") == []


@pytest.mark.parametrize(("name", "problem"), [
    ("a" * 63 + ".example", ""),                                     # a label at its 63-character limit
    ("a" * 64 + ".example", "a label of 64 characters, at most 63"),  # one over
    (".".join(["a" * 63] * 3 + ["a" * 61]), ""),                     # 253 characters in all: at the limit
    (".".join(["a" * 63] * 3 + ["a" * 62]), "254 characters, at most 253"),
    ("7-n1", ""),                                                    # RFC 1123 lets a name start with a digit
    ("R01-N1", ""),
    ("-R01", "a label starting or ending with a hyphen"),
    ("R01-", "a label starting or ending with a hyphen"),
    ("R01_N1", "'_': only letters, digits and hyphens"),
    ("R01..N1", "an empty label (two dots, or a dot at an end)"),
    ("Rück-N1", "'ü': only letters, digits and hyphens"),
])
def test_rfc_1123(name, problem):
    assert hostname_problem(name) == problem


def test_h2_names_the_hostname_a_user_set(plan):
    _r1, _r2, (first, _second) = _two_racks(plan)
    plan.doc.set_fields(first, {"hostname": "gpu_node_1"})
    (finding,) = _rule(plan.doc, "H2")
    assert finding.subjects == (first,)
    assert "its hostname 'gpu_node_1'" in finding.message


@settings(max_examples=400, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("aZ9-. _é\n")), min_size=0, max_size=70), min_size=1, max_size=6))
def test_the_one_match_over_every_name_agrees_with_each_names_check(names):
    """H2's candidates: the names joined and matched at once find every name valid exactly when
    ``hostname_problem`` finds nothing in any of them."""
    joined = "\n".join(names)
    together = joined.count("\n") == len(names) - 1 and _ALL_VALID.fullmatch(joined) is not None
    assert together == all(not hostname_problem(name) for name in names)


def test_long_names_at_and_over_the_limits_in_one_match():
    at = ".".join(["a" * 63] * 3 + ["b" * 61])
    assert len(at) == 253 and _ALL_VALID.fullmatch(f"R01-N1\n{at}")
    assert not _ALL_VALID.fullmatch(f"R01-N1\n{at}b") and not _ALL_VALID.fullmatch("R01-N1\n" + "a" * 64)
