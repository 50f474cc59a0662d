"""The bounds table (planner/model/bounds.py) covers every field the file holds, its ranges hold
every default and built-in catalogue entry, and its messages read as the issue asks."""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields

import pytest

from planner.io.hallfile import HallFileContent
from planner.model.basis import DesignBasis
from planner.model.bounds import (
    BOUNDS,
    Items,
    Range,
    Text,
    field_problem,
    format_number,
    number_problem,
    text_problem,
)
from planner.model.catalog import CatalogItem, MediaType, builtin_catalog
from planner.model.objects import COLLECTIONS, Meta
from planner.model.physical import item_problem

CLASSES = [HallFileContent, Meta, DesignBasis, CatalogItem, MediaType, *(cls for _attr, cls in COLLECTIONS.values())]


def _kinds(hint) -> set[type]:
    """What limits a field of this annotation needs: Range for numbers, Text for strings, Items for lists."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (int, float):
        return {Range}
    if hint is str:
        return {Text}
    if hint is bool:
        return set()
    if origin is list:
        inner = _kinds(args[0]) if not hasattr(args[0], "__dataclass_fields__") else set()
        return {Items} | inner
    if origin is tuple:
        return set().union(*(_kinds(a) for a in args))
    if origin is dict:
        return {Items} | _kinds(args[0]) | _kinds(args[1])
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_kinds(a) for a in args if a is not type(None)))
    return set()  # a nested dataclass: its own entry


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_every_field_has_its_bounds(cls):
    hints = typing.get_type_hints(cls)
    table = BOUNDS[cls.__name__]
    assert set(table) <= set(hints), f"{cls.__name__}: bounds for fields it does not have"
    for name, hint in hints.items():
        needed = _kinds(hint)
        entry = table.get(name, ())
        have = {type(x) for x in (entry if isinstance(entry, tuple) else (entry,))}
        assert needed <= have, f"{cls.__name__}.{name} needs {sorted(k.__name__ for k in needed - have)}"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_defaults_fit_their_bounds(cls):
    for f in fields(cls):
        if f.default is not MISSING:
            assert field_problem(cls.__name__, f.name, f.default) is None, f.name


def test_built_in_catalogue_fits_its_bounds():
    catalog = builtin_catalog()  # built through the checked mirrors: a bad entry would not load
    for item in catalog.items.values():
        for name, value in vars(item).items():
            assert field_problem("CatalogItem", name, value) is None, (item.key, name)
        assert item_problem(item) is None, item.key  # and what its kind needs (a rack's size, a busbar's rating)
    assert BOUNDS["CatalogItem"]["tapoff_whip_m"].low > 0  # not given is null, never 0


def test_ranges_are_ordered_and_finite():
    for cls_name, table in BOUNDS.items():
        for name, entry in table.items():
            for limit in entry if isinstance(entry, tuple) else (entry,):
                if isinstance(limit, Range):
                    assert limit.low <= limit.high < 1e18 and limit.why, (cls_name, name)
                elif isinstance(limit, Items):
                    assert 0 <= limit.low <= limit.high and limit.why, (cls_name, name)
                else:
                    assert 0 < limit.max_chars <= 10_000 and limit.why, (cls_name, name)


@pytest.mark.parametrize("value, text", [
    (1e308, "1e308"), (-1e308, "-1e308"), (10_000, "10,000"), (0.6, "0.6"), (12.0, "12"),
    (10**400, "a 401-digit number"), (float("inf"), "infinity"), (float("nan"), "NaN"), (2_500_000.5, "2,500,000.5"),
])
def test_numbers_in_messages(value, text):
    assert format_number(value) == text


def test_messages_name_value_range_and_unit():
    coord = BOUNDS["Rack"]["x"]
    assert number_problem(1e308, coord) == "1e308 m is outside -10,000 to 10,000 m"
    assert number_problem(-1.0, BOUNDS["CatalogItem"]["width_m"]) == "-1 m is outside 0–100 m"
    assert number_problem(5.0, coord) is None
    assert number_problem(float("nan"), coord).startswith("NaN is not a number")
    assert text_problem("x" * 201, BOUNDS["Rack"]["name"]) == "201 characters, at most 200"
    assert text_problem("R\x0701", BOUNDS["Rack"]["name"]) == "holds a control character (U+0007) at character 2"
    assert text_problem("two\nlines", BOUNDS["Rack"]["name"]) == \
        "holds a line break (U+000A) at character 4: one line only"
    assert text_problem("two\nlines\tand a tab", BOUNDS["Rack"]["notes"]) is None
    assert text_problem("\ud800", BOUNDS["Meta"]["notes"]).startswith("holds a lone surrogate (U+D800)")
    assert text_problem("Zürich 机房 قاعة", BOUNDS["Rack"]["name"]) is None  # any script is text
    assert field_problem("Zone", "polygon", [(0.0, 0.0), (1.0, 1.0)]) == "2 corners, at least 3"


def test_port_groups_have_their_bounds_and_the_bundled_ones_fit():
    from planner.model.ports import PortGroup

    hints = typing.get_type_hints(PortGroup)
    table = BOUNDS["PortGroup"]
    assert set(table) == set(hints)
    for name, hint in hints.items():
        entry = table[name]
        have = {type(x) for x in (entry if isinstance(entry, tuple) else (entry,))}
        assert _kinds(hint) <= have, name
    for item in builtin_catalog().items.values():
        for group in item.port_groups:
            for name, value in group.items():
                assert field_problem("PortGroup", name, value) is None, (item.key, name)
    for name in ("psu_count", "psu_rating_w", "coolant_ports"):  # not given is null, never 0
        assert BOUNDS["CatalogItem"][name].low > 0


def test_outlet_groups_have_their_bounds_and_the_bundled_ones_fit():
    from planner.model.ports import OutletGroup

    hints = typing.get_type_hints(OutletGroup)
    table = BOUNDS["OutletGroup"]
    assert set(table) == set(hints)
    for name, hint in hints.items():
        entry = table[name]
        have = {type(x) for x in (entry if isinstance(entry, tuple) else (entry,))}
        assert _kinds(hint) <= have, name
    outlets = 0
    for item in builtin_catalog().items.values():
        for group in item.outlet_groups:
            outlets += group["count"]
            for name, value in group.items():
                assert field_problem("OutletGroup", name, value) is None, (item.key, name)
    assert outlets  # the bundled PDU has its outlets, within their bounds
    for name in ("count", "breaker_a"):  # a group holds an outlet and a breaker rated 0 A carries nothing
        assert BOUNDS["OutletGroup"][name].low > 0
