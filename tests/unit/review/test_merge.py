"""Three-way merge of plans, object by object and field by field (planner.review.merge): disjoint
edits made through the real commands merge to what applying both edit sequences one after the
other gives; the same change on both sides is no conflict; a field both changed, or an object one
side deleted and the other changed, is a conflict that keeps ours; objects both sides added under
one id both survive, theirs renumbered with every reference to it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from planner.asbuilt.states import set_state_command
from planner.commands.base import (
    AddCatalogItem,
    AddObjects,
    Command,
    SetAttributes,
    SetFields,
    SetOutline,
)
from planner.commands.comments import add_comment, reply
from planner.commands.edits import (
    assign,
    delete_objects,
    duplicate_objects,
    move_device,
    move_objects,
    place_busbar,
    place_device,
    place_rack,
    rotate_objects,
)
from planner.io import dumps, loads
from planner.layout.templates import build_template
from planner.model.catalog import CatalogItem
from planner.model.labels import cable_label
from planner.model.objects import COLLECTIONS, Link
from planner.review.merge import DELETED, merge_plans

Edit = Callable[[object], Command]


@pytest.fixture(scope="module")
def base_text() -> str:
    """A two-row hall of 64 nodes: 18 racks, about 160 devices, 1,024 cables."""
    return dumps(build_template("hall", 64))


def rack(doc, name):
    return next(r for r in doc.racks.values() if r.name == name)


def device(doc, rack_name, name):
    return next(d for d in doc.devices_in(rack(doc, rack_name).id) if d.name == name)


def fresh(doc, prefix: str, k: int = 1) -> str:
    """The k-th id a plan hands out next in a collection (``rack-19`` after ``rack-18``)."""
    attr = COLLECTIONS[prefix][0]
    return f"{prefix}-{max((int(i.split('-')[1]) for i in getattr(doc, attr)), default=0) + k}"


def newest(collection) -> str:
    """The id with the highest number: what the last add made."""
    return max(collection, key=lambda i: int(i.split("-")[1]))


def apply(doc, edits: list[Edit]):
    for edit in edits:
        edit(doc).apply(doc)
    return doc


def merge(base_text, ours_edits: list[Edit], theirs_edits: list[Edit]):
    ours, theirs = apply(loads(base_text), ours_edits), apply(loads(base_text), theirs_edits)
    return merge_plans(loads(base_text), ours, theirs), ours, theirs


def swap_leaf_ports(first: str, second: str) -> Edit:
    """Rewire two cables: their leaf ends trade ports."""
    def edit(doc):
        a, b = doc.links[first], doc.links[second]
        return SetFields({first: {"b_port": b.b_port}, second: {"b_port": a.b_port}}, text="Rewire")
    return edit


def same_leaf_links(doc, count: int) -> list[str]:
    leaf = doc.links["link-1"].b_device
    return [link.id for link in doc.links_of(leaf) if link.tier == "node-leaf"][:count]


def test_disjoint_edits_merge_to_both_sequences_applied(base_text):
    doc = loads(base_text)
    row_1 = [r.id for r in doc.racks.values() if r.row == "1"]
    a, b, c, d = same_leaf_links(doc, 4)
    ours_edits: list[Edit] = [
        lambda doc: move_objects(doc, row_1, 0.0, -0.3),                      # a row moved
        lambda doc: rotate_objects(doc, [rack(doc, "R18").id], 180),
        lambda doc: delete_objects(doc, [rack(doc, "R17").id]),                # with its devices and cables
        lambda doc: assign(doc, [rack(doc, "R10").id], "cdu", "fu-1"),
        lambda doc: SetAttributes("meta", {"revision": "B"}, text="Revision"),
        lambda doc: set_state_command(doc, [c], "run"),
    ]
    theirs_edits: list[Edit] = [
        swap_leaf_ports(a, b),                                                 # a re-cabling
        lambda doc: SetFields({"fu-2": {"name": "CDU-B"}}, text="Rename"),     # a CDU renamed
        lambda doc: move_device(doc, device(doc, "R12", "N1").id, rack(doc, "R12").id, 40),
        lambda doc: SetAttributes("basis", {"derating": 1.0}, text="IEC"),
        lambda doc: SetAttributes("meta", {"author": "Theirs"}, text="Author"),
        lambda doc: SetOutline([(0, 0), (30, 0), (30, 20), (0, 20)]),
        lambda doc: set_state_command(doc, [d], "faulty", "bent"),
        lambda doc: add_comment(doc, "Check the aisle", "theirs", rack(doc, "R02").x, rack(doc, "R02").y,
                                rack(doc, "R02").id, "2026-01-01T00:00:00Z"),  # a pin on R02
    ]
    result, _ours, _theirs = merge(base_text, ours_edits, theirs_edits)
    both = apply(apply(loads(base_text), ours_edits), theirs_edits)
    assert result.conflicts == [] and result.renumbered == {} and result.renamed == []
    assert dumps(result.doc) == dumps(both)
    assert result.from_theirs == 6  # objects: 2 cables rewired, the CDU, the device, a cable's state, the comment
    merged = result.doc
    assert merged.floor_units["fu-2"].name == "CDU-B" and merged.racks[rack(merged, "R10").id].cdu == "fu-1"
    assert merged.basis.derating == 1.0 and (merged.meta.revision, merged.meta.author) == ("B", "Theirs")


def test_the_same_change_on_both_sides_is_no_conflict(base_text):
    edits: list[Edit] = [lambda doc: move_objects(doc, [rack(doc, "R03").id], 0.6, 0.0),
                         lambda doc: SetFields({"fu-1": {"name": "CDU-A"}}, text="Rename"),
                         lambda doc: delete_objects(doc, [rack(doc, "R18").id]),
                         lambda doc: SetAttributes("basis", {"redundancy": "N+1"}, text="N+1")]
    result, ours, _theirs = merge(base_text, edits, edits)
    assert result.conflicts == [] and result.from_theirs == 0
    assert dumps(result.doc) == dumps(ours)


def test_a_field_both_changed_differently_keeps_ours_and_says_so(base_text):
    r03 = rack(loads(base_text), "R03").id
    result, _ours, _theirs = merge(
        base_text,
        [lambda doc: move_objects(doc, [r03], 0.6, 0.0), lambda doc: SetFields({"fu-1": {"name": "CDU-X"}})],
        [lambda doc: move_objects(doc, [r03], 0.0, 0.6), lambda doc: SetFields({"fu-1": {"name": "CDU-Y"}}),
         lambda doc: SetFields({r03: {"notes": "theirs"}})])
    position, name = result.conflicts
    assert (position.kind, position.name, position.field) == ("rack", "R03", "position")
    assert position.base == {"x": 5.6, "y": 3.0} and position.ours == {"x": 6.2, "y": 3.0}
    assert position.theirs == {"x": 5.6, "y": 3.6} and position.kept == "ours"
    assert "rack R03 (rack-3) position: base x=5.6, y=3.0 | ours x=6.2, y=3.0 | theirs x=5.6, y=3.6" in position.text
    assert (name.kind, name.field, name.base, name.ours, name.theirs) == ("floor_unit", "name", "CDU-01", "CDU-X", "CDU-Y")
    merged = result.doc.racks[r03]
    assert (merged.x, merged.y, merged.notes) == (6.2, 3.0, "theirs")  # theirs' other field is taken
    assert result.doc.floor_units["fu-1"].name == "CDU-X"


def test_x_and_y_move_together(base_text):
    """One side moving a rack east, the other north: a conflict, never a rack at a place neither chose."""
    r03 = rack(loads(base_text), "R03").id
    result, _ours, _theirs = merge(base_text, [lambda doc: move_objects(doc, [r03], 0.6, 0.0)],
                                   [lambda doc: SetFields({r03: {"y": 3.6}})])
    assert [c.field for c in result.conflicts] == ["position"]
    assert (result.doc.racks[r03].x, result.doc.racks[r03].y) == (6.2, 3.0)


def test_a_cable_rewired_on_both_sides_is_a_conflict_per_end(base_text):
    """Ours swaps the leaf ports of cables a and b, theirs those of a and c. Cable a: a conflict,
    ours kept (b's port). Then b (ours: a's old port) and c (theirs: a's old port) share a port:
    a second conflict, which puts c back on its port as ours has it."""
    doc = loads(base_text)
    a, b, c = same_leaf_links(doc, 3)
    port_a, port_b, port_c = (doc.links[i].b_port for i in (a, b, c))
    result, _ours, theirs = merge(base_text, [swap_leaf_ports(a, b)], [swap_leaf_ports(a, c)])
    field, twice = result.conflicts
    assert (field.id, field.field, field.name) == (a, "end B", cable_label(result.doc, result.doc.links[a]))
    assert field.ours["b_port"] == port_b and field.theirs == {"b_device": theirs.links[a].b_device, "b_port": port_c}
    assert (twice.id, twice.field, twice.theirs["b_port"], twice.ours["b_port"]) == (c, "ends", port_a, port_c)
    assert twice.reason.startswith("2 cables on port ") and "kept ours' a_device, a_port, b_device, b_port" in twice.kept
    links = result.doc.links
    assert (links[a].b_port, links[b].b_port, links[c].b_port) == (port_b, port_a, port_c)


def test_deleted_on_one_side_changed_on_the_other(base_text):
    r03 = rack(loads(base_text), "R03").id
    # ours deleted R03, theirs moved it: the rack stays deleted (ours)
    result, _ours, _theirs = merge(base_text, [lambda doc: delete_objects(doc, [r03])],
                                   [lambda doc: move_objects(doc, [r03], 0.6, 0.0)])
    (gone,) = result.conflicts
    assert (gone.name, gone.field, gone.ours, gone.reason) == ("R03", "position", DELETED,
                                                                "ours deleted it, theirs changed it")
    assert gone.theirs == {"x": 6.2, "y": 3.0} and r03 not in result.doc.racks
    # ours moved it, theirs deleted it: the rack stays, moved (ours), with the devices and cables
    # theirs' delete took along
    result, ours, theirs = merge(base_text, [lambda doc: move_objects(doc, [r03], 0.6, 0.0)],
                                 [lambda doc: delete_objects(doc, [r03])])
    (kept,) = result.conflicts
    assert (kept.theirs, kept.reason) == (DELETED, "ours changed it, theirs deleted it")
    base = loads(base_text)
    devices = base.devices_in(r03)
    cables = {link for d in devices for link in base.link_ids_of(d.id)}
    assert kept.kept == f"ours, with {len(devices)} devices, {len(cables)} cables theirs deleted or cleared along with it"
    assert result.doc.racks[r03].x == 6.2 and len(theirs.devices) == len(ours.devices) - len(devices)
    assert dumps(result.doc) == dumps(ours)


def test_a_busbar_kept_against_theirs_deletion_keeps_its_racks(base_text):
    result, ours, _theirs = merge(base_text, [lambda doc: SetFields({"bus-1": {"name": "BB-A01-new"}})],
                                  [lambda doc: delete_objects(doc, ["bus-1"])])
    (kept,) = result.conflicts
    fed = len(loads(base_text).racks_on_feed("bus-1"))
    assert kept.kept == f"ours, with {fed} rack assignments theirs deleted or cleared along with it"
    assert dumps(result.doc) == dumps(ours)


def test_one_side_deleting_what_the_other_left_alone_deletes_it(base_text):
    result, _ours, theirs = merge(base_text, [lambda doc: SetFields({"fu-1": {"name": "CDU-A"}})],
                                  [lambda doc: delete_objects(doc, [rack(doc, "R18").id])])
    assert result.conflicts == []
    assert set(result.doc.racks) == set(theirs.racks) and set(result.doc.links) == set(theirs.links)


def test_plan_settings_merge_field_by_field(base_text):
    item = CatalogItem(key="custom-rack", kind="rack", name="Custom rack", width_m=0.6, depth_m=1.2,
                       rack_units=42, weight_kg=150.0, max_load_kg=1500.0, max_power_kw=40.0)
    other = CatalogItem(key="custom-rack", kind="rack", name="Custom rack", width_m=0.6, depth_m=1.2,
                        rack_units=48, weight_kg=150.0, max_load_kg=1500.0, max_power_kw=40.0)
    result, _ours, _theirs = merge(
        base_text,
        [lambda doc: SetAttributes("basis", {"derating": 1.0, "fluid": "pg25"}, text="b"),
         lambda doc: SetOutline([(0, 0), (30, 0), (30, 20), (0, 20)]),
         lambda doc: AddCatalogItem(item)],
        [lambda doc: SetAttributes("basis", {"derating": 0.9, "delta_t_k": 8.0}, text="b"),
         lambda doc: SetOutline([(0, 0), (31, 0), (31, 20), (0, 20)]),
         lambda doc: AddCatalogItem(other)])
    assert {(c.kind, c.field) for c in result.conflicts} == {("basis", "derating"), ("outline", "polygon"),
                                                             ("type", "rack_units")}
    basis = result.doc.basis
    assert (basis.derating, basis.fluid, basis.delta_t_k) == (1.0, "pg25", 8.0)
    assert result.doc.outline[1] == (30.0, 0.0) and result.doc.catalog["custom-rack"].rack_units == 42
    types = next(c for c in result.conflicts if c.kind == "type")
    assert (types.base, types.ours, types.theirs, types.reason) == (None, 42, 48, "both added it, differently")


def test_same_id_added_on_both_sides_renumbers_theirs_with_every_reference(base_text):
    """Both sides place a rack and put a node in it, a busbar that feeds it, a cable from the node to
    a leaf and a comment on it: all get the same ids on both sides (the next free numbers). Theirs'
    are renumbered above both sides' maxima, references follow, and both sides' objects survive."""
    def add_rack_with_everything(x: float, note: str) -> list[Edit]:
        def cable(doc):
            node = doc.devices[newest(doc.devices)]
            leaf = doc.links["link-1"].b_device
            used = {link.b_port for link in doc.links_of(leaf)}
            free = [p for p in doc.catalog[doc.devices[leaf].type].port_names() if p not in used]
            return AddObjects([Link(id=doc.new_id("link"), a_device=node.id, a_port="P1", b_device=leaf,
                                    b_port=free[0 if note == "ours" else 1], tier="node-leaf", rail=1,
                                    label=f"{note} cable")])
        return [
            lambda doc: place_rack(doc, "rack-600x1200-48u", x, 12.0),
            lambda doc: place_device(doc, "node-8gpu-liquid-4u", newest(doc.racks)),
            lambda doc: place_busbar(doc, "busbar-800a", x - 1, 11.4, x + 1, 11.4, side="A"),
            lambda doc: assign(doc, [newest(doc.racks)], "feed_a", newest(doc.busbars)),
            cable,
            lambda doc: add_comment(doc, f"{note} rack", note, x, 12.0, newest(doc.racks), "2026-01-01T00:00:00Z"),
            lambda doc: reply(doc, newest(doc.comments), "ok", note, "2026-01-02T00:00:00Z"),
        ]
    result, ours, theirs = merge(base_text, add_rack_with_everything(20.0, "ours"),
                                 add_rack_with_everything(24.0, "theirs"))
    assert result.conflicts == []
    base = loads(base_text)
    new = {fresh(base, p): fresh(base, p, 2) for p in ("rack", "dev", "bus", "link")}
    new.update({"cmt-1": "cmt-3", "cmt-2": "cmt-4"})
    r19, r20, d1, d2, b1, b2, l2 = (fresh(base, "rack"), fresh(base, "rack", 2), fresh(base, "dev"),
                                    fresh(base, "dev", 2), fresh(base, "bus"), fresh(base, "bus", 2),
                                    fresh(base, "link", 2))
    assert result.renumbered == new
    doc = result.doc
    for old, moved in new.items():  # ours' object under the id, theirs' under the fresh one
        assert doc.get(old) == ours.get(old)
        assert moved not in ours and moved not in theirs
    rack_t, node_t, cable_t = doc.racks[r20], doc.devices[d2], doc.links[l2]
    assert (rack_t.x, rack_t.feed_a) == (24.0, b2) and doc.racks[r19].feed_a == b1
    assert node_t.rack == r20 and cable_t.a_device == d2 and cable_t.label == "theirs cable"
    assert doc.devices[d1].rack == r19
    assert doc.comments["cmt-3"].target == r20 and doc.comments["cmt-4"].reply_to == "cmt-3"
    # both new racks took R19: theirs' is renamed to the next free name, as if added after ours
    assert (doc.racks[r19].name, rack_t.name) == ("R19", "R20")
    assert result.renamed == [{"kind": "busbar", "id": b2, "theirs_name": "BB-A05", "name": "BB-A06"},
                              {"kind": "rack", "id": r20, "theirs_name": "R19", "name": "R20"}]
    assert [r["theirs_id"] for r in result.to_json()["renumbered"]] == list(new)
    assert loads(dumps(doc)) is not None


def test_identical_additions_are_kept_once(base_text):
    """Both sides duplicated R01 the same way: the same new objects, kept once, not renumbered."""
    edits: list[Edit] = [lambda doc: duplicate_objects(doc, [rack(doc, "R01").id], 0.0, 6.0)]
    result, ours, _theirs = merge(base_text, edits, edits + [lambda doc: SetFields({"fu-1": {"name": "CDU-A"}})])
    assert result.conflicts == [] and result.renumbered == {} and result.renamed == []
    assert len(result.doc.racks) == len(ours.racks) == 19
    assert result.doc.floor_units["fu-1"].name == "CDU-A"


def test_identical_additions_in_different_new_racks_are_different_objects(base_text):
    """The same device content in a rack that is not the same rack is another device: renumbered."""
    base = loads(base_text)
    r19, r20, d1, d2 = fresh(base, "rack"), fresh(base, "rack", 2), fresh(base, "dev"), fresh(base, "dev", 2)
    edits: list[Edit] = [lambda doc: place_rack(doc, "rack-600x1200-48u", 20.0, 12.0),
                         lambda doc: place_device(doc, "storage-flash-2u", r19, 1)]
    moved: list[Edit] = [lambda doc: place_rack(doc, "rack-600x1200-48u", 24.0, 12.0),
                         lambda doc: place_device(doc, "storage-flash-2u", r19, 1)]
    result, _ours, _theirs = merge(base_text, edits, moved)
    assert result.renumbered == {r19: r20, d1: d2}
    assert result.doc.devices[d2].rack == r20 and result.doc.devices[d1].rack == r19
