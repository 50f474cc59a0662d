"""Building many long-lived objects at once without the cyclic collector scanning them.

A loaded plan (100k objects at 32k GPUs) and a full validation's indices and results (millions at
131k GPUs) live as long as the plan or the validator, and make little cyclic garbage. Left to the
collector, building them triggers young and full collections that scan them all and free nothing
(as long as the rest of the load, a third of a full validation); merely pausing it leaves one
collection that scans them all when it resumes. So ``long_lived_objects`` lets collection wait
while they are built (young garbage from before is collected first), then ``freeze``/``unfreeze``
moves every tracked object to the oldest generation in constant time.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def long_lived_objects() -> Iterator[None]:
    """Objects made inside go straight to the oldest generation. Skipped when someone else has
    frozen objects (unfreezing would undo that) or has turned collection off. Single-threaded
    work only: no other thread may be running Python meanwhile (exports run in processes)."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        gc.enable()
