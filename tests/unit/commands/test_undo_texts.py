"""Issue 10/11 loose end: the undo history reads like a change list. Every command a gesture
builds (planner/commands/edits.py) names what it changed and where it went, never "3 items"."""

from __future__ import annotations

import pytest

from planner.commands.edits import (
    array_racks,
    assign,
    delete_objects,
    duplicate_objects,
    move_device,
    move_objects,
    place_busbar,
    place_device,
    place_device_on_floor,
    place_floor_unit,
    place_rack,
    rotate_objects,
    row_of_racks,
    subject,
)
from planner.model.document import Document


def rid(doc: Document, name: str) -> str:
    return next(r.id for r in doc.racks.values() if r.name == name)


def dev(doc: Document, rack: str, name: str) -> str:
    return next(d.id for d in doc.devices_in(rid(doc, rack)) if d.name == name)


def unassigned(doc: Document, field: str, *racks: str) -> Document:
    for name in racks:
        doc.set_fields(rid(doc, name), {field: None})
    return doc


# core_hall: R01…R09 (0.8 m wide) in row 1 along y 4.8, each on BB-A01, BB-B01 and CDU-01; R01 holds
# PDU1 at 0U and N1…N4 at U1, U5, U9, U13; R05 holds PDU1 and SW1…SW8; no cables.
TEXTS = {
    "Add rack R10": lambda d: place_rack(d, "rack-600x1200-48u", 20.0, 10.0),
    "Add rack R10 to row 1": lambda d: place_rack(d, "rack-800x1200-52u", 10.0, 4.8),
    "Add rack R10 with N1": lambda d: place_device_on_floor(d, "node-8gpu-liquid-4u", 20.0, 10.0),
    "Add row CDU CDU-02": lambda d: place_floor_unit(d, "cdu-row-1500kw", 20.0, 14.0),
    "Add busbar BB-B02": lambda d: place_busbar(d, "busbar-400a", 1, 9, 8, 9, side="B"),
    "Add ST1 to R01 U17": lambda d: place_device(d, "storage-flash-2u", rid(d, "R01")),
    "Move N1 from R01 U1 to R02 U30": lambda d: move_device(d, dev(d, "R01", "N1"), rid(d, "R02"), 30),
    "Move N4 in R01 from U13 to U30": lambda d: move_device(d, dev(d, "R01", "N4"), rid(d, "R01"), 30),
    "Move R05": lambda d: move_objects(d, [rid(d, "R05")], 0.6, 0.0),
    "Move 3 racks": lambda d: move_objects(d, [rid(d, n) for n in ("R01", "R02", "R03")], 0.0, 0.6),
    "Move R01 and BB-A01": lambda d: move_objects(d, [rid(d, "R01"), "bus-1"], 0.6, 1.2),
    "Move 2 racks, CDU-01 and 2 busbars": lambda d: move_objects(d, [rid(d, "R01"), rid(d, "R02"), "fu-1",
                                                                    "bus-1", "bus-2"], 0.6, 0.0),
    "Rotate R01 90°": lambda d: rotate_objects(d, [rid(d, "R01")]),
    "Rotate 2 racks 90°": lambda d: rotate_objects(d, [rid(d, "R01"), rid(d, "R02")]),
    "Duplicate R02 as R10": lambda d: duplicate_objects(d, [rid(d, "R02")], 0, 6),
    "Duplicate R02 and CDU-01": lambda d: duplicate_objects(d, [rid(d, "R02"), "fu-1"], 0, 6),
    "Array 3 racks beside R09 (R10–R12)": lambda d: array_racks(d, rid(d, "R09"), 3),
    "Array R10 beside R09": lambda d: array_racks(d, rid(d, "R09"), 1),
    "Add row 2 of 5 racks (R10–R14)": lambda d: row_of_racks(d, "rack-600x1200-48u", 4, 10, 5, row="2"),
    "Add a row of 2 racks (R10, R11)": lambda d: row_of_racks(d, "rack-600x1200-48u", 4, 10, 2),
    "Delete R05 (9 devices)": lambda d: delete_objects(d, [rid(d, "R05")]),
    "Delete BB-A01 (unassigns 9 racks)": lambda d: delete_objects(d, ["bus-1"]),
    "Delete 2 racks and CDU-01 (10 devices; unassigns 7 racks)":
        lambda d: delete_objects(d, [rid(d, "R01"), rid(d, "R02"), "fu-1"]),
    "Delete N2 in R01": lambda d: delete_objects(d, [dev(d, "R01", "N2")]),
    "Assign 2 racks to feed A BB-A01": lambda d: assign(unassigned(d, "feed_a", "R01", "R02"),
                                                        [rid(d, "R01"), rid(d, "R02")], "feed_a", "bus-1"),
    "Set CDU loop of R01 to CDU-01": lambda d: assign(unassigned(d, "cdu", "R01"), [rid(d, "R01")], "cdu", "fu-1"),
    "Set feed B of R03 to BB-B01": lambda d: assign(unassigned(d, "feed_b", "R03"), [rid(d, "R03")], "feed_b",
                                                    "bus-2"),
    "Clear feed A of R01": lambda d: assign(d, [rid(d, "R01")], "feed_a", None),
    "Clear CDU loop of 3 racks": lambda d: assign(d, [rid(d, n) for n in ("R01", "R02", "R03")], "cdu", None),
}


@pytest.mark.parametrize("text", list(TEXTS))
def test_undo_text_names_what_changed(core_doc, text):
    assert TEXTS[text](core_doc).text == text


def test_deleting_a_rack_counts_the_devices_and_cables_it_takes(example_doc):
    doc = example_doc
    rack = rid(doc, "R07")
    devices = doc.devices_in(rack)
    cables = {link.id for d in devices for link in doc.links_of(d.id)}
    assert devices and cables
    assert delete_objects(doc, [rack]).text == f"Delete R07 ({len(devices)} devices, {len(cables)} cables)"
    node = next(d for d in devices if doc.links_of(d.id))
    assert delete_objects(doc, [node.id]).text == f"Delete {node.name} in R07 ({len(doc.links_of(node.id))} cables)"
    # a rack chosen with one of its own devices is named once, its devices counted once
    assert delete_objects(doc, [rack, node.id]).text == f"Delete R07 ({len(devices)} devices, {len(cables)} cables)"


def test_an_in_rack_cdu_is_named_with_its_rack(core_doc):
    rack = rid(core_doc, "R03")
    cdu = place_device(core_doc, "cdu-rack-250kw", rack)
    cdu.apply(core_doc)
    assert assign(core_doc, [rid(core_doc, "R04")], "cdu", cdu.objects[0].id).text == \
        f"Set CDU loop of R04 to {cdu.objects[0].name} in R03"


def test_subject_words_a_selection(core_doc):
    doc = core_doc
    racks = [doc.racks[rid(doc, n)] for n in ("R01", "R02")]
    assert subject(doc, []) == "nothing"
    assert subject(doc, racks[:1]) == "R01"
    assert subject(doc, racks) == "2 racks"
    assert subject(doc, [*racks, doc.busbars["bus-1"]]) == "2 racks and BB-A01"
    assert subject(doc, [doc.busbars["bus-1"], doc.floor_units["fu-1"], racks[0]]) == "R01, CDU-01 and BB-A01"
