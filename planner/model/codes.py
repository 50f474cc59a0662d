"""Values numbered as they are first seen: how a column of strings (racks, media, tiers) becomes a
numpy column of small integers with one C-level dict lookup per value (``map(codes.__getitem__,
values)``), the number made only for a value not seen before."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


class Codes(dict[K, int]):
    """Value → small integer, numbered as first seen; ``list(codes)`` is the values by number."""

    def __missing__(self, key: K) -> int:
        code = self[key] = len(self)
        return code
