"""Property tests of the core: any sequence of edits undoes to the start and survives a round trip,
and no mangled file makes the loader fail with anything but HallFileError."""

from __future__ import annotations

import json
import re

import pytest
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
from planner.model.physical import BASIS_ORDER

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


def json_path(path) -> str:
    """The loader's spelling of a path: ``("racks", 0, "x")`` → ``$.racks[0].x``."""
    return "$" + "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in path)


def value_at(data, path):
    for key in path:
        data = data[key]
    return data


def json_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def ids_within(value) -> set[str]:
    """Every object id in ``value`` (the ids a mangle there can take away from the plan)."""
    if isinstance(value, dict):
        found = {value["id"]} if isinstance(value.get("id"), str) else set()
        return found.union(*(ids_within(child) for child in value.values()))
    if isinstance(value, list):
        return set().union(*(ids_within(child) for child in value))
    return set()


#: Free-text fields: any text without control characters loads and reads back as written.
FREE_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=40)

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                 st.text(max_size=5), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3),
                                                                                          st.integers(), max_size=2))


def check_refusal(exc: HallFileError, original, path) -> None:
    """A refusal is one line "<JSON path>: <problem>" naming the place the mangle broke: the
    mangled value itself or something inside it, the shape a mangled corner belongs to, or — when
    the mangle took objects away (an id,
    an object, a whole collection) — a reference elsewhere that names one of the lost ids."""
    at = json_path(path)
    message = str(exc)
    assert exc.path.startswith("$"), (exc.path, message)
    assert message.startswith(f"{exc.path}: ") and message[len(exc.path) + 2:].strip(), message
    assert "\n" not in message, message
    if exc.path == at or exc.path.startswith((at + ".", at + "[")):
        return
    partners = {f"$.basis.{x}" for pair in BASIS_ORDER for x in pair[:2] if at == f"$.basis.{pair[0]}"
                or at == f"$.basis.{pair[1]}"}
    if exc.path in partners and "is above" in message:
        return  # a warning put above its error (or the error below its warning): named at the warning
    if (exc.path == "$.outline" or exc.path.endswith(".polygon")) and at.startswith(exc.path + "["):
        assert "enclose" in message or "cross" in message or "wider than a hall" in message, message
        return  # one corner moved: the shape as a whole encloses no area or crosses itself
    lost = ids_within(value_at(original, path)) | (
        {value_at(original, path[:-1])["id"]} if path[-1] == "id" else set())
    assert any(f"'{lost_id}'" in message for lost_id in lost), (
        f"mangling {at} was refused at an unrelated place: {message}")


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_loader_refuses_a_mangled_value_at_its_place_or_loads_it_stably(data):
    text = example_text()
    original = json.loads(text)
    paths = [p for p in json_paths(original) if p]
    path = data.draw(st.sampled_from(paths))
    was = value_at(original, path)
    junk = data.draw(JUNK)
    mangled = json.loads(text)
    mangle(mangled, path, junk)
    # a value of another JSON kind (a string where a number goes, a number for a list …) can
    # never be read; null is left open, as "not given" may be a field's legal value
    must_refuse = json_kind(junk) not in (json_kind(was), "null") and json_kind(was) != "null"
    try:
        doc = loads(json.dumps(mangled))
    except HallFileError as exc:
        check_refusal(exc, original, path)
        if must_refuse:
            assert exc.path == json_path(path), (path, junk, str(exc))
        return
    assert not must_refuse, f"{json_path(path)} = {junk!r} (was {was!r}) loaded"
    # what loads must save again stably
    assert dumps(loads(dumps(doc))) == dumps(doc)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["project", "hall", "author", "revision", "notes"]), FREE_TEXT, FREE_TEXT)
def test_free_text_always_loads_and_reads_back_as_written(meta_field, meta_text, rack_notes):
    data = json.loads(example_text())
    data["meta"][meta_field] = meta_text
    data["racks"][0]["notes"] = rack_notes
    doc = loads(json.dumps(data, ensure_ascii=False))
    assert getattr(doc.meta, meta_field) == meta_text
    assert doc.racks[data["racks"][0]["id"]].notes == rack_notes
    assert loads(dumps(doc)).racks[data["racks"][0]["id"]].notes == rack_notes


def test_a_mangle_of_each_kind_is_refused_at_its_json_path():
    """The oracle above, on examples worked by hand."""
    data = json.loads(example_text())
    rack = data["racks"][0]
    cases = [
        (("racks", 0, "x"), "a", "$.racks[0].x: "),
        (("racks", 0, "name"), 5, "$.racks[0].name: "),
        (("racks", 0, "type"), "zzz", "$.racks[0].type: "),
        (("racks", 0, "bogus"), 1, "$.racks[0].bogus: "),
        (("meta",), True, "$.meta: "),
        (("version",), "x", "$.version: "),
        (("format",), None, "$.format: "),
        (("outline",), [[0, 0], [1, 1]], "$.outline: "),
    ]
    for path, junk, prefix in cases:
        mangled = json.loads(example_text())
        mangle(mangled, path, junk)
        with pytest.raises(HallFileError) as caught:
            loads(json.dumps(mangled))
        assert str(caught.value).startswith(prefix) and caught.value.path == prefix[:-2], (path, str(caught.value))
        check_refusal(caught.value, data, path)
    # a rack taken away: refused where a device still names it, and the message names the rack
    mangled = json.loads(example_text())
    assert any(d["rack"] == rack["id"] for d in mangled["devices"])
    mangled["racks"] = mangled["racks"][1:]
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(mangled))
    assert caught.value.path.startswith("$.devices[") and caught.value.path.endswith("].rack")
    assert f"'{rack['id']}'" in str(caught.value), str(caught.value)
    check_refusal(caught.value, data, ("racks",))


MESSAGE = re.compile(r"^(not valid JSON: .+ at line \d+ column \d+|not valid JSON: .+"
                     r"|not UTF-8 text \(byte \d+\)|nested too deeply)$")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.binary(max_size=8))
def test_truncated_or_spliced_text_is_a_clear_error(cut, junk):
    """Text cut or spliced anywhere loads (a splice inside a string can be harmless) to a plan
    that saves stably, or is refused with one line naming the place: a JSON path, or the line
    and column of the syntax error."""
    text = example_text()
    cut = cut % len(text)
    spliced = text[:cut] + junk.decode("latin-1") + text[cut + len(junk):]
    try:
        doc = loads(spliced)
    except HallFileError as exc:
        message = str(exc)
        if message.startswith("$"):  # "<JSON path>: <problem>"
            assert message.startswith(f"{exc.path}: ") and message[len(exc.path) + 2:].strip(), message
        else:
            assert MESSAGE.match(message) and exc.path == "$", message
        return
    assert dumps(loads(dumps(doc))) == dumps(doc)
    if not junk:
        assert spliced == text


def test_a_cut_file_names_the_line_and_column():
    text = example_text()
    with pytest.raises(HallFileError, match=r"^not valid JSON: .+ at line \d+ column \d+$"):
        loads(text[: len(text) // 2])


@pytest.mark.parametrize("collection", ["catalog", "racks", "links"])
def test_an_older_file_with_a_collection_of_the_wrong_kind_is_refused(collection):
    data = json.loads(example_text())
    data["version"], data[collection] = 1, True
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(data))
    assert caught.value.path == f"$.{collection}", str(caught.value)
