"""A plan diff, and a plan, as lines a reviewer reads: ``planner diff``'s change list (also what
git shows through the diff driver) and the per-object listing git's textconv diffs line by line.

The change list is grouped (added, removed, moved, changed, cables, findings, figures) and names
everything by name: "moved R05 from (3.0, 4.2) to (3.6, 4.2)", "renamed CDU-1 → CDU-A",
"rewired C-0042: R01-N1 P1 → R05-L1 1/1 now → R05-L2 1/1", "feed BB-A01 normal current
312.4 → 356.1 A". The listing has one line per object in id order, so a renamed or moved object
stays on its line and ``git diff`` shows it as one − and one + line side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from planner.model.document import Document, natural_key
from planner.model.objects import COLLECTIONS
from planner.model.references import REFERENCE_WORDS
from planner.review.consequences import FIGURE_KINDS, PlanState, plan_state
from planner.review.diff import (
    KIND_OF_PREFIX,
    PlanDiff,
    display_name,
)
from planner.text import plural

#: Kind words as a sentence says them.
NOUNS = {"zone": "zone", "obstacle": "obstacle", "door": "door", "handoff": "hand-off", "rack": "rack",
         "floor_unit": "floor unit", "busbar": "busbar", "device": "device", "comment": "comment",
         "underlay": "underlay", "basis": "design basis", "title": "title block", "outline": "hall outline",
         "type": "equipment type", "feed": "feed", "cdu": "CDU"}
_FIELD_WORDS = {**REFERENCE_WORDS, "length_m": "length", "stock_m": "stock length", "state_note": "state note"}
_UNITS = {"length_m": " m", "stock_m": " m", "rotation": "°"}


# ------------------------------------------------------------------------------ values
def number(value: float) -> str:
    """A float with what precision it has, up to 3 decimals, at least one: 3.0, 4.25, 0.125."""
    text = f"{value:.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def value_text(value: Any, unit: str = "") -> str:
    if value is None or value == "":
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return number(value) + unit
    if isinstance(value, int):
        return f"{value}{unit}"
    if isinstance(value, list):
        return polygon_text(value) if value and isinstance(value[0], (list, tuple)) else ", ".join(map(str, value))
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items()) or "(none)"
    return " ".join(str(value).split())


def polygon_text(points: list) -> str:
    """A polygon by its extent and corners: "(0.0, 0.0)–(10.2, 6.0), 4 corners"."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return f"({number(min(xs))}, {number(min(ys))})–({number(max(xs))}, {number(max(ys))}), {len(points)} corners"


def field_word(name: str) -> str:
    return _FIELD_WORDS.get(name, name.replace("_", " "))


def _point(place: dict[str, Any], x: str = "x", y: str = "y") -> str:
    return f"({number(place[x])}, {number(place[y])})"


def place_text(kind: str, place: dict[str, Any]) -> str:
    """Where an object is, as the moved line says it."""
    if "polygon" in place:
        return value_text(place["polygon"])
    if "x1" in place:
        return f"{_point(place, 'x1', 'y1')}–{_point(place, 'x2', 'y2')}"
    if "u" in place:
        return f"{place['rack']} U{place['u']}"
    text = _point(place)
    return f"{text} at {place['rotation']}°" if "rotation" in place and kind != "rack" else text


# -------------------------------------------------------------------------- change list
def _subject(entry: dict[str, Any]) -> str:
    """An object as a line names it: a rack by its name (racks are what a hall is made of), the
    design basis, title block and outline by what they are, anything else with its kind first."""
    if entry["kind"] in ("rack", "basis", "title", "outline"):  # plan-wide entries are named by what they are
        return entry["name"]
    return f"{NOUNS.get(entry['kind'], entry['kind'])} {entry['name']}"


def _moved_line(entry: dict[str, Any]) -> str:
    was, now = entry["from"], entry["to"]
    kind = entry["kind"]
    if "polygon" in was:
        return f"moved {_subject(entry)} from {place_text(kind, was)} to {place_text(kind, now)}"
    line = f"moved {_subject(entry)} from {place_text(kind, was)} to {place_text(kind, now)}"
    if kind == "rack" and was["rotation"] != now["rotation"]:
        line += f", turned {was['rotation']}° → {now['rotation']}°"
    return line


def _changes_text(changes: dict[str, dict[str, Any]]) -> str:
    return "; ".join(f"{field_word(name)} {value_text(c['old'], _UNITS.get(name, ''))} → "
                     f"{value_text(c['new'], _UNITS.get(name, ''))}" for name, c in changes.items())


def _changed_lines(entry: dict[str, Any]) -> list[str]:
    changes = dict(entry["fields"])
    lines = []
    if "name" in changes and entry["kind"] not in ("basis", "title"):
        rename = changes.pop("name")
        noun = "" if entry["kind"] == "rack" else f"{NOUNS.get(entry['kind'], entry['kind'])} "
        lines.append(f"renamed {noun}{value_text(rename['old'])} → {value_text(rename['new'])}")
    if changes:
        lines.append(f"{_subject(entry)}: {_changes_text(changes)}")
    return lines


def _rewired_line(entry: dict[str, Any]) -> str:
    was, now = entry["from"], entry["to"]
    if was["a"] == now["a"]:
        ends = f"{was['a']} → {was['b']} now → {now['b']}"
    elif was["b"] == now["b"]:
        ends = f"{was['a']} now {now['a']} → {now['b']}"
    else:
        ends = f"{was['a']} → {was['b']} now {now['a']} → {now['b']}"
    return f"rewired {entry['label'] or entry['id']}: {ends}"


def _cable_line(word: str, entry: dict[str, Any]) -> str:
    """"removed R05-PDU-A1 mgmt0 → R05-MO5 1": a derived label only restates the ends (and
    doubled the line, wider than the Changes dock's column at 1920), so only a typed one is
    shown ("removed C-0001: …")."""
    ends = f"{entry['a']} → {entry['b']}"
    return f"{word} {entry['label']}: {ends}" if entry["typed"] else f"{word} {ends}"


def _finding_line(word: str, finding: dict[str, Any]) -> str:
    return f"{word:<8} {finding['severity']:<7} {finding['rule']:<3} {finding['message']}"


def _figure_line(entry: dict[str, Any]) -> str:
    unit = entry["unit"]
    old, new = entry["old"], entry["new"]
    head = f"{NOUNS[entry['kind']]} {entry['name']} {entry['figure']}"
    if old is None or new is None:
        return f"{head} {'—' if old is None else number(old)} → {'—' if new is None else number(new)} {unit}"
    return f"{head} {number(old)} → {number(new)} {unit} ({'+' if new >= old else '−'}{number(abs(new - old))})"


@dataclass(frozen=True)
class Line:
    """One line of the change list with the entry it describes and how that entry differs:
    added, removed, moved, changed (objects and cables), rewired (cables), new, resolved
    (findings) or figure. The GUI's Changes dock lists these and centres the plan on ``entry``."""

    text: str
    entry: dict[str, Any]
    status: str


def _added_text(entry: dict[str, Any]) -> str:
    where = f" at ({number(entry['x'])}, {number(entry['y'])})" if entry["x"] is not None else ""
    return f"{_subject(entry)}{where}"


def sections(diff: PlanDiff) -> list[tuple[str, list[Line]]]:
    """The change list as (heading with its count, lines) per group, empty groups left out."""
    cables, found = diff.cables, diff.findings
    counts = [f"{len(cables[word]):,} {word}" for word in ("added", "removed", "rewired", "changed") if cables[word]]
    cable_count = sum(len(entries) for entries in cables.values())
    groups = [
        (f"Added ({len(diff.added):,})", [Line(_added_text(e), e, "added") for e in diff.added]),
        (f"Removed ({len(diff.removed):,})", [Line(_subject(e), e, "removed") for e in diff.removed]),
        (f"Moved ({len(diff.moved):,})", [Line(_moved_line(e), e, "moved") for e in diff.moved]),
        (f"Changed ({len(diff.changed):,})", [Line(text, e, "changed") for e in diff.changed
                                              for text in _changed_lines(e)]),
        (f"Cables ({cable_count:,}): {', '.join(counts)}", [
            *(Line(_cable_line("added", e), e, "added") for e in cables["added"]),
            *(Line(_cable_line("removed", e), e, "removed") for e in cables["removed"]),
            *(Line(_rewired_line(e), e, "rewired") for e in cables["rewired"]),
            *(Line(f"changed {e['label'] or e['id']}: {_changes_text(e['fields'])}", e, "changed")
              for e in cables["changed"])]),
        (f"Findings: {len(found['new']):,} new, {len(found['resolved']):,} resolved", [
            *(Line(_finding_line("new", f), f, "new") for f in found["new"]),
            *(Line(_finding_line("resolved", f), f, "resolved") for f in found["resolved"])]),
        (f"Figures ({len(diff.figures):,})", [Line(_figure_line(e), e, "figure") for e in diff.figures]),
    ]
    return [(title, lines) for title, lines in groups if lines]


def change_lines(diff: PlanDiff) -> list[str]:
    """The change list, grouped, one change a line (section headings with their counts)."""
    return [text for title, lines in sections(diff) for text in (title, *(f"  {line.text}" for line in lines))]


def summary_line(doc: Document) -> str:
    """A whole plan in one line (git's view of an added or deleted file)."""
    counts = [plural(len(getattr(doc, attr)), "cable" if prefix == "link" else NOUNS[KIND_OF_PREFIX[prefix]])
              for prefix, (attr, _cls) in COLLECTIONS.items() if getattr(doc, attr)]
    return ", ".join(counts) if counts else "an empty plan"


# ------------------------------------------------------------------------------ listing
def _record_text(obj: Any, skip: tuple[str, ...] = ()) -> str:
    parts = []
    for f in fields(obj):
        value = getattr(obj, f.name)
        if f.name in ("id", "name", *skip) or value in ("", None, [], {}):
            continue
        shown = value
        if isinstance(shown, list):
            shown = " ".join(f"({number(p[0])}, {number(p[1])})" if isinstance(p, (list, tuple)) else str(p)
                             for p in shown)
        elif isinstance(shown, float):
            shown = number(shown)
        parts.append(f"{f.name}={' '.join(str(shown).split())}")
    return " ".join(parts)


def listing(doc: Document, state: PlanState | None = None) -> list[str]:
    """Every object of the plan, one line each in id order, then its findings and design figures
    (``state``; worked out when not given): the text git's textconv driver diffs.

    An object is named by its own name; what it points at (feeds, CDU, rack, cable ends) by id,
    so renaming a rack changes its line only, not those of its devices and cables."""
    lines = [f"title {f.name}: {value_text(getattr(doc.meta, f.name))}" for f in fields(doc.meta)]
    lines += [f"basis {f.name}: {value_text(getattr(doc.basis, f.name))}" for f in fields(doc.basis)]
    lines.append("outline " + " ".join(f"({number(x)}, {number(y)})" for x, y in doc.outline))
    lines += [f"type {item.key}: {_record_text(item, ('key',))}"
              for item in sorted(doc.catalog.custom_items(), key=lambda i: i.key)]
    for prefix, (attr, _cls) in COLLECTIONS.items():
        for obj_id in sorted(getattr(doc, attr), key=natural_key):
            obj = getattr(doc, attr)[obj_id]
            if prefix == "link":
                lines.append(f"cable {obj.label or '(no label)'} [{obj_id}] {obj.a_device} {obj.a_port} → "
                             f"{obj.b_device} {obj.b_port} "
                             f"{_record_text(obj, ('a_device', 'a_port', 'b_device', 'b_port', 'label'))}")
            else:
                name = obj.name if hasattr(obj, "name") else display_name(doc, obj)
                lines.append(f"{KIND_OF_PREFIX[prefix]} {name} [{obj_id}] {_record_text(obj)}")
    state = state if state is not None else plan_state(doc)
    lines += [f"finding {f.severity} {f.rule} {f.message}" for f in state.findings]
    lines += [f"figure {NOUNS[f.kind]} {f.name} {f.figure}: {number(f.rounded())} {f.unit}"
              for f in sorted(state.figures.values(), key=lambda f: (FIGURE_KINDS.index(f.kind), natural_key(f.name),
                                                                     f.figure))]
    return [line.rstrip() for line in lines]
