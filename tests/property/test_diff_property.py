"""diff(A, apply(A)) names exactly the objects the edits touched.

Random sequences of real edits (planner.commands.edits and the primitive commands) on a 16-node
pod; the Changes the commands return are folded together (``Change.merge``: an object added
then removed is just gone) and compared with ``touched_ids`` of the diff against the plan before.
Edits never put a value back (moves go one way, names and ports are fresh, each object turns,
moves to another rack or changes media at most once), so every object an edit touched really
differs at the end and the two sets must be equal.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.asbuilt.states import set_state_command
from planner.commands import edits
from planner.commands.base import AddObjects, Command, RemoveObjects, SetFields
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.change import Change
from planner.model.objects import CABLE_STATES, Comment
from planner.review.diff import diff_plans

POD_TEXT = dumps(build_template("pod", nodes=16))
KINDS = ["move", "rotate", "rename", "delete", "delete_device", "place", "duplicate", "move_device", "rewire",
         "media", "state", "delete_link", "comment", "move_busbar", "delete_busbar"]


class Walk:
    """One random edit sequence and what it has used up (so that no edit puts a value back)."""

    def __init__(self, data) -> None:
        self.data = data
        self.doc = loads(POD_TEXT)
        self.count = 0
        self.once: set[tuple[str, str]] = set()

    def pick(self, ids, label: str, once: str = "") -> str | None:
        ids = sorted(i for i in ids if (once, i) not in self.once)
        if not ids:
            return None
        chosen = self.data.draw(st.sampled_from(ids), label=label)
        if once:
            self.once.add((once, chosen))
        return chosen

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def command(self, kind: str) -> Command | None:
        doc, data = self.doc, self.data
        step = st.sampled_from([0.4, 0.8, 1.2])
        if kind == "move" and (rack := self.pick(doc.racks, "rack")):
            return edits.move_objects(doc, [rack], data.draw(step), data.draw(step))
        if kind == "rotate" and (rack := self.pick(doc.racks, "rack", once="rotate")):
            return edits.rotate_objects(doc, [rack], 90)
        if kind == "rename" and (target := self.pick([*doc.racks, *doc.floor_units, *doc.devices], "renamed")):
            return SetFields({target: {"name": self.fresh("X")}})
        if kind == "delete" and (rack := self.pick(doc.racks, "deleted rack")):
            return edits.delete_objects(doc, [rack])
        if kind == "delete_device" and (device := self.pick(doc.devices, "deleted device")):
            return edits.delete_objects(doc, [device])
        if kind == "place":
            return edits.place_rack(doc, "rack-800x1200-52u", data.draw(st.sampled_from([2.0, 6.0, 9.0])), 5.4)
        if kind == "duplicate" and (rack := self.pick(doc.racks, "duplicated")):
            return edits.duplicate_objects(doc, [rack], 0.0, 2.4)
        if kind == "move_device" and (device := self.pick(doc.devices, "moved device", once="move_device")):
            height = doc.catalog[doc.devices[device].type].height_u
            racks = [r for r in doc.racks if r != doc.devices[device].rack and height
                     and doc.lowest_free_u(r, height) is not None]
            if rack := self.pick(racks, "to rack"):
                return edits.move_device(doc, device, rack, doc.lowest_free_u(rack, height))
            return None
        if kind == "rewire" and (link := self.pick(doc.links, "rewired")):
            return SetFields({link: {"b_port": self.fresh("spare-")}})  # no port is named so
        if kind == "media" and (link := self.pick(doc.links, "media", once="media")):
            media = data.draw(st.sampled_from(sorted({"dac", "acc", "sr4", "dr4"} - {doc.links[link].media})))
            return SetFields({link: {"media": media}})
        if kind == "state" and (link := self.pick(doc.links, "state", once="state")):
            return set_state_command(doc, [link], data.draw(st.sampled_from(CABLE_STATES[1:])))
        if kind == "delete_link" and (link := self.pick(doc.links, "deleted link")):
            return RemoveObjects([link])
        if kind == "comment":
            return AddObjects([Comment(id=doc.new_id("cmt"), text=self.fresh("note "), x=1.0, y=1.0)])
        if kind == "move_busbar" and (bus := self.pick(doc.busbars, "busbar")):
            return edits.move_objects(doc, [bus], data.draw(step), 0.0)
        if kind == "delete_busbar" and (bus := self.pick(doc.busbars, "deleted busbar")):
            return edits.delete_objects(doc, [bus])  # and clears the feed of the racks on it
        return None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_diff_names_exactly_what_the_edits_touched(data):
    walk = Walk(data)
    before = loads(POD_TEXT)
    touched = Change()
    for _ in range(data.draw(st.integers(1, 8), label="steps")):
        command = walk.command(data.draw(st.sampled_from(KINDS), label="kind"))
        if command is not None:
            touched.merge(command.apply(walk.doc))
    diff = diff_plans(before, walk.doc, consequences=False)
    assert diff.touched_ids() == touched.touched
    assert diff.is_empty == (not touched.touched)
    # each id is in the list its change belongs to
    assert {e["id"] for e in diff.added if e["kind"] != "type"} | {e["id"] for e in diff.cables["added"]} \
        == touched.added
    assert {e["id"] for e in diff.removed if e["kind"] != "type"} | {e["id"] for e in diff.cables["removed"]} \
        == touched.removed
