"""The core stays exact (issue 10): whole numbers given where the model says float — an outline
drawn on integer metres, a custom type typed as 100 kg, racks placed at (3, 4), a design basis
set to 400 V — are floats once they are in the model, so save → load → save is byte-identical."""

from __future__ import annotations

from dataclasses import fields, replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.commands import AddCatalogItem, History, SetAttributes, SetFields, SetOutline
from planner.commands.edits import place_rack
from planner.io import dumps, loads
from planner.model.bounds import Range, limit_of
from planner.model.catalog import CatalogItem
from planner.model.document import Document
from planner.model.physical import KIND_RANGES, MAX_HALL_M


def number(cls_name: str, field: str, whole: bool = False, kind: str = "") -> st.SearchStrategy:
    """Ints or floats anywhere in the field's range (whole: ints only, for int fields), within what
    a catalogue entry of ``kind`` needs (``planner.model.physical.KIND_RANGES``)."""
    bound = limit_of(cls_name, field, Range)
    assert isinstance(bound, Range)
    need = KIND_RANGES.get(kind, {}).get(field)
    low, high = (max(bound.low, need.low), min(bound.high, need.high)) if need else (bound.low, bound.high)
    ints = st.integers(int(low) if low == int(low) else int(low) + 1, int(high))
    if whole:
        return ints
    return ints | st.floats(low, high, allow_nan=False, allow_infinity=False)


coordinate = number("HallFileContent", "outline")


@st.composite
def outlines(draw) -> list[tuple[float, float]]:
    """A rectangular hall anywhere the coordinates allow, at most ``MAX_HALL_M`` wide (less a metre:
    far from 0, ``x0 + width - x0`` rounds up past ``width``, 2,000.000000000001 m at x 6,193)."""
    x0, y0 = draw(st.floats(-10_000, 8_000)), draw(st.floats(-10_000, 8_000))
    width, depth = draw(st.floats(1.0, MAX_HALL_M - 1.0)), draw(st.floats(1.0, MAX_HALL_M - 1.0))
    return [(x0, y0), (x0 + width, y0), (x0 + width, y0 + depth), (x0, y0 + depth)]


FLOAT_FIELDS = [f.name for f in fields(CatalogItem) if f.type in (float, "float")]
INT_FIELDS = [f.name for f in fields(CatalogItem) if f.type in (int, "int")]


@st.composite
def custom_types(draw) -> CatalogItem:
    """A custom type of a drawn kind: what the kind needs always drawn, other numbers at random."""
    kind = draw(st.sampled_from(["node", "switch", "row_cdu", "busbar", "rack_pdu"]))
    chosen = set(KIND_RANGES[kind]) | draw(st.sets(st.sampled_from(FLOAT_FIELDS + INT_FIELDS)))
    values = {name: draw(number("CatalogItem", name, whole=name in INT_FIELDS, kind=kind)) for name in chosen}
    if values.get("power_peak_w") and values["power_peak_w"] < values.get("power_w", 0.0):
        values["power_peak_w"] = values["power_w"]  # peak is at least steady
    if kind == "row_cdu":
        values["redundant_pumps"] = min(values.get("redundant_pumps", 0), values["pumps"] - 1)
    if kind in ("busbar", "rack_pdu"):
        values["phases"] = draw(st.sampled_from([1, 3]))
    return CatalogItem(key=f"custom-{draw(st.integers(1, 99))}", kind=kind, name="Drawn type", source="drawn",
                       custom=True, **values)


BASIS_FLOATS = ["voltage_v", "power_factor", "delta_t_k", "facility_supply_c", "tray_height_m", "oversubscription"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(outline=outlines(), item=custom_types(), x=coordinate, y=coordinate,
       basis=st.fixed_dictionaries({name: number("DesignBasis", name) for name in BASIS_FLOATS}))
def test_whole_numbers_in_float_fields_round_trip_byte_for_byte(outline, item, x, y, basis):
    doc = Document()
    history = History(doc)
    history.push(SetOutline(outline))
    history.push(AddCatalogItem(item))
    history.push(SetAttributes("basis", basis, "Basis"))
    command = place_rack(doc, "rack-600x1200-48u", x, y)
    history.push(command)
    rack_id = next(iter(doc.racks))
    history.push(SetFields({rack_id: {"x": y, "y": x}}))
    text = dumps(doc)
    again = dumps(loads(text))
    assert again == text
    history.undo()
    history.redo()
    assert dumps(doc) == text


@settings(max_examples=50, deadline=None)
@given(item=custom_types(), voltage=number("DesignBasis", "voltage_v"))
def test_values_set_in_code_round_trip_too(item, voltage):
    """Custom types added to the catalogue and basis values set directly, as tests and tools do."""
    doc = Document()
    doc.catalog.add(replace(item, key="custom-direct"))
    doc.basis.voltage_v = voltage
    doc.outline = [(0, 0), (10, 0), (10, 5)]
    text = dumps(doc)
    assert dumps(loads(text)) == text
