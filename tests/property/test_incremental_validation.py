"""Incremental validation equals a full run after any sequence of edits, undos and redos."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.commands import edits
from planner.commands.base import AddObjects, History, RemoveObjects, SetAttributes, SetFields
from planner.commands.edits import Refusal
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.objects import Link, Zone
from planner.resources_access import example_hall_path
from planner.rules.engine import Validator, validate

EXAMPLE_TEXT = example_hall_path().read_text(encoding="utf-8")
DEVICE_TYPES = ["node-8gpu-liquid-4u", "node-8gpu-air-8u", "sw-64x400g-1u", "pdu-rack-3ph-63a", "cdu-rack-250kw"]


def _pick(data, ids, label):
    ids = sorted(ids)
    return data.draw(st.sampled_from(ids), label=label) if ids else None


def _command(doc, data):
    """One random edit of the kinds a user makes, or None when it does not apply."""
    kind = data.draw(st.sampled_from([
        "move", "move", "rotate", "delete", "duplicate", "assign", "device", "move_device", "delete_device",
        "move_unit", "zone", "rename", "basis", "busbar_type", "remove_cdu_raw", "move_obstacle",
        "place_cabinet", "phases", "move_busbar",
    ]), label="kind")
    rack = _pick(data, doc.racks, "rack")
    step = st.sampled_from([-2.4, -1.2, -0.8, -0.4, 0.4, 0.8, 1.2, 2.4, 9.0])
    if kind == "move" and rack:
        return edits.move_objects(doc, [rack], data.draw(step), data.draw(step))
    if kind == "rotate" and rack:
        return edits.rotate_objects(doc, [rack], 90)
    if kind == "delete":
        target = _pick(data, [*doc.racks, *doc.busbars, *doc.floor_units], "victim")
        return edits.delete_objects(doc, [target]) if target else None
    if kind == "duplicate" and rack:
        return edits.duplicate_objects(doc, [rack], data.draw(step), data.draw(step))
    if kind == "assign" and rack:
        field = data.draw(st.sampled_from(["feed_a", "feed_b", "cdu"]))
        if field == "cdu":
            choices = [u for u in doc.floor_units if doc.catalog[doc.floor_units[u].type].kind == "row_cdu"]
            choices += [d for d in doc.devices if doc.catalog[doc.devices[d].type].kind == "rack_cdu"]
        else:
            side = "A" if field == "feed_a" else "B"
            choices = [b for b in doc.busbars if doc.busbars[b].side == side]
        target = data.draw(st.sampled_from([None, *sorted(choices)]))
        return edits.assign(doc, [rack], field, target)
    if kind == "device" and rack:
        return edits.place_device(doc, data.draw(st.sampled_from(DEVICE_TYPES)), rack)
    if kind == "move_device":
        device = _pick(data, doc.devices, "device")
        if device and rack:
            height = doc.catalog[doc.devices[device].type].height_u
            u = 0 if height == 0 else doc.lowest_free_u(rack, height, ignore=device)
            return edits.move_device(doc, device, rack, u) if u is not None else None
    if kind == "delete_device":
        device = _pick(data, doc.devices, "device")
        return edits.delete_objects(doc, [device]) if device else None
    if kind == "move_unit":
        unit = _pick(data, doc.floor_units, "unit")
        return edits.move_objects(doc, [unit], data.draw(step), data.draw(step)) if unit else None
    if kind == "zone":
        zone = _pick(data, doc.zones, "zone")
        rating = data.draw(st.sampled_from([3.0, 5.0, 7.2, 12.0]))
        if zone and data.draw(st.booleans()):
            return SetFields({zone: {"rating_kpa": rating, "air_capacity_kw": 50.0}})
        polygon = [(0.0, 0.0), (5.0, 0.0), (5.0, 18.0), (0.0, 18.0)]
        new = Zone(id=doc.new_id("zone"), name="Weak", polygon=polygon, rating_kpa=rating,
                   tile_rating_kn=data.draw(st.sampled_from([0.0, 1.0])), rolling_rating_kn=1.0, air_capacity_kw=20.0)
        return edits.AddObjects([new])
    if kind == "rename" and rack:
        return SetFields({rack: {"name": data.draw(st.sampled_from(["X1", "R99", "A"]))}})
    if kind == "basis":
        values = data.draw(st.sampled_from([{"redundancy": "N+1"}, {"load_basis": "steady"},
                                            {"floor_method": "ibm"}, {"derating": 1.0}, {"front_aisle_min_m": 2.5}]))
        return SetAttributes("basis", values, "basis")
    if kind == "busbar_type":
        bus = _pick(data, doc.busbars, "bus")
        return SetFields({bus: {"type": "busbar-400a", "name": "BB-X"}}) if bus else None
    if kind == "remove_cdu_raw":
        unit = _pick(data, doc.floor_units, "unit")
        return RemoveObjects([unit]) if unit else None  # leaves dangling cdu references
    if kind == "move_obstacle":
        obs = _pick(data, doc.obstacles, "obstacle")
        if obs:
            dx = data.draw(step)
            polygon = [(x + dx, y) for x, y in doc.obstacles[obs].polygon]
            return SetFields({obs: {"polygon": polygon}})
    if kind == "place_cabinet":
        return edits.place_floor_unit(doc, "cabinet-630a", data.draw(st.sampled_from([2.8, 5.0, 11.0])), 3.4)
    if kind == "move_busbar":  # P5: the racks on a busbar come into or out of its tap-off reach
        bus = _pick(data, doc.busbars, "moved bus")
        return edits.move_objects(doc, [bus], data.draw(step), data.draw(step)) if bus else None
    if kind == "phases" and rack:
        return SetFields({rack: {"phases": data.draw(st.sampled_from(["L1", "L1L2", "L1L2L3"]))}})
    return None


def _hall_with_small_trays() -> str:
    """Three rows with cross-aisle trays, trays shrunk so that fills cross the warning and limit."""
    doc = build_template("hall", nodes=96)
    doc.basis.row_tray_width_m = doc.basis.row_tray_depth_m = 0.05
    doc.basis.cross_tray_width_m, doc.basis.cross_tray_depth_m = 0.06, 0.05
    return dumps(doc)


HALL_TEXT = _hall_with_small_trays()


def _cable_command(doc, data):
    """An edit of the cabling itself, or one of the plan edits of ``_command``."""
    kind = data.draw(st.sampled_from(["media", "delete_link", "rewire", "connect", "cut_off", "rename_device", "role",
                                      "plan", "plan", "plan"]), label="cable kind")
    link = _pick(data, doc.links, "link")
    if kind == "media" and link:
        return SetFields({link: {"media": data.draw(st.sampled_from(["dac", "acc", "sr4", ""]))}})
    if kind == "delete_link" and link:
        return RemoveObjects([link])
    if kind == "rewire" and link:  # the far end onto another device's port: N2, N4–N6 change
        device = _pick(data, doc.devices, "device")
        return SetFields({link: {"b_device": device, "b_port": "1/1"}}) if device else None
    if kind == "connect":  # a cable by hand: maybe onto a used port (N2), maybe no fabric tier
        a, b = _pick(data, doc.devices, "a end"), _pick(data, doc.devices, "b end")
        tier = data.draw(st.sampled_from(["node-leaf", "leaf-spine", ""]), label="tier")
        if a and b and a != b:
            return AddObjects([Link(id=doc.new_id("link"), a_device=a, a_port="1/2", b_device=b, b_port="P1",
                                    tier=tier)])
        return None
    if kind == "cut_off" and link:  # every cable of one end's device: the device drops out (N6)
        return RemoveObjects(sorted(doc.link_ids_of(doc.links[link].a_device)))
    device = _pick(data, doc.devices, "renamed device")
    if kind == "rename_device" and device:
        return SetFields({device: {"name": data.draw(st.sampled_from(["N1", "L9", "S1"]))}})
    if kind == "role" and device:
        return SetFields({device: {"role": data.draw(st.sampled_from(["", "leaf", "spine"]))}})
    return _command(doc, data)


def _edit_and_compare(data, text, make_command):
    doc = loads(text)
    history = History(doc)
    validator = Validator(doc)
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        action = data.draw(st.sampled_from(["edit", "edit", "edit", "undo", "redo"]), label="action")
        if action == "undo" and history.can_undo:
            change = history.undo()
        elif action == "redo" and history.can_redo:
            change = history.redo()
        else:
            try:
                command = make_command(doc, data)
            except Refusal:
                command = None
            if command is None:
                continue
            change = history.push(command)
        validator.update(change)
        assert validator.findings == validate(doc)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_incremental_equals_full_run(data):
    _edit_and_compare(data, EXAMPLE_TEXT, _command)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_incremental_equals_full_run_across_rows_and_trays(data):
    _edit_and_compare(data, HALL_TEXT, _cable_command)
