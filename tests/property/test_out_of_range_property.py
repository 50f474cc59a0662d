"""Every number outside its field's range is refused at load with its JSON path and the range,
and every value below what its kind of equipment needs is refused naming the kind (issue 19).

Hypothesis picks the field (every Range of the bounds table that a .hall file holds) and how far
outside the range the value lies; the oracle is the table itself (``Range.text``), so a field
whose range the loader stopped checking, or checked against other numbers, fails here.
"""

from __future__ import annotations

import copy
import json
import typing
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.io import HallFileError, dumps, loads
from planner.model.bounds import BOUNDS, Range, limit_of
from planner.model.catalog import CatalogItem, builtin_catalog
from planner.model.objects import COLLECTIONS, Comment, Obstacle, Underlay
from planner.model.physical import KIND_RANGES
from planner.model.ports import OutletGroup, PortGroup

_ATTR_OF_CLASS = {cls.__name__: attr for attr, cls in COLLECTIONS.values()}
#: One custom copy of a built-in type per kind, at this index of the file's catalogue.
_KIND_BASE = {"rack": "rack-600x1200-48u", "node": "node-8gpu-liquid-4u", "switch": "sw-64x400g-1u",
              "storage": "storage-flash-2u", "rack_pdu": "pdu-rack-3ph-63a", "rack_cdu": "cdu-rack-250kw",
              "rack_manifold": "manifold-orv3-12uqd08", "row_cdu": "cdu-row-800kw", "cabinet": "cabinet-630a",
              "busbar": "busbar-800a"}


def _is_int(cls_name: str, name: str) -> bool:
    cls = {"CatalogItem": CatalogItem, "PortGroup": PortGroup, "OutletGroup": OutletGroup,
           **{c.__name__: c for _a, c in COLLECTIONS.values()}}.get(cls_name)
    if cls is None:
        from planner.model.basis import DesignBasis
        cls = DesignBasis
    hint = typing.get_type_hints(cls)[name]
    return hint is int


def _number_fields() -> list[tuple[str, str, Range]]:
    found = []
    for cls_name, table in BOUNDS.items():
        if cls_name in ("HallFileContent", "MediaType", "Meta"):
            continue  # the version, the built-in media, text only
        for name in table:
            limit = limit_of(cls_name, name, Range)
            if isinstance(limit, Range) and not isinstance(table[name], tuple):
                found.append((cls_name, name, limit))
    return found


NUMBER_FIELDS = _number_fields()


@pytest.fixture(scope="module")
def base_data(example_doc_module):
    """The example plan with one of every object and one custom type of every kind."""
    doc = example_doc_module
    doc.add(Obstacle(id=doc.new_id("obs"), name="C1", kind="column", polygon=[(1, 1), (1.4, 1), (1.4, 1.4), (1, 1.4)]))
    doc.add(Comment(id=doc.new_id("cmt"), text="look", x=1.0, y=1.0))
    doc.add(Underlay(id=doc.new_id("ul"), name="arch", path="arch.png"))
    data = json.loads(dumps(doc))
    catalog = builtin_catalog()
    data["catalog"] = []
    for kind, key in _KIND_BASE.items():
        entry = json.loads(json.dumps(vars(copy.copy(catalog[key])), default=list))
        entry.pop("custom")
        entry.update(key=f"custom-{kind}", name=f"Custom {kind}")
        data["catalog"].append(entry)
    loads(json.dumps(data))  # the base itself loads
    return data


@pytest.fixture(scope="module")
def example_doc_module():
    from planner.io import load
    from planner.resources_access import resource

    return load(resource("examples", "example.hall"))


def _place(data: dict, cls_name: str, name: str, value: object, kind_index: int) -> str:
    """Put ``value`` at the field's place in ``data``; returns the JSON path."""
    if cls_name == "DesignBasis":
        data["basis"][name] = value
        return f"$.basis.{name}"
    if cls_name == "CatalogItem":
        data["catalog"][kind_index][name] = value
        return f"$.catalog[{kind_index}].{name}"
    if cls_name == "PortGroup":  # the first port group of the first custom type that has any
        index = next(i for i, entry in enumerate(data["catalog"]) if entry["port_groups"])
        data["catalog"][index]["port_groups"][0][name] = value
        return f"$.catalog[{index}].port_groups[0].{name}"
    if cls_name == "OutletGroup":  # the first outlet group of the first custom type that has any (the PDU)
        index = next(i for i, entry in enumerate(data["catalog"]) if entry["outlet_groups"])
        data["catalog"][index]["outlet_groups"][0][name] = value
        return f"$.catalog[{index}].outlet_groups[0].{name}"
    attr = _ATTR_OF_CLASS[cls_name]
    data[attr][0][name] = value
    return f"$.{attr}[0].{name}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.sampled_from(NUMBER_FIELDS), above=st.booleans(), distance=st.floats(1e-3, 1e6),
       kind_index=st.integers(0, len(_KIND_BASE) - 1))
def test_a_number_outside_its_range_is_refused_with_path_and_range(base_data, pick, above, distance, kind_index):
    _refused_outside(base_data, pick, above, distance, kind_index)


#: The numbers of the records a catalogue entry holds (port groups, a PDU's outlet groups): each is
#: checked on both sides every run, not only when hypothesis draws it.
RECORD_FIELDS = [pick for pick in NUMBER_FIELDS if pick[0] in ("PortGroup", "OutletGroup")]


@pytest.mark.parametrize("above", [False, True], ids=["below", "above"])
@pytest.mark.parametrize("pick", RECORD_FIELDS, ids=[f"{c}.{n}" for c, n, _l in RECORD_FIELDS])
def test_a_record_number_outside_its_range_is_refused_with_path_and_range(base_data, pick, above):
    _refused_outside(base_data, pick, above, 0.5, 0)


def _refused_outside(base_data, pick, above, distance, kind_index):
    cls_name, name, limit = pick
    value: float = limit.high + distance if above else limit.low - distance
    if _is_int(cls_name, name):
        value = int(value) + (1 if above else -1)
    data = copy.deepcopy(base_data)
    path = _place(data, cls_name, name, value, kind_index)
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(data))
    message = str(caught.value)
    assert message.startswith(f"{path}: ") and f"is outside {limit.text()}" in message, message


KIND_NEEDS = [(kind, name, limit, side) for kind, table in KIND_RANGES.items() for name, limit in table.items()
              for side in ("low", "high")
              if (side == "low" and limit.low > 0)
              or (side == "high" and limit.high < limit_of("CatalogItem", name, Range).high)]


@pytest.mark.parametrize("kind, name, limit, side", KIND_NEEDS, ids=[f"{k}.{n}.{s}" for k, n, _l, s in KIND_NEEDS])
def test_outside_what_its_kind_needs_is_refused_naming_the_kind(base_data, kind, name, limit, side):
    index = list(_KIND_BASE).index(kind)
    data = copy.deepcopy(base_data)
    is_int = any(f.name == name and f.type in ("int", int) for f in fields(CatalogItem))
    if side == "low":
        value = 0 if is_int else limit.low / 2
    else:
        value = int(limit.high) + 1 if is_int else limit.high * 1.5
    data["catalog"][index][name] = value
    if name == "power_w" and "power_peak_w" in data["catalog"][index]:
        data["catalog"][index]["power_peak_w"] = 0.0  # peak = the steady draw: only the field itself is wrong
    with pytest.raises(HallFileError) as caught:
        loads(json.dumps(data))
    assert str(caught.value).startswith(f"$.catalog[{index}].{name}: ")
    assert f"is outside {limit.text()} for a {kind.replace('_', ' ')}" in str(caught.value)
