"""The Cables dock's choice filters: installation state (issue 13) and network (issue 21), each a
combo of (text, the values shown; empty is every value), reachable by Tab from the table; and
what a highlighted route follows."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox

from planner.model.document import Document
from planner.model.networks import NETWORK_WORDS
from planner.model.objects import CABLE_STATES, Link
from planner.model.ports import NETWORKS

#: The state filter's choices.
STATE_FILTERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("All states", ()),
    ("Not verified", tuple(s for s in CABLE_STATES if s != "verified")),
    *((state.capitalize(), (state,)) for state in CABLE_STATES),
)
#: The network filter's choices: every network, or one (``network_of``: by the cable's tier).
NETWORK_FILTERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("All networks", ()),
    *((NETWORK_WORDS[network][:1].upper() + NETWORK_WORDS[network][1:], (network,)) for network in NETWORKS),
)


def filter_combo(choices: tuple[tuple[str, tuple[str, ...]], ...], tip: str, name: str,
                 compact: bool = False) -> QComboBox:
    """A combo of ``choices`` (the values as each item's data), named for tests and screen readers.
    A ``compact`` one is as wide as its first choice ("All networks"), not its longest ("Out-of-band
    management"), and its list opens as wide as the names: at that width the Cables dock's minimum
    took the palette's column at 1400 px."""
    combo = QComboBox()
    if compact:
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(len(choices[0][0]))
    combo.setObjectName(name)
    combo.setToolTip(tip)
    combo.setAccessibleName(tip)
    for text, values in choices:
        combo.addItem(text, values)
    return combo


def near_link(doc: Document, link: Link) -> set[str]:
    """The cable, its end devices and their racks: what a highlighted route follows (an edit of
    any of them redraws it, a selection of anything else clears it)."""
    ends = [doc.devices[d] for d in (link.a_device, link.b_device) if d in doc.devices]
    return {link.id} | {d.id for d in ends} | {d.rack for d in ends}
