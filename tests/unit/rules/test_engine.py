"""The engine: rule registration, relevance by what a rule reads, findings JSON and sources."""

from __future__ import annotations

from planner.commands.base import SetFields
from planner.model.change import Change
from planner.rules import engine
from planner.rules.edit_kinds import changed_keys
from planner.rules.engine import Validator, all_rules, rule, validate
from planner.rules.finding import ERROR, Finding, counts
from planner.rules.scopes import RACK


def test_catalogue_covers_the_facility_rules():
    ids = {r.id for r in all_rules()}
    assert {"F1", "F2", "F3", "P1", "P2", "P3", "P4", "C1", "C2", "C3", "C4", "C5", "C6",
            "S1", "S2", "S3", "S4"} <= ids
    for r in all_rules():
        assert r.reads and r.title and (r.source or r.source_field)


def test_changed_keys_and_relevance():
    change = Change(added={"dev-3"}, modified={"rack-1": {"x"}, "bus-1": {"name"}})
    keys = changed_keys(change)
    assert keys == {"dev.*", "rack.x", "bus.*"}
    by_key = {r.key: r for r in all_rules()}
    assert by_key["S2:rack"].reads_any({"rack.x"})
    assert not by_key["P1:busbar"].reads_any({"rack.x"})  # moving a rack does not change busbar load
    assert by_key["P1:busbar"].reads_any({"rack.feed_a"})
    assert by_key["P1:busbar"].reads_any({"bus.*"})


def test_a_registered_rule_runs_full_and_incrementally(example_doc, monkeypatch):
    monkeypatch.setattr(engine.CATALOGUE, "by_key", dict(engine.CATALOGUE.by_key))

    @rule("X1", scope=RACK, reads={"rack.notes"}, source="Test: racks must not be labelled 'bad'")
    def no_bad_notes(ctx, rack_id, r):
        rack = ctx.doc.racks[rack_id]
        if rack.notes == "bad":
            yield r.finding(ctx, ERROR, (rack_id,), f"{rack.name}: labelled bad")

    validator = Validator(example_doc)
    assert not [f for f in validator.findings if f.rule == "X1"]
    command = SetFields({"rack-2": {"notes": "bad"}})
    delta = validator.update(command.apply(example_doc))
    assert [f.message for f in delta.added] == ["R02: labelled bad"] and not delta.removed
    assert validator.findings == validate(example_doc)
    delta = validator.update(command.revert(example_doc))
    assert [f.message for f in delta.removed] == ["R02: labelled bad"]


def test_unrelated_edit_runs_nothing(example_doc):
    validator = Validator(example_doc)
    before = list(validator.findings)
    delta = validator.update(SetFields({"rack-1": {"notes": "hello"}}).apply(example_doc))
    assert not delta and validator.findings == before


def test_finding_json_round_trip_and_counts():
    finding = Finding("F1", "error", ("rack-1", "zone-1"), "R01: 1,420 kg on 0.72 m² = 19.3 kPa", "TIA-942")
    data = finding.to_json()
    assert data == {"rule": "F1", "severity": "error", "subjects": ["rack-1", "zone-1"],
                    "message": "R01: 1,420 kg on 0.72 m² = 19.3 kPa", "source": "TIA-942"}
    assert Finding.from_json(data) == finding and finding.family == "F"
    assert counts([finding]) == {"error": 1, "warning": 0, "info": 0}


def test_plan_sources_override_the_default(plan):
    rack = plan.rack(x=5.0, y=5.0)
    plan.obstacle(4.0, 5.7, 6.0, 6.0)  # 0.2 m behind the rack
    plan.doc.basis.sources["rear_aisle_vendor_min_m"] = "Vendor X installation guide, p. 12"
    s2 = [f for f in validate(plan.doc) if f.rule == "S2"]
    assert [(f.subjects[0], f.source) for f in s2] == [(rack, "Vendor X installation guide, p. 12")]


def test_bundled_example_has_no_errors(example_doc):
    assert [f for f in validate(example_doc) if f.severity == ERROR] == []


def test_which_edits_change_the_fabric_structure():
    from planner.model.change import Change
    from planner.rules.edit_kinds import changes_fabric

    assert not changes_fabric(Change(modified={"dev-1": {"name", "u", "rack"}, "rack-1": {"x", "name"}}))
    assert changes_fabric(Change(modified={"dev-1": {"role"}}))
    assert changes_fabric(Change(modified={"link-1": {"b_port"}}))
    assert changes_fabric(Change(modified={"link-1": {"tier"}}))
    # which ports a cable joins is the structure, and its media (one per twin-port cage, N16); its
    # label and length are not
    assert not changes_fabric(Change(modified={"link-1": {"length_m", "stock_m", "label"}}))
    assert changes_fabric(Change(modified={"link-1": {"media"}}))
    assert changes_fabric(Change(added={"dev-9"}))
    assert changes_fabric(Change(removed={"link-4"}))
    assert not changes_fabric(Change(modified={"link-1": {"state", "state_note"}, "dev-1": {"hostname"}}))


def test_marking_cables_installed_re_checks_nothing(example_doc):
    """An installer marking cables (their state and note) touches no rule's input, no bundle and
    no tray: marking a whole hall verified must cost the validator nothing."""
    validator = Validator(example_doc)
    before = list(validator.findings)
    trays_before = validator.ctx.tray_loads()
    change = SetFields({link_id: {"state": "verified", "state_note": ""} for link_id in example_doc.links}
                       ).apply(example_doc)
    assert [r.id for r in validator.rules if r.reads_any(changed_keys(change))] == []
    assert validator._rebundled(change) == set()
    delta = validator.update(change)
    assert not delta and validator.findings == before and validator.ctx.tray_loads() is trays_before


def test_cable_edits_of_one_network_keep_the_others_figures_and_stay_right(monkeypatch):
    """Cables deleted by hand, one network after another: each network's port use (N14), the
    storage figures (N13) and the cord and hose records (P10–P13, C10–C11) are kept through an
    edit of other networks' cables alone, yet every pass equals a full run."""
    from planner.commands.base import History
    from planner.fabric.hand_commands import delete_cables_command
    from planner.layout.templates import build_template
    from planner.model.ports import COMPUTE, COOLANT, INBAND, OOB, POWER, STORAGE_NET
    from planner.rules import networks

    doc = build_template("pod", 16)
    validator, history = Validator(doc), History(doc)
    made: list[str] = []
    real = networks._must_cable
    monkeypatch.setattr(networks, "_must_cable", lambda *args: made.append(args[2]) or real(*args))
    validator.update(history.push(delete_cables_command(doc, [next(iter(doc.links_in(COMPUTE)))])))  # builds the index
    for network in (COMPUTE, STORAGE_NET, COMPUTE, INBAND, OOB, POWER, COOLANT, COMPUTE):
        del made[:]
        before = set(validator.findings)
        validator.update(history.push(delete_cables_command(doc, [next(iter(doc.links_in(network)))])))
        assert set(made) <= {network}, (network, set(made))  # only the edited network's port use recounted
        assert sorted(validator.findings, key=Finding.sort_key) == sorted(Validator(doc).findings, key=Finding.sort_key)
        if network != COMPUTE:  # the missing cable is found (N14, P10, C10)
            assert set(validator.findings) != before, network
