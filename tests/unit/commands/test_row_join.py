"""Issue 10/11 loose end: a rack placed on its own beside a row's end rack, in line, joins that row.

The rule (``planner.commands.edits.row_to_join``): same rotation; fronts on one line within
ROW_LINE_TOLERANCE_M (0.1 m); the facing sides at most ROW_GAP_M (0.1 m) apart, touching included,
overlapping not. Only the row is taken, never the feeds or the CDU loop.
"""

from __future__ import annotations

import pytest

from planner.commands.edits import (
    ROW_GAP_M,
    ROW_LINE_TOLERANCE_M,
    place_device_on_floor,
    place_rack,
    row_of_racks,
)
from planner.model.catalog import CatalogItem

WIDE = "rack-800x1200-52u"  # core_hall's racks: R01 … R09, x 2.8 … 9.2 (0.8 m apart), y 4.8, row "1"
NARROW = "rack-600x1200-48u"


def placed(doc, type_key, x, y, rotation=0):
    command = place_rack(doc, type_key, x, y, rotation)
    command.apply(doc)
    return command.objects[0]


def test_the_rule_is_stated_as_the_docs_say():
    assert ROW_GAP_M == 0.1 and ROW_LINE_TOLERANCE_M == 0.1


@pytest.mark.parametrize(("type_key", "x", "y", "row"), [
    (WIDE, 10.0, 4.8, "1"),            # touching R09's east side
    (WIDE, 2.0, 4.8, "1"),             # touching R01's west side
    (NARROW, 9.9, 4.8, "1"),           # a narrower rack touching R09 (9.6 + 0.3)
    (WIDE, 10.1, 4.8, "1"),            # a 0.1 m gap
    (WIDE, 10.0, 4.9, "1"),            # fronts 0.1 m off the line
    (WIDE, 10.2, 4.8, ""),             # a 0.2 m gap: not beside
    (WIDE, 10.0, 5.0, ""),             # fronts 0.2 m off the line
    (WIDE, 9.8, 4.8, ""),              # overlapping R09: S1's business, not a row
    (WIDE, 10.0, 6.6, ""),             # across the aisle behind the row
    (WIDE, 20.0, 10.0, ""),            # far away
])
def test_a_rack_beside_a_rows_end_joins_that_row(core_doc, type_key, x, y, row):
    rack = placed(core_doc, type_key, x, y)
    assert rack.row == row
    assert rack.feed_a is rack.feed_b is rack.cdu is None  # only the row: feeds and loop stay per rack


def test_a_different_rotation_does_not_join(core_doc):
    assert placed(core_doc, WIDE, 10.0, 4.8, rotation=180).row == ""
    assert placed(core_doc, WIDE, 10.2, 4.8, rotation=90).row == ""


def test_fronts_not_centres_are_lined_up(core_doc):
    shallow = CatalogItem(key="rack-shallow", kind="rack", name="Shallow rack", width_m=0.8, depth_m=1.0,
                          rack_units=42, max_load_kg=1000, custom=True)
    core_doc.catalog.add(shallow)
    # R09's front (rotation 0 faces −y) is at y 4.2; a 1.0 m deep rack with its front there is centred on 4.7
    assert placed(core_doc, "rack-shallow", 10.0, 4.7).row == "1"
    assert placed(core_doc, "rack-shallow", 10.0 + 0.8, 4.9).row == ""  # centre in line, front 0.2 m back


def test_rows_turned_90_degrees_join_along_y(core_doc):
    row_of_racks(core_doc, NARROW, 20.0, 10.0, 1, rotation=90, row="7").apply(core_doc)
    # rotation 90: 1.2 m along x, 0.6 m along y; the row runs along y
    assert placed(core_doc, NARROW, 20.0, 10.6, rotation=90).row == "7"
    assert placed(core_doc, NARROW, 20.0, 9.4, rotation=90).row == "7"
    assert placed(core_doc, NARROW, 21.2, 10.0, rotation=90).row == ""  # side by side across, not end-on


def test_the_nearest_neighbour_wins_and_racks_without_a_row_are_passed_over(core_doc):
    row_of_racks(core_doc, WIDE, 10.75, 4.8, 1, row="2").apply(core_doc)  # spans 10.35–11.15
    # 0.6 m wide racks between R09 (ends at 9.6) and the row-2 rack
    assert placed(core_doc, NARROW, 9.95, 4.8).row == "1"  # 0.05 m from R09, 0.1 m from the other
    assert placed(core_doc, NARROW, 10.05, 4.8).row == "2"  # 0.15 m from R09, touching the other
    loner = placed(core_doc, WIDE, 20.0, 10.0)
    assert loner.row == ""
    assert placed(core_doc, WIDE, 20.8, 10.0).row == ""


def test_the_undo_text_and_undo(core_doc):
    command = place_rack(core_doc, WIDE, 10.0, 4.8)
    assert command.text == "Add rack R10 to row 1"
    command.apply(core_doc)
    command.revert(core_doc)
    assert all(r.name != "R10" for r in core_doc.racks.values())


def test_a_device_dropped_on_the_floor_beside_a_row_comes_in_a_rack_of_that_row(core_doc):
    command = place_device_on_floor(core_doc, "node-8gpu-liquid-4u", 9.9, 4.8)  # default rack: 0.6 m wide
    rack, _device = command.objects
    assert rack.row == "1" and command.text == "Add rack R10 to row 1 with N1"
