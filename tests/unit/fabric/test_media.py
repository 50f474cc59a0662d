"""Media by reach at each boundary of the built-in catalogue (DESIGN §5 Cables)."""

from __future__ import annotations

import pytest

from planner.fabric.media import choose_media, media_order
from planner.model.catalog import builtin_catalog

ORDER = media_order(builtin_catalog().media)


@pytest.mark.parametrize(("length", "s2s", "ethernet", "media", "stock"), [
    (0.4, False, False, "dac", 0.5),
    (3.0, False, False, "dac", 3.0),      # passive DAC reach 3 m
    (3.01, False, False, "acc", 4.0),
    (2.0, True, False, "dac", 2.0),       # switch-to-switch DAC reach 2 m
    (2.01, True, False, "acc", 4.0),
    (5.0, False, False, "acc", 5.0),      # active copper reach 5 m
    (5.01, False, False, "sr4", 7.0),
    (50.0, False, False, "sr4", 50.0),    # SR4 multimode reach 50 m
    (50.01, False, False, "dr4", 100.0),
    (100.0, False, False, "dr4", 100.0),  # DR4 InfiniBand reach 100 m
    (100.01, False, False, "fr4", 150.0),
    (100.01, False, True, "dr4", 150.0),  # DR4 Ethernet reach 500 m
    (500.0, False, True, "dr4", 500.0),
    (500.01, False, True, "fr4", 1000.0),
    (2000.0, False, False, "fr4", 2000.0),
    (2000.01, False, False, "", 0.0),     # nothing reaches
])
def test_media_at_reach_boundaries(length, s2s, ethernet, media, stock):
    choice = choose_media(ORDER, length, s2s, ethernet)
    assert (choice.media, choice.stock_m) == (media, stock)
