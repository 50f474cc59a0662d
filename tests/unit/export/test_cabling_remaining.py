"""The cabling PDF's "left to do" edition (issue 13): ``planner export --to cabling-pdf --remaining``
prints only the cables not yet verified, under the racks that still have any; read back with pypdf.
The tick boxes of the steps a cable's state has reached are ticked.
"""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from planner.cli import main
from planner.export.cabling_pdf import write_cabling_pdf
from planner.io import save
from planner.layout.templates import build_template
from planner.model.document import Document
from planner.model.labels import cable_label


def _plan() -> tuple[Document, set[str], str, str]:
    """A 16-node pod with every cable of rack R01 verified, one other cable faulty and one labelled;
    returns (plan, verified link ids, the faulty link id, the labelled link id)."""
    doc = build_template("pod", nodes=16)
    racks = {rack.name: rack.id for rack in doc.racks.values()}
    verified = {i for d in doc.devices_in(racks["R01"]) for i in doc.link_ids_of(d.id)}
    for link_id in verified:
        doc.set_fields(link_id, {"state": "verified"})
    r02 = sorted(i for d in doc.devices_in(racks["R02"]) for i in doc.link_ids_of(d.id))
    faulty, labelled = r02[0], r02[1]
    doc.set_fields(faulty, {"state": "faulty", "state_note": "bent latch"})
    doc.set_fields(labelled, {"state": "labelled"})
    return doc, verified, faulty, labelled


def _export(tmp_path, doc: Document, *extra: str) -> list[str]:
    plan, out = tmp_path / "pod.hall", tmp_path / "cabling.pdf"
    save(doc, plan)
    assert main(["export", str(plan), "--to", "cabling-pdf", "-o", str(out), *extra]) == 0
    return [page.extract_text() for page in PdfReader(str(out)).pages]


def _headings(pages: list[str]) -> list[str]:
    return [m.group(1) for text in pages for m in [re.search(r"^Rack (\S+) ·", text, re.MULTILINE)] if m]


def test_remaining_leaves_out_verified_cables_and_racks_with_nothing_left(tmp_path):
    doc, verified, faulty, labelled = _plan()
    pages = _export(tmp_path, doc, "--remaining")
    text = "\n".join(pages)
    left = len(doc.links) - len(verified)
    assert f"{left} of {len(doc.links)} cables not yet verified" in pages[0]
    assert "left to do" in pages[0]
    assert not any(cable_label(doc, doc.links[i]) in text for i in verified)
    assert all(cable_label(doc, link) in text for i, link in doc.links.items() if i not in verified)
    # R01's cables are all verified: no page; every other rack still has work
    assert "R01" not in _headings(pages) and {"R02", "R03", "R04", "R05"} <= set(_headings(pages))
    r02 = [p for p in pages if re.search(r"^Rack R02 ·", p, re.MULTILINE)]
    count = sum(1 for i, link in doc.links.items() if i not in verified
                and "R02" in {doc.racks[doc.devices[d].rack].name for d in (link.a_device, link.b_device)})
    assert f"Rack R02 · row 1 · {count} cables left to do" in r02[0]
    assert "FAULTY: bent latch" in text  # the faulty cable says why, where the installer looks
    assert cable_label(doc, doc.links[labelled]) in text and cable_label(doc, doc.links[faulty]) in text


def test_without_remaining_every_cable_is_printed(tmp_path):
    doc, verified, _faulty, _labelled = _plan()
    pages = _export(tmp_path, doc)
    text = "\n".join(pages)
    assert f"{len(doc.links)} cables" in pages[0] and "left to do" not in text
    assert all(cable_label(doc, doc.links[i]) in text for i in verified)
    assert "R01" in _headings(pages)


def test_a_plan_with_everything_verified_prints_cover_and_floor_plan_only(tmp_path):
    doc = build_template("starter", nodes=4)
    for link_id in doc.links:
        doc.set_fields(link_id, {"state": "verified"})
    pages = _export(tmp_path, doc, "--remaining")
    assert len(pages) == 2 and f"0 of {len(doc.links)} cables not yet verified" in pages[0]


def _line_ops(doc: Document) -> int:
    """Straight-line operators drawn on the pages (a tick is two)."""
    out = io.BytesIO()
    write_cabling_pdf(doc, out)
    return sum(len(re.findall(rb"\d l\s", page.get_contents().get_data())) for page in PdfReader(out).pages)


def test_the_steps_a_cable_has_reached_are_ticked():
    doc = build_template("starter", nodes=4)  # one rack: every cable on its page once
    link_id = min(doc.links)
    planned = _line_ops(doc)
    for state, ticks in (("run", 1), ("labelled", 2), ("tested", 3), ("verified", 3), ("faulty", 0)):
        doc.set_fields(link_id, {"state": state})
        assert _line_ops(doc) == planned + 2 * ticks, state
