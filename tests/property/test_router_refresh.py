"""``Router.refresh`` keeps every rack pair's path equal to a fresh router's after any run of
rack moves: it looks only at the paths indexed by the crossing they use (``_may_cross_elsewhere``),
so this checks that index against re-routing everything, for network racks (whose crossings
move with them, past and onto other crossings) and compute racks alike."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.commands import edits
from planner.fabric.routing import Router
from planner.io import dumps, loads
from planner.layout.templates import build_template

HALL_TEXT = dumps(build_template("hall", nodes=96))


def _keys_agree(router: Router) -> None:
    """Each kept path that uses a crossing is indexed once, under the key ``_keep`` gives it."""
    crossing = {pair for pair, (_run, points) in router._paths.items() if len(points) >= 4}
    assert set(router._crosser_key) == crossing
    for key, pairs in router._crossers.items():
        assert pairs and all(router._crosser_key[pair] == key for pair in pairs)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_refreshed_paths_equal_a_fresh_routers(data):
    doc = loads(HALL_TEXT)
    router = Router(doc)
    racks = sorted(doc.racks)
    network = sorted(router._network)
    for a in racks:
        for b in racks[::3]:
            router.tray_path(a, b)
    step = st.sampled_from([-2.4, -1.2, -0.6, 0.6, 1.2, 2.4])
    for _ in range(data.draw(st.integers(1, 8), label="moves")):
        rack = data.draw(st.sampled_from(network if data.draw(st.booleans(), label="network") else racks),
                         label="rack")
        dx, dy = data.draw(step, label="dx") * data.draw(st.integers(0, 1)), data.draw(step, label="dy")
        edits.move_objects(doc, [rack], dx, dy).apply(doc)
        router.refresh([rack])
        fresh = Router(doc)
        assert {pair: fresh.tray_path(*pair) for pair in router._paths} == router._paths
        _keys_agree(router)
