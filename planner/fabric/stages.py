"""Cabling a whole hall as one undo step: the compute fabric first, then every other network.

The storage fabric, the management networks, the power cords and the coolant hoses each need
what the step before placed (the management switches serve the compute switches too, a switch's
PSUs need the PDUs its rack was given), so each is planned on the plan as the step before left
it. ``HallCabling`` applies the steps in order the first time, keeping the command each step
built, and replays and reverts exactly those afterwards: undo and redo never plan again.

Each step is a function of the plan returning a ``NetworkGeneration``: one network's command,
with what it does to that network's cables (``reconcile``, so every cable keeps its identity
and state through a regeneration) and the switches it holds, by role.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from planner.commands.base import Command, Compound
from planner.fabric.reconcile import CablePlan
from planner.model.change import Change
from planner.model.document import Document


class NetworkGeneration(Compound):
    """One network's generation: its command, its cables' plan and its switches by role."""

    def __init__(self, network: str, children: list[Command], text: str, cables: CablePlan,
                 switches: dict[str, int] | None = None) -> None:
        super().__init__(children, text=text)
        self.network = network
        self.cables = cables
        self.switches = dict(switches or {})

    @property
    def changes_nothing(self) -> bool:
        return not self.children


#: A step: the plan as the steps before left it → that step's generation.
Step = Callable[[Document], NetworkGeneration]


class HallCabling(Command):
    """The compute fabric's generation, then each step planned on the plan as the one before left
    it, as one undo step. ``generations`` holds each step's generation once applied (the first
    is the compute fabric's, ``planner.fabric.generate.FabricGeneration``)."""

    def __init__(self, first: Compound, steps: Sequence[Step], text: str) -> None:
        self.first = first
        self.steps = list(steps)
        self.text = text
        self.generations: list[Compound] = []

    def apply(self, doc: Document) -> Change:
        change = Change()
        if self.generations:  # redo: what was planned the first time, exactly
            for generation in self.generations:
                change.merge(generation.apply(doc))
            return change
        change.merge(self.first.apply(doc))
        self.generations.append(self.first)
        for step in self.steps:
            generation = step(doc)
            change.merge(generation.apply(doc))
            self.generations.append(generation)
        return change

    def revert(self, doc: Document) -> Change:
        change = Change()
        for generation in reversed(self.generations):
            change.merge(generation.revert(doc))
        return change

    @property
    def networks(self) -> list[NetworkGeneration]:
        """The steps' generations once applied, in order (not the compute fabric's)."""
        return [g for g in self.generations if isinstance(g, NetworkGeneration)]

    @property
    def changes_nothing(self) -> bool:
        return all(not generation.children for generation in self.generations)
