"""Property tests of the core: any sequence of edits undoes to the start and survives a round trip,
and no mangled file makes the loader fail with anything but HallFileError."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.commands import History, Refusal
from planner.commands.edits import (
    array_racks,
    assign,
    delete_objects,
    duplicate_objects,
    move_objects,
    place_device,
    place_device_on_floor,
    place_rack,
    rotate_objects,
)
from planner.io import HallFileError, dumps, loads

EXAMPLE = None


def example_text() -> str:
    global EXAMPLE
    if EXAMPLE is None:
        from pathlib import Path

        from planner.io import load

        EXAMPLE = dumps(load(Path(__file__).parents[1] / "data" / "core_hall.hall"))
    return EXAMPLE


def pick(doc, collection, index):
    ids = sorted(getattr(doc, collection))
    return ids[index % len(ids)] if ids else None


def make_edit(doc, kind, a, b, x, y):
    """One gesture on the document, chosen by the drawn numbers; None when it does not apply."""
    rack = pick(doc, "racks", a)
    if kind == "place_rack":
        return place_rack(doc, "rack-600x1200-48u", x, y)
    if kind == "device_on_floor":
        return place_device_on_floor(doc, "node-8gpu-liquid-4u", x, y)
    if rack is None:
        return None
    if kind == "place_device":
        return place_device(doc, "sw-64x400g-1u", rack)
    if kind == "move":
        return move_objects(doc, [rack], x / 10, y / 10)
    if kind == "rotate":
        return rotate_objects(doc, [rack])
    if kind == "delete":
        return delete_objects(doc, [rack])
    if kind == "duplicate":
        return duplicate_objects(doc, [rack], 0, 3)
    if kind == "array":
        return array_racks(doc, rack, 1 + b % 3)
    if kind == "unassign":
        return assign(doc, [rack], "feed_b", None)
    return None


EDIT = st.tuples(
    st.sampled_from(["place_rack", "device_on_floor", "place_device", "move", "rotate", "delete",
                     "duplicate", "array", "unassign"]),
    st.integers(0, 50), st.integers(0, 50),
    st.floats(1, 29, allow_nan=False), st.floats(1, 17, allow_nan=False),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EDIT, min_size=1, max_size=8))
def test_any_edit_sequence_undoes_to_the_start_and_round_trips(edits):
    doc = loads(example_text())
    history = History(doc)
    states = [dumps(doc)]
    for edit in edits:
        try:
            command = make_edit(doc, *edit)
        except Refusal:
            continue
        if command is None:
            continue
        history.push(command)
        states.append(dumps(doc))
        # the file round trip of any reachable state is exact
        assert dumps(loads(states[-1])) == states[-1]
    for expected in reversed(states[:-1]):
        history.undo()
        assert dumps(doc) == expected
    while history.can_redo:
        history.redo()
    assert dumps(doc) == states[-1]


def mangle(data, path, value):
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def json_paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from json_paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value[:3]):
            yield from json_paths(child, prefix + (index,))


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                 st.text(max_size=5), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                                          st.integers(), max_size=2))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_loader_never_fails_with_anything_but_hallfileerror(data):
    original = json.loads(example_text())
    paths = [p for p in json_paths(original) if p]
    path = data.draw(st.sampled_from(paths))
    mangle(original, path, data.draw(JUNK))
    try:
        doc = loads(json.dumps(original))
    except HallFileError as exc:
        assert str(exc)
        return
    # what loads must save again stably
    assert dumps(loads(dumps(doc))) == dumps(doc)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.binary(max_size=8))
def test_truncated_or_spliced_text_is_a_clear_error(cut, junk):
    text = example_text()
    cut = cut % len(text)
    spliced = text[:cut] + junk.decode("latin-1") + text[cut + len(junk):]
    try:
        loads(spliced)
    except HallFileError:
        pass
