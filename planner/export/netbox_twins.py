"""A twin-port copper cable as NetBox holds it: one cable of two port-cables.

A DAC or ACC with a twin-port plug (``planner.model.copper``: a straight twin cable, or a splitter
with its twin plug at one end) is one cable to order, label and install, and two cables of the
plan, one per port. NetBox 4.5+ holds it as one cable with two terminations a side and the cable
profile ``trunk-2c1p`` (``netbox/dcim/cable_profiles.py`` Trunk2C1PCableProfile: two connectors of
one position a side, connector *i* to connector *i*). NetBox gives each termination the connector
of its place in the list the cable was written with (``Cable.update_terminations``), and lists a
side's terminations by connector (CableTermination ``ordering``), so the order pairs them: the
first A end with the first B end. A PATCH keeps the connector of a termination it keeps, so a
pair's ends cannot trade places in one (``tests/data/netbox_api/cables.twin.after-patch.json``).

The NetBox cable's A side is the plan cables' A ends, its B side their B ends, so a pull gives
each plan cable back as it was drawn; a splitter's legs may be on two devices (NetBox pairs them
by place, ``interfaces.splitter.json``). A straight pair drawn one way and back (the A end of
one at the other's B) has no side that is one plug and stays two NetBox cables. The cable's
status is ``connected`` only when both port-cables are run.

Identity: a plan cable is recorded in ``Document.netbox.ids`` by its NetBox cable id; the second
port-cable of a twin cable by ``TWIN_STRIDE`` plus that id (``port_number``), which a pull also
gives it as its plan id (``link-100000000017``: cable 17's second pair). So ``planner diff`` and
``pull --onto`` match each port-cable by identity. NetBox's own ids stay far below the stride.
"""

from __future__ import annotations

from collections.abc import Mapping

from planner.io.netbox_names import cable_status
from planner.model.copper import SPLITTER, STRAIGHT, copper_assemblies
from planner.model.document import Document, natural_key
from planner.model.objects import Link

#: NetBox's cable profile of a twin cable (the module docstring).
TWIN_PROFILE = "trunk-2c1p"
#: A twin cable's port-cable after the first: its record is the cable's id plus this per place (a
#: record is at most 999,999,999,999: ``planner.model.bounds``, NetBoxRecord ids).
TWIN_STRIDE = 10**11
#: The labels of a twin cable's port-cables in its one NetBox label.
LABEL_JOIN = " + "


def port_number(cable_id: int, place: int) -> int:
    """The record of a twin cable's port-cable at ``place`` (0 the first) (module docstring)."""
    return cable_id + place * TWIN_STRIDE


def cable_of(number: int) -> int:
    """The NetBox cable id of a recorded port-cable number."""
    return number % TWIN_STRIDE


def twin_pairs(doc: Document) -> dict[str, tuple[Link, Link]]:
    """The plan's twin cables NetBox holds as one (module docstring), by their first port-cable's
    id: the two port-cables in the order NetBox pairs them (by the A ends' ports)."""
    found: dict[str, tuple[Link, Link]] = {}
    for assembly in copper_assemblies(doc):
        if assembly.shape not in (STRAIGHT, SPLITTER):
            continue
        first, second = sorted(assembly.links, key=lambda link: (natural_key(link.a_port), natural_key(link.b_port)))
        if first.a_device != second.a_device and first.b_device != second.b_device:
            continue  # a straight cable drawn one way and back: no side of it is one plug
        found[first.id] = (first, second)
    return found


def twin_status(pair: tuple[Link, Link]) -> str:
    """A twin cable's NetBox status: ``connected`` once both its port-cables are run."""
    statuses = {cable_status(link.state) for link in pair}
    return statuses.pop() if len(statuses) == 1 else "planned"


def twin_records(ids: Mapping[str, int]) -> set[str]:
    """The plan keys of ``ids`` whose NetBox cable is a twin cable: a second port-cable's record,
    and the first's whose cable has one."""
    seconds = {cable_of(number) for key, number in ids.items() if number >= TWIN_STRIDE and key.startswith("link-")}
    return {key for key, number in ids.items()
            if key.startswith("link-") and (number >= TWIN_STRIDE or number in seconds)}
