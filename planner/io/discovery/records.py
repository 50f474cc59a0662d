"""What the discovery readers hand on: links as the fabric named them, and one error type.

Readers know file formats, not plans: each turns its file into ``RawLink`` records with the
names the tools printed (hostnames, IB port numbers, HCA names, interface names). Matching those
names to the plan's devices and ports is ``planner.io.discovery.naming``'s job, so a reader can
be tested on a file alone and a naming scheme on a name alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
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


#: The largest file each reader takes, refused before it is read (a ``MemoryError`` at 2 GB is
#: not an answer). The measure is the largest hall the planner plans, 131,072 GPUs: its fabric has
#: about 393k cables (node–leaf, leaf–spine and spine–core, one per GPU each) and its
#: ibnetdiscover file is about 90 MB (every cable printed from both ends, ~115 bytes a line).
#: - ibnetdiscover 256 MB: 2.8 times that file, room for long NodeDescriptions and ``-g`` lines.
#: - links CSV 128 MB: a million rows of 128 characters, 2.5 times that hall's cables with
#:   long names (its own CSV is about 25 MB).
#: - LLDP 16 MB per file: one file is one host's or one switch's neighbours; a 256-port switch's
#:   ``lldpcli -f json0`` output is about 1 MB (~4 KB a neighbour), so 16 times that.
#: - cable list 256 MB (``planner.io.cable_list.MAX_BYTES``: that hall's full schedule is ~120 MB).
MAX_BYTES = {"ibnetdiscover": 256 << 20, "links CSV": 128 << 20, "LLDP": 16 << 20, "tick sheet": 128 << 20,
             "cable list": 256 << 20}


def _megabytes(size: int) -> str:
    return f"{size / (1 << 20):,.0f} MB" if size >= 1 << 20 else f"{size:,} bytes"


def check_size(name: str, kind: str, error: Callable[[str, int, str], Exception] = DiscoveryError) -> None:
    """Refuse a file larger than ``MAX_BYTES[kind]`` before a byte of it is read (or a name that
    is not a regular file: a FIFO or a device would never end)."""
    try:
        info = os.stat(name)
    except OSError as exc:
        raise error(name, 0, f"cannot read: {exc.strerror or exc}") from None
    if os.path.isdir(name):
        raise error(name, 0, "cannot read: a folder, not a file")
    if not os.path.isfile(name):
        raise error(name, 0, "cannot read: not a regular file")
    limit = MAX_BYTES.get(kind, MAX_BYTES["links CSV"])
    if info.st_size > limit:
        raise error(name, 0, f"{_megabytes(info.st_size)} is too large for a {kind} file (at most "
                             f"{_megabytes(limit)}; a 131,072-GPU hall's is well under that)")


def read_text(path: str | os.PathLike[str], error: Callable[[str, int, str], Exception] = DiscoveryError,
              latin1: bool = False, kind: str = "links CSV") -> tuple[str, str]:
    """The file's name and its text (UTF-8, a byte-order mark dropped). ``error(name, line,
    problem)`` is raised for a file that cannot be read, is larger than ``MAX_BYTES[kind]`` or is
    not UTF-8 (naming the line), unless ``latin1``: then it is read as Latin-1 (ibnetdiscover's
    NodeDescriptions are raw bytes)."""
    name = os.fspath(path)
    check_size(name, kind, error)
    try:
        with open(name, "rb") as handle:
            data = handle.read(MAX_BYTES.get(kind, MAX_BYTES["links CSV"]) + 1)
    except OSError as exc:
        raise error(name, 0, f"cannot read: {exc.strerror or exc}") from None
    try:
        return name, data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if latin1:
            return name, data.decode("latin-1")
        raise error(name, data[:exc.start].count(b"\n") + 1, "not UTF-8 text") from None


def read_lines(path: str | os.PathLike[str], kind: str, latin1: bool = False,
               error: Callable[[str, int, str], Exception] = DiscoveryError) -> tuple[str, Iterator[str]]:
    """The file's name and its lines, read as they are used (a 90 MB file is never held whole).

    Each line is UTF-8 (a leading byte-order mark dropped); with ``latin1`` a line that is not is
    read as Latin-1, else ``error`` names it. Lines keep their ends (``csv`` needs them)."""
    name = os.fspath(path)
    check_size(name, kind, error)
    try:
        handle = open(name, "rb")  # noqa: SIM115 (closed by the generator)
    except OSError as exc:
        raise error(name, 0, f"cannot read: {exc.strerror or exc}") from None

    def lines() -> Iterator[str]:
        number = 0
        try:
            with handle:
                for number, raw in enumerate(handle, start=1):
                    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                        raw = raw[3:]
                    try:
                        yield raw.decode("utf-8")
                    except UnicodeDecodeError:
                        if not latin1:
                            raise error(name, number, "not UTF-8 text") from None
                        yield raw.decode("latin-1")
        except OSError as exc:
            raise error(name, number + 1, f"cannot read: {exc.strerror or exc}") from None

    return name, lines()
