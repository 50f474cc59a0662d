"""A merge taken into the open plan as one undoable edit (File ▸ Merge…).

``planner merge`` writes the merged plan to a file; the window instead turns the plan it has open
(ours) into the merged plan, so the merge is one step on the undo stack, the plan keeps its file
and its undo history, and validation follows incrementally. The merge itself is
``planner.review.merge.merge_plans``, the same as the command line's: ours is the open plan, so
its ids stay and a conflict keeps its value. Cables both sides re-routed differently are routed
again, as the command line does.

The edit is ``transition_command`` over the ids the merge touched (ours and theirs differ only
there), then the design basis, title block and outline where they differ, the custom types
theirs added or changed, and the NetBox ids theirs learnt. A custom type the merge drops (theirs
deleted it from the file by hand: no edit of the planner removes one) stays in the open plan,
unused; everything else is exactly what ``planner merge`` writes.
"""

from __future__ import annotations

from dataclasses import fields

from planner.commands.base import (
    AddCatalogItem,
    Command,
    Compound,
    RecordNetBox,
    SetAttributes,
    SetOutline,
)
from planner.fabric.relength import recompute_lengths
from planner.model.document import Document
from planner.review.consequences import transition_command
from planner.review.merge import ATTRS, MergeResult, merge_plans
from planner.text import plural

#: Conflicts listed in the summary; the rest are counted.
SHOWN = 30


def merged_result(base: Document, ours: Document, theirs: Document) -> MergeResult:
    """The three-way merge of the open plan (``ours``) with ``theirs``, both revisions of ``base``,
    with the cables both sides re-routed differently routed again. ``ours`` is left as it was."""
    result = merge_plans(base, ours, theirs)
    reroute = [link_id for link_id in result.reroute if link_id in result.doc.links]
    if reroute:
        recompute_lengths(result.doc, reroute).apply(result.doc)
    return result


def merge_command(ours: Document, result: MergeResult, theirs_name: str) -> Command | None:
    """One command turning ``ours`` into ``result.doc`` (None: the merge changes nothing)."""
    merged = result.doc
    touched: set[str] = set()
    for attr in ATTRS:
        touched |= getattr(ours, attr).keys() ^ getattr(merged, attr).keys()
        if result.sides is not None:
            touched |= result.sides.touched.get(attr, set())
    differing = {obj_id for obj_id in touched if ours.find(obj_id) != merged.find(obj_id)}
    children: list[Command] = [transition_command(ours, merged, differing)] if differing else []
    for target in ("basis", "meta"):
        mine, wanted = getattr(ours, target), getattr(merged, target)
        values = {f.name: getattr(wanted, f.name) for f in fields(wanted)
                  if getattr(mine, f.name) != getattr(wanted, f.name)}
        if values:
            children.append(SetAttributes(target, values, f"Merge the {target}"))
    if ours.outline != merged.outline:
        children.append(SetOutline(list(merged.outline)))
    for item in merged.catalog.custom_items():
        if ours.catalog.items.get(item.key) != item:
            children.append(AddCatalogItem(item))
    if merged.netbox != ours.netbox:
        children.append(RecordNetBox(merged.netbox))
    if not children:
        return None
    return Compound(children, f"Merge {theirs_name}")


def done_text(result: MergeResult, theirs_name: str) -> str:
    """What a merge taken in did, for the status bar."""
    return (f"Merged {theirs_name}: {plural(result.from_theirs, 'change')} taken in, "
            f"{plural(len(result.conflicts), 'conflict')}" + (" (the open plan's value kept)" if result.conflicts else "")
            + "; Edit ▸ Undo takes the merge back")


def summary(result: MergeResult, theirs_name: str) -> tuple[str, list[str]]:
    """The merge in one sentence, and its details line by line (conflicts first, then renumbered
    and renamed objects, re-routed cables and notes) for the window's confirmation."""
    head = (f"{theirs_name}: {plural(result.from_theirs, 'change')} to take in, "
            f"{plural(len(result.conflicts), 'conflict')}"
            + (" (the open plan's value is kept there)" if result.conflicts else ""))
    lines: list[str] = []
    if result.conflicts:
        lines.append("Conflicts (the open plan's value kept):")
        lines += [f"  {conflict.text}" for conflict in result.conflicts[:SHOWN]]
        if len(result.conflicts) > SHOWN:
            lines.append(f"  … and {len(result.conflicts) - SHOWN:,} more")
    renumbered = result.to_json()["renumbered"]
    if renumbered:
        lines.append("Their new objects renumbered (the open plan had used the ids):")
        lines += [f"  {r['kind'].replace('_', ' ')} {r['name']}: {r['theirs_id']} → {r['id']}" for r in renumbered]
    if result.renamed:
        lines.append("Their new objects renamed (the open plan had the name):")
        lines += [f"  {r['kind'].replace('_', ' ')} {r['theirs_name']} → {r['name']}" for r in result.renamed]
    if result.reroute:
        lines.append(f"Cables both sides re-routed differently, routed again: {', '.join(result.reroute[:SHOWN])}")
    lines += result.notes
    return head, lines
