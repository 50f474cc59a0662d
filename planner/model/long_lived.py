"""Building many long-lived objects at once without the cyclic collector scanning them.

A loaded plan (100k objects at 32k GPUs) and a full validation's indices and results (millions at
131k GPUs) live as long as the plan or the validator, and make little cyclic garbage. Left to the
collector, building them triggers young and full collections that scan them all and free nothing
(as long as the rest of the load, a third of a full validation); merely pausing it leaves one
collection that scans them all when it resumes. So ``long_lived_objects`` lets collection wait
while they are built (young garbage from before is collected first), then ``freeze``/``unfreeze``
moves every tracked object to the oldest generation in constant time.

Even there, a full collection now and then scans them all (200 ms at 32k GPUs), and it lands on
whatever runs then, an edit in the window. So the GUI, once a hall is opened and checked and
the window idle, collects once and keeps what survives out of every later collection
(``settle``: the plan lives until another is opened, when ``release`` lets it go).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def long_lived_objects() -> Iterator[None]:
    """Objects made inside go straight to the oldest generation (or, after ``settle``, stay
    out of collections with the plan). Skipped when someone has turned collection off.
    Single-threaded work only: no other thread may be running Python meanwhile (exports run in
    processes)."""
    if not gc.isenabled():
        yield
        return
    settled = gc.get_freeze_count() > 0
    gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if not settled:
            gc.unfreeze()
        gc.enable()


def settle() -> None:
    """Collect everything once, and keep what survives out of later collections (``release``
    undoes it). For a plan that lives on: what it lets go still goes when nothing refers to it,
    only garbage in reference cycles waits for ``release``."""
    gc.collect()
    gc.freeze()


def release() -> None:
    """What ``settle`` kept out of collections is collected again (another plan is opened)."""
    gc.unfreeze()
