"""Shared pieces of the subcommands: reading a plan with the contract's exit code 2."""

from __future__ import annotations

import sys

from planner.io import HallFileError, load
from planner.model.document import Document

EXIT_UNREADABLE = 2


class CliExit(SystemExit):
    """Leave with a code after one line on stderr."""


def load_or_exit(path: str) -> Document:
    """Load a plan; on failure print one line to stderr and exit with code 2."""
    try:
        return load(path)
    except HallFileError as exc:
        where = "" if exc.path == "$" else f" at {exc.path}"
        first_line = str(exc).splitlines()[0] if str(exc) else "unreadable"
        print(f"planner: {path}: {first_line}{where if exc.path not in first_line else ''}", file=sys.stderr)
        raise CliExit(EXIT_UNREADABLE) from None
