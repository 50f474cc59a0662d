"""The main window's default layout at 1400 × 900, and the status bar following the undo stack."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from planner.commands import edits


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def test_default_size_shows_six_findings_rows_and_whole_rack_properties(make_window, example_doc):
    window = make_window(example_doc)
    assert window.size().toTuple() == (1400, 900)
    _settle()
    table = window.findings_dock.table
    assert window.findings_dock.isVisible()
    assert table.viewport().height() >= 6 * table.verticalHeader().defaultSectionSize()

    props = window.properties_dock
    scroll = props.widget()
    elevation = window.elevation_dock.widget()
    for rack_id in sorted(example_doc.racks):
        window.session.select({rack_id})
        _settle()
        assert props.isVisible() and not props.visibleRegion().isEmpty(), rack_id
        assert props.figures_box.isVisible() and props.figures_form.rowCount() >= 8, rack_id
        # everything fits: no vertical scrolling, the figures box ends inside the viewport
        assert scroll.verticalScrollBar().maximum() == 0, rack_id
        bottom = props.figures_box.mapTo(scroll.viewport(), props.figures_box.rect().bottomLeft()).y()
        assert bottom <= scroll.viewport().height(), rack_id
        # the rack elevation shows the whole 52U rack, U1 included
        assert window.elevation_dock.elevation.rack_id == rack_id
        assert elevation.verticalScrollBar().maximum() == 0, rack_id


def test_status_message_clears_on_undo_and_redo(make_window, example_doc):
    window = make_window(example_doc)
    status = window.statusBar()
    doc = window.session.doc
    stack = window.session.undo_stack
    window.session.push(edits.place_rack(doc, doc.catalog.default_rack().key, 11.4, 1.2))
    window.show_status("R10 does not fit there")
    assert status.currentMessage() == "R10 does not fit there"
    stack.undo()
    assert status.currentMessage() == ""
    window.show_status("Nothing to paste")
    stack.redo()
    assert status.currentMessage() == ""
    # a message an edit gives about itself after its push stays
    window.session.push(edits.place_rack(doc, doc.catalog.default_rack().key, 11.4, 4.8))
    window.show_status("Added R11")
    assert status.currentMessage() == "Added R11"
