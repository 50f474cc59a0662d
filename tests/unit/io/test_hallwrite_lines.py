"""The .hall's object lines made by msgspec are the bytes the json encoder writes, or it is not used.

Save takes the fast way (msgspec, compact, then a space after each separator) only where the
counts of commas and colons prove every one a separator and no number may be written otherwise;
these tests give it what would go wrong otherwise: separators inside strings, nested lists,
numbers that ``repr`` writes with an exponent.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from planner.io import dumps, loads
from planner.io.hallwrite import _joined, _line, _spaced_lines
from planner.layout.templates import build_template


def _slow(records):
    return ",\n  ".join(map(_line, records))


def _link(**fields):
    record = {"a_device": "dev-1", "a_port": "P1", "b_device": "dev-9", "b_port": "1/1", "id": "link-1",
              "label": "", "length_m": 19.83, "media": "sr4", "rail": 1, "state": "planned", "stock_m": 20.0}
    record.update(fields)
    return record


def test_plain_records_take_the_fast_way_with_the_same_bytes():
    records = [_link(id=f"link-{n}", length_m=n / 7) for n in range(1, 200)]
    assert _spaced_lines(records) == _slow(records)


def test_what_could_differ_goes_the_slow_way():
    for record in (_link(label="R01, N1"), _link(label="a: b"), _link(label='a", "b'), _link(state_note="x\\,y"),
                   _link(length_m=1e-05), _link(length_m=1e-07), _link(stock_m=1e16), _link(polygon=[[0.0, 1.0]])):
        records = [_link(), record]
        assert _spaced_lines(records) is None, record
        assert _joined(records) == _slow(records)


_TEXT = st.text(alphabet=st.sampled_from(list('ab,: "\\{}[]é1e0.')), max_size=8)
_NUMBER = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-10**12, 10**12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.fixed_dictionaries({"id": _TEXT, "label": _TEXT, "length_m": _NUMBER,
                                       "nested": st.none() | st.lists(_NUMBER, max_size=3)}), min_size=1, max_size=5))
def test_any_records_get_the_json_encoders_bytes(records):
    assert _joined(records) == _slow(records)


def test_a_plan_with_awkward_labels_saves_loads_and_saves_the_same():
    doc = build_template("pod", 4)
    link = next(iter(doc.links.values()))
    link.label = 'Row 1, "A": rail 1\\2'
    rack = next(iter(doc.racks.values()))
    rack.x = rack.x + 1e-05
    text = dumps(doc)
    again = loads(text)
    assert again.links[link.id].label == link.label and math.isclose(again.racks[rack.id].x, rack.x)
    assert dumps(again) == text
