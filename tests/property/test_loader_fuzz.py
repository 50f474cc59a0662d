"""Fuzz the loader with the bundled example (issue 10): whatever is done to the file — values
replaced by huge, negative, non-finite, wrong-typed, deeply nested or very long ones, keys
dropped, entries duplicated, the text cut short — loading gives a plan or one HallFileError,
quickly; and a plan that loads goes through validation, the report and every export kind
without an exception, each within a time bound.

Most hostile files are refused, so a second test draws plans at the edges of the format
instead: every kind of field set to the ends of its range in the bounds table, text as long as
allowed in any script (right-to-left, emoji, spreadsheet formulas), free-text fields the loader
does not check against a list (media, phases) set to anything: those load, and must
go everywhere. The example's cables are cut to the first 16 (the labels PDF of all 512 takes
1.5 s; the point is the values, not the volume), so the examples stay within CI time;
``derandomize`` keeps CI runs repeatable.
"""

from __future__ import annotations

import importlib.resources
import json
import signal
import time
import typing
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from planner.export.registry import EXPORT_KINDS, export_to
from planner.io import HallFileError, loads
from planner.io.hallfile import HallFileContent
from planner.model.bounds import Range, Text, limits
from planner.model.physical import BASIS_ORDER, KIND_RANGES, MAX_HALL_M
from planner.model.references import REFERENCE_FIELDS
from planner.resources_access import example_hall_path
from planner.rules.engine import validate
from planner.rules.report import build_report

#: Seconds any one step may take on a small plan (generous: a shared CI machine).
STEP_BOUND_S = 15.0


def _example() -> dict[str, Any]:
    with importlib.resources.as_file(example_hall_path()) as path:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["links"] = data["links"][:16]
    node = next(d["type"] for d in data["devices"] if d["type"].startswith("node"))
    data["catalog"] = [{"key": "custom-fuzz", "kind": "node", "name": "Fuzz node", "source": "test",
                        "width_m": 0.45, "depth_m": 0.9, "height_u": 4, "weight_kg": 80.0, "power_w": 9000.0,
                        "power_peak_w": 10000.0, "liquid_fraction": 0.8, "gpus": 8, "port_cages": 8,
                        "port_speed_gbps": 400.0}]
    data["devices"][0]["type"] = "custom-fuzz" if data["devices"][0]["type"] == node else data["devices"][0]["type"]
    return data


EXAMPLE = _example()


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in the JSON tree (the root excluded), parents before children."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key in value:
            found += _paths(value[key], (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):  # three of each list cover every kind of field
            found += _paths(item, (*path, index))
    return found


PATHS = _paths(EXAMPLE)
#: Raw JSON the standard encoder cannot write: put in through markers after encoding.
RAW = ["1e308", "-1e308", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1" + "0" * 400, "9" * 4301,
       "-0.0", '"\\ud800"', '"a\\u0000b"', '"\\u0085"', "[" * 5000 + "]" * 5000, '{"a": ' * 3000 + "1" + "}" * 3000]
VALUES = st.one_of(
    st.sampled_from(RAW).map(lambda raw: ("raw", raw)),
    st.sampled_from([None, True, False, 0, -1, -1e9, 1e18, 0.5, "", [], {}, [[0, 0]], {"x": 1}, "x" * 100_000,
                     "R\n01", "שלום\u202eabc", "😀" * 300, "=cmd|' /C calc'!A0", "<script>", "rack-1", "bus-1",
                     "fu-1", "dev-1", [[0, 0], [1, 0]], [[1e308, 0], [0, 1], [1, 1]]]).map(lambda v: ("value", v)),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda v: ("value", v)),
    st.integers(-10**20, 10**20).map(lambda v: ("value", v)),
    st.text(max_size=300).map(lambda v: ("value", v)),
)
MUTATIONS = st.tuples(st.sampled_from(["replace", "replace", "replace", "drop", "duplicate"]),
                      st.integers(0, len(PATHS) - 1), VALUES)


def _mutated(mutations: list[tuple], cut: float | None) -> str:
    data = json.loads(json.dumps(EXAMPLE))
    raws: dict[str, str] = {}
    for action, index, (kind, value) in mutations:
        *parent_path, key = PATHS[index]
        parent: Any = data
        try:
            for step in parent_path:
                parent = parent[step]
            if action == "drop" and isinstance(parent, dict):
                parent.pop(key, None)
            elif action == "duplicate" and isinstance(parent, list) and key < len(parent):
                parent.insert(key, json.loads(json.dumps(parent[key])))
            elif isinstance(parent, dict | list) and (isinstance(parent, dict) or key < len(parent)):
                if kind == "raw":
                    marker = f"__RAW_{len(raws)}__"
                    raws[f'"{marker}"'] = value
                    value = marker
                parent[key] = value
        except (KeyError, IndexError, TypeError):  # an earlier mutation changed the tree here
            continue
    text = json.dumps(data, ensure_ascii=False)
    for marker, raw in raws.items():
        text = text.replace(marker, raw, 1)
    if cut is not None:
        text = text[: int(len(text) * cut)]
    return text


class StepTooLong(Exception):
    """A step ran past ``STEP_BOUND_S``: a hang, stopped before it eats the machine's memory."""


def _timed(what: str, action) -> Any:
    """Run ``action`` within the time bound: a watchdog alarm stops a step that hangs (a loop a
    hostile value never lets end), and the elapsed time is asserted for one that merely crawls."""
    def stop(_signum, _frame) -> None:
        raise StepTooLong(f"{what} still running after {STEP_BOUND_S:.0f} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, STEP_BOUND_S)
    start = time.perf_counter()
    try:
        result = action()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - start
    assert elapsed < STEP_BOUND_S, f"{what} took {elapsed:.1f} s"
    return result


#: Exports that still fail on a plan that loads: export kind → (exception type name, words of its
#: message, why). Only exactly these may pass here; each gets its own skipped test below that shows
#: it, removed with the fix. None left: commissioning-pdf on nodes of two rail counts is fixed
#: (``test_commissioning_pdf_of_a_plan_with_nodes_of_two_rail_counts``).
KNOWN_EXPORT_FAILURES: dict[str, tuple[str, str, str]] = {}
#: Exports for systems with rules of their own for names (Slurm host names; NetBox's lengths
#: and uniqueness, with no fabric for Slurm): a plan they cannot take is refused with the reason.
REFUSING_KINDS = {"slurm", "netbox"}


def _known_export_failure(key: str, exc: Exception) -> bool:
    known = KNOWN_EXPORT_FAILURES.get(key)
    return known is not None and type(exc).__name__ == known[0] and known[1] in str(exc)


def _goes_everywhere(text: str, out: Path) -> bool:
    """Load ``text``; if it loads, validate, report and export it every way. Whether it loaded."""
    try:
        doc = _timed("load", lambda: loads(text))
    except HallFileError as error:
        assert "\n" not in str(error) and len(str(error)) < 400, str(error)[:400]
        return False
    _timed("validate", lambda: validate(doc))
    _timed("report", lambda: json.dumps(build_report(doc)))
    for key, kind in EXPORT_KINDS.items():
        path = out / f"plan-{key}{kind.suffix}"
        try:
            _timed(key, lambda key=key, path=path: export_to(doc, key, path))
        except ValueError as exc:  # Slurm and NetBox refuse names they cannot take, in one line
            if key not in REFUSING_KINDS or "\n" in str(exc):
                raise
            assert not path.exists(), key
            continue
        except Exception as exc:  # only a listed known failure may pass
            if not _known_export_failure(key, exc):
                raise
            continue
        assert path.stat().st_size > 0 and (not kind.folder or (path / "README.txt").is_file()), key
    return True


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutations=st.lists(MUTATIONS, min_size=1, max_size=3),
       cut=st.none() | st.none() | st.floats(0.0, 1.0))
def test_a_mutated_example_loads_or_is_refused_and_what_loads_goes_everywhere(mutations, cut, tmp_path_factory):
    _goes_everywhere(_mutated(mutations, cut), tmp_path_factory.mktemp("exports"))


# ------------------------------------------------------------ at the edges
_COLLECTION_CLASS = {name: hint for name, hint in typing.get_type_hints(HallFileContent).items()}
#: Fields whose value must name something (an id, a catalogue key, a port) or be one of a few
#: words the loader checks: changing them is a refusal, tested in tests/unit/io.
_REFERENCES = {"id", "type", "a_port", "b_port", "side", "rotation", "kind", "key", "redundancy", "load_basis",
               "fluid", "floor_method", "units", "paper", "ashrae_class", "format", "version", "custom", "state",
               "status", "tier", "role", "network", "inband_switch_per", "oob_switch_per"} | REFERENCE_FIELDS
_TEXT = st.characters(blacklist_categories=("Cc", "Cs"))
_SPECIAL = ["", " ", "=SUM(A1)", "+1", "-1", "@x", "\t", "R01 ↔ R02", "שלום עולם", "مرحبا", "\u202eevil",
            "机柜一", "한국어", "😀👍🏽", "<b>&amp;</b>", "'; DROP TABLE racks; --", "%s%n", "{0}", "\\server\\share",
            "a" * 199 + "é", "\u200b\u200f\u2028\u2029"]


def _leaves(value: Any, cls: type, path: tuple = ()) -> list[tuple[tuple, str, str, bool]]:
    """(path, class name, field, whole number) of every leaf the edge test may set, three of each list."""
    hints = typing.get_type_hints(cls)
    found = []
    for name, member in value.items():
        hint = hints.get(name)
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hasattr(hint, "__dataclass_fields__"):
            found += _leaves(member, hint, (*path, name))
        elif origin is list and args and hasattr(args[0], "__dataclass_fields__"):
            for index, item in enumerate(member[:3]):
                found += _leaves(item, args[0], (*path, name, index))
        elif name not in _REFERENCES:
            found.append(((*path, name), cls.__name__, name, hint is int))
    return found


LEAVES = _leaves(EXAMPLE, HallFileContent)


@st.composite
def _edge_value(draw, cls_name: str, field: str, whole: bool, current: Any) -> Any:
    """A value the bounds table allows for the field, drawn towards its edges."""
    found = limits(cls_name, field)
    bound = next((x for x in found if isinstance(x, Range)), None)
    text = next((x for x in found if isinstance(x, Text)), None)
    need = KIND_RANGES["node"].get(field) if cls_name == "CatalogItem" else None  # catalog[0] is a node
    if bound is not None and need is not None:
        bound = Range(max(bound.low, need.low), min(bound.high, need.high), bound.unit, need.why)
    if isinstance(current, list) and bound is not None:  # a rectangle with corners at the range's edges
        corner = st.sampled_from([bound.low, bound.high, 0.0, 0.5]) | st.floats(bound.low, bound.high)
        x0, y0 = draw(corner), draw(corner)
        widest = MAX_HALL_M if field == "outline" else bound.high - bound.low  # a hall, or any zone
        room = st.floats(0.1, max(0.1, widest))
        x1, y1 = min(bound.high, x0 + draw(room)), min(bound.high, y0 + draw(room))
        if x1 - x0 < 0.1:
            x0 = x1 - 0.1
        if y1 - y0 < 0.1:
            y0 = y1 - 0.1
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    if isinstance(current, dict) and text is not None:  # design-basis sources
        return draw(st.dictionaries(st.text(_TEXT, max_size=30), st.text(_TEXT, max_size=60), max_size=3))
    if bound is not None and whole:
        return draw(st.sampled_from([int(bound.low), int(bound.high)]) | st.integers(int(bound.low), int(bound.high)))
    if bound is not None:
        return draw(st.sampled_from([float(bound.low), float(bound.high), max(1e-9, float(bound.low))])
                    | st.floats(bound.low, bound.high))
    if text is not None:
        allowed = _TEXT if not text.multiline else _TEXT | st.sampled_from("\n\t")
        longest = st.sampled_from(["W", "ي", "机", "😀", "﷽"]).map(lambda c: c * text.max_chars)
        fits = [t for t in _SPECIAL if len(t) <= text.max_chars and (text.multiline or "\t" not in t)]
        return draw(st.sampled_from(fits)
                    | st.text(allowed, max_size=min(text.max_chars, 120)) | longest)
    return current


@st.composite
def _edge_plans(draw) -> str:
    data = json.loads(json.dumps(EXAMPLE))
    for path, cls_name, field, whole in draw(st.lists(st.sampled_from(LEAVES), min_size=1, max_size=6)):
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        parent[path[-1]] = draw(_edge_value(cls_name, field, whole, parent[path[-1]]))
    _keep_relations(data)
    return json.dumps(data, ensure_ascii=draw(st.booleans()))


def _keep_relations(data: dict) -> None:
    """Put back in order what one drawn edge can put out of order with a field left as it was
    (``planner.model.physical``: a warning above its error, peak below steady): the test is about
    values at the edges of their ranges, refusals of impossible relations are tested apart."""
    basis = data["basis"]
    for low, high, _why in BASIS_ORDER:
        if basis[low] > basis[high]:
            basis[low], basis[high] = basis[high], basis[low]
    for item in data["catalog"]:
        if item.get("power_peak_w") and item["power_peak_w"] < item.get("power_w", 0.0):
            item["power_peak_w"] = item["power_w"]


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=_edge_plans())
def test_a_plan_at_the_edges_of_the_format_loads_and_goes_everywhere(text, tmp_path_factory):
    try:
        loads(text)
    except HallFileError as error:  # the one way a plan within the bounds is refused: its cables
        assert "has no port" in str(error), str(error)  # name ports its node no longer has
        return
    assert _goes_everywhere(text, tmp_path_factory.mktemp("exports"))


def test_commissioning_pdf_of_a_plan_with_nodes_of_two_rail_counts(tmp_path):
    """Found by the fuzz above: the fabric test plan raised FabricError; now it says why there is none."""
    data = json.loads(json.dumps(EXAMPLE))
    data["catalog"][0]["port_cages"] = 4  # the custom node on dev-1: 4 rails beside the others' 8
    data["links"] = [link for link in data["links"] if link["a_device"] != "dev-1"]
    doc = loads(json.dumps(data))
    export_to(doc, "commissioning-pdf", tmp_path / "c.pdf")
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(tmp_path / "c.pdf").pages)
    assert "The fabric mixes node types with 4 and 8 rails: it is not a rail-optimised design" in text
