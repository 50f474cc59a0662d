"""The loader's behaviour, whichever way a file is decoded.

A current file that fits is decoded by msgspec in one pass; anything else takes the checked
path (stdlib parser, migrations, the same schema). These tests pin what both must do: load the
same document, refuse every kind of bad content with one HallFileError at its JSON path, run
migrations, and build through ``Document.from_collections`` exactly what ``add`` builds.
"""

from __future__ import annotations

import copy
import gc
import json

import pytest

from planner.io import HallFileError, dumps, hallfile, loads
from planner.model.document import Document, highest_id_number, id_numbers
from planner.model.networks import network_of
from planner.model.objects import Link
from planner.model.ports import COMPUTE, NETWORKS


@pytest.fixture
def example_data(example_doc):
    return json.loads(dumps(example_doc))


def _error(data) -> HallFileError:
    with pytest.raises(HallFileError) as info:
        loads(json.dumps(data))
    return info.value


@pytest.mark.parametrize(
    "mutate, path",
    [
        # wrong type, in objects, nested lists and optional fields
        (lambda d: d["links"][5].__setitem__("length_m", "long"), "$.links[5].length_m"),
        (lambda d: d["devices"][2].__setitem__("u", True), "$.devices[2].u"),
        (lambda d: d["devices"][2].__setitem__("u", 2.5), "$.devices[2].u"),
        (lambda d: d["racks"][3].__setitem__("feed_a", 7), "$.racks[3].feed_a"),
        (lambda d: d["zones"][0]["polygon"][1].__setitem__(0, None), "$.zones[0].polygon[1][0]"),
        (lambda d: d["zones"][0]["polygon"].__setitem__(2, [1.0, 2.0, 3.0]), "$.zones[0].polygon[2]"),
        (lambda d: d["basis"]["sources"].__setitem__("derating", 80), "$.basis.sources.derating"),
        (lambda d: d.__setitem__("meta", None), "$.meta"),
        (lambda d: d.__setitem__("links", {}), "$.links"),
        # unknown and missing keys, at every level
        (lambda d: d.__setitem__("colour", "red"), "$.colour"),
        (lambda d: d["meta"].__setitem__("colour", "red"), "$.meta.colour"),
        (lambda d: d["basis"].__setitem__("colour", "red"), "$.basis.colour"),
        (lambda d: d["links"][9].__setitem__("colour", "red"), "$.links[9].colour"),
        (lambda d: d["links"][7].pop("b_port"), "$.links[7].b_port"),
        (lambda d: d.pop("version"), "$.version"),
        # numbers JSON cannot hold: the standard parser reads them, the schema refuses them
        (lambda d: d["links"][3].__setitem__("length_m", float("inf")), "$.links[3].length_m"),
        (lambda d: d["racks"][0].__setitem__("x", 10**400), "$.racks[0].x"),
        # ids and references
        (lambda d: d["links"][4].__setitem__("id", "link-x"), "$.links[4].id"),
        (lambda d: d["links"][4].__setitem__("id", "dev-4"), "$.links[4].id"),
        (lambda d: d["links"][6].__setitem__("id", d["links"][2]["id"]), "$.links[6].id"),
        (lambda d: d["links"][8].__setitem__("b_device", "dev-999999"), "$.links[8].b_device"),
        (lambda d: d["links"][8].__setitem__("a_port", "P99"), "$.links[8].a_port"),
        (lambda d: d["racks"][2].__setitem__("cdu", "fu-999"), "$.racks[2].cdu"),
        (lambda d: d["racks"][2].__setitem__("rotation", 45), "$.racks[2].rotation"),
        (lambda d: d["busbars"][1].__setitem__("side", "C"), "$.busbars[1].side"),
        (lambda d: d["devices"][5].__setitem__("type", "rack-600x1200-48u"), "$.devices[5].type"),
        # the custom catalogue and the outline
        (lambda d: d["catalog"].append({"key": "x", "kind": "teapot", "name": "X"}), "$.catalog[0].kind"),
        (lambda d: d["catalog"].append({"key": "x", "name": "X"}), "$.catalog[0].kind"),
        (lambda d: d.__setitem__("outline", d["outline"][:2]), "$.outline"),
    ],
)
def test_every_bad_value_is_one_error_at_its_path(example_data, mutate, path):
    mutate(example_data)
    error = _error(example_data)
    assert error.path == path
    assert str(error).startswith(path)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("state", "installed", "must be one of planned, run, labelled"),
    ("tier", "leaf-leaf", 'must be one of "", node-leaf'),
    ("tier", 7, "expected a string, found a number"),
])
def test_a_cable_state_or_tier_off_its_list_is_refused_in_words(example_data, field, value, words):
    """The fast decoder reads both as literals of their lists; a value off the list takes the
    checked path, which says what they may be, not msgspec's "Invalid enum value"."""
    example_data["links"][3][field] = value
    error = _error(example_data)
    assert error.path == f"$.links[3].{field}"
    assert words in str(error)


def test_newer_version_is_refused_before_its_unknown_keys(example_data):
    example_data["version"] = hallfile.FORMAT_VERSION + 1
    example_data["pumps"] = []
    error = _error(example_data)
    assert error.path == "$.version" and "newer" in str(error)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_refused(example_data, literal):
    example_data["links"][0]["length_m"] = 0.123456789
    text = json.dumps(example_data).replace('"length_m": 0.123456789', f'"length_m": {literal}', 1)
    with pytest.raises(HallFileError) as info:
        loads(text)
    assert info.value.path == "$.links[0].length_m"


def test_whole_numbers_written_as_floats_still_load(example_data):
    device = example_data["devices"][3]
    device["u"] = float(device["u"])
    example_data["racks"][1]["rotation"] = 90.0
    doc = loads(json.dumps(example_data))
    assert doc.devices[device["id"]].u == int(device["u"]) and type(doc.devices[device["id"]].u) is int
    assert doc.racks[example_data["racks"][1]["id"]].rotation == 90


def test_both_decoders_build_the_same_document(example_doc):
    text = dumps(example_doc)
    fast = loads(text)
    checked = hallfile._document(hallfile._decode_checked(text))
    assert dumps(fast) == dumps(checked) == text
    for doc in (fast, checked):
        assert doc._links_by_device == example_doc._links_by_device
        assert doc._devices_by_rack == example_doc._devices_by_rack
        assert doc._next_number == example_doc._next_number


def test_migrations_run_for_an_older_file(example_doc, monkeypatch):
    text = dumps(example_doc)
    seen = []
    current = hallfile.FORMAT_VERSION

    def to_next(data):
        seen.append(data["version"])
        data["meta"]["notes"] = "migrated"
        return data

    monkeypatch.setattr(hallfile, "FORMAT_VERSION", current + 1)
    monkeypatch.setattr(hallfile, "MIGRATIONS", {current: to_next})
    doc = loads(text)
    assert seen == [current] and doc.meta.notes == "migrated"
    assert json.loads(dumps(doc))["version"] == current + 1


def test_version_1_labels_equal_to_their_ends_become_derived(example_doc):
    """Version 1 stored every label; version 2 keeps only typed ones. A label that no longer
    matches its ends (an end moved in the file) stays, as typed, for N10 to report."""
    data = json.loads(dumps(example_doc))
    data["version"] = 1
    racks = {r["id"]: r["name"] for r in data["racks"]}
    devices = {d["id"]: d for d in data["devices"]}
    first, second = data["links"][:2]
    for link in (first, second):
        a, b = devices[link["a_device"]], devices[link["b_device"]]
        link["label"] = (f"{racks[a['rack']]}-U{a['u']:02d}-{a['name']}-{link['a_port']} ↔ "
                         f"{racks[b['rack']]}-U{b['u']:02d}-{b['name']}-{link['b_port']}")
    stale = second["label"] = second["label"].removesuffix(second["b_port"]) + "32/2"  # written before a move
    doc = hallfile._document(hallfile._decode_checked(json.dumps(data)))
    assert doc.links[first["id"]].label == ""
    assert doc.links[second["id"]].label == stale


def test_ids_in_other_decimal_digits_load_as_they_always_have(example_data):
    example_data["zones"][0]["id"] = "zone-\u0663"  # Arabic-Indic 3
    doc = loads(json.dumps(example_data))
    assert "zone-\u0663" in doc.zones and len(doc.links) == len(example_data["links"])


def test_loading_leaves_the_garbage_collector_as_it_was(example_doc, example_data):
    text = dumps(example_doc)
    assert gc.isenabled()
    loads(text)
    assert gc.isenabled() and gc.get_freeze_count() == 0
    bad = copy.deepcopy(example_data)
    bad["links"][0]["a_port"] = "nope"
    with pytest.raises(HallFileError):
        loads(json.dumps(bad))
    assert gc.isenabled()
    gc.disable()
    try:
        loads(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


def _added_one_by_one(source: Document) -> Document:
    doc = Document(source.catalog)
    for obj in source.all_objects():
        doc.add(obj)
    return doc


def test_from_collections_builds_what_add_builds(example_doc):
    collections = {attr: list(getattr(example_doc, attr).values()) for attr in
                   ("zones", "obstacles", "doors", "handoffs", "racks", "devices", "floor_units", "busbars", "links")}
    bulk = Document.from_collections(collections, example_doc.catalog)
    one_by_one = _added_one_by_one(example_doc)
    for attr in collections:
        assert getattr(bulk, attr) == getattr(one_by_one, attr)
    assert bulk._devices_by_rack == one_by_one._devices_by_rack
    assert bulk._links_by_device is None and bulk._links_by_network is None  # made when first asked for
    assert all(list(bulk.links_in(n).items()) == list(one_by_one.links_in(n).items()) for n in NETWORKS)
    assert bulk.links_by_device() == one_by_one.links_by_device()
    assert bulk._next_number == {}  # found when first needed, not in the load
    bulk.number_ids()
    assert bulk._next_number == one_by_one._next_number
    assert bulk.new_id("link") == one_by_one.new_id("link")


@pytest.mark.parametrize("first", ["remove", "add", "new_id"])
def test_a_loaded_plan_never_reuses_the_id_of_a_removed_object(example_doc, first):
    """The next id number, found late, is found before the first object goes: the highest id of
    the file is never made again, whichever edit comes first."""
    collections = {attr: list(getattr(example_doc, attr).values()) for attr in ("racks", "devices", "links")}
    doc = Document.from_collections(copy.deepcopy(collections), example_doc.catalog)
    highest = max(int(link_id.split("-")[1]) for link_id in doc.links)
    made = []
    if first == "add":  # an object added with its own id, above the file's highest
        link = copy.copy(doc.links[f"link-{highest}"])
        link.id = f"link-{highest + 5}"
        doc.add(link)
        doc.remove(link.id)
    elif first == "new_id":
        made.append(doc.new_id("link"))
    doc.remove(f"link-{highest}")
    made.append(doc.new_id("link"))
    expected = {"remove": [highest + 1], "add": [highest + 6], "new_id": [highest + 1, highest + 2]}
    assert made == [f"link-{n}" for n in expected[first]]


def test_cables_per_device_made_late_follow_the_edits_made_before(example_doc):
    collections = {attr: list(getattr(example_doc, attr).values()) for attr in ("racks", "devices", "links")}
    bulk = Document.from_collections(copy.deepcopy(collections), example_doc.catalog)
    one_by_one = Document.from_collections(copy.deepcopy(collections), example_doc.catalog)
    one_by_one.links_by_device()  # made before the edits, kept by each
    for doc in (bulk, one_by_one):
        first, second = list(doc.links)[:2]
        node = doc.links[first].a_device
        doc.remove(second)
        doc.set_fields(first, {"b_device": node})
        doc.add(Link(doc.new_id("link"), node, "x1", doc.links[first].b_device, "x2"))
    assert bulk._links_by_device is None
    assert bulk.links_by_device() == one_by_one.links_by_device()
    assert bulk.link_ids_of(node) == one_by_one.link_ids_of(node) != set()


def test_cables_per_network_made_late_follow_the_edits_made_before(example_doc):
    collections = {attr: list(getattr(example_doc, attr).values()) for attr in ("racks", "devices", "links")}
    bulk = Document.from_collections(copy.deepcopy(collections), example_doc.catalog)
    one_by_one = Document.from_collections(copy.deepcopy(collections), example_doc.catalog)
    for network in NETWORKS:  # made before the edits, kept by each
        one_by_one.links_in(network)
    for doc in (bulk, one_by_one):
        first, second, third = [i for i, link in doc.links.items() if network_of(link) == COMPUTE][:3]
        doc.remove(second)
        doc.set_fields(first, {"tier": "storage-access"})
        doc.add(Link(doc.new_id("link"), doc.links[third].a_device, "x1", doc.links[third].b_device, "x2",
                     tier="inband-access"))
    assert bulk._links_by_network is None
    for network in NETWORKS:
        assert bulk.links_in(network) == one_by_one.links_in(network), network
    assert first in bulk.links_in("storage") and first not in bulk.links_in(COMPUTE)
    assert second not in bulk.links_in(COMPUTE) and list(bulk.links_in("inband"))[-1] == list(bulk.links)[-1]


def test_from_collections_refuses_bad_ids(example_doc):
    racks = list(example_doc.racks.values())
    with pytest.raises(KeyError, match="already exists"):
        Document.from_collections({"racks": racks + racks[:1]})
    with pytest.raises(ValueError):
        Document.from_collections({"racks": racks[:1], "zones": racks[1:2]})
    with pytest.raises(KeyError, match="no collection"):
        Document.from_collections({"pumps": []})


@pytest.mark.parametrize(("ids", "highest"), [
    ([], 0),
    (["link-9", "link-10", "link-2"], 10),  # the longest id, not the last or the greatest text
    (["link-0"], 0),
    (["link-99", "link-007"], 99),  # a leading zero: counted as a number
    (["link-7", "link-0100"], 100),
    (["link-1", "rack-2"], None),
    (["link-1", "link-"], None),
    (["link-1\x00link-2"], None),  # one id holding a NUL is not two ids
    (["link-٣"], None),  # digits of another script
])
def test_highest_id_number(ids, highest):
    assert highest_id_number("link", ids) == highest
    numbers = id_numbers("link", ids)
    assert (None if numbers is None else max(numbers, default=0)) == highest


def test_text_the_fast_decoder_cannot_take_goes_the_checked_way(example_data):
    # A lone surrogate: msgspec cannot take it, json.loads can; it is no text (a plan holding
    # one could never be saved as UTF-8), so the checked path refuses it where it is.
    example_data["meta"]["notes"] = "\ud800"
    with pytest.raises(HallFileError, match=r"^\$\.meta\.notes: holds a lone surrogate"):
        loads(json.dumps(example_data, ensure_ascii=False))
    with pytest.raises(HallFileError, match="UTF-8"):
        loads(b'{"format": "hall", "version": 1, "meta": {"notes": "\xff"}}')
