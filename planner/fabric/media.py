"""Cable media by reach (DESIGN §5 Cables): the cheapest catalogue media whose reach and stock
lengths cover a routed length.

Media are tried in order of reach (passive DAC → active copper → multimode SR4 → single-mode
DR4 → FR4), so copper wins wherever it reaches. A media qualifies when it is sold in a stock
length at least as long as the cable needs and no longer than its reach for the use
(switch-to-switch DAC and Ethernet DR4 have their own reach).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.model.catalog import MediaType


@dataclass(frozen=True)
class MediaChoice:
    """The media and stock length picked for one cable; ``media`` is "" when nothing reaches."""

    media: str
    stock_m: float


NO_MEDIA = MediaChoice("", 0.0)


def media_order(media: dict[str, MediaType]) -> list[MediaType]:
    """Catalogue media, shortest reach first (ties keep catalogue order)."""
    return sorted(media.values(), key=lambda m: m.reach_m)


def choose_media(ordered: list[MediaType], length_m: float, switch_to_switch: bool,
                 ethernet: bool) -> MediaChoice:
    """First media in ``ordered`` with a stock length in [length_m, reach]."""
    for media in ordered:
        reach = media.reach_for(switch_to_switch, ethernet)
        for stock in sorted(media.stock_lengths_m):
            if stock > reach + 1e-9:
                break
            if stock >= length_m - 1e-9:
                return MediaChoice(media.key, float(stock))
    return NO_MEDIA

