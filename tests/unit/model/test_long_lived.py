"""The collector around a plan: ``long_lived_objects`` builds without collections and leaves
nothing frozen, unless the plan was ``settle``d (then what it builds stays out of collections
with the plan), and ``release`` gives everything back to the collector."""

from __future__ import annotations

import gc

from planner.model.long_lived import long_lived_objects, release, settle


def test_building_leaves_nothing_frozen_and_collection_on():
    assert gc.get_freeze_count() == 0
    with long_lived_objects():
        assert not gc.isenabled()
        made = [[n] for n in range(1000)]
    assert gc.isenabled() and gc.get_freeze_count() == 0 and len(made) == 1000


def test_a_settled_plan_keeps_what_is_built_for_it_out_of_collections_until_released():
    plan = [[n] for n in range(1000)]
    try:
        settle()
        frozen = gc.get_freeze_count()
        assert frozen >= len(plan)
        with long_lived_objects():
            more = [[n] for n in range(500)]
        assert gc.isenabled() and gc.get_freeze_count() >= frozen + len(more)
    finally:
        release()
    assert gc.get_freeze_count() == 0
