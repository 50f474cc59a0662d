"""The GUI applies each edit by difference (issue 9): assignment lines of the racks an edit concerns,
findings rows and plan marks of the findings that changed, and dock refreshes only for edits of
what they show. Checked by behaviour — which lines, rows and marks change, what Qt was told —
never by timing."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.commands import SetFields, edits
from planner.io import load
from planner.layout.templates import build_template
from planner.model.document import prefix_of
from planner.rules.engine import Validator
from planner.rules.finding import ERROR, INFO, WARNING, Finding
from planner.ui.plan import overlays as plan_overlays
from planner.ui.plan.overlays import AssignmentLayer, rack_assignment_lines
from planner.ui.plan.units import TILE_M, m

DATA = Path(__file__).resolve().parents[1] / "data"
#: What a plan with no power cords and no coolant hoses always gets (the test files have none): one
#: info each, "not planned yet", which marks nothing on the plan.
NOT_PLANNED_YET = [("C10", INFO), ("P10", INFO)]


def not_planned_yet(model) -> list[tuple[str, tuple[str, ...]]]:
    """The rows of the two "not planned yet" infos, after checking they are exactly those."""
    rows = [f for f in model.findings if f.rule in ("C10", "P10")]
    assert [(f.rule, f.severity) for f in rows] == NOT_PLANNED_YET
    return [(f.rule, f.subjects) for f in rows]


def lines_by_rack(layer: AssignmentLayer, doc) -> dict[str, list[tuple[float, float, float, float]]]:
    return {r: [(ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ln in layer.lines_of(r)] for r in doc.racks}


def findings_hall():
    """A 256-node template hall with tight aisles, a low derating and a low floor warning: 355
    findings over many racks, so edits insert and remove rows among others."""
    doc = build_template("hall", 256)
    doc.basis.front_aisle_min_m, doc.basis.rear_aisle_min_m = 3.0, 2.0
    doc.basis.floor_warn_fraction, doc.basis.derating = 0.3, 0.5
    return doc


def worst_by_subject(findings: list[Finding]) -> dict[str, str]:
    """What the plan marks, worked out from scratch: the worst severity naming each subject."""
    worst: dict[str, str] = {}
    for finding in findings:
        if finding.severity not in (ERROR, WARNING):
            continue
        for subject in finding.subjects:
            if prefix_of(subject) != "zone" and worst.get(subject) != ERROR:
                worst[subject] = finding.severity
    return worst


class ModelLog:
    """What a Qt item model told its views: resets and rows inserted / removed."""

    def __init__(self, model) -> None:
        self.resets = self.inserted = self.removed = 0
        model.modelReset.connect(self._reset)
        model.rowsInserted.connect(lambda _parent, first, last: self._count("inserted", last - first + 1))
        model.rowsRemoved.connect(lambda _parent, first, last: self._count("removed", last - first + 1))

    def _reset(self) -> None:
        self.resets += 1

    def _count(self, name: str, rows: int) -> None:
        setattr(self, name, getattr(self, name) + rows)


def severities(scene) -> dict[str, str]:
    return {item.obj_id: item.severity for item in scene.plan_items()}


# ------------------------------------------------------------------ assignment lines
def test_moving_a_rack_redraws_only_its_assignment_lines(make_view, example_doc, monkeypatch):
    view = make_view(example_doc)
    doc, layer = example_doc, view.plan_scene.assignments
    before = lines_by_rack(layer, doc)
    expected = sum(bool(r.feed_a) + bool(r.feed_b) + bool(r.cdu) for r in doc.racks.values())
    assert layer.line_count() == expected
    computed: list[str] = []
    original = plan_overlays.rack_assignment_lines
    monkeypatch.setattr(plan_overlays, "rack_assignment_lines",
                        lambda d, rack: computed.append(rack.id) or original(d, rack))
    view.session.select({"rack-3"})
    view.editor.nudge(0, 1)
    after = lines_by_rack(layer, doc)
    assert computed == ["rack-3"]  # one rack's lines worked out again, not the hall's
    assert {r for r in doc.racks if after[r] != before[r]} == {"rack-3"}
    step = m(TILE_M)  # each line starts off the rack's centre, so its start moves with the rack
    assert [line[1] for line in after["rack-3"]] == pytest.approx([line[1] + step for line in before["rack-3"]])
    assert layer.line_count() == expected
    fresh = AssignmentLayer()
    fresh.rebuild(doc)
    assert lines_by_rack(fresh, doc) == after
    view.session.undo_stack.undo()
    assert lines_by_rack(layer, doc) == before


def test_moving_a_busbar_redraws_the_lines_of_the_racks_on_it(make_view, example_doc):
    view = make_view(example_doc)
    doc, layer = example_doc, view.plan_scene.assignments
    bus = next(iter(doc.busbars.values()))
    on_bus = {r.id for r in doc.racks.values() if bus.id in (r.feed_a, r.feed_b)}
    assert on_bus and on_bus != set(doc.racks)
    before = lines_by_rack(layer, doc)
    view.session.push(edits.move_objects(doc, [bus.id], 0.0, 0.6))
    after = lines_by_rack(layer, doc)
    assert {r for r in doc.racks if after[r] != before[r]} == on_bus
    for rack_id in doc.racks:
        assert after[rack_id] == [(ln.x1(), ln.y1(), ln.x2(), ln.y2())
                                  for _t, _f, ln in rack_assignment_lines(doc, doc.racks[rack_id])]


def test_unassigning_and_deleting_racks_keeps_the_line_count(make_view, example_doc):
    view = make_view(example_doc)
    doc, layer = example_doc, view.plan_scene.assignments
    expected = layer.line_count()
    view.session.push(edits.assign(doc, ["rack-1", "rack-2"], "feed_b", None))
    assert layer.line_count() == expected - 2 and layer.lines_of("rack-1") and len(layer.lines_of("rack-1")) == 2
    view.session.select({"rack-4"})
    view.editor.delete()
    assert "rack-4" not in doc.racks and layer.lines_of("rack-4") == []
    fresh = AssignmentLayer()
    fresh.rebuild(doc)
    assert layer.line_count() == fresh.line_count()
    view.session.undo_stack.undo()
    view.session.undo_stack.undo()
    assert layer.line_count() == expected


# ------------------------------------------------------------ findings: dock and marks
def test_a_new_finding_adds_one_row_and_marks_its_racks(make_window, monkeypatch):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    session, scene = window.session, window.plan_view.plan_scene
    model = window.findings_dock.model
    log = ModelLog(model)
    told: list[dict[str, str]] = []
    original = scene.update_findings
    monkeypatch.setattr(scene, "update_findings", lambda marks: told.append(dict(marks)) or original(marks))
    before = severities(scene)
    infos = not_planned_yet(model)
    assert [(f.rule, f.subjects) for f in model.findings] == infos  # clean but for them
    session.push(edits.move_objects(session.doc, ["rack-6"], -0.4, 0.0))  # onto rack-5: S1
    assert (log.resets, log.inserted, log.removed) == (0, 1, 0)
    assert [(f.rule, f.subjects) for f in model.findings] == [("S1", ("rack-5", "rack-6")), *infos]
    assert told == [{"rack-5": ERROR, "rack-6": ERROR}]  # only the subjects whose mark changed
    after = severities(scene)
    assert {i for i in after if after[i] != before[i]} == {"rack-5", "rack-6"}
    session.undo_stack.undo()
    assert (log.resets, log.inserted, log.removed) == (0, 1, 1)
    assert [(f.rule, f.subjects) for f in model.findings] == infos and severities(scene) == before
    assert told[-1] == {"rack-5": "", "rack-6": ""}


def test_findings_rows_stay_in_order_among_hundreds(make_window):
    doc = findings_hall()
    window = make_window(doc)
    session, live = window.session, window.live_validator
    dock, scene = window.findings_dock, window.plan_view.plan_scene
    log = ModelLog(dock.model)
    assert dock.model.rowCount() > 300
    racks = sorted(doc.racks, key=lambda r: int(r.split("-")[1]))
    steps = [edits.move_objects(doc, [racks[5]], 0.0, 0.6), edits.assign(doc, [racks[7]], "feed_a", None),
             SetFields({racks[9]: {"name": "Z99"}}, text="Rename"), edits.move_objects(doc, [racks[20]], 0.6, 0.0)]
    for command in steps:
        session.push(command)
        fresh = Validator(doc).findings
        assert dock.model.findings == fresh  # the rows a full run would show, in its order
        assert live.severity_by_id() == worst_by_subject(fresh)
        assert live.counts()[ERROR] == sum(f.severity == ERROR for f in fresh)
        marked = {i: s for i, s in severities(scene).items() if s}
        assert marked == {i: s for i, s in marks_of(doc, worst_by_subject(fresh)).items() if scene.item_for(i)}
    for _ in steps:
        session.undo_stack.undo()
        assert dock.model.findings == Validator(doc).findings
    assert log.resets == 0 and log.inserted and log.removed
    assert dock.count_label.text() == live.summary()


def marks_of(doc, worst: dict[str, str]) -> dict[str, str]:
    """The plan items a set of worst severities marks: a device or cable marks its racks."""
    marks: dict[str, str] = {}
    for subject, severity in worst.items():
        if prefix_of(subject) == "dev":
            targets = [doc.devices[subject].rack] if subject in doc.devices else []
        elif prefix_of(subject) == "link":
            link = doc.links.get(subject)
            targets = [doc.devices[d].rack for d in (link.a_device, link.b_device) if d in doc.devices] if link else []
        else:
            targets = [subject]
        for target in targets:
            if marks.get(target) != ERROR:
                marks[target] = severity
    return marks


def test_new_and_open_reset_the_findings_and_marks(make_window):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    model, scene = window.findings_dock.model, window.plan_view.plan_scene
    log = ModelLog(model)
    window.files.set_document(load(DATA / "s2_aisle.hall"), None)
    assert log.resets == 1
    assert [(f.rule, f.subjects) for f in model.findings] == [("S2", ("rack-3", "obs-1")), *not_planned_yet(model)]
    assert scene.item_for("rack-3").severity == ERROR and scene.item_for("obs-1").severity == ERROR
    window.files.set_document(findings_hall(), None)
    assert log.resets == 2 and model.findings == window.live_validator.findings
    assert window.live_validator.severity_by_id() == worst_by_subject(model.findings)
    window.files.set_document(load(DATA / "clean_row_120kw.hall"), None)
    assert log.resets == 3 and model.rowCount() == len(not_planned_yet(model)) == 2  # the infos alone
    assert not any(severities(scene).values()) and window.live_validator.severity_by_id() == {}


# --------------------------------------------------------------- properties, elevation
def test_docks_refresh_only_for_edits_of_what_they_show(make_window, monkeypatch):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    session, doc = window.session, window.session.doc
    props, elevation = window.properties_dock, window.elevation_dock.elevation
    refreshed: list[str] = []
    original_refresh, original_set_rack = props.refresh, elevation.set_rack
    monkeypatch.setattr(props, "refresh", lambda: refreshed.append("props") or original_refresh())
    monkeypatch.setattr(elevation, "set_rack", lambda r: refreshed.append(f"elevation {r}") or original_set_rack(r))
    session.select({"rack-2"})
    refreshed.clear()
    session.push(edits.move_objects(doc, ["rack-5"], 0.0, 0.6))  # another rack
    device = doc.devices_in("rack-5")[0]
    session.push(SetFields({device.id: {"name": "other"}}, text="Rename"))  # a device elsewhere
    assert refreshed == []
    session.push(edits.move_objects(doc, ["rack-2"], 0.0, 0.6))  # the rack shown: fields, not its front
    assert refreshed == ["props"]
    refreshed.clear()
    mine = doc.devices_in("rack-2")[0]
    session.push(SetFields({mine.id: {"name": "mine"}}, text="Rename"))  # in the rack shown
    assert refreshed == ["props", "elevation rack-2"]
    assert "mine" in {d.name for d in doc.devices_in("rack-2")}
    refreshed.clear()
    incoming = doc.devices_in("rack-3")[-1]  # moved into the rack shown: its figures and front change
    session.push(edits.move_device(doc, incoming.id, "rack-2",
                                   doc.lowest_free_u("rack-2", doc.catalog[incoming.type].height_u)))
    assert refreshed == ["props", "elevation rack-2"] and incoming.id in elevation.device_ids
    refreshed.clear()
    session.undo_stack.undo()  # and out of it again
    assert refreshed == ["props", "elevation rack-2"] and incoming.id not in elevation.device_ids
    refreshed.clear()
    session.push(SetFields({"rack-2": {"name": "R2b"}}, text="Rename"))
    assert refreshed == ["props", "elevation rack-2"] and props.heading.text().startswith("R2b")
    refreshed.clear()
    session.push(SetFields({"bus-1": {"name": "Busbar X"}}, text="Rename"))  # a feed choice
    assert refreshed == ["props"]
    assert props.editors["feed_a"].findText("Busbar X") >= 0


def test_feed_choices_follow_a_new_plan(make_window):
    window = make_window(load(DATA / "clean_row_120kw.hall"))
    props = window.properties_dock
    window.session.select({"rack-1"})
    names = {props.editors["feed_a"].itemText(i) for i in range(props.editors["feed_a"].count())}
    doc = findings_hall()
    window.files.set_document(doc, None)
    window.session.select({next(iter(doc.racks))})
    shown = {props.editors["feed_a"].itemText(i) for i in range(props.editors["feed_a"].count())}
    assert shown != names
    assert shown - {"(none)"} == {b.name for b in doc.busbars.values() if b.side == "A"}
