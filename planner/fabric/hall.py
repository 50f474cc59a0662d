"""Cable the whole hall: the compute fabric, the storage fabric, both management networks, the
coolant hoses and the power cords, as one undo step (Plan ▸ Generate fabric…, ``planner fabric
-o``).

The order is what each step needs from the ones before it: the storage and management switches
are placed after the compute switches, the out-of-band network connects every switch's
management port (storage and in-band ones too), and the power cords come last, when every
device with PSUs is in its rack. Each step keeps its cables' identity, so regenerating an
unchanged hall changes nothing on any network.
"""

from __future__ import annotations

from planner.fabric.generate import FabricGeneration, generate_fabric
from planner.fabric.hoses import plan_hoses
from planner.fabric.management import plan_inband, plan_oob
from planner.fabric.power_cords import plan_power_cords
from planner.fabric.stages import HallCabling, Step
from planner.fabric.storage_fabric import plan_storage
from planner.model.document import Document
from planner.text import plural

#: The steps after the compute fabric, in the order they run.
STEPS: tuple[Step, ...] = (plan_storage, plan_inband, plan_oob, plan_hoses, plan_power_cords)
#: Before the rows get their PDUs, CDUs and busbars (the switches they place need feeds) …
PLACING_STEPS: tuple[Step, ...] = (plan_storage, plan_inband)
#: … and after (the out-of-band network connects the PDUs, the cords need them).
CONNECTING_STEPS: tuple[Step, ...] = (plan_oob, plan_hoses, plan_power_cords)
#: A one-rack plan (the starter template): the management networks need a network rack of their
#: own (an aggregation pair), so it gets only what stays in its rack.
IN_RACK_STEPS: tuple[Step, ...] = (plan_hoses, plan_power_cords)


def cable_hall(doc: Document, switch_type: str, oversubscription: float = 1.0, placement: str = "middle",
               rack_power_w: float | None = None) -> HallCabling:
    """The command that gives the plan its compute fabric (``generate_fabric``) and then every
    other network, each planned on the plan as the step before left it."""
    first = generate_fabric(doc, switch_type, oversubscription, placement, rack_power_w)
    return HallCabling(first, STEPS, text=f"{first.text} and every other network")


def apply_steps(doc: Document, steps: tuple[Step, ...]) -> None:
    """Plan and apply ``steps`` in order, straight onto the plan (the templates' way: no undo)."""
    for step in steps:
        step(doc).apply(doc)


def compute_generation(command: HallCabling) -> FabricGeneration:
    """The compute fabric's generation of a hall cabling (what the dialog shows before applying)."""
    first = command.first
    assert isinstance(first, FabricGeneration)
    return first


def summary(command: HallCabling) -> list[str]:
    """One line per network once applied, the compute fabric's first as it always read ("cables:
    kept 448, rewired 0, removed 0, added 0"), then "storage: 4 switches; cables kept 0, …"."""
    lines = [f"cables: {compute_generation(command).cables.summary()}"]
    for generation in command.networks:
        switches = sum(generation.switches.values())
        held = f"{plural(switches, 'switch', 'switches')}; " if switches else ""
        lines.append(f"{generation.network}: {held}cables {generation.cables.summary()}")
    return lines


def refusal(command: HallCabling) -> str:
    """Why applying needs confirmation, over every network ("" when nothing past planned is touched)."""
    reasons = [compute_generation(command).cables.refusal(), *(g.cables.refusal() for g in command.networks)]
    return "; ".join(reason for reason in reasons if reason)
