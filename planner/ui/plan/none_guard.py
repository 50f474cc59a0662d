"""Keep ``None`` alive under PySide6 6.12 on Python 3.11.

PySide6-Essentials 6.12.0 returns ``None`` from every void method (QPainter.setPen, drawRect,
save …) without taking a reference. From Python 3.12 ``None`` is immortal (PEP 683) and this
is harmless; on 3.11 each call lowers None's reference count by one, and after a few thousand
painted items the interpreter aborts with "none_dealloc: deallocating None". Painting a hall
makes thousands of such calls per repaint, so the plan raises None's count far out of reach,
which is what 3.12 does by design. The object is static and never freed either way.
"""

from __future__ import annotations

import ctypes
import sys

#: Headroom added to None's reference count: ~10¹² unbalanced calls before it could matter.
HEADROOM = 1 << 40


def keep_none_alive() -> None:
    """Give None a reference count no run of the GUI can wear down (no-op from Python 3.12)."""
    if sys.version_info >= (3, 12):
        return
    count = ctypes.c_ssize_t.from_address(id(None))
    if count.value < HEADROOM:
        count.value += HEADROOM
