"""A fake NetBox 4.6 for the tests of ``planner netbox``: a stateful HTTP server on the loopback
whose answers have the shapes of responses recorded from a real NetBox 4.6.8
(tests/data/netbox_api). ``FakeNetBox().start()``; ``.url``, ``.token``, ``.requests``,
``.store``; ``.stop()``."""

from .server import FakeNetBox, Request
from .store import Refusal, Store

__all__ = ["FakeNetBox", "Refusal", "Request", "Store"]
