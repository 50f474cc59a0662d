"""Review comments (DESIGN §3) as undoable edits, and the reading of them every view shares.

A comment is a note pinned to a point of the plan or to an object; replies hang under it. The
GUI, ``planner comments`` and the review PDF all number, thread and place pins through the
functions here, so a pin numbered 3 on screen is comment 3 on paper and in the terminal.

Where a pin is, and why: a comment on a point stores the point (``x``, ``y``, metres). A comment
on an object (``target``) stores its pin's *offset from the object's anchor* in ``x``, ``y``, the
anchor being the object's centre (``anchor_of``). So when a rack moves, its comments move with
it without any edit to them: a move stays one command that knows nothing of comments, and a diff
of two revisions shows a moved rack, not a rack and its comments. A comment whose object has
been deleted keeps its text but has no pin (``pin_position`` is None) until its pin is moved.

Numbers: top-level comments are numbered 1, 2, 3 … in the order they were made (their ids grow
and are never reused), counting resolved ones, so resolving a comment never renumbers the rest.
A reply belongs to the thread of the comment it answers (a reply to a reply joins the same
thread); a reply whose comment is not in the plan (a merge left it) is shown as a comment.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from planner.commands.base import AddObjects, RemoveObjects, SetFields
from planner.commands.checks import Refusal, value_problem
from planner.commands.edits import object_name
from planner.model.document import Document, natural_key, prefix_of
from planner.model.geometry import bounds_of
from planner.model.objects import COMMENT_STATUSES, Comment, Point

OPEN, RESOLVED = COMMENT_STATUSES
#: Pins are stored to the millimetre: enough for a pin, and the .hall file stays readable.
PLACES = 3


def now_iso() -> str:
    """The time now in UTC, ISO 8601 to the second (``2026-12-01T05:24:44Z``): comments from
    people in different time zones then sort and read the same."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# ----------------------------------------------------------------- reading
def anchor_of(doc: Document, obj_id: str) -> Point | None:
    """The point a pin on ``obj_id`` is offset from: the centre of a rack or floor unit, the middle
    of a busbar run or door, the centre of a zone's or obstacle's bounds, a hand-off's point; a
    device's rack's centre; the middle between a cable's two racks. None when it is not there."""
    obj = doc.find(obj_id) if obj_id else None
    if obj is None or prefix_of(obj_id) in ("cmt", "ul"):
        return None
    prefix = prefix_of(obj_id)
    if prefix == "dev":
        return anchor_of(doc, obj.rack)
    if prefix == "link":
        ends = [anchor_of(doc, end) for end in (obj.a_device, obj.b_device)]
        if None in ends:
            return None
        (ax, ay), (bx, by) = ends  # type: ignore[misc]
        return (ax + bx) / 2, (ay + by) / 2
    if hasattr(obj, "polygon"):
        x0, y0, x1, y1 = bounds_of(obj.polygon)
        return (x0 + x1) / 2, (y0 + y1) / 2
    if hasattr(obj, "x1"):
        return (obj.x1 + obj.x2) / 2, (obj.y1 + obj.y2) / 2
    return obj.x, obj.y


def root_of(doc: Document, comment: Comment) -> Comment:
    """The top-level comment of the thread ``comment`` belongs to (itself when top-level).

    Walks ``reply_to`` up to a comment that answers nothing in the plan. A loop (only a
    hand-edited file can hold one) is a thread whose first-made comment is its top."""
    chain: list[str] = []
    while comment.reply_to in doc.comments and comment.id not in chain:
        chain.append(comment.id)
        comment = doc.comments[comment.reply_to]
    if comment.id in chain:
        return doc.comments[min(chain[chain.index(comment.id):], key=natural_key)]
    return comment


def is_reply(doc: Document, comment: Comment) -> bool:
    """Whether the comment sits in another's thread (it has no pin and no number of its own)."""
    return root_of(doc, comment) is not comment


def top_level(doc: Document) -> list[Comment]:
    """Top-level comments in the order they were made."""
    return sorted((c for c in doc.comments.values() if not is_reply(doc, c)), key=lambda c: natural_key(c.id))


def numbers(doc: Document) -> dict[str, int]:
    """Top-level comment id → its number (1 for the first made)."""
    return {c.id: number for number, c in enumerate(top_level(doc), start=1)}


def threads(doc: Document) -> dict[str, list[Comment]]:
    """Top-level comment id → its replies, oldest first (every top-level comment has an entry)."""
    result: dict[str, list[Comment]] = {c.id: [] for c in top_level(doc)}
    for comment in sorted(doc.comments.values(), key=lambda c: natural_key(c.id)):
        root = root_of(doc, comment)
        if root.id != comment.id and root.id in result:
            result[root.id].append(comment)
    return result


def pin_position(doc: Document, comment: Comment) -> Point | None:
    """Where the comment's pin is on the plan (metres); None for a reply, or for a comment whose
    object is no longer in the plan."""
    if is_reply(doc, comment):
        return None
    if not comment.target:
        return comment.x, comment.y
    anchor = anchor_of(doc, comment.target)
    if anchor is None:
        return None
    return anchor[0] + comment.x, anchor[1] + comment.y


def target_name(doc: Document, comment: Comment) -> str | None:
    """The name of the object a comment is on ("R07", "N1 in R01", "cable R01-R05-1"), "" for a
    comment on a point, None when its object is no longer in the plan."""
    if not comment.target:
        return ""
    obj = doc.find(comment.target)
    return None if obj is None else object_name(doc, obj)


def where(doc: Document, comment: Comment) -> str:
    """A comment's place in words, for lists: "on R07", "at 3.60, 4.80 m", "on rack-7 (deleted)"."""
    name = target_name(doc, comment)
    if name is None:
        return f"on {comment.target} (deleted)"
    if name:
        return f"on {name}"
    return f"at {comment.x:.2f}, {comment.y:.2f} m"


def label(doc: Document, comment_id: str) -> str:
    """How an undo text names a comment: "comment 3", or "reply to comment 3"."""
    comment = doc.comments[comment_id]
    root = root_of(doc, comment)
    number = numbers(doc).get(root.id, 0)
    return f"comment {number}" if root.id == comment.id else f"reply to comment {number}"


# ------------------------------------------------------------------ edits
def _checked(name: str, value: Any) -> Any:
    """A comment's field as given, refused when the file could not hold it (too long, a control
    character, out of range). Checked before the comment takes an id: a refused comment uses up
    no number."""
    problem = value_problem("Comment", name, value)
    if problem:
        raise Refusal(f"{name}: {problem}")
    return value


def _text(text: str) -> str:
    stripped = text.strip()
    if not stripped:
        raise Refusal("a comment needs some text")
    return _checked("text", stripped)


def _comment(doc: Document, comment_id: str) -> Comment:
    comment = doc.comments.get(comment_id)
    if comment is None:
        raise Refusal(f"no comment {comment_id!r} in the plan")
    return comment


def _pin_values(doc: Document, x: float, y: float, target: str) -> dict[str, Any]:
    """The stored pin of a comment placed at plan point (x, y) on ``target`` ("" for none)."""
    if target:
        anchor = anchor_of(doc, target)
        if anchor is None:
            raise Refusal(f"no object {target!r} in the plan to pin a comment to")
        x, y = x - anchor[0], y - anchor[1]
    return {"x": _checked("x", round(float(x), PLACES)), "y": _checked("y", round(float(y), PLACES)),
            "target": target}


def add_comment(doc: Document, text: str, author: str, x: float, y: float, target: str = "",
                date: str | None = None) -> AddObjects:
    """A new open comment with its pin at plan point (x, y), on the object ``target`` if given
    (the pin then follows it). Refusal for empty text, text over the format's length, or a
    target that is not in the plan."""
    fields = {"text": _text(text), "author": _checked("author", author.strip()), "date": date or now_iso(),
              **_pin_values(doc, x, y, target)}
    comment = Comment(id=doc.new_id("cmt"), status=OPEN, **fields)
    number = len(top_level(doc)) + 1  # ids only grow, so a new comment is the last one
    on = f" on {target_name(doc, comment)}" if target else ""
    return AddObjects([comment], text=f"Add comment {number}{on}")


def reply(doc: Document, comment_id: str, text: str, author: str, date: str | None = None) -> AddObjects:
    """A reply in the thread of ``comment_id`` (a reply to a reply joins the same thread)."""
    root = root_of(doc, _comment(doc, comment_id))
    fields = {"text": _text(text), "author": _checked("author", author.strip()), "date": date or now_iso()}
    answer = Comment(id=doc.new_id("cmt"), reply_to=root.id, **fields)
    return AddObjects([answer], text=f"Reply to {label(doc, root.id)}")


def edit_text(doc: Document, comment_id: str, text: str) -> SetFields:
    """New text for a comment or a reply (author and date stay: they say who opened it, when)."""
    _comment(doc, comment_id)
    return SetFields({comment_id: {"text": _text(text)}}, f"Edit {label(doc, comment_id)}")


def set_status(doc: Document, comment_id: str, status: str) -> SetFields:
    """Resolve or reopen the thread ``comment_id`` is in (a thread has one status: its comment's)."""
    if status not in COMMENT_STATUSES:
        raise Refusal(f"{status!r} is not one of {', '.join(COMMENT_STATUSES)}")
    root = root_of(doc, _comment(doc, comment_id))
    verb = "Resolve" if status == RESOLVED else "Reopen"
    return SetFields({root.id: {"status": status}}, f"{verb} {label(doc, root.id)}")


def move_pin(doc: Document, comment_id: str, x: float, y: float, target: str | None = None) -> SetFields:
    """Put a comment's pin at plan point (x, y); ``target`` None keeps the object it is on (if that
    is still in the plan, else the pin is left on the point), "" frees it to the point."""
    comment = _comment(doc, comment_id)
    if is_reply(doc, comment):
        raise Refusal("a reply has no pin of its own: move its comment's pin")
    if target is None:
        target = comment.target if anchor_of(doc, comment.target) is not None else ""
    return SetFields({comment_id: _pin_values(doc, x, y, target)}, f"Move the pin of {label(doc, comment_id)}")


def delete_comment(doc: Document, comment_id: str) -> RemoveObjects:
    """Delete a comment with its replies (one step; undo brings all back), or one reply."""
    comment = _comment(doc, comment_id)
    name = label(doc, comment_id)
    if is_reply(doc, comment):
        return RemoveObjects([comment_id], text=f"Delete {name}")
    replies = threads(doc).get(comment_id, [])
    ids = [r.id for r in reversed(replies)] + [comment_id]  # the comment last: undo adds it back first
    extra = f" ({len(replies)} repl{'y' if len(replies) == 1 else 'ies'})" if replies else ""
    return RemoveObjects(ids, text=f"Delete {name}{extra}")
