"""The window as a professional tool behaves (issue 20): what a finding points at is zoomed to a
size one can see, and a cable's highlighted route leaves with the selection and with the cable."""

from __future__ import annotations

import pytest

from planner.commands import RemoveObjects, edits
from planner.layout.templates import build_template
from planner.model.document import natural_key
from planner.ui.plan.canvas import MIN_SHOWN_PIXELS


@pytest.fixture
def window(make_window):
    return make_window(build_template("hall", 256), size=(1400, 900))


def test_centring_on_a_rack_at_fit_view_zooms_it_to_at_least_40_px(window):
    view, doc = window.plan_view, window.session.doc
    view.fit_to_hall()
    rack = max(doc.racks.values(), key=lambda r: natural_key(r.name))
    item = view.plan_scene.item_for(rack.id)
    before = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    assert min(before.width(), before.height()) < MIN_SHOWN_PIXELS  # a few pixels at fit view
    window.findings_dock.centre_requested.emit([rack.id])  # what a click on its finding asks
    shown = view.mapFromScene(item.sceneBoundingRect()).boundingRect()
    assert min(shown.width(), shown.height()) >= MIN_SHOWN_PIXELS - 1
    assert view.viewport().rect().contains(shown)


def test_a_cables_route_leaves_with_the_selection_and_with_the_cable(window):
    view, dock, session = window.plan_view, window.cable_dock, window.session
    doc = session.doc
    link = min(doc.links.values(), key=lambda lk: natural_key(lk.id))
    dock.select_link(link.id)
    assert view.route_ends()  # drawn, and end A's device selected
    ends = {doc.devices[link.a_device].rack, doc.devices[link.b_device].rack}
    other = next(r for r in doc.racks if r not in ends)
    session.select({other})
    assert view.route_ends() == () and dock.selected_link() is None
    dock.select_link(link.id)
    assert view.route_ends()
    session.push(RemoveObjects([link.id], "Delete cable"))
    now = dock.selected_link()  # the table's current row moves on, or to none
    assert now != link.id
    shown = doc.links.get(now) if now else None
    assert view.route_ends() == (() if shown is None else
                                 (doc.devices[shown.a_device].rack, doc.devices[shown.b_device].rack))


def test_the_window_fills_the_screen_the_first_time_and_opens_as_it_was_after(qtbot, example_doc):
    from planner.ui.main_window import MainWindow
    from planner.ui.session import DocumentSession

    first = MainWindow(DocumentSession(example_doc))
    qtbot.addWidget(first)
    first.show_as_last_time()
    assert first.isMaximized()  # no saved geometry yet: the whole screen
    screen = first.size()
    first.showNormal()
    first.resize(1000, 700)
    first.session.undo_stack.setClean()
    first.close()  # saves its geometry
    again = MainWindow(DocumentSession(example_doc))
    qtbot.addWidget(again)
    again.show_as_last_time()
    assert not again.isMaximized() and again.size().width() < screen.width()  # the size it closed at


def test_a_stale_length_finding_selects_its_rack_pairs_cables(window):
    """N8 names a rack pair's stale cables in one finding: activating it selects every one of them
    in the Cables dock, the first current, and the plan shows their route."""
    session, doc = window.session, window.session.doc
    spine_rack = next(r for r in doc.racks if any(d.role == "spine" for d in doc.devices_in(r)))
    session.push(edits.move_objects(doc, [spine_rack], 0.6, 0.0))
    finding = next(f for f in window.findings_dock.visible_findings() if f.rule == "N8" and len(f.subjects) > 3)
    window.cable_dock.filter.setText("no such cable")  # a filter hiding them is cleared
    window.findings_dock.activate(finding)
    dock = window.cable_dock
    assert sorted(dock.selected_links(), key=natural_key) == list(finding.subjects)
    assert dock.selected_link() == finding.subjects[0]
    first = doc.links[finding.subjects[0]]
    assert window.plan_view.route_ends() == (doc.devices[first.a_device].rack, doc.devices[first.b_device].rack)
