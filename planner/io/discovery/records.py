"""What the discovery readers hand on: links as the fabric named them, and one error type.

Readers know file formats, not plans: each turns its file into ``RawLink`` records with the
names the tools printed (hostnames, IB port numbers, HCA names, interface names). Matching those
names to the plan's devices and ports is ``planner.io.discovery.naming``'s job, so a reader can
be tested on a file alone and a naming scheme on a name alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

#: How a link's port names are written, which decides how they map to plan ports:
#: PLAN the plan's own names (``P1``, ``1/1``); IB ibnetdiscover's (switch port numbers, HCA
#: names); LLDP network-OS interface names (``Ethernet0``, ``swp1s0``, a host's netdev name).
PLAN, IB, LLDP = "plan", "ib", "lldp"


class DiscoveryError(ValueError):
    """A discovery file that cannot be read: the message names the file and the line."""

    def __init__(self, path: str, line: int, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        super().__init__(f"{path}:{line}: {problem}" if line else f"{path}: {problem}")


@dataclass(slots=True)
class RawLink:
    """One cable as a tool reported it: both ends as (hostname, port name as printed).

    ``rate_gbps`` is the speed the link came up at (None when the format does not say) and
    ``rate`` the tool's own words for it (``4xNDR``); ``source`` is ``file:line``.
    """

    a_host: str
    a_port: str
    b_host: str
    b_port: str
    scheme: str
    source: str
    rate_gbps: float | None = None
    rate: str = ""


def read_text(path: str | os.PathLike[str], error: Callable[[str, int, str], Exception] = DiscoveryError,
              latin1: bool = False) -> tuple[str, str]:
    """The file's name and its text (UTF-8, a byte-order mark dropped). ``error(name, line,
    problem)`` is raised for a file that cannot be read or is not UTF-8 (naming the line), unless
    ``latin1``: then it is read as Latin-1 (ibnetdiscover's NodeDescriptions are raw bytes)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise error(name, 0, f"cannot read: {exc.strerror or exc}") from None
    try:
        return name, data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if latin1:
            return name, data.decode("latin-1")
        raise error(name, data[:exc.start].count(b"\n") + 1, "not UTF-8 text") from None
