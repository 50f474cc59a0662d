"""Review comments as commands: each edit is one undo step that restores the plan exactly, is
named in the undo history, and pins follow the object they are on."""

from __future__ import annotations

import re

import pytest

from planner.commands import History, Refusal
from planner.commands.comments import (
    add_comment,
    anchor_of,
    delete_comment,
    edit_text,
    is_reply,
    move_pin,
    now_iso,
    numbers,
    pin_position,
    reply,
    root_of,
    set_status,
    target_name,
    threads,
    top_level,
    where,
)
from planner.commands.edits import delete_objects, move_objects
from planner.io import dumps, loads
from planner.model.objects import Comment

DATE = "2026-12-01T09:30:00Z"


def rid(doc, name):
    return next(r.id for r in doc.racks.values() if r.name == name)


def round_trip(doc, command):
    """apply → revert → apply: the revert gives back the very bytes of the file, the redo the edit."""
    before = dumps(doc)
    command.apply(doc)
    after = dumps(doc)
    assert after != before
    command.revert(doc)
    assert dumps(doc) == before
    command.apply(doc)
    assert dumps(doc) == after
    return after


@pytest.fixture
def reviewed(core_doc):
    """core_hall with comment 1 on R05 (two replies) and comment 2 on a point of the floor."""
    history = History(core_doc)
    r05 = core_doc.racks[rid(core_doc, "R05")]
    history.push(add_comment(core_doc, "Move R05 one tile east", "Ana", r05.x + 0.2, r05.y - 0.1, r05.id, DATE))
    history.push(add_comment(core_doc, "Column too close?", "Ben", 12.0, 3.0, date=DATE))
    first, _second = (c.id for c in top_level(core_doc))
    history.push(reply(core_doc, first, "Agreed", "Ben", DATE))
    history.push(reply(core_doc, first, "Done in rev B", "Ana", DATE))
    return core_doc


def test_a_pin_on_an_object_is_stored_as_an_offset_from_its_centre_and_follows_it(core_doc):
    r05 = core_doc.racks[rid(core_doc, "R05")]
    command = add_comment(core_doc, "Check the floor here", "Ana", r05.x + 0.25, r05.y - 0.1, r05.id, DATE)
    assert command.text == "Add comment 1 on R05"
    round_trip(core_doc, command)
    comment = next(iter(core_doc.comments.values()))
    assert (comment.x, comment.y, comment.target, comment.status) == (0.25, -0.1, r05.id, "open")
    assert pin_position(core_doc, comment) == pytest.approx((r05.x + 0.25, r05.y - 0.1))
    move_objects(core_doc, [r05.id], 1.2, 0.6).apply(core_doc)  # a move knows nothing of comments
    assert pin_position(core_doc, comment) == pytest.approx((r05.x + 0.25, r05.y - 0.1))
    assert r05.x == pytest.approx(comment.x + anchor_of(core_doc, r05.id)[0] - 0.25)


def test_a_pin_on_a_point_stays_there_and_the_date_is_utc_iso_8601(core_doc):
    command = add_comment(core_doc, "  Door swing?  ", "", 3.3333, 4.0)
    assert command.text == "Add comment 1"
    command.apply(core_doc)
    comment = next(iter(core_doc.comments.values()))
    assert (comment.text, comment.x, comment.y, comment.target) == ("Door swing?", 3.333, 4.0, "")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", comment.date)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", now_iso())
    assert where(core_doc, comment) == "at 3.33, 4.00 m"


def test_replies_thread_under_their_comment_and_a_reply_to_a_reply_joins_the_thread(reviewed):
    first, second = top_level(reviewed)
    assert numbers(reviewed) == {first.id: 1, second.id: 2}
    replies = threads(reviewed)[first.id]
    assert [r.text for r in replies] == ["Agreed", "Done in rev B"]
    assert threads(reviewed)[second.id] == []
    command = reply(reviewed, replies[0].id, "Thanks", "Cy", DATE)
    assert command.text == "Reply to comment 1"
    round_trip(reviewed, command)
    new = command.objects[0]
    assert new.reply_to == first.id and is_reply(reviewed, new) and pin_position(reviewed, new) is None
    assert [r.text for r in threads(reviewed)[first.id]] == ["Agreed", "Done in rev B", "Thanks"]


def test_edit_resolve_reopen_and_move_are_one_step_each_and_named(reviewed):
    first, second = top_level(reviewed)
    answer = threads(reviewed)[first.id][0]
    cases = [
        (edit_text(reviewed, second.id, "Column 0.4 m from R09"), "Edit comment 2"),
        (edit_text(reviewed, answer.id, "Agreed, one tile"), "Edit reply to comment 1"),
        (set_status(reviewed, second.id, "resolved"), "Resolve comment 2"),
        (set_status(reviewed, answer.id, "resolved"), "Resolve comment 1"),  # a reply resolves its thread
        (move_pin(reviewed, second.id, 14.0, 2.5), "Move the pin of comment 2"),
    ]
    for command, text in cases:
        assert command.text == text
        round_trip(reviewed, command)
    assert (second.text, second.status, second.x, second.y) == ("Column 0.4 m from R09", "resolved", 14.0, 2.5)
    assert first.status == "resolved" and answer.status == "open"
    reopen = set_status(reviewed, first.id, "open")
    assert reopen.text == "Reopen comment 1"
    round_trip(reviewed, reopen)
    assert first.status == "open"


def test_moving_a_pin_on_an_object_keeps_it_on_the_object_or_frees_it(reviewed):
    first = top_level(reviewed)[0]
    r05 = reviewed.racks[first.target]
    move_pin(reviewed, first.id, r05.x - 0.3, r05.y).apply(reviewed)
    assert (first.target, first.x, first.y) == (r05.id, -0.3, 0.0)
    move_pin(reviewed, first.id, 1.0, 2.0, target="").apply(reviewed)
    assert (first.target, first.x, first.y) == ("", 1.0, 2.0)


def test_delete_takes_the_replies_and_undo_brings_every_one_back(reviewed):
    first, second = top_level(reviewed)
    before = dumps(reviewed)
    history = History(reviewed)
    command = delete_comment(reviewed, first.id)
    assert command.text == "Delete comment 1 (2 replies)"
    history.push(command)
    assert set(reviewed.comments) == {second.id}
    assert numbers(reviewed) == {second.id: 1}  # numbers are the order among the comments left
    history.undo()
    assert dumps(reviewed) == before
    history.redo()
    assert set(reviewed.comments) == {second.id}
    history.undo()
    answer = threads(reviewed)[first.id][1]
    one = delete_comment(reviewed, answer.id)
    assert one.text == "Delete reply to comment 1"
    round_trip(reviewed, one)
    assert delete_comment(reviewed, second.id).text == "Delete comment 2"


def test_comments_survive_the_file_and_a_deleted_target_leaves_the_text_without_a_pin(reviewed):
    again = loads(dumps(reviewed))
    assert dumps(again) == dumps(reviewed)
    first = top_level(again)[0]
    assert target_name(again, first) == "R05"
    delete_objects(again, [first.target]).apply(again)
    assert pin_position(again, first) is None and target_name(again, first) is None
    assert where(again, first) == f"on {first.target} (deleted)"
    assert move_pin(again, first.id, 5.0, 6.0).values == {first.id: {"x": 5.0, "y": 6.0, "target": ""}}


def test_pins_on_devices_cables_busbars_and_zones_take_their_anchor(core_doc):
    r01 = core_doc.racks[rid(core_doc, "R01")]
    device = core_doc.devices_in(r01.id)[1]
    assert anchor_of(core_doc, device.id) == (r01.x, r01.y)
    bus = core_doc.busbars["bus-1"]
    assert anchor_of(core_doc, "bus-1") == ((bus.x1 + bus.x2) / 2, (bus.y1 + bus.y2) / 2)
    zone = next(iter(core_doc.zones.values()))
    xs, ys = [p[0] for p in zone.polygon], [p[1] for p in zone.polygon]
    assert anchor_of(core_doc, zone.id) == ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    command = add_comment(core_doc, "Which PDU?", "Ana", r01.x, r01.y, device.id, DATE)
    assert command.text == f"Add comment 1 on {device.name} in R01"
    assert anchor_of(core_doc, "nothing-1") is None and anchor_of(core_doc, "") is None


@pytest.mark.parametrize("make, reason", [
    (lambda d: add_comment(d, "   \n ", "Ana", 1, 1), "needs some text"),
    (lambda d: add_comment(d, "x" * 10_001, "Ana", 1, 1), "text"),
    (lambda d: add_comment(d, "bell \x07", "Ana", 1, 1), "text"),
    (lambda d: add_comment(d, "ok", "Ana", 1, 1, target="rack-999"), "no object"),
    (lambda d: add_comment(d, "ok", "Ana", 1e6, 1), "x"),
    (lambda d: reply(d, "cmt-99", "ok", "Ana"), "no comment"),
    (lambda d: set_status(d, top_level(d)[0].id, "maybe"), "not one of"),
    (lambda d: move_pin(d, threads(d)[top_level(d)[0].id][0].id, 1, 1), "no pin of its own"),
])
def test_refusals_say_why(reviewed, make, reason):
    with pytest.raises(Refusal, match=reason):
        make(reviewed)


def test_a_ten_thousand_character_comment_with_line_breaks_is_kept_whole(core_doc):
    text = ("Line of review text. " * 24 + "\n") * 19
    text = text[:10_000].strip()
    command = add_comment(core_doc, text, "Ana", 1, 1, date=DATE)
    round_trip(core_doc, command)
    assert loads(dumps(core_doc)).comments[command.objects[0].id].text == text


def test_a_hand_edited_reply_loop_still_shows_every_comment_once(core_doc):
    core_doc.add(Comment(id="cmt-1", text="a", reply_to="cmt-2"))
    core_doc.add(Comment(id="cmt-2", text="b", reply_to="cmt-1"))
    core_doc.add(Comment(id="cmt-3", text="c", reply_to="cmt-9"))  # its comment is gone: shown as one
    assert [c.id for c in top_level(core_doc)] == ["cmt-1", "cmt-3"]
    assert [c.id for c in threads(core_doc)["cmt-1"]] == ["cmt-2"]
    assert root_of(core_doc, core_doc.comments["cmt-2"]).id == "cmt-1"
