"""The leak and pressure test of one rack's coolant connections, for the commissioning
document's install checklist (issue 21 part 4): the manifold's loop to its CDU, every hose from a
device's quick-disconnect to the manifold's, then the test's reading. One line per connection,
each ticked on site, so no QD is signed off unseen.

The hoses are the plan's (``doc.links_in(COOLANT)``), in the manifold's pair order; a liquid-cooled
device without a hose is C10's, not a line here (the paper prints what is to be made and tested).
"""

from __future__ import annotations

from planner.model.catalog import RACK_CDU, RACK_MANIFOLD
from planner.model.document import Document, natural_key
from planner.model.objects import Link
from planner.model.ports import COOLANT, SUPPLY_STEM


def _pair_key(port: str) -> tuple:
    """Pair number, then supply before return ("SUP3", "RET3")."""
    number = port.lstrip("SUPRET")
    return (int(number) if number.isdigit() else 0, not port.startswith(SUPPLY_STEM), port)


def rack_hoses(doc: Document, rack_id: str) -> list[tuple[Link, str, str]]:
    """(hose, device end, manifold end) of a rack's hoses, manifold by name then pair order,
    each end printed as "N1 SUP1"."""
    manifolds = {d.id: d for d in doc.devices_in(rack_id) if doc.catalog[d.type].kind == RACK_MANIFOLD}
    found = []
    for link in doc.links_in(COOLANT).values():
        if link.b_device in manifolds:
            device, manifold = doc.devices.get(link.a_device), manifolds[link.b_device]
            found.append((link, f"{device.name if device else link.a_device} {link.a_port}",
                          f"{manifold.name} {link.b_port}", (natural_key(manifold.name), _pair_key(link.b_port))))
    found.sort(key=lambda entry: entry[3])
    return [(link, a, b) for link, a, b, _key in found]


def _size(doc: Document, link: Link) -> str:
    for device_id in (link.b_device, link.a_device):
        device = doc.devices.get(device_id)
        if device is not None and doc.catalog[device.type].qd_size:
            return doc.catalog[device.type].qd_size
    return "size not given"


def leak_test_steps(doc: Document, rack_id: str, cdu_name: str) -> list[str]:
    """One liquid-cooled rack's leak-test lines: each manifold's loop to its CDU, every hose, then
    the test reading."""
    hoses = rack_hoses(doc, rack_id)
    manifolds = [d for d in doc.devices_in(rack_id) if doc.catalog[d.type].kind == RACK_MANIFOLD]
    steps = []
    kinds = {device.id: doc.catalog[device.type].kind for device in doc.devices_in(rack_id)}
    loops = [(link, a, b) for link, a, b in hoses if kinds.get(link.a_device) == RACK_CDU]
    for manifold in sorted(manifolds, key=lambda d: natural_key(d.name)):
        fed = [f"{a} → {b}" for link, a, b in loops if link.b_device == manifold.id]
        if fed:
            steps.append(f"Loop: {manifold.name} fed by the rack CDU, {' and '.join(fed)}: dry at test pressure")
        elif cdu_name:
            steps.append(f"Loop: {manifold.name} supply and return headers → {cdu_name} (facility pipework): "
                         f"dry at test pressure")
        else:
            steps.append(f"Loop: {manifold.name} is on no CDU loop (C4): connect before the test")
    for link, a, b in hoses:
        if kinds.get(link.a_device) != RACK_CDU:
            length = f"{link.stock_m or link.length_m:g} m hose"
            steps.append(f"Hose {a} → {b} · {_size(doc, link)} · {length}: seated, dry at test pressure")
    steps.append("Leak test: pressure ______ kPa, duration ______ min, result pass ☐ fail ☐")
    return steps
