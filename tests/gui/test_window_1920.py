"""The window at 1920 × 1080 (issue 20): every column of the Cables and Changes docks shown whole,
palette names whole or elided in the middle with the name in the tooltip, the Hall features
tables sized to their content, and the scale bar clear of the plan's labels."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from planner.commands.base import SetFields
from planner.commands.edits import delete_objects, move_objects
from planner.fabric.hall import cable_hall
from planner.fabric.sizing import default_switch
from planner.io import dumps, load
from planner.layout.templates import build_template
from planner.ui.dialogs.hall_features import HallFeaturesDialog
from planner.ui.plan.hall_items import ZoneItem
from planner.ui.plan.items import PlanItem
from planner.ui.plan.palette import KEY_ROLE
from planner.ui.trees import children, top_items

FULL_HD = (1920, 1080)


def _settle(rounds: int = 5) -> None:
    for _ in range(rounds):
        QApplication.processEvents()


def _cabled(doc):
    """Every network cabled, as Plan ▸ Generate fabric does."""
    cable_hall(doc, default_switch(doc), doc.basis.oversubscription, "middle").apply(doc)
    return doc


def _columns_whole(table) -> None:
    header = table.horizontalHeader()
    for column in range(table.model().columnCount()):
        need = max(header.sectionSizeHint(column), table.sizeHintForColumn(column))
        title = table.model().headerData(column, header.orientation())
        assert table.columnWidth(column) >= need, f"column {title!r}: {table.columnWidth(column)} < {need}"
    assert header.length() <= table.viewport().width(), "the columns need horizontal scrolling"


def test_every_cable_column_is_whole_at_1920(make_window, example_doc):
    window = make_window(_cabled(example_doc), size=FULL_HD)
    _settle()
    dock = window.cable_dock
    assert dock.isVisible() and not dock.visibleRegion().isEmpty()
    assert window.findings_dock.isVisible() and not window.findings_dock.visibleRegion().isEmpty()
    # every network's cables: the example's 512 compute ones, and 72 storage, 68 in-band, 143
    # out-of-band, 64 hoses and 384 cords
    assert len(window.session.doc.links_in("compute")) == 512 and dock.model.rowCount() == 1243
    _columns_whole(dock.table)
    # the findings keep their rows, and the plan most of the height
    assert window.plan_view.viewport().height() >= 450


def test_cable_columns_fit_a_fabric_generated_after_the_window_opened(make_window, example_doc):
    window = make_window(example_doc, size=FULL_HD)
    _settle()
    doc = window.session.doc
    window.session.push(cable_hall(doc, default_switch(doc), doc.basis.oversubscription, "middle"))
    _settle()
    _columns_whole(window.cable_dock.table)


def test_the_window_at_1400_keeps_the_strip_shared(make_window, example_doc):
    window = make_window(_cabled(example_doc))
    _settle()
    findings, cables = window.findings_dock.geometry(), window.cable_dock.geometry()
    assert findings.top() == cables.top() and findings.right() < cables.left()  # side by side, as ever


def test_every_change_line_is_whole_at_1920(make_window, tmp_path, qtbot):
    """The Changes dock widens its column to show its lines, taking the room from the palette's
    column so the cables keep every column whole; stopping gives the widths back."""
    path = tmp_path / "before.hall"
    path.write_text(dumps(build_template("pod", nodes=16)))
    window = make_window(load(path), size=FULL_HD)
    session, doc = window.session, window.session.doc
    rack = {r.name: r.id for r in doc.racks.values()}
    session.push(move_objects(doc, [rack["R03"]], 0.0, 1.8))
    # a name no wider than the hall's: a longer one widens the labels past the Cables dock's
    # fitted Label column, which keeps its width (it fits once, as a user resizes it)
    session.push(SetFields({rack["R02"]: {"name": "R09"}}, "Rename R02"))
    session.push(delete_objects(doc, [rack["R05"]]))
    assert window.compare.compare_with_file(path)
    dock = window.compare.dock
    tree = dock.tree
    qtbot.waitUntil(lambda: dock.width() >= dock.wanted_width() - 2, timeout=3000)
    _settle()
    metrics = tree.fontMetrics()
    for group in top_items(tree):
        for row in children(group)[:50]:
            text = tree.visualItemRect(row)
            assert text.right() <= tree.viewport().width(), row.text(0)
            assert text.width() >= metrics.horizontalAdvance(row.text(0)) + tree.iconSize().width(), row.text(0)
    assert tree.horizontalScrollBar().maximum() == 0
    _columns_whole(window.cable_dock.table)  # the width came from the palette's column
    palette = window.palette_dock.width()
    window.compare.stop()
    _settle()
    assert window.properties_dock.width() < 400  # the column narrows again
    assert window.palette_dock.width() > palette  # and the palette has its width back


@pytest.mark.parametrize("size", [FULL_HD, (1400, 900)])
def test_palette_names_whole_or_elided_in_the_middle(make_window, example_doc, size):
    window = make_window(example_doc, size=size)
    _settle()
    tree = window.palette_widget.tree
    catalog = window.session.doc.catalog
    shown = 0
    for group in top_items(tree):
        for entry in children(group):
            full, text = entry.text(0), tree.shown_text(entry)
            name = catalog[entry.data(0, KEY_ROLE)].name
            if text != full:
                assert "…" in text and not text.endswith("…"), text  # elided in the middle, not cut
                assert name in entry.toolTip(0), entry.toolTip(0)
            else:
                shown += 1
    if size == FULL_HD:
        assert shown == sum(g.childCount() for g in top_items(tree))  # every name whole at 1920


def test_hall_features_tables_are_sized_to_their_content(qtbot, example_doc):
    dialog = HallFeaturesDialog(example_doc)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    for index in range(dialog.tabs.count()):
        dialog.tabs.setCurrentIndex(index)
        _settle()
        feature = dialog.tabs.widget(index)
        table, header = feature.table, feature.table.horizontalHeader()
        stretch = feature.stretch_column()
        for column in range(table.columnCount()):
            need = max(header.sectionSizeHint(column), table.sizeHintForColumn(column))
            assert table.columnWidth(column) >= need, (dialog.tabs.tabText(index), column)
            if column != stretch:  # only the name takes the spare width
                assert table.columnWidth(column) <= max(need, header.minimumSectionSize()) + 2
        assert header.length() <= table.viewport().width()
    outline = dialog.outline.table
    assert outline.columnWidth(0) == outline.columnWidth(1)  # x no longer takes the table from y


def _label_rects(view) -> list[tuple[str, QRectF]]:
    """Every plan item's drawn extent in viewport pixels; of a floor zone its label."""
    rects = []
    for item in view.plan_scene.items():
        if not isinstance(item, PlanItem) or not item.isVisible():
            continue
        scene = item.mapRectToScene(item.label_rect()) if isinstance(item, ZoneItem) else item.sceneBoundingRect()
        rects.append((item.obj_id, QRectF(view.mapFromScene(scene).boundingRect())))
    return rects


@pytest.mark.parametrize(("nodes", "size"), [(None, FULL_HD), (None, (1400, 900)), (1024, (1000, 700))])
def test_scale_bar_covers_no_label_at_fit_view(make_view, example_doc, nodes, size):
    """At fit view the bar is clear of every item and label; on a 1,024-node hall in a viewport
    of its own shape the 1 m margin is 27 px, and the old bottom-left place covered the floor
    zone's label."""
    doc = example_doc if nodes is None else build_template("hall", nodes)
    view = make_view(doc, size=size)
    if nodes is not None:  # a viewport of the hall's own shape: the fit leaves a thin margin
        hall = view.plan_scene.hall_rect()
        view.resize(size[0], round(size[0] * hall.height() / hall.width()))
    view.fit_to_hall()
    _settle()
    bar = view.scale_bar_rect()
    assert QRectF(view.viewport().rect()).contains(bar)
    for obj_id, rect in _label_rects(view):
        assert not bar.intersects(rect), f"the scale bar {bar} covers {obj_id} at {rect}"
