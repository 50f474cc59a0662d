"""The commissioning document's leak-test checklist on the pod: every hose of a rack, device QD
to manifold QD, a line with a tick box, and the manifold's loop to its CDU."""

from __future__ import annotations

import io

from pypdf import PdfReader

from planner.commands.base import History
from planner.export.commissioning_pdf import write_commissioning_pdf
from planner.export.leak_test import leak_test_steps
from planner.export.options import ExportOptions
from planner.fabric.hoses import plan_hoses
from planner.layout.templates import build_template
from planner.model.objects import Device
from planner.model.ports import COOLANT


def test_every_hose_of_the_pod_is_a_line_of_its_racks_leak_test():
    doc = build_template("pod")
    out = io.BytesIO()
    write_commissioning_pdf(doc, out, ExportOptions(date="2026-12-02"))
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(out.getvalue())).pages)
    hoses = list(doc.links_in(COOLANT).values())
    assert len(hoses) == 64
    lines = 0
    for rack_id, rack in doc.racks.items():
        steps = leak_test_steps(doc, rack_id, "CDU-01")
        mine = [h for h in hoses if doc.devices[h.a_device].rack == rack_id]
        for hose in mine:
            device, manifold = doc.devices[hose.a_device], doc.devices[hose.b_device]
            line = f"Hose {device.name} {hose.a_port} → {manifold.name} {hose.b_port} · UQD08"
            assert sum(step.startswith(line) for step in steps) == 1, (rack.name, line)
            assert line in text
            lines += 1
        if mine:
            assert steps[0] == "Loop: MAN1 supply and return headers → CDU-01 (facility pipework): dry at test pressure"
            assert steps[-1].startswith("Leak test: pressure")
    assert lines == 64
    assert text.count("Loop: MAN1 supply and return headers") == 8


def test_a_rack_cdu_loop_is_the_manifolds_loop_line():
    doc = build_template("pod")
    rack_id = next(r for r in doc.racks if any(doc.catalog[d.type].kind == "rack_manifold" for d in doc.devices_in(r)))
    doc.add(Device(id=doc.new_id("dev"), type="cdu-rack-250kw", name="CDU1", rack=rack_id, u=40))
    History(doc).push(plan_hoses(doc))
    steps = leak_test_steps(doc, rack_id, "")
    assert steps[0] == ("Loop: MAN1 fed by the rack CDU, CDU1 SUP2 → MAN1 SUP12 and CDU1 RET2 → MAN1 RET12: "
                        "dry at test pressure")
    assert not any(step.startswith("Hose CDU1") for step in steps)
    assert sum(step.startswith("Hose ") for step in steps) == 8
