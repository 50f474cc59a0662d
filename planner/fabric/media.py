"""Cable media by reach (DESIGN §5 Cables): the cheapest catalogue media whose reach and stock
lengths cover a routed length.

Media are tried in order of reach (passive DAC → active copper → multimode SR4 → single-mode
DR4 → FR4), so copper wins wherever it reaches. A media qualifies when it is sold in a stock
length at least as long as the cable needs and no longer than its reach for the use
(switch-to-switch DAC and Ethernet DR4 have their own reach).

A media made for one kind of jack (``MediaType.connector``: Cat6A twisted pair for RJ45) serves
only cables whose ends are that jack, and such a cable takes nothing else: a BMC or a 1 GbE
management port takes an RJ45 patch cord, never a DAC or an optic (TIA-568.2-D, IEEE 802.3
clause 40), and a QSFP cage never a patch cord.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.model.catalog import Catalog, MediaType


@dataclass(frozen=True)
class MediaChoice:
    """The media and stock length picked for one cable; ``media`` is "" when nothing reaches."""

    media: str
    stock_m: float


NO_MEDIA = MediaChoice("", 0.0)


def media_order(media: dict[str, MediaType]) -> list[MediaType]:
    """Catalogue media, shortest reach first (ties keep catalogue order)."""
    return sorted(media.values(), key=lambda m: m.reach_m)


#: The jack twisted-pair media plug into (``planner.model.ports.CONNECTORS``).
RJ45 = "RJ45"


class EndConnectors:
    """What a cable's ends ask of its media, by the ports' connectors (read once per device type)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._of: dict[str, dict[str, str]] = {}

    def connector(self, type_key: str, port: str) -> str:
        """A port's connector ("RJ45", "OSFP" …; "" when the port is not given)."""
        if type_key not in self._of:
            self._of[type_key] = {p.name: p.connector for p in self.catalog[type_key].ports()}
        return self._of[type_key].get(port, "")

    def of(self, a_type: str, a_port: str, b_type: str, b_port: str) -> str:
        """``RJ45`` when either end is an RJ45 jack (N15 reports a jack cabled to a cage), else ""."""
        return RJ45 if RJ45 in (self.connector(a_type, a_port), self.connector(b_type, b_port)) else ""


def choose_media(ordered: list[MediaType], length_m: float, switch_to_switch: bool,
                 ethernet: bool, connector: str = "") -> MediaChoice:
    """First media in ``ordered`` made for the cable's ``connector`` (RJ45, else any cage: "")
    with a stock length in [length_m, reach]."""
    wanted = connector if connector == RJ45 else ""
    for media in ordered:
        if media.connector != wanted:
            continue
        reach = media.reach_for(switch_to_switch, ethernet)
        for stock in sorted(media.stock_lengths_m):
            if stock > reach + 1e-9:
                break
            if stock >= length_m - 1e-9:
                return MediaChoice(media.key, float(stock))
    return NO_MEDIA

